package engine

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// NewSolver makes the solver for one exploration's terms: the engine's name
// for solver.Factory.
type NewSolver = solver.Factory

// Explore builds the SET of m (Alg. 1 of Khalil and Dingel, Incremental symbolic execution, 2015).
func Explore(m *mlm.Machine, opts Options, newSolver NewSolver) (*SET, error) {
	return explore(m, opts, newSolver, nil)
}

// limitSolver gives s the limits of an exploration with opts begun at
// start: a check ends Unknown past opts.SolverTimeout, past the
// exploration's time budget (a query begun just before the budget ran out
// would otherwise hold the cut tree back by up to its own timeout), or once
// opts.Cancel is closed. An interrupt lets the running query end: the tree
// is exact up to its cut.
func limitSolver(s solver.Solver, opts *Options, start time.Time) {
	s.SetTimeout(opts.SolverTimeout)
	if opts.Timeout > 0 {
		s.SetDeadline(start.Add(opts.Timeout))
	}
	s.SetCancel(opts.Cancel)
}

// startLater returns newSolver's solver of tab's terms, started at its
// first check (solver.Lazy): the chain's own layers answer most of an
// exploration's checks, often all of them.
func startLater(newSolver NewSolver, tab *solver.Table) solver.Solver {
	return solver.Lazy(func() (solver.Solver, error) {
		s, err := newSolver(tab)
		if err != nil {
			return nil, fmt.Errorf("starting the solver: %w", err)
		}
		return s, nil
	})
}

func explore(m *mlm.Machine, opts Options, newSolver NewSolver, configure func(*explorer)) (*SET, error) {
	opts = opts.WithDefaults()
	start := time.Now()
	tab := solver.NewTable()
	slv := startLater(newSolver, tab)
	defer slv.Close()
	limitSolver(slv, &opts, start)
	newModels := func() (solver.Solver, error) {
		s, err := newSolver(tab)
		if err != nil {
			return nil, fmt.Errorf("starting the solver of implications: %w", err)
		}
		limitSolver(s, &opts, start)
		return s, nil
	}
	x := &executor{m: m, tab: tab, or: newOracle(tab, slv, newModels, nil), opts: opts,
		varIdx: make(map[string]int), bounds: make(map[vocab.Bound]int), limits: make(map[vocab.Bound]int64)}
	defer x.or.close()
	for i, v := range m.Vars {
		x.varIdx[v.Name] = i
	}
	e := &explorer{x: x, set: &SET{Machine: m, Terms: tab, Options: opts},
		byKey: make(map[string]*keyIndex), canonVars: make(map[canonKey]solver.Term),
		renamed: make(map[renamedKey]solver.Term),
		cands:   candidates(m), strat: full{}}
	if configure != nil {
		configure(e)
	}
	if opts.Jobs > 1 {
		e.pool = newPool(e, opts.Jobs, newSolver, start)
		defer e.pool.close()
	}
	if err := e.run(start); err != nil {
		return nil, err
	}
	s := e.set
	for _, n := range s.Nodes {
		if n.Reused {
			s.Stats.Reused++
		}
		if n.Leaf() {
			s.Stats.Paths++
		}
		if n.Subsumed != nil {
			s.Stats.Subsumed++
		}
		s.Stats.Depth = max(s.Stats.Depth, n.Depth)
	}
	s.Stats.States = len(s.Nodes)
	s.Stats.New = s.Stats.States - s.Stats.Reused
	s.Stats.SolverCalls = x.or.calls
	s.Stats.Unknown = x.or.unknown
	s.Stats.Ms = time.Since(start).Milliseconds()
	for _, b := range vocab.Bounds {
		if n := x.bounds[b]; n > 0 {
			l, ok := x.limits[b]
			if !ok {
				l = limit(opts, b)
			}
			s.Bounds = append(s.Bounds, BoundHit{Bound: b, Limit: l, Count: n})
		}
	}
	return s, nil
}

// limit is the limit of bound, as a hit reports it: a bound of the tree's
// value, the memory budget in bytes, the time budget in milliseconds.
func limit(o Options, bound vocab.Bound) int64 {
	if p := o.Limit(bound); p != nil {
		return int64(*p)
	}
	if bound == vocab.BoundMemory {
		return o.MaxMemory
	}
	return o.Timeout.Milliseconds()
}

