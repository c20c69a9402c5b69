package modelgen

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
)

// chart is the statechart view of a parsed SCXML document: its states and
// transitions, named as the reader names them.
type chart struct {
	doc    *document
	src    string           // the document as it was read
	root   *node            // <scxml>
	states []*node          // state, parallel, final and history elements, document order
	ids    map[*node]string // every state's id (anonymous ones as the reader names them)
	byID   map[string]*node
	trans  []*trans        // transitions of state and parallel elements, document order
	gens   []generation    // the raises and sends of the document as read
	taken  map[string]bool // names fresh has returned
}

// trans is a transition of a <state> or <parallel>.
type trans struct {
	el, source *node
	id         string // the model's identity of the transition (model.Transition.ID)
}

// stateTags are the elements that are states (history pseudo-states
// included).
var stateTags = []string{"state", "parallel", "final", "history"}

// isState reports whether n is a state element.
func isState(n *node) bool {
	return slices.ContainsFunc(stateTags, n.is)
}

// newChart parses src; it returns nil when src is not an SCXML document.
func newChart(src []byte) *chart {
	doc, err := parseDocument(src)
	if err != nil || !doc.root.is("scxml") {
		return nil
	}
	c := &chart{doc: doc, src: string(src), root: doc.root, ids: make(map[*node]string),
		byID: make(map[string]*node), taken: make(map[string]bool)}
	anon := 0
	var visit func(n *node)
	visit = func(n *node) {
		for _, k := range n.elems() {
			if !isState(k) {
				continue
			}
			id, ok := k.attr("id")
			if !ok || strings.TrimSpace(id) == "" {
				anon++
				id = fmt.Sprintf("_anon%d", anon)
			}
			c.states = append(c.states, k)
			c.ids[k] = id
			c.byID[id] = k
			if !k.is("history") && !k.is("final") {
				visit(k)
			}
		}
	}
	visit(c.root)
	c.gens = generations(c.root)
	for _, s := range c.states {
		if s.is("history") {
			continue
		}
		for _, t := range s.elems() {
			if t.is("transition") {
				c.trans = append(c.trans, &trans{el: t, source: s, id: c.identity(t)})
			}
		}
	}
	return c
}

// structuralID spells a transition's identity from its source, events and
// targets, as the reader does before it numbers duplicates.
func (c *chart) structuralID(source, t *node) string {
	ev, _ := t.attr("event")
	tg, _ := t.attr("target")
	return c.ids[source] + ":" + strings.Join(strings.Fields(ev), " ") + ">" + strings.Join(strings.Fields(tg), " ")
}

// identity returns the model's identity of a transition element as the
// tree is now: its setbot:id, or its structural identity numbered among
// the transitions of its source up to it.
func (c *chart) identity(t *node) string {
	if x, ok := t.setbotAttr("id"); ok {
		return x
	}
	s := t.parent
	base := c.structuralID(s, t)
	n := 0
	for _, k := range s.elems() {
		if k.is("transition") && c.structuralID(s, k) == base {
			n++
		}
		if k == t {
			break
		}
	}
	if n == 1 {
		return base
	}
	return fmt.Sprintf("%s#%d", base, n)
}

// nextID returns the identity a new transition from source with the given
// structural identity gets when it comes after source's transitions.
func (c *chart) nextID(source *node, base string) string {
	n := 1
	for _, t := range source.elems() {
		if t.is("transition") && c.structuralID(source, t) == base {
			n++
		}
	}
	if n == 1 {
		return base
	}
	return fmt.Sprintf("%s#%d", base, n)
}

// explicitIDs returns the setbot:id values of the transitions.
func (c *chart) explicitIDs() map[string]bool {
	out := make(map[string]bool)
	for _, t := range c.trans {
		if x, ok := t.el.setbotAttr("id"); ok {
			out[x] = true
		}
	}
	return out
}

// transition returns the transition with the given identity.
func (c *chart) transition(id string) *trans {
	for _, t := range c.trans {
		if t.id == id {
			return t
		}
	}
	return nil
}

// childStates returns the state, parallel and final children of n.
func childStates(n *node) []*node {
	var out []*node
	for _, k := range n.elems() {
		if k.is("state") || k.is("parallel") || k.is("final") {
			out = append(out, k)
		}
	}
	return out
}

