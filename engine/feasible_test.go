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

// TestSatDecidesBoxes: a guard that with the conjuncts it shares variables
// with is nothing but bounds is decided by their intervals, without the
// solver.
func TestSatDecidesBoxes(t *testing.T) {
	tab := solver.NewTable()
	v, w := tab.Var("v", solver.IntSort), tab.Var("w", solver.IntSort)
	pc := []solver.Term{tab.Le(tab.Int(0), v), tab.Le(v, tab.Int(200))}
	or := newOracle(tab, noSolver{t})
	for _, tc := range []struct {
		c    solver.Term
		want bool
	}{
		{tab.Lt(tab.Int(150), v), true},
		{tab.Le(tab.Int(201), v), false},
		{tab.Eq(v, tab.Int(200)), true},
		{tab.Eq(v, tab.Int(-1)), false},
	} {
		if got := or.sat(pc, tc.c); got != tc.want {
			t.Errorf("sat(%v, %s) = %v, want %v", pc, tab.String(tc.c), got, tc.want)
		}
	}
	// v's conjuncts are bounds still when pc has another, about w alone.
	pc = append(pc[:2], tab.Lt(w, tab.Int(5)))
	if !or.sat(pc, tab.Le(tab.Int(100), v)) {
		t.Errorf("100 <= v infeasible with %v", pc)
	}
}