// candidates indexes the MLM transitions by source state and event, in
// key order.
func candidates(m *mlm.Machine) map[string][]*mlm.Transition {
	out := make(map[string][]*mlm.Transition)
	for _, t := range m.Transitions {
		k := t.Source.Name + "\x00" + t.Event
		out[k] = append(out[k], t)
	}
	return out
}

type explorer struct {
	x         *executor
	set       *SET
	cands     map[string][]*mlm.Transition
	events    map[*mlm.State][]input // the input events of a state (inputs)
	byKey     map[string]*keyIndex   // non-subsumed nodes by canonical key (subsume.go)
	canonVars map[canonKey]solver.Term
	renamed   map[renamedKey]solver.Term // canonical forms of terms, as renamed before
	// canonical's scratch
	seen  map[solver.Term]bool
	ren   map[solver.Term]solver.Term
	order []solver.Term
	sub   *solver.Substitution
	slab  []Node  // nodes not yet handed out, allocated many at once
	kids  []child // expand's scratch

	strat     strategy // how children are had: full, MSE or DSE (strategy.go)
	startOnly bool     // CheckStart: stop once the machine has started
	pool      *pool    // Options.Jobs > 1: the workers (parallel.go)

	inBounds map[vocab.Bound]int   // step's scratch: one input's cuts
	inLimits map[vocab.Bound]int64 // and limits
	expanded int                   // states expanded, counted for the memory budget
}

// StartError says why a machine cannot complete its start (its initial
// macrostep and the events that raises), with the position at fault.
type StartError struct {
	Pos source.Position
	Msg string
}

func (e *StartError) Error() string { return e.Pos.String() + ": " + e.Msg }

// CheckStart runs only the start of m: the initial transitions, then
// run-to-completion. It returns a *StartError, naming the loop at fault,
// when that cannot finish within the bounds in opts (an eventless or raise
// loop, a loop in the action code that does not end).
func CheckStart(m *mlm.Machine, opts Options, newSolver NewSolver) error {
	_, err := explore(m, opts, newSolver, func(e *explorer) { e.startOnly = true })
	return err
}

func (e *explorer) run(start time.Time) error {
	s0, err := e.begin()
	if err != nil || s0 == nil {
		return err
	}
	e.set.Start = &Edge{Fired: s0.fired, Outputs: s0.outputs}
	root := e.add(nil, child{state: s0.state, vals: s0.vals, pc: s0.pc, timers: s0.timers})
	e.strat.started(root, s0.trace)
	e.subsumed(root)
	return e.grow(start)
}

// begin starts the machine: the initial transitions, then
// run-to-completion, which must end in exactly one way. It returns that
// one, or nil when the explorer checks only the start.
func (e *explorer) begin() (*run, error) {
	x, m := e.x, e.set.Machine
	init := &run{vals: make([]solver.Term, len(m.Vars))}
	for i, v := range m.Vars {
		init.vals[i] = e.constant(v)
	}
	var starts []*run
	for _, t := range m.Initial {
		starts = append(starts, x.fire(init.clone(), t, nil, model.Meta{})...)
	}
	starts = e.settle(starts)
	if x.err != nil {
		return nil, x.err
	}
	doc := m.Source.Position(m.Source.Root.Pos)
	if len(starts) > 1 {
		if r := x.pinStart(starts); r != nil {
			starts = []*run{r}
		} else if x.err != nil {
			return nil, x.err
		}
	}
	switch {
	case len(starts) == 0 && x.lastCut != nil:
		at := x.lastCut.Pos
		if !at.IsValid() {
			at = doc // a bound of the whole step (queued events) has no place of its own
		}
		return nil, &StartError{Pos: at, Msg: "the machine does not finish starting within the bounds: " + x.lastCut.Msg}
	case len(starts) == 0:
		return nil, &StartError{Pos: doc, Msg: "the machine cannot start: no initial transition completes"}
	case len(starts) > 1:
		return nil, &StartError{Pos: doc, Msg: fmt.Sprintf("the machine has %d ways to start, want exactly 1", len(starts))}
	}
	if e.startOnly {
		return nil, nil
	}
	return starts[0], nil
}

