package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
)

// ExploreMSE builds the SET of m reusing base, the tree of an earlier
// version (memoized symbolic execution, Alg. 2 of
// Khalil and Dingel, Incremental symbolic execution, 2015). updated holds the
// keys of the MLM transitions added, removed or changed between the two,
// and ren the names a rename changed (a transition re-keyed by a rename is
// the same transition: its subtrees are copied under the new names).
//
// The result is identical to Explore(m) by construction: the exploration
// is Explore's own breadth-first walk, except that where a node has a
// counterpart in the base tree and an input step there can only involve
// unchanged transitions and met no bound (Node.steps), the step's
// children are copied from the base
// (their terms imported, no solver call) instead of executed. Subsumption
// is decided afresh for every node, copied or not.
func ExploreMSE(m *mlm.Machine, base *SET, updated map[string]bool, ren Renames, opts Options, newSolver NewSolver) (*SET, error) {
	opts = opts.WithDefaults()
	if base.Options.Shape() != opts.Shape() || base.Options.Closed != opts.Closed {
		return nil, fmt.Errorf("the base tree was built with other options (%+v, want %+v)", base.Options, opts)
	}
	var r *reuser
	set, err := explore(m, opts, newSolver, func(e *explorer) {
		r = newReuser(e, base, updated, ren)
		e.strat = r
	})
	if set != nil && r != nil && len(ren.States)+len(ren.Keys)+len(ren.Events) == 0 {
		// A copy under renamed states, transitions or events is not the
		// base node it came from: no delta against that base is written.
		set.origin = &origin{base: base, from: r.from, copied: r.copies}
	}
	return set, err
}

// Renames names the base machine's states, transitions and events as the
// machine MSE explores names them, where a change renamed statechart
// states and nothing else tells them apart: by MLM state name, by
// transition key, and by event (done.state.<id> is named after its state).
// A name it does not list is the same in both.
type Renames struct {
	States, Keys, Events map[string]string
}

func rename(names map[string]string, s string) string {
	if to, ok := names[s]; ok {
		return to
	}
	return s
}

// stateEvent is an MLM state and an event.
type stateEvent struct{ state, event string }

// indexed is a candidate of subsumption and its canonical key.
type indexed struct {
	n   *Node
	key string
}

// reuser is MSE's strategy: it takes children from a base tree.
type reuser struct {
	full    // what it does as Explore does: keep every child
	e       *explorer
	base    *SET
	updated map[string]bool
	clean   map[string]bool // (state, event) pair -> unchanged
	// counterparts is, by node ID, each node's counterpart in the base
	// tree (nil for none, and beyond the last paired node); paired, by
	// base node ID, whether that node is one; candidate, by base node ID,
	// the first candidate of subsumption here whose counterpart it is (n
	// nil for none). Node IDs are dense (a node's index in SET.Nodes).
	counterparts []*Node
	paired       []bool
	candidate    []indexed
	memo         map[solver.Term]solver.Term         // base term -> new term
	dense        []solver.Term                       // the same, by base term, 0 for not yet
	trans        map[*mlm.Transition]*mlm.Transition // base machine's transitions -> new machine's of the same key
	states       map[*mlm.State]*mlm.State           // base machine's states -> new machine's of the same name
	stateClean   map[stateEvent]bool                 // pairClean by state and event
	baseCands    map[string][]*mlm.Transition
	ren          Renames
	// oldStates and oldEvents are ren's States and Events inverted.
	oldStates, oldEvents map[string]string
	// from is, by node ID, the base node each node was copied from (nil
	// for one computed here, and beyond the last copy); copies counts them.
	from   []*Node
	copies int
	// The slabs a copy's edge, its lists and its terms are carved from
	// (carve): the tree keeps them all to the end.
	edgeSlab  []Edge
	argSlab   []Arg
	firedSlab []Fired
	outSlab   []Output
	termSlab  []solver.Term
}

