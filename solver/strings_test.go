package solver

import (
	"math/rand"
	"testing"
)

// TestStringFolding checks the folding of the string operations on
// constants and their identities (each case builds a term and the term it
// must equal).
func TestStringFolding(t *testing.T) {
	tab := NewTable()
	s := tab.Var("s", StringSort)
	u := tab.Var("u", StringSort)
	x := tab.Var("x", IntSort)
	b := tab.Var("b", BoolSort)
	str, i, T, F := tab.Str, tab.Int, tab.Bool(true), tab.Bool(false)
	tests := []struct {
		name      string
		got, want Term
	}{
		{"invalid UTF-8", str("a\xffb"), str("a\uFFFDb")},
		{"concat", tab.Concat(str("ab"), str("cd")), str("abcd")},
		{"concat non-ASCII", tab.Concat(str("é"), str("日本")), str("é日本")},
		{"''+s", tab.Concat(str(""), s), s},
		{"s+''", tab.Concat(s, str("")), s},
		{"(s+'a')+'b'", tab.Concat(tab.Concat(s, str("a")), str("b")), tab.Concat(s, str("ab"))},
		{"'a'+('b'+s)", tab.Concat(str("a"), tab.Concat(str("b"), s)), tab.Concat(str("ab"), s)},
		{"length", tab.Length(str("abc")), i(3)},
		{"length empty", tab.Length(str("")), i(0)},
		{"length non-ASCII", tab.Length(str("日本")), i(2)},
		{"indexOf", tab.IndexOf(str("aXbXc"), str("X")), i(1)},
		{"indexOf absent", tab.IndexOf(str("abc"), str("z")), i(-1)},
		{"indexOf non-ASCII", tab.IndexOf(str("日本語"), str("語")), i(2)},
		{"''.indexOf('')", tab.IndexOf(str(""), str("")), i(0)},
		{"s.indexOf('')", tab.IndexOf(s, str("")), i(0)},
		{"s.indexOf(s)", tab.IndexOf(s, s), i(0)},
		{"lastIndexOf", tab.LastIndexOf(str("aXbXc"), str("X")), i(3)},
		{"lastIndexOf absent", tab.LastIndexOf(str("abc"), str("z")), i(-1)},
		{"lastIndexOf non-ASCII", tab.LastIndexOf(str("語日本語"), str("語")), i(3)},
		{"'abc'.lastIndexOf('')", tab.LastIndexOf(str("abc"), str("")), i(3)},
		{"s.lastIndexOf('')", tab.LastIndexOf(s, str("")), tab.Length(s)},
		{"s.lastIndexOf(s)", tab.LastIndexOf(s, s), i(0)},
		{"startsWith", tab.StartsWith(str("abc"), str("ab")), T},
		{"startsWith false", tab.StartsWith(str("ab"), str("abc")), F},
		{"s.startsWith('')", tab.StartsWith(s, str("")), T},
		{"s.startsWith(s)", tab.StartsWith(s, s), T},
		{"endsWith", tab.EndsWith(str("日本"), str("本")), T},
		{"endsWith false", tab.EndsWith(str("abc"), str("ab")), F},
		{"s.endsWith('')", tab.EndsWith(s, str("")), T},
		{"includes", tab.Includes(str("abc"), str("b")), T},
		{"includes false", tab.Includes(str("abc"), str("d")), F},
		{"s.includes(s)", tab.Includes(s, s), T},
		{"substring", tab.Substring(str("abcdef"), i(1), i(4)), str("bcd")},
		{"substring swapped", tab.Substring(str("abcdef"), i(4), i(1)), str("bcd")},
		{"substring clamped", tab.Substring(str("abc"), i(-5), i(99)), str("abc")},
		{"substring non-ASCII", tab.Substring(str("日本語"), i(1), i(3)), str("本語")},
		{"''.substring", tab.Substring(str(""), x, i(3)), str("")},
		{"s.substring(x, x)", tab.Substring(s, x, x), str("")},
		{"s.substring(-3, 0)", tab.Substring(s, i(-3), i(0)), str("")},
		{"s.substring(5, 5)", tab.Substring(s, i(5), i(5)), str("")},
		{"s.substring(0, s.length)", tab.Substring(s, i(0), tab.Length(s)), s},
		{"s.substring(-1, s.length)", tab.Substring(s, i(-1), tab.Length(s)), s},
		{"charAt", tab.CharAt(str("abc"), i(1)), str("b")},
		{"charAt past the end", tab.CharAt(str("abc"), i(3)), str("")},
		{"charAt non-ASCII", tab.CharAt(str("日本"), i(1)), str("本")},
		{"s.charAt(-1)", tab.CharAt(s, i(-1)), str("")},
		{"''.charAt(x)", tab.CharAt(str(""), x), str("")},
		{"eq", tab.Eq(str("a"), str("a")), T},
		{"eq false", tab.Eq(str("a"), str("b")), F},
		{"eq same", tab.Eq(s, s), T},
		{"ne", tab.Ne(str("a"), str("b")), T},
		{"lt", tab.Lt(str("a"), str("b")), T},
		{"lt prefix", tab.Lt(str("ab"), str("abc")), T},
		{"lt false", tab.Lt(str("b"), str("ab")), F},
		{"lt by code point", tab.Lt(str("z"), str("é")), T},
		{"le", tab.Le(str("ab"), str("ab")), T},
		{"gt", tab.Gt(str("b"), str("a")), T},
		{"s<''", tab.Lt(s, str("")), F},
		{"''<=s", tab.Le(str(""), s), T},
		{"s<s", tab.Lt(s, s), F},
		{"not lt", tab.Not(tab.Lt(s, u)), tab.Le(u, s)},
		{"ite same", tab.Ite(b, s, s), s},
		{"ite true", tab.Ite(T, s, str("x")), s},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, tab.String(tc.got), tab.String(tc.want))
		}
	}
}

