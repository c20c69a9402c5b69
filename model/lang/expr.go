package lang

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/lang/simplify"
	"github.com/setbot/setbot/model/source"
)

// Expressions, as go/types keeps them in expr.go: literals, names,
// operators, composite values, and the joins of types.

// expr returns the type of e, recording it; the type is Invalid after an
// error, and errors are not repeated for enclosing expressions.
func (c *checker) expr(e ast.Expr) ast.Type {
	t := c.exprType(e)
	c.info.Types[e] = t
	return t
}

// exprType dispatches on the construct, as go/types' exprInternal does:
// literals and names here, operators and composite values in their own
// functions, calls, methods and conversions in call.go.
func (c *checker) exprType(e ast.Expr) ast.Type {
	switch x := e.(type) {
	case *ast.IntLit, *ast.DecLit, *ast.BoolLit, *ast.StrLit, *ast.Absent:
		return c.literal(x)
	case *ast.Ident:
		return c.ident(x)
	case *ast.EventParam:
		return c.eventParam(x)
	case *ast.EventField:
		return c.eventField(x)
	case *ast.SysVar:
		if x.Name == "_ioprocessors" && x.Processor == "" {
			return ast.IOProcessorsType
		}
		return ast.StringType
	case *ast.InState:
		if c.env.State != nil && !c.env.State(x.State) {
			c.errorf(x, "unknown state '%s' in In()", x.State)
		}
		return ast.BoolType
	case *ast.TypeOf:
		c.expr(x.X)
		return ast.StringType
	case *ast.Unary:
		return c.unary(x)
	case *ast.Binary:
		return c.binary(x)
	case *ast.Cond:
		return c.condExpr(x)
	case *ast.ArrayLit:
		return c.arrayLit(x)
	case *ast.ObjectLit:
		return c.objectLit(x)
	case *ast.Index:
		return c.index(x)
	case *ast.Member:
		return c.member(x, x.X, c.expr(x.X), x.Name)
	}
	return c.callType(e)
}

// literal returns the type of a literal, recording a decimal written
// inexactly.
func (c *checker) literal(e ast.Expr) ast.Type {
	switch x := e.(type) {
	case *ast.IntLit:
		return ast.IntType
	case *ast.DecLit:
		if x.Rounded {
			c.info.Inexact = append(c.info.Inexact, x)
		}
		return ast.DecimalType
	case *ast.BoolLit:
		return ast.BoolType
	case *ast.StrLit:
		return ast.StringType
	}
	return ast.UndefType // *Absent: undefined or null
}

// eventParam returns the type of _event.data.Name.
func (c *checker) eventParam(x *ast.EventParam) ast.Type {
	if c.env.Param == nil {
		c.errorf(x, "no event parameters in scope")
		return ast.Type{}
	}
	t, ok := c.env.Param(x.Name)
	if !ok && x.Name == ast.DataParam {
		c.refusef(x, "_event.data as a whole is an object here (the event has named parameters): objects are not supported yet; read one parameter, _event.data.NAME")
	} else if !ok {
		c.errorf(x, "event parameter %s is not declared: declare it with a <setbot:param> of the event, or pass it in every send", x.Name)
	}
	return t
}

// condExpr types c ? a : b: a value of a's type or b's, joined (join);
// where the condition is a constant (true ? 'a' : undefined), the type of
// the branch it takes, as the lowering folds it.
func (c *checker) condExpr(x *ast.Cond) ast.Type {
	c.cond(x.Cond)
	var t1, t2 ast.Type
	c.guarded(x.Cond, true, func() { t1 = c.expr(x.Then) })
	c.guarded(x.Cond, false, func() { t2 = c.expr(x.Else) })
	if then, ok := ConstCond(x); ok {
		if then {
			return t1
		}
		return t2
	}
	return c.join(x.Question, "?: branches", t1, t2)
}

// objectLit types {f: e, ...}: an object of those fields, each of one
// kind.
func (c *checker) objectLit(x *ast.ObjectLit) ast.Type {
	var fields []ast.Field
	for _, f := range x.Fields {
		t := c.expr(f.Value)
		if t.Kind.IsRef() {
			c.refusef(f.Value, "%s", parser.RefPartMsg(t.Kind))
			return ast.Type{}
		}
		if t.Kind == ast.Mixed {
			c.refusef(f.Value, "%s", mixedPartMsg(t, t, "field "+f.Name))
			return ast.Type{}
		}
		if t.Kind == ast.Invalid {
			return ast.Type{}
		}
		fields = append(fields, ast.Field{Name: f.Name, Type: t})
	}
	return ast.ObjectType(fields)
}

