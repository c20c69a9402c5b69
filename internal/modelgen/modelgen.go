// Package modelgen generates random SCXML models in the subset setbot reads
// (README.md, "Models"), for property and differential testing of the
// reader, the flattener and the analyses built on them.
//
// Every generated model reads without error and flattens within the
// default bounds. The generator keeps it so by construction:
//
//   - States nest at most 3 deep; a parallel state sits directly under the
//     root and its regions hold atomic states only.
//   - Eventless transitions only go forward: from a state to a later sibling
//     under a compound parent, never into a history or final state. Each
//     one can fire at most once per macrostep, so they always settle.
//   - Event parameters are read only by the code of transitions whose
//     descriptors match events that carry them, never by entry, exit,
//     initial, history or eventless code, which other events can reach.
//   - Internal events are raised, and events sent to the machine's own
//     queue are sent, only by transitions on input events, so a
//     run-to-completion step ends: internal and self-sent event handlers,
//     entry, exit and eventless code raise and send nothing to the machine.
//     A done.state handler stays (targetless) or leaves its compound or
//     parallel state for a state whose entry enters no final state; "*"
//     transitions, which match done.state events too, are targetless.
//     The one exception is Options.Start's boot event, raised on entry to
//     the state the machine starts in and handled there by a transition
//     that never leaves it, so it too is handled once per entry.
//   - A top-level final state (Halt) is never a default entry and never the
//     target of an eventless transition.
//   - Variables are ints in [0, 9]: every assignment is a parameter in
//     [0, 9], a constant, or a sum or product of non-negative values taken
//     % 10, so no execution overflows.
//
// Mutate makes a second version of a model (generated or not): one random
// change of a given Kind, which it reports, so that the classification of
// changes between versions (package diffmap) can be tested against known
// answers. RenameTrigger and AddOutput make the two kinds of change the
// evaluation of Khalil and Dingel, Incremental symbolic execution, 2015
// applies to one chosen transition (see cmd/mkversions).
package modelgen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Options shape the generated model. Zero or negative counts mean their
// defaults. Input events are e0, e1, ..., each with an int[0..9] parameter
// p and sometimes q and ok; the last two may share the prefix "grp." so
// that descriptors "grp" and "grp.*" match both (the descriptor names an
// input event "grp" of its own, without parameters).
type Options struct {
	States   int  // approximate number of states (default 8)
	Parallel bool // allow parallel regions
	History  bool // allow history states
	Events   int  // number of input events (default 4)
	Vars     int  // number of int variables (default 2)
	Loops    bool // allow bounded for loops in actions
	Internal bool // allow raise of internal events (and final states, whose done.state events are internal)
	Timers   bool // allow delayed sends
	Unused   int  // number of extra int variables (u0, u1, ...) that no code uses

	// SelfSends allows sends without a target: events s0(v) and s1() go to
	// the machine's own external queue.
	SelfSends bool
	// Halt adds a top-level final state, which stops the machine when a
	// transition enters it.
	Halt bool
	// Completion gives the regions of parallel states final states, and the
	// parallel state a done.state handler, so that parallel states complete.
	Completion bool
	// EventFields gives sends to the machine ids at random and lets
	// conditions test how the event arrived (_event.sendid, .origin).
	EventFields bool
	// Values adds ECMAScript's values to the code: a string variable s, a
	// variable w declared without a value (undefined until assigned), a
	// string parameter name on the first input event, string methods,
	// undefined tests, typeof and bit operators.
	Values bool
	// Start gives the machine a start sequence (see addStart): the state it
	// starts in assigns, raises boot and may set a timer on entry, and a
	// transition on boot runs while the machine starts.
	Start bool
	// Invoke gives one atomic state an <invoke> of an inline child machine
	// (see addInvoke); Functions gives the machine a black-box function
	// read through a table (see addFunction and Table).
	Invoke, Functions bool
	// HostCalls writes some of the scripts' raises, outputs and logs as
	// the JavaScript engines' host calls: SCXML.raise({name, data}),
	// SCXML.send({event: {name, data}}), console.log(...) and notify(...),
	// a function the model does not define, and conditions on sensor(), a
	// host function called for its value (a black box); and it declares the function
	// bump as a <data> bound to a function expression, which scripts call,
	// and the object rec, whose field 'n.0' scripts read and write.
	HostCalls bool
	// MixedKinds adds a variable m of type int|string, which the code
	// gives ints and strings, and ?: of an int and a string: conditions compare m
	// with == and ===, test its typeof and its truthiness, join it with +
	// and compare it with < and >=.
	MixedKinds bool
	// Loose writes ECMAScript as the models people keep write it (see
	// addLoose): an input event u0 that no <setbot:event> declares, whose
	// parameter p takes its kind from its uses (also through a local that
	// holds it); a global g0 that scripts assign without declaring it; In()
	// of a state the model does not have; arrays and objects made by new
	// Array(...) and new Object(); an object read by a key computed as the
	// machine runs; new Date(), a black box, in guards of input events,
	// and a Date stamped at start-up (a <data> value) with its getters in
	// any guard; throw; a write to a field of ext, which nothing binds; a
	// function that assigns g0 on one branch, called as a statement and in
	// an if's condition; and an object used as a dictionary (dict = {},
	// then dict[k] = v, dict[k] += v).
	Loose bool
}

