package engine

import (
	"slices"

	"github.com/setbot/setbot/solver"
)

// oracle answers feasibility and implication questions about path
// conditions, calling the solver only when folding, membership, slicing
// and its cache cannot decide. Path conditions it is given are
// satisfiable (every path was checked as it grew).
type oracle struct {
	tab *solver.Table
	slv solver.Solver
	// models, made by newModels when first needed (slv without it), gives
	// the models of refuted implications. The values of a model depend on
	// the checks its solver made before, so implications have a solver of
	// their own: the counterexamples kept, and with them which checks are
	// made and which terms built, are the same whether the feasibility
	// checks run here or on workers (parallel.go).
	models    solver.Solver
	newModels func() (solver.Solver, error)
	cache     map[string]solver.Result
	cex       []counterexample // recent refutations of implications, oldest first
	cexSeq    uint64           // the id of the newest one (ids count from 1)
	Slicer
	// prepare's: the premise it returns, and scratch
	premise      premise
	parent, comp []int
	impure       []bool
	missing      []solver.Term // refutedByModel's scratch
	calls        int
	unknown      int
	err          error // the first solver error; exploration stops on it

	// A worker's oracle (parallel.go) records in asked, when it is not
	// nil, the checks its cache did not answer: the exploration's oracle
	// may not know them yet, while it knows every check the worker made
	// for an earlier node.
	asked []asked
	// common, for a worker's oracle, is the workers' cache of checks.
	common   *commonChecks
	toCommon []solver.Term // the terms of tab in common's table (0: not there yet)
}

// asked is a check a worker's oracle made, and its result.
type asked struct {
	conj []solver.Term
	r    solver.Result
}

func newOracle(tab *solver.Table, slv solver.Solver) *oracle {
	return &oracle{tab: tab, slv: slv, cache: make(map[string]solver.Result), Slicer: Slicer{tab: tab}}
}

// sat reports whether pc ∧ c may hold: Unknown counts as possible, since
// only a proof of unsatisfiability may drop a path.
func (o *oracle) sat(pc []solver.Term, c solver.Term) bool {
	if v, ok := o.tab.BoolValue(c); ok {
		return v
	}
	neg := o.tab.Not(c)
	for _, x := range pc {
		if x == c {
			return true
		}
		if x == neg {
			return false
		}
	}
	// Only the conjuncts that share variables with c (transitively) can
	// make it infeasible, since pc alone is satisfiable.
	rel := o.Slice(pc, o.tab.Vars(c))
	if ok, decided := boxSatisfiable(o.tab, rel, c); decided {
		return ok
	}
	return o.check(append(rel, c)) != solver.Unsat
}

