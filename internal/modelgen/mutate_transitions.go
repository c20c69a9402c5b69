package modelgen

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model"
)

// addTransition adds a transition on an input event from a state to an
// enterable state, after the source's other transitions (so it has the
// lowest priority among them).
func (m *mutator) addTransition() (Edit, bool) {
	inputs := m.inputEvents()
	sources := m.named(enterable)
	dests := m.named(enterable)
	explicit := m.explicitIDs()
	n := len(sources) * len(inputs) * len(dests)
	var id string
	i := m.first(n, func(i int) bool {
		s, ev, d := sources[i%len(sources)], inputs[i/len(sources)%len(inputs)], dests[i/len(sources)/len(inputs)]
		id = m.nextID(s, m.ids[s]+":"+ev+">"+m.ids[d])
		return !explicit[id] && m.safe(s, d)
	})
	if i < 0 {
		return Edit{}, false
	}
	s, ev, d := sources[i%len(sources)], inputs[i/len(sources)%len(inputs)], dests[i/len(sources)/len(inputs)]
	t := newChild(s, "transition", "event", ev, "target", m.ids[d])
	placeTransition(s, t)
	return Edit{Change{TransitionAdded, id}, fmt.Sprintf("transition %s added", id)}, true
}

// placeTransition puts a new transition after the last transition of s,
// or before its first child state, or last.
func placeTransition(s, t *node) {
	var last, firstState *node
	for _, k := range s.elems() {
		switch {
		case k.is("transition"):
			last = k
		case isState(k) && firstState == nil && !k.is("history"):
			firstState = k
		}
	}
	switch {
	case last != nil:
		s.insertAfter(last, t)
	case firstState != nil:
		s.insertBefore(firstState, t)
	default:
		s.appendChild(t)
	}
}