func (o Options) withDefaults() Options {
	if o.States <= 0 {
		o.States = 8
	}
	if o.Events <= 0 {
		o.Events = 4
	}
	if o.Vars <= 0 {
		o.Vars = 2
	}
	return o
}

// Generate returns an SCXML document deterministic in seed and opts.
func Generate(seed int64, opts Options) []byte {
	opts = opts.withDefaults()
	g := &gen{
		r:    rand.New(rand.NewPCG(uint64(seed), 0x5e7b07)),
		opts: opts,
		root: &state{kind: root},
	}
	g.declare()
	g.fill(g.root, opts.States)
	g.addFinals()
	g.addCompletion()
	g.addHalt()
	g.addHistories()
	g.addTransitions()
	if opts.Loose {
		g.addLoose()
		g.addLooseStrings()
		g.addLooseDict()
	}
	g.addEventless()
	g.complete()
	g.addEntryExit()
	if opts.Invoke {
		g.addInvoke()
	}
	if opts.Functions {
		g.addFunction()
	}
	g.chooseInitials()
	if opts.Start {
		g.addStart()
	}
	return g.render(seed)
}

// kind is the kind of a generated state.
type kind int

const (
	root kind = iota
	atomic
	compound
	parallel
	final
	history
)

// state is a state of the generated model, or its root.
type state struct {
	id       string
	kind     kind
	parent   *state
	depth    int // the root's children are at depth 1
	region   bool
	children []*state // document order, history states included
	deep     bool     // a deep history
	content  []*elem  // a history's default transition content
	// deflt is a history's default target, or a compound's initial child
	// (nil: the first child).
	deflt *state
	// initElem makes a compound's initial an <initial> element with content.
	initElem *elem
	onentry  []*elem
	onexit   []*elem
	invoke   *elem
	trans    []*transition
}

// descendant reports whether s is a proper descendant of anc.
func (s *state) descendant(anc *state) bool {
	for p := s.parent; p != nil; p = p.parent {
		if p == anc {
			return true
		}
	}
	return false
}

// proper returns the children that are neither history nor final states.
func (s *state) proper() []*state {
	var out []*state
	for _, c := range s.children {
		if c.kind != history && c.kind != final {
			out = append(out, c)
		}
	}
	return out
}

// transition is a transition of the generated model.
type transition struct {
	events   []string // nil: eventless
	cond     string
	targets  []*state
	internal bool
	id       string // setbot:id, or ""
	body     []*elem
	raiseOK  bool // every event it matches is an input event
}