func newReuser(e *explorer, base *SET, updated map[string]bool, ren Renames) *reuser {
	r := &reuser{e: e, base: base, updated: updated, ren: ren, clean: make(map[string]bool),
		paired: make([]bool, len(base.Nodes)), candidate: make([]indexed, len(base.Nodes)), memo: make(map[solver.Term]solver.Term),
		trans: make(map[*mlm.Transition]*mlm.Transition), states: make(map[*mlm.State]*mlm.State), stateClean: make(map[stateEvent]bool), baseCands: candidates(base.Machine),
		dense: make([]solver.Term, base.Terms.Len()+1),
		// The head tree is about the base's size.
		counterparts: make([]*Node, 0, len(base.Nodes)), from: make([]*Node, 0, len(base.Nodes))}
	byKey := make(map[string]*mlm.Transition, len(e.set.Machine.Transitions))
	for _, t := range e.set.Machine.Transitions {
		byKey[t.Key] = t
	}
	for _, t := range base.Machine.Transitions {
		r.trans[t] = byKey[rename(ren.Keys, t.Key)]
	}
	r.oldStates, r.oldEvents = make(map[string]string, len(ren.States)), make(map[string]string, len(ren.Events))
	for from, to := range ren.States {
		r.oldStates[to] = from
	}
	for from, to := range ren.Events {
		r.oldEvents[to] = from
	}
	return r
}

// pairOf names a (state, event) pair of the base tree (Edge.Trace) as the
// new machine names it.
func (r *reuser) pairOf(p string) string {
	if len(r.ren.States) == 0 && len(r.ren.Events) == 0 {
		return p
	}
	p, gone := strings.CutSuffix(p, discarded)
	state, event, _ := strings.Cut(p, "\x00")
	out := rename(r.ren.States, state) + "\x00" + rename(r.ren.Events, event)
	if gone {
		out += discarded
	}
	return out
}

// started pairs the roots when the machine starts as the base did: same
// variables and initial values, same initial transitions, and every
// (state, event) pair the start processed in run-to-completion (trace: the
// events its entry actions raised, sent to the machine itself or let an
// eventless transition take) clean, so that the base's start computed
// exactly what the head's did. A transition the start fires that the
// change touched leaves the roots unpaired, and nothing below is copied.
func (r *reuser) started(root *Node, trace []string) {
	for _, p := range trace {
		if !r.pairClean(p) {
			return
		}
	}
	old, cur := r.base.Machine, r.e.set.Machine
	if len(old.Vars) != len(cur.Vars) || len(old.Initial) != len(cur.Initial) {
		return
	}
	for i, v := range cur.Vars {
		w := old.Vars[i]
		if v.Name != w.Name || v.Type != w.Type || !ast.Equal(v.Init, w.Init) {
			return
		}
	}
	inits := make(map[string]*mlm.Transition, len(cur.Initial))
	for _, t := range cur.Initial {
		inits[t.Key] = t
	}
	for _, o := range old.Initial {
		if t := inits[rename(r.ren.Keys, o.Key)]; t == nil || !r.same(t, o) {
			return
		}
	}
	r.pair(root, r.base.Nodes[0])
}

// same reports whether a, a transition of the new machine, is b, one of
// the base machine, named as the new machine names it.
func (r *reuser) same(a, b *mlm.Transition) bool {
	if a.Key != rename(r.ren.Keys, b.Key) || a.Target.Name != rename(r.ren.States, b.Target.Name) ||
		a.Event != rename(r.ren.Events, b.Event) {
		return false
	}
	if (a.Guard == nil) != (b.Guard == nil) || a.Guard != nil && !ast.Equal(a.Guard, b.Guard) {
		return false
	}
	action := b.Action
	if len(r.ren.Events) > 0 {
		action = mlm.RenameRaised(action, func(e string) string { return rename(r.ren.Events, e) })
	}
	return ast.Equal(a.Action, action)
}

// pairClean reports whether processing event in state can only involve
// transitions that are the same in both versions: the same candidates,
// none updated, and the event with the same parameters and kinds.
func (r *reuser) pairClean(pair string) bool {
	pair = strings.TrimSuffix(pair, discarded)
	if c, ok := r.clean[pair]; ok {
		return c
	}
	c := r.computeClean(pair)
	r.clean[pair] = c
	return c
}

