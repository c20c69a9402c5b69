package z3

import (
	"testing"

	"github.com/setbot/setbot/solver"
)

// TestContextReused checks that a closed solver's context serves the next
// solver, of another table naming another variable of another sort alike,
// and that nothing of the first (its checks, its terms) is seen by the
// second.
func TestContextReused(t *testing.T) {
	tab := solver.NewTable()
	x := tab.Var("x", solver.IntSort)
	first, err := New(tab)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := first.Check([]solver.Term{tab.Lt(x, tab.Int(0)), tab.Gt(x, tab.Int(-3))}); r != solver.Sat || err != nil {
		t.Fatalf("Check = %v, %v", r, err)
	}
	ctx := first.ctx
	first.Close()

	other := solver.NewTable()
	b := other.Var("x", solver.BoolSort)
	y := other.Var("y", solver.IntSort)
	second := newSolver(t, other)
	if second.ctx != ctx {
		t.Error("the closed solver's context was not reused")
	}
	for _, tc := range []struct {
		conj []solver.Term
		want solver.Result
	}{
		{[]solver.Term{b, other.Not(b)}, solver.Unsat},
		{[]solver.Term{b, other.Gt(y, other.Int(4))}, solver.Sat},
		{[]solver.Term{other.Gt(y, other.Int(4)), other.Lt(y, other.Int(5))}, solver.Unsat},
	} {
		if r, err := second.Check(tc.conj); r != tc.want || err != nil {
			t.Errorf("Check(%v) = %v, %v, want %v", tc.conj, r, err, tc.want)
		}
	}
	r, m, err := second.Model([]solver.Term{b, other.Eq(y, other.Int(7))}, []solver.Term{b, y})
	if r != solver.Sat || err != nil || m[y].Int != 7 || !m[b].Bool {
		t.Errorf("Model = %v, %v, %v", r, m, err)
	}
}
