package engine

import "github.com/setbot/setbot/solver"

// A Presolver decides the satisfiability queries that the solver chain's
// own layers decide without a solver (chain.go): a box of bounds by its
// intervals, a contradiction among difference constraints, a model the
// witness search builds. Each answer is exact, so it is the solver's, and
// an analysis that keeps a solver of its own (the nondeterminism check of
// package analysis) asks it only the rest, and creates it only then.
type Presolver struct {
	chain layer
}

// NewPresolver returns a presolver of terms of tab.
func NewPresolver(tab *solver.Table) *Presolver {
	d := &differenceBounds{tab: tab}
	return &Presolver{chain: intervalLayer{tab: tab, next: &witnessLayer{tab: tab, next: contradictionLayer{d: d, next: undecided{}}}}}
}

// Check decides pc ∧ c (pc satisfiable): Sat or Unsat when it can,
// Unknown when the solver must.
func (p *Presolver) Check(pc []solver.Term, c solver.Term) solver.Result {
	return p.chain.decide(query{pc: pc, goal: c}).r
}

// undecided ends a presolver's chain: what reaches it is the solver's.
type undecided struct{}

func (undecided) decide(query) answer { return answer{r: solver.Unknown} }
