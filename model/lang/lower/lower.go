package lower

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/simplify"

	"github.com/setbot/setbot/model/lang"
)

// Lowering rewrites checked code into the form the executors run, in which
// every value is an int, a decimal, a bool or a string and every condition
// is a bool:
//
//   - A condition of another kind is ECMAScript's truthiness made explicit:
//     0, "" and undefined and null are false (NaN is not modelled).
//   - A value that may be undefined or null (a variable or parameter of a
//     type with Absent, the literals undefined and null) is carried as a pair:
//     its value and its tag, an int variable named by AbsentName that holds
//     AbsentValue, AbsentUndefined or AbsentNull. Where the tag is not
//     AbsentValue the value is meaningless (the zero value of its kind).
//   - == and != compare pairs as ECMAScript does (undefined == null);
//     === and !== compare the tags strictly; between two values of one kind
//     they are == and !=.
//   - typeof becomes a string that the tag selects.
//   - Where an int meets a decimal (an operand, a ?: branch, a value
//     assigned or passed), it is converted: Number(i), folded for a
//     literal. Operations therefore have operands of one kind.
//   - A reference to a platform object (EventRef, IOProcessorsRef) is an
//     int, its identity, which == compares: _ioprocessors is always
//     IOProcessorsID; _event is EventCurrent (undefined before the first
//     event), and a stored _event stays EventCurrent while its event is
//     processed and becomes EventStale when that ends (model.Var.EventRef
//     marks the variables the executors then reset). The checker refuses to
//     compare two stored events, which this cannot tell apart.
//   - 'f' in o is decided by o's type (HasField).
//
// The executors therefore never see Absent, TypeOf, ===, !==, in, or
// _event and _ioprocessors as values.

// The identities of references to platform objects.
const (
	EventStale     = 0 // an event whose processing has ended
	EventCurrent   = 1 // the event being processed
	IOProcessorsID = 0 // _ioprocessors, one object for the session
)

// Reserved reports whether name is one SCXML reserves for the platform
// (it starts with an underscore): the names lowering gives the variables it
// adds, which no conforming model declares.
func Reserved(name string) bool { return strings.HasPrefix(name, "_") }

// AbsentName is the name of the tag variable (or parameter, or local) that
// says whether name holds a value, undefined or null. SCXML reserves names
// that start with an underscore for the platform, so no conforming model
// declares one.
func AbsentName(name string) string { return absentPrefix + name }

const absentPrefix = "_absent_"

// AbsentOf returns the name whose tag name is, and whether name is a tag
// (AbsentName(of) == name); otherwise name itself.
func AbsentOf(name string) (of string, tag bool) {
	if of, tag = strings.CutPrefix(name, absentPrefix); tag {
		return of, true
	}
	return name, false
}

// ZeroValue returns the literal that stands for the value of kind k where
// there is none (Undef has none: its placeholder is the int 0).
func ZeroValue(k ast.Kind, pos source.Pos) ast.Expr {
	switch k {
	case ast.Bool:
		return &ast.BoolLit{ValuePos: pos}
	case ast.String:
		return &ast.StrLit{ValuePos: pos}
	case ast.Decimal:
		return &ast.DecLit{ValuePos: pos, Value: new(big.Rat)}
	}
	return &ast.IntLit{ValuePos: pos}
}

// Expr returns e, checked with info, lowered; a condition (a guard)
// is lowered to a bool.
func Expr(e ast.Expr, info *lang.Info, cond bool) ast.Expr {
	l := lowerer{info: info}
	if cond {
		return simplify.Expr(l.cond(e))
	}
	return simplify.Expr(l.value(e))
}

// FailsWhen returns the condition, lowered, under which evaluating the
// expression checked with info throws (Info.Fails: a field read of an
// object that is undefined, reached where its guards hold), or nil where
// it never does.
func FailsWhen(info *lang.Info) ast.Expr {
	l := lowerer{info: info}
	var fails ast.Expr
	seen := make(map[string]bool)
	for _, f := range info.Fails {
		key := printer.ExprString(f.Obj)
		for _, g := range f.Guards {
			key += fmt.Sprintf(" %v:%s", g.Want, printer.ExprString(g.X))
		}
		if lang.TestedFirst(f) || seen[key] {
			continue
		}
		seen[key] = true
		_, tag := l.pair(f.Obj)
		var at ast.Expr = not(eq(tag, ast.AbsentValue))
		for i := len(f.Guards) - 1; i >= 0; i-- {
			g := l.cond(f.Guards[i].X)
			if !f.Guards[i].Want {
				g = not(g)
			}
			at = and(g, at)
		}
		if fails == nil {
			fails = at
			continue
		}
		fails = or(fails, at)
	}
	if fails == nil {
		return nil
	}
	return simplify.Expr(fails)
}

