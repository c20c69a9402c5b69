package ecma

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Numbers: the action language's decimals are exact rationals, which agree
// with ECMAScript's doubles where every value is exactly a double (the
// checker's rule keeps models there).

// IsDouble reports whether r is exactly a double: then ECMAScript holds
// the value itself, not a rounding of it (0.5, 2.25 and 1e3 are; 0.1 is
// not).
func IsDouble(r *big.Rat) bool {
	_, exact := r.Float64()
	return exact
}

// IsPowerOfTwo reports whether |r| is 2^k for an integer k (..., 0.25,
// 0.5, 1, 2, 4, ...): dividing a double by one is exact.
func IsPowerOfTwo(r *big.Rat) bool {
	pow2 := func(n *big.Int) bool {
		a := new(big.Int).Abs(n)
		return a.Sign() > 0 && a.BitLen()-1 == int(a.TrailingZeroBits())
	}
	return pow2(r.Num()) && pow2(r.Denom())
}

// FormatDecimal writes r as a decimal literal that ECMAScript reads as r:
// 1.5, -0.25, 3.0 (a decimal always has a point or an exponent, so that it
// reads back as one). A double whose exact expansion is longer than the
// shortest text that reads back as it is written that way, as ECMAScript
// prints numbers: the double nearest 0.1 is 0.1, not
// 0.1000000000000000055511151231257827021181583404541015625. ok is false
// when r has no finite decimal expansion (1/3); the text is then an
// approximation ending in "...".
func FormatDecimal(r *big.Rat) (s string, ok bool) {
	n, finite := decimalDigits(r.Denom())
	if !finite {
		return r.FloatString(20) + "...", false
	}
	if short, ok := shortest(r); ok {
		return short, true
	}
	s = r.FloatString(n)
	if n == 0 {
		s += ".0"
	}
	return s, true
}

// shortest returns the shortest text that reads back as the double r, as
// ECMAScript's Number::toString writes it (an exponent below 1e-7 and from
// 1e21), when r is a double and that text's own value is not r (so the
// exact expansion is longer).
func shortest(r *big.Rat) (string, bool) {
	f, exact := r.Float64()
	if !exact {
		return "", false
	}
	format := byte('f')
	if a := math.Abs(f); a < 1e-7 || a >= 1e21 {
		format = 'e'
	}
	s := strconv.FormatFloat(f, format, -1, 64)
	if w, ok := new(big.Rat).SetString(s); ok && w.Cmp(r) == 0 {
		return "", false
	}
	if !strings.ContainsAny(s, ".e") {
		s += ".0" // 2^60 is 1152921504606847000.0, a decimal
	}
	return s, true
}

// decimalDigits returns the digits after the point that a fraction with
// denominator d needs, max(a, b) for d = 2^a 5^b, and whether d has that
// form.
func decimalDigits(d *big.Int) (int, bool) {
	x := new(big.Int).Set(d)
	count := func(p int64) int {
		n := 0
		bp, q, r := big.NewInt(p), new(big.Int), new(big.Int)
		for {
			q.QuoRem(x, bp, r)
			if r.Sign() != 0 {
				return n
			}
			x.Set(q)
			n++
		}
	}
	a := count(2)
	b := count(5)
	return max(a, b), x.IsInt64() && x.Int64() == 1
}

// Quo is a / b on decimals, exact, with a / 0 = 0 as for integers (the
// checker admits only divisors that are powers of two).
func Quo(a, b *big.Rat) *big.Rat {
	if b.Sign() == 0 {
		return new(big.Rat)
	}
	return new(big.Rat).Quo(a, b)
}
