// Package arith is the integer arithmetic of the action language, said
// once for the simplifier, the solver's folding and evaluation, and the
// simulator. Integers are mathematical; these functions compute on int64
// and report, with ok false, a result that does not fit. Division truncates
// toward zero and the remainder takes the dividend's sign, as in C (and as
// ECMAScript's Math.trunc(a / b) and % do on integers). Division by zero is
// defined, x / 0 = 0 and x % 0 = x, so that every expression has a value.
package arith

import "math"

// Add is a + b.
func Add(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0) || b == 0
}

// Sub is a - b.
func Sub(a, b int64) (int64, bool) {
	d := a - b
	return d, (d < a) == (b > 0) || b == 0
}

// Mul is a * b.
func Mul(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return p, true
}

// Quo is a / b, truncated toward zero; a / 0 is 0.
func Quo(a, b int64) (int64, bool) {
	switch {
	case b == 0:
		return 0, true
	case a == math.MinInt64 && b == -1:
		return 0, false
	}
	return a / b, true
}

// Rem is a % b, with the sign of a; a % 0 is a.
func Rem(a, b int64) (int64, bool) {
	switch {
	case b == 0:
		return a, true
	case b == -1:
		return 0, true
	}
	return a % b, true
}

// Neg is -a.
func Neg(a int64) (int64, bool) { return -a, a != math.MinInt64 }
