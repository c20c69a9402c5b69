package engine

import (
	"slices"

	"github.com/setbot/setbot/solver"
)

// The solver chain: a query goes down through layers, each deciding what
// it can without the solver and handing the rest on, as in KLEE's chain of
// solvers (Cadar, Dunbar and Engler, "KLEE: Unassisted and Automatic
// Generation of High-Coverage Tests for Complex Systems Programs", 2008).
// newOracle builds it, top to bottom:
//
//	sliceLayer         keeps the constraints that share variables with the goal
//	intervalLayer      decides bounds on integer variables by their intervals
//	cexLayer           refutes implications by models kept from earlier ones
//	proofLayer         proves implications by difference bounds (difference.go)
//	witnessLayer       decides satisfiable what it finds a model of (witness.go)
//	contradictionLayer decides unsatisfiable what difference bounds contradict
//	cacheLayer         answers a conjunction asked before
//	sharedCore         on a worker: a check another worker made (parallel.go)
//	core               the solver
//
// Each layer is a small type; what one learns that others read (the cache,
// the counterexamples) the oracle reaches through newOracle's pointers.

// query asks about pc ∧ goal: whether it is satisfiable (feasibility),
// or, valid, whether pc implies the conjunction of goals, asked as the
// satisfiability of pc ∧ ¬goals, a model of which is a counterexample.
type query struct {
	pc    []solver.Term // satisfiable
	goal  solver.Term   // feasibility: the condition; validity: the goals' conjunction, once built
	goals []solver.Term // validity: the conjuncts to prove
	valid bool
	// tried, for validity, says the counterexamples kept were tried on
	// each goal already (oracle.refutedByModel), so the counterexample
	// layer does not try them again.
	tried bool
	conj  []solver.Term // what the solver is asked, once built
}

// target is the goal: for validity the conjunction of the goals, built
// (and kept) when first asked for.
func (q *query) target(tab *solver.Table) solver.Term {
	if q.goal == 0 {
		var g solver.Term = tab.Bool(true)
		for _, x := range q.goals {
			g = tab.And(g, x)
		}
		q.goal = g
	}
	return q.goal
}

// conjunction is what the solver is asked: pc ∧ goal, or pc ∧ ¬goal.
func (q *query) conjunction(tab *solver.Table) []solver.Term {
	if q.conj == nil {
		last := q.target(tab)
		if q.valid {
			last = tab.Not(last)
		}
		q.conj = append(q.pc[:len(q.pc):len(q.pc)], last)
	}
	return q.conj
}

// answer is the result of a query's conjunction (pc ∧ goal, or pc ∧ ¬goal
// for validity: Unsat proves the implication).
type answer struct {
	r solver.Result
	// model is the solver's model of a satisfiable validity query, when
	// the solver was asked (solved).
	model  map[solver.Term]solver.Value
	solved bool
	failed bool // no solver could be had: the answer is no one's to keep
}

// A layer decides a query, or hands it to the next.
type layer interface {
	decide(q query) answer
}

// newOracle builds the oracle and its solver chain over slv. newModels,
// when not nil, makes the solver of implications and of concolic models
// (see core); common, on a worker, is the checks the workers share.
func newOracle(tab *solver.Table, slv solver.Solver, newModels func() (solver.Solver, error), common *commonChecks) *oracle {
	o := &oracle{tab: tab, Slicer: NewSlicer(tab)}
	o.core = &core{tab: tab, slv: slv, newModels: newModels, stats: &o.stats}
	var bottom layer = o.core
	if common != nil {
		o.workers = &sharedCore{core: o.core, common: common}
		bottom = o.workers
	}
	o.cache = &cacheLayer{tab: tab, next: bottom, results: make(map[string]solver.Result)}
	d := &differenceBounds{tab: tab}
	o.cex = &cexLayer{tab: tab, next: proofLayer{d: d, next: &witnessLayer{tab: tab, next: contradictionLayer{d: d, next: o.cache}}}}
	o.chain = sliceLayer{Slicer: o.Slicer, next: intervalLayer{tab: tab, next: o.cex}}
	return o
}

