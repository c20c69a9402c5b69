// Package ecma holds the concrete ECMAScript operations of the action
// language: the string methods and the 32-bit bit operators, as the
// simulator computes them and the solver folds and evaluates them.
//
// Strings are sequences of Unicode code points, as the solver's string
// theory counts them; ECMAScript counts UTF-16 code units. The two agree on
// text within the Basic Multilingual Plane. The operations expect valid
// UTF-8.
//
// Integers are mathematical (here: any int64). The bit operators take them
// through ToInt32 (ToUint32 for the left operand of >>>) exactly as
// ECMAScript takes an integral Number.
package ecma

import (
	"strings"
	"unicode/utf8"
)

// Length is s.length.
func Length(s string) int64 { return int64(utf8.RuneCountInString(s)) }

// IndexOf is s.indexOf(t): the index of the first occurrence of t, -1 when
// there is none ("abc".indexOf("") is 0).
func IndexOf(s, t string) int64 {
	i := strings.Index(s, t)
	if i < 0 {
		return -1
	}
	return Length(s[:i])
}

// LastIndexOf is s.lastIndexOf(t): the index of the last occurrence of t,
// -1 when there is none ("abc".lastIndexOf("") is 3, the length).
func LastIndexOf(s, t string) int64 {
	i := strings.LastIndex(s, t)
	if i < 0 {
		return -1
	}
	return Length(s[:i])
}

// LastIndexOfFrom is s.lastIndexOf(t, from): the index of the last
// occurrence of t that starts at or before from, which is clamped to
// [0, length]; that is the last occurrence in the prefix of s that ends
// t's length after from.
func LastIndexOfFrom(s, t string, from int64) int64 {
	from = min(max(from, 0), Length(s))
	return LastIndexOf(Substring(s, 0, from+Length(t)), t)
}

// StartsWith is s.startsWith(t).
func StartsWith(s, t string) bool { return strings.HasPrefix(s, t) }

// EndsWith is s.endsWith(t).
func EndsWith(s, t string) bool { return strings.HasSuffix(s, t) }

// Includes is s.includes(t).
func Includes(s, t string) bool { return strings.Contains(s, t) }

// Substring is s.substring(start, end): each index is clamped to
// [0, length], and the two are swapped when start > end.
func Substring(s string, start, end int64) string {
	r := []rune(s)
	n := int64(len(r))
	start, end = min(max(start, 0), n), min(max(end, 0), n)
	if start > end {
		start, end = end, start
	}
	return string(r[start:end])
}

// CharAt is s.charAt(i): the code point at i as a string, "" when i is out
// of range.
func CharAt(s string, i int64) string {
	r := []rune(s)
	if i < 0 || i >= int64(len(r)) {
		return ""
	}
	return string(r[i])
}

// ToInt32 is ECMAScript's ToInt32 on an integer: x modulo 2^32, in
// [-2^31, 2^31). Go's conversion keeps the low 32 bits, which is that.
func ToInt32(x int64) int32 { return int32(x) }

// ToUint32 is ECMAScript's ToUint32 on an integer: x modulo 2^32, in
// [0, 2^32).
func ToUint32(x int64) uint32 { return uint32(x) }

// ShiftCount is the shift count of b: ToUint32(b) & 31 (ECMA-262, the shift operators).
func ShiftCount(b int64) uint32 { return ToUint32(b) & 31 }

// BitAnd is a & b.
func BitAnd(a, b int64) int64 { return int64(ToInt32(a) & ToInt32(b)) }

// BitOr is a | b.
func BitOr(a, b int64) int64 { return int64(ToInt32(a) | ToInt32(b)) }

// BitXor is a ^ b.
func BitXor(a, b int64) int64 { return int64(ToInt32(a) ^ ToInt32(b)) }

// BitNot is ~a.
func BitNot(a int64) int64 { return int64(^ToInt32(a)) }

// Shl is a << b.
func Shl(a, b int64) int64 { return int64(ToInt32(a) << ShiftCount(b)) }

// Shr is a >> b, shifting in copies of the sign bit.
func Shr(a, b int64) int64 { return int64(ToInt32(a) >> ShiftCount(b)) }

// UShr is a >>> b, shifting in zeros: the result is unsigned.
func UShr(a, b int64) int64 { return int64(ToUint32(a) >> ShiftCount(b)) }

// CompareStrings orders two strings as every executor of setbot does:
// lexicographically by code point (Go's comparison of the UTF-8 bytes is
// the same order, and so is Z3's str.<). ECMAScript compares by UTF-16
// code unit, which is the same order on text within the Basic Multilingual
// Plane; only a character beyond it against one of U+E000 to U+FFFF
// compares otherwise.
func CompareStrings(a, b string) int { return strings.Compare(a, b) }
