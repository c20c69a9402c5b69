package lang

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is the basic kind of a type.
type Kind int

// The kinds. Invalid is the zero value: "no type yet" (an inferred
// declaration before checking) or the type of an erroneous expression.
const (
	Invalid Kind = iota
	Int
	Bool
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "int"
	case Bool:
		return "bool"
	}
	return "invalid"
}

// Type is int, int[Lo..Hi] or bool.
type Type struct {
	Kind   Kind
	Ranged bool // Int only: values lie in [Lo, Hi]
	Lo, Hi int64
}

// Predeclared types.
var (
	IntType  = Type{Kind: Int}
	BoolType = Type{Kind: Bool}
)

// RangeType returns int[lo..hi].
func RangeType(lo, hi int64) Type { return Type{Kind: Int, Ranged: true, Lo: lo, Hi: hi} }

func (t Type) String() string {
	if t.Kind == Int && t.Ranged {
		return fmt.Sprintf("int[%d..%d]", t.Lo, t.Hi)
	}
	return t.Kind.String()
}

// Contains reports whether the integer v is a value of t.
func (t Type) Contains(v int64) bool {
	return t.Kind == Int && (!t.Ranged || (t.Lo <= v && v <= t.Hi))
}

// ParseType parses "int", "int[lo..hi]" or "bool" (spaces allowed around
// the bounds).
func ParseType(s string) (Type, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "int":
		return IntType, nil
	case "bool", "boolean":
		return BoolType, nil
	}
	rest, ok := strings.CutPrefix(s, "int")
	if !ok {
		return Type{}, fmt.Errorf("unknown type %q (want int, int[lo..hi] or bool)", s)
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, "[") || !strings.HasSuffix(rest, "]") {
		return Type{}, fmt.Errorf("malformed type %q (want int[lo..hi])", s)
	}
	lo, hi, ok := strings.Cut(rest[1:len(rest)-1], "..")
	if !ok {
		return Type{}, fmt.Errorf("malformed range in %q (want int[lo..hi])", s)
	}
	l, err1 := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
	h, err2 := strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
	if err1 != nil || err2 != nil {
		return Type{}, fmt.Errorf("malformed range bounds in %q", s)
	}
	if l > h {
		return Type{}, fmt.Errorf("empty range in %q: %d > %d", s, l, h)
	}
	return RangeType(l, h), nil
}