// sliceLayer cuts the constraints down to those connected to the goal's
// variables (Slicer): pc is satisfiable, so the rest cannot change the
// answer, and the smaller conjunction recurs, so the cache answers it.
type sliceLayer struct {
	*Slicer
	next layer
}

func (l sliceLayer) decide(q query) answer {
	var vars []solver.Term
	if q.valid {
		for _, x := range q.goals {
			vars = append(vars, l.tab.Vars(x)...)
		}
	} else {
		vars = l.tab.Vars(q.goal)
	}
	q.pc = l.Slice(q.pc, vars)
	return l.next.decide(q)
}

// intervalLayer decides by the intervals of integer variables
// (interval.go): a feasibility query whose constraints are a box
// (boxSatisfiable), and each goal of a validity query the bounds entail
// or, in a box, refute (byIntervals); the goals left undecided go on.
type intervalLayer struct {
	tab  *solver.Table
	next layer
}

func (l intervalLayer) decide(q query) answer {
	if !q.valid {
		if ok, decided := boxSatisfiable(l.tab, q.pc, q.goal); decided {
			return answer{r: resultOf(ok)}
		}
		return l.next.decide(q)
	}
	undecided := q.goals[:0:0]
	for _, x := range q.goals {
		implied, refuted := byIntervals(l.tab, q.pc, x)
		if refuted {
			return answer{r: solver.Sat}
		}
		if !implied {
			undecided = append(undecided, x)
		}
	}
	if len(undecided) == 0 {
		return answer{r: solver.Unsat}
	}
	q.goals = undecided
	return l.next.decide(q)
}

// resultOf is Sat for true, Unsat for false.
func resultOf(sat bool) solver.Result {
	if sat {
		return solver.Sat
	}
	return solver.Unsat
}

// cexLayer refutes an implication by a model that satisfies its
// constraints and not its goal, kept from an earlier refutation (a
// counterexample cache, as KLEE's), and keeps the models the layers below
// give of the implications they refute (the witness search's, the
// solver's).
type cexLayer struct {
	tab  *solver.Table
	next layer
	kept []counterexample // the newest, oldest first
	seq  uint64           // the id of the newest one (ids count from 1)
}

func (c *cexLayer) decide(q query) answer {
	if !q.valid {
		return c.next.decide(q)
	}
	if !q.tried {
		goal := q.target(c.tab)
		for _, m := range c.kept {
			if c.holds(m, q.pc) && !c.truthOf(m, goal) {
				return answer{r: solver.Sat}
			}
		}
	}
	a := c.next.decide(q)
	if a.solved && a.r == solver.Sat {
		c.seq++
		c.kept = append(c.kept, newCounterexample(a.model))
		if len(c.kept) > maxCounterexamples {
			c.kept = c.kept[1:]
		}
	}
	return a
}

// maxCounterexamples bounds the counterexamples kept.
const maxCounterexamples = 32

// counterexample is a model the solver gave, with its int and bool values
// also in the compact form EvalScalar reads, and the truth of the terms
// asked of it so far: canonical conjuncts recur in the premises and
// candidates of many states, so each is evaluated once per model.
type counterexample struct {
	all     map[solver.Term]solver.Value
	scalars map[solver.Term]int64
	truth   map[solver.Term]bool
}

func newCounterexample(m map[solver.Term]solver.Value) counterexample {
	c := counterexample{all: m, scalars: make(map[solver.Term]int64, len(m)), truth: make(map[solver.Term]bool)}
	for v, x := range m {
		switch x.Sort {
		case solver.IntSort:
			c.scalars[v] = x.Int
		case solver.BoolSort:
			if x.Bool {
				c.scalars[v] = 1
			} else {
				c.scalars[v] = 0
			}
		}
	}
	return c
}

// holds reports whether every term of conj is true under the model; a term
// the model does not decide counts as false.
func (c *cexLayer) holds(m counterexample, conj []solver.Term) bool {
	for _, x := range conj {
		if !c.truthOf(m, x) {
			return false
		}
	}
	return true
}