// eventField returns the type of a field of _event (SCXML §5.10.1): name
// and type are strings; sendid, origin and origintype strings where the
// event has them and undefined otherwise, as is invokeid (defined for the
// events an invoked child sends its parent). _event itself is an object,
// undefined before the first event.
func (c *checker) eventField(x *ast.EventField) ast.Type {
	switch x.Field {
	case "":
		return ast.EventType
	case "name", "type":
		return ast.StringType
	case "sendid", "origin", "origintype", "invokeid":
		return ast.StringType.OrAbsent()
	}
	c.errorf(x, "%s", parser.MemberMsg("_event."+x.Field))
	return ast.Type{}
}

// join returns the type of a value that is either a of t1 or of t2: their
// common kind, with undefined when either may be undefined.
func (c *checker) join(pos source.Pos, what string, t1, t2 ast.Type) ast.Type {
	absent := t1.MayBeAbsent() || t2.MayBeAbsent()
	if absent && (t1.IsComposite() || t2.IsComposite()) {
		c.refuseAt(pos, "an array or object that may be undefined is not modelled (in %s): give it a value in every case, e.g. []", what)
		return ast.Type{}
	}
	switch {
	case t1.Kind == ast.Invalid || t2.Kind == ast.Invalid:
		return ast.Type{}
	case t1.Kind == ast.Undef:
		return ast.Type{Kind: t2.Kind, Absent: absent}
	case t2.Kind == ast.Undef:
		return ast.Type{Kind: t1.Kind, Absent: absent, Comp: t1.Comp}
	case t1.Kind == t2.Kind && t1.Kind == ast.Array && (t1.Comp.Len == 0 || t2.Comp.Len == 0):
		// An empty array has no elements to give a type.
		e := t1.Comp.Elem
		if t1.Comp.Len == 0 {
			e = t2.Comp.Elem
		}
		t := ast.ArrayType(e, min(t1.Comp.MinLen, t2.Comp.MinLen), max(t1.Comp.Len, t2.Comp.Len))
		t.Absent = absent
		return t
	case t1.Kind == t2.Kind && t1.Kind == ast.Array:
		e := c.joinPart(pos, what, t1.Comp.Elem, t2.Comp.Elem)
		if e.Kind == ast.Invalid && t1.Comp.Elem.Kind != ast.Invalid && t2.Comp.Elem.Kind != ast.Invalid {
			return ast.Type{}
		}
		t := ast.ArrayType(e, min(t1.Comp.MinLen, t2.Comp.MinLen), max(t1.Comp.Len, t2.Comp.Len))
		t.Absent = absent
		return t
	case t1.Kind == t2.Kind && t1.Kind == ast.Object:
		if len(t1.Comp.Fields) != len(t2.Comp.Fields) {
			break
		}
		var fields []ast.Field
		for i, f := range t1.Comp.Fields {
			g := t2.Comp.Fields[i]
			if f.Name != g.Name {
				c.errorAt(pos, "objects with different fields (%s and %s) in %s: give both the same fields", t1, t2, what)
				return ast.Type{}
			}
			ft := c.joinPart(pos, what, f.Type, g.Type)
			if ft.Kind == ast.Invalid {
				return ast.Type{}
			}
			fields = append(fields, ast.Field{Name: f.Name, Type: ft})
		}
		t := ast.ObjectType(fields)
		t.Absent = absent
		return t
	case t1.Kind == t2.Kind:
		return ast.Type{Kind: t1.Kind, Absent: absent}
	case t1.Kind.IsNumber() && t2.Kind.IsNumber():
		return ast.Type{Kind: ast.Decimal, Absent: absent}
	}
	return c.joinKinds(pos, what, t1, t2)
}

// joinKinds joins two types of different kinds: scalars widen to a value
// of either kind, with a tag that says which (Widen); arrays and objects
// do not.
func (c *checker) joinKinds(pos source.Pos, what string, t1, t2 ast.Type) ast.Type {
	if t1.Kind == ast.Object && t2.Kind == ast.Object {
		c.errorAt(pos, "objects with different fields (%s and %s) in %s: give both the same fields", t1, t2, what)
		return ast.Type{}
	}
	if t, ok := ast.Widen(t1, t2); ok {
		return t
	}
	c.errorAt(pos, "mismatched types %s and %s in %s", t1.Kind, t2.Kind, what)
	return ast.Type{}
}

// joinPart joins the types of two elements or fields (join), which hold
// values of one kind each: two kinds are refused.
func (c *checker) joinPart(pos source.Pos, what string, t1, t2 ast.Type) ast.Type {
	t := c.join(pos, what, t1, t2)
	if t.Kind == ast.Mixed {
		c.refuseAt(pos, "%s", mixedPartMsg(t1, t2, what))
		return ast.Type{}
	}
	return t
}

