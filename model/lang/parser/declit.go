package parser

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// ParseDecimal returns the value of a DECIMAL literal (1.5, .5, 2e3,
// 2.5E-1) as ECMAScript reads it: the exact value of the double nearest
// the written one, ties to even (0.1 is 3602879701896397/36028797018963968,
// 1e-400 is 0). A literal beyond the largest double, which ECMAScript
// reads as Infinity, is an error.
func ParseDecimal(lit string) (*big.Rat, error) {
	v, _, err := parseDecimal(lit)
	return v, err
}

// parseDecimal is ParseDecimal, and reports whether the written value is
// exactly the double (0.5, 2.25, 1e3), so that the literal means in setbot
// what it says.
func parseDecimal(lit string) (v *big.Rat, exact bool, err error) {
	digits, exp, ok := splitDecimal(lit)
	if !ok {
		return nil, false, fmt.Errorf("malformed decimal literal %s", lit)
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) {
		return nil, false, fmt.Errorf("decimal literal %s is outside the range of ECMAScript's numbers", lit)
	}
	v = new(big.Rat).SetFloat64(f)
	return v, writtenValueIs(digits, exp, v), nil
}

// splitDecimal reads a literal written digits[.digits][e[+-]digits] (the
// integer part or the fraction may be empty, not both) as the integer of
// its digits and the power of ten that scales it: 2.5e-1 is 25 and -2.
// strconv.ParseFloat alone would also take 0x1p-2, inf and 1_0.5.
func splitDecimal(lit string) (digits string, exp int, ok bool) {
	mant, e, hasExp := strings.Cut(strings.ToLower(lit), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	isDigits := func(s string) bool {
		return strings.Trim(s, "0123456789") == ""
	}
	if whole+frac == "" || !isDigits(whole) || !isDigits(frac) {
		return "", 0, false
	}
	if hasExp {
		n := strings.TrimLeft(e, "+-")
		if n == "" || len(e)-len(n) > 1 || !isDigits(n) {
			return "", 0, false
		}
		x, err := strconv.Atoi(e)
		if err != nil {
			// Beyond any int: a nonzero value is 0 or Infinity to a double.
			x = math.MaxInt32
			if e[0] == '-' {
				x = math.MinInt32
			}
		}
		exp = x
	}
	return whole + frac, exp - len(frac), true
}

// maxDoubleDigits bounds the power of ten of a double's exact decimal
// expansion: a nonzero double is at least 2^-1074 (its expansion ends
// within 1074 digits after the point) and below 2^1024 (309 digits).
const maxDoubleDigits = 1100

// writtenValueIs reports whether digits * 10^exp is exactly v.
func writtenValueIs(digits string, exp int, v *big.Rat) bool {
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return v.Sign() == 0
	}
	if exp+len(digits) < -maxDoubleDigits || exp > maxDoubleDigits {
		// Below the least double, or beyond the largest: never exact, and
		// not worth the big numbers.
		return false
	}
	n, _ := new(big.Int).SetString(digits, 10)
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil)
	w := new(big.Rat).SetInt(n)
	if exp < 0 {
		w.Quo(w, new(big.Rat).SetInt(scale))
	} else {
		w.Mul(w, new(big.Rat).SetInt(scale))
	}
	return w.Cmp(v) == 0
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
