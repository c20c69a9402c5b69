package lang

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/parser"
)

// Env is what the checker knows about the names around a snippet.
type Env struct {
	Vars  map[string]ast.Type                           // machine variables
	Param func(name string) (ast.Type, bool)            // type of _event.data.name; nil = no parameters in scope
	State func(id string) bool                          // In('id') validity; nil = accept any
	Event func(name string) (map[string]ast.Type, bool) // declared parameters of an event for raise/send args; ok=false: unknown, do not check args
	// AllowAssume allows assume(...) and bound, which only lowered code
	// and flattened machines hold.
	AllowAssume bool
	// FailingReads allows a read of a field of an object that may be
	// undefined (ast.WidenObjects) where evaluation always reaches it:
	// ECMAScript throws a TypeError there when it is undefined, which
	// makes a transition's cond false and raises error.execution (SCXML
	// §5.9). Info.Fails lists the objects read so; FailsWhen lowers them.
	FailingReads bool
	// InRange tells the reads a[i] of an array or object element at an
	// index that may lie past the end which the code guards: it raises
	// error.execution before the statement where i lies outside a, as
	// ECMAScript's TypeError on reading into undefined would. Such a read
	// is of the element's type; any other is refused and listed in
	// Info.PastEnd. nil: none is guarded.
	InRange func(*ast.Index) bool
}

// Info records the results of checking.
type Info struct {
	Types map[ast.Expr]ast.Type // type of every expression checked
	Args  map[*ast.Arg]ast.Type // type of the parameter each argument of a known event passes
	// Inexact lists the decimal literals whose written value no double
	// holds exactly (0.1, which ECMAScript rounds), and DecimalArith where arithmetic on decimals happens (+, -,
	// *, / with a decimal operand or result, ++, --, += ...): CheckDecimals
	// refuses the latter in a model that has the former.
	Inexact      []*ast.DecLit
	DecimalArith []source.Pos
	// PastEnd lists the reads of an array or object element at an index
	// that may lie past the end that were refused (Env.InRange).
	PastEnd []*ast.Index
	// Fails lists the reads of fields of objects that may be undefined
	// (Env.FailingReads), in the order evaluation reaches them: where one
	// is reached and its object is undefined, evaluation throws.
	Fails []FailingRead
}

// FailingRead is a read of a field of Obj, an object that may be
// undefined, which evaluation reaches where each of Guards holds.
type FailingRead struct {
	Obj    ast.Expr
	Guards []Guard
}

// Guard is an operand whose truth evaluation tested to reach a part of an
// expression: X of X && Y (Want true), of X || Y (false), the condition
// of ?: (true for its first branch).
type Guard struct {
	X    ast.Expr
	Want bool
}

// CheckExpr type-checks e. want is the kind e must have, or Invalid for
// any. A nil env is an empty one.
func CheckExpr(env *Env, fset *source.FileSet, e ast.Expr, want ast.Kind) (*Info, source.ErrorList) {
	c := newChecker(env, fset, e)
	if t := c.expr(e); want != ast.Invalid && t.Kind != ast.Invalid && t.Kind != want {
		c.errorf(e, "expression must be %s, found %s", want, t.Kind)
	}
	return c.info, c.errs
}

// CheckCond type-checks e used as a condition (a guard): a value of any
// kind, or _event itself. A nil env is an empty one.
func CheckCond(env *Env, fset *source.FileSet, e ast.Expr) (*Info, source.ErrorList) {
	c := newChecker(env, fset, e)
	c.cond(e)
	return c.info, c.errs
}

// CheckBlock type-checks a statement list; b is a scope of its own. A nil
// env is an empty one.
func CheckBlock(env *Env, fset *source.FileSet, b *ast.Block) (*Info, source.ErrorList) {
	c := newChecker(env, fset, b)
	c.block(b)
	return c.info, c.errs
}