// Block returns b, checked with info, lowered.
func Block(b *ast.Block, info *lang.Info) *ast.Block {
	l := lowerer{info: info}
	return l.block(b)
}

type lowerer struct {
	info  *lang.Info
	loops int // foreach loops lowered, to name their locals
	keys  int // writes by a computed key lowered, to name their locals
}

func (l *lowerer) typ(e ast.Expr) ast.Type { return l.info.Types[e] }

// cond lowers e used as a condition.
func (l *lowerer) cond(e ast.Expr) ast.Expr {
	e = l.fold(e)
	t := l.typ(e)
	if t.IsComposite() {
		_, tag := l.pair(e)
		return simplify.Expr(eq(tag, ast.AbsentValue)) // objects are true
	}
	if t.Kind == ast.Mixed {
		return l.view(e).truthy()
	}
	if t.MayBeAbsent() {
		v, tag := l.pair(e)
		has := eq(tag, ast.AbsentValue)
		if t.Kind == ast.Undef {
			return &ast.BoolLit{ValuePos: e.Pos()}
		}
		return and(has, truthy(v, t.Kind))
	}
	return truthy(l.value(e), t.Kind)
}

// truthy is ECMAScript's ToBoolean of v, of kind k, as a bool expression.
func truthy(v ast.Expr, k ast.Kind) ast.Expr {
	switch k {
	case ast.EventRef, ast.IOProcessorsRef:
		return &ast.BoolLit{ValuePos: v.Pos(), Value: true} // objects are true
	case ast.Int, ast.Decimal, ast.String:
		return &ast.Binary{X: v, OpPos: v.Pos(), Op: ast.NEQ, Y: ZeroValue(k, v.Pos())}
	case ast.Undef:
		return &ast.BoolLit{ValuePos: v.Pos()}
	}
	return v
}

func eq(x ast.Expr, tag int64) ast.Expr {
	return &ast.Binary{X: x, OpPos: x.Pos(), Op: ast.EQL, Y: &ast.IntLit{ValuePos: x.Pos(), Value: tag}}
}

func and(x, y ast.Expr) ast.Expr { return &ast.Binary{X: x, OpPos: x.Pos(), Op: ast.LAND, Y: y} }
func or(x, y ast.Expr) ast.Expr  { return &ast.Binary{X: x, OpPos: x.Pos(), Op: ast.LOR, Y: y} }
func not(x ast.Expr) ast.Expr    { return &ast.Unary{OpPos: x.Pos(), Op: ast.NOT, X: x} }

