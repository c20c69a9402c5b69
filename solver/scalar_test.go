package solver

import (
	"math"
	"math/rand"
	"testing"
)

// TestEvalScalarAgreesWithEval: on random int and bool terms, with values
// at the edges of int64 too, EvalScalar computes what Eval computes, and
// says not ok exactly where Eval does.
func TestEvalScalarAgreesWithEval(t *testing.T) {
	tab := NewTable()
	rnd := rand.New(rand.NewSource(7))
	ints := []Term{tab.Var("x", IntSort), tab.Var("y", IntSort), tab.Var("z", IntSort)}
	bools := []Term{tab.Var("p", BoolSort), tab.Var("q", BoolSort)}
	pool := []int64{0, 1, -1, 2, 7, -9, 31, 32, 1 << 31, math.MaxInt64, math.MinInt64}
	var intTerm, boolTerm func(d int) Term
	intTerm = func(d int) Term {
		if d <= 0 || rnd.Intn(4) == 0 {
			if rnd.Intn(2) == 0 {
				return tab.Int(pool[rnd.Intn(len(pool))])
			}
			return ints[rnd.Intn(len(ints))]
		}
		a, b := intTerm(d-1), intTerm(d-1)
		ops := []func() Term{
			func() Term { return tab.Add(a, b) }, func() Term { return tab.Sub(a, b) },
			func() Term { return tab.Mul(a, b) }, func() Term { return tab.Div(a, b) },
			func() Term { return tab.Rem(a, b) }, func() Term { return tab.Neg(a) },
			func() Term { return tab.BitAnd(a, b) }, func() Term { return tab.BitOr(a, b) },
			func() Term { return tab.BitXor(a, b) }, func() Term { return tab.BitNot(a) },
			func() Term { return tab.Shl(a, b) }, func() Term { return tab.Shr(a, b) },
			func() Term { return tab.UShr(a, b) }, func() Term { return tab.Ite(boolTerm(d-1), a, b) },
		}
		return ops[rnd.Intn(len(ops))]()
	}
	boolTerm = func(d int) Term {
		if d <= 0 || rnd.Intn(4) == 0 {
			if rnd.Intn(3) == 0 {
				return tab.Bool(rnd.Intn(2) == 0)
			}
			return bools[rnd.Intn(len(bools))]
		}
		ops := []func() Term{
			func() Term { return tab.Eq(intTerm(d-1), intTerm(d-1)) }, func() Term { return tab.Lt(intTerm(d-1), intTerm(d-1)) },
			func() Term { return tab.Le(intTerm(d-1), intTerm(d-1)) }, func() Term { return tab.Not(boolTerm(d - 1)) },
			func() Term { return tab.And(boolTerm(d-1), boolTerm(d-1)) }, func() Term { return tab.Or(boolTerm(d-1), boolTerm(d-1)) },
			func() Term { return tab.Eq(boolTerm(d-1), boolTerm(d-1)) },
		}
		return ops[rnd.Intn(len(ops))]()
	}
	for n := 0; n < 5000; n++ {
		term := intTerm(4)
		if n%2 == 1 {
			term = boolTerm(4)
		}
		if !tab.IsScalar(term) {
			t.Fatalf("%s is not scalar", tab.String(term))
		}
		vals := map[Term]Value{}
		scalars := map[Term]int64{}
		for _, v := range ints {
			k := pool[rnd.Intn(len(pool))]
			vals[v], scalars[v] = Value{Sort: IntSort, Int: k}, k
		}
		for _, v := range bools {
			b := rnd.Intn(2) == 0
			vals[v], scalars[v] = Value{Sort: BoolSort, Bool: b}, b2i(b)
		}
		want, wok := tab.Eval(term, func(v Term) (Value, bool) { return vals[v], true })
		got, gok := tab.EvalScalar(term, func(v Term) (int64, bool) { return scalars[v], true })
		if wok != gok || wok && (tab.Sort(term) == IntSort && got != want.Int || tab.Sort(term) == BoolSort && got != b2i(want.Bool)) {
			t.Fatalf("%s under %v: EvalScalar gives %d, %v; Eval %+v, %v", tab.String(term), vals, got, gok, want, wok)
		}
	}
	if tab.IsScalar(tab.Str("a")) || tab.IsScalar(tab.Eq(tab.Var("s", StringSort), tab.Str("a"))) {
		t.Error("a string term counts as scalar")
	}
}