// grow expands the tree's nodes breadth first until none is left or a
// budget is spent.
func (e *explorer) grow(start time.Time) error {
	x := e.x
	for i := 0; i < len(e.set.Nodes); i++ {
		n := e.set.Nodes[i]
		if e.pool != nil && n.Depth != e.pool.depth {
			if err := e.pool.level(i); err != nil {
				return err
			}
		}
		if n.Subsumed != nil || n.State.Final {
			continue
		}
		inputs := e.inputs(n)
		if len(inputs) == 0 {
			continue
		}
		if n.Depth >= x.opts.MaxDepth {
			n.Cut = vocab.BoundDepth
			x.bounds[vocab.BoundDepth]++
			continue
		}
		if stop, err := e.checkpoint(i, n, start); stop || err != nil {
			if err != nil {
				return err
			}
			break
		}
		if t := e.pool.task(i); t != nil {
			if err := e.merge(n, t); err != nil {
				return err
			}
		} else {
			e.expand(n, inputs)
		}
		if x.err != nil {
			return x.err
		}
		if x.or.err != nil {
			if closed(x.opts.Cancel) {
				return ErrCanceled // a check the cancel interrupted as it ended
			}
			return fmt.Errorf("solver: %w", x.or.err)
		}
	}
	if x.opts.Cancel != nil {
		select {
		case <-x.opts.Cancel:
			// Checks made after it stopped ended Unknown: the tree is
			// not the machine's.
			return ErrCanceled
		default:
		}
	}
	return nil
}

// checkpoint is the check before node i, n, is expanded: it reports
// progress, and stops the walk when a budget is spent (the rest of the
// tree cut at its bound) or with ErrCanceled when the run is canceled.
func (e *explorer) checkpoint(i int, n *Node, start time.Time) (stop bool, err error) {
	x := e.x
	if b, spent := e.spent(start); spent {
		e.cutRest(i, b)
		return true, nil
	}
	if x.opts.Cancel != nil {
		select {
		case <-x.opts.Cancel:
			return true, ErrCanceled
		default:
		}
	}
	if closed(x.opts.Interrupt) {
		x.limits[vocab.BoundInterrupt] = time.Since(start).Milliseconds()
		e.cutRest(i, vocab.BoundInterrupt)
		return true, nil
	}
	if x.opts.Progress != nil && i%256 == 0 {
		x.opts.Progress(Progress{States: len(e.set.Nodes), Depth: n.Depth, Elapsed: time.Since(start)})
	}
	if len(e.set.Nodes) >= x.opts.MaxStates {
		e.cutRest(i, vocab.BoundStates)
		return true, nil
	}
	return false, nil
}

// spent reports whether one of the budgets of the whole tree, its time
// (from start) or its memory, is spent before the next state is expanded,
// and which: the rest of the tree is then cut at that bound.
func (e *explorer) spent(start time.Time) (vocab.Bound, bool) {
	if o := &e.x.opts; o.Timeout > 0 && time.Since(start) > o.Timeout {
		return vocab.BoundTime, true
	}
	return vocab.BoundMemory, e.overBudget()
}

// overBudget counts a state about to be expanded and reports whether the
// heap, read before every MemoryCheckEvery-th, is beyond Options.MaxMemory.
// A tree smaller than that never reads it: it holds too little to matter,
// and what the analyses beside it hold cannot cut it.
func (e *explorer) overBudget() bool {
	o := &e.x.opts
	if o.MaxMemory <= 0 {
		return false
	}
	e.expanded++
	return e.expanded%MemoryCheckEvery == 0 && o.Heap() > o.MaxMemory
}

// closed reports whether c is closed (a nil c never is).
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return c != nil
	default:
		return false
	}
}

// cutRest marks every unexplored node from index i on as cut by bound.
func (e *explorer) cutRest(i int, bound vocab.Bound) {
	for _, n := range e.set.Nodes[i:] {
		if n.Subsumed == nil && !n.State.Final && len(n.Children) == 0 && len(e.inputs(n)) > 0 {
			n.Cut = bound
			e.x.bounds[bound]++
		}
	}
}

