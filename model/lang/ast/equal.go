package ast

import (
	"fmt"
	"reflect"
	"strconv"
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
	return string(appendKey(nil, n))
}

// appendKey appends n's kind, its leaf values (strings with their length
// first, so that no string can read as more of the key; trailing empty
// ones, a zero number and a false flag left out) and its slots, each
// slot's children in brackets (a part's name before its child), "-" for
// an absent child.
func appendKey(b []byte, n Node) []byte {
	if absent(n) {
		return append(b, '-')
	}
	b = append(b, reflect.TypeOf(n).Elem().Name()...)
	l := leaves(n)
	text := l.text[:]
	for len(text) > 0 && text[len(text)-1] == "" {
		text = text[:len(text)-1]
	}
	for _, s := range text {
		b = appendString(b, s)
	}
	if l.num != 0 {
		b = strconv.AppendInt(append(b, " #"...), l.num, 10)
	}
	if l.flag {
		b = append(b, " !"...)
	}
	if l.typ != (Type{}) {
		b = fmt.Appendf(b, " %#v", l.typ) // a composite type by identity, as == compares it
	}
	var buf [maxSlots]slot
	for _, s := range slots(buf[:0], n) {
		b = append(b, '[')
		for i := range s.len() {
			if i > 0 {
				b = append(b, ' ')
			}
			if name := s.name(i); name != "" {
				b = append(appendString(b, name), ':')
			}
			b = appendKey(b, s.at(i))
		}
		b = append(b, ']')
	}
	return append(b, ';')
}

// appendString appends " len:s".
func appendString(b []byte, s string) []byte {
	b = strconv.AppendInt(append(b, ' '), int64(len(s)), 10)
	return append(append(b, ':'), s...)
}
