package z3

import (
	"math/big"
	"math/rand"
	"testing"

	"github.com/setbot/setbot/solver"
)

// TestReals checks real terms against the Table's own evaluation: random
// terms over two real variables and an int one, pinned to random quarters
// and small ints, with the result read back from Z3's model as a rational.
// Division by a variable covers the convention x / 0 = 0.
func TestReals(t *testing.T) {
	tab := solver.NewTable()
	s := newSolver(t, tab)
	rnd := rand.New(rand.NewSource(7))
	d1, d2 := tab.Var("d1", solver.RealSort), tab.Var("d2", solver.RealSort)
	i := tab.Var("i", solver.IntSort)
	v, vb := tab.Var("v", solver.RealSort), tab.Var("vb", solver.BoolSort)
	quarter := func() *big.Rat { return big.NewRat(int64(rnd.Intn(41)-20), 4) }
	var real func(depth int) solver.Term
	real = func(depth int) solver.Term {
		if depth == 0 {
			switch rnd.Intn(4) {
			case 0:
				return d1
			case 1:
				return d2
			case 2:
				return tab.ToReal(i)
			}
			return tab.Rat(quarter())
		}
		a, b := real(depth-1), real(depth-1)
		switch rnd.Intn(7) {
		case 0:
			return tab.Neg(a)
		case 1:
			return tab.Add(a, b)
		case 2:
			return tab.Sub(a, b)
		case 3:
			return tab.Mul(a, b)
		case 4:
			return tab.Div(a, b)
		case 5:
			return tab.Div(a, tab.Rat(big.NewRat(1, int64(1)<<rnd.Intn(4))))
		}
		return tab.Ite(tab.Lt(a, b), a, b)
	}
	for n := 0; n < 300; n++ {
		val := map[solver.Term]solver.Value{
			d1: {Sort: solver.RealSort, Rat: quarter()},
			d2: {Sort: solver.RealSort, Rat: quarter()},
			i:  {Sort: solver.IntSort, Int: int64(rnd.Intn(11) - 5)},
		}
		conj := []solver.Term{tab.Eq(d1, tab.Rat(val[d1].Rat)), tab.Eq(d2, tab.Rat(val[d2].Rat)), tab.Eq(i, tab.Int(val[i].Int))}
		term := real(1 + n%3)
		cmp := []func(a, b solver.Term) solver.Term{tab.Eq, tab.Lt, tab.Le}[n%3](term, real(1))
		conj = append(conj, tab.Eq(v, term), tab.Eq(vb, cmp))
		r, m, err := s.Model(conj, []solver.Term{v, vb})
		if err != nil || r != solver.Sat {
			t.Fatalf("%s: Model = %v, %v", tab.String(term), r, err)
		}
		lookup := func(x solver.Term) (solver.Value, bool) { w, ok := val[x]; return w, ok }
		want, ok := tab.Eval(term, lookup)
		if !ok || m[v].Rat.Cmp(want.Rat) != 0 {
			t.Fatalf("%s under d1=%s d2=%s i=%d: z3 %s, Eval %v", tab.String(term), val[d1].Rat, val[d2].Rat, val[i].Int, m[v].Rat, want.Rat)
		}
		wantB, _ := tab.Eval(cmp, lookup)
		if m[vb].Bool != wantB.Bool {
			t.Fatalf("%s: z3 %v, Eval %v", tab.String(cmp), m[vb].Bool, wantB.Bool)
		}
	}
}

// TestRealModel reads a real variable's value from a model that bounds it.
func TestRealModel(t *testing.T) {
	tab := solver.NewTable()
	s := newSolver(t, tab)
	x := tab.Var("x", solver.RealSort)
	conj := []solver.Term{tab.Lt(tab.Rat(big.NewRat(41, 2)), x), tab.Lt(x, tab.Rat(big.NewRat(21, 1)))}
	r, m, err := s.Model(conj, []solver.Term{x})
	if err != nil || r != solver.Sat {
		t.Fatalf("Model = %v, %v", r, err)
	}
	if v := m[x].Rat; v.Cmp(big.NewRat(41, 2)) <= 0 || v.Cmp(big.NewRat(21, 1)) >= 0 {
		t.Errorf("x = %s, want 20.5 < x < 21", v)
	}
	if r, err := s.Check(append(conj, tab.Eq(tab.Mul(x, tab.Rat(big.NewRat(2, 1))), tab.ToReal(tab.Var("i", solver.IntSort))))); err != nil || r != solver.Unsat {
		t.Errorf("2x integral with 20.5 < x < 21: %v, %v, want unsat", r, err)
	}
}

// TestIsInt checks Number.isInteger on reals: a real on the grid of
// quarters between 20.3 and 20.6 is 20.5, and none lies between 20.55 and
// 20.7 (the grid bounds the decimal inputs, engine.InputDomain).
func TestIsInt(t *testing.T) {
	tab := solver.NewTable()
	s := newSolver(t, tab)
	x := tab.Var("x", solver.RealSort)
	onGrid := tab.IsInt(tab.Mul(x, tab.Rat(big.NewRat(4, 1))))
	between := func(lo, hi *big.Rat) []solver.Term {
		return []solver.Term{onGrid, tab.Lt(tab.Rat(lo), x), tab.Lt(x, tab.Rat(hi))}
	}
	r, m, err := s.Model(between(big.NewRat(203, 10), big.NewRat(206, 10)), []solver.Term{x})
	if err != nil || r != solver.Sat || m[x].Rat.Cmp(big.NewRat(41, 2)) != 0 {
		t.Fatalf("Model = %v, %v, %v; want x = 20.5", r, m[x].Rat, err)
	}
	if r, err := s.Check(between(big.NewRat(2055, 100), big.NewRat(207, 10))); err != nil || r != solver.Unsat {
		t.Errorf("a quarter between 20.55 and 20.7: %v, %v, want unsat", r, err)
	}
}