// mixedPartMsg says why an element or a field of two kinds (t1 and t2, in
// what) is refused: the tag that says which kind a value holds is
// modelled for variables, parameters and locals, not for parts of arrays
// and objects.
func mixedPartMsg(t1, t2 ast.Type, what string) string {
	holds := t1.String()
	if t1 != t2 {
		holds += " or " + t2.String()
	}
	return fmt.Sprintf("an element or field that holds %s (in %s) is not modelled: a variable may hold values of several kinds, an array's elements and an object's fields one kind each; "+
		"convert them to one kind (String(x), or a number)", holds, what)
}

// ConstCond reports whether the condition of x is a constant, and which
// branch it takes then.
func ConstCond(x *ast.Cond) (then, ok bool) {
	b, ok := simplify.Expr(x.Cond).(*ast.BoolLit)
	return ok && b.Value, ok
}

// arrayLit types [e, ...]: its elements share one kind (undefined and null
// aside), and the literal has exactly as many elements as it lists.
func (c *checker) arrayLit(x *ast.ArrayLit) ast.Type {
	if len(x.Elems) > ast.MaxArrayLen {
		c.errorf(x, "array literal of %d elements: at most %d are modelled; split the data", len(x.Elems), ast.MaxArrayLen)
		return ast.Type{}
	}
	elem := ast.UndefType // the element type of [], which any array takes
	if len(x.Elems) == 0 {
		elem = ast.Type{Kind: ast.Undef}
	}
	for i, e := range x.Elems {
		t := c.expr(e)
		if t.Kind.IsRef() {
			c.refusef(e, "%s", parser.RefPartMsg(t.Kind))
			return ast.Type{}
		}
		if t.Kind == ast.Mixed {
			c.refusef(e, "%s", mixedPartMsg(t, t, "an array literal"))
			return ast.Type{}
		}
		if t.Kind == ast.Invalid {
			return ast.Type{}
		}
		if i == 0 {
			elem = t
			continue
		}
		if j := c.joinElems(elem, t); j.Kind != ast.Invalid {
			elem = j
			continue
		}
		c.errorf(e, "array elements of mixed types %s and %s: an array holds values of one type (and undefined); use one array per type", elem, t)
		return ast.Type{}
	}
	return ast.ArrayType(elem, len(x.Elems), len(x.Elems))
}

// joinElems joins the types of two elements of one array, or returns the
// invalid type, without reporting, where they do not join.
func (c *checker) joinElems(t1, t2 ast.Type) ast.Type {
	mark := len(c.errs)
	j := c.join(source.NoPos, "", t1, t2)
	if len(c.errs) > mark || j.Kind == ast.Mixed { // an array's elements are of one kind
		c.errs = c.errs[:mark]
		return ast.Type{}
	}
	return j
}

// computedKey types o[k], a read of the object o by a key k computed when
// it runs: the field k names, or undefined where k names none, as
// ECMAScript reads an object (lowered to a chain of ?: over the fields).
// The fields must be scalars of one type; the key a string.
func (c *checker) computedKey(x *ast.Index, t ast.Type) ast.Type {
	if c.value(x.Index, "a key", ast.String) == ast.Invalid {
		return ast.Type{}
	}
	if len(t.Comp.Fields) == 0 {
		return ast.UndefType
	}
	elem := c.keyedFields(x.Lbrack, printer.ExprString(x), printer.ExprString(x.X), t)
	if elem.Kind == ast.Invalid {
		return elem
	}
	return elem.OrAbsent()
}

// keyedFields returns the type of every field of t, an object read or
// written (what, at pos) by a key computed when it runs: scalars of one
// type, which a chain over the fields selects.
func (c *checker) keyedFields(pos source.Pos, what, obj string, t ast.Type) ast.Type {
	var elem ast.Type
	for i, f := range t.Comp.Fields {
		if f.Type.IsComposite() {
			c.refuseAt(pos, "%s with a computed key: field %s of %s is an array or object, which a computed key does not select: "+
				"index with a key written as a string, %s['%s']", what, f.Name, obj, obj, f.Name)
			return ast.Type{}
		}
		if i == 0 {
			elem = f.Type
			continue
		}
		if elem = c.joinElems(elem, f.Type); elem.Kind == ast.Invalid {
			c.errorAt(pos, "%s with a computed key: the fields of %s hold values of different types: index with a key written as a string, or give every field one type",
				what, obj)
			return ast.Type{}
		}
	}
	return elem
}