// TestBitFolding checks the folding of the bit operators on constants
// (ECMAScript's edge cases) and their identities. bx is a 32-bit result;
// x is not, so x | 0 must stay.
func TestBitFolding(t *testing.T) {
	tab := NewTable()
	x := tab.Var("x", IntSort)
	y := tab.Var("y", IntSort)
	bx := tab.BitAnd(x, y)
	i := tab.Int
	const two32, two31 = 1 << 32, 1 << 31
	tests := []struct {
		name      string
		got, want Term
	}{
		{"5 & 3", tab.BitAnd(i(5), i(3)), i(1)},
		{"5 | 3", tab.BitOr(i(5), i(3)), i(7)},
		{"5 ^ 3", tab.BitXor(i(5), i(3)), i(6)},
		{"~5", tab.BitNot(i(5)), i(-6)},
		{"~2^32", tab.BitNot(i(two32)), i(-1)},
		{"(2^32+5) | 0", tab.BitOr(i(two32+5), i(0)), i(5)},
		{"2^31 | 0", tab.BitOr(i(two31), i(0)), i(-two31)},
		{"(-2^31-1) | 0", tab.BitOr(i(-two31-1), i(0)), i(two31 - 1)},
		{"1 << 31", tab.Shl(i(1), i(31)), i(-two31)},
		{"1 << 32", tab.Shl(i(1), i(32)), i(1)},
		{"1 << -1", tab.Shl(i(1), i(-1)), i(-two31)},
		{"5 >> 33", tab.Shr(i(5), i(33)), i(2)},
		{"-16 >> 2", tab.Shr(i(-16), i(2)), i(-4)},
		{"-1 >>> 0", tab.UShr(i(-1), i(0)), i(two32 - 1)},
		{"-16 >>> 28", tab.UShr(i(-16), i(28)), i(15)},
		{"x & 0", tab.BitAnd(x, i(0)), i(0)},
		{"0 & x", tab.BitAnd(i(0), x), i(0)},
		{"x & 2^32", tab.BitAnd(x, i(two32)), i(0)},
		{"x | -1", tab.BitOr(x, i(-1)), i(-1)},
		{"(2^32-1) | x", tab.BitOr(i(two32-1), x), i(-1)},
		{"bx | 0", tab.BitOr(bx, i(0)), bx},
		{"0 | bx", tab.BitOr(i(0), bx), bx},
		{"bx & -1", tab.BitAnd(bx, i(-1)), bx},
		{"-1 & bx", tab.BitAnd(i(-1), bx), bx},
		{"bx & bx", tab.BitAnd(bx, bx), bx},
		{"bx | bx", tab.BitOr(bx, bx), bx},
		{"x ^ x", tab.BitXor(x, x), i(0)},
		{"bx ^ 0", tab.BitXor(bx, i(0)), bx},
		{"0 ^ bx", tab.BitXor(i(0), bx), bx},
		{"0 << x", tab.Shl(i(0), x), i(0)},
		{"2^32 >>> x", tab.UShr(i(two32), x), i(0)},
		{"-1 >> x", tab.Shr(i(-1), x), i(-1)},
		{"x << 33", tab.Shl(x, i(33)), tab.Shl(x, i(1))},
		{"x >> -1", tab.Shr(x, i(-1)), tab.Shr(x, i(31))},
		{"x >>> 2^32", tab.UShr(x, i(two32)), tab.UShr(x, i(0))},
		{"bx << 32", tab.Shl(bx, i(32)), bx},
		{"bx >> 0", tab.Shr(bx, i(0)), bx},
		{"(x >>> y) >>> 0", tab.UShr(tab.UShr(x, y), i(0)), tab.UShr(x, y)},
		{"~~bx", tab.BitNot(tab.BitNot(bx)), bx},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, tab.String(tc.got), tab.String(tc.want))
		}
	}
}

