package solver

import (
	"bytes"
	"math/big"
	"slices"
	"testing"
)

func TestTableRoundTrip(t *testing.T) {
	tb := NewTable()
	x, y := tb.Var("x", IntSort), tb.Var("y@1", IntSort)
	b := tb.Var("b", BoolSort)
	s := tb.Var("s", StringSort)
	terms := []Term{
		tb.Ite(b, tb.Add(x, tb.Int(-3)), tb.Div(y, tb.Int(7))),
		tb.And(tb.Lt(x, y), tb.Not(tb.Eq(tb.Rem(x, y), tb.Int(1<<40)))),
		tb.Or(b, tb.Le(tb.Neg(x), tb.Mul(x, y))),
		tb.Eq(tb.Concat(s, tb.Str("")), tb.Str("é日本 'q' \"\\ \x00")),
		tb.Lt(tb.Substring(tb.Concat(tb.Str("a\\b"), s), x, tb.IndexOf(s, tb.Str("日"))), tb.CharAt(s, y)),
		tb.And(tb.StartsWith(s, tb.Str("'")), tb.Or(tb.EndsWith(s, tb.Str("\"")), tb.Includes(s, tb.Str("")))),
		tb.Le(tb.Length(s), tb.BitXor(tb.BitOr(tb.BitAnd(x, y), tb.BitNot(x)), tb.Shl(tb.Shr(x, y), tb.UShr(y, x)))),
		tb.Eq(tb.Ite(b, s, tb.Str("")), tb.Str("x")),
		tb.Lt(tb.LastIndexOf(s, tb.Str(".")), x),
	}
	enc := tb.AppendBinary([]byte("prefix"))
	got, rest, err := ReadTable(append(enc[len("prefix"):], "tail"...))
	if err != nil {
		t.Fatal(err)
	}
	if string(rest) != "tail" {
		t.Fatalf("rest = %q, want %q", rest, "tail")
	}
	if got.Len() != tb.Len() {
		t.Fatalf("Len = %d, want %d", got.Len(), tb.Len())
	}
	for _, x := range terms {
		if got.String(x) != tb.String(x) {
			t.Errorf("term %d: %s, want %s", x, got.String(x), tb.String(x))
		}
		if gv, wv := got.Vars(x), tb.Vars(x); !slices.Equal(gv, wv) {
			t.Errorf("term %d: variables %v, want %v", x, gv, wv)
		}
	}
	// The decoded table keeps hash-consing: building a term again finds it.
	if got.Add(got.Var("x", IntSort), got.Int(-3)) != tb.Add(x, tb.Int(-3)) {
		t.Error("decoded table does not find an existing term")
	}
	if !bytes.Equal(got.AppendBinary(nil), tb.AppendBinary(nil)) {
		t.Error("re-encoding differs")
	}
}

func TestReadTableRejectsDamage(t *testing.T) {
	tb := NewTable()
	tb.And(tb.Lt(tb.Var("x", IntSort), tb.Int(3)), tb.Var("b", BoolSort))
	enc := tb.AppendBinary(nil)
	for cut := 0; cut < len(enc); cut++ {
		if _, _, err := ReadTable(enc[:cut]); err == nil {
			t.Errorf("truncated to %d bytes: no error", cut)
		}
	}
	for i := range enc {
		for _, v := range []byte{0, 0x7f, 0xff} {
			bad := append([]byte(nil), enc...)
			bad[i] = v
			// Some flips yield another valid table; none may panic.
			_, _, _ = ReadTable(bad)
		}
	}
	// Each: one integer constant 1 as term 1, then a damaged term 2.
	one := []byte{byte(OpInt), byte(IntSort), 2}
	bad := []struct {
		name string
		term []byte
	}{
		{"forward operand", []byte{byte(OpAdd), byte(IntSort), 5, 0, 0}},
		{"missing operand", []byte{byte(OpAdd), byte(IntSort), 1, 0, 0}},
		{"extra operand", []byte{byte(OpNeg), byte(IntSort), 1, 1, 0}},
		{"wrong operand sort", []byte{byte(OpLength), byte(IntSort), 1, 0, 0}},
		{"wrong result sort", []byte{byte(OpAdd), byte(BoolSort), 1, 1, 0}},
		{"comparison without operands", []byte{byte(OpLt), byte(BoolSort), 0, 0, 0}},
		{"unknown operator", []byte{byte(OpLastIndexOf) + 1, byte(IntSort), 1, 1, 0}},
		{"rational constant not canonical", []byte{byte(OpRat), byte(RealSort), 3, '2', '/', '4'}},
		{"rational constant of sort int", []byte{byte(OpRat), byte(IntSort), 1, '2'}},
		{"real operation on an int", []byte{byte(OpAdd), byte(RealSort), 1, 1, 0}},
		{"string constant of sort int", []byte{byte(OpStr), byte(IntSort), 1, 'a'}},
		{"string constant not UTF-8", []byte{byte(OpStr), byte(StringSort), 1, 0xff}},
		{"int constant of sort bool", []byte{byte(OpInt), byte(BoolSort), 4}},
		{"bool constant 2", []byte{byte(OpBool), byte(BoolSort), 4}},
		{"bad sort", []byte{byte(OpVar), byte(RealSort) + 1, 1, 'v'}},
	}
	for _, tc := range bad {
		enc := append(append([]byte{2}, one...), tc.term...)
		if _, _, err := ReadTable(enc); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}

func FuzzReadTable(f *testing.F) {
	tb := NewTable()
	tb.Ite(tb.Var("c", BoolSort), tb.Int(1), tb.Var("x", IntSort))
	f.Add(tb.AppendBinary(nil))
	tb = NewTable()
	s, x := tb.Var("s", StringSort), tb.Var("x", IntSort)
	tb.Lt(tb.Substring(tb.Concat(s, tb.Str("é\\'")), x, tb.Length(s)), tb.CharAt(s, tb.UShr(x, tb.BitNot(x))))
	f.Add(tb.AppendBinary(nil))
	tb = NewTable()
	d, i := tb.Var("d", RealSort), tb.Var("i", IntSort)
	tb.Le(tb.Div(tb.Add(d, tb.ToReal(i)), tb.Rat(big.NewRat(1, 2))), tb.Neg(tb.Rat(big.NewRat(-3, 4))))
	f.Add(tb.AppendBinary(nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, _, err := ReadTable(b)
		if err == nil {
			zero := func(v Term) (Value, bool) { return Value{Sort: got.Sort(v)}, true }
			for i := 1; i <= got.Len(); i++ {
				_ = got.String(Term(i))
				_, _ = got.Eval(Term(i), zero)
			}
		}
	})
}

// TestTableKeepsCallsAndPins: the black-box calls and the concretising
// conjuncts a table remembers survive encoding.
func TestTableKeepsCallsAndPins(t *testing.T) {
	tb := NewTable()
	x := tb.Var("x@1", IntSort)
	r := tb.Apply("rise", IntSort, []Term{tb.Add(x, tb.Int(1))})
	pin := tb.Eq(x, tb.Int(4))
	tb.Concretise(pin)
	got, rest, err := ReadTable(tb.AppendBinary(nil))
	if err != nil || len(rest) != 0 {
		t.Fatalf("%v, %d bytes left", err, len(rest))
	}
	c, ok := got.Applied(r)
	if !ok || c.Fun != "rise" || len(c.Args) != 1 || got.String(c.Args[0]) != "x@1 + 1" {
		t.Errorf("call %+v, %v", c, ok)
	}
	if !got.Concretised(pin) || got.Concretised(x) {
		t.Error("the pin is not kept")
	}
}