func (e *explorer) constant(v *model.Var) solver.Term {
	switch lit := v.Init.(type) {
	case *ast.IntLit:
		return e.x.tab.Int(lit.Value)
	case *ast.BoolLit:
		return e.x.tab.Bool(lit.Value)
	case *ast.StrLit:
		return e.x.tab.Str(lit.Value)
	case *ast.DecLit:
		return e.x.tab.Rat(lit.Value)
	}
	e.x.fail("initial value of %s is not a literal", v.Name)
	return e.x.tab.Int(0)
}

// input is one thing the environment can do at a node.
type input struct {
	event *model.Event
	timer *Timer
	slot  int // the timer's index among the pending ones
}

// inputs lists, in order, the input events some transition of n's state
// reacts to (none in a closed system), then the pending timers. Untimed,
// of the timers of one event the oldest, which fires first; timed, every
// timer, of which the deadlines decide the one that fires next.
func (e *explorer) inputs(n *Node) []input {
	events, ok := e.events[n.State]
	if !ok {
		for _, ev := range e.set.Machine.Events {
			if ev.Kinds&model.Input != 0 && !e.x.opts.Closed && len(e.cands[n.State.Name+"\x00"+ev.Name]) > 0 {
				events = append(events, input{event: ev})
			}
		}
		if e.events == nil {
			e.events = make(map[*mlm.State][]input)
		}
		e.events[n.State] = events
	}
	if len(n.Timers) == 0 {
		return events // shared: the caller reads it
	}
	out := slices.Clone(events)
	for i := range n.Timers {
		if e.x.opts.Time != vocab.TimeUntimed || i == 0 || n.Timers[i-1].Event != n.Timers[i].Event {
			out = append(out, input{timer: &n.Timers[i], slot: i})
		}
	}
	return out
}

// elapse moves the timers of base forward in time (timed semantics): to
// the deadline of the timer in slot, which fires, or, for an input (slot
// -1), by a fresh elapsed time no later than any deadline. It returns the
// time elapsed (0 when untimed, or for an input with nothing pending), and
// false when the timer cannot be the next to fire.
//
// The dues after the step are new variables (or constants, where only one
// value is possible), tied to the old dues through the elapsed time
// ("dt@N = ..." conjuncts, which testgen solves to give each step its
// time) and bounded by the zone of the values they can take together
// (zone.go). Subsumption compares states by their zones and leaves the
// ties out (canonical), so states that differ only in how time went by
// are alike, and loops that receive inputs while a timer runs close.
func (e *explorer) elapse(base *run, slot, depth int) (solver.Term, bool) {
	x, tab := e.x, e.x.tab
	if x.opts.Time == vocab.TimeUntimed || len(base.timers) == 0 {
		return 0, true
	}
	z, ok := e.zoneOf(base)
	if !ok {
		return 0, false
	}
	old := make([]solver.Term, len(base.timers))
	allConst := true
	for j, t := range base.timers {
		old[j] = t.Due
		_, c := tab.IntValue(t.Due)
		allConst = allConst && c
	}
	var fired solver.Term // the due of the timer that fires
	if slot >= 0 {
		if !z.first(slot) {
			return 0, false
		}
		due := old[slot]
		fired = due
		for j, d := range old {
			switch {
			case j < slot:
				base.pc = appendUnlessTrue(tab, base.pc, tab.Lt(due, d))
			case j > slot:
				base.pc = appendUnlessTrue(tab, base.pc, tab.Le(due, d))
			}
		}
		z = z.fire(slot)
		base.timers = slices.Delete(base.timers, slot, slot+1)
		old = slices.Delete(old, slot, slot+1)
		if allConst {
			c, _ := tab.IntValue(due)
			for j := range base.timers {
				base.timers[j].Due = tab.Sub(base.timers[j].Due, due)
			}
			return tab.Int(c), true
		}
	} else {
		z.elapse()
	}
	dt := tab.Var(fmt.Sprintf("%s%d", elapsedPrefix, depth), solver.IntSort)
	if slot >= 0 {
		base.pc = append(base.pc, tab.Eq(dt, fired))
	} else {
		base.pc = append(base.pc, tab.Le(tab.Int(0), dt))
	}
	vars := make([]solver.Term, len(base.timers)) // the new dues that are variables, by timer
	for j := range base.timers {
		var due solver.Term
		if c, ok := z.exact(j); ok {
			due = tab.Int(c)
		} else {
			due = tab.Var(fmt.Sprintf("due@%d#%d", depth, j), solver.IntSort)
			vars[j] = due
		}
		base.timers[j].Due = due
		base.pc = append(base.pc, tab.Eq(due, tab.Sub(old[j], dt)))
	}
	// The zone, on the new variables: bounds, and differences between two.
	for i, v := range vars {
		if v == 0 {
			continue
		}
		base.pc = append(base.pc, tab.Le(tab.Int(-z.bound(0, i+1)), v))
		if hi := z.bound(i+1, 0); hi != unbounded {
			base.pc = append(base.pc, tab.Le(v, tab.Int(hi)))
		}
		for j, w := range vars {
			if j != i && w != 0 {
				if c := z.bound(i+1, j+1); c != unbounded && c < z.bound(i+1, 0)-(-z.bound(0, j+1)) {
					// (only where the bounds alone do not imply it)
					base.pc = append(base.pc, tab.Le(tab.Sub(v, w), tab.Int(c)))
				}
			}
		}
	}
	return dt, true
}