// TestStringsAndBitsNotFolded checks what must stay symbolic.
func TestStringsAndBitsNotFolded(t *testing.T) {
	tab := NewTable()
	s := tab.Var("s", StringSort)
	u := tab.Var("u", StringSort)
	x := tab.Var("x", IntSort)
	y := tab.Var("y", IntSort)
	str, i := tab.Str, tab.Int
	tests := []struct {
		name string
		got  Term
		op   Op
	}{
		{"s+u", tab.Concat(s, u), OpConcat},
		{"'a'+s+'b'", tab.Concat(tab.Concat(str("a"), s), str("b")), OpConcat},
		{"s.length", tab.Length(s), OpLength},
		{"s.indexOf('a')", tab.IndexOf(s, str("a")), OpIndexOf},
		{"''.indexOf(s)", tab.IndexOf(str(""), s), OpIndexOf},
		{"s.lastIndexOf('a')", tab.LastIndexOf(s, str("a")), OpLastIndexOf},
		{"'a.b'.lastIndexOf(s)", tab.LastIndexOf(str("a.b"), s), OpLastIndexOf},
		{"s.startsWith(u)", tab.StartsWith(s, u), OpStartsWith},
		{"''.startsWith(s)", tab.StartsWith(str(""), s), OpStartsWith},
		{"s.endsWith('a')", tab.EndsWith(s, str("a")), OpEndsWith},
		{"s.includes(u)", tab.Includes(s, u), OpIncludes},
		{"s.substring(1, 2)", tab.Substring(s, i(1), i(2)), OpSubstring},
		{"s.substring(x, s.length)", tab.Substring(s, x, tab.Length(s)), OpSubstring},
		{"s.substring(0, u.length)", tab.Substring(s, i(0), tab.Length(u)), OpSubstring},
		{"'abc'.substring(x, 1)", tab.Substring(str("abc"), x, i(1)), OpSubstring},
		{"s.charAt(0)", tab.CharAt(s, i(0)), OpCharAt},
		{"'abc'.charAt(x)", tab.CharAt(str("abc"), x), OpCharAt},
		{"s<u", tab.Lt(s, u), OpLt},
		{"''<s", tab.Lt(str(""), s), OpLt},
		{"s<='a'", tab.Le(s, str("a")), OpLe},
		{"s==u", tab.Eq(s, u), OpEq},
		{"x | 0", tab.BitOr(x, i(0)), OpBitOr},
		{"x & -1", tab.BitAnd(x, i(-1)), OpBitAnd},
		{"x & x", tab.BitAnd(x, x), OpBitAnd},
		{"x ^ 0", tab.BitXor(x, i(0)), OpBitXor},
		{"x << 32", tab.Shl(x, i(32)), OpShl},
		{"x >>> 0", tab.UShr(x, i(0)), OpUShr},
		{"(x & y) >>> 0", tab.UShr(tab.BitAnd(x, y), i(0)), OpUShr},
		{"~~x", tab.BitNot(tab.BitNot(x)), OpBitNot},
		{"x >> y", tab.Shr(x, y), OpShr},
		{"-1 >>> x", tab.UShr(i(-1), x), OpUShr},
	}
	for _, tc := range tests {
		if op := tab.Op(tc.got); op != tc.op {
			t.Errorf("%s: %s has operator %d, want %d", tc.name, tab.String(tc.got), op, tc.op)
		}
	}
}