// index types X[I]: an element of an array, undefined where I may lie
// outside it; o['f'] is o.f.
func (c *checker) index(x *ast.Index) ast.Type {
	t := c.expr(x.X)
	if t.IsDict() && !t.MayBeAbsent() {
		return c.dictRead(x, t)
	}
	if s, ok := x.Index.(*ast.StrLit); ok && t.Kind == ast.Object {
		c.expr(x.Index)
		return c.member(x, x.X, t, s.Value)
	}
	switch {
	case t.Kind == ast.Invalid:
		c.expr(x.Index)
		return ast.Type{}
	case t.MayBeAbsent():
		c.expr(x.Index)
		c.absent(x.X, "[...]")
		return ast.Type{}
	case t.Kind.IsRef():
		c.expr(x.Index)
		c.refusef(x, "%s", parser.RefReadMsg(printer.ExprString(x.X), t.Kind))
		return ast.Type{}
	case t.Kind == ast.String:
		c.expr(x.Index)
		c.errorAt(x.Lbrack, "index into string %s: write %s.charAt(...)", printer.ExprString(x.X), printer.ExprString(x.X))
		return ast.Type{}
	case t.Kind == ast.Object:
		return c.computedKey(x, t)
	case t.Kind != ast.Array:
		c.expr(x.Index)
		c.errorAt(x.Lbrack, "%s is %s, not an array: index an array, declared with an array literal such as [1, 2] as its initial value", printer.ExprString(x.X), ast.Article(t.Kind))
		return ast.Type{}
	}
	if c.value(x.Index, "an index", ast.Int) == ast.Invalid {
		return ast.Type{}
	}
	elem := t.Comp.Elem
	if k, ok := x.Index.(*ast.IntLit); ok && k.Value >= 0 && k.Value < int64(t.Comp.MinLen) {
		return elem
	}
	if elem.IsComposite() && c.env.InRange != nil && c.env.InRange(x) {
		return elem
	}
	if elem.IsComposite() {
		c.info.PastEnd = append(c.info.PastEnd, x)
		c.refuseAt(x.Lbrack, "%s may lie past the end of %s, and an array or object that may be undefined is not modelled: index with a constant below its length (%d for certain), "+
			"or read into the element (a part of it, or its length) where the statement always reads it, outside ?:, && and ||, at the top of a script or of an if's branch there",
			printer.ExprString(x), printer.ExprString(x.X), t.Comp.MinLen)
		return ast.Type{}
	}
	// ECMAScript reads undefined past the end.
	return elem.OrAbsent()
}

// member types the field name of x, an object of type t (n is the access,
// for positions).
func (c *checker) member(n ast.Node, x ast.Expr, t ast.Type, name string) ast.Type {
	switch {
	case t.Kind == ast.Invalid:
		return ast.Type{}
	case t.Kind.IsRef():
		c.refusef(n, "%s", parser.RefReadMsg(printer.ExprString(x), t.Kind))
		return ast.Type{}
	case t.Kind == ast.Object && t.Absent && TestedFirst(FailingRead{Obj: x, Guards: c.guards}):
		// o.a && o.a.b: read where o.a is an object
	case t.Kind == ast.Object && t.Absent && c.env.FailingReads:
		c.info.Fails = append(c.info.Fails, FailingRead{Obj: x, Guards: slices.Clone(c.guards)})
	case t.MayBeAbsent():
		c.absent(x, "."+name)
		return ast.Type{}
	case t.Kind != ast.Object:
		c.errorf(n, "%s is %s, not an object: read .%s of an object, declared with an object literal such as {%s: ...} as its initial value", printer.ExprString(x), ast.Article(t.Kind), name, name)
		return ast.Type{}
	case t.IsDict():
		c.refusef(n, "%s is an object used as a dictionary (its keys are computed when it runs), and .%s of it is not modelled: write %s['%s']", printer.ExprString(x), name, printer.ExprString(x), name)
		return ast.Type{}
	}
	ft, ok := t.Field(name)
	if !ok {
		var names []string
		for _, f := range t.Comp.Fields {
			names = append(names, f.Name)
		}
		c.errorf(n, "%s has no field %s: its fields are %s; give every field in the object's initial value", printer.ExprString(x), name, strings.Join(names, ", "))
		return ast.Type{}
	}
	return ft
}

func (c *checker) ident(x *ast.Ident) ast.Type {
	t, ok := c.lookup(x.Name)
	if !ok {
		c.errorf(x, "%s", parser.UndeclaredMsg(x.Name))
	}
	if c.valued[x.Name] && t.Kind != ast.Undef {
		t.Absent = false
	}
	return t
}