// proper returns the state and parallel children of n: those a transition
// or an initial may lead to without finishing anything.
func proper(n *node) []*node {
	var out []*node
	for _, k := range n.elems() {
		if k.is("state") || k.is("parallel") {
			out = append(out, k)
		}
	}
	return out
}

// isCompound reports whether n is a <state> with child states.
func isCompound(n *node) bool { return n.is("state") && len(childStates(n)) > 0 }

// isAtomic reports whether n is a <state> without child states, or a final
// state.
func isAtomic(n *node) bool { return n.is("final") || n.is("state") && len(childStates(n)) == 0 }

// ancestors returns the state elements above n, innermost first, <scxml>
// excluded.
func ancestors(n *node) []*node {
	var out []*node
	for p := n.parent; p != nil && isState(p); p = p.parent {
		out = append(out, p)
	}
	return out
}

// inside reports whether n lies inside anc (or is anc).
func inside(n, anc *node) bool {
	for p := n; p != nil; p = p.parent {
		if p == anc {
			return true
		}
	}
	return false
}

// descendants returns the state elements below n.
func descendants(n *node) []*node {
	var out []*node
	for _, k := range n.elems() {
		if isState(k) {
			out = append(out, k)
			out = append(out, descendants(k)...)
		}
	}
	return out
}

// defaultChild returns the child state that entering n (a compound state
// or <scxml>) enters, or that contains the state it enters.
func (c *chart) defaultChild(n *node) *node {
	var target string
	if v, ok := n.attr("initial"); ok {
		target = v
	}
	for _, k := range n.elems() {
		if k.is("initial") {
			for _, t := range k.elems() {
				if t.is("transition") {
					target, _ = t.attr("target")
				}
			}
		}
	}
	if f := strings.Fields(target); len(f) > 0 {
		if s := c.byID[f[0]]; s != nil {
			for _, k := range childStates(n) {
				if inside(s, k) {
					return k
				}
			}
		}
	}
	if kids := childStates(n); len(kids) > 0 {
		return kids[0]
	}
	return nil
}

// reads matches code that reads an event parameter.
var reads = regexp.MustCompile(`_event\b`)

// readsEvent reports whether code in n's subtree reads the event.
func readsEvent(n *node) bool {
	found := false
	n.walk(func(x *node) {
		switch x.kind {
		case elementNode:
			for _, a := range x.attrs {
				if reads.MatchString(a.Value) {
					found = true
				}
			}
		case textNode:
			if reads.MatchString(x.text) {
				found = true
			}
		}
	})
	return found
}

// tainted reports whether code that runs on whatever event enters or
// leaves s reads the event: entry, exit, initial or history content, or an
// eventless transition of s.
func tainted(s *node) bool {
	for _, k := range s.elems() {
		switch {
		case k.is("onentry"), k.is("onexit"), k.is("initial"), k.is("history"):
			if readsEvent(k) {
				return true
			}
		case k.is("transition"):
			if _, evented := k.attr("event"); !evented && readsEvent(k) {
				return true
			}
		}
	}
	return false
}

// safe reports whether an event may newly enter or leave the given states
// without reaching code that reads the event outside a transition on it:
// no state around them (their ancestors, their descendants, and what their
// eventless transitions lead to) is tainted.
func (c *chart) safe(states ...*node) bool {
	seen := make(map[*node]bool)
	var queue []*node
	add := func(s *node) {
		for _, x := range append(append([]*node{s}, ancestors(s)...), descendants(s)...) {
			if !seen[x] {
				seen[x] = true
				queue = append(queue, x)
			}
		}
	}
	for _, s := range states {
		add(s)
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if tainted(s) {
			return false
		}
		for _, t := range s.elems() {
			if _, evented := t.attr("event"); t.is("transition") && !evented {
				for _, id := range targets(t) {
					if x := c.byID[id]; x != nil {
						add(x)
					}
				}
			}
		}
	}
	return true
}

// targets returns the target ids of a transition.
func targets(t *node) []string {
	v, _ := t.attr("target")
	return strings.Fields(v)
}

// events returns the descriptors of a transition.
func events(t *node) []string {
	v, _ := t.attr("event")
	return strings.Fields(v)
}

// codeScan matches raises and sends in scripts, and the host calls that
// raise and send (HostCalls writes SCXML.send and notify(...) only for an
// output).
var codeScan = regexp.MustCompile(`\b(raise|send)\s+([A-Za-z_][\w.]*)|SCXML\.(raise|send)\(\{(?:event: \{)?name: "([\w.]+)"|\b(notify)\(`)

