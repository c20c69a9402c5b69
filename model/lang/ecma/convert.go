package ecma

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Conversions between strings and numbers: parseInt, Number of a string,
// String of a number. ECMAScript's result may be NaN, which setbot does
// not model, and the symbolic executor computes it exactly only on a
// range of inputs (a case split on the number of white space characters,
// digits and fraction digits); ParseInt, ParseIntDecimal and Number report
// ok false outside that range, and every executor cuts the path there with
// the bound vocab.BoundNumber. NumberString, of a number, is always
// defined; the symbolic executor's exact range for it is ExactString's.

// The exact range.
const (
	MaxSpaces   = 4  // white space characters skipped before (and, for Number, after) the number
	MaxDigits   = 15 // digits of the number: every int of 15 digits is a double
	MaxFraction = 6  // digits after the point
)

// Spaces are the characters ECMAScript's StrWhiteSpaceChar admits
// (WhiteSpace and LineTerminator): the ones parseInt and Number skip.
const Spaces = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"

// Decimal are the decimal digits, in the order of their values.
const Decimal = "0123456789"

func isSpace(r rune) bool { return strings.ContainsRune(Spaces, r) }

func isDigit(r rune) bool { return '0' <= r && r <= '9' }

// ParseInt is parseInt(s), with radix 10 where radix10 is set and
// without a radix otherwise: white space skipped, an optional sign, and
// the longest run of decimal digits, whatever follows. ok is false where
// ECMAScript's value is NaN (no digit) or beyond the exact range (more
// than MaxSpaces white space characters or MaxDigits digits). Without a
// radix, ECMAScript reads "0x" or "0X" after the sign as a hexadecimal
// prefix (parseInt("0x1A") is 26), which is beyond the exact range too.
func ParseInt(s string, radix10 bool) (v int64, ok bool) {
	rs := []rune(s)
	i := 0
	for i < len(rs) && isSpace(rs[i]) {
		i++
	}
	if i > MaxSpaces {
		return 0, false
	}
	neg := false
	if i < len(rs) && (rs[i] == '+' || rs[i] == '-') {
		neg = rs[i] == '-'
		i++
	}
	if !radix10 && i+1 < len(rs) && rs[i] == '0' && (rs[i+1] == 'x' || rs[i+1] == 'X') {
		return 0, false
	}
	j := i
	for j < len(rs) && isDigit(rs[j]) {
		j++
	}
	if j == i || j-i > MaxDigits {
		return 0, false
	}
	v, _ = strconv.ParseInt(string(rs[i:j]), 10, 64)
	if neg {
		v = -v
	}
	return v, true
}

// ParseIntDecimal is parseInt(d) of a number that is not an int:
// ECMAScript formats it first, so that it is d truncated toward zero
// where the format has no exponent, for 10^-6 <= |d| < 10^21, and 0; ok
// is false elsewhere (parseInt(5e-7) is 5, which setbot does not model),
// and where the result is beyond setbot's 64-bit ints (|d| >= 2^63).
func ParseIntDecimal(d *big.Rat) (v *big.Int, ok bool) {
	if !intRange(d) {
		return nil, false
	}
	v = new(big.Int).Quo(d.Num(), d.Denom()) // Quo truncates toward zero
	limit := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 63))
	return v, new(big.Rat).Abs(d).Cmp(limit) < 0
}

// intRange reports whether parseInt of the number d is d truncated:
// whether d is 0 or 10^-6 <= |d| < 10^21.
func intRange(d *big.Rat) bool {
	a := new(big.Rat).Abs(d)
	return a.Sign() == 0 || a.Cmp(big.NewRat(1, 1000000)) >= 0 && a.Cmp(new(big.Rat).SetFrac(pow10(21), big.NewInt(1))) < 0
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// Number is Number(s) of a string: the string without white space at
// either end ("" is 0) must be a decimal numeral, [+-]digits[.digits] or
// [+-].digits. ok is false where ECMAScript's value is NaN, and where it
// is beyond the exact range: more than MaxSpaces white space characters at
// either end, more than MaxDigits digits or MaxFraction after the point,
// an exponent, a hexadecimal numeral, Infinity, or a value that is not a
// double (0.1 is not; 0.5, 2.25 and 1.125 are: setbot's decimals are the
// doubles, and Number("0.1") is the double nearest 0.1, which this range
// leaves out rather than compute it in the solver).
func Number(s string) (v *big.Rat, ok bool) {
	rs := []rune(s)
	i, j := 0, len(rs)
	for i < j && isSpace(rs[i]) {
		i++
	}
	if i > MaxSpaces {
		return nil, false
	}
	if i == j {
		return new(big.Rat), true
	}
	for j > i && isSpace(rs[j-1]) {
		j--
	}
	if len(rs)-j > MaxSpaces {
		return nil, false
	}
	body := rs[i:j]
	neg := false
	if body[0] == '+' || body[0] == '-' {
		neg = body[0] == '-'
		body = body[1:]
	}
	a := 0
	for a < len(body) && isDigit(body[a]) {
		a++
	}
	whole, frac := string(body[:a]), ""
	if rest := body[a:]; len(rest) > 0 {
		if rest[0] != '.' {
			return nil, false
		}
		b := 1
		for b < len(rest) && isDigit(rest[b]) {
			b++
		}
		if b < len(rest) {
			return nil, false
		}
		frac = string(rest[1:])
	}
	if whole+frac == "" || len(whole)+len(frac) > MaxDigits || len(frac) > MaxFraction {
		return nil, false
	}
	n, _ := new(big.Int).SetString(whole+frac, 10)
	v = new(big.Rat).SetFrac(n, pow10(len(frac)))
	if !new(big.Rat).Mul(v, big.NewRat(1<<MaxFraction, 1)).IsInt() {
		return nil, false // not a double
	}
	if neg {
		v.Neg(v)
	}
	return v, true
}

// NumberString is ECMAScript's Number::toString of the double nearest d
// (d itself where it is one): the shortest digits that read back as it,
// without an exponent from 10^-6 to 10^21 ("3", "-0.5", "0.1",
// "100000000000000000000"), with one outside ("1e+21", "5e-7").
func NumberString(d *big.Rat) string {
	f, _ := d.Float64()
	switch {
	case f == 0:
		return "0"
	case math.IsInf(f, 0):
		if f < 0 {
			return "-Infinity"
		}
		return "Infinity"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// The shortest digits and the exponent n of ECMAScript's algorithm:
	// f = 0.digits * 10^n.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	n, k := x+1, len(digits)
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	es := "+"
	if n-1 < 0 {
		es = "-"
	}
	m := digits[:1]
	if k > 1 {
		m += "." + digits[1:]
	}
	return sign + m + "e" + es + strconv.Itoa(abs(n-1))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