func (r *reuser) computeClean(pair string) bool {
	state, event, _ := strings.Cut(pair, "\x00")
	oldEvent := rename(r.oldEvents, event)
	old, cur := r.baseCands[rename(r.oldStates, state)+"\x00"+oldEvent], r.e.cands[pair]
	if len(old) != len(cur) {
		return false
	}
	// A rename may order the candidates otherwise: each old one must be a
	// new one (keys are one-to-one).
	for _, o := range old {
		t := r.trans[o]
		if t == nil || r.updated[t.Key] || !slices.Contains(cur, t) || !r.same(t, o) {
			return false
		}
	}
	return sameEvent(r.base.Machine.Event(oldEvent), r.e.set.Machine.Event(event))
}

func sameEvent(a, b *model.Event) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Kinds == b.Kinds && slices.Equal(a.Params, b.Params)
}

// children appends to kids n's children for one input copied from the
// base tree, when that is safe: n's counterpart b was expanded there, no
// bound cut the input's paths there, and every pair the input's steps
// processed there is clean (so executing it here would repeat exactly the
// same computation). It reports whether it did; kids is returned
// unchanged when not.
func (r *reuser) copied(kids []child, b, n *Node, in input, ord int) ([]child, bool) {
	if b == nil || !b.Expanded {
		return kids, false
	}
	event, timer, slot := in.identity()
	se := stateEvent{n.State.Name, event}
	clean, ok := r.stateClean[se]
	if !ok {
		clean = r.pairClean(se.state + "\x00" + se.event)
		r.stateClean[se] = clean
	}
	if !clean {
		return kids, false
	}
	// Where executing the input cut paths in the base (or met any other
	// bound), it is executed again: the cut paths left no child whose
	// trace says which pairs they processed, so a copy could not tell
	// whether they involved changed transitions (a cut path may be a
	// child now); and executing counts the cuts as Explore does, which
	// a copy would not (Node.steps).
	for _, s := range b.steps {
		if s.is(event, timer, slot) {
			return kids, false
		}
	}
	picked := func(c *Node) bool {
		return c.In.Event == event && c.In.Timer == timer && (!timer || c.In.Slot == slot)
	}
	for _, c := range b.Children {
		if !picked(c) {
			continue
		}
		for _, p := range c.In.Trace {
			if !r.pairClean(r.pairOf(p)) {
				return kids, false
			}
		}
	}
	for _, c := range b.Children {
		if picked(c) {
			kids = append(kids, r.copy(c, ord, n))
		}
	}
	return kids, true
}

// copy imports a base node into the new tree's terms and machine; n is the
// node it becomes a child of.
func (r *reuser) copy(c *Node, ord int, n *Node) child {
	timers, shared := r.timersOf(c, n)
	if !shared {
		timers = make([]Timer, len(c.Timers))
		for i, t := range c.Timers {
			timers[i] = Timer{Event: t.Event, Args: r.args(t.Args), ID: t.ID, Due: r.opt(t.Due)}
		}
	}
	trace := c.In.Trace
	if len(r.ren.States) > 0 || len(r.ren.Events) > 0 {
		trace = make([]string, len(c.In.Trace))
		for i, p := range c.In.Trace {
			trace[i] = r.pairOf(p)
		}
	}
	edge := &carve(&r.edgeSlab, 1)[0]
	*edge = Edge{Event: c.In.Event, Timer: c.In.Timer, Args: r.args(c.In.Args), Trace: trace,
		Elapsed: r.opt(c.In.Elapsed), Slot: c.In.Slot}
	if len(c.In.Fired) > 0 {
		edge.Fired = carve(&r.firedSlab, len(c.In.Fired))
		for i, f := range c.In.Fired {
			edge.Fired[i] = Fired{T: r.trans[f.T], Path: f.Path}
		}
	}
	if len(c.In.Outputs) > 0 {
		edge.Outputs = carve(&r.outSlab, len(c.In.Outputs))
		for i, o := range c.In.Outputs {
			edge.Outputs[i] = Output{Event: o.Event, Target: o.Target, Args: r.args(o.Args)}
		}
	}
	vals, pc := r.fromParent(c, n)
	return child{state: r.stateOf(c.State), vals: vals, pc: pc,
		timers: timers, edge: edge, ord: ord, base: c}
}