// value checks that e, an operand of what, has a value of kind want (or of
// any kind but undefined when want is Invalid), and returns its kind.
func (c *checker) value(e ast.Expr, what string, want ast.Kind) ast.Kind {
	return c.valueOf(e, c.expr(e), what, want)
}

// valueOf is value for e whose type t is already checked.
func (c *checker) valueOf(e ast.Expr, t ast.Type, what string, want ast.Kind) ast.Kind {
	switch {
	case t.Kind == ast.Invalid:
	case t.Kind == ast.Mixed:
		c.mixedValue(e, t, what)
		return ast.Invalid
	case t.MayBeAbsent():
		c.absent(e, what)
		return ast.Invalid
	case want != ast.Invalid && t.Kind != want:
		c.errorf(e, "%s is %s: %s needs %s", printer.ExprString(e), t.Kind, what, ast.Article(want))
		return ast.Invalid
	}
	return t.Kind
}

// mixedValue refuses e, of a Mixed type t, where what needs a value of
// one kind.
func (c *checker) mixedValue(e ast.Expr, t ast.Type, what string) {
	c.refusef(e, "%s holds %s, and %s of it is not modelled: setbot's types do not narrow after a test (typeof), so convert it first (String(%s)), or keep one variable per kind",
		printer.ExprString(e), mixedWords(t), what, printer.ExprString(e))
}

// absent reports e, which may be undefined or null, where what needs a
// value. ECMAScript would compute NaN or throw; setbot models neither.
func (c *checker) absent(e ast.Expr, what string) {
	var hint string
	switch e.(type) {
	case *ast.Ident:
		hint = "give it one first (e.g. an expr on its <data>)"
	case *ast.EventParam:
		hint = "declare the parameter without |undefined, or give a variable its value and a default first"
	case *ast.Absent:
		hint = "write a value instead"
	default:
		hint = "setbot's types do not narrow after a test, so compare it (=== undefined, == 'x') rather than compute with it"
	}
	c.errorf(e, "%s may be undefined or null, and %s needs a value: %s", printer.ExprString(e), what, hint)
}

func (c *checker) unary(x *ast.Unary) ast.Type {
	switch x.Op {
	case ast.NOT:
		c.cond(x.X)
		return ast.BoolType
	}
	t := c.expr(x.X)
	switch {
	case t.MayBeAbsent():
		c.absent(x.X, "operator "+x.Op.String())
	case t.Kind == ast.Decimal && x.Op == ast.SUB:
		return ast.DecimalType // exact in doubles too
	case t.Kind == ast.Decimal:
		c.refuseAt(x.OpPos, "operator %s on a decimal is not modelled: ECMAScript's bit operators work on 32-bit ints; scale the value to an int", x.Op)
	case t.Kind != ast.Invalid && t.Kind != ast.Int:
		c.errorAt(x.OpPos, "operator %s needs an int operand, found %s", x.Op, t.Kind)
	}
	return ast.IntType
}

func (c *checker) binary(x *ast.Binary) ast.Type {
	switch x.Op {
	case ast.IN:
		c.in(x)
		return ast.BoolType
	case ast.LAND, ast.LOR:
		c.cond(x.X)
		c.guarded(x.X, x.Op == ast.LAND, func() { c.cond(x.Y) })
		return ast.BoolType
	case ast.EQL, ast.NEQ, ast.SEQL, ast.SNEQ:
		return c.equality(x)
	}
	what := "operator " + x.Op.String()
	t1, t2 := c.expr(x.X), c.expr(x.Y)
	if t1.Kind == ast.Mixed || t2.Kind == ast.Mixed {
		return c.mixedBinary(x, t1, t2)
	}
	if AbsentConcat(x.Op, t1, t2) {
		return ast.StringType
	}
	var k1, k2 ast.Kind
	if NaNOperands(x.Op, t1, t2) {
		k1, k2 = t1.Kind, t2.Kind
	} else {
		k1, k2 = c.valueOf(x.X, t1, what, ast.Invalid), c.valueOf(x.Y, t2, what, ast.Invalid)
	}
	switch x.Op {
	case ast.ADD:
		if concatenates(k1, k2) {
			return ast.StringType
		}
		if k1 == ast.Invalid || k2 == ast.Invalid {
			return ast.Type{} // a string or a number: the operand's error says why
		}
		if !c.operands(x.OpPos, x.Op, ast.Int, k1, k2) {
			return ast.Type{}
		}
		return c.arith(x.OpPos, x.Op, k1, k2, x.Y)
	case ast.SUB, ast.MUL, ast.QUO, ast.REM, ast.AND, ast.OR, ast.XOR, ast.SHL, ast.SHR, ast.USHR:
		c.operands(x.OpPos, x.Op, ast.Int, k1, k2)
		return c.arith(x.OpPos, x.Op, k1, k2, x.Y)
	case ast.LSS, ast.GTR, ast.LEQ, ast.GEQ:
		if k1 != ast.String || k2 != ast.String {
			c.operands(x.OpPos, x.Op, ast.Int, k1, k2)
		}
		return ast.BoolType
	}
	c.errorAt(x.OpPos, "unknown binary operator %s", x.Op)
	return ast.Type{}
}

