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
// Undef is the kind of undefined and null alone: the type of those
// literals, and of a variable that is never given a value.
const (
	Invalid Kind = iota
	Int
	Bool
	String
	Undef
)

func (k Kind) String() string {
	switch k {
	case Int:
		return "int"
	case Bool:
		return "bool"
	case String:
		return "string"
	case Undef:
		return "undefined"
	}
	return "invalid"
}

// Type is int, int[Lo..Hi], bool or string, or undefined alone. Absent
// marks a type whose values also include undefined and null (ECMAScript's
// "no value"); a variable may hold those and one other kind.
type Type struct {
	Kind   Kind
	Ranged bool // Int only: values lie in [Lo, Hi]
	Lo, Hi int64
	Absent bool
}

// Predeclared types.
var (
	IntType    = Type{Kind: Int}
	BoolType   = Type{Kind: Bool}
	StringType = Type{Kind: String}
	UndefType  = Type{Kind: Undef, Absent: true}
)

// MayBeAbsent reports whether a value of t may be undefined or null.
func (t Type) MayBeAbsent() bool { return t.Absent || t.Kind == Undef }

// OrAbsent returns t with undefined and null added.
func (t Type) OrAbsent() Type { t.Absent = true; return t }

// RangeType returns int[lo..hi].
func RangeType(lo, hi int64) Type { return Type{Kind: Int, Ranged: true, Lo: lo, Hi: hi} }

func (t Type) String() string {
	s := t.Kind.String()
	if t.Kind == Int && t.Ranged {
		s = fmt.Sprintf("int[%d..%d]", t.Lo, t.Hi)
	}
	if t.Absent && t.Kind != Undef {
		s += "|undefined"
	}
	return s
}

// Contains reports whether the integer v is a value of t.
func (t Type) Contains(v int64) bool {
	return t.Kind == Int && (!t.Ranged || (t.Lo <= v && v <= t.Hi))
}

// ParseType parses "int", "int[lo..hi]", "bool" or "string" (spaces
// allowed around the bounds), optionally followed by "|undefined".
func ParseType(s string) (Type, error) {
	s = strings.TrimSpace(s)
	if base, ok := strings.CutSuffix(s, "|undefined"); ok {
		t, err := ParseType(base)
		return t.OrAbsent(), err
	}
	switch s {
	case "int":
		return IntType, nil
	case "bool", "boolean":
		return BoolType, nil
	case "string":
		return StringType, nil
	}
	rest, ok := strings.CutPrefix(s, "int")
	if !ok {
		return Type{}, fmt.Errorf("unknown type %q (want int, int[lo..hi], bool or string, optionally with |undefined)", s)
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
