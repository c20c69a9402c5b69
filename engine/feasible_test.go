package engine

import (
	"testing"
	"time"

	"github.com/setbot/setbot/solver"
)

// noSolver fails the test on any check: what it is given must be decided
// without the solver.
type noSolver struct{ t *testing.T }

func (s noSolver) Check(conj []solver.Term) (solver.Result, error) {
	s.t.Errorf("solver asked to check %v", conj)
	return solver.Unknown, nil
}

func (s noSolver) Model(conj, _ []solver.Term) (solver.Result, map[solver.Term]solver.Value, error) {
	s.t.Errorf("solver asked for a model of %v", conj)
	return solver.Unknown, nil, nil
}

func (noSolver) SetTimeout(time.Duration)  {}
func (noSolver) SetCancel(<-chan struct{}) {}
func (noSolver) Close()                    {}

// TestImpliesRefutesNegatedConjunct: a premise that holds the negation of
// a conjunct does not imply it, and the solver is not asked (the premise
// is satisfiable, so its models refute the conjunct).
func TestImpliesRefutesNegatedConjunct(t *testing.T) {
	tab := solver.NewTable()
	gap, v := tab.Var("#0", solver.IntSort), tab.Var("#1", solver.IntSort)
	half := tab.Div(v, tab.Int(2))
	premise := []solver.Term{
		tab.Le(tab.Int(0), gap), tab.Le(gap, tab.Int(200)),
		tab.Le(tab.Int(0), v), tab.Le(v, tab.Int(200)),
		tab.Lt(gap, half),
	}
	or := newOracle(tab, noSolver{t})
	p := or.prepare(premise)
	for _, b := range [][]solver.Term{
		{tab.Le(half, gap)},
		{tab.Le(tab.Int(0), gap), tab.Le(half, gap)},
	} {
		if or.implies(p, b) {
			t.Errorf("%v implies %v, whose negation it holds", premise, b)
		}
	}
	if !or.implies(p, premise[:2]) {
		t.Errorf("%v does not imply its own conjuncts", premise)
	}
	if or.calls != 0 {
		t.Errorf("%d solver calls, want none", or.calls)
	}
}