// pair lowers e, which may be absent, to its value and its tag.
func (l *lowerer) pair(e ast.Expr) (val, tag ast.Expr) {
	e = l.fold(e)
	pos := e.Pos()
	t := l.typ(e)
	if t.IsComposite() {
		// An array or object is a value, or (ast.WidenObjects) undefined
		// by its tag: an int placeholder stands for its value.
		tag := ast.Expr(&ast.IntLit{ValuePos: pos, Value: ast.AbsentValue})
		if t.MayBeAbsent() {
			for _, p := range l.parts(e) {
				if p.leaf.Tag && p.leaf.Suffix == "" {
					tag = p.x
				}
			}
		}
		return ZeroValue(ast.Int, pos), tag
	}
	if !t.MayBeAbsent() {
		return l.value(e), &ast.IntLit{ValuePos: pos, Value: ast.AbsentValue}
	}
	switch x := e.(type) {
	case *ast.Absent:
		tag := int64(ast.AbsentUndefined)
		if x.Null {
			tag = ast.AbsentNull
		}
		return ZeroValue(t.Kind, pos), &ast.IntLit{ValuePos: pos, Value: tag}
	case *ast.Ident:
		return &ast.Ident{NamePos: pos, Name: x.Name}, &ast.Ident{NamePos: pos, Name: AbsentName(x.Name)}
	case *ast.EventParam:
		if t.Kind == ast.Undef {
			// The events carry no such parameter: _event.data of an event
			// without data.
			return ZeroValue(ast.Int, pos), &ast.IntLit{ValuePos: pos, Value: ast.AbsentUndefined}
		}
		return &ast.EventParam{Start: pos, Name: x.Name}, &ast.EventParam{Start: pos, Name: AbsentName(x.Name)}
	case *ast.EventField:
		if x.Field == "" {
			// _event is the event being processed; before the first, undefined.
			has := &ast.EventField{Start: pos}
			return &ast.Cond{Cond: has, Question: pos, Then: &ast.IntLit{ValuePos: pos, Value: EventCurrent}, Else: &ast.IntLit{ValuePos: pos, Value: EventStale}},
				&ast.Cond{Cond: has, Question: pos, Then: &ast.IntLit{ValuePos: pos, Value: ast.AbsentValue}, Else: &ast.IntLit{ValuePos: pos, Value: ast.AbsentUndefined}}
		}
		return &ast.EventField{Start: pos, Field: x.Field}, &ast.EventField{Start: pos, Field: AbsentName(x.Field)}
	case *ast.Index, *ast.Member, *ast.Method:
		if v, tag, ok := l.scalar(e); ok {
			return v, tag
		}
	case *ast.Cond:
		c := l.cond(x.Cond)
		v1, t1 := l.pair(x.Then)
		v2, t2 := l.pair(x.Else)
		// A branch that is undefined alone has the int placeholder: give it
		// the other branch's kind.
		if l.typ(x.Then).Kind == ast.Undef {
			v1 = ZeroValue(t.Kind, pos)
		}
		if l.typ(x.Else).Kind == ast.Undef {
			v2 = ZeroValue(t.Kind, pos)
		}
		// An int branch of a decimal ?: is converted.
		if t.Kind == ast.Decimal && l.typ(x.Then).Kind == ast.Int {
			v1 = &ast.ToDecimal{Start: v1.Pos(), X: v1}
		}
		if t.Kind == ast.Decimal && l.typ(x.Else).Kind == ast.Int {
			v2 = &ast.ToDecimal{Start: v2.Pos(), X: v2}
		}
		return &ast.Cond{Cond: c, Question: x.Question, Then: v1, Else: v2},
			&ast.Cond{Cond: c, Question: x.Question, Then: t1, Else: t2}
	}
	// The checker gives no other expression an Absent type.
	panic("lang: lowering an absent value of unexpected form " + printer.ExprString(e))
}

// value lowers e, which the checker proved has a value wherever it is used
// as one (or which is a bool condition).
func (l *lowerer) value(e ast.Expr) ast.Expr {
	e = l.fold(e)
	if v, _, ok := l.scalar(e); ok {
		return v
	}
	if v, ok := l.mixedValue(e); ok {
		return v
	}
	switch x := e.(type) {
	case *ast.SysVar:
		if x.Name == "_ioprocessors" && x.Processor == "" {
			return &ast.IntLit{ValuePos: x.NamePos, Value: IOProcessorsID}
		}
	case *ast.TypeOf:
		return l.typeOf(x)
	case *ast.Unary:
		if x.Op == ast.NOT {
			return not(l.cond(x.X))
		}
		return &ast.Unary{OpPos: x.OpPos, Op: x.Op, X: l.value(x.X)}
	case *ast.Binary:
		switch x.Op {
		case ast.LAND, ast.LOR:
			return &ast.Binary{X: l.cond(x.X), OpPos: x.OpPos, Op: x.Op, Y: l.cond(x.Y)}
		case ast.EQL, ast.NEQ, ast.SEQL, ast.SNEQ:
			return l.equality(x)
		case ast.IN:
			return l.in(x)
		}
		if lang.NaNOperands(x.Op, l.typ(x.X), l.typ(x.Y)) {
			return l.nanArith(x)
		}
		k := l.operandKind(x)
		return &ast.Binary{X: l.as(x.X, k), OpPos: x.OpPos, Op: x.Op, Y: l.as(x.Y, k)}
	case *ast.Cond:
		k := l.typ(x).Kind
		return &ast.Cond{Cond: l.cond(x.Cond), Question: x.Question, Then: l.as(x.Then, k), Else: l.as(x.Else, k)}
	case *ast.Method:
		if l.typ(x.X).Kind == ast.Array {
			return l.arrayMethod(x)
		}
		m := &ast.Method{X: l.value(x.X), DotPos: x.DotPos, Name: x.Name, Call: x.Call}
		for _, a := range x.Args {
			m.Args = append(m.Args, l.value(a))
		}
		return stringMethod(m)
	case *ast.ToDecimal:
		if l.typ(x.X).Kind == ast.String {
			return &ast.Convert{Start: x.Start, Fun: "Number", X: l.value(x.X)}
		}
		return &ast.ToDecimal{Start: x.Start, X: l.value(x.X)}
	case *ast.Call:
		return l.call(x)
	case *ast.External:
		c := &ast.External{FunPos: x.FunPos, Fun: x.Fun, Params: x.Params, Result: x.Result}
		for i, a := range x.Args {
			c.Args = append(c.Args, l.as(a, x.Params[i].Kind))
		}
		return c
	}
	return ast.RewriteExpr(e, func(e ast.Expr) ast.Expr { return e })
}

