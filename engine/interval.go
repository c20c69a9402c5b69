package engine

import (
	"math"
	"slices"

	"github.com/setbot/setbot/model/lang/arith"
	"github.com/setbot/setbot/solver"
)

// interval is the range a conjunction of bounds allows one integer
// variable.
type interval struct{ lo, hi int64 }

// bound recognises lo <= v, v <= hi, lo < v, v < hi and v == c over an
// integer variable v, as the interval it allows.
func bound(tab *solver.Table, x solver.Term) (solver.Term, interval, bool) {
	all := interval{math.MinInt64, math.MaxInt64}
	op := tab.Op(x)
	if op != solver.OpLe && op != solver.OpLt && op != solver.OpEq {
		return 0, all, false
	}
	a, b, _ := tab.Args(x)
	ca, aConst := tab.IntValue(a)
	cb, bConst := tab.IntValue(b)
	isVar := func(t solver.Term) bool { return tab.Op(t) == solver.OpVar && tab.Sort(t) == solver.IntSort }
	switch {
	case isVar(a) && bConst: // v op c
		switch op {
		case solver.OpLe:
			return a, interval{math.MinInt64, cb}, true
		case solver.OpLt:
			if cb == math.MinInt64 {
				return 0, all, false
			}
			return a, interval{math.MinInt64, cb - 1}, true
		default:
			return a, interval{cb, cb}, true
		}
	case isVar(b) && aConst: // c op v
		switch op {
		case solver.OpLe:
			return b, interval{ca, math.MaxInt64}, true
		case solver.OpLt:
			if ca == math.MaxInt64 {
				return 0, all, false
			}
			return b, interval{ca + 1, math.MaxInt64}, true
		default:
			return b, interval{ca, ca}, true
		}
	}
	return 0, all, false
}

// boxSatisfiable decides a ∧ x when the conjuncts of a are nothing but
// bounds, so that a's models are exactly the box of their intervals, and x
// is a bound too, or a comparison (<, <=) of integer terms built with +,
// -, negation, and multiplication and division by constants, in which each
// variable occurs once and has a bounded interval in the box. Such a term
// is monotone in each of its variables, which it shares with no other
// part of the comparison, so interval arithmetic gives its least and
// greatest values exactly (both are taken in the box, and by the sides at
// once): x is satisfiable in the box exactly when the left side's least
// value is below (or at) the right side's greatest. decided is false when
// the conjunction is not of that shape.
func boxSatisfiable(tab *solver.Table, a []solver.Term, x solver.Term) (sat, decided bool) {
	for _, c := range a {
		if _, _, ok := bound(tab, c); !ok {
			return false, false
		}
	}
	if _, _, ok := bound(tab, x); ok {
		for _, b := range bounds(tab, append(a[:len(a):len(a)], x)) {
			if b.iv.lo > b.iv.hi {
				return false, true
			}
		}
		return true, true
	}
	box := bounds(tab, a)
	for _, b := range box {
		if b.iv.lo > b.iv.hi {
			return false, true
		}
	}
	op := tab.Op(x)
	if op != solver.OpLe && op != solver.OpLt {
		return false, false
	}
	l, r, _ := tab.Args(x)
	r0 := rangeIn{tab: tab, box: box}
	left, okl := r0.of(l)
	right, okr := r0.of(r)
	if !okl || !okr {
		return false, false
	}
	if op == solver.OpLe {
		return left.lo <= right.hi, true
	}
	return left.lo < right.hi, true
}

// rangeIn computes the least and greatest values of integer terms over a
// box, for terms of the shape boxSatisfiable decides; seen holds the
// variables met so far, each allowed once.
type rangeIn struct {
	tab  *solver.Table
	box  []varBound
	seen []solver.Term
}

func (r *rangeIn) of(x solver.Term) (interval, bool) {
	tab := r.tab
	if tab.Sort(x) != solver.IntSort {
		return interval{}, false
	}
	if c, ok := tab.IntValue(x); ok {
		return interval{c, c}, true
	}
	a, b, _ := tab.Args(x)
	switch tab.Op(x) {
	case solver.OpVar:
		if slices.Contains(r.seen, x) {
			return interval{}, false
		}
		r.seen = append(r.seen, x)
		for _, vb := range r.box {
			if vb.v == x && vb.iv.lo != math.MinInt64 && vb.iv.hi != math.MaxInt64 {
				return vb.iv, true
			}
		}
		return interval{}, false
	case solver.OpNeg:
		ia, ok := r.of(a)
		if !ok {
			return interval{}, false
		}
		lo, ok1 := arith.Neg(ia.hi)
		hi, ok2 := arith.Neg(ia.lo)
		return interval{lo, hi}, ok1 && ok2
	case solver.OpAdd, solver.OpSub:
		ia, oka := r.of(a)
		ib, okb := r.of(b)
		if !oka || !okb {
			return interval{}, false
		}
		if tab.Op(x) == solver.OpAdd {
			lo, ok1 := arith.Add(ia.lo, ib.lo)
			hi, ok2 := arith.Add(ia.hi, ib.hi)
			return interval{lo, hi}, ok1 && ok2
		}
		lo, ok1 := arith.Sub(ia.lo, ib.hi)
		hi, ok2 := arith.Sub(ia.hi, ib.lo)
		return interval{lo, hi}, ok1 && ok2
	case solver.OpMul, solver.OpDiv:
		return r.scaled(tab.Op(x), a, b)
	}
	return interval{}, false
}

// scaled is the range of a * b, where one of them is a constant, or of
// a / b for a non-zero constant b: monotone in the other, increasing or
// decreasing with the constant's sign.
func (r *rangeIn) scaled(op solver.Op, a, b solver.Term) (interval, bool) {
	k, ok := r.tab.IntValue(b)
	if !ok && op == solver.OpMul {
		a, b = b, a
		k, ok = r.tab.IntValue(b)
	}
	if !ok || op == solver.OpDiv && k == 0 {
		return interval{}, false
	}
	ia, ok := r.of(a)
	if !ok {
		return interval{}, false
	}
	f := arith.Mul
	if op == solver.OpDiv {
		f = arith.Quo // truncates toward zero, as Table.Div
	}
	lo, ok1 := f(ia.lo, k)
	hi, ok2 := f(ia.hi, k)
	if k < 0 {
		lo, hi = hi, lo
	}
	return interval{lo, hi}, ok1 && ok2
}

// byIntervals decides a ⇒ x when interval reasoning can: implied is true
// when the bounds among a entail x; refuted is true when a is nothing but
// bounds (so its models are exactly their box) and x, a bound, is not
// entailed. a is satisfiable.
func byIntervals(tab *solver.Table, a []solver.Term, x solver.Term) (implied, refuted bool) {
	v, want, ok := bound(tab, x)
	if !ok {
		return false, false
	}
	have := interval{math.MinInt64, math.MaxInt64}
	pure := true
	for _, c := range a {
		w, iv, ok := bound(tab, c)
		if !ok {
			pure = false
			continue
		}
		if w == v {
			have.lo = max(have.lo, iv.lo)
			have.hi = min(have.hi, iv.hi)
		}
	}
	if want.lo <= have.lo && have.hi <= want.hi {
		return true, false
	}
	return false, pure
}
