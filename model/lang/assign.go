package lang

import (
	"fmt"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"
)

// Assignments and what may be assigned to what, as go/types keeps them
// in assignments.go.

func (c *checker) assign(x *ast.Assign) {
	if x.Op != ast.ASSIGN {
		c.compoundAssign(x)
		return
	}
	tt, vt := c.assignLoc(x), c.expr(x.Value)
	c.partWrite(x)
	c.share(targetPlace(x.Target, x.Path), place(x.Value), vt, x.OpPos)
	if len(x.Path) == 0 {
		c.valued[x.Target.Name] = vt.Kind != ast.Invalid && !vt.MayBeAbsent()
	}
	if tt.Kind == ast.Invalid || vt.Kind == ast.Invalid {
		return
	}
	name := printer.LocString(x.Target, x.Path)
	switch {
	case (tt.Kind == ast.Mixed || vt.Kind == ast.Mixed) && vt.Kind != ast.Undef && tt.Kind != ast.Undef:
		if msg := Assignable(tt, vt); msg != "" {
			c.errorf(x.Value, "cannot assign %s to %s: %s", printer.ExprString(x.Value), name, msg)
		}
	case vt.Kind != ast.Undef && tt.Kind != ast.Undef && tt.Kind != vt.Kind && (vt.Kind.IsRef() || tt.Kind.IsRef()):
		c.errorf(x.Value, "cannot use %s value as %s in assignment to %s", vt.Kind, tt.Kind, name)
	case vt.Kind == ast.Undef && !tt.MayBeAbsent():
		c.errorf(x.Value, "%s is %s and cannot hold %s: give %s the type %s (a <data> without expr has it)", name, tt, printer.ExprString(x.Value), name, tt.OrAbsent())
	case vt.MayBeAbsent() && !tt.MayBeAbsent():
		c.errorf(x.Value, "%s may be undefined or null, and %s cannot be: give %s the type %s (a <data> without expr has it)", printer.ExprString(x.Value), name, name, tt.OrAbsent())
	case tt.Kind == ast.Decimal && vt.Kind == ast.Int:
	case tt.Kind == ast.Int && vt.Kind == ast.Decimal && len(x.Path) == 0:
		c.errorf(x.Value, "cannot use decimal value as int in assignment to %s: declare %s decimal (setbot:type=\"decimal\"), or scale the value to an int", name, name)
	case vt.Kind != ast.Undef && tt.Kind != vt.Kind:
		c.errorf(x.Value, "cannot use %s value as %s in assignment to %s", vt.Kind, tt.Kind, name)
	case vt.IsComposite():
		if msg := assignableGrowing(tt, vt); msg != "" {
			c.errorf(x.Value, "cannot assign %s to %s: %s", printer.ExprString(x.Value), name, msg)
		}
	}
}

// compoundAssign checks x op= v: numbers (or, for +=, strings) of one kind.
func (c *checker) compoundAssign(x *ast.Assign) {
	what := "operator " + x.Op.String()
	var k1 ast.Kind
	c.keyed = false
	if len(x.Path) > 0 {
		c.info.PartWrites = append(c.info.PartWrites, PartWrite{Path: targetPlace(x.Target, x.Path), Pos: x.Target.NamePos})
	}
	if len(x.Path) == 0 {
		k1 = c.value(x.Target, what, ast.Invalid)
	} else if t := c.loc(x.Target, x.Path); c.keyed && !c.dictKeyed {
		c.refuseKeyed(x.OpPos, x.Op)
		return
	} else if c.dictKeyed && t.Kind != ast.Invalid && (t.MayBeAbsent() || !t.Kind.IsScalar()) {
		c.refuseAt(x.OpPos, "%s on a value of dictionary %s, whose values are %s, is not modelled: an entry's value needs one kind (numbers or strings)", x.Op, printer.LocString(x.Target, x.Path[:len(x.Path)-1]), t)
		return
	} else if t.MayBeAbsent() {
		c.errorf(x.Target, "%s may be undefined or null, and %s needs a value: assign it with = first", printer.LocString(x.Target, x.Path), what)
	} else {
		k1 = t.Kind
	}
	k2 := c.value(x.Value, what, ast.Invalid)
	if x.Op == ast.ADD_ASSIGN && k1 == ast.String && concatenates(k1, k2) {
		return
	}
	if !c.operands(x.OpPos, x.Op, ast.Int, k1, k2) {
		return
	}
	if t := c.arith(x.OpPos, ast.CompoundOp[x.Op], k1, k2, x.Value); t.Kind == ast.Decimal && k1 == ast.Int {
		name := printer.LocString(x.Target, x.Path)
		c.errorf(x.Value, "%s is an int, and %s %s %s is a decimal: declare %s decimal (setbot:type=\"decimal\")", name, name, x.Op, printer.ExprString(x.Value), name)
	}
}