// operandKind returns the kind the operands of x are converted to: String
// for a + that joins strings (a number or a boolean is converted), else
// numberKind's.
func (l *lowerer) operandKind(x *ast.Binary) ast.Kind {
	if x.Op == ast.ADD && l.typ(x).Kind == ast.String {
		return ast.String
	}
	return l.numberKind(x.X, x.Y)
}

// nanArith lowers x op y, arithmetic on numbers of which one may be
// undefined or null (NaNOperands): null is 0, and undefined NaN, which the
// conversion of the word "undefined" stops the path at (the number
// bound), as for any NaN.
//
//	tag(x) == undefined || tag(y) == undefined ? Number("undefined") : (x or 0) op (y or 0)
func (l *lowerer) nanArith(x *ast.Binary) ast.Expr {
	pos := x.OpPos
	k := ast.Int
	if l.typ(x.X).Kind == ast.Decimal || l.typ(x.Y).Kind == ast.Decimal {
		k = ast.Decimal
	}
	var nan ast.Expr
	operand := func(e ast.Expr) ast.Expr {
		t := l.typ(e)
		if !t.MayBeAbsent() {
			return l.as(e, k)
		}
		v, tag := l.pair(e)
		if t.Kind == ast.Int && k == ast.Decimal {
			v = &ast.ToDecimal{Start: v.Pos(), X: v}
		}
		undef := eq(dup(tag), ast.AbsentUndefined)
		if nan == nil {
			nan = undef
		} else {
			nan = or(nan, undef)
		}
		return &ast.Cond{Cond: eq(tag, ast.AbsentNull), Question: pos, Then: ZeroValue(k, pos), Else: v}
	}
	a, b := operand(x.X), operand(x.Y)
	fun := "parseInt"
	if k == ast.Decimal {
		fun = "Number"
	}
	return &ast.Cond{Cond: nan, Question: pos, Then: &ast.Convert{Start: pos, Fun: fun, X: &ast.StrLit{ValuePos: pos, Value: "undefined"}},
		Else: &ast.Binary{X: a, OpPos: pos, Op: x.Op, Y: b}}
}

// call lowers a call of a rounding built-in, String or parseInt (the
// checker refuses the rest).
func (l *lowerer) call(x *ast.Call) ast.Expr {
	if x.Fun == "parseInt" && l.typ(x.Args[0]).MayBeAbsent() {
		return l.parseIntAbsent(x)
	}
	v := l.value(x.Args[0])
	k := l.typ(x.Args[0]).Kind
	switch {
	case x.Fun == "String" && k == ast.Decimal:
		return &ast.Convert{Start: x.FunPos, Fun: "String", X: v}
	case x.Fun == "String":
		return toString(v, k, x.FunPos)
	case x.Fun == "parseInt" && k == ast.Int:
		return v
	case x.Fun == "parseInt":
		return &ast.Convert{Start: x.FunPos, Fun: "parseInt", X: v, Radix10: len(x.Args) == 2}
	}
	if k != ast.Decimal {
		return v // an int is its own rounding
	}
	return rounding(x.Fun, v, x.FunPos)
}

// parseIntAbsent lowers parseInt(a) of an a that may be undefined or
// null: parseInt of its value where it has one, and NaN (parseInt of the
// string "undefined", which the executors stop at the number bound)
// where it does not.
//
//	tag(a) == value ? parseInt(a) : parseInt("undefined")
func (l *lowerer) parseIntAbsent(x *ast.Call) ast.Expr {
	pos := x.FunPos
	nan := &ast.Convert{Start: pos, Fun: "parseInt", X: &ast.StrLit{ValuePos: pos, Value: "undefined"}}
	k := l.typ(x.Args[0]).Kind
	if k == ast.Undef {
		return nan
	}
	v, tag := l.pair(x.Args[0])
	var some ast.Expr = &ast.Convert{Start: pos, Fun: "parseInt", X: v, Radix10: len(x.Args) == 2}
	if k == ast.Int {
		some = v
	}
	return &ast.Cond{Cond: eq(tag, ast.AbsentValue), Question: pos, Then: some, Else: nan}
}

