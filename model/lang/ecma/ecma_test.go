package ecma

import (
	"math"
	"testing"
)

// The wanted values are what a JavaScript engine gives, except where a
// comment says that code points and UTF-16 code units differ.

func TestStringInts(t *testing.T) {
	tests := []struct {
		name string
		got  int64
		want int64
	}{
		{"''.length", Length(""), 0},
		{"'abc'.length", Length("abc"), 3},
		{"'é'.length", Length("é"), 1},
		{"'日本'.length", Length("日本"), 2},
		{"'a😀'.length", Length("a😀"), 2}, // 3 UTF-16 code units
		{"'abc'.indexOf('')", IndexOf("abc", ""), 0},
		{"''.indexOf('')", IndexOf("", ""), 0},
		{"''.indexOf('a')", IndexOf("", "a"), -1},
		{"'aXbXc'.indexOf('X')", IndexOf("aXbXc", "X"), 1},
		{"'abc'.indexOf('z')", IndexOf("abc", "z"), -1},
		{"'abc'.indexOf('abcd')", IndexOf("abc", "abcd"), -1},
		{"'日本語'.indexOf('語')", IndexOf("日本語", "語"), 2},
		{"'äbc'.indexOf('c')", IndexOf("äbc", "c"), 2},
		{"'abc'.lastIndexOf('')", LastIndexOf("abc", ""), 3},
		{"''.lastIndexOf('')", LastIndexOf("", ""), 0},
		{"''.lastIndexOf('a')", LastIndexOf("", "a"), -1},
		{"'aXbXc'.lastIndexOf('X')", LastIndexOf("aXbXc", "X"), 3},
		{"'aaa'.lastIndexOf('aa')", LastIndexOf("aaa", "aa"), 1},
		{"'abc'.lastIndexOf('z')", LastIndexOf("abc", "z"), -1},
		{"'abc'.lastIndexOf('abcd')", LastIndexOf("abc", "abcd"), -1},
		{"'DIGIT.7'.lastIndexOf('.')", LastIndexOf("DIGIT.7", "."), 5},
		{"'語日本語'.lastIndexOf('語')", LastIndexOf("語日本語", "語"), 3},
		{"'aXbXc'.lastIndexOf('X', 2)", LastIndexOfFrom("aXbXc", "X", 2), 1},
		{"'aXbXc'.lastIndexOf('X', 3)", LastIndexOfFrom("aXbXc", "X", 3), 3},
		{"'aXbXc'.lastIndexOf('X', 0)", LastIndexOfFrom("aXbXc", "X", 0), -1},
		{"'abc'.lastIndexOf('a', -5)", LastIndexOfFrom("abc", "a", -5), 0},
		{"'abc'.lastIndexOf('b', -5)", LastIndexOfFrom("abc", "b", -5), -1},
		{"'abc'.lastIndexOf('', 1)", LastIndexOfFrom("abc", "", 1), 1},
		{"'abc'.lastIndexOf('', 99)", LastIndexOfFrom("abc", "", 99), 3},
		{"'abc'.lastIndexOf('c', 2^63-1)", LastIndexOfFrom("abc", "c", math.MaxInt64), 2},
		{"'abab'.lastIndexOf('ab', 1)", LastIndexOfFrom("abab", "ab", 1), 0},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}

// TestLastIndexOfFrom checks s.lastIndexOf(t, from) against
// ECMA-262's steps (String.prototype.lastIndexOf): start is from clamped
// to [0, length], an empty t is found at start, and otherwise the
// greatest n <= start at which t occurs in s.
func TestLastIndexOfFrom(t *testing.T) {
	spec := func(s, sub []rune, from int64) int64 {
		start := min(max(from, 0), int64(len(s)))
		for n := start; n >= 0; n-- {
			if n+int64(len(sub)) <= int64(len(s)) && string(s[n:n+int64(len(sub))]) == string(sub) {
				return n
			}
		}
		return -1
	}
	strs := []string{"", "a", "ab", "aa", "aba", "abab", "baab", "日本日", "bbabb"}
	for _, s := range strs {
		for _, sub := range strs {
			for from := int64(-2); from <= 7; from++ {
				if got, want := LastIndexOfFrom(s, sub, from), spec([]rune(s), []rune(sub), from); got != want {
					t.Errorf("%q.lastIndexOf(%q, %d) = %d, want %d", s, sub, from, got, want)
				}
			}
			if got, want := LastIndexOf(s, sub), spec([]rune(s), []rune(sub), math.MaxInt64); got != want {
				t.Errorf("%q.lastIndexOf(%q) = %d, want %d", s, sub, got, want)
			}
		}
	}
}

func TestStringBools(t *testing.T) {
	tests := []struct {
		name string
		got  bool
		want bool
	}{
		{"'abc'.startsWith('')", StartsWith("abc", ""), true},
		{"'abc'.startsWith('ab')", StartsWith("abc", "ab"), true},
		{"'ab'.startsWith('abc')", StartsWith("ab", "abc"), false},
		{"'日本'.startsWith('本')", StartsWith("日本", "本"), false},
		{"'日本'.endsWith('本')", EndsWith("日本", "本"), true},
		{"'abc'.endsWith('')", EndsWith("abc", ""), true},
		{"'abc'.endsWith('ab')", EndsWith("abc", "ab"), false},
		{"''.includes('')", Includes("", ""), true},
		{"'abc'.includes('bc')", Includes("abc", "bc"), true},
		{"'abc'.includes('d')", Includes("abc", "d"), false},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestStringStrings(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"'abcdef'.substring(1, 4)", Substring("abcdef", 1, 4), "bcd"},
		{"'abcdef'.substring(4, 1)", Substring("abcdef", 4, 1), "bcd"},
		{"'abc'.substring(-5, 99)", Substring("abc", -5, 99), "abc"},
		{"'abc'.substring(-1, 2)", Substring("abc", -1, 2), "ab"},
		{"'abc'.substring(5, 2)", Substring("abc", 5, 2), "c"},
		{"'abc'.substring(3, 3)", Substring("abc", 3, 3), ""},
		{"'abc'.substring(2, -7)", Substring("abc", 2, -7), "ab"},
		{"''.substring(0, 1)", Substring("", 0, 1), ""},
		{"'abc'.substring(min, max)", Substring("abc", math.MinInt64, math.MaxInt64), "abc"},
		{"'日本語'.substring(1, 3)", Substring("日本語", 1, 3), "本語"},
		{"'abc'.charAt(1)", CharAt("abc", 1), "b"},
		{"'abc'.charAt(3)", CharAt("abc", 3), ""},
		{"'abc'.charAt(-1)", CharAt("abc", -1), ""},
		{"''.charAt(0)", CharAt("", 0), ""},
		{"'日本'.charAt(1)", CharAt("日本", 1), "本"},
		{"'a😀'.charAt(1)", CharAt("a😀", 1), "😀"}, // a lone surrogate in UTF-16
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

// TestBits checks the bit operators on small, negative and out-of-32-bit
// operands. Integers are mathematical: beyond 2^53 a JavaScript number
// would have rounded first, which the last cases do not model.
func TestBits(t *testing.T) {
	const two32, two31 = 1 << 32, 1 << 31
	tests := []struct {
		name string
		got  int64
		want int64
	}{
		{"5 & 3", BitAnd(5, 3), 1},
		{"5 | 3", BitOr(5, 3), 7},
		{"5 ^ 3", BitXor(5, 3), 6},
		{"~5", BitNot(5), -6},
		{"~-1", BitNot(-1), 0},
		{"-6 & 7", BitAnd(-6, 7), 2},
		{"(2^32 + 5) | 0", BitOr(two32+5, 0), 5},
		{"(2^32 + 5) & -1", BitAnd(two32+5, -1), 5},
		{"2^32 | 0", BitOr(two32, 0), 0},
		{"2^31 | 0", BitOr(two31, 0), -2147483648},
		{"(-2^31 - 1) | 0", BitOr(-two31-1, 0), 2147483647},
		{"~2^32", BitNot(two32), -1},
		{"~2^31", BitNot(two31), 2147483647},
		{"(2^32 - 1) ^ 1", BitXor(two32-1, 1), -2},
		{"1 << 31", Shl(1, 31), -2147483648},
		{"1 << 32", Shl(1, 32), 1},
		{"1 << -1", Shl(1, -1), -2147483648},
		{"-1 << 31", Shl(-1, 31), -2147483648},
		{"(2^32 + 1) << 1", Shl(two32+1, 1), 2},
		{"3 << (2^32 + 2)", Shl(3, two32+2), 12},
		{"-16 >> 2", Shr(-16, 2), -4},
		{"5 >> 33", Shr(5, 33), 2},
		{"-1 >> 31", Shr(-1, 31), -1},
		{"2^31 >> 0", Shr(two31, 0), -2147483648},
		{"-2^31 >> 31", Shr(-two31, 31), -1},
		{"-1 >>> 0", UShr(-1, 0), 4294967295},
		{"-1 >>> 32", UShr(-1, 32), 4294967295},
		{"-16 >>> 28", UShr(-16, 28), 15},
		{"(2^32 + 5) >>> 0", UShr(two32+5, 0), 5},
		{"-2^31 >>> 31", UShr(-two31, 31), 1},
		{"1 >>> -1", UShr(1, -1), 0},
		{"min | 0", BitOr(math.MinInt64, 0), 0},
		{"max | 0", BitOr(math.MaxInt64, 0), -1},
		{"max >>> 0", UShr(math.MaxInt64, 0), 4294967295},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}

func TestToInt32(t *testing.T) {
	tests := []struct {
		x   int64
		i32 int32
		u32 uint32
	}{
		{0, 0, 0},
		{-1, -1, 4294967295},
		{4294967295, -1, 4294967295},
		{4294967296, 0, 0},
		{2147483648, -2147483648, 2147483648},
		{-2147483649, 2147483647, 2147483647},
		{1<<40 + 7, 7, 7},
	}
	for _, tt := range tests {
		if got := ToInt32(tt.x); got != tt.i32 {
			t.Errorf("ToInt32(%d) = %d, want %d", tt.x, got, tt.i32)
		}
		if got := ToUint32(tt.x); got != tt.u32 {
			t.Errorf("ToUint32(%d) = %d, want %d", tt.x, got, tt.u32)
		}
	}
}

// TestCompareStrings: code point order, which is ECMAScript's within the
// Basic Multilingual Plane and differs from it, as documented, only for a
// character beyond it against one of U+E000 to U+FFFF.
func TestCompareStrings(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"a", "b", -1}, {"ab", "a", 1}, {"", "", 0}, {"Z", "a", -1},
		{"é", "z", 1}, {"\u00ff", "\u0100", -1},
		// U+1F600 is the code units D83D DE00 in UTF-16, below U+FFFF in
		// ECMAScript; by code point it is above.
		{"\U0001F600", "\uFFFF", 1},
	} {
		if got := CompareStrings(c.a, c.b); got != c.want {
			t.Errorf("CompareStrings(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