func TestStringAccessors(t *testing.T) {
	tab := NewTable()
	s := tab.Var("s", StringSort)
	if v, ok := tab.StringValue(tab.Str("日本")); !ok || v != "日本" {
		t.Errorf("StringValue('日本') = %q, %v", v, ok)
	}
	if v, ok := tab.StringValue(s); ok || v != "" {
		t.Errorf("StringValue(s) = %q, %v", v, ok)
	}
	if !tab.IsConst(tab.Str("")) || tab.IsConst(s) || tab.IsConst(tab.Length(s)) {
		t.Error("IsConst")
	}
	if tab.Sort(s) != StringSort || tab.Sort(tab.Length(s)) != IntSort || tab.Sort(tab.Includes(s, s)) != BoolSort ||
		tab.Sort(tab.Ite(tab.Var("b", BoolSort), s, tab.Str("a"))) != StringSort {
		t.Error("wrong sorts")
	}
	if tab.Str("1") == tab.Int(1) || tab.Str("true") == tab.Bool(true) || tab.Str("s") == s {
		t.Error("a string constant equals a term of another kind")
	}
	if StringSort.String() != "string" {
		t.Errorf("StringSort.String() = %q", StringSort.String())
	}
}

func TestStringsAndBitsString(t *testing.T) {
	tab := NewTable()
	s := tab.Var("s", StringSort)
	u := tab.Var("u", StringSort)
	x := tab.Var("x", IntSort)
	i := tab.Int
	tests := []struct {
		term Term
		want string
	}{
		{tab.Str("it's a \\ \"q\"\n\t日本"), `'it\'s a \\ "q"\n\t日本'`},
		{tab.Concat(s, tab.Str("!")), "s + '!'"},
		{tab.Length(tab.Concat(s, u)), "(s + u).length"},
		{tab.Add(tab.Length(s), i(1)), "s.length + 1"},
		{tab.IndexOf(s, u), "s.indexOf(u)"},
		{tab.StartsWith(s, tab.Str("a")), "s.startsWith('a')"},
		{tab.EndsWith(s, u), "s.endsWith(u)"},
		{tab.Includes(s, u), "s.includes(u)"},
		{tab.Substring(s, tab.Add(x, i(1)), i(-2)), "s.substring(x + 1, -2)"},
		{tab.CharAt(s, x), "s.charAt(x)"},
		{tab.Lt(s, u), "s < u"},
		{tab.BitAnd(x, i(3)), "x & 3"},
		{tab.BitOr(x, tab.Shl(x, i(2))), "x | (x << 2)"},
		{tab.BitXor(x, i(-1)), "x ^ (-1)"},
		{tab.BitNot(x), "~x"},
		{tab.Shr(x, i(1)), "x >> 1"},
		{tab.UShr(x, i(0)), "x >>> 0"},
	}
	for _, tc := range tests {
		if got := tab.String(tc.term); got != tc.want {
			t.Errorf("String = %q, want %q", got, tc.want)
		}
	}
}