// implies reports whether p ⇒ b is proven (p is satisfiable).
func (o *oracle) implies(p *premise, b []solver.Term) bool {
	if len(b) == 0 {
		return true
	}
	missing := b[:0:0]
	for _, x := range b {
		if !p.has(x) {
			missing = append(missing, x)
		}
	}
	if len(missing) == 0 {
		return true
	}
	// A condition on a variable p says nothing about is not implied (the
	// conditions of feasible paths are never valid): declining costs at most
	// a missed subsumption, and saves the solver call.
	for _, x := range missing {
		for _, v := range o.tab.Vars(x) {
			if _, ok := p.variable(v); !ok {
				return false
			}
		}
	}
	// A conjunct whose negation p holds is refuted by every model of p.
	for _, x := range missing {
		if p.has(o.tab.Not(x)) {
			return false
		}
	}
	a := p.pc
	var vars []solver.Term
	for _, x := range missing {
		vars = append(vars, o.tab.Vars(x)...)
	}
	rel := o.Slice(a, vars)
	undecided := missing[:0:0]
	for _, x := range missing {
		implied, refuted := byIntervals(o.tab, rel, x)
		if refuted {
			return false
		}
		if !implied {
			undecided = append(undecided, x)
		}
	}
	if len(undecided) == 0 {
		return true
	}
	var goal solver.Term = o.tab.Bool(true)
	for _, x := range undecided {
		goal = o.tab.And(goal, x)
	}
	// A model that satisfies a and not b, kept from an earlier refutation,
	// refutes without the solver (a counterexample cache, as KLEE's).
	for _, m := range o.cex {
		if o.holds(m, rel) && !o.truthOf(m, goal) {
			return false
		}
	}
	query := append(rel, o.tab.Not(goal))
	key := ConjKey(query)
	if r, ok := o.cache[key]; ok {
		return r == solver.Unsat
	}
	var all []solver.Term
	seen := make(map[solver.Term]bool)
	for _, c := range query {
		all = o.tab.VarsInOrder(c, seen, all)
	}
	if o.models == nil {
		o.models = o.slv
		if o.newModels != nil {
			s, err := o.newModels()
			if err != nil {
				if o.err == nil {
					o.err = err
				}
				return false
			}
			o.models = s
		}
	}
	o.calls++
	r, model, err := o.models.Model(query, all)
	if err != nil && o.err == nil {
		o.err = err
	}
	if r == solver.Unknown {
		o.unknown++
	}
	o.cache[key] = r
	if r == solver.Sat {
		o.cexSeq++
		o.cex = append(o.cex, newCounterexample(model))
		if len(o.cex) > maxCounterexamples {
			o.cex = o.cex[1:]
		}
	}
	return r == solver.Unsat
}

// close releases the solver of implications, when it has one of its own.
func (o *oracle) close() {
	if o.models != nil && o.models != o.slv {
		o.models.Close()
	}
}

// maxCounterexamples bounds the counterexample cache.
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
func (o *oracle) holds(m counterexample, conj []solver.Term) bool {
	for _, c := range conj {
		if !o.truthOf(m, c) {
			return false
		}
	}
	return true
}

// truthOf reports whether the boolean term c is true under the model; a term
// the model does not decide counts as false.
func (o *oracle) truthOf(m counterexample, c solver.Term) bool {
	if t, ok := m.truth[c]; ok {
		return t
	}
	var t bool
	if o.tab.IsScalar(c) {
		v, ok := o.tab.EvalScalar(c, func(v solver.Term) (int64, bool) { x, ok := m.scalars[v]; return x, ok })
		t = ok && v != 0
	} else {
		v, ok := o.tab.Eval(c, func(v solver.Term) (solver.Value, bool) { x, ok := m.all[v]; return x, ok })
		t = ok && v.Bool
	}
	m.truth[c] = t
	return t
}

// check asks the solver, through the cache.
func (o *oracle) check(conj []solver.Term) solver.Result {
	key := ConjKey(conj)
	if r, ok := o.cache[key]; ok {
		return r
	}
	var r solver.Result
	var err error
	if o.common != nil {
		r, err = o.common.check(o, conj)
	} else {
		o.calls++
		r, err = o.slv.Check(conj)
	}
	if err != nil && o.err == nil {
		o.err = err
	}
	if r == solver.Unknown {
		o.unknown++
	}
	o.cache[key] = r
	if o.common != nil {
		o.asked = append(o.asked, asked{slices.Clone(conj), r})
	}
	return r
}

// replay counts, for the checks a worker made (in its terms; to maps them
// to o's), the solver calls and unknown results o would have had making
// them itself, and caches their results: the statistics and the cache of
// an exploration do not depend on how many workers it had.
func (o *oracle) replay(qs []asked, to []solver.Term) {
	var conj []solver.Term
	for _, q := range qs {
		conj = conj[:0]
		for _, x := range q.conj {
			conj = append(conj, to[x])
		}
		key := ConjKey(conj)
		if _, ok := o.cache[key]; ok {
			continue
		}
		o.calls++
		if q.r == solver.Unknown {
			o.unknown++
		}
		o.cache[key] = q.r
	}
}