// A checker walks the tree once, keeping the scopes of locals.
type checker struct {
	env   *Env
	fset  *source.FileSet
	info  *Info
	errs  source.ErrorList
	scope *scope
	// valued holds the variables and locals that may be undefined by
	// their type but hold a value here: those assigned one earlier in the
	// same straight-line code (a <foreach> item in its body, say).
	valued map[string]bool
	// guards are what evaluation tested to reach the operand being
	// checked (the right of && and ||, the branches of ?:).
	guards []Guard
	// keyed says that the location loc checked last ends in a field
	// selected by a key computed when it runs (keyedLoc).
	keyed bool
}

// guarded checks f with the guard x, want added.
func (c *checker) guarded(x ast.Expr, want bool, f func()) {
	c.guards = append(c.guards, Guard{X: x, Want: want})
	f()
	c.guards = c.guards[:len(c.guards)-1]
}

// A scope holds the locals of one block.
type scope struct {
	parent *scope
	names  map[string]ast.Type
}

// newChecker returns a checker of the tree n. Info.Types is made as large
// as n has expressions: growing it would allocate about as much again.
func newChecker(env *Env, fset *source.FileSet, n ast.Node) *checker {
	if env == nil {
		env = &Env{}
	}
	exprs := 0
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(ast.Expr); ok {
			exprs++
		}
		return true
	})
	return &checker{env: env, fset: fset, info: &Info{Types: make(map[ast.Expr]ast.Type, exprs), Args: make(map[*ast.Arg]ast.Type)}, valued: make(map[string]bool)}
}

func (c *checker) errorAt(pos source.Pos, format string, args ...any) {
	c.errs.Add(c.fset.Position(pos), format, args...)
}

func (c *checker) errorf(n ast.Node, format string, args ...any) {
	c.errorAt(n.Pos(), format, args...)
}

// refuseAt reports a construct outside the language (source.Error.Refused).
func (c *checker) refuseAt(pos source.Pos, format string, args ...any) {
	c.errs.Refuse(c.fset.Position(pos), format, args...)
}

func (c *checker) refusef(n ast.Node, format string, args ...any) {
	c.refuseAt(n.Pos(), format, args...)
}

func (c *checker) push() { c.scope = &scope{parent: c.scope, names: make(map[string]ast.Type)} }
func (c *checker) pop()  { c.scope = c.scope.parent }

// lookup finds a name among the locals in scope, then the machine
// variables.
func (c *checker) lookup(name string) (ast.Type, bool) {
	for s := c.scope; s != nil; s = s.parent {
		if t, ok := s.names[name]; ok {
			return t, true
		}
	}
	t, ok := c.env.Vars[name]
	return t, ok
}

// ---- Expressions

// expr returns the type of e, recording it; the type is Invalid after an
// error, and errors are not repeated for enclosing expressions.
func (c *checker) expr(e ast.Expr) ast.Type {
	t := c.exprType(e)
	c.info.Types[e] = t
	return t
}

// exprType dispatches on the construct, as go/types' exprInternal does:
// literals and names here, operators and composite values in their own
// functions, calls, methods and conversions in checkcall.go.
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
	b, ok := Simplify(x.Cond).(*ast.BoolLit)
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
		c.errorAt(x.Lbrack, "%s is %s, not an array: index an array, declared with an array literal such as [1, 2] as its initial value", printer.ExprString(x.X), article(t.Kind))
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
	case t.Kind == ast.Object && t.Absent && testedFirst(FailingRead{Obj: x, Guards: c.guards}):
		// o.a && o.a.b: read where o.a is an object
	case t.Kind == ast.Object && t.Absent && c.env.FailingReads:
		c.info.Fails = append(c.info.Fails, FailingRead{Obj: x, Guards: slices.Clone(c.guards)})
	case t.MayBeAbsent():
		c.absent(x, "."+name)
		return ast.Type{}
	case t.Kind != ast.Object:
		c.errorf(n, "%s is %s, not an object: read .%s of an object, declared with an object literal such as {%s: ...} as its initial value", printer.ExprString(x), article(t.Kind), name, name)
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
		c.errorf(e, "%s is %s: %s needs %s", printer.ExprString(e), t.Kind, what, article(want))
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