func TestStringsAndBitsEval(t *testing.T) {
	tab := NewTable()
	s := tab.Var("s", StringSort)
	u := tab.Var("u", StringSort)
	x := tab.Var("x", IntSort)
	vals := map[Term]Value{
		s: {Sort: StringSort, Str: "日本語"},
		u: {Sort: StringSort, Str: "本"},
		x: {Sort: IntSort, Int: 1<<32 + 5},
	}
	val := func(v Term) (Value, bool) { r, ok := vals[v]; return r, ok }
	str := func(v string) Value { return Value{Sort: StringSort, Str: v} }
	num := func(v int64) Value { return Value{Sort: IntSort, Int: v} }
	boolean := func(v bool) Value { return Value{Sort: BoolSort, Bool: v} }
	i := tab.Int
	tests := []struct {
		name string
		term Term
		want Value
	}{
		{"s", s, str("日本語")},
		{"s + u", tab.Concat(s, u), str("日本語本")},
		{"s.length", tab.Length(s), num(3)},
		{"s.indexOf(u)", tab.IndexOf(s, u), num(1)},
		{"u.indexOf(s)", tab.IndexOf(u, s), num(-1)},
		{"s.startsWith(u)", tab.StartsWith(s, u), boolean(false)},
		{"s.endsWith(u)", tab.EndsWith(s, u), boolean(false)},
		{"s.includes(u)", tab.Includes(s, u), boolean(true)},
		{"s.substring(x, -1)", tab.Substring(s, x, i(-1)), str("日本語")},
		{"s.substring(2, x - 2^32)", tab.Substring(s, i(2), tab.Sub(x, i(1<<32))), str("語")},
		{"s.charAt(x - 2^32 - 4)", tab.CharAt(s, tab.Sub(x, i(1<<32+4))), str("本")},
		{"s == u", tab.Eq(s, u), boolean(false)},
		{"u < s", tab.Lt(u, s), boolean(false)},
		{"s <= u", tab.Le(s, u), boolean(true)},
		{"x | 0", tab.BitOr(x, i(0)), num(5)},
		{"x & 7", tab.BitAnd(x, i(7)), num(5)},
		{"x ^ 1", tab.BitXor(x, i(1)), num(4)},
		{"~x", tab.BitNot(x), num(-6)},
		{"x << 31", tab.Shl(x, i(31)), num(-1 << 31)},
		{"-x >> 33", tab.Shr(tab.Neg(x), x), num(-1)},
		{"-x >>> 0", tab.UShr(tab.Neg(x), i(0)), num(1<<32 - 5)},
	}
	for _, tc := range tests {
		got, ok := tab.Eval(tc.term, val)
		if !ok || got != tc.want {
			t.Errorf("%s: Eval = %+v, %v; want %+v", tc.name, got, ok, tc.want)
		}
	}
	if _, ok := tab.Eval(tab.Length(tab.Var("unset", StringSort)), val); ok {
		t.Error("Eval of a variable without a value: ok")
	}
}