func appendUnlessTrue(tab *solver.Table, pc []solver.Term, c solver.Term) []solver.Term {
	if v, ok := tab.BoolValue(c); ok && v {
		return pc
	}
	return append(pc, c)
}

// zoneOf reads the zone of r's pending dues: a constant due is exact; a
// variable one is bounded by the conjuncts of r's path condition on dues
// alone (those elapse wrote, and the order of timers that fired). It
// returns false when they leave the dues no value.
func (e *explorer) zoneOf(r *run) (*zone, bool) {
	tab := e.x.tab
	z := newZone(len(r.timers))
	index := make(map[solver.Term]int, len(r.timers)) // a variable due's index in z
	for j, t := range r.timers {
		if c, ok := tab.IntValue(t.Due); ok {
			z.tighten(j+1, 0, c)
			z.tighten(0, j+1, -c)
		} else if tab.Op(t.Due) == solver.OpVar {
			index[t.Due] = j + 1
		} else {
			e.x.fail("timer %s is due in %s, not a constant or a variable", t.Event, tab.String(t.Due))
			return z, false
		}
	}
	if len(index) > 0 {
		for _, c := range r.pc {
			e.constrain(z, index, c)
		}
	}
	return z, z.close()
}

// constrain adds to z the conjunct c when it bounds dues alone (indexed
// in z by index): x ≤ k, k ≤ x, x - y ≤ k, x < y or x ≤ y, with constants
// standing for index 0.
func (e *explorer) constrain(z *zone, index map[solver.Term]int, c solver.Term) {
	tab := e.x.tab
	vs := tab.Vars(c)
	if len(vs) == 0 {
		return
	}
	for _, v := range vs {
		if index[v] == 0 {
			return // about other variables, or dues no longer pending
		}
	}
	op := tab.Op(c)
	a, b, _ := tab.Args(c)
	strict := int64(0)
	if op == solver.OpLt {
		strict = 1
	}
	// side returns x's index and constant part: a due, a constant, or
	// the difference of two dues.
	side := func(x solver.Term) (i, j int, k int64, ok bool) {
		if v, isConst := tab.IntValue(x); isConst {
			return 0, 0, v, true
		}
		if i := index[x]; i > 0 {
			return i, 0, 0, true
		}
		if tab.Op(x) == solver.OpSub {
			p, q, _ := tab.Args(x)
			if index[p] > 0 && index[q] > 0 {
				return index[p], index[q], 0, true
			}
		}
		return 0, 0, 0, false
	}
	ai, aj, ak, okA := side(a)
	bi, bj, bk, okB := side(b)
	if (op == solver.OpLe || op == solver.OpLt) && okA && okB {
		switch {
		case aj == 0 && bj == 0: // x_ai + ak < or ≤ x_bi + bk
			z.tighten(ai, bi, bk-ak-strict)
			return
		case bi == 0 && bj == 0: // x_ai - x_aj < or ≤ bk
			z.tighten(ai, aj, bk-strict)
			return
		}
	}
	e.x.fail("a condition on timers' dues of unexpected form: %s", tab.String(c))
}

// child is a node about to be added.
type child struct {
	state  *mlm.State
	vals   []solver.Term
	pc     []solver.Term
	timers []Timer
	edge   *Edge
	ord    int   // the input's index, for a stable order
	base   *Node // MSE: the base node it was copied from
}

