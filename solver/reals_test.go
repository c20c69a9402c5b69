package solver

import (
	"math/big"
	"testing"
)

func TestRealFolding(t *testing.T) {
	tb := NewTable()
	d := tb.Var("d", RealSort)
	i := tb.Var("i", IntSort)
	half, three := tb.Rat(big.NewRat(1, 2)), tb.Rat(big.NewRat(3, 1))
	tests := []struct {
		term Term
		want string
	}{
		{tb.Add(half, half), "1.0"},
		{tb.Mul(half, three), "1.5"},
		{tb.Div(three, tb.Rat(big.NewRat(4, 1))), "0.75"},
		{tb.Div(three, tb.Rat(new(big.Rat))), "0.0"},
		{tb.Div(tb.Rat(big.NewRat(1, 1)), three), "(Number(1) / 3)"},
		{tb.Neg(half), "-0.5"},
		{tb.Add(d, tb.Rat(new(big.Rat))), "d"},
		{tb.Mul(d, tb.Rat(big.NewRat(1, 1))), "d"},
		{tb.Mul(d, tb.Rat(new(big.Rat))), "0.0"},
		{tb.Sub(d, d), "0.0"},
		{tb.Neg(tb.Neg(d)), "d"},
		{tb.ToReal(tb.Int(3)), "3.0"},
		{tb.Add(d, tb.ToReal(i)), "d + Number(i)"},
		{tb.Lt(half, three), "true"},
		{tb.Eq(tb.Rat(big.NewRat(2, 4)), half), "true"},
		{tb.Le(d, tb.Neg(half)), "d <= (-0.5)"},
		{tb.IsInt(tb.Mul(d, tb.Rat(big.NewRat(1024, 1)))), "Number.isInteger(d * 1024.0)"},
		{tb.IsInt(three), "true"},
		{tb.IsInt(half), "false"},
		{tb.IsInt(tb.ToReal(i)), "true"},
	}
	for _, tt := range tests {
		if got := tb.String(tt.term); got != tt.want {
			t.Errorf("got %s, want %s", got, tt.want)
		}
	}
	if tb.Rat(big.NewRat(2, 4)) != half {
		t.Errorf("equal rationals are two terms")
	}
}

func TestRealEval(t *testing.T) {
	tb := NewTable()
	d := tb.Var("d", RealSort)
	i := tb.Var("i", IntSort)
	val := func(x Term) (Value, bool) {
		if x == d {
			return Value{Sort: RealSort, Rat: big.NewRat(5, 4)}, true
		}
		return Value{Sort: IntSort, Int: 2}, true
	}
	// (d + i) * 0.5 - -d / 2 = 1.625 + 0.625 = 2.25
	e := tb.Sub(tb.Mul(tb.Add(d, tb.ToReal(i)), tb.Rat(big.NewRat(1, 2))), tb.Div(tb.Neg(d), tb.Rat(big.NewRat(2, 1))))
	v, ok := tb.Eval(e, val)
	if !ok || v.Sort != RealSort || v.Rat.Cmp(big.NewRat(9, 4)) != 0 {
		t.Errorf("Eval(%s) = %v, %v; want 9/4", tb.String(e), v.Rat, ok)
	}
	c, _ := tb.Eval(tb.Lt(d, tb.ToReal(i)), val)
	if !c.Bool {
		t.Errorf("Eval(d < Number(i)) = false")
	}
	var grids Term = tb.Bool(true)
	for scale, want := range map[int64]bool{2: false, 4: true} {
		grid := tb.IsInt(tb.Mul(d, tb.Rat(big.NewRat(scale, 1))))
		if c, ok := tb.Eval(grid, val); !ok || c.Bool != want {
			t.Errorf("Eval(%s) = %v, %v; want %v", tb.String(grid), c.Bool, ok, want)
		}
		grids = tb.And(grids, grid)
	}
	// Encoding round trip.
	enc := tb.AppendBinary(nil)
	got, _, err := ReadTable(enc)
	if err != nil || got.String(e) != tb.String(e) || got.String(grids) != tb.String(grids) {
		t.Errorf("round trip: %v, %s", err, got.String(e))
	}
}