// timersOf is n's timers when they are the imports of c's, c a base node
// to become n's child: when n was copied from c's parent and c's timers
// are its parent's (a step that neither set nor fired one).
func (r *reuser) timersOf(c, n *Node) ([]Timer, bool) {
	b := c.Parent
	if !n.Reused || len(c.Timers) != len(b.Timers) || len(n.Timers) != len(b.Timers) {
		return nil, false
	}
	for i, t := range c.Timers {
		u := b.Timers[i]
		if t.Event != u.Event || t.ID != u.ID || t.Due != u.Due || !slices.Equal(t.Args, u.Args) {
			return nil, false
		}
	}
	return n.Timers, true
}

// args imports a base node's arguments (never nil, as a step's are).
func (r *reuser) args(as []Arg) []Arg {
	if len(as) == 0 {
		return []Arg{}
	}
	out := carve(&r.argSlab, len(as))
	for i, a := range as {
		out[i] = Arg{Name: a.Name, Value: r.imp(a.Value)}
	}
	return out
}

// opt imports x, a term or 0 for none.
func (r *reuser) opt(x solver.Term) solver.Term {
	if x == 0 {
		return 0
	}
	return r.imp(x)
}

// stateOf is the new machine's state of a base machine's.
func (r *reuser) stateOf(s *mlm.State) *mlm.State {
	if to, ok := r.states[s]; ok {
		return to
	}
	to := r.e.set.Machine.State(rename(r.ren.States, s.Name))
	r.states[s] = to
	return to
}

// imp imports a term of the base tree.
func (r *reuser) imp(x solver.Term) solver.Term {
	if y := r.dense[x]; y != 0 {
		return y
	}
	y := r.e.x.tab.Import(r.base.Terms, x, r.memo)
	r.dense[x] = y
	return y
}

// fromParent imports the valuation and path condition of c, a base node,
// to become a child of n. When n was copied from c's parent, what c shares
// with its parent (the path condition's prefix, the values a step left
// alone) is n's already: only the rest is imported. Either way the terms
// are the imports of c's, and the table gains the same terms in the same
// order, since a term imported before creates nothing.
func (r *reuser) fromParent(c, n *Node) (vals, pc []solver.Term) {
	b := c.Parent
	shared := n.Reused && len(n.PC) == len(b.PC) && len(n.Vals) == len(b.Vals) && len(c.PC) >= len(b.PC)
	prefix := shared && slices.Equal(c.PC[:len(b.PC)], b.PC)
	// Where c's step left its parent's values or condition whole, c takes
	// n's, as the explorer shares them (explorer.add): no copy.
	sameVals, samePC := shared && slices.Equal(c.Vals, b.Vals), prefix && len(c.PC) == len(b.PC)
	size := 0
	if !sameVals {
		size += len(c.Vals)
	}
	if !samePC {
		size += len(c.PC)
	}
	buf := carve(&r.termSlab, size)
	if sameVals {
		vals = n.Vals
	} else {
		vals, buf = buf[:len(c.Vals):len(c.Vals)], buf[len(c.Vals):]
		for i, x := range c.Vals {
			if shared && x == b.Vals[i] {
				vals[i] = n.Vals[i]
			} else {
				vals[i] = r.imp(x)
			}
		}
	}
	if samePC {
		return vals, n.PC
	}
	pc = buf
	i := 0
	if prefix {
		i = copy(pc, n.PC)
	}
	for ; i < len(c.PC); i++ {
		pc[i] = r.imp(c.PC[i])
	}
	return vals, pc
}

// canonOf imports the canonical form of b, a base node: renaming commutes
// with importing (both follow the terms' structure, never their numbers),
// so it is the canonical form of the node copied from it. It is nil when
// b has none.
func (r *reuser) canonOf(b *Node) []solver.Term {
	if b == nil || b.canon == nil {
		return nil
	}
	if len(b.canon) == 0 {
		return []solver.Term{}
	}
	out := carve(&r.termSlab, len(b.canon))
	for i, x := range b.canon {
		out[i] = r.imp(x)
	}
	return out
}