// assignableGrowing is Assignable for an assignment, where an array may
// be given a value that may be longer than its bound (a = a.concat([x])):
// the lowering checks the length where the assignment runs, and a path on
// which it is longer meets the array bound (Grows). A value that is longer
// on every path is an error.
func assignableGrowing(tt, vt ast.Type) string {
	if !Grows(tt, vt) {
		return Assignable(tt, vt)
	}
	if vt.Comp.MinLen > tt.Comp.Len {
		return fmt.Sprintf("it holds at most %d elements and the value has at least %d; declare a larger bound, e.g. setbot:type=\"%s\"",
			tt.Comp.Len, vt.Comp.MinLen, ast.ArrayType(tt.Comp.Elem, 0, vt.Comp.MinLen))
	}
	return Assignable(tt, ast.ArrayType(vt.Comp.Elem, vt.Comp.MinLen, tt.Comp.Len))
}

// Grows reports whether assigning a value of type vt to an array of type tt
// may make it longer than its bound.
func Grows(tt, vt ast.Type) bool {
	return tt.Kind == ast.Array && vt.Kind == ast.Array && !tt.MayBeAbsent() && vt.Comp.Len > tt.Comp.Len
}

// loc checks the location target.path written by an assignment and
// returns its declared type: what it may hold. An element is written only
// where it lies within the array for certain.
func (c *checker) loc(target *ast.Ident, path []*ast.Sel) ast.Type {
	c.keyed, c.dictKeyed = false, false
	t, ok := c.lookup(target.Name)
	if !ok {
		c.errorf(target, "%s", parser.UndeclaredMsg(target.Name))
	}
	c.info.Types[target] = t
	for i, s := range path {
		so := printer.LocString(target, path[:i])
		if s.Index != nil {
			if t.IsDict() && !t.MayBeAbsent() {
				if i == 0 && i < len(path)-1 && c.dictGuarded(target, s, path[i+1:]) {
					t = t.Comp.Elem
					continue
				}
				return c.dictLoc(so, s, t, i == len(path)-1)
			} else if str, ok := s.Index.(*ast.StrLit); ok && t.Kind == ast.Object {
				s = &ast.Sel{Pos: s.Pos, Name: str.Value}
			} else if t.Kind == ast.Object && !t.MayBeAbsent() {
				return c.keyedLoc(so, s, t, i == len(path)-1)
			} else {
				c.value(s.Index, "an index", ast.Int)
			}
		}
		switch {
		case t.Kind == ast.Invalid:
			continue
		case t.MayBeAbsent():
			c.errorAt(s.Pos, "%s may be undefined or null: assign it a whole value before a part of it", so)
			return ast.Type{}
		case s.Index != nil && t.Kind != ast.Array:
			c.errorAt(s.Pos, "%s is %s, not an array: index an array, declared with an array literal such as [1, 2] as its initial value", so, ast.Article(t.Kind))
			return ast.Type{}
		case s.Index != nil:
			if k, ok := s.Index.(*ast.IntLit); !ok || k.Value < 0 || k.Value >= int64(t.Comp.MinLen) {
				c.errorAt(s.Pos, "assignment to an element of %s that may lie past its end (it has %d elements for certain): "+
					"index with a constant below that, or assign the whole array", so, t.Comp.MinLen)
				return ast.Type{}
			}
			t = t.Comp.Elem
		case t.Kind != ast.Object:
			c.errorAt(s.Pos, "%s is %s, not an object: assign .%s of an object, declared with an object literal such as {%s: ...} as its initial value", so, ast.Article(t.Kind), s.Name, s.Name)
			return ast.Type{}
		default:
			ft, ok := t.Field(s.Name)
			if !ok {
				c.errorAt(s.Pos, "%s has no field %s: an object keeps the fields of its initial value; declare %s there", so, s.Name, s.Name)
				return ast.Type{}
			}
			t = ft
		}
	}
	return t
}