// numberKind returns Decimal when x and y are numbers of which one is a
// decimal, and Invalid otherwise: the kind both are converted to.
func (l *lowerer) numberKind(x, y ast.Expr) ast.Kind {
	k1, k2 := l.typ(x).Kind, l.typ(y).Kind
	if k1.IsNumber() && k2.IsNumber() && k1 != k2 {
		return ast.Decimal
	}
	return ast.Invalid
}

// as lowers e, which has a value, to a value of kind k: an int is
// converted where k is Decimal, a number or a boolean where k is String
// (an operand of +, or of +=, that joins strings). Any other k leaves it
// as it is.
func (l *lowerer) as(e ast.Expr, k ast.Kind) ast.Expr {
	v := l.value(e)
	switch ek := l.typ(e).Kind; {
	case k == ast.Decimal && ek == ast.Int:
		return &ast.ToDecimal{Start: e.Pos(), X: v}
	case k == ast.String && (ek.IsNumber() || ek == ast.Bool):
		return stringOf(v, ek, e.Pos())
	}
	return v
}

// typeOf lowers typeof x to the string its kind and tag give.
func (l *lowerer) typeOf(x *ast.TypeOf) ast.Expr {
	t := l.typ(x.X)
	pos := x.OpPos
	if t.Kind == ast.Mixed {
		return l.view(x.X).typeOf(pos)
	}
	name := &ast.StrLit{ValuePos: pos, Value: typeofName[t.Kind]}
	if !t.MayBeAbsent() {
		return name
	}
	_, tag := l.pair(x.X)
	return &ast.Cond{Cond: eq(tag, ast.AbsentUndefined), Question: pos, Then: &ast.StrLit{ValuePos: pos, Value: "undefined"},
		Else: &ast.Cond{Cond: eq(tag, ast.AbsentNull), Question: pos, Then: &ast.StrLit{ValuePos: pos, Value: "object"}, Else: name}}
}

// typeofName is what typeof gives for a value of each kind.
var typeofName = map[ast.Kind]string{ast.Int: "number", ast.Decimal: "number", ast.Bool: "boolean", ast.String: "string", ast.Undef: "undefined", ast.Array: "object", ast.Object: "object",
	ast.EventRef: "object", ast.IOProcessorsRef: "object"}

// in lowers 'f' in o, which o's type decides. Of _event it reads the
// event's name, so that where no event is being processed (ECMAScript
// throws there) the flattener reports it.
func (l *lowerer) in(x *ast.Binary) ast.Expr {
	if t := l.typ(x.Y); t.IsDict() {
		return l.dictHas(l.parts(x.Y), t, l.dictKeyString(x.X))
	}
	f := x.X.(*ast.StrLit).Value
	has := lang.HasField(l.typ(x.Y), f)
	if ast.IsEvent(x.Y) && has {
		name := &ast.EventField{Start: x.Y.Pos(), Field: "name"}
		return &ast.Binary{X: name, OpPos: x.OpPos, Op: ast.EQL, Y: &ast.EventField{Start: x.Y.Pos(), Field: "name"}}
	}
	return &ast.BoolLit{ValuePos: x.OpPos, Value: has}
}

// equality lowers ==, !=, === and !==.
func (l *lowerer) equality(x *ast.Binary) ast.Expr {
	t1, t2 := l.typ(x.X), l.typ(x.Y)
	strict := x.Op == ast.SEQL || x.Op == ast.SNEQ
	negate := x.Op == ast.NEQ || x.Op == ast.SNEQ
	if t1.Kind == ast.Mixed || t2.Kind == ast.Mixed {
		r := l.view(x.X).equal(l.view(x.Y), strict, x.OpPos)
		if negate {
			return not(r)
		}
		return r
	}
	if t1.Kind != t2.Kind && t1.Kind.IsRef() && t2.Kind.IsRef() {
		return &ast.BoolLit{ValuePos: x.OpPos, Value: negate} // different platform objects
	}
	if !t1.MayBeAbsent() && !t2.MayBeAbsent() {
		op := ast.EQL
		if negate {
			op = ast.NEQ
		}
		k := l.numberKind(x.X, x.Y)
		return &ast.Binary{X: l.as(x.X, k), OpPos: x.OpPos, Op: op, Y: l.as(x.Y, k)}
	}
	v1, g1 := l.pair(x.X)
	v2, g2 := l.pair(x.Y)
	var r ast.Expr
	if strict {
		r = strictEqual(x.OpPos, v1, g1, t1.Kind, v2, g2, t2.Kind)
	} else {
		values := sameValues(x.OpPos, v1, t1.Kind, v2, t2.Kind)
		bothValues := and(eq(g1, ast.AbsentValue), eq(g2, ast.AbsentValue))
		neither := and(not(eq(g1, ast.AbsentValue)), not(eq(g2, ast.AbsentValue)))
		r = or(neither, and(bothValues, values))
	}
	if negate {
		return not(r)
	}
	return r
}