// expand adds n's children: every feasible input step, in order.
func (e *explorer) expand(n *Node, inputs []input) {
	kids, steps := e.step(n, inputs, e.strat.counterpart(n), e.kids[:0])
	n.Expanded, n.steps = true, steps
	for _, k := range kids {
		e.subsumed(e.attach(n, k))
	}
	clear(kids) // the scratch keeps no node's terms alive
	e.kids = kids[:0]
}

// attach adds the child k of n to the tree.
func (e *explorer) attach(n *Node, k child) *Node {
	c := e.add(n, k)
	e.strat.attached(n, c, k)
	return c
}

// step computes n's children, sorted, those the strategy keeps: every
// feasible input step, appended to kids (a scratch, or nil). base is n's
// counterpart in the base tree (nil for none). It reads n and the machine and writes only the
// explorer's own state, so that workers can step nodes of one level at
// once (parallel.go).
func (e *explorer) step(n *Node, inputs []input, base *Node, kids []child) ([]child, []stepBound) {
	x := e.x
	var steps []stepBound
	if e.inBounds == nil {
		e.inBounds, e.inLimits = make(map[vocab.Bound]int), make(map[vocab.Bound]int64)
	}
	for ord, in := range inputs {
		// The input's cuts are counted apart, recorded by input (Node.steps,
		// which MSE adds where it copies the input's children), then added
		// to the exploration's.
		outB, outL := x.bounds, x.limits
		clear(e.inBounds)
		clear(e.inLimits)
		x.bounds, x.limits = e.inBounds, e.inLimits
		kids = e.stepInput(n, in, ord, base, kids)
		x.bounds, x.limits = outB, outL
		if len(e.inBounds) > 0 || len(e.inLimits) > 0 {
			steps = appendSteps(steps, in, e.inBounds, e.inLimits)
			for b, c := range e.inBounds {
				outB[b] += c
			}
			for b, l := range e.inLimits {
				outL[b] = max(outL[b], l)
			}
		}
	}
	slices.SortStableFunc(kids, func(a, b child) int { // no reflection, no allocation
		if c := compareFired(a.edge.Fired, b.edge.Fired); c != 0 {
			return c
		}
		return cmp.Compare(a.ord, b.ord)
	})
	return e.strat.kept(kids), steps
}

// appendSteps appends to steps the cuts one input made: the counts and
// limits, by bound, in the order of their names.
func appendSteps(steps []stepBound, in input, bounds map[vocab.Bound]int, limits map[vocab.Bound]int64) []stepBound {
	event, timer, slot := in.identity()
	from := len(steps)
	for b, c := range bounds {
		l, ok := limits[b]
		steps = append(steps, stepBound{Event: event, Timer: timer, Slot: slot, Bound: b, Count: c, Limit: l, HasLimit: ok})
	}
	for b, l := range limits {
		if _, ok := bounds[b]; !ok {
			steps = append(steps, stepBound{Event: event, Timer: timer, Slot: slot, Bound: b, Limit: l, HasLimit: true})
		}
	}
	added := steps[from:]
	sort.Slice(added, func(i, j int) bool { return added[i].Bound < added[j].Bound })
	return steps
}

// identity is the input as a node's children record it: the event, whether
// a timer fires it, and the timer's slot (0 for an input event).
func (in input) identity() (event string, timer bool, slot int) {
	if in.timer != nil {
		return in.timer.Event, true, in.slot
	}
	return in.event.Name, false, 0
}

