package z3

import (
	"testing"

	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/solver"
)

// TestConversions checks the terms of parseInt of a string in Z3 against
// Eval on pinned strings (the simulator's semantics).
func TestConversions(t *testing.T) {
	tab := solver.NewTable()
	s := newSolver(t, tab)
	x := tab.Var("x", solver.StringSort)
	for _, radix10 := range []bool{false, true} {
		pv, pok := tab.ParseInt(x, radix10)
		for _, str := range []string{"", "  -12abc", "+7", "abc", "1.50", "-0.5", "007", "123456789012345", "1234567890123456", " 2.25 ", "\u3000\u00a05",
			"0x1A", "-0x10", " 0X1f", "0x", "0", "0y", "00x1"} {
			val := valuation{x: {Sort: solver.StringSort, Str: str}}
			for _, term := range []solver.Term{pv, pok} {
				if !agree(t, s, term, val) {
					t.Fatalf("%q (radix10 %v): Eval cannot say", str, radix10)
				}
			}
		}
	}
}

// TestParseIntHexPrefixAgainstECMA checks, in Z3, that parseInt of a
// string variable without a radix is not exact where the string has a
// hexadecimal prefix (ECMAScript reads it as base 16) and is with radix
// 10, as ecma.ParseInt says.
func TestParseIntHexPrefixAgainstECMA(t *testing.T) {
	tab := solver.NewTable()
	s := newSolver(t, tab)
	x := tab.Var("x", solver.StringSort)
	for _, str := range []string{"0x1A", "-0x10", " 0X1f", "0x", "0", "0y", "00x1"} {
		for _, radix10 := range []bool{false, true} {
			want, wantOK := ecma.ParseInt(str, radix10)
			pv, pok := tab.ParseInt(x, radix10)
			pin := tab.Eq(x, tab.Str(str))
			exact := tab.And(pin, pok)
			if wantOK {
				exact = tab.And(exact, tab.Eq(pv, tab.Int(want)))
			}
			r, err := s.Check([]solver.Term{exact})
			if err != nil {
				t.Fatal(err)
			}
			if got := r == solver.Sat; got != wantOK {
				t.Errorf("parseInt(%q) (radix10 %v): exact (at ecma's value) satisfiable %v, ecma exact %v", str, radix10, got, wantOK)
			}
		}
	}
}
