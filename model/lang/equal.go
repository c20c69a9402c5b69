package lang

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Equal reports whether a and b are the same tree, ignoring positions: of
// one kind, with the same leaves (operator, name, literal value) and
// pairwise equal children slot by slot, an absent child equal only to an
// absent one. A nil and an empty statement list are equal; a nil node
// (a nil *Block too) equals only a nil node.
func Equal(a, b Node) bool {
	if absent(a) || absent(b) {
		return absent(a) && absent(b)
	}
	if reflect.TypeOf(a) != reflect.TypeOf(b) || leaves(a) != leaves(b) {
		return false
	}
	var bufA, bufB [maxSlots]slot
	sb := slots(bufB[:0], b)
	for k, s := range slots(bufA[:0], a) {
		if s.len() != sb[k].len() {
			return false
		}
		for i := range s.len() {
			if s.name(i) != sb[k].name(i) || !Equal(s.at(i), sb[k].at(i)) {
				return false
			}
		}
	}
	return true
}

// Key returns a text of the tree n that is the same for two trees exactly
// when Equal holds of them: the identity of code as a map key. It is not
// meant for reading (ExprString and BlockString are).
func Key(n Node) string {
	var b strings.Builder
	writeKey(&b, n)
	return b.String()
}

// writeKey writes n's kind, its leaves and its slots, each slot's children
// in brackets (a part's name before its child), "-" for an absent child.
func writeKey(b *strings.Builder, n Node) {
	if absent(n) {
		b.WriteByte('-')
		return
	}
	l := leaves(n)
	fmt.Fprintf(b, "%T %q %d %t", n, l.text, l.num, l.flag)
	if l.typ != (Type{}) {
		fmt.Fprintf(b, " %#v", l.typ) // a composite type by identity, as == compares it
	}
	var buf [maxSlots]slot
	for _, s := range slots(buf[:0], n) {
		b.WriteString(" [")
		for i := range s.len() {
			if i > 0 {
				b.WriteByte(' ')
			}
			if name := s.name(i); name != "" {
				b.WriteString(strconv.Quote(name) + ":")
			}
			writeKey(b, s.at(i))
		}
		b.WriteByte(']')
	}
	b.WriteByte(';')
}
