package ast

import (
	"fmt"
	"math/big"
	"sort"
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
	Array  // a bounded array: Type.Comp gives its elements and bound
	Object // an object with a fixed set of fields: Type.Comp gives them
	// EventRef and IOProcessorsRef are references to the platform's
	// objects, which ECMAScript compares by identity: an _event object (a
	// new one for every event processed) and _ioprocessors (one for the
	// session). Their fields are read through _event and _ioprocessors,
	// never through a stored reference.
	EventRef
	IOProcessorsRef
	Decimal // an exact rational number, ECMAScript's number with a fraction
	// Mixed is the kind of a value whose kind is known only as the machine
	// runs: one of Type.Kinds (an int or a string, say), which a variable
	// assigned values of different kinds and a ?: of two kinds have.
	// Lowering carries it as one value per kind and a tag that says which
	// holds (MixedTag).
	Mixed
)

// KindSet is a set of the scalar kinds Int, Decimal, Bool and String: the
// kinds a Mixed value may have.
type KindSet uint16

// Has reports whether k is in s.
func (s KindSet) Has(k Kind) bool { return s&(1<<k) != 0 }

// With returns s with k added.
func (s KindSet) With(k Kind) KindSet { return s | 1<<k }

// List returns the kinds in s, in the order of their values.
func (s KindSet) List() []Kind {
	var out []Kind
	for _, k := range []Kind{Int, Bool, String, Decimal} {
		if s.Has(k) {
			out = append(out, k)
		}
	}
	return out
}

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
	case Array:
		return "array"
	case Object:
		return "object"
	case EventRef:
		return "_event"
	case IOProcessorsRef:
		return "_ioprocessors"
	case Decimal:
		return "decimal"
	case Mixed:
		return "a value of several kinds"
	}
	return "invalid"
}

// IsScalar reports whether k is the kind of a plain value, which a Mixed
// value may be one of: int, decimal, bool or string.
func (k Kind) IsScalar() bool { return k == Int || k == Decimal || k == Bool || k == String }

// IsRef reports whether k is the kind of a reference to a platform object.
func (k Kind) IsRef() bool { return k == EventRef || k == IOProcessorsRef }

// IsNumber reports whether k is a kind of number: int or decimal. An int
// meets a decimal as the decimal of its value.
func (k Kind) IsNumber() bool { return k == Int || k == Decimal }

// Type is int, int[Lo..Hi], decimal, decimal[Lo..Hi], bool or string,
// undefined alone, or a bounded
// array or an object of those. Absent marks a type whose values also
// include undefined and null (ECMAScript's "no value"); a variable may hold
// those and one other kind.
//
// Types are comparable with ==, which compares composite types by identity
// (Comp is a pointer); Identical compares them by structure.
type Type struct {
	Kind   Kind
	Ranged bool // Int and Decimal only: values lie in [Lo, Hi]
	Lo, Hi int64
	Absent bool
	Comp   *Composite // Array and Object only
	Kinds  KindSet    // Mixed only: the kinds of its values, two or more
}

// Composite describes an array or an object type.
type Composite struct {
	// Array: the elements' type, and the fewest and the most elements an
	// array of the type holds.
	Elem        Type
	MinLen, Len int
	// Object: the fields, sorted by name.
	Fields []Field
	// Dict marks an object used as a dictionary, written and read by keys
	// computed when it runs: a bounded association of up to DictLen
	// entries, each a key (a string, as ECMAScript makes every key) and a
	// value of type Elem, instead of Fields.
	Dict bool
}

// DictLen is how many entries a dictionary (Composite.Dict) holds: a
// path that writes one more key meets the keys bound (vocab.BoundKeys).
const DictLen = 8

// DictType returns the type of objects used as dictionaries whose values
// are of type elem.
func DictType(elem Type) Type {
	return Type{Kind: Object, Comp: &Composite{Elem: elem, Len: DictLen, Dict: true}}
}

// IsDict reports whether t is the type of an object used as a dictionary.
func (t Type) IsDict() bool { return t.Kind == Object && t.Comp != nil && t.Comp.Dict }