// truthOf reports whether the boolean term x is true under the model; a term
// the model does not decide counts as false.
func (c *cexLayer) truthOf(m counterexample, x solver.Term) bool {
	if t, ok := m.truth[x]; ok {
		return t
	}
	var t bool
	if c.tab.IsScalar(x) {
		v, ok := c.tab.EvalScalar(x, func(v solver.Term) (int64, bool) { x, ok := m.scalars[v]; return x, ok })
		t = ok && v != 0
	} else {
		v, ok := c.tab.Eval(x, func(v solver.Term) (solver.Value, bool) { x, ok := m.all[v]; return x, ok })
		t = ok && v.Bool
	}
	m.truth[x] = t
	return t
}

// cacheLayer answers a conjunction asked before, as a set of terms
// (ConjKey): the same conjunction comes from many paths and states.
type cacheLayer struct {
	tab     *solver.Table
	next    layer
	results map[string]solver.Result
}

func (c *cacheLayer) decide(q query) answer {
	key := ConjKey(q.conjunction(c.tab))
	if r, ok := c.results[key]; ok {
		return answer{r: r}
	}
	a := c.next.decide(q)
	if !a.failed {
		c.results[key] = a.r
	}
	return a
}

// lookup returns the answer cached for conj, and whether there is one.
func (c *cacheLayer) lookup(conj []solver.Term) (solver.Result, bool) {
	r, ok := c.results[ConjKey(conj)]
	return r, ok
}

// learn caches r for conj, and reports whether it was new.
func (c *cacheLayer) learn(conj []solver.Term, r solver.Result) bool {
	key := ConjKey(conj)
	if _, ok := c.results[key]; ok {
		return false
	}
	c.results[key] = r
	return true
}

// core asks the solver, and counts what it asks (stats). Feasibility goes
// to slv. Implications go to a solver of their own, made by newModels
// when first needed (slv without it): the values of a model depend on the
// checks its solver made before, so the counterexamples kept, and with
// them which checks are made and which terms built, are the same whether
// the feasibility checks run here or on workers (parallel.go).
type core struct {
	tab       *solver.Table
	slv       solver.Solver
	models    solver.Solver
	newModels func() (solver.Solver, error)
	*stats
}

func (c *core) decide(q query) answer {
	conj := q.conjunction(c.tab)
	if !q.valid {
		c.calls++
		r, err := c.slv.Check(conj)
		c.record(r, err)
		return answer{r: r}
	}
	if c.models == nil {
		c.models = c.slv
		if c.newModels != nil {
			s, err := c.newModels()
			if err != nil {
				if c.err == nil {
					c.err = err
				}
				return answer{r: solver.Unknown, failed: true}
			}
			c.models = s
		}
	}
	var all []solver.Term
	seen := make(map[solver.Term]bool)
	for _, x := range conj {
		all = c.tab.VarsInOrder(x, seen, all)
	}
	c.calls++
	r, model, err := c.models.Model(conj, all)
	c.record(r, err)
	return answer{r: r, model: model, solved: true}
}

// modelSolver is a solver for concolic models (concolic.go), to be closed
// by the caller when it is not slv: one of its own, like the solver of
// implications, so that the models do not depend on --jobs.
func (c *core) modelSolver() (solver.Solver, error) {
	if c.newModels == nil {
		return c.slv, nil
	}
	return c.newModels()
}

// close releases the solver of implications, when it has one of its own.
func (c *core) close() {
	if c.models != nil && c.models != c.slv {
		c.models.Close()
	}
}

// sharedCore is a worker's bottom (parallel.go): a feasibility check goes
// to the checks the workers share, and is recorded in asked, since the
// exploration's oracle may not know it yet (replay); implications go to
// the core.
type sharedCore struct {
	*core
	common   *commonChecks
	toCommon []solver.Term // the terms of tab in common's table (0: not there yet)
	asked    []asked
}

func (s *sharedCore) decide(q query) answer {
	if q.valid {
		return s.core.decide(q)
	}
	conj := q.conjunction(s.tab)
	r, err := s.common.check(s, conj)
	s.record(r, err)
	s.asked = append(s.asked, asked{slices.Clone(conj), r})
	return answer{r: r}
}