// strictEqual is v1 === v2 for lowered values v1 and v2 of kinds k1 and
// k2 with the tags g1 and g2: the same tag, and the same value when the
// tag says there is one.
func strictEqual(pos source.Pos, v1, g1 ast.Expr, k1 ast.Kind, v2, g2 ast.Expr, k2 ast.Kind) ast.Expr {
	sameTag := &ast.Binary{X: g1, OpPos: pos, Op: ast.EQL, Y: g2}
	return and(sameTag, or(not(eq(g1, ast.AbsentValue)), sameValues(pos, v1, k1, v2, k2)))
}

// sameValues compares two lowered values, which are equal only when both
// are of the same kind, or both numbers (an int as the decimal of its
// value: ECMAScript's 1 === 1.0).
func sameValues(pos source.Pos, v1 ast.Expr, k1 ast.Kind, v2 ast.Expr, k2 ast.Kind) ast.Expr {
	if k1 == k2 && k1 != ast.Undef {
		return &ast.Binary{X: v1, OpPos: pos, Op: ast.EQL, Y: v2}
	}
	if k1.IsNumber() && k2.IsNumber() {
		if k1 == ast.Int {
			v1 = &ast.ToDecimal{Start: v1.Pos(), X: v1}
		} else {
			v2 = &ast.ToDecimal{Start: v2.Pos(), X: v2}
		}
		return &ast.Binary{X: v1, OpPos: pos, Op: ast.EQL, Y: v2}
	}
	return &ast.BoolLit{ValuePos: pos}
}

func (l *lowerer) block(b *ast.Block) *ast.Block {
	if b == nil {
		return nil
	}
	out := &ast.Block{Lbrace: b.Lbrace}
	for _, s := range b.Stmts {
		out.Stmts = append(out.Stmts, l.stmt(s)...)
	}
	return out
}

// assign lowers an assignment: of a scalar, leaf by leaf for a composite
// or a value that may be undefined (after the array bound's check where
// it may outgrow its location), of an element that may lie past the end
// (elementWrite), and of a field selected by a computed key by a chain
// over the fields (keyedAssign).
func (l *lowerer) assign(x *ast.Assign) []ast.Stmt {
	if lang.ElementWrite(x, l.typ(x.Target)) {
		return l.elementWrite(x)
	}
	if t := l.typ(x.Target); t.IsDict() && len(x.Path) > 1 {
		return l.intoDict(x.Target, x.Path, func(name string, tt ast.Type) []ast.Stmt { return l.assignAt(x, name, tt) })
	}
	if ot, ok := keyedWrite(l.typ(x.Target), x.Path); ok && ot.IsDict() {
		return l.dictAssign(x, ot)
	} else if ok {
		return l.keyedAssign(x, ot)
	}
	return l.assignAt(x, pathName(x.Target, x.Path), locType(l.typ(x.Target), x.Path))
}

// assignAt lowers x, an assignment to the location called name, of type
// tt.
func (l *lowerer) assignAt(x *ast.Assign, name string, tt ast.Type) []ast.Stmt {
	if x.Op == ast.ASSIGN && leafwise(tt) {
		out := assignLeaves(name, tt, l.vec(x.Value, tt), x.OpPos)
		if lang.Grows(tt, l.typ(x.Value)) {
			out = append([]ast.Stmt{l.arrayBound(x.Value, tt, x.Target.NamePos)}, out...)
		}
		return out
	}
	return []ast.Stmt{&ast.Assign{Target: &ast.Ident{NamePos: x.Target.NamePos, Name: name}, OpPos: x.OpPos, Op: x.Op, Value: simplify.Expr(l.as(x.Value, tt.Kind))}}
}