// Field is one field of an object type.
type Field struct {
	Name string
	Type Type
	// Optional marks a field that some values of the type lack: a
	// variable assigned objects of different fields (WidenObjects) holds
	// each field that one of them lacks as undefined, which reading
	// gives, but 'f' in o cannot tell from one set to undefined.
	Optional bool
}

// ArrayType returns the type of arrays of elem with minLen to maxLen
// elements.
func ArrayType(elem Type, minLen, maxLen int) Type {
	return Type{Kind: Array, Comp: &Composite{Elem: elem, MinLen: minLen, Len: maxLen}}
}

// ObjectType returns the type of objects with the given fields, which it
// sorts by name.
func ObjectType(fields []Field) Type {
	fs := append([]Field(nil), fields...)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	return Type{Kind: Object, Comp: &Composite{Fields: fs}}
}

// Field returns the type of the named field of an object type.
func (t Type) Field(name string) (Type, bool) {
	f, ok := t.Lookup(name)
	return f.Type, ok
}

// Lookup returns the named field of an object type.
func (t Type) Lookup(name string) (Field, bool) {
	if t.Kind != Object {
		return Field{}, false
	}
	for _, f := range t.Comp.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// IsComposite reports whether t is an array or an object type.
func (t Type) IsComposite() bool { return t.Kind == Array || t.Kind == Object }

// Predeclared types.
var (
	IntType     = Type{Kind: Int}
	DecimalType = Type{Kind: Decimal}
	BoolType    = Type{Kind: Bool}
	StringType  = Type{Kind: String}
	UndefType   = Type{Kind: Undef, Absent: true}
	// EventType is the type of _event: undefined until the first event.
	EventType        = Type{Kind: EventRef, Absent: true}
	IOProcessorsType = Type{Kind: IOProcessorsRef}
)

// MayBeAbsent reports whether a value of t may be undefined or null.
func (t Type) MayBeAbsent() bool { return t.Absent || t.Kind == Undef }

// OrAbsent returns t with undefined and null added.
func (t Type) OrAbsent() Type { t.Absent = true; return t }

// Alternatives returns the kinds a value of t, a scalar type, has when it
// is not undefined or null: Kinds of a Mixed type, t's kind otherwise.
func (t Type) Alternatives() []Kind {
	if t.Kind == Mixed {
		return t.Kinds.List()
	}
	return []Kind{t.Kind}
}

// Widen returns the type of a value that is of t1 or of t2, two types of
// scalars (or undefined alone): their kind where they share one (numbers
// share decimal), else Mixed of both kinds; undefined where either may be.
// It reports false where either is not a scalar type.
func Widen(t1, t2 Type) (Type, bool) {
	var set KindSet
	for _, t := range []Type{t1, t2} {
		switch {
		case t.Kind == Undef:
		case t.Kind == Mixed || t.Kind.IsScalar():
			for _, k := range t.Alternatives() {
				set = set.With(k)
			}
		default:
			return Type{}, false
		}
	}
	if set.Has(Int) && set.Has(Decimal) {
		set &^= 1 << Int // ECMAScript has one number type: an int is a decimal
	}
	absent := t1.MayBeAbsent() || t2.MayBeAbsent()
	switch ks := set.List(); len(ks) {
	case 0:
		return UndefType, true
	case 1:
		return Type{Kind: ks[0], Absent: absent}, true
	}
	return Type{Kind: Mixed, Kinds: set, Absent: absent}, true
}

// WidenObjects returns the type of a value that is an object of t1 or
// one of t2, two object types with different fields, as ECMAScript's
// variables hold any object: every field of either, a field that one of
// them lacks Optional and undefined where it lacks it (an object or array
// there too, with a tag); fields of both widen to what holds either's
// values (objects field by field, scalars by Widen to one kind). It
// reports false, with the field that does not widen, where the two types
// of a field do not widen to one kind.
func WidenObjects(t1, t2 Type) (Type, string, bool) {
	var fields []Field
	for _, f := range t1.Comp.Fields {
		g, ok := t2.Field(f.Name)
		if !ok {
			fields = append(fields, Field{Name: f.Name, Type: f.Type.OrAbsent(), Optional: true})
			continue
		}
		w, ok := widenField(f.Type, g)
		if !ok {
			return Type{}, f.Name, false
		}
		fields = append(fields, Field{Name: f.Name, Type: w, Optional: f.Optional || t2.optional(f.Name)})
	}
	for _, g := range t2.Comp.Fields {
		if _, ok := t1.Field(g.Name); ok {
			continue
		}
		fields = append(fields, Field{Name: g.Name, Type: g.Type.OrAbsent(), Optional: true})
	}
	w := ObjectType(fields)
	w.Absent = t1.Absent || t2.Absent
	return w, "", true
}

// widenField widens the types t1 and t2 of one field (WidenObjects).
func widenField(t1, t2 Type) (Type, bool) {
	switch {
	case t1.Kind == Object && t2.Kind == Object:
		w, _, ok := WidenObjects(t1, t2)
		return w, ok
	case t1.IsComposite() || t2.IsComposite():
		return t1, t1.Kind == t2.Kind && t1.String() == t2.String()
	case t1.Kind == t2.Kind && t1.Absent == t2.Absent:
		return t1, true // keeps a range
	}
	w, ok := Widen(t1, t2)
	return w, ok && w.Kind != Mixed
}

// optional reports whether the field name of t, an object type, is
// Optional.
func (t Type) optional(name string) bool {
	f, _ := t.Lookup(name)
	return f.Optional
}

// MixedTag returns the tag (AbsentName) that says a value of t, a Mixed
// type, is of kind k: AbsentValue for its first kind, and -1, -2, ... for
// the others, so that the tags with undefined and null (1 and 2) form
// one range, MixedTagType.
func MixedTag(t Type, k Kind) int64 {
	for i, a := range t.Kinds.List() {
		if a == k {
			return int64(-i)
		}
	}
	panic("lang: kind " + k.String() + " is not one of " + t.String())
}

// MixedTagType is the type of the tag of a value of t, a Mixed type.
func MixedTagType(t Type) Type {
	hi := int64(AbsentValue)
	if t.Absent {
		hi = AbsentNull
	}
	return RangeType(1-int64(len(t.Kinds.List())), hi)
}

// KindName is the name of the value of kind k of name, a Mixed value.
// SCXML reserves names that start with an underscore for the platform.
func KindName(name string, k Kind) string { return kindPrefix + k.String() + "_" + name }

const kindPrefix = "_as_"

// KindOf returns the name whose value of a kind name is (KindName), and
// the kind; otherwise name itself and Invalid.
func KindOf(name string) (of string, k Kind) {
	rest, ok := strings.CutPrefix(name, kindPrefix)
	if !ok {
		return name, Invalid
	}
	for _, k := range []Kind{Int, Bool, String, Decimal} {
		if of, ok := strings.CutPrefix(rest, k.String()+"_"); ok {
			return of, k
		}
	}
	return name, Invalid
}

// RangeType returns int[lo..hi].
func RangeType(lo, hi int64) Type { return Type{Kind: Int, Ranged: true, Lo: lo, Hi: hi} }

// String returns t in the syntax ParseType reads (an array type prints its
// bound, not its fewest elements).
func (t Type) String() string {
	s := t.Kind.String()
	switch {
	case t.Kind.IsNumber() && t.Ranged:
		s = fmt.Sprintf("%s[%d..%d]", t.Kind, t.Lo, t.Hi)
	case t.Kind == Array:
		e := t.Comp.Elem.String()
		if t.Comp.Elem.Absent {
			e = "(" + e + ")"
		}
		s = fmt.Sprintf("%s[%d]", e, t.Comp.Len)
	case t.Kind == Mixed:
		var ks []string
		for _, k := range t.Kinds.List() {
			ks = append(ks, k.String())
		}
		s = strings.Join(ks, "|")
	case t.IsDict():
		s = "{[string]: " + t.Comp.Elem.String() + "}"
	case t.Kind == Object:
		var b strings.Builder
		b.WriteString("{")
		for i, f := range t.Comp.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(FieldKey(f.Name))
			if f.Optional {
				b.WriteString("?")
			}
			b.WriteString(": " + f.Type.String())
		}
		b.WriteString("}")
		s = b.String()
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

// ContainsDecimal reports whether the rational v is a value of t, a
// decimal type.
func (t Type) ContainsDecimal(v *big.Rat) bool {
	return t.Kind == Decimal && (!t.Ranged || (new(big.Rat).SetInt64(t.Lo).Cmp(v) <= 0 && v.Cmp(new(big.Rat).SetInt64(t.Hi)) <= 0))
}

// ParseType parses a type:
//
//	type   = base { "[" [ M ".." ] N "]" } { "|" base } [ "|undefined" ]
//	base   = ("int" | "decimal") [ "[" lo ".." hi "]" ] | "bool" | "string" | "(" type ")"
//	       | "{" name ":" type { "," name ":" type } "}"
//
// where base[N] is an array of at most N elements of base, and base[M..N]
// one of M to N elements: int[4], an array of up to 4 ints; int[0..9][4],
// of up to 4 ints in 0..9; int[3][2], of up to 2 arrays of up to 3 ints
// each; {x: int, ok: bool}[8], of up to 8 objects; string[2..2], of
// exactly 2 strings. A bracket directly after int that holds ".." is a
// range of values, never of lengths: an array of 2 or 3 ints is
// (int)[2..3]. The same holds for decimal, whose range has integer bounds:
// decimal[0..100]. int|string holds an int or a string (a Mixed type: of
// int, decimal, bool and string, without ranges). Spaces are allowed
// between the parts.
func ParseType(s string) (Type, error) {
	p := typeParser{s: s}
	t, err := p.typ()
	if err == nil {
		p.space()
		if p.i < len(p.s) {
			err = fmt.Errorf("unexpected %q after the type in %q", p.s[p.i:], s)
		}
	}
	if err != nil {
		return Type{}, err
	}
	return t, nil
}

// A typeParser reads the type syntax of ParseType.
type typeParser struct {
	s string
	i int
}

func (p *typeParser) space() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\n\r", rune(p.s[p.i])) {
		p.i++
	}
}