// removeTransition removes a transition whose content sends nothing to the
// machine (a handler could lose the only source of a parameter), and after
// which what it preempted may fire (see unpreempt). An eventless one may
// have left a state that now stays active: it is removed only when no code
// outside transitions reads the event.
func (m *mutator) removeTransition() (Edit, bool) {
	quiet := m.safe(m.states...)
	var cands []*trans
	for _, t := range m.trans {
		_, evented := t.el.attr("event")
		if !generatesOwn(t.el) && (evented && m.unpreempt(t) || !evented && quiet) {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return Edit{}, false
	}
	t := choose(m, cands)
	t.el.remove()
	return Edit{Change{TransitionRemoved, t.id}, fmt.Sprintf("transition %s removed", t.id)}, true
}

// retarget gives a transition on input events with one target another
// enterable target (inside its source when it is of type internal), one
// that no other transition of the source on the same events has. Its exit
// set changes, so it may stop preempting transitions of other regions (see
// unpreempt).
func (m *mutator) retarget() (Edit, bool) {
	var cands []*trans
	for _, t := range m.trans {
		if len(targets(t.el)) == 1 && m.inputOnly(t.el) && m.unpreempt(t) {
			cands = append(cands, t)
		}
	}
	dests := m.named(enterable)
	explicit := m.explicitIDs()
	i := m.first(len(cands)*len(dests), func(i int) bool {
		t, d := cands[i%len(cands)], dests[i/len(cands)]
		if targets(t.el)[0] == m.ids[d] || !m.safe(t.source, d) {
			return false
		}
		if typ, _ := t.el.attr("type"); typ == "internal" && (d == t.source || !inside(d, t.source)) {
			return false
		}
		// A new identity of its own: numbered duplicates would make it
		// ambiguous which transition changed.
		ev, _ := t.el.attr("event")
		base := m.ids[t.source] + ":" + strings.Join(strings.Fields(ev), " ") + ">" + m.ids[d]
		return !explicit[base] && m.nextID(t.source, base) == base
	})
	if i < 0 {
		return Edit{}, false
	}
	t, d := cands[i%len(cands)], dests[i/len(cands)]
	old := targets(t.el)[0]
	t.el.setAttr("target", m.ids[d])
	return Edit{Change{TransitionRetargeted, m.identity(t.el)},
		fmt.Sprintf("transition %s retargeted from %s to %s", t.id, old, m.ids[d])}, true
}

// changeTrigger renames the event of a transition (see RenameTrigger).
func (m *mutator) changeTrigger() (Edit, bool) {
	var cands []*trans
	for _, t := range m.trans {
		if m.renamable(t) {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return Edit{}, false
	}
	return m.renameTrigger(choose(m, cands)), true
}

// renamable reports whether renameTrigger applies to t: it has one event
// descriptor, an event name rather than a pattern or a done.state event;
// what it preempted on the old event may fire (see unpreempt); and the new
// event carries the parameters of the old one (the same declaration, or
// none for an undeclared input event), or else neither t nor code around
// its source and targets reads the event.
func (c *chart) renamable(t *trans) bool {
	ds := events(t.el)
	if len(ds) != 1 || strings.Contains(ds[0], "*") || strings.HasPrefix(ds[0], "done.") || strings.HasSuffix(ds[0], ".") ||
		!c.unpreempt(t) {
		return false
	}
	if c.declarations()[ds[0]] != nil || !c.sent()[ds[0]] {
		return true
	}
	return !readsEvent(t.el) && c.safe(c.ends(t)...)
}

// unpreempt reports whether t may stop preempting the transitions it may
// preempt: on events t also takes, those of its source after it, those of
// the source's ancestors, and those of other parallel regions (whose exit
// sets may conflict with t's). They would then fire in configurations
// where they did not, so no code around them (nor, for what they exit,
// around t's source) may read events outside transitions.
func (c *chart) unpreempt(t *trans) bool {
	after := false
	for _, u := range c.trans {
		if u == t {
			after = true
			continue
		}
		if u.source == t.source && !after || u.source != t.source && !inside(t.source, u.source) && !orthogonal(t.source, u.source) ||
			!overlap(events(t.el), events(u.el)) {
			continue
		}
		if !c.safe(append(c.ends(u), t.source)...) {
			return false
		}
	}
	return true
}

// orthogonal reports whether a and b lie in different regions of a
// parallel state, and so can be active together.
func orthogonal(a, b *node) bool {
	for p := a.parent; p != nil; p = p.parent {
		if inside(b, p) {
			return p.is("parallel") && p != b
		}
	}
	return false
}

// overlap reports whether some event matches a descriptor of each list.
func overlap(a, b []string) bool {
	stem := func(d string) string { return strings.TrimSuffix(strings.TrimSuffix(d, ".*"), ".") }
	for _, x := range a {
		for _, y := range b {
			if x == "*" || y == "*" || model.DescriptorMatches(x, stem(y)) || model.DescriptorMatches(y, stem(x)) {
				return true
			}
		}
	}
	return false
}

// ends returns the source of t and the states it targets.
func (c *chart) ends(t *trans) []*node {
	out := []*node{t.source}
	for _, id := range targets(t.el) {
		if s := c.byID[id]; s != nil {
			out = append(out, s)
		}
	}
	return out
}

// renameTrigger gives t a fresh event named after its old one, declared
// like the old one when that is declared.
func (c *chart) renameTrigger(t *trans) Edit {
	old := events(t.el)[0]
	name := c.fresh(strings.ReplaceAll(old, ".", "_") + "Renamed")
	if d := c.declarations()[old]; d != nil {
		cp := d.clone()
		cp.setAttr("name", name)
		d.parent.insertAfter(d, cp)
	}
	t.el.setAttr("event", name)
	return Edit{Change{TriggerChanged, c.identity(t.el)}, fmt.Sprintf("the event of transition %s renamed from %s to %s", t.id, old, name)}
}

// changeGuard rewrites the cond of an evented transition: it negates it
// or changes a constant in it, or adds a condition where there is none.
// The transition may then fire in configurations where it did not, so the
// code around it must not read events outside transitions, and what it
// preempted may fire (see unpreempt).
func (m *mutator) changeGuard() (Edit, bool) {
	var cands []*trans
	for _, t := range m.trans {
		if len(events(t.el)) > 0 && m.safe(m.ends(t)...) && m.unpreempt(t) {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return Edit{}, false
	}
	t := choose(m, cands)
	old, has := t.el.attr("cond")
	var cond string
	switch {
	case !has:
		cond = m.newCondition()
	case len(literals(old)) > 0 && m.chance(0.5):
		cond = m.flipLiteral(old)
	default:
		cond = "!(" + old + ")"
	}
	t.el.setAttr("cond", cond)
	if !has {
		return Edit{Change{GuardChanged, t.id}, fmt.Sprintf("guard %q added to transition %s", cond, t.id)}, true
	}
	return Edit{Change{GuardChanged, t.id}, fmt.Sprintf("the guard of transition %s changed from %q to %q", t.id, old, cond)}, true
}

// intRange matches a ranged int type.
var intRange = regexp.MustCompile(`^\s*int\s*\[\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*\]\s*$`)

// intLiteral and boolLiteral match constant initial values.
var (
	intLiteral  = regexp.MustCompile(`^\s*-?\d+\s*$`)
	boolLiteral = regexp.MustCompile(`^\s*(true|false)\s*$`)
)

// newCondition returns a condition that reads no event: a comparison of an
// int variable, a bool variable, or an In() test.
func (m *mutator) newCondition() string {
	var conds []string
	m.root.walk(func(n *node) {
		if !n.is("data") || inInvoke(n) {
			return
		}
		id, _ := n.attr("id")
		expr, _ := n.attr("expr")
		typ, _ := n.setbotAttr("type")
		switch {
		case boolLiteral.MatchString(expr):
			conds = append(conds, id, "!"+id)
		case intLiteral.MatchString(expr):
			lo, hi := 1, 9
			if l, h, ok := rangeOf(typ); ok {
				lo, hi = l+1, h
			}
			if lo <= hi {
				conds = append(conds, fmt.Sprintf("%s >= %d", id, lo+m.r.IntN(min(hi-lo+1, 10))))
			}
		}
	})
	if len(conds) == 0 {
		for _, s := range m.named(func(s *node) bool { return !s.is("history") }) {
			conds = append(conds, fmt.Sprintf("In('%s')", m.ids[s]))
		}
	}
	return choose(m, conds)
}

// inInvoke reports whether n is part of an <invoke> (its child machine's
// variables are not the machine's).
func inInvoke(n *node) bool {
	for p := n.parent; p != nil; p = p.parent {
		if p.is("invoke") {
			return true
		}
	}
	return false
}

// number matches an unsigned integer literal and what precedes it.
var number = regexp.MustCompile(`\d+`)

// literals returns the positions of the integer literals in an expression
// that may change value without risk: not part of a name, and not a
// divisor (which could become 0).
func literals(expr string) [][]int {
	var out [][]int
	for _, p := range number.FindAllStringIndex(expr, -1) {
		if p[0] > 0 && isWordByte(expr[p[0]-1]) || p[1] < len(expr) && isWordByte(expr[p[1]]) {
			continue
		}
		before := strings.TrimRight(expr[:p[0]], " \t\n")
		if strings.HasSuffix(before, "/") || strings.HasSuffix(before, "%") || strings.HasSuffix(before, "'") ||
			strings.HasSuffix(before, `"`) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// isWordByte reports whether b can be part of a name or a number.
func isWordByte(b byte) bool {
	return b == '_' || b == '.' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// flipLiteral changes one literal of expr to a neighbouring value (its
// last bit flipped, so that 0..9 stays 0..9).
func (m *mutator) flipLiteral(expr string) string {
	p := choose(m, literals(expr))
	v, err := strconv.Atoi(expr[p[0]:p[1]])
	if err != nil {
		// Too large for an int: drop a digit instead.
		return expr[:p[0]] + expr[p[0]:p[1]-1] + expr[p[1]:]
	}
	return expr[:p[0]] + strconv.Itoa(v^1) + expr[p[1]:]
}

// changeAction edits the content of a transition: it adds an output, or
// changes a constant in an assigned expression.
func (m *mutator) changeAction() (Edit, bool) {
	if len(m.trans) == 0 {
		return Edit{}, false
	}
	t := choose(m, m.trans)
	return Edit{Change{ActionChanged, t.id}, m.editCode(t.el, "the action of transition "+t.id)}, true
}

// changeEntryExit edits one onentry or onexit (tag) of a state, adding one
// when it has none.
func (m *mutator) changeEntryExit(tag string, kind Kind) (Edit, bool) {
	cands := m.named(func(s *node) bool { return !s.is("history") })
	if len(cands) == 0 {
		return Edit{}, false
	}
	s := choose(m, cands)
	var blocks []*node
	for _, k := range s.elems() {
		if k.is(tag) {
			blocks = append(blocks, k)
		}
	}
	var what string
	if len(blocks) > 0 {
		what = m.editCode(choose(m, blocks), "the "+tag+" of "+m.ids[s])
	} else {
		b := newChild(s, tag)
		placeBlock(s, b)
		what = m.addAudit(b) + " added to a new " + tag + " of " + m.ids[s]
	}
	return Edit{Change{kind, m.ids[s]}, what}, true
}

// placeBlock puts a new onentry or onexit before the first child of s that
// comes after such blocks in the usual order (<initial>, <datamodel>,
// <onentry>, <onexit>, then the rest).
func placeBlock(s, b *node) {
	order := []string{"initial", "datamodel", "onentry", "onexit"}
	rank := func(n *node) int {
		for i, x := range order {
			if n.is(x) {
				return i
			}
		}
		return len(order)
	}
	for _, k := range s.elems() {
		if rank(k) > rank(b) {
			s.insertBefore(k, b)
			return
		}
	}
	s.appendChild(b)
}

// editCode edits a block of executable content (a transition, onentry or
// onexit): half of the time it changes a constant in an <assign>'s expr
// when there is one, otherwise it adds an output. It returns what it did
// to the block, which where names.
func (m *mutator) editCode(block *node, where string) string {
	var assigns []*node
	block.walk(func(n *node) {
		if expr, ok := n.attr("expr"); ok && n.is("assign") && len(literals(expr)) > 0 {
			assigns = append(assigns, n)
		}
	})
	if len(assigns) == 0 || m.chance(0.5) {
		return m.addAudit(block) + " added to " + where
	}
	a := choose(m, assigns)
	loc, _ := a.attr("location")
	old, _ := a.attr("expr")
	expr := m.flipLiteral(old)
	a.setAttr("expr", expr)
	return fmt.Sprintf("the value assigned to %s in %s changed from %q to %q", loc, where, old, expr)
}

// addAudit appends an output send without parameters to a block and
// returns the element it added.
func (c *chart) addAudit(block *node) string {
	name := c.auditEvent()
	block.appendChild(newChild(block, "send", "event", name, "target", "#_parent"))
	return fmt.Sprintf("<send event=%q target=\"#_parent\"/>", name)
}

// auditEvent returns the name of the output that action changes add:
// evAudit, unless the document uses that name otherwise than as an output
// without parameters.
func (c *chart) auditEvent() string {
	const name = "evAudit"
	plain := 0
	c.root.walk(func(n *node) {
		ev, _ := n.attr("event")
		tg, _ := n.attr("target")
		_, names := n.attr("namelist")
		_, delay := n.attr("delay")
		if n.is("send") && ev == name && tg != "" && tg != "#_internal" && !names && !delay && len(n.elems()) == 0 {
			plain++
		}
	})
	if strings.Count(c.src, name) == plain {
		return name
	}
	return c.fresh(name)
}