// event is an event with typed parameters.
type event struct {
	name   string
	params []param
	// untyped: no <setbot:event> declares it (Loose's u0): its transitions
	// read its parameters only where addLoose writes them.
	untyped bool
}

// param is an event parameter and its type as setbot writes it.
type param struct {
	name, typ string
}

// isInt reports whether p is an int parameter.
func (p param) isInt() bool { return strings.HasPrefix(p.typ, "int") }

// isBool reports whether p is a bool parameter.
func (p param) isBool() bool { return p.typ == "bool" }

// gen holds one model under construction and the random source that
// decides it.
type gen struct {
	r    *rand.Rand
	opts Options

	inputs    []*event
	group     string   // prefix of the inputs that share one, or ""
	internals []*event // raised events: i0(v), i1()
	selfs     []*event // events sent to the machine's own queue: s0(v), s1()
	timers    []string
	vars      []string
	ranged    []bool // vars[i] is declared int[0..9]
	topScript []string

	root      *state
	states    []*state // every state but the root, in creation order
	nextID    int
	nextTID   int
	nextLocal int
}

// intn returns a random int in [0, n).
func (g *gen) intn(n int) int { return g.r.IntN(n) }

// chance returns true with probability p.
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

// between returns a random int in [lo, hi].
func (g *gen) between(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

// pick returns a random element of a non-empty list.
func pick[T any](g *gen, list []T) T { return list[g.r.IntN(len(list))] }

// anyState returns the states (not the root) for which f holds.
func (g *gen) anyState(f func(*state) bool) []*state { return filter(g.states, f) }

// filter returns the states of list for which f holds.
func filter(list []*state, f func(*state) bool) []*state {
	var out []*state
	for _, s := range list {
		if f(s) {
			out = append(out, s)
		}
	}
	return out
}

// declare chooses the events and variables.
func (g *gen) declare() {
	n := g.opts.Events
	grouped := n >= 3 && g.chance(0.5)
	if grouped {
		g.group = "grp"
	}
	for i := range n {
		e := &event{name: fmt.Sprintf("e%d", i)}
		if grouped && i >= n-2 {
			e.name = fmt.Sprintf("%s.e%d", g.group, i)
		}
		e.params = append(e.params, param{"p", "int[0..9]"})
		if g.chance(0.4) {
			e.params = append(e.params, param{"q", "int[0..4]"})
		}
		if g.chance(0.25) {
			e.params = append(e.params, param{"ok", "bool"})
		}
		if g.opts.Values && i == 0 {
			e.params = append(e.params, param{"name", "string"})
		}
		g.inputs = append(g.inputs, e)
	}
	if g.opts.Loose {
		g.inputs = append(g.inputs, &event{name: "u0", untyped: true})
	}
	if g.opts.Internal {
		g.internals = []*event{{name: "i0", params: []param{{"v", "int"}}}, {name: "i1"}}
	}
	if g.opts.SelfSends {
		g.selfs = []*event{{name: "s0", params: []param{{"v", "int"}}}, {name: "s1"}}
	}
	if g.opts.Timers {
		g.timers = []string{"t0"}
		if g.chance(0.5) {
			g.timers = append(g.timers, "t1")
		}
	}
	for i := range g.opts.Vars {
		g.vars = append(g.vars, fmt.Sprintf("x%d", i))
		g.ranged = append(g.ranged, g.chance(0.5))
	}
	if g.chance(0.2) {
		v := pick(g, g.vars)
		g.topScript = []string{fmt.Sprintf("%s = (%s + 1) %% 10;", v, v)}
	}
}

// newState adds a state of kind k as the last child of parent, named by
// its kind and a counter.
func (g *gen) newState(parent *state, k kind) *state {
	g.nextID++
	prefix := map[kind]string{atomic: "S", compound: "C", parallel: "P", final: "F", history: "H"}[k]
	s := &state{id: fmt.Sprintf("%s%d", prefix, g.nextID), kind: k, parent: parent, depth: parent.depth + 1}
	parent.children = append(parent.children, s)
	g.states = append(g.states, s)
	return s
}

// fill gives p children holding about n states in all.
func (g *gen) fill(p *state, n int) {
	for n > 0 {
		d := p.depth + 1
		switch {
		case g.opts.Parallel && d == 1 && n >= 4 && g.chance(0.45):
			n -= g.addParallel(p)
		case d < 3 && n >= 3 && g.chance(0.35):
			c := g.newState(p, compound)
			k := g.between(2, min(n-1, 4))
			g.fill(c, k)
			n -= 1 + k
		default:
			g.newState(p, atomic)
			n--
		}
	}
}

// addParallel adds a parallel state with 2 or 3 regions of 1 to 3 atomic
// states under p and returns how many states it made.
func (g *gen) addParallel(p *state) int {
	ps := g.newState(p, parallel)
	used := 1
	for range g.between(2, 3) {
		r := g.newState(ps, compound)
		r.id = fmt.Sprintf("R%d", g.nextID)
		r.region = true
		k := g.between(1, 3)
		for range k {
			g.newState(r, atomic)
		}
		used += 1 + k
	}
	return used
}

// addFinals gives some compound states a final child (last, so that it is
// never the default entry), and a done.state handler that leaves the
// compound state for one that enters no final state.
func (g *gen) addFinals() {
	if !g.opts.Internal {
		return
	}
	for _, c := range g.anyState(func(s *state) bool { return s.kind == compound && !s.region }) {
		if !g.chance(0.4) {
			continue
		}
		g.newState(c, final)
		t := &transition{events: []string{"done.state." + c.id}}
		outside := g.anyState(func(s *state) bool {
			return s != c && !s.descendant(c) && s.kind != history && s.kind != final
		})
		if len(outside) > 0 && g.chance(0.8) {
			t.targets = []*state{pick(g, outside)}
		}
		t.body = g.actions(ctx{}, g.intn(2))
		c.trans = append(c.trans, t)
	}
}

// addCompletion gives every region of some parallel states a final state
// (last, so that it is never the default entry) and the parallel state a
// done.state handler that leaves it for a state that enters no final
// state.
func (g *gen) addCompletion() {
	if !g.opts.Completion {
		return
	}
	for _, p := range g.anyState(func(s *state) bool { return s.kind == parallel }) {
		if !g.chance(0.7) {
			continue
		}
		for _, r := range p.proper() {
			g.newState(r, final)
		}
		t := &transition{events: []string{"done.state." + p.id}}
		outside := g.anyState(func(s *state) bool {
			return s != p && !s.descendant(p) && s.kind != history && s.kind != final
		})
		if len(outside) > 0 {
			t.targets = []*state{pick(g, outside)}
		}
		t.body = g.actions(ctx{}, g.intn(2))
		p.trans = append(p.trans, t)
	}
}

// addHalt adds a top-level final state, last so that it is never the
// default entry; random transitions may target it.
func (g *gen) addHalt() {
	if g.opts.Halt {
		g.newState(g.root, final)
	}
}

// addHistories gives up to two compound states a history state.
func (g *gen) addHistories() {
	if !g.opts.History {
		return
	}
	cands := g.anyState(func(s *state) bool { return s.kind == compound })
	for i := 0; i < 2 && len(cands) > 0; i++ {
		j := g.intn(len(cands))
		c := cands[j]
		cands = slices.Delete(cands, j, j+1)
		h := g.newState(c, history)
		// History states come first among the children, as in the examples.
		c.children = append([]*state{h}, c.children[:len(c.children)-1]...)
		h.deep = g.chance(0.5)
		h.deflt = pick(g, c.proper())
		if g.chance(0.3) {
			h.content = g.actions(ctx{}, 1)
		}
	}
}

// addTransitions gives every state but final and history ones its evented
// transitions: first a cycle through the atomic states in random order, on
// input events, so that the flattened machine reaches most of them; then
// random ones.
func (g *gen) addTransitions() {
	leaves := g.anyState(func(s *state) bool { return s.kind == atomic })
	perm := g.r.Perm(len(leaves))
	for i, j := range perm {
		e := pick(g, g.inputs)
		t := &transition{events: []string{e.name}, targets: []*state{leaves[perm[(i+1)%len(perm)]]}, raiseOK: true}
		g.code(t, e.params, 0.3)
		leaves[j].trans = append(leaves[j].trans, t)
	}
	for _, s := range g.states {
		var n int
		switch s.kind {
		case atomic:
			n = g.between(0, 2)
		case compound, parallel:
			n = g.intn(2)
		default:
			continue
		}
		for range n {
			s.trans = append(s.trans, g.transition(s))
		}
	}
}

// transition makes one evented transition from s.
func (g *gen) transition(s *state) *transition {
	t := &transition{raiseOK: true}
	var params []param
	switch x := g.intn(100); {
	case x < 6 && len(g.inputs) >= 2:
		i := g.intn(len(g.inputs) - 1)
		a, b := g.inputs[i], g.inputs[i+1]
		t.events = []string{a.name, b.name}
		params = common(a.params, b.params)
	case x < 12 && g.group != "":
		// The descriptor also names an event of its own ("grp"), which
		// has no parameters: the code reads none.
		t.events = []string{pick(g, []string{g.group, g.group + ".*"})}
	case x < 15:
		// "*" matches internal and done.state events too: targetless, so
		// that it never re-enters a final state, and it raises nothing.
		t.events = []string{"*"}
		t.raiseOK = false
	case x < 25 && len(g.internals)+len(g.timers)+len(g.selfs) > 0:
		t.events, params = g.generatedEvent()
		t.raiseOK = false
	default:
		e := pick(g, g.inputs)
		t.events = []string{e.name}
		params = e.params
	}
	if t.events[0] != "*" && g.chance(0.8) {
		t.targets = g.targets()
		if (s.kind == compound || s.kind == parallel) && allInside(t.targets, s) && g.chance(0.5) {
			t.internal = true
		}
	}
	g.code(t, params, 0.5)
	return t
}

// code gives t a condition (with probability pcond), content and sometimes
// a setbot:id; they may read params.
func (g *gen) code(t *transition, params []param, pcond float64) {
	c := ctx{params: params, raise: t.raiseOK}
	if g.chance(pcond) {
		guard := c
		guard.guard = true
		t.cond = g.cond(guard)
	}
	if g.chance(0.05) {
		g.nextTID++
		t.id = fmt.Sprintf("T%d", g.nextTID)
	}
	t.body = g.actions(c, g.intn(3))
}

// generatedEvent picks an internal or timer event for a handler, with the
// parameters its code may read.
func (g *gen) generatedEvent() ([]string, []param) {
	var names []string
	var params [][]param
	for _, e := range g.internals {
		names = append(names, e.name)
		params = append(params, e.params)
	}
	for _, t := range g.timers {
		names = append(names, t)
		params = append(params, nil)
	}
	for _, e := range g.selfs {
		names = append(names, e.name)
		params = append(params, e.params)
	}
	i := g.intn(len(names))
	return []string{names[i]}, params[i]
}

// common returns the parameters both lists declare alike.
func common(a, b []param) []param {
	var out []param
	for _, p := range a {
		if slices.Contains(b, p) {
			out = append(out, p)
		}
	}
	return out
}

// allInside reports whether there are targets and all lie inside s.
func allInside(targets []*state, s *state) bool {
	if len(targets) == 0 {
		return false
	}
	for _, t := range targets {
		if !t.descendant(s) {
			return false
		}
	}
	return true
}

// targets picks the targets of an evented transition: usually one state
// of any kind, sometimes one atomic state in each of two regions of a
// parallel state.
func (g *gen) targets() []*state {
	pars := g.anyState(func(s *state) bool { return s.kind == parallel })
	if len(pars) > 0 && g.chance(0.1) {
		p := pick(g, pars)
		regions := p.proper()
		i := g.intn(len(regions) - 1)
		return []*state{pick(g, regions[i].proper()), pick(g, regions[i+1].proper())}
	}
	return []*state{pick(g, g.states)}
}

// addEventless adds up to three eventless transitions, each from a state
// to a later sibling under a compound parent (or the root).
func (g *gen) addEventless() {
	type pair struct{ from, to *state }
	var cands []pair
	for _, p := range append([]*state{g.root}, g.states...) {
		if p.kind != root && p.kind != compound {
			continue
		}
		kids := p.proper()
		for i, a := range kids {
			for _, b := range kids[i+1:] {
				cands = append(cands, pair{a, b})
			}
		}
	}
	for i := g.intn(4); i > 0 && len(cands) > 0; i-- {
		c := pick(g, cands)
		t := &transition{targets: []*state{c.to}}
		if g.chance(0.8) {
			t.cond = g.cond(ctx{})
		}
		t.body = g.actions(ctx{}, g.intn(2))
		c.from.trans = append(c.from.trans, t)
	}
}

// complete makes sure that every internal event is raised and handled,
// every timer is set and handled, and every history state is a target.
func (g *gen) complete() {
	live := g.anyState(func(s *state) bool { return s.kind != final && s.kind != history })
	leaves := filter(live, func(s *state) bool { return s.kind == atomic })
	// Raised events, then events sent to the machine's own queue.
	for _, kind := range []struct {
		events []*event
		send   func(*event) *elem
	}{{g.internals, g.raise}, {g.selfs, g.selfSend}} {
		for _, e := range kind.events {
			if !g.handled(e.name) {
				t := &transition{events: []string{e.name}}
				if g.chance(0.7) {
					t.targets = []*state{pick(g, g.states)}
				}
				s := pick(g, leaves)
				s.trans = append(s.trans, t)
			}
			if !g.generated(e.name) {
				t := pick(g, g.sendSites(live, leaves))
				t.body = append(t.body, kind.send(e))
			}
		}
	}
	for _, name := range g.timers {
		if !g.handled(name) {
			t := &transition{events: []string{name}, targets: []*state{pick(g, g.states)}}
			s := pick(g, leaves)
			s.trans = append(s.trans, t)
		}
		if !g.generated(name) {
			s := pick(g, live)
			s.onentry = append(s.onentry, g.timer(name))
		}
	}
	for _, h := range g.anyState(func(s *state) bool { return s.kind == history }) {
		if !g.targeted(h) {
			in := pick(g, g.inputs)
			t := &transition{events: []string{in.name}, targets: []*state{h}, raiseOK: true}
			s := pick(g, leaves)
			s.trans = append(s.trans, t)
		}
	}
}

// sendSites returns the transitions that may raise events or send them to
// the machine itself (those on input events), adding one on an input event
// to a random leaf when there is none.
func (g *gen) sendSites(live, leaves []*state) []*transition {
	var sites []*transition
	for _, s := range live {
		for _, t := range s.trans {
			if t.raiseOK && t.events != nil {
				sites = append(sites, t)
			}
		}
	}
	if len(sites) == 0 {
		in := pick(g, g.inputs)
		t := &transition{events: []string{in.name}, raiseOK: true}
		s := pick(g, leaves)
		s.trans = append(s.trans, t)
		sites = append(sites, t)
	}
	return sites
}

// handled reports whether a transition names the event exactly.
func (g *gen) handled(name string) bool {
	for _, s := range g.states {
		for _, t := range s.trans {
			if slices.Contains(t.events, name) {
				return true
			}
		}
	}
	return false
}

// generated reports whether some code raises or sends the event.
func (g *gen) generated(name string) bool {
	found := false
	var walk func(list []*elem)
	walk = func(list []*elem) {
		for _, e := range list {
			for i := 0; i+1 < len(e.attrs); i += 2 {
				if e.attrs[i] == "event" && e.attrs[i+1] == name {
					found = true
				}
			}
			for _, l := range e.lines {
				if strings.Contains(l, " "+name+"(") {
					found = true
				}
			}
			walk(e.kids)
		}
	}
	for _, s := range g.states {
		walk(s.onentry)
		walk(s.onexit)
		walk(s.content)
		for _, t := range s.trans {
			walk(t.body)
		}
	}
	return found
}

// targeted reports whether some transition targets s.
func (g *gen) targeted(s *state) bool {
	for _, x := range g.states {
		for _, t := range x.trans {
			if slices.Contains(t.targets, s) {
				return true
			}
		}
	}
	return false
}

// addEntryExit gives some states entry and exit code.
func (g *gen) addEntryExit() {
	for _, s := range g.states {
		if s.kind == history {
			continue
		}
		if g.chance(0.25) {
			s.onentry = append(g.actions(ctx{}, g.between(1, 2)), s.onentry...)
		}
		if g.chance(0.15) {
			s.onexit = g.actions(ctx{}, 1)
		}
	}
}

// chooseInitials picks the default entries: the first child, an initial
// attribute or an <initial> element; for the root, sometimes a deep state.
func (g *gen) chooseInitials() {
	for _, s := range g.states {
		if s.kind != compound {
			continue
		}
		switch x := g.intn(100); {
		case x < 30:
			s.deflt = pick(g, s.proper())
		case x < 45:
			s.deflt = pick(g, s.proper())
			s.initElem = newElem("transition", "target", s.deflt.id)
			s.initElem.add(g.actions(ctx{}, 1)...)
		}
	}
	if g.chance(0.3) {
		s := pick(g, g.anyState(func(s *state) bool { return s.kind == atomic }))
		g.root.deflt = s
	}
}

// render writes the document.
func (g *gen) render(seed int64) []byte {
	doc := newElem("scxml", "xmlns", "http://www.w3.org/2005/07/scxml", "xmlns:setbot", "https://setbot.dev/scxml",
		"version", "1.0", "name", fmt.Sprintf("gen%d", seed))
	if g.root.deflt != nil {
		doc.set("initial", g.root.deflt.id)
	}
	if g.opts.Functions {
		doc.add(newElem("setbot:function", "name", FunctionName, "params", "int", "returns", "int", "table", TableFile))
	}
	for _, e := range g.inputs {
		if e.untyped {
			continue
		}
		d := newElem("setbot:event", "name", e.name)
		for _, p := range e.params {
			d.add(newElem("setbot:param", "name", p.name, "type", p.typ))
		}
		doc.add(d)
	}
	dm := newElem("datamodel")
	for i, v := range g.vars {
		d := newElem("data", "id", v, "expr", fmt.Sprint(g.intn(5)))
		if g.ranged[i] {
			d.set("setbot:type", "int[0..9]")
		}
		dm.add(d)
	}
	for i := range g.opts.Unused {
		dm.add(newElem("data", "id", fmt.Sprintf("u%d", i), "expr", fmt.Sprint(g.intn(5))))
	}
	if g.opts.Values {
		dm.add(newElem("data", "id", "s", "expr", "''"), newElem("data", "id", "w"))
	}
	if g.opts.MixedKinds {
		dm.add(newElem("data", "id", "m", "expr", "0", "setbot:type", "int|string"))
	}
	if g.opts.HostCalls {
		// A variable bound once to a function expression: the function.
		dm.add(newElem("data", "id", "bump", "expr", "function (a) { return (a + 1) % 10; }"))
		// An object whose field name is no identifier.
		dm.add(newElem("data", "id", "rec", "expr", "{'n.0': 0}"))
	}
	if g.opts.Loose {
		dm.add(newElem("data", "id", "arr", "expr", "new Array(1, 2, 3)"), newElem("data", "id", "obj", "expr", "new Object()"),
			newElem("data", "id", "codes", "expr", "{'a': 1, 'b.c': 2}"),
			// doc.root.foo is given shape, of other fields (looseStatement).
			newElem("data", "id", "doc", "expr", "{root: {foo: {bar: 1}}}"), newElem("data", "id", "shape", "expr", "{a: {b: 2}}"),
			// A function that assigns the global g0 on one branch, with
			// an early return (addLoose and looseStatement call it).
			newElem("data", "id", "bumpg", "expr", "function (a) { if (a > 4) { g0 = (a + 1) % 10; return true; } return false; }"),
			// A time stamped at start-up, read in guards (looseAtom).
			newElem("data", "id", "stamp", "expr", "new Date()"), newElem("data", "id", "year", "expr", "stamp.getFullYear()"),
			// a dictionary: written and read by keys computed as the
			// machine runs (addLooseDict)
			newElem("data", "id", "dict", "expr", "{}"))
	}
	doc.add(dm)
	if g.topScript != nil {
		doc.add(&elem{name: "script", lines: g.topScript})
	}
	for _, s := range g.root.children {
		doc.add(g.stateElem(s))
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(&b, "<!-- generated by modelgen: seed %d, %+v -->\n", seed, g.opts)
	doc.write(&b, 0)
	return []byte(b.String())
}

// stateElem returns the element of s and its descendants.
func (g *gen) stateElem(s *state) *elem {
	switch s.kind {
	case history:
		e := newElem("history", "id", s.id, "type", "shallow")
		if s.deep {
			e.attrs[3] = "deep"
		}
		return e.add(newElem("transition", "target", s.deflt.id).add(s.content...))
	case final:
		e := newElem("final", "id", s.id)
		if len(s.onentry) > 0 {
			e.add(newElem("onentry").add(s.onentry...))
		}
		if len(s.onexit) > 0 {
			e.add(newElem("onexit").add(s.onexit...))
		}
		return e
	}
	tag := "state"
	if s.kind == parallel {
		tag = "parallel"
	}
	e := newElem(tag, "id", s.id)
	if s.deflt != nil && s.initElem == nil {
		e.set("initial", s.deflt.id)
	}
	if s.initElem != nil {
		e.add(newElem("initial").add(s.initElem))
	}
	if len(s.onentry) > 0 {
		e.add(newElem("onentry").add(s.onentry...))
	}
	if len(s.onexit) > 0 {
		e.add(newElem("onexit").add(s.onexit...))
	}
	if s.invoke != nil {
		e.add(s.invoke)
	}
	for _, c := range s.children {
		if c.kind == history {
			e.add(g.stateElem(c))
		}
	}
	for _, t := range s.trans {
		e.add(t.elem())
	}
	for _, c := range s.children {
		if c.kind != history {
			e.add(g.stateElem(c))
		}
	}
	return e
}

// elem returns the <transition> element of t.
func (t *transition) elem() *elem {
	e := newElem("transition")
	if t.events != nil {
		e.set("event", strings.Join(t.events, " "))
	}
	if t.cond != "" {
		e.set("cond", t.cond)
	}
	if len(t.targets) > 0 {
		ids := make([]string, len(t.targets))
		for i, s := range t.targets {
			ids[i] = s.id
		}
		e.set("target", strings.Join(ids, " "))
	}
	if t.internal {
		e.set("type", "internal")
	}
	if t.id != "" {
		e.set("setbot:id", t.id)
	}
	return e.add(t.body...)
}