// eat consumes tok (after spaces) if it comes next.
func (p *typeParser) eat(tok string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *typeParser) word() string {
	p.space()
	j := p.i
	for j < len(p.s) && IsIdentChar(p.s[j]) {
		j++
	}
	w := p.s[p.i:j]
	p.i = j
	return w
}

func (p *typeParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%s in type %q (want int, int[lo..hi], decimal, bool, string, an array T[N] or an object {name: T, ...}, optionally with |undefined)", fmt.Sprintf(format, args...), p.s)
}

func (p *typeParser) typ() (Type, error) {
	t, err := p.base()
	if err != nil {
		return t, err
	}
	for p.eat("[") {
		fewest, bound := 0, -1
		n, err := strconv.Atoi(p.word())
		if err == nil && p.eat("..") {
			fewest = n
			n, err = strconv.Atoi(p.word())
		}
		if err == nil {
			bound = n
		}
		if bound < 0 || fewest > bound || !p.eat("]") {
			return Type{}, p.errorf("malformed array bound")
		}
		if bound > MaxArrayLen {
			return Type{}, p.errorf("array bound %d above the largest, %d", bound, MaxArrayLen)
		}
		if t.Kind == Mixed {
			return Type{}, p.errorf("an array's elements hold one kind, not %s", t)
		}
		t = ArrayType(t, fewest, bound)
	}
	for !p.eat("|undefined") {
		if !p.eat("|") {
			return t, nil
		}
		u, err := p.base()
		if err != nil {
			return u, err
		}
		w, ok := Widen(t, u)
		if !ok || u.Ranged || t.Ranged {
			return Type{}, p.errorf("only int, decimal, bool and string, without ranges, hold values of several kinds")
		}
		t = w
	}
	return t.OrAbsent(), nil
}