// stmt lowers one statement to one or more.
func (l *lowerer) stmt(s ast.Stmt) []ast.Stmt {
	switch x := s.(type) {
	case *ast.Block:
		return []ast.Stmt{l.block(x)}
	case *ast.Assign:
		return l.assign(x)
	case *ast.IncDec:
		if t := l.typ(x.Target); t.IsDict() && len(x.Path) > 1 {
			return l.intoDict(x.Target, x.Path, func(name string, _ ast.Type) []ast.Stmt {
				return []ast.Stmt{&ast.IncDec{Target: &ast.Ident{NamePos: x.Target.NamePos, Name: name}, OpPos: x.OpPos, Op: x.Op}}
			})
		}
		return []ast.Stmt{&ast.IncDec{Target: &ast.Ident{NamePos: x.Target.NamePos, Name: pathName(x.Target, x.Path)}, OpPos: x.OpPos, Op: x.Op}}
	case *ast.ForEach:
		return l.forEach(x)
	case *ast.Decl:
		t := l.typ(x.Name)
		if t.IsComposite() || t.Kind == ast.Mixed {
			return declLeaves(x.Name.Name, t, l.vec(x.Value, t), x.DeclPos)
		}
		if !t.MayBeAbsent() {
			d := &ast.Decl{DeclPos: x.DeclPos, Name: ast.CopyIdent(x.Name), Type: x.Type}
			if x.Value != nil {
				d.Value = simplify.Expr(l.value(x.Value))
			}
			return []ast.Stmt{d}
		}
		v, tag := l.pair(x.Value)
		if l.typ(x.Value).Kind == ast.Undef {
			v = ZeroValue(t.Kind, x.Value.Pos())
		}
		return []ast.Stmt{
			&ast.Decl{DeclPos: x.DeclPos, Name: ast.CopyIdent(x.Name), Type: x.Type, Value: simplify.Expr(v)},
			&ast.Decl{DeclPos: x.DeclPos, Name: &ast.Ident{NamePos: x.Name.NamePos, Name: AbsentName(x.Name.Name)}, Type: ast.AbsentType, Value: simplify.Expr(tag)},
		}
	case *ast.If:
		return []ast.Stmt{&ast.If{IfPos: x.IfPos, Cond: simplify.Expr(l.cond(x.Cond)), Then: l.block(x.Then), Else: l.elseStmt(x.Else)}}
	case *ast.While:
		return []ast.Stmt{&ast.While{WhilePos: x.WhilePos, Cond: simplify.Expr(l.cond(x.Cond)), Body: l.block(x.Body)}}
	case *ast.For:
		var init, post []ast.Stmt
		if x.Init != nil {
			init = l.stmt(x.Init)
		}
		if x.Post != nil {
			post = l.stmt(x.Post)
		}
		var cond ast.Expr
		if x.Cond != nil {
			cond = simplify.Expr(l.cond(x.Cond))
		}
		body := l.block(x.Body)
		if len(init) <= 1 && len(post) <= 1 {
			f := &ast.For{ForPos: x.ForPos, Cond: cond, Body: body}
			if len(init) == 1 {
				f.Init = init[0]
			}
			if len(post) == 1 {
				f.Post = post[0]
			}
			return []ast.Stmt{f}
		}
		// A loop variable that may be absent takes two statements to set:
		// without break and continue, the loop is init; while (cond) { body;
		// post }, in a block that scopes init's locals.
		if cond == nil {
			cond = &ast.BoolLit{ValuePos: x.ForPos, Value: true}
		}
		body.Stmts = append(body.Stmts, post...)
		return []ast.Stmt{&ast.Block{Stmts: append(init, &ast.While{WhilePos: x.ForPos, Cond: cond, Body: body})}}
	case *ast.Raise:
		return []ast.Stmt{&ast.Raise{RaisePos: x.RaisePos, Event: x.Event, Args: l.args(x.Args), ID: x.ID, Platform: x.Platform}}
	case *ast.Send:
		var delay ast.Expr
		if x.Delay != nil {
			delay = l.value(x.Delay)
		}
		return []ast.Stmt{&ast.Send{SendPos: x.SendPos, Event: x.Event, Args: l.args(x.Args), Target: x.Target, Delay: delay, ID: x.ID}}
	case *ast.Assume:
		return []ast.Stmt{&ast.Assume{AssumePos: x.AssumePos, Cond: simplify.Expr(l.cond(x.Cond))}}
	case *ast.Bound:
		return []ast.Stmt{&ast.Bound{BoundPos: x.BoundPos, Name: x.Name, Limit: x.Limit, Cond: simplify.Expr(l.cond(x.Cond))}}
	}
	return []ast.Stmt{ast.RewriteStmt(s, func(e ast.Expr) ast.Expr { return e })}
}