// stepInput appends to kids n's children for one input, the ord-th: copied
// from its counterpart b in the base tree where the strategy can, else
// executed.
func (e *explorer) stepInput(n *Node, in input, ord int, b *Node, kids []child) []child {
	x := e.x
	depth := n.Depth + 1
	if kids, copied := e.strat.copied(kids, b, n, in, ord); copied {
		return kids
	}
	base := &run{state: n.State, vals: append([]solver.Term(nil), n.Vals...),
		pc: append([]solver.Term(nil), n.PC...), timers: append([]Timer(nil), n.Timers...)}
	edge := &Edge{}
	var meta model.Meta // an input's
	slot := -1
	if in.timer != nil {
		slot = in.slot
	}
	elapsed, ok := e.elapse(base, slot, depth)
	if !ok {
		return kids
	}
	if in.timer != nil {
		meta = timerMeta(*in.timer)
		edge.Event, edge.Timer, edge.Args = in.timer.Event, true, in.timer.Args
		if x.opts.Time == vocab.TimeUntimed {
			base.timers = removeTimer(base.timers, in.timer.Event)
		}
	} else {
		edge.Event = in.event.Name
		for _, p := range in.event.Params {
			v := x.tab.Var(fmt.Sprintf("%s@%d", p.Name, depth), SortOf(p.Type))
			edge.Args = append(edge.Args, Arg{Name: p.Name, Value: v})
			base.pc = append(base.pc, InputDomain(x.tab, p.Type, v)...)
		}
	}
	runs := e.process(base, edge.Event, edge.Args, meta, in.timer != nil)
	for _, r := range e.settle(runs) {
		kids = append(kids, child{state: r.state, vals: r.vals, pc: r.pc, timers: r.timers, ord: ord,
			edge: &Edge{Event: edge.Event, Timer: edge.Timer, Args: edge.Args,
				Fired: r.fired, Outputs: r.outputs, Trace: r.trace, Elapsed: elapsed, Slot: slot}})
	}
	return kids
}

func compareFired(a, b []Fired) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := strings.Compare(a[i].T.Key, b[i].T.Key); c != 0 {
			return c
		}
		if c := strings.Compare(a[i].Path, b[i].Path); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

// SortOf is the solver's sort for values of type t.
func SortOf(t ast.Type) solver.Sort {
	switch t.Kind {
	case ast.Bool:
		return solver.BoolSort
	case ast.String:
		return solver.StringSort
	case ast.Decimal:
		return solver.RealSort
	}
	return solver.IntSort
}

// InputDomain returns the conditions that keep v, an input parameter of
// type t, within the input domain (model.MaxInputString,
// model.DecimalInputScale): its range, the length of a string, the grid of
// a decimal. Every analysis of inputs assumes exactly these.
func InputDomain(tab *solver.Table, t ast.Type, v solver.Term) []solver.Term {
	conds := rangeOf(tab, t, v)
	switch t.Kind {
	case ast.String:
		conds = append(conds, tab.Le(tab.Length(v), tab.Int(model.MaxInputString)))
	case ast.Decimal:
		conds = append(conds, tab.IsInt(tab.Mul(v, tab.Rat(big.NewRat(1<<model.DecimalInputScale, 1)))))
		const limit = 1 << model.DecimalInputBits
		if !t.Ranged || t.Lo <= -limit || t.Hi >= limit {
			// A range within the bound makes it redundant.
			conds = append(conds, tab.Lt(tab.Rat(big.NewRat(-limit, 1)), v), tab.Lt(v, tab.Rat(big.NewRat(limit, 1))))
		}
	}
	return conds
}

// rangeOf returns the conditions that keep v, of type t, within t's range
// (none when t has no range).
func rangeOf(tab *solver.Table, t ast.Type, v solver.Term) []solver.Term {
	if !t.Ranged {
		return nil
	}
	lo, hi := tab.Int(t.Lo), tab.Int(t.Hi)
	if t.Kind == ast.Decimal {
		lo, hi = tab.ToReal(lo), tab.ToReal(hi)
	}
	return []solver.Term{tab.Le(lo, v), tab.Le(v, hi)}
}

// removeTimer removes the oldest pending timer of the event.
func removeTimer(ts []Timer, event string) []Timer {
	i := slices.IndexFunc(ts, func(t Timer) bool { return t.Event == event })
	return slices.Delete(slices.Clone(ts), i, i+1)
}

// process fires, on every run, the transitions of its state on the event.
// For an input the step exists only where a transition fires; a queued
// event that no transition takes is discarded and the step goes on. A
// timer that fires where nothing takes it is consumed all the same.
func (e *explorer) process(r *run, event string, args []Arg, meta model.Meta, keep bool) []*run {
	x := e.x
	pair := r.state.Name + "\x00" + event
	r.trace = append(r.trace, pair)
	cands := e.cands[pair]
	argMap := make(map[string]solver.Term, len(args))
	for _, a := range args {
		argMap[a.Name] = a.Value
	}
	var out []*run
	for _, t := range cands {
		out = append(out, x.fire(r.clone(), t, argMap, meta)...)
	}
	if keep || len(cands) == 0 {
		// Nothing fires where every guard is false.
		none := r.clone()
		none.args, none.meta = argMap, meta
		var cond solver.Term = x.tab.Bool(true)
		for _, t := range cands {
			if t.Guard != nil {
				cond = x.tab.And(cond, x.tab.Not(x.term(none, t.Guard)))
			} else {
				cond = x.tab.Bool(false)
			}
		}
		if kept := x.require(none, cond); kept != nil {
			kept.args, kept.meta = nil, model.Meta{}
			kept.trace[len(kept.trace)-1] += discarded
			out = append(out, kept)
		}
	}
	return out
}