func (p *typeParser) base() (Type, error) {
	switch {
	case p.eat("("):
		t, err := p.typ()
		if err == nil && !p.eat(")") {
			err = p.errorf("missing )")
		}
		return t, err
	case p.eat("{"):
		var fields []Field
		seen := make(map[string]bool)
		for !p.eat("}") {
			if len(fields) > 0 && !p.eat(",") {
				return Type{}, p.errorf("expected , or }")
			}
			name := p.word()
			optional := p.eat("?")
			if !IsIdent(name) || !p.eat(":") {
				return Type{}, p.errorf("malformed field")
			}
			if seen[name] {
				return Type{}, p.errorf("field %s declared twice", name)
			}
			seen[name] = true
			t, err := p.typ()
			if err != nil {
				return t, err
			}
			if t.Kind == Mixed {
				return Type{}, p.errorf("field %s holds %s: an object's fields hold one kind each", name, t)
			}
			if optional && !t.MayBeAbsent() {
				return Type{}, p.errorf("field %s? holds %s: a field that some values lack holds a value that may be undefined", name, t)
			}
			fields = append(fields, Field{Name: name, Type: t, Optional: optional})
		}
		return ObjectType(fields), nil
	}
	switch w := p.word(); w {
	case "bool", "boolean":
		return BoolType, nil
	case "string":
		return StringType, nil
	case "int", "decimal":
		k := Int
		if w == "decimal" {
			k = Decimal
		}
		save := p.i
		if !p.eat("[") {
			return Type{Kind: k}, nil
		}
		inner, _, ok := strings.Cut(p.s[p.i:], "]")
		if !ok || !strings.Contains(inner, "..") {
			p.i = save // an array bound
			return Type{Kind: k}, nil
		}
		p.i += len(inner) + 1
		lo, hi, _ := strings.Cut(inner, "..")
		l, err1 := strconv.ParseInt(strings.TrimSpace(lo), 10, 64)
		h, err2 := strconv.ParseInt(strings.TrimSpace(hi), 10, 64)
		if err1 != nil || err2 != nil {
			if k == Decimal {
				return Type{}, fmt.Errorf("malformed range bounds in %q: the bounds of a decimal range are integers", p.s)
			}
			return Type{}, fmt.Errorf("malformed range bounds in %q", p.s)
		}
		if l > h {
			return Type{}, fmt.Errorf("empty range in %q: %d > %d", p.s, l, h)
		}
		return Type{Kind: k, Ranged: true, Lo: l, Hi: h}, nil
	case "":
		return Type{}, p.errorf("missing type")
	default:
		return Type{}, fmt.Errorf("unknown type %q in %q (want int, int[lo..hi], decimal, bool, string, an array T[N] or an object {name: T, ...}, optionally with |undefined)", w, p.s)
	}
}

