package engine

import (
	"github.com/setbot/setbot/solver"
)

// oracle answers feasibility and implication questions about path
// conditions. It decides what the question's own terms decide (a constant,
// a conjunct the path condition holds, or its negation), and asks the rest
// of its solver chain (chain.go). Path conditions it is given are
// satisfiable (every path was checked as it grew).
type oracle struct {
	tab   *solver.Table
	chain layer // newOracle's
	*Slicer
	cache   *cacheLayer // the chain's, read by undecided and replay
	cex     *cexLayer   // the chain's, read by refutedByModel
	core    *core       // the chain's bottom
	workers *sharedCore // on a worker (parallel.go): the checks shared among workers; nil elsewhere
	stats
	// prepare's: the premise it returns, and scratch
	premise      premise
	parent, comp []int
	impure       []bool
	missing      []solver.Term // implies' scratch
}

// stats is what the solver was asked, counted where it is asked (core,
// sharedCore) and read by the exploration.
type stats struct {
	calls   int
	unknown int
	err     error // the first solver error; exploration stops on it
}

// record counts a solver's answer r, and keeps its first error.
func (s *stats) record(r solver.Result, err error) {
	if err != nil && s.err == nil {
		s.err = err
	}
	if r == solver.Unknown {
		s.unknown++
	}
}

// asked is a check a worker's oracle made, and its result.
type asked struct {
	conj []solver.Term
	r    solver.Result
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
	return o.chain.decide(query{pc: pc, goal: c}).r != solver.Unsat
}

// implies reports whether p ⇒ b is proven (p is satisfiable). It holds
// exactly when p implies each conjunct of b, and the candidates of a key
// share most of their conjuncts, so what is learnt of a conjunct is kept in
// the premise for the other candidates it is asked about (premise.prove,
// premise.refute). A conjunct the premise holds or negates is decided by
// that; then one on a variable the premise says nothing about is refuted
// (the conditions of feasible paths are never valid: declining costs at
// most a missed subsumption, and saves the check); then one that a kept
// counterexample falsifies (refutedByModel); the conjuncts left go to the
// solver chain together.
func (o *oracle) implies(p *premise, b []solver.Term) bool {
	missing := o.missing[:0]
	defer func() { o.missing = missing[:0] }()
	for _, x := range b {
		if p.refutes(x) {
			return false
		}
		if !p.holds(x) {
			missing = append(missing, x)
		}
	}
	if len(missing) == 0 {
		return true
	}
	for _, x := range missing {
		for _, v := range o.tab.Vars(x) {
			if _, ok := p.variable(v); !ok {
				p.refute(x)
				return false
			}
		}
	}
	tried := true
	for _, x := range missing {
		refuted, ok := o.refutedByModel(p, x)
		if refuted {
			p.refute(x)
			return false
		}
		tried = tried && ok
	}
	if o.chain.decide(query{pc: p.pc, goals: missing, valid: true, tried: tried}).r != solver.Unsat {
		return false
	}
	for _, x := range missing {
		p.prove(x)
	}
	return true
}

// close releases the solver of implications, when it has one of its own.
func (o *oracle) close() { o.core.close() }

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
		if o.cache.learn(conj, q.r) {
			o.calls++
			if q.r == solver.Unknown {
				o.unknown++
			}
		}
	}
}

// refutedByModel reports whether a recent counterexample (a model the
// solver gave, kept by the chain's counterexample layer) falsifies x, a
// conjunct missing from the premise (on its variables), and satisfies the
// components of the premise that x's variables belong to: with a model of
// the premise's other components (which are independent), it makes a model
// of the premise that falsifies the implication. It reports too whether it
// tried every counterexample kept (it leaves a premise of over 64
// components to the chain's counterexample layer, which would find the
// same counterexamples, but slices and evaluates the premise under each
// for every query; here the premise is evaluated once per counterexample,
// and only under one that falsifies a conjunct asked about).
func (o *oracle) refutedByModel(p *premise, x solver.Term) (refuted, tried bool) {
	k := o.cex
	if len(k.kept) == 0 {
		return false, true
	}
	var need uint64
	for _, v := range o.tab.Vars(x) {
		pv, _ := p.variable(v)
		if pv.comp >= 64 {
			return false, false
		}
		need |= 1 << pv.comp
	}
	oldest := k.seq - uint64(len(k.kept)) + 1
	for i, m := range k.kept {
		if !k.truthOf(m, x) && p.satisfied(k, oldest+uint64(i), m)&need == need {
			return true, true
		}
	}
	return false, true
}

// satisfied returns the components of the premise (those numbered below
// 64) that the counterexample m, of id id, satisfies, evaluating the
// premise under m the first time it is asked for m.
func (p *premise) satisfied(k *cexLayer, id uint64, m counterexample) uint64 {
	slot := id % maxCounterexamples
	if p.satID[slot] == id {
		return p.sat[slot]
	}
	sat := ^uint64(0)
	for i, x := range p.pc {
		if comp := p.comps[i]; comp >= 0 && comp < 64 && sat&(1<<comp) != 0 && !k.truthOf(m, x) {
			sat &^= 1 << comp
		}
	}
	p.sat[slot], p.satID[slot] = sat, id
	return sat
}