func article(k ast.Kind) string {
	switch k {
	case ast.Int, ast.Array, ast.Object:
		return "an " + k.String()
	case ast.Decimal:
		return "a decimal"
	case ast.Undef:
		return "undefined"
	}
	return "a " + k.String()
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
	if k1 == ast.EventRef && k2 == ast.EventRef && !isEvent(x.X) && !isEvent(x.Y) {
		// A stored _event is known to be the event being processed or
		// an earlier one (lang.EventStale), not which earlier one.
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
	c.expr(x.X)
	if _, ok := x.X.(*ast.StrLit); !ok {
		c.errorf(x.X, "the left of in is %s: name the field in quotes, e.g. 'name' in _event", printer.ExprString(x.X))
	}
	if isEvent(x.Y) {
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
		c.errorAt(x.OpPos, "in needs an object on its right, and %s is %s: test the field of an object, or of _event", printer.ExprString(x.Y), article(t.Kind))
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

// isEvent reports whether e is _event itself.
func isEvent(e ast.Expr) bool {
	x, ok := e.(*ast.EventField)
	return ok && x.Field == ""
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
	switch x := Simplify(e).(type) {
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

// ---- Statements

func (c *checker) block(b *ast.Block) {
	c.push()
	for _, s := range b.Stmts {
		c.stmt(s)
	}
	c.pop()
}

func (c *checker) stmt(s ast.Stmt) {
	switch x := s.(type) {
	case *ast.Block:
		c.block(x)
	case *ast.Assign:
		c.assign(x)
	case *ast.IncDec:
		var t ast.Type
		c.keyed = false
		if len(x.Path) == 0 {
			t = c.expr(x.Target)
		} else {
			t = c.loc(x.Target, x.Path)
		}
		switch {
		case c.keyed:
			c.refuseKeyed(x.OpPos, x.Op)
		case t.MayBeAbsent():
			c.absent(x.Target, "operator "+x.Op.String())
		case t.Kind == ast.Decimal:
			c.info.DecimalArith = append(c.info.DecimalArith, x.OpPos)
		case t.Kind != ast.Invalid && t.Kind != ast.Int:
			c.errorAt(x.OpPos, "operator %s needs an int variable, found %s", x.Op, t.Kind)
		}
	case *ast.Decl:
		c.decl(x)
	case *ast.If:
		c.cond(x.Cond)
		before := c.saveValued()
		c.block(x.Then)
		then := c.saveValued()
		c.valued = before
		if x.Else != nil {
			c.stmt(x.Else)
		}
		c.meetValued(then)
	case *ast.While:
		c.forget(x)
		outer := c.saveValued()
		c.cond(x.Cond)
		c.block(x.Body)
		c.valued = outer
	case *ast.For:
		c.push()
		if x.Init != nil {
			c.stmt(x.Init)
		}
		c.forget(x)
		outer := c.saveValued()
		if x.Cond != nil {
			c.cond(x.Cond)
		}
		if x.Post != nil {
			c.stmt(x.Post)
		}
		c.block(x.Body)
		c.valued = outer
		c.pop()
	case *ast.ForEach:
		c.forEach(x)
	case *ast.Raise:
		c.args(x.Event, x.Args)
	case *ast.Send:
		c.args(x.Event, x.Args)
		if x.Delay != nil {
			c.value(x.Delay, "a delay", ast.String)
		}
	case *ast.Cancel:
	case *ast.Assume:
		if !c.env.AllowAssume {
			c.errorf(x, "assume is not allowed in models: remove it")
		}
		c.cond(x.Cond)
	case *ast.FuncDecl:
		c.errorf(x, "function %s is declared inside a block: declare functions at the top of a <script>", x.Name.Name)
	case *ast.Return:
		c.errorf(x, "return outside a function: %s", parser.UnsupportedStatements["return"])
	case *ast.Bound:
		if !c.env.AllowAssume && x.Name != vocab.BoundCall { // the inliner's
			c.errorf(x, "bound is not allowed in models: remove it")
		}
		c.cond(x.Cond)
	default:
		panic(fmt.Sprintf("lang: unexpected statement %T", s))
	}
}

// saveValued returns a copy of the set of names known to hold a value.
func (c *checker) saveValued() map[string]bool { return maps.Clone(c.valued) }

// meetValued keeps only the names that also hold a value in other: after
// two branches, what both gave a value.
func (c *checker) meetValued(other map[string]bool) {
	maps.DeleteFunc(c.valued, func(name string, _ bool) bool { return !other[name] })
}

// forget drops what a loop writes from the names known to hold a value:
// its body may run any number of times, so nothing it assigns is known.
func (c *checker) forget(loop ast.Stmt) {
	for _, name := range Defs(loop) {
		delete(c.valued, name)
	}
	ast.Inspect(loop, func(n ast.Node) bool {
		if f, ok := n.(*ast.ForEach); ok {
			delete(c.valued, f.Item.Name)
			if f.Index != nil {
				delete(c.valued, f.Index.Name)
			}
		}
		return true
	})
}

// forEach checks for (item, index of array) body. Item and index are
// assigned each time round, so the body sees them hold values (where the
// elements are values).
func (c *checker) forEach(x *ast.ForEach) {
	at := c.expr(x.Array)
	c.forget(x)
	outer := c.saveValued()
	if x.Cond != nil {
		c.cond(x.Cond)
	}
	var elem ast.Type
	switch {
	case at.Kind == ast.Invalid:
	case at.MayBeAbsent():
		c.absent(x.Array, "foreach")
	case at.Kind != ast.Array:
		c.errorf(x.Array, "foreach over %s, which is %s: foreach needs an array", printer.ExprString(x.Array), article(at.Kind))
	default:
		elem = at.Comp.Elem
	}
	if x.Local {
		c.localForEach(x, elem)
		c.valued = outer
		return
	}
	if tt := c.loc(x.Item, nil); elem.Kind != ast.Invalid && tt.Kind != ast.Invalid {
		if msg := Assignable(tt, elem); msg != "" {
			c.errorf(x.Item, "foreach item %s cannot hold the elements of %s: %s", x.Item.Name, printer.ExprString(x.Array), msg)
		}
	}
	if x.Index != nil {
		if tt := c.loc(x.Index, nil); tt.Kind != ast.Invalid && tt.Kind != ast.Int && tt.Kind != ast.Undef {
			c.errorf(x.Index, "foreach index %s is %s: the index is an int", x.Index.Name, tt)
		}
		c.valued[x.Index.Name] = true
	}
	if elem.Kind != ast.Invalid && !elem.MayBeAbsent() {
		c.valued[x.Item.Name] = true
	}
	c.block(x.Body)
	c.valued = outer
}

// localForEach checks the body of for (let item, index of array) body,
// whose item and index are its locals: the item of the elements' type
// elem (Invalid where the array is in error), the index an int. The loop
// iterates over a copy, which is forEach's reading of each element as it
// comes to it only where the body assigns nothing the array reads.
func (c *checker) localForEach(x *ast.ForEach, elem ast.Type) {
	reads := make(map[string]bool)
	for _, u := range Uses(x.Array) {
		reads[u] = true
	}
	for _, d := range Defs(x.Body) {
		if reads[d] {
			c.refusef(x.Array, "the loop's body assigns %s, which %s reads: forEach would see the new elements, where setbot's loop goes over the array as it was; assign a copy, or loop with an index", d, printer.ExprString(x.Array))
			return
		}
	}
	c.push()
	defer c.pop()
	for _, id := range []*ast.Ident{x.Item, x.Index} {
		if id == nil {
			continue
		}
		if _, global := c.env.Vars[id.Name]; global {
			c.errorf(id, "parameter %s of the loop shadows the machine variable %s: rename the parameter", id.Name, id.Name)
			return
		}
		t := elem
		if id == x.Index {
			t = ast.IntType
		}
		c.info.Types[id] = t
		c.scope.names[id.Name] = t
		if t.Kind != ast.Invalid && !t.MayBeAbsent() {
			c.valued[id.Name] = true
		}
	}
	c.block(x.Body)
}

func (c *checker) assign(x *ast.Assign) {
	if x.Op != ast.ASSIGN {
		c.compoundAssign(x)
		return
	}
	tt, vt := c.assignLoc(x), c.expr(x.Value)
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
	if len(x.Path) == 0 {
		k1 = c.value(x.Target, what, ast.Invalid)
	} else if t := c.loc(x.Target, x.Path); c.keyed {
		c.refuseKeyed(x.OpPos, x.Op)
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
	c.keyed = false
	t, ok := c.lookup(target.Name)
	if !ok {
		c.errorf(target, "%s", parser.UndeclaredMsg(target.Name))
	}
	c.info.Types[target] = t
	for i, s := range path {
		so := printer.LocString(target, path[:i])
		if s.Index != nil {
			if str, ok := s.Index.(*ast.StrLit); ok && t.Kind == ast.Object {
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
			c.errorAt(s.Pos, "%s is %s, not an array: index an array, declared with an array literal such as [1, 2] as its initial value", so, article(t.Kind))
			return ast.Type{}
		case s.Index != nil:
			if k, ok := s.Index.(*ast.IntLit); !ok || k.Value < 0 || k.Value >= int64(t.Comp.MinLen) {
				c.errorAt(s.Pos, "assignment to an element of %s that may lie past its end (it has %d elements for certain): "+
					"index with a constant below that, or assign the whole array", so, t.Comp.MinLen)
				return ast.Type{}
			}
			t = t.Comp.Elem
		case t.Kind != ast.Object:
			c.errorAt(s.Pos, "%s is %s, not an object: assign .%s of an object, declared with an object literal such as {%s: ...} as its initial value", so, article(t.Kind), s.Name, s.Name)
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
	case tt.Kind == ast.Object:
		return assignableObject(tt, vt)
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

func (c *checker) decl(x *ast.Decl) {
	t := ast.Type{Kind: x.Type.Kind}
	if x.Value != nil {
		vt := c.expr(x.Value)
		switch {
		case t.Kind == ast.Invalid:
			t = ast.Type{Kind: vt.Kind, Absent: vt.MayBeAbsent(), Comp: vt.Comp, Kinds: vt.Kinds}
		case vt.Kind != ast.Invalid && vt.Kind != t.Kind && !(t.Kind == ast.Decimal && vt.Kind == ast.Int):
			c.errorf(x.Value, "cannot use %s value as %s in declaration of %s", vt.Kind, t.Kind, x.Name.Name)
		}
	}
	c.info.Types[x.Name] = t
	delete(c.valued, x.Name.Name)
	if _, global := c.env.Vars[x.Name.Name]; global {
		// In an SCXML script "var x" would assign the datamodel's x; a
		// local of the same name would silently mean something else.
		c.errorf(x.Name, "local %s shadows the machine variable %s: drop the declaration to assign the variable, or rename the local", x.Name.Name, x.Name.Name)
		return
	}
	if _, dup := c.scope.names[x.Name.Name]; dup {
		c.errorf(x.Name, "%s redeclared in this block", x.Name.Name)
		return
	}
	c.scope.names[x.Name.Name] = t
}

// args checks the arguments of a raised or sent event against its
// declared parameters, when the event is known.
func (c *checker) args(event string, args []*ast.Arg) {
	params, known := map[string]ast.Type(nil), false
	if c.env.Event != nil {
		params, known = c.env.Event(event)
	}
	seen := make(map[string]bool)
	for _, a := range args {
		t := c.expr(a.Value)
		if seen[a.Name] {
			c.errorAt(a.NamePos, "duplicate argument %s: pass each parameter once", a.Name)
			continue
		}
		seen[a.Name] = true
		if t.Kind.IsRef() {
			c.refusef(a.Value, "%s", parser.RefPartMsg(t.Kind))
			continue
		}
		if !known {
			continue
		}
		pt, ok := params[a.Name]
		switch {
		case !ok:
			c.errorAt(a.NamePos, "event %s has no parameter %s", event, a.Name)
		case t.Kind != ast.Invalid && t.MayBeAbsent() && !pt.MayBeAbsent():
			c.errorf(a.Value, "%s may be undefined or null, and parameter %s of event %s cannot be: give it a value first", printer.ExprString(a.Value), a.Name, event)
		case (t.Kind == ast.Mixed || pt.Kind == ast.Mixed) && t.Kind != ast.Invalid && t.Kind != ast.Undef:
			if msg := Assignable(pt, t); msg != "" {
				c.errorf(a.Value, "cannot pass %s as parameter %s of event %s: %s", printer.ExprString(a.Value), a.Name, event, msg)
			}
		case t.Kind != ast.Invalid && t.Kind != ast.Undef && t.Kind != pt.Kind && !(pt.Kind == ast.Decimal && t.Kind == ast.Int):
			c.errorf(a.Value, "cannot use %s value as %s in argument %s of event %s", t.Kind, pt.Kind, a.Name, event)
		case t.IsComposite():
			if msg := Assignable(pt, t); msg != "" {
				c.errorf(a.Value, "cannot pass %s as parameter %s of event %s: %s", printer.ExprString(a.Value), a.Name, event, msg)
			}
		}
		if ok {
			c.info.Args[a] = pt
		}
	}
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
			return fmt.Sprintf("the value may be %s, and %s holds %s", article(k), tt, mixedWords(tt))
		}
	}
	return ""
}

// mixedWords names the kinds of a value of t: "an int or a string".
func mixedWords(t ast.Type) string {
	var ws []string
	for _, k := range t.Alternatives() {
		ws = append(ws, article(k))
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

// mixedResult returns the kind of x op y for x of kind k1 and y of kind k2,
// one of them of a Mixed value, as ECMAScript computes it, and false where
// setbot does not model it (a bool among numbers). Undef stands for
// undefined and null. + joins strings when either is one (a number,
// undefined and null in their ECMAScript spelling), and adds numbers
// otherwise, null as 0 and undefined as NaN (which cuts the path with the
// number bound, as Number() of a word does); < > <= >= compare two
// strings as strings, and anything else as numbers (Number(s), null as 0,
// undefined as NaN, which no comparison holds for).
func mixedResult(op ast.Token, k1, k2 ast.Kind) (ast.Kind, bool) {
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
	if _, ok := mixedResult(x.Op, ast.Int, ast.Int); !ok {
		c.refuseAt(x.OpPos, "operator %s on %s (%s) and %s (%s) is not modelled: of the operators on a value of several kinds, + joins strings and adds numbers, and < > <= >= compare; convert the value first",
			x.Op, printer.ExprString(x.X), mixedWords(t1), printer.ExprString(x.Y), mixedWords(t2))
		return ast.Type{}
	}
	out := ast.Type{Kind: ast.Invalid}
	for _, k1 := range operandKinds(t1) {
		for _, k2 := range operandKinds(t2) {
			k, ok := mixedResult(x.Op, k1, k2)
			if !ok {
				c.refuseAt(x.OpPos, "operator %s on %s (%s) and %s (%s) is not modelled where the one is %s and the other %s: "+
					"+ joins strings and adds numbers, and < > <= >= compare numbers and strings; convert the value first",
					x.Op, printer.ExprString(x.X), mixedWords(t1), printer.ExprString(x.Y), mixedWords(t2), article(k1), article(k2))
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

// Rounding are the built-ins that round a number to an integer. On an int
// they are the int itself; the checker refuses them on a decimal.
var Rounding = map[string]bool{"Math.floor": true, "Math.ceil": true, "Math.round": true, "Math.trunc": true}
