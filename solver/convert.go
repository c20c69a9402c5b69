package solver

import (
	"math/big"

	"github.com/setbot/setbot/model/lang/ecma"
)

// Conversions between strings and numbers (parseInt, Number of a string,
// String of a decimal), written with the string, int and real operators as
// a case split on the number of white space characters, digits and
// fraction digits: package ecma's exact range. Each returns the value and
// the condition under which it is ECMAScript's: where the condition is
// false ECMAScript's value is NaN or beyond the range, the value is
// meaningless, and the executors cut the path (vocab.BoundNumber). On
// constants they fold to package ecma's results.

// ParseInt returns parseInt(x) of the string x, with radix 10 where
// radix10 is set and without a radix otherwise (ecma.ParseInt): without
// one, a "0x" or "0X" after the white space and sign is not exact.
func (t *Table) ParseInt(x Term, radix10 bool) (v, ok Term) {
	if s, isConst := t.StringValue(x); isConst {
		n, good := ecma.ParseInt(s, radix10)
		return t.Int(n), t.Bool(good)
	}
	// A case split on where the digits start, after w white space
	// characters and a sign, so that every character is read at a
	// constant index (which the solver's string theory handles far better
	// than a computed one).
	at := func(i int) Term { return t.CharAt(x, t.Int(int64(i))) }
	v, ok = t.Int(0), t.Bool(false)
	for w := ecma.MaxSpaces; w >= 0; w-- {
		lead := t.Not(t.isSpace(at(w)))
		for i := 0; i < w; i++ {
			lead = t.And(t.isSpace(at(i)), lead)
		}
		c := at(w)
		neg, plus := t.Eq(c, t.Str("-")), t.Eq(c, t.Str("+"))
		n0, v0 := t.digitsAt(x, w, ecma.MaxDigits)
		n1, v1 := t.digitsAt(x, w+1, ecma.MaxDigits)
		// exact is whether the n digits from index p are in the range
		// (and, without a radix, do not start a hexadecimal prefix).
		exact := func(n Term, p int) Term {
			e := t.And(t.Lt(t.Int(0), n), t.Le(n, t.Int(ecma.MaxDigits)))
			if radix10 {
				return e
			}
			hex := t.And(t.Eq(at(p), t.Str("0")), t.Or(t.Eq(at(p+1), t.Str("x")), t.Eq(at(p+1), t.Str("X"))))
			return t.And(e, t.Not(hex))
		}
		v = t.Ite(lead, t.Ite(neg, t.Neg(v1), t.Ite(plus, v1, v0)), v)
		ok = t.Ite(lead, t.Ite(t.Or(neg, plus), exact(n1, w+1), exact(n0, w)), ok)
	}
	return v, ok
}

// ParseIntReal returns parseInt(x) of the real x: x truncated toward zero,
// exact for 0 and 10^-6 <= |x| < 2^63 (ecma.ParseIntDecimal).
func (t *Table) ParseIntReal(x Term) (v, ok Term) {
	if r, isConst := t.RatValue(x); isConst {
		n, good := ecma.ParseIntDecimal(r)
		if !good {
			return t.Int(0), t.Bool(false)
		}
		if n.IsInt64() {
			return t.Int(n.Int64()), t.Bool(true)
		}
	}
	zero := t.Rat(new(big.Rat))
	neg := t.Lt(x, zero)
	a := t.Ite(neg, t.Neg(x), x)
	whole := t.Floor(a)
	// Below 10^21 ECMAScript formats without an exponent; below 2^63 the
	// result is one of setbot's ints.
	limit := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 63))
	ok = t.Or(t.Eq(x, zero), t.And(t.Le(t.Rat(big.NewRat(1, 1000000)), a), t.Lt(a, t.Rat(limit))))
	return t.Ite(neg, t.Neg(whole), whole), ok
}

// Number returns Number(x) of the string x, a real: exact where x is a
// constant (ecma.Number). Of a string the path does not fix, it is never
// exact: Z3's string theory did not decide the case split on white space at
// both ends, digits and fraction digits in minutes, so the executors cut
// the path with the number bound rather than hang.
func (t *Table) Number(x Term) (v, ok Term) {
	if s, isConst := t.StringValue(x); isConst {
		r, good := ecma.Number(s)
		if good {
			return t.Rat(r), t.Bool(true)
		}
	}
	return t.Rat(new(big.Rat)), t.Bool(false)
}

// NumberString returns String(x) of the real x (ECMAScript's
// Number::toString), exact where x is m / 10^f with f <= ecma.MaxFraction
// and |m| < 10^ecma.MaxDigits: there it is x's decimal expansion, with no
// point for an integer. A constant folds to ecma.NumberString, exact for
// every double.
func (t *Table) NumberString(x Term) (v, ok Term) {
	if r, isConst := t.RatValue(x); isConst {
		return t.Str(ecma.NumberString(r)), t.Bool(true)
	}
	zero := t.Rat(new(big.Rat))
	neg := t.Lt(x, zero)
	a := t.Ite(neg, t.Neg(x), x)
	whole := t.Floor(a)
	wholeText := t.Digits(whole)
	v, ok = t.Str(""), t.Bool(false)
	for f := ecma.MaxFraction; f >= 0; f-- {
		p := pow10(f)
		scaled := t.Mul(a, t.Rat(new(big.Rat).SetInt(p)))
		text := wholeText
		if f > 0 {
			// The fraction's digits, with their leading zeros: those of
			// 10^f + fraction after its '1'.
			fraction := t.Sub(t.Floor(scaled), t.Mul(whole, t.Int(p.Int64())))
			padded := t.Digits(t.Add(fraction, t.Int(p.Int64())))
			text = t.Concat(wholeText, t.Concat(t.Str("."), t.Substring(padded, t.Int(1), t.Int(int64(f+1)))))
		}
		exact := t.IsInt(scaled)
		v = t.Ite(exact, text, v)
		ok = t.Ite(exact, t.Lt(scaled, t.Rat(new(big.Rat).SetInt(pow10(ecma.MaxDigits)))), ok)
	}
	return t.Concat(t.Ite(neg, t.Str("-"), t.Str("")), v), ok
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }

// isSpace is whether c is one white space character.
func (t *Table) isSpace(c Term) Term {
	space := t.Bool(false)
	for _, r := range ecma.Spaces {
		space = t.Or(space, t.Eq(c, t.Str(string(r))))
	}
	return space
}

// digitsAt returns how many decimal digits x has from index p on, up to
// max + 1, and, where that is at most max, the int they write (0 for
// none).
func (t *Table) digitsAt(x Term, p, max int) (n, val Term) {
	n = t.Int(int64(max + 1))
	for i := max; i >= 0; i-- {
		isDigit := t.Le(t.Int(0), t.Numeral(t.CharAt(x, t.Int(int64(p+i)))))
		n = t.Ite(isDigit, n, t.Int(int64(i)))
	}
	return n, t.Ite(t.Eq(n, t.Int(0)), t.Int(0), t.Numeral(t.Substring(x, t.Int(int64(p)), t.Add(t.Int(int64(p)), n))))
}
