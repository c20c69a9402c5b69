package z3

import (
	"testing"

	"github.com/setbot/setbot/solver"
)

// TestStaleInterrupt: an interrupt that lands after the check it was meant
// for returned (the timer fires as the check ends) is cleared, so that the
// next checks decide: Z3 keeps it otherwise, and failed every later push
// with "canceled".
func TestStaleInterrupt(t *testing.T) {
	tab := solver.NewTable()
	x := tab.Var("x", solver.IntSort)
	s := newSolver(t, tab)
	easy := []solver.Term{tab.Gt(x, tab.Int(3)), tab.Lt(x, tab.Int(5))}
	if r, err := s.Check(easy); r != solver.Sat || err != nil {
		t.Fatal(r, err)
	}
	s.ctx.interrupt() // as the timer's goroutine does, late
	if err := s.clearInterrupt(); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if r, err := s.Check(append(easy, tab.Gt(x, tab.Int(int64(i))))); r != solver.Sat || err != nil {
			t.Fatalf("check %d after a late interrupt: %v, %v", i, r, err)
		}
	}
}