// MaxArrayLen is the largest array bound: every element becomes variables
// of its own, so a larger one would make models no one can analyse.
const MaxArrayLen = 256

// GrowArrayLen is the bound of an array variable without a setbot:type
// that the code makes longer than its initial value (a = a.concat([x])):
// the readers give it room for this many elements, and a path on which it
// grows further meets the array bound (vocab.BoundArray). A setbot:type sets any
// other bound up to MaxArrayLen.
const GrowArrayLen = 16

// The tags of a value that may be absent.
const (
	AbsentValue     = 0 // a value of the variable's kind
	AbsentUndefined = 1
	AbsentNull      = 2
)

// AbsentType is the type of a tag.
var AbsentType = RangeType(AbsentValue, AbsentNull)

// LiteralKind returns the kind of a literal, Invalid for anything else.
func LiteralKind(e Expr) Kind {
	switch e.(type) {
	case *IntLit:
		return Int
	case *DecLit:
		return Decimal
	case *StrLit:
		return String
	case *BoolLit:
		return Bool
	}
	return Invalid
}

// Article is the kind with its indefinite article, as messages say it
// ("an int", "a string"; undefined alone).
func Article(k Kind) string {
	switch k {
	case Int, Array, Object:
		return "an " + k.String()
	case Decimal:
		return "a decimal"
	case Undef:
		return "undefined"
	}
	return "a " + k.String()
}

// IsEvent reports whether e is _event itself.
func IsEvent(e Expr) bool {
	x, ok := e.(*EventField)
	return ok && x.Field == ""
}