// keyedLoc checks so[k], a field of so, an object of type t, written by a
// key k computed when it runs, and returns its type: the written field is
// the one k names, and a path where k names none meets the keys bound
// (ECMAScript would add the key, which the object's type does not hold).
// The key ends the location (last).
func (c *checker) keyedLoc(so string, s *ast.Sel, t ast.Type, last bool) ast.Type {
	if c.value(s.Index, "a key", ast.String) == ast.Invalid {
		return ast.Type{}
	}
	what := so + "[" + printer.ExprString(s.Index) + "]"
	c.keyed = true
	switch {
	case !last:
		c.refuseAt(s.Pos, "assignment to a part of %s, a field selected by a key computed when it runs: assign the field itself, %s = ...", what, what)
		return ast.Type{}
	case len(t.Comp.Fields) == 0:
		c.refuseAt(s.Pos, "assignment to %s, a key computed when it runs, of %s, which has no keys: setbot holds the keys of an object's initial value; give every key the code writes there", what, so)
		return ast.Type{}
	}
	return c.keyedFields(s.Pos, "assignment to "+what, so, t)
}

// refuseKeyed refuses op (++, +=, ...) on a field selected by a key
// computed when it runs: reading it may give undefined where the key
// names no field.
func (c *checker) refuseKeyed(pos source.Pos, op ast.Token) {
	if c.dictKeyed {
		c.refuseAt(pos, "%s on a value of a dictionary (an object whose keys are computed when it runs) is not modelled: write += 1 or -= 1", op)
		return
	}
	c.refuseAt(pos, "%s on a field selected by a key computed when it runs is not modelled: read and assign it, o[k] = o[k] ... (where k names no field, o[k] is undefined)", op)
}

// ElementWrite reports whether x is a[i] = v of an element of the
// variable a, of type t, at an index that is not a constant a has for
// certain: the element may lie within the array or past its end. The
// lowering writes the element where i lies within the array, appends it
// where i is the length, and cuts any other path with the index bound
// (vocab.BoundIndex): ECMAScript leaves holes past the end, and makes a
// negative index a property.
func ElementWrite(x *ast.Assign, t ast.Type) bool {
	if x.Op != ast.ASSIGN || len(x.Path) != 1 || x.Path[0].Index == nil || t.Kind != ast.Array || t.MayBeAbsent() {
		return false
	}
	switch k := x.Path[0].Index.(type) {
	case *ast.StrLit:
		return false
	case *ast.IntLit:
		return k.Value < 0 || k.Value >= int64(t.Comp.MinLen)
	}
	return true
}

// assignLoc checks the location x = v assigns and returns its type: that
// of an element for a[i] = v of ElementWrite, else loc's.
func (c *checker) assignLoc(x *ast.Assign) ast.Type {
	t, ok := c.lookup(x.Target.Name)
	if !ok || !ElementWrite(x, t) {
		return c.loc(x.Target, x.Path)
	}
	c.info.Types[x.Target] = t
	if c.value(x.Path[0].Index, "an index", ast.Int) == ast.Invalid {
		return ast.Type{}
	}
	return t.Comp.Elem
}