// sendTarget matches the target of a send statement.
var sendTarget = regexp.MustCompile(`\bto\s*"([^"]*)"`)

// generation is one raise or send: the event's name, and whether it goes
// to the machine itself (internal, self or timer) rather than out.
type generation struct {
	event string
	self  bool
}

// generations returns the raises and sends in n's subtree.
func generations(n *node) []generation {
	var out []generation
	n.walk(func(x *node) {
		switch {
		case x.is("raise"):
			ev, _ := x.attr("event")
			out = append(out, generation{ev, true})
		case x.is("send"):
			ev, _ := x.attr("event")
			tg, _ := x.attr("target")
			tg = strings.TrimSpace(tg)
			out = append(out, generation{ev, tg == "" || tg == "#_internal"})
		case x.kind == textNode && x.parent != nil && x.parent.is("script"):
			for _, m := range codeScan.FindAllStringSubmatchIndex(x.text, -1) {
				if m[10] >= 0 { // a host function's call
					out = append(out, generation{"notify", false})
					continue
				}
				if m[6] >= 0 { // SCXML.raise or SCXML.send
					out = append(out, generation{x.text[m[8]:m[9]], x.text[m[6]:m[7]] == "raise"})
					continue
				}
				ev := x.text[m[4]:m[5]]
				if x.text[m[2]:m[3]] == "raise" {
					out = append(out, generation{ev, true})
					continue
				}
				stmt := x.text[m[1]:]
				if end := strings.IndexAny(stmt, ";\n}"); end >= 0 {
					stmt = stmt[:end]
				}
				to := sendTarget.FindStringSubmatch(stmt)
				out = append(out, generation{ev, to == nil || to[1] == "#_internal"})
			}
		}
	})
	return out
}

// generatesOwn reports whether n's subtree raises or sends an event to the
// machine itself: removing it could leave a handler reading parameters
// that nothing passes any more.
func generatesOwn(n *node) bool {
	return slices.ContainsFunc(generations(n), func(g generation) bool { return g.self })
}

// sent returns the events raised or sent anywhere in the document.
func (c *chart) sent() map[string]bool {
	out := make(map[string]bool)
	for _, g := range c.gens {
		out[g.event] = true
	}
	return out
}

// declarations returns the <setbot:event> elements by event name.
func (c *chart) declarations() map[string]*node {
	out := make(map[string]*node)
	for _, k := range c.root.elems() {
		if k.isSetbot("event") {
			if name, ok := k.attr("name"); ok {
				out[strings.TrimSpace(name)] = k
			}
		}
	}
	return out
}

// inputEvents returns, in order of first mention, the events the
// environment sends that the machine never generates itself: declared
// ones and those named exactly by a transition (not done.state events).
func (c *chart) inputEvents() []string {
	own := make(map[string]bool)
	for _, g := range c.gens {
		if g.self {
			own[g.event] = true
		}
	}
	var out []string
	add := func(name string) {
		if name != "" && !own[name] && !slices.Contains(out, name) && !strings.HasPrefix(name, "done.") &&
			!strings.Contains(name, "*") {
			out = append(out, name)
		}
	}
	for _, k := range c.root.elems() {
		if k.isSetbot("event") {
			name, _ := k.attr("name")
			add(strings.TrimSpace(name))
		}
	}
	for _, t := range c.trans {
		for _, d := range events(t.el) {
			if !strings.HasSuffix(d, ".*") && !strings.HasSuffix(d, ".") {
				add(d)
			}
		}
	}
	return out
}

// inputOnly reports whether every event a transition's descriptors match is
// an input event: none is generated by the machine, a done.state event or a
// wildcard.
func (c *chart) inputOnly(t *node) bool {
	ds := events(t)
	if len(ds) == 0 {
		return false
	}
	for _, d := range ds {
		if d == "*" || strings.HasPrefix(d, "done.") || d == "done" {
			return false
		}
		for _, g := range c.gens {
			if g.self && model.DescriptorMatches(d, g.event) {
				return false
			}
		}
	}
	return true
}

// fresh returns a name built on base that occurs nowhere in the document,
// not even inside another word, and that no earlier call returned.
func (c *chart) fresh(base string) string {
	name := base
	for i := 2; strings.Contains(c.src, name) || c.taken[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	c.taken[name] = true
	return name
}
