package z3

import (
	"testing"

	"github.com/setbot/setbot/solver"
)

// TestConversions checks the terms of parseInt of a string in Z3 against
// Eval on pinned strings (the simulator's semantics).
func TestConversions(t *testing.T) {
	tab := solver.NewTable()
	s := newSolver(t, tab)
	x := tab.Var("x", solver.StringSort)
	pv, pok := tab.ParseInt(x)
	for _, str := range []string{"", "  -12abc", "+7", "abc", "1.50", "-0.5", "007", "123456789012345", "1234567890123456", " 2.25 ", "\u3000\u00a05"} {
		val := valuation{x: {Sort: solver.StringSort, Str: str}}
		for _, term := range []solver.Term{pv, pok} {
			if !agree(t, s, term, val) {
				t.Fatalf("%q: Eval cannot say", str)
			}
		}
	}
}
