package solver

import (
	"bytes"
	"testing"
)

func TestTableRoundTrip(t *testing.T) {
	tb := NewTable()
	x, y := tb.Var("x", IntSort), tb.Var("y@1", IntSort)
	b := tb.Var("b", BoolSort)
	terms := []Term{
		tb.Ite(b, tb.Add(x, tb.Int(-3)), tb.Div(y, tb.Int(7))),
		tb.And(tb.Lt(x, y), tb.Not(tb.Eq(tb.Rem(x, y), tb.Int(1<<40)))),
		tb.Or(b, tb.Le(tb.Neg(x), tb.Mul(x, y))),
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
	if _, _, err := ReadTable([]byte{1, byte(OpAdd), byte(IntSort), 5, 0, 0}); err == nil {
		t.Error("forward operand accepted")
	}
}

func FuzzReadTable(f *testing.F) {
	tb := NewTable()
	tb.Ite(tb.Var("c", BoolSort), tb.Int(1), tb.Var("x", IntSort))
	f.Add(tb.AppendBinary(nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, _, err := ReadTable(b)
		if err == nil {
			for i := 1; i <= got.Len(); i++ {
				_ = got.String(Term(i))
			}
		}
	})
}
