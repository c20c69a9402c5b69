package engine

import (
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// Exploration with several workers (Options.Jobs). The tree is built level
// by level, as one worker builds it, and is the same tree, term table
// included: the exploring goroutine walks the nodes in order as before,
// but finds each node's step already made by a worker.
//
// When the walk reaches a level (all of whose nodes exist by then), the
// workers take the level's nodes to expand in order, each on its own term
// table, solver and caches: the symbolic step (execution and feasibility
// checks) and the canonical forms of the children, the costly part of
// exploration. The walk takes their results in node order and adopts into
// the tree's table the terms the worker created, in the order it created
// them (solver.Table.Adopt), then adds the children and decides their
// subsumption, as expand does. A node's step and canonical forms are
// functions of the shapes of its terms, which the worker's table and the
// tree's agree on; a worker's caches only spare it building terms that
// already exist. So the tree's table gains the terms a single worker
// would have created, in the same order; the checks a worker made are
// replayed against the walk's cache (oracle.replay), so that the solver
// calls counted are those of one worker too. Only the subsumption checks
// stay on the walk: the first implied candidate depends on the candidates
// of the level so far.
//
// Between levels the walk syncs every worker: the worker's table adopts
// the terms the tree's table gained, so that the next level's nodes can
// be read in the worker's terms.

// minParallel is the fewest nodes a level needs for the workers to expand
// it; a smaller level is expanded on the walk, which costs no adopting.
const minParallel = 4

// pool holds the workers of one exploration.
type pool struct {
	e         *explorer // the walk's
	jobs      int
	newSolver NewSolver
	start     time.Time // of the exploration, whose time budget bounds the workers' checks
	workers   []*worker // started by the first level they expand

	depth int     // of the level the walk is in; -1 before the first
	lo    int     // index of the level's first node
	tasks []*task // by node index - lo; nil where the walk expands, or for all of a small level
	todo  []*task // the level's tasks, in order
	next  atomic.Int64
	stop  atomic.Bool
	wg    sync.WaitGroup

	common *commonChecks
}

func newPool(e *explorer, jobs int, newSolver NewSolver, start time.Time) *pool {
	return &pool{e: e, jobs: jobs, newSolver: newSolver, start: start, depth: -1,
		common: &commonChecks{tab: solver.NewTable(), results: make(map[string]*commonCheck)}}
}

// worker expands nodes on its own goroutine.
type worker struct {
	e          *explorer     // its own: its executor has the worker's table and oracle
	fromShared []solver.Term // the tree's terms, in the worker's table
	toShared   []solver.Term // the worker's terms, in the tree's table
}

// task is the expansion of one node by a worker.
type task struct {
	n    *Node
	base *Node // MSE: n's counterpart
	done chan struct{}

	// What the worker computed, in its terms.
	w      *worker
	terms  solver.Tail // the terms it created, in order
	marks  []int       // how many of terms the step created, then the canonical form of each child
	kids   []child
	steps  []stepBound     // the node's, by input (Node.steps)
	canon  [][]solver.Term // by child: its canonical form (canonicalForm)
	asked  []asked
	bounds map[vocab.Bound]int
	limits map[vocab.Bound]int64
	err    error // the executor's
	slvErr error // the oracle's
}

// level prepares the level whose first node is at index i: when it is big
// enough, the workers start expanding its nodes.
func (p *pool) level(i int) error {
	e := p.e
	p.wg.Wait() // the previous level's tasks were all taken
	nodes := e.set.Nodes
	p.depth, p.lo, p.tasks, p.todo = nodes[i].Depth, i, nil, nil
	hi := i
	for hi < len(nodes) && nodes[hi].Depth == p.depth {
		hi++
	}
	tasks := make([]*task, hi-i)
	var todo []*task
	for j := i; j < hi; j++ {
		n := nodes[j]
		// The nodes the walk may expand (run's tests, but for inputs: a
		// worker finds none where the walk skips the node).
		if n.Subsumed != nil || n.State.Final || n.Depth >= e.x.opts.MaxDepth {
			continue
		}
		t := &task{n: n, base: e.strat.counterpart(n), done: make(chan struct{})}
		tasks[j-i] = t
		todo = append(todo, t)
	}
	if len(todo) < minParallel {
		return nil
	}
	for len(p.workers) < p.jobs {
		p.workers = append(p.workers, p.newWorker())
	}
	for _, w := range p.workers {
		w.sync(e.set.Terms)
	}
	p.tasks, p.todo = tasks, todo
	p.next.Store(0)
	for _, w := range p.workers {
		p.wg.Add(1)
		go p.work(w)
	}
	return nil
}

// task returns the task of the node at index i, nil when the walk expands
// it itself.
func (p *pool) task(i int) *task {
	if p == nil || p.tasks == nil {
		return nil
	}
	return p.tasks[i-p.lo]
}

// work expands the level's nodes, taking the next one not taken, until
// none is left or the exploration stops.
func (p *pool) work(w *worker) {
	defer p.wg.Done()
	for !p.stop.Load() {
		k := int(p.next.Add(1)) - 1
		if k >= len(p.todo) {
			return
		}
		t := p.todo[k]
		w.expand(t)
		close(t.done)
	}
}

// close stops the workers, once their current nodes are expanded, and
// releases their solvers.
func (p *pool) close() {
	if p == nil {
		return
	}
	p.stop.Store(true)
	p.wg.Wait()
	for _, w := range p.workers {
		w.e.x.or.core.slv.Close()
	}
}

func (p *pool) newWorker() *worker {
	e := p.e
	tab := solver.NewTable()
	slv := startLater(p.newSolver, tab)
	limitSolver(slv, &e.x.opts, p.start)
	newModels := func() (solver.Solver, error) {
		s, err := p.newSolver(tab)
		if err != nil {
			return nil, fmt.Errorf("starting a worker's solver of models: %w", err)
		}
		limitSolver(s, &e.x.opts, p.start)
		return s, nil
	}
	or := newOracle(tab, slv, newModels, p.common)
	x := &executor{m: e.x.m, tab: tab, or: or, opts: e.x.opts, varIdx: e.x.varIdx,
		bounds: make(map[vocab.Bound]int), limits: make(map[vocab.Bound]int64)}
	we := &explorer{x: x, set: &SET{Machine: e.set.Machine, Terms: tab, Options: e.set.Options},
		cands: e.cands, canonVars: make(map[canonKey]solver.Term), renamed: make(map[renamedKey]solver.Term),
	}
	we.strat = e.strat.forWorker(we)
	return &worker{e: we, fromShared: []solver.Term{0}, toShared: []solver.Term{0}}
}

// sync makes the worker's table adopt the terms the tree's table gained
// since the last sync. It runs between levels: every term the worker
// created has been adopted by the tree's table by then.
func (w *worker) sync(tab *solver.Table) {
	own := w.e.x.tab
	tl := tab.Tail(solver.Term(len(w.fromShared)))
	for i := 0; i < tl.Len(); i++ {
		before := own.Len()
		x := own.Adopt(tl, i, w.fromShared)
		w.fromShared = append(w.fromShared, x)
		if own.Len() > before {
			if int(x) != len(w.toShared) {
				panic("engine: a worker's table is out of step with the tree's")
			}
			w.toShared = append(w.toShared, tl.First()+solver.Term(i))
		}
	}
}

// expand computes, on the worker's goroutine, t's node's children and
// their canonical forms.
func (w *worker) expand(t *task) {
	e := w.e
	x, tab := e.x, e.x.tab
	first := solver.Term(tab.Len() + 1)
	clear(x.bounds)
	clear(x.limits)
	x.err, x.or.err, x.or.workers.asked = nil, nil, nil
	var buf []solver.Term
	n := &Node{State: t.n.State, Vals: mapTerms(&buf, t.n.Vals, w.fromShared), PC: mapTerms(&buf, t.n.PC, w.fromShared),
		Timers: mapTimers(t.n.Timers, w.fromShared), Depth: t.n.Depth, Reused: t.n.Reused}
	kids, steps := e.step(n, e.inputs(n), t.base, nil) // the task keeps them until the walk merges them
	t.marks = append(t.marks, tab.Len()+1-int(first))
	if x.err == nil && x.or.err == nil {
		for _, k := range kids {
			canon := e.strat.canonOf(k.base)
			if canon == nil {
				canon = e.canonicalForm(&Node{State: k.state, Vals: k.vals, PC: k.pc, Timers: k.timers})
			}
			t.canon = append(t.canon, canon)
			t.marks = append(t.marks, tab.Len()+1-int(first))
		}
	}
	t.w, t.terms, t.kids, t.steps, t.asked = w, tab.Tail(first), kids, steps, x.or.workers.asked
	t.err, t.slvErr = x.err, x.or.err
	if len(x.bounds) > 0 {
		t.bounds = maps.Clone(x.bounds)
	}
	if len(x.limits) > 0 {
		t.limits = maps.Clone(x.limits)
	}
}

// merge does, on the walk, what expand does with the children a worker
// computed for n (its task t).
func (e *explorer) merge(n *Node, t *task) error {
	if e.x.opts.Cancel != nil {
		select {
		case <-t.done:
		case <-e.x.opts.Cancel:
			return ErrCanceled
		}
	} else {
		<-t.done
	}
	e.pool.tasks[n.ID-e.pool.lo] = nil
	defer func() { *t = task{} }() // the level's tasks stay listed until it ends; their results need not
	if t.err != nil {
		return t.err
	}
	if t.slvErr != nil {
		if closed(e.x.opts.Cancel) {
			return ErrCanceled // a check the cancel interrupted as it ended
		}
		return fmt.Errorf("solver: %w", t.slvErr)
	}
	w, tab := t.w, e.x.tab
	w.adopt(tab, t.terms, 0, t.marks[0])
	e.x.or.replay(t.asked, w.toShared)
	for b, c := range t.bounds {
		e.x.bounds[b] += c
	}
	for b, l := range t.limits {
		e.x.limits[b] = max(e.x.limits[b], l)
	}
	n.Expanded, n.steps = true, t.steps
	size := 0
	for j, k := range t.kids {
		size += len(k.vals) + len(k.pc) + len(t.canon[j])
	}
	buf := make([]solver.Term, 0, size) // one allocation for the children's terms
	for j, k := range t.kids {
		w.adopt(tab, t.terms, t.marks[j], t.marks[j+1])
		c := e.attach(n, w.shared(k, &buf))
		e.subsumedAs(c, mapTerms(&buf, t.canon[j], w.toShared))
	}
	return nil
}

// adopt makes the tree's table adopt the worker's terms tl[from:to].
func (w *worker) adopt(tab *solver.Table, tl solver.Tail, from, to int) {
	for i := from; i < to; i++ {
		if int(tl.First())+i != len(w.toShared) {
			panic("engine: a worker's terms adopted out of order")
		}
		w.toShared = append(w.toShared, tab.Adopt(tl, i, w.toShared))
	}
}

// shared returns the worker's child k in the tree's terms, its valuation
// and path condition appended to *buf.
func (w *worker) shared(k child, buf *[]solver.Term) child {
	to := w.toShared
	k.vals, k.pc, k.timers = mapTerms(buf, k.vals, to), mapTerms(buf, k.pc, to), mapTimers(k.timers, to)
	edge := *k.edge
	edge.Args = mapArgs(edge.Args, to)
	edge.Elapsed = mapTerm(edge.Elapsed, to)
	if edge.Outputs != nil {
		edge.Outputs = make([]Output, len(k.edge.Outputs))
		for i, o := range k.edge.Outputs {
			edge.Outputs[i] = Output{Event: o.Event, Target: o.Target, Args: mapArgs(o.Args, to)}
		}
	}
	k.edge = &edge
	return k
}

// mapTerms appends xs to *buf, each term x replaced by to[x], and returns
// them (nil for nil xs; appending to them never writes *buf).
func mapTerms(buf *[]solver.Term, xs, to []solver.Term) []solver.Term {
	if xs == nil {
		return nil
	}
	start := len(*buf)
	for _, x := range xs {
		*buf = append(*buf, to[x])
	}
	return (*buf)[start:len(*buf):len(*buf)]
}

func mapArgs(as []Arg, to []solver.Term) []Arg {
	if as == nil {
		return nil
	}
	out := make([]Arg, len(as))
	for i, a := range as {
		out[i] = Arg{Name: a.Name, Value: to[a.Value]}
	}
	return out
}

func mapTimers(ts []Timer, to []solver.Term) []Timer {
	if ts == nil {
		return nil
	}
	out := make([]Timer, len(ts))
	for i, t := range ts {
		out[i] = Timer{Event: t.Event, Args: mapArgs(t.Args, to), ID: t.ID, Due: mapTerm(t.Due, to)}
	}
	return out
}

// mapTerm returns to[x], or 0 (no term) for 0.
func mapTerm(x solver.Term, to []solver.Term) solver.Term {
	if x == 0 {
		return 0
	}
	return to[x]
}

// commonChecks is the checks the workers made, so that one worker asks the
// solver what another learnt: the nodes of a level share most of their
// checks. Its keys are of terms of a table of its own, into which the
// workers' terms are adopted.
type commonChecks struct {
	mu      sync.Mutex
	tab     *solver.Table
	results map[string]*commonCheck
}

// commonCheck is a check's result, once done is closed.
type commonCheck struct {
	done chan struct{}
	r    solver.Result
	err  error
}

// check decides conj, of o's terms, with the result another worker found
// or is finding, or else with o's solver.
func (c *commonChecks) check(o *sharedCore, conj []solver.Term) (solver.Result, error) {
	c.mu.Lock()
	ids := make([]solver.Term, len(conj))
	for i, x := range conj {
		ids[i] = c.adopt(o, x)
	}
	key := ConjKey(ids)
	if k, ok := c.results[key]; ok {
		c.mu.Unlock()
		<-k.done
		return k.r, k.err
	}
	k := &commonCheck{done: make(chan struct{})}
	c.results[key] = k
	c.mu.Unlock()
	k.r, k.err = o.slv.Check(conj)
	close(k.done)
	return k.r, k.err
}

// adopt returns x, a term of o's table, in c's.
func (c *commonChecks) adopt(o *sharedCore, x solver.Term) solver.Term {
	if int(x) < len(o.toCommon) && o.toCommon[x] != 0 {
		return o.toCommon[x]
	}
	a, b, d := o.tab.Args(x)
	for _, y := range []solver.Term{a, b, d} {
		if y != 0 {
			c.adopt(o, y)
		}
	}
	for len(o.toCommon) <= int(x) {
		o.toCommon = append(o.toCommon, 0)
	}
	o.toCommon[x] = c.tab.Adopt(o.tab.Tail(x), 0, o.toCommon)
	return o.toCommon[x]
}
