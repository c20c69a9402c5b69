package lang

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/model/source"
)

// Decimals are exact rationals. ECMAScript computes with doubles, so the
// two agree where every value is a double and every operation's exact
// result is one too. A literal's value is the double ECMAScript reads, so
// comparisons agree whatever is written (0.1 == 0.10000000000000001); the
// checker refuses arithmetic where a literal's written value is not a
// double (see CheckDecimals and the checker's division rule), since there
// the exact sum is not ECMAScript's, and it assumes that results stay
// within the 53 bits of a double's significand, as values of statecharts
// (speeds, temperatures, halves and quarters) do.

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

// DecimalText returns the text of a decimal literal: as written, or from
// its value.
func DecimalText(x *DecLit) string {
	if x.Text != "" {
		return x.Text
	}
	s, _ := ecma.FormatDecimal(x.Value)
	return s
}

// CheckDecimals applies the rule under which setbot's exact decimals agree
// with ECMAScript's doubles to a whole model, given the checker's results
// for every snippet of it: a model that has a decimal literal no double
// holds (0.1) may assign and compare decimals, but not compute with them,
// since ECMAScript rounds the literal and setbot does not. Each arithmetic
// operation on decimals is reported, naming the first such literal.
func CheckDecimals(fset *source.FileSet, infos []*Info) source.ErrorList {
	var inexact *DecLit
	for _, info := range infos {
		if info != nil && len(info.Inexact) > 0 && inexact == nil {
			inexact = info.Inexact[0]
		}
	}
	if inexact == nil {
		return nil
	}
	var errs source.ErrorList
	at := fset.Position(inexact.ValuePos)
	seen := make(map[source.Pos]bool) // a <data> value computed at start is checked twice
	for _, info := range infos {
		if info == nil {
			continue
		}
		for _, pos := range info.DecimalArith {
			if seen[pos] {
				continue
			}
			seen[pos] = true
			errs.Add(fset.Position(pos), "arithmetic on decimals in a model with the literal %s (at %d:%d), which ECMAScript rounds in binary while setbot computes exactly "+
				"(0.1 + 0.2 == 0.3 is false in ECMAScript): use halves, quarters, ... (0.5, 0.25) or scale to an int (count tenths)",
				DecimalText(inexact), at.Line, at.Column)
		}
	}
	return errs
}