// NaNOperands reports whether x op y, of operands of types t1 and t2, is
// arithmetic (- * / %) on numbers of which one may be undefined or null:
// ECMAScript's undefined is NaN there and null 0 (ToNumber), which the
// lowering computes (nanArith).
func NaNOperands(op ast.Token, t1, t2 ast.Type) bool {
	switch op {
	case ast.SUB, ast.MUL, ast.QUO, ast.REM:
	default:
		return false
	}
	number := func(t ast.Type) bool { return t.Kind == ast.Int || t.Kind == ast.Decimal }
	return number(t1) && number(t2) && (t1.MayBeAbsent() || t2.MayBeAbsent())
}

// AbsentConcat reports whether x + y, of operands of types t1 and t2,
// joins a string to a scalar that may be undefined or null: ECMAScript
// spells undefined and null there ("undefined" + 'a' is "undefineda",
// ToString), which the lowering writes case by case over the operand's
// tag (as for a value of several kinds). Both kinds are known: the one a
// string, the other a scalar of one kind or undefined alone.
func AbsentConcat(op ast.Token, t1, t2 ast.Type) bool {
	text := func(t ast.Type) bool { return t.Kind == ast.String && !t.MayBeAbsent() }
	absent := func(t ast.Type) bool {
		return t.MayBeAbsent() && (t.Kind == ast.Undef || t.Kind == ast.String || t.Kind.IsNumber() || t.Kind == ast.Bool)
	}
	return op == ast.ADD && (text(t1) && absent(t2) || absent(t1) && text(t2))
}

// equality checks x == y, !=, === and !==: values of one kind, or of
// kinds ECMAScript compares (a number with a number, undefined with any,
// a value of several kinds with any scalar).
func (c *checker) equality(x *ast.Binary) ast.Type {
	t1, t2 := c.expr(x.X), c.expr(x.Y)
	k1, k2 := t1.Kind, t2.Kind
	if (t1.IsComposite() || t2.IsComposite()) && k1 != ast.Undef && k2 != ast.Undef {
		c.refuseAt(x.OpPos, "%s between arrays or objects compares identities, which are not modelled: compare their elements or fields", x.Op)
		return ast.BoolType
	}
	if k1 == ast.EventRef && k2 == ast.EventRef && !ast.IsEvent(x.X) && !ast.IsEvent(x.Y) {
		// A stored _event is known to be the event being processed or
		// an earlier one (lower.EventStale), not which earlier one.
		c.refuseAt(x.OpPos, "%s between two stored _event objects compares the events they were taken from, which is not modelled: compare each with _event, or compare their fields stored at the time (e.g. _event.name)", x.Op)
		return ast.BoolType
	}
	if k1.IsRef() && k2.IsRef() {
		return ast.BoolType // different platform objects are different
	}
	if (k1 == ast.Mixed || k2 == ast.Mixed) && !k1.IsRef() && !k2.IsRef() {
		return ast.BoolType // compared as ECMAScript does, kind by kind
	}
	if k1 != ast.Invalid && k2 != ast.Invalid && k1 != k2 && k1 != ast.Undef && k2 != ast.Undef && !(k1.IsNumber() && k2.IsNumber()) {
		c.errorAt(x.OpPos, "mismatched types %s and %s for %s: compare values of one type", k1, k2, x.Op)
	}
	return ast.BoolType
}

