package solver

import (
	"strconv"
	"strings"

	"github.com/setbot/setbot/model/lang/ecma"
)

// The string operations. Each folds to a constant when its operands are
// constants, with the semantics of package ecma.

// MaxJoined is the longest constant (in bytes) Concat makes by joining
// two: a longer string stays a concatenation, which the term bound counts
// (Size), so that a string doubled in a loop or a long script costs the
// table its operators rather than its characters.
const MaxJoined = 4096

// Concat returns x + y on strings. Constants next to each other are joined
// (up to MaxJoined bytes): (x + 'a') + 'b' is x + 'ab'.
func (t *Table) Concat(x, y Term) Term {
	a, aok := t.StringValue(x)
	b, bok := t.StringValue(y)
	joins := func(c, d string) bool { return len(c)+len(d) <= MaxJoined }
	switch {
	case aok && a == "":
		return y
	case bok && b == "":
		return x
	case aok && bok && joins(a, b):
		return t.Str(a + b)
	case bok && t.Op(x) == OpConcat:
		if c, ok := t.StringValue(t.nodes[x].b); ok && joins(c, b) {
			return t.Concat(t.nodes[x].a, t.Str(c+b))
		}
	case aok && t.Op(y) == OpConcat:
		if c, ok := t.StringValue(t.nodes[y].a); ok && joins(a, c) {
			return t.Concat(t.Str(a+c), t.nodes[y].b)
		}
	}
	return t.intern(node{op: OpConcat, sort: StringSort, a: x, b: y})
}

// Length returns x.length, in code points.
func (t *Table) Length(x Term) Term {
	if s, ok := t.StringValue(x); ok {
		return t.Int(ecma.Length(s))
	}
	return t.intern(node{op: OpLength, sort: IntSort, a: x})
}

// Digits returns the decimal digits of the int x, which is not negative
// ("" when it is, as SMT-LIB's str.from_int): String(x) for x >= 0.
func (t *Table) Digits(x Term) Term {
	if v, ok := t.IntValue(x); ok {
		return t.Str(digits(v))
	}
	return t.intern(node{op: OpDigits, sort: StringSort, a: x})
}

// Numeral returns the int the string x writes in decimal digits, -1 when
// x is empty or holds another character (SMT-LIB's str.to_int): with a
// length, it reads the digits of a numeral.
func (t *Table) Numeral(x Term) Term {
	if s, ok := t.StringValue(x); ok {
		if v, fits := numeral(s); fits {
			return t.Int(v)
		}
	}
	return t.intern(node{op: OpNumeral, sort: IntSort, a: x})
}

// numeral is Numeral of a constant, and whether it fits an int64.
func numeral(s string) (int64, bool) {
	if s == "" || strings.Trim(s, ecma.Decimal) != "" {
		return -1, true
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

func digits(v int64) string {
	if v < 0 {
		return ""
	}
	return strconv.FormatInt(v, 10)
}

// IndexOf returns x.indexOf(y): the index of y's first occurrence in x,
// -1 when there is none.
func (t *Table) IndexOf(x, y Term) Term {
	a, aok := t.StringValue(x)
	b, bok := t.StringValue(y)
	switch {
	case aok && bok:
		return t.Int(ecma.IndexOf(a, b))
	case bok && b == "", x == y:
		return t.Int(0)
	}
	return t.intern(node{op: OpIndexOf, sort: IntSort, a: x, b: y})
}

// LastIndexOf returns x.lastIndexOf(y): the index of y's last occurrence
// in x, -1 when there is none; "" occurs last at x's end.
func (t *Table) LastIndexOf(x, y Term) Term {
	a, aok := t.StringValue(x)
	b, bok := t.StringValue(y)
	switch {
	case aok && bok:
		return t.Int(ecma.LastIndexOf(a, b))
	case bok && b == "":
		return t.Length(x)
	case x == y:
		return t.Int(0)
	}
	return t.intern(node{op: OpLastIndexOf, sort: IntSort, a: x, b: y})
}

// StartsWith returns x.startsWith(y).
func (t *Table) StartsWith(x, y Term) Term { return t.contains(OpStartsWith, x, y, ecma.StartsWith) }

// EndsWith returns x.endsWith(y).
func (t *Table) EndsWith(x, y Term) Term { return t.contains(OpEndsWith, x, y, ecma.EndsWith) }

// Includes returns x.includes(y).
func (t *Table) Includes(x, y Term) Term { return t.contains(OpIncludes, x, y, ecma.Includes) }

// contains builds one of the predicates "x contains y" (at its start, at
// its end, anywhere), computed by f on constants. Each holds when y is ""
// or y is x.
func (t *Table) contains(op Op, x, y Term, f func(s, sub string) bool) Term {
	a, aok := t.StringValue(x)
	b, bok := t.StringValue(y)
	switch {
	case aok && bok:
		return t.Bool(f(a, b))
	case bok && b == "", x == y:
		return t.Bool(true)
	}
	return t.intern(node{op: op, sort: BoolSort, a: x, b: y})
}

// Substring returns x.substring(start, end): each index is clamped to
// [0, x.length], and the two are swapped when start > end.
func (t *Table) Substring(x, start, end Term) Term {
	s, sok := t.StringValue(x)
	i, iok := t.IntValue(start)
	j, jok := t.IntValue(end)
	switch {
	case sok && iok && jok:
		return t.Str(ecma.Substring(s, i, j))
	case sok && s == "", start == end, iok && jok && max(i, 0) == max(j, 0):
		return t.Str("")
	case iok && i <= 0 && t.Op(end) == OpLength && t.nodes[end].a == x:
		return x
	}
	return t.intern(node{op: OpSubstring, sort: StringSort, a: x, b: start, c: end})
}

// CharAt returns x.charAt(i): the code point at i as a string, "" when i
// is out of range.
func (t *Table) CharAt(x, i Term) Term {
	s, sok := t.StringValue(x)
	n, nok := t.IntValue(i)
	switch {
	case sok && nok:
		return t.Str(ecma.CharAt(s, n))
	case sok && s == "", nok && n < 0:
		return t.Str("")
	}
	return t.intern(node{op: OpCharAt, sort: StringSort, a: x, b: i})
}