// attached records the base counterpart of a new node: the node it was copied
// from, or, for an executed step, the base child reached by the same input
// (the same timer, where several of one event are pending), transitions
// and decisions when those were all unchanged. A base node is the
// counterpart of one node at most: subsumption (subsumer) reads the base's
// decisions through the pairing.
func (r *reuser) attached(parent, c *Node, k child) {
	if k.base != nil {
		r.pair(c, k.base)
		if c.ID >= len(r.from) {
			r.from = append(r.from, make([]*Node, c.ID+1-len(r.from))...)
		}
		r.from[c.ID] = k.base
		r.copies++
		return
	}
	pb := r.counterpart(parent)
	if pb == nil {
		return
	}
	for _, f := range k.edge.Fired {
		if r.updated[f.T.Key] {
			return
		}
	}
	// The fired transitions are unchanged, so their steps computed what
	// they computed in the base; a step that took no transition depends on
	// every candidate, which must be unchanged too.
	for _, p := range k.edge.Trace {
		if strings.HasSuffix(p, discarded) && !r.pairClean(p) {
			return
		}
	}
	for _, bc := range pb.Children {
		if bc.In.Event == k.edge.Event && bc.In.Timer == k.edge.Timer && (!k.edge.Timer || bc.In.Slot == k.edge.Slot) &&
			slices.EqualFunc(bc.In.Fired, k.edge.Fired, func(b, f Fired) bool { return r.trans[b.T] == f.T && b.Path == f.Path }) {
			r.pair(c, bc)
			return
		}
	}
}

// pair makes b the counterpart of c, unless b is another node's already.
func (r *reuser) pair(c, b *Node) {
	if r.paired[b.ID] {
		return
	}
	r.paired[b.ID] = true
	if c.ID >= len(r.counterparts) {
		r.counterparts = append(r.counterparts, make([]*Node, c.ID+1-len(r.counterparts))...)
	}
	r.counterparts[c.ID] = b
}

// counterpart is n's counterpart in the base tree.
func (r *reuser) counterpart(n *Node) *Node {
	if n.ID < len(r.counterparts) {
		return r.counterparts[n.ID]
	}
	return nil
}

// subsumer decides subsumption for n, identical to its counterpart b in
// the base tree, of canonical key and path condition pc, using the base tree's decision:
// among the earlier candidates, those with a base counterpart did not
// subsume b (they are identical, and come in the same order), except b's
// own subsumer; only candidates new to this tree are checked. decided is
// false when n has no counterpart, or b's subsumer has none here: the
// ordinary check then decides.
func (r *reuser) subsumer(n *Node, key string, pc []solver.Term) (*Node, bool) {
	b := r.counterpart(n)
	if b == nil {
		return nil, false
	}
	e := r.e
	cs := e.byKey[key]
	if cs == nil || cs.fresh == 0 {
		// No candidate is new: the answer is the base's. b's subsumer,
		// when it has a counterpart, is a candidate of the same key (it
		// is identical, and its condition follows from n's).
		if b.Subsumed == nil {
			return nil, true
		}
		s := r.candidate[b.Subsumed.ID]
		if s.n == nil || s.key != key {
			return nil, false
		}
		return s.n, true
	}
	// Candidates the premise's intervals refute are passed over: b's
	// subsumer, identical to one that subsumes n, is never among them.
	p := e.x.or.prepare(pc)
	for _, c := range cs.survivors(p) {
		if cb := r.counterpart(c.n); cb != nil {
			if b.Subsumed != nil && cb == b.Subsumed {
				return c.n, true
			}
			continue
		}
		if e.x.or.implies(p, c.pc) {
			return c.n, true
		}
	}
	return nil, b.Subsumed == nil
}

// indexed records n, a candidate under key, as its counterpart's, the
// first time that is a candidate here; it reports whether n is new to this
// tree (has no counterpart).
func (r *reuser) indexed(n *Node, key string) bool {
	b := r.counterpart(n)
	if b == nil {
		return true
	}
	if r.candidate[b.ID].n == nil { // the first, as the subsumer's walk finds it
		r.candidate[b.ID] = indexed{n, key}
	}
	return false
}

// forWorker is a reuser of the same base tree and change for we.
func (r *reuser) forWorker(we *explorer) strategy {
	w := newReuser(we, r.base, r.updated, r.ren)
	// A worker copies; it pairs nothing.
	w.paired, w.candidate, w.counterparts, w.from = nil, nil, nil, nil
	return w
}