// leafwise reports whether a value of t is lowered as more than one
// scalar (Leaves): it may be undefined, or is an array, an object or of
// several kinds.
func leafwise(t ast.Type) bool { return t.MayBeAbsent() || t.IsComposite() || t.Kind == ast.Mixed }

func (l *lowerer) elseStmt(s ast.Stmt) ast.Stmt {
	if s == nil {
		return nil
	}
	return l.stmt(s)[0] // a *Block or an *If: one statement each
}

// args lowers event arguments: one that may be absent is passed as its
// value and its tag.
func (l *lowerer) args(args []*ast.Arg) []*ast.Arg {
	var out []*ast.Arg
	for _, a := range args {
		t, known := l.info.Args[a]
		if !known {
			t = l.typ(a.Value)
		}
		if !t.MayBeAbsent() && !t.IsComposite() && t.Kind != ast.Mixed {
			out = append(out, &ast.Arg{NamePos: a.NamePos, Name: a.Name, Value: simplify.Expr(l.as(a.Value, t.Kind))})
			continue
		}
		vs := l.vec(a.Value, t)
		for i, f := range Leaves(t) {
			out = append(out, &ast.Arg{NamePos: a.NamePos, Name: f.Name(a.Name), Value: simplify.Expr(vs[i])})
		}
	}
	return out
}

// rounding writes the rounding built-in fun of the decimal v with Floor:
// Math.ceil(x) = -floor(-x), Math.round(x) = floor(x + 1/2) (ECMAScript
// rounds halves up), Math.trunc(x) = x < 0 ? ceil(x) : floor(x). v is
// copied where it occurs twice.
func rounding(fun string, v ast.Expr, pos source.Pos) ast.Expr {
	floor := func(e ast.Expr) ast.Expr { return &ast.Floor{Start: pos, X: e} }
	neg := func(e ast.Expr) ast.Expr { return &ast.Unary{OpPos: pos, Op: ast.SUB, X: e} }
	ceil := func(e ast.Expr) ast.Expr { return neg(floor(neg(e))) }
	switch fun {
	case "Math.ceil":
		return ceil(v)
	case "Math.round":
		return floor(&ast.Binary{X: v, OpPos: pos, Op: ast.ADD, Y: &ast.DecLit{ValuePos: pos, Value: big.NewRat(1, 2)}})
	case "Math.trunc":
		w := ast.RewriteExpr(v, func(e ast.Expr) ast.Expr { return e })
		return &ast.Cond{Cond: &ast.Binary{X: v, OpPos: pos, Op: ast.LSS, Y: &ast.DecLit{ValuePos: pos, Value: new(big.Rat)}}, Question: pos,
			Then: ceil(ast.RewriteExpr(v, func(e ast.Expr) ast.Expr { return e })), Else: floor(w)}
	}
	return floor(v)
}

// toString writes String(v) for v of kind k: an int's digits, with a '-'
// before those of its negation when it is negative; 'true' or 'false'; a
// string itself.
func toString(v ast.Expr, k ast.Kind, pos source.Pos) ast.Expr {
	switch k {
	case ast.Bool:
		return &ast.Cond{Cond: v, Question: pos, Then: &ast.StrLit{ValuePos: pos, Value: "true"}, Else: &ast.StrLit{ValuePos: pos, Value: "false"}}
	case ast.Int:
		w := ast.RewriteExpr(v, func(e ast.Expr) ast.Expr { return e })
		u := ast.RewriteExpr(v, func(e ast.Expr) ast.Expr { return e })
		return &ast.Cond{Cond: &ast.Binary{X: v, OpPos: pos, Op: ast.GEQ, Y: &ast.IntLit{ValuePos: pos}}, Question: pos,
			Then: &ast.Digits{Start: pos, X: w},
			Else: &ast.Binary{X: &ast.StrLit{ValuePos: pos, Value: "-"}, OpPos: pos, Op: ast.ADD, Y: &ast.Digits{Start: pos, X: &ast.Unary{OpPos: pos, Op: ast.SUB, X: u}}}}
	}
	return v
}
