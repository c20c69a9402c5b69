package engine

import (
	"math"

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

// boxSatisfiable decides a conjunction of bounds, those of a and x: it
// is satisfiable exactly when no variable's interval is empty. decided is
// false when a conjunct is no bound.
func boxSatisfiable(tab *solver.Table, a []solver.Term, x solver.Term) (sat, decided bool) {
	if _, _, ok := bound(tab, x); !ok {
		return false, false
	}
	for _, c := range a {
		if _, _, ok := bound(tab, c); !ok {
			return false, false
		}
	}
	for _, b := range bounds(tab, append(a[:len(a):len(a)], x)) {
		if b.iv.lo > b.iv.hi {
			return false, true
		}
	}
	return true, true
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

// BoundsContradict reports whether the bounds among the conjuncts of c (a
// conjunction; nested ands are flattened) leave some integer variable no
// value: c is then unsatisfiable, which the analyses of a tree learn
// without the solver. False says nothing.
func BoundsContradict(tab *solver.Table, c solver.Term) bool {
	box := make(map[solver.Term]interval)
	var walk func(x solver.Term) bool
	walk = func(x solver.Term) bool {
		if tab.Op(x) == solver.OpAnd {
			a, b, _ := tab.Args(x)
			return walk(a) || walk(b)
		}
		v, iv, ok := bound(tab, x)
		if !ok {
			return false
		}
		have, seen := box[v]
		if !seen {
			have = interval{math.MinInt64, math.MaxInt64}
		}
		have.lo, have.hi = max(have.lo, iv.lo), min(have.hi, iv.hi)
		box[v] = have
		return have.lo > have.hi
	}
	return walk(c)
}