// TestFoldingAgreesWithEval builds random string and bit terms over
// variables, then substitutes constants for the variables: the refolded
// term must be the constant that Eval gives for the original term.
func TestFoldingAgreesWithEval(t *testing.T) {
	tab := NewTable()
	rnd := rand.New(rand.NewSource(1))
	ints := []Term{tab.Var("x", IntSort), tab.Var("y", IntSort)}
	strs := []Term{tab.Var("s", StringSort), tab.Var("u", StringSort)}
	intPool := []int64{0, 1, -1, 2, 3, 5, 31, 32, 33, -7, 1 << 31, 1<<32 + 5, -(1 << 33)}
	strPool := []string{"", "a", "ab", "abc", "ba", "é", "日本", "a日b", "\\'"}
	var intTerm, strTerm func(d int) Term
	boolTerm := func(d int) Term {
		a, b := strTerm(d-1), strTerm(d-1)
		switch rnd.Intn(5) {
		case 0:
			return tab.StartsWith(a, b)
		case 1:
			return tab.EndsWith(a, b)
		case 2:
			return tab.Includes(a, b)
		case 3:
			return tab.Lt(a, b)
		}
		return tab.Eq(a, b)
	}
	intTerm = func(d int) Term {
		if d <= 0 || rnd.Intn(4) == 0 {
			if rnd.Intn(2) == 0 {
				return tab.Int(intPool[rnd.Intn(len(intPool))])
			}
			return ints[rnd.Intn(len(ints))]
		}
		a, b := intTerm(d-1), intTerm(d-1)
		ops := []func() Term{
			func() Term { return tab.BitAnd(a, b) }, func() Term { return tab.BitOr(a, b) },
			func() Term { return tab.BitXor(a, b) }, func() Term { return tab.BitNot(a) },
			func() Term { return tab.Shl(a, b) }, func() Term { return tab.Shr(a, b) },
			func() Term { return tab.UShr(a, b) }, func() Term { return tab.Length(strTerm(d - 1)) },
			func() Term { return tab.IndexOf(strTerm(d-1), strTerm(d-1)) },
			func() Term { return tab.Ite(boolTerm(d), a, b) },
		}
		return ops[rnd.Intn(len(ops))]()
	}
	strTerm = func(d int) Term {
		if d <= 0 || rnd.Intn(4) == 0 {
			if rnd.Intn(2) == 0 {
				return tab.Str(strPool[rnd.Intn(len(strPool))])
			}
			return strs[rnd.Intn(len(strs))]
		}
		a := strTerm(d - 1)
		switch rnd.Intn(4) {
		case 0:
			return tab.Concat(a, strTerm(d-1))
		case 1:
			return tab.Substring(a, intTerm(d-1), intTerm(d-1))
		case 2:
			return tab.CharAt(a, intTerm(d-1))
		}
		return tab.Ite(boolTerm(d-1), a, strTerm(d-1))
	}
	for n := 0; n < 2000; n++ {
		var term Term
		switch n % 3 {
		case 0:
			term = intTerm(3)
		case 1:
			term = strTerm(3)
		default:
			term = boolTerm(3)
		}
		vals := map[Term]Value{}
		m := map[Term]Term{}
		for _, v := range ints {
			k := intPool[rnd.Intn(len(intPool))]
			vals[v], m[v] = Value{Sort: IntSort, Int: k}, tab.Int(k)
		}
		for _, v := range strs {
			k := strPool[rnd.Intn(len(strPool))]
			vals[v], m[v] = Value{Sort: StringSort, Str: k}, tab.Str(k)
		}
		want, ok := tab.Eval(term, func(v Term) (Value, bool) { return vals[v], true })
		if !ok {
			t.Fatalf("Eval(%s) not ok", tab.String(term))
		}
		got := tab.Subst(term, m)
		if gv, ok := tab.Eval(got, nil); !tab.IsConst(got) || !ok || gv != want {
			t.Fatalf("%s under %v: folds to %s, Eval gives %+v", tab.String(term), vals, tab.String(got), want)
		}
	}
}

func TestImportStrings(t *testing.T) {
	src := NewTable()
	s := src.Var("s", StringSort)
	x := src.Var("x", IntSort)
	term := src.And(src.Includes(src.Concat(s, src.Str("é")), src.CharAt(s, src.BitAnd(x, src.Int(3)))),
		src.Lt(src.Substring(s, x, src.UShr(x, src.Int(1))), src.Str("日本")))
	dst := NewTable()
	got := dst.Import(src, term, map[Term]Term{})
	if dst.String(got) != src.String(term) {
		t.Errorf("Import = %s, want %s", dst.String(got), src.String(term))
	}
}
