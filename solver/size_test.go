package solver

import (
	"strings"
	"testing"
)

// TestSize: a term's size counts its operators and operands as a tree, a
// shared subterm as often as it occurs, and survives the binary encoding.
func TestSize(t *testing.T) {
	tab := NewTable()
	x := tab.Var("x", IntSort)
	y := tab.Var("y", IntSort)
	xy := tab.Add(tab.Mul(x, y), tab.Int(1))
	sq := tab.Mul(xy, xy)
	for _, tc := range []struct {
		term Term
		want int
	}{{x, 1}, {tab.Int(3), 1}, {xy, 5}, {sq, 11}, {tab.Lt(sq, x), 13}} {
		if got := tab.Size(tc.term); got != tc.want {
			t.Errorf("Size(%s) = %d, want %d", tab.String(tc.term), got, tc.want)
		}
	}
	// Squaring doubles the size: it saturates instead of overflowing.
	v := x
	for range 40 {
		v = tab.Mul(v, v)
	}
	if got := tab.Size(v); got != 1<<31-1 {
		t.Errorf("Size of x squared 40 times = %d, want the largest int32", got)
	}
	read, _, err := ReadTable(tab.AppendBinary(nil))
	if err != nil {
		t.Fatal(err)
	}
	for i := Term(1); int(i) <= tab.Len(); i++ {
		if read.Size(i) != tab.Size(i) {
			t.Fatalf("term %d: size %d after decoding, %d before", i, read.Size(i), tab.Size(i))
		}
	}
}

// TestConcatJoinsUpToMaxJoined: constants are joined into one up to
// MaxJoined bytes; a longer string stays a concatenation, whose size
// counts it.
func TestConcatJoinsUpToMaxJoined(t *testing.T) {
	tab := NewTable()
	half := tab.Str(strings.Repeat("a", MaxJoined/2))
	if s, ok := tab.StringValue(tab.Concat(half, half)); !ok || len(s) != MaxJoined {
		t.Errorf("two halves of MaxJoined: %d bytes joined %v, want one constant", len(s), ok)
	}
	full := tab.Str(strings.Repeat("a", MaxJoined))
	c := tab.Concat(full, tab.Str("b"))
	if tab.Op(c) != OpConcat || tab.Size(c) != 3 {
		t.Errorf("MaxJoined and one more byte: operator %d of size %d, want a concatenation of size 3", tab.Op(c), tab.Size(c))
	}
	s := tab.Var("s", StringSort)
	if d := tab.Concat(tab.Concat(s, full), tab.Str("b")); tab.Op(d) != OpConcat || tab.Size(d) != 5 {
		t.Errorf("(s + MaxJoined) + 'b' has size %d, want 5: the constants are not joined", tab.Size(d))
	}
	v, ok := tab.Eval(c, func(Term) (Value, bool) { return Value{}, false })
	if !ok || len(v.Str) != MaxJoined+1 {
		t.Errorf("the concatenation evaluates to %d bytes (%v), want %d", len(v.Str), ok, MaxJoined+1)
	}
}