// in checks 'f' in o: f is a field name in quotes, and o an object, which
// has it or not by its type (an object keeps the fields of its initial
// value), _event, whose fields SCXML fixes, or _ioprocessors, whose only
// processor is SCXML's. The checker decides it; lowering folds it.
func (c *checker) in(x *ast.Binary) {
	if y, ok := x.Y.(*ast.Ident); ok {
		if t, _ := c.lookup(y.Name); t.IsDict() && !t.MayBeAbsent() {
			c.dictKey(x.X, y.Name)
			c.expr(y)
			return
		}
	}
	c.expr(x.X)
	if _, ok := x.X.(*ast.StrLit); !ok {
		c.errorf(x.X, "the left of in is %s: name the field in quotes, e.g. 'name' in _event", printer.ExprString(x.X))
	}
	if ast.IsEvent(x.Y) {
		c.expr(x.Y) // read while an event is processed: where there is none, ECMAScript throws
		return
	}
	t := c.expr(x.Y)
	switch {
	case t.Kind == ast.Invalid:
	case t.MayBeAbsent():
		c.absent(x.Y, "in")
	case t.Kind == ast.Array:
		c.errorAt(x.OpPos, "in on an array: compare the index with its length, i < %s.length", printer.ExprString(x.Y))
	case t.Kind != ast.Object && !t.Kind.IsRef():
		c.errorAt(x.OpPos, "in needs an object on its right, and %s is %s: test the field of an object, or of _event", printer.ExprString(x.Y), ast.Article(t.Kind))
	default:
		if s, ok := x.X.(*ast.StrLit); ok {
			if f, _ := t.Lookup(s.Value); f.Optional {
				c.refuseAt(x.OpPos, "%s in %s: %s is given objects with and without field %s, and setbot holds a missing field as undefined, so it cannot tell them apart; "+
					"compare the field with undefined instead", printer.ExprString(x.X), printer.ExprString(x.Y), printer.ExprString(x.Y), s.Value)
			}
		}
	}
}

// HasField reports whether 'field' in a value of type t is true: t an
// object type with that field, _event (an event has name, type, sendid,
// origin, origintype, invokeid and data, SCXML §5.10.1), or _ioprocessors
// (which holds the SCXML event processor).
func HasField(t ast.Type, field string) bool {
	switch t.Kind {
	case ast.EventRef:
		return ast.EventFields[field] || field == "data"
	case ast.IOProcessorsRef:
		return parser.IsSCXMLProcessor(field)
	}
	_, ok := t.Field(field)
	return ok
}

// arith returns the type of x op y, an arithmetic or bit operation on
// numbers of kinds k1 and k2 (or already in error): an int, or a decimal
// when either is one. On decimals, + - * are exact; / is exact where the
// divisor y is a constant power of two, and refused elsewhere; % and the
// bit operators are refused.
func (c *checker) arith(pos source.Pos, op ast.Token, k1, k2 ast.Kind, y ast.Expr) ast.Type {
	if k1 != ast.Decimal && k2 != ast.Decimal {
		return ast.IntType
	}
	if k1 == ast.Invalid || k2 == ast.Invalid {
		return ast.Type{}
	}
	switch op {
	case ast.ADD, ast.SUB, ast.MUL:
	case ast.QUO:
		if !c.powerOfTwo(y) {
			c.errorAt(pos, "division of a decimal by %s: setbot divides decimals exactly only by a power of two (2, 4, 0.5, ...), where ECMAScript's quotient is exact too; "+
				"multiply instead (x * 0.5), or scale to ints and use integer division", printer.ExprString(y))
			return ast.Type{}
		}
	case ast.REM:
		c.refuseAt(pos, "operator %% on a decimal is not modelled: scale the values to ints (count tenths) and take the remainder of those")
		return ast.Type{}
	default:
		c.refuseAt(pos, "operator %s on a decimal is not modelled: ECMAScript's bit operators work on 32-bit ints; scale the value to an int", op)
		return ast.Type{}
	}
	c.info.DecimalArith = append(c.info.DecimalArith, pos)
	return ast.DecimalType
}

// powerOfTwo reports whether e is a constant ±2^k (k may be negative).
func (c *checker) powerOfTwo(e ast.Expr) bool {
	switch x := simplify.Expr(e).(type) {
	case *ast.IntLit:
		return x.Value != 0 && ecma.IsPowerOfTwo(new(big.Rat).SetInt64(x.Value))
	case *ast.DecLit:
		return ecma.IsPowerOfTwo(x.Value)
	}
	return false
}

// concatenates reports whether + on values of kinds k1 and k2 joins
// strings: where one is a string, ECMAScript converts the other, a number
// or a boolean, with String() (the lowering writes that conversion).
func concatenates(k1, k2 ast.Kind) bool {
	text := func(k ast.Kind) bool { return k == ast.String || k.IsNumber() || k == ast.Bool }
	return (k1 == ast.String || k2 == ast.String) && text(k1) && text(k2)
}

// operands checks that the operands of op, of kinds k1 and k2, are both
// numbers (want is Int: an int or a decimal) or both of kind want, and
// reports whether they are (or one is already in error).
func (c *checker) operands(pos source.Pos, op ast.Token, want, k1, k2 ast.Kind) bool {
	if want == ast.Int && k1.IsNumber() && k2.IsNumber() {
		return true
	}
	if k1 != ast.Invalid && k2 != ast.Invalid && (k1 != want || k2 != want) {
		// ECMAScript converts the operands; setbot's typed language does not.
		c.refuseAt(pos, "operator %s needs %s operands, found %s and %s", op, want, k1, k2)
		return false
	}
	return true
}