// Assignable returns why a value of type vt cannot be stored where tt is
// declared, or "" when it can. Arrays need a bound at least as large and
// no fewer elements than the target keeps; objects the same fields.
func Assignable(tt, vt ast.Type) string {
	switch {
	case tt.Kind == ast.Invalid || vt.Kind == ast.Invalid || tt.Kind == ast.Undef:
		return ""
	case vt.Kind == ast.Undef:
		if !tt.MayBeAbsent() {
			return fmt.Sprintf("%s cannot be undefined", tt)
		}
		return ""
	case vt.MayBeAbsent() && !tt.MayBeAbsent():
		return fmt.Sprintf("the value may be undefined, and %s cannot be", tt)
	case tt.Kind == ast.Mixed || vt.Kind == ast.Mixed:
		return assignableMixed(tt, vt)
	case tt.Kind == ast.Decimal && vt.Kind == ast.Int:
	case tt.Kind != vt.Kind:
		return fmt.Sprintf("cannot use %s value as %s", vt.Kind, tt.Kind)
	case tt.Kind == ast.Array:
		if msg := Assignable(tt.Comp.Elem, vt.Comp.Elem); msg != "" && vt.Comp.Len > 0 {
			return "elements: " + msg
		}
		if vt.Comp.Len > tt.Comp.Len {
			return fmt.Sprintf("it holds at most %d elements and the value up to %d; declare a larger bound, e.g. setbot:type=\"%s\"",
				tt.Comp.Len, vt.Comp.Len, ast.ArrayType(tt.Comp.Elem, 0, vt.Comp.Len))
		}
		if vt.Comp.MinLen < tt.Comp.MinLen {
			return fmt.Sprintf("it has %d elements for certain and the value may have %d; declare its type, e.g. setbot:type=\"%s\", which allows fewer",
				tt.Comp.MinLen, vt.Comp.MinLen, tt)
		}
	case tt.IsDict():
		return assignableDict(tt, vt)
	case vt.IsDict():
		return fmt.Sprintf("the value is an object used as a dictionary (%s), and %s one of fixed fields", vt, tt)
	case tt.Kind == ast.Object:
		return assignableObject(tt, vt)
	}
	return ""
}

// assignableDict is Assignable for a dictionary of type tt: a dictionary
// of values it holds, or an object whose fields' values it holds (an
// object literal, whose fields become its entries).
func assignableDict(tt, vt ast.Type) string {
	if vt.IsDict() {
		if msg := Assignable(tt.Comp.Elem, vt.Comp.Elem); msg != "" {
			return "values: " + msg
		}
		return ""
	}
	if len(vt.Comp.Fields) > tt.Comp.Len {
		return fmt.Sprintf("a dictionary holds at most %d keys (the keys bound) and the object has %d", tt.Comp.Len, len(vt.Comp.Fields))
	}
	for _, f := range vt.Comp.Fields {
		if msg := Assignable(tt.Comp.Elem, f.Type); msg != "" {
			return "field " + f.Name + ": " + msg
		}
	}
	return ""
}

// assignableObject is Assignable for two object types: the value has no
// field the target lacks, and lacks only the target's Optional fields
// (which it leaves undefined); its fields are assignable to the target's.
func assignableObject(tt, vt ast.Type) string {
	differ := func() string {
		if w, field, ok := ast.WidenObjects(tt, vt); !ok {
			return fmt.Sprintf("the fields differ (%s and %s), and field %s does not widen to hold both: an object field that some values lack is undefined there, "+
				"and one that may be undefined is modelled only for numbers, strings and booleans", tt, vt, field)
		} else {
			return fmt.Sprintf("the fields differ (%s and %s): an object keeps the fields of its type; setbot:type=\"%s\" holds both", tt, vt, w)
		}
	}
	for _, g := range vt.Comp.Fields {
		if _, ok := tt.Field(g.Name); !ok {
			return differ()
		}
	}
	for _, f := range tt.Comp.Fields {
		g, ok := vt.Lookup(f.Name)
		if !ok && !f.Optional {
			return differ()
		}
		if !ok {
			continue
		}
		if g.Optional && !f.Optional {
			return fmt.Sprintf("field %s: some values lack it, and %s has it in every value", f.Name, tt)
		}
		if msg := Assignable(f.Type, g.Type); msg != "" {
			return "field " + f.Name + ": " + msg
		}
	}
	return ""
}

// assignableMixed is Assignable where tt or vt is Mixed: every kind a
// value of vt may have is one tt holds (an int is a decimal's value).
func assignableMixed(tt, vt ast.Type) string {
	if !(tt.Kind == ast.Mixed || tt.Kind.IsScalar()) || !(vt.Kind == ast.Mixed || vt.Kind.IsScalar()) {
		return fmt.Sprintf("cannot use %s value as %s", vt, tt)
	}
	holds := make(map[ast.Kind]bool)
	for _, k := range tt.Alternatives() {
		holds[k] = true
	}
	for _, k := range vt.Alternatives() {
		if !holds[k] && !(k == ast.Int && holds[ast.Decimal]) {
			return fmt.Sprintf("the value may be %s, and %s holds %s", ast.Article(k), tt, mixedWords(tt))
		}
	}
	return ""
}