// discarded marks a trace entry where no transition took the event: that
// step's path condition holds the negation of every candidate's guard.
const discarded = "\x00-"

// fire takes one MLM transition on r: its guard, then its action; one run
// per feasible path, each with the transition and its decision path
// recorded.
func (x *executor) fire(r *run, t *mlm.Transition, args map[string]solver.Term, meta model.Meta) []*run {
	r.args, r.meta = args, meta
	r.dec = nil
	r.scopes = []map[string]solver.Term{nil}
	rs := []*run{r}
	if t.Guard != nil {
		rs = nil
		for _, v := range x.eval(r, t.Guard) {
			if k := x.require(v.r, v.v); k != nil {
				rs = append(rs, k)
			}
		}
	}
	rs = x.execList(rs, t.Action.Stmts)
	for _, r := range rs {
		r.fired = append(r.fired, Fired{T: t, Path: string(r.dec)})
		r.state = t.Target
		r.args, r.meta, r.scopes, r.dec = nil, model.Meta{}, nil, nil
	}
	return rs
}

// settle processes queued events until every run is stable
// (run-to-completion): internal events first, then self-sends.
func (e *explorer) settle(rs []*run) []*run {
	var done []*run
	for len(rs) > 0 {
		var next []*run
		for _, r := range rs {
			if r.state.Final {
				r.inner, r.self, r.timers = nil, nil, nil
				done = append(done, r)
				continue
			}
			var q queued
			switch {
			case len(r.inner) > 0:
				q, r.inner = r.inner[0], r.inner[1:]
			case r.state.Invoking:
				// The macrostep ends: the children it invoked start.
				q = queued{event: model.InvokeEvent, meta: model.Meta{Type: model.TypePlatform}}
			case len(r.self) > 0:
				q, r.self = r.self[0], r.self[1:]
			default:
				done = append(done, r)
				continue
			}
			r.micro++
			if r.micro > e.x.opts.MaxMicrosteps {
				var at source.Pos
				if len(r.fired) > 0 {
					at = r.fired[len(r.fired)-1].T.Pos
				}
				e.x.cut(vocab.BoundMicrosteps, at, "run-to-completion processes more than %d queued events (the microsteps bound): "+
					"the machine keeps raising or sending itself events, the next being %s", e.x.opts.MaxMicrosteps, q.event)
				continue
			}
			next = append(next, e.process(r, q.event, q.args, q.meta, true)...)
		}
		rs = next
	}
	return done
}

// add creates the node for k under parent (nil for the root).
func (e *explorer) add(parent *Node, k child) *Node {
	if len(e.slab) == 0 {
		e.slab = make([]Node, 256) // fewer, larger allocations: trees hold all their nodes to the end
	}
	n := &e.slab[0]
	e.slab = e.slab[1:]
	*n = Node{ID: len(e.set.Nodes), Parent: parent, In: k.edge, State: k.state, Vals: k.vals, PC: k.pc, Timers: k.timers,
		Reused: k.base != nil}
	if parent != nil {
		n.Depth = parent.Depth + 1
		parent.Children = append(parent.Children, n)
		// A step that added no condition, or changed no value, leaves
		// the parent's: the node shares them (nodes never change theirs).
		if slices.Equal(n.PC, parent.PC) {
			n.PC = parent.PC
		}
		if slices.Equal(n.Vals, parent.Vals) {
			n.Vals = parent.Vals
		}
	}
	e.set.Nodes = append(e.set.Nodes, n)
	return n
}

func sortArgs(args []Arg) {
	sort.Slice(args, func(i, j int) bool { return args[i].Name < args[j].Name })
}