// cond checks a condition. As in ECMAScript, a value of any kind is a
// condition: false, 0, "" and undefined and null are false, every other
// value true.
func (c *checker) cond(e ast.Expr) {
	if x, ok := e.(*ast.EventField); ok && x.Field == "" {
		// _event is an object once an event has been processed, and
		// undefined before: as a condition, whether there is one.
		c.info.Types[e] = ast.BoolType
		return
	}
	c.expr(e)
}

// mixedWords names the kinds of a value of t: "an int or a string".
func mixedWords(t ast.Type) string {
	var ws []string
	for _, k := range t.Alternatives() {
		ws = append(ws, ast.Article(k))
	}
	if t.MayBeAbsent() {
		ws = append(ws, "undefined")
	}
	if len(ws) == 1 {
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}

// operandKinds returns the kinds an operand of type t may have, Undef
// standing for undefined and null.
func operandKinds(t ast.Type) []ast.Kind {
	if t.Kind == ast.Undef {
		return []ast.Kind{ast.Undef}
	}
	ks := t.Alternatives()
	if t.Absent {
		ks = append(ks, ast.Undef)
	}
	return ks
}

// MixedResult returns the kind of x op y for x of kind k1 and y of kind k2,
// one of them of a Mixed value, as ECMAScript computes it, and false where
// setbot does not model it (a bool among numbers). Undef stands for
// undefined and null. + joins strings when either is one (a number,
// undefined and null in their ECMAScript spelling), and adds numbers
// otherwise, null as 0 and undefined as NaN (which cuts the path with the
// number bound, as Number() of a word does); < > <= >= compare two
// strings as strings, and anything else as numbers (Number(s), null as 0,
// undefined as NaN, which no comparison holds for).
func MixedResult(op ast.Token, k1, k2 ast.Kind) (ast.Kind, bool) {
	numeric := func(k ast.Kind) bool { return k.IsNumber() || k == ast.Undef }
	switch op {
	case ast.ADD:
		switch {
		case k1 == ast.String || k2 == ast.String:
			return ast.String, true
		case numeric(k1) && numeric(k2) && (k1 == ast.Decimal || k2 == ast.Decimal):
			return ast.Decimal, true
		case numeric(k1) && numeric(k2):
			return ast.Int, true
		}
	case ast.LSS, ast.GTR, ast.LEQ, ast.GEQ:
		if (k1 == ast.String || numeric(k1)) && (k2 == ast.String || numeric(k2)) {
			return ast.Bool, true
		}
	}
	return ast.Invalid, false
}

// mixedBinary checks x op y where x or y is of a Mixed type: every pair of
// kinds the two may have must be one mixedResult models; the value is of
// the kinds those give.
func (c *checker) mixedBinary(x *ast.Binary, t1, t2 ast.Type) ast.Type {
	if t1.Kind == ast.Invalid || t2.Kind == ast.Invalid {
		return ast.Type{}
	}
	if _, ok := MixedResult(x.Op, ast.Int, ast.Int); !ok {
		c.refuseAt(x.OpPos, "operator %s on %s (%s) and %s (%s) is not modelled: of the operators on a value of several kinds, + joins strings and adds numbers, and < > <= >= compare; convert the value first",
			x.Op, printer.ExprString(x.X), mixedWords(t1), printer.ExprString(x.Y), mixedWords(t2))
		return ast.Type{}
	}
	out := ast.Type{Kind: ast.Invalid}
	for _, k1 := range operandKinds(t1) {
		for _, k2 := range operandKinds(t2) {
			k, ok := MixedResult(x.Op, k1, k2)
			if !ok {
				c.refuseAt(x.OpPos, "operator %s on %s (%s) and %s (%s) is not modelled where the one is %s and the other %s: "+
					"+ joins strings and adds numbers, and < > <= >= compare numbers and strings; convert the value first",
					x.Op, printer.ExprString(x.X), mixedWords(t1), printer.ExprString(x.Y), mixedWords(t2), ast.Article(k1), ast.Article(k2))
				return ast.Type{}
			}
			if k == ast.Decimal {
				c.info.DecimalArith = append(c.info.DecimalArith, x.OpPos)
			}
			if out.Kind == ast.Invalid {
				out = ast.Type{Kind: k}
				continue
			}
			out, _ = ast.Widen(out, ast.Type{Kind: k})
		}
	}
	return out
}
