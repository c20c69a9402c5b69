package lang

import (
	"math/big"
	"strings"

	"github.com/setbot/setbot/model/source"
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

// The tags of a value that may be absent.
const (
	AbsentValue     = 0 // a value of the variable's kind
	AbsentUndefined = 1
	AbsentNull      = 2
)

// AbsentType is the type of a tag.
var AbsentType = RangeType(AbsentValue, AbsentNull)

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
func ZeroValue(k Kind, pos source.Pos) Expr {
	switch k {
	case Bool:
		return &BoolLit{ValuePos: pos}
	case String:
		return &StrLit{ValuePos: pos}
	case Decimal:
		return &DecLit{ValuePos: pos, Value: new(big.Rat)}
	}
	return &IntLit{ValuePos: pos}
}

// LowerExpr returns e, checked with info, lowered; a condition (a guard)
// is lowered to a bool.
func LowerExpr(e Expr, info *Info, cond bool) Expr {
	l := lowerer{info: info}
	if cond {
		return Simplify(l.cond(e))
	}
	return Simplify(l.value(e))
}

// LowerBlock returns b, checked with info, lowered.
func LowerBlock(b *Block, info *Info) *Block {
	l := lowerer{info: info}
	return l.block(b)
}

type lowerer struct {
	info  *Info
	loops int // foreach loops lowered, to name their locals
}

func (l *lowerer) typ(e Expr) Type { return l.info.Types[e] }

// cond lowers e used as a condition.
func (l *lowerer) cond(e Expr) Expr {
	e = l.fold(e)
	t := l.typ(e)
	if t.IsComposite() {
		return &BoolLit{ValuePos: e.Pos(), Value: true} // objects are true
	}
	if t.Kind == Mixed {
		return l.view(e).truthy()
	}
	if t.MayBeAbsent() {
		v, tag := l.pair(e)
		has := eq(tag, AbsentValue)
		if t.Kind == Undef {
			return &BoolLit{ValuePos: e.Pos()}
		}
		return and(has, truthy(v, t.Kind))
	}
	return truthy(l.value(e), t.Kind)
}

// truthy is ECMAScript's ToBoolean of v, of kind k, as a bool expression.
func truthy(v Expr, k Kind) Expr {
	switch k {
	case EventRef, IOProcessorsRef:
		return &BoolLit{ValuePos: v.Pos(), Value: true} // objects are true
	case Int, Decimal, String:
		return &Binary{X: v, OpPos: v.Pos(), Op: NEQ, Y: ZeroValue(k, v.Pos())}
	case Undef:
		return &BoolLit{ValuePos: v.Pos()}
	}
	return v
}

func eq(x Expr, tag int64) Expr {
	return &Binary{X: x, OpPos: x.Pos(), Op: EQL, Y: &IntLit{ValuePos: x.Pos(), Value: tag}}
}

func and(x, y Expr) Expr { return &Binary{X: x, OpPos: x.Pos(), Op: LAND, Y: y} }
func or(x, y Expr) Expr  { return &Binary{X: x, OpPos: x.Pos(), Op: LOR, Y: y} }
func not(x Expr) Expr    { return &Unary{OpPos: x.Pos(), Op: NOT, X: x} }

// pair lowers e, which may be absent, to its value and its tag.
func (l *lowerer) pair(e Expr) (val, tag Expr) {
	e = l.fold(e)
	pos := e.Pos()
	t := l.typ(e)
	if !t.MayBeAbsent() {
		return l.value(e), &IntLit{ValuePos: pos, Value: AbsentValue}
	}
	switch x := e.(type) {
	case *Absent:
		tag := int64(AbsentUndefined)
		if x.Null {
			tag = AbsentNull
		}
		return ZeroValue(t.Kind, pos), &IntLit{ValuePos: pos, Value: tag}
	case *Ident:
		return &Ident{NamePos: pos, Name: x.Name}, &Ident{NamePos: pos, Name: AbsentName(x.Name)}
	case *EventParam:
		if t.Kind == Undef {
			// The events carry no such parameter: _event.data of an event
			// without data.
			return ZeroValue(Int, pos), &IntLit{ValuePos: pos, Value: AbsentUndefined}
		}
		return &EventParam{Start: pos, Name: x.Name}, &EventParam{Start: pos, Name: AbsentName(x.Name)}
	case *EventField:
		if x.Field == "" {
			// _event is the event being processed; before the first, undefined.
			has := &EventField{Start: pos}
			return &Cond{Cond: has, Question: pos, Then: &IntLit{ValuePos: pos, Value: EventCurrent}, Else: &IntLit{ValuePos: pos, Value: EventStale}},
				&Cond{Cond: has, Question: pos, Then: &IntLit{ValuePos: pos, Value: AbsentValue}, Else: &IntLit{ValuePos: pos, Value: AbsentUndefined}}
		}
		return &EventField{Start: pos, Field: x.Field}, &EventField{Start: pos, Field: AbsentName(x.Field)}
	case *Index, *Member, *Method:
		if v, tag, ok := l.scalar(e); ok {
			return v, tag
		}
	case *Cond:
		c := l.cond(x.Cond)
		v1, t1 := l.pair(x.Then)
		v2, t2 := l.pair(x.Else)
		// A branch that is undefined alone has the int placeholder: give it
		// the other branch's kind.
		if l.typ(x.Then).Kind == Undef {
			v1 = ZeroValue(t.Kind, pos)
		}
		if l.typ(x.Else).Kind == Undef {
			v2 = ZeroValue(t.Kind, pos)
		}
		// An int branch of a decimal ?: is converted.
		if t.Kind == Decimal && l.typ(x.Then).Kind == Int {
			v1 = &ToDecimal{Start: v1.Pos(), X: v1}
		}
		if t.Kind == Decimal && l.typ(x.Else).Kind == Int {
			v2 = &ToDecimal{Start: v2.Pos(), X: v2}
		}
		return &Cond{Cond: c, Question: x.Question, Then: v1, Else: v2},
			&Cond{Cond: c, Question: x.Question, Then: t1, Else: t2}
	}
	// The checker gives no other expression an Absent type.
	panic("lang: lowering an absent value of unexpected form " + ExprString(e))
}

// value lowers e, which the checker proved has a value wherever it is used
// as one (or which is a bool condition).
func (l *lowerer) value(e Expr) Expr {
	e = l.fold(e)
	if v, _, ok := l.scalar(e); ok {
		return v
	}
	if v, ok := l.mixedValue(e); ok {
		return v
	}
	switch x := e.(type) {
	case *SysVar:
		if x.Name == "_ioprocessors" && x.Processor == "" {
			return &IntLit{ValuePos: x.NamePos, Value: IOProcessorsID}
		}
	case *TypeOf:
		return l.typeOf(x)
	case *Unary:
		if x.Op == NOT {
			return not(l.cond(x.X))
		}
		return &Unary{OpPos: x.OpPos, Op: x.Op, X: l.value(x.X)}
	case *Binary:
		switch x.Op {
		case LAND, LOR:
			return &Binary{X: l.cond(x.X), OpPos: x.OpPos, Op: x.Op, Y: l.cond(x.Y)}
		case EQL, NEQ, SEQL, SNEQ:
			return l.equality(x)
		case IN:
			return l.in(x)
		}
		k := l.numberKind(x.X, x.Y)
		return &Binary{X: l.as(x.X, k), OpPos: x.OpPos, Op: x.Op, Y: l.as(x.Y, k)}
	case *Cond:
		k := l.typ(x).Kind
		return &Cond{Cond: l.cond(x.Cond), Question: x.Question, Then: l.as(x.Then, k), Else: l.as(x.Else, k)}
	case *Method:
		if l.typ(x.X).Kind == Array {
			return l.arrayMethod(x)
		}
		m := &Method{X: l.value(x.X), DotPos: x.DotPos, Name: x.Name, Call: x.Call}
		for _, a := range x.Args {
			m.Args = append(m.Args, l.value(a))
		}
		if x.Name == "slice" {
			return sliceOf(m)
		}
		return m
	case *ToDecimal:
		if l.typ(x.X).Kind == String {
			return &Convert{Start: x.Start, Fun: "Number", X: l.value(x.X)}
		}
		return &ToDecimal{Start: x.Start, X: l.value(x.X)}
	case *Call: // a rounding built-in, String or parseInt (the checker refuses the rest)
		v := l.value(x.Args[0])
		k := l.typ(x.Args[0]).Kind
		switch {
		case x.Fun == "String" && k == Decimal:
			return &Convert{Start: x.FunPos, Fun: "String", X: v}
		case x.Fun == "String":
			return toString(v, k, x.FunPos)
		case x.Fun == "parseInt" && k == Int:
			return v
		case x.Fun == "parseInt":
			return &Convert{Start: x.FunPos, Fun: "parseInt", X: v, Radix10: len(x.Args) == 2}
		}
		if l.typ(x.Args[0]).Kind != Decimal {
			return v // an int is its own rounding
		}
		return rounding(x.Fun, v, x.FunPos)
	case *External:
		c := &External{FunPos: x.FunPos, Fun: x.Fun, Params: x.Params, Result: x.Result}
		for i, a := range x.Args {
			c.Args = append(c.Args, l.as(a, x.Params[i].Kind))
		}
		return c
	}
	return RewriteExpr(e, func(e Expr) Expr { return e })
}

// numberKind returns Decimal when x and y are numbers of which one is a
// decimal, and Invalid otherwise: the kind both are converted to.
func (l *lowerer) numberKind(x, y Expr) Kind {
	k1, k2 := l.typ(x).Kind, l.typ(y).Kind
	if k1.IsNumber() && k2.IsNumber() && k1 != k2 {
		return Decimal
	}
	return Invalid
}

// as lowers e, which has a value, to a value of kind k: an int is
// converted where k is Decimal. Any other k leaves it as it is.
func (l *lowerer) as(e Expr, k Kind) Expr {
	v := l.value(e)
	if k == Decimal && l.typ(e).Kind == Int {
		return &ToDecimal{Start: e.Pos(), X: v}
	}
	return v
}

// typeOf lowers typeof x to the string its kind and tag give.
func (l *lowerer) typeOf(x *TypeOf) Expr {
	t := l.typ(x.X)
	pos := x.OpPos
	if t.Kind == Mixed {
		return l.view(x.X).typeOf(pos)
	}
	name := &StrLit{ValuePos: pos, Value: typeofName[t.Kind]}
	if !t.MayBeAbsent() {
		return name
	}
	_, tag := l.pair(x.X)
	return &Cond{Cond: eq(tag, AbsentUndefined), Question: pos, Then: &StrLit{ValuePos: pos, Value: "undefined"},
		Else: &Cond{Cond: eq(tag, AbsentNull), Question: pos, Then: &StrLit{ValuePos: pos, Value: "object"}, Else: name}}
}

// typeofName is what typeof gives for a value of each kind.
var typeofName = map[Kind]string{Int: "number", Decimal: "number", Bool: "boolean", String: "string", Undef: "undefined", Array: "object", Object: "object",
	EventRef: "object", IOProcessorsRef: "object"}

// in lowers 'f' in o, which o's type decides. Of _event it reads the
// event's name, so that where no event is being processed (ECMAScript
// throws there) the flattener reports it.
func (l *lowerer) in(x *Binary) Expr {
	f := x.X.(*StrLit).Value
	has := HasField(l.typ(x.Y), f)
	if isEvent(x.Y) && has {
		name := &EventField{Start: x.Y.Pos(), Field: "name"}
		return &Binary{X: name, OpPos: x.OpPos, Op: EQL, Y: &EventField{Start: x.Y.Pos(), Field: "name"}}
	}
	return &BoolLit{ValuePos: x.OpPos, Value: has}
}

// equality lowers ==, !=, === and !==.
func (l *lowerer) equality(x *Binary) Expr {
	t1, t2 := l.typ(x.X), l.typ(x.Y)
	strict := x.Op == SEQL || x.Op == SNEQ
	negate := x.Op == NEQ || x.Op == SNEQ
	if t1.Kind == Mixed || t2.Kind == Mixed {
		r := l.view(x.X).equal(l.view(x.Y), strict, x.OpPos)
		if negate {
			return not(r)
		}
		return r
	}
	if t1.Kind != t2.Kind && t1.Kind.IsRef() && t2.Kind.IsRef() {
		return &BoolLit{ValuePos: x.OpPos, Value: negate} // different platform objects
	}
	if !t1.MayBeAbsent() && !t2.MayBeAbsent() {
		op := EQL
		if negate {
			op = NEQ
		}
		k := l.numberKind(x.X, x.Y)
		return &Binary{X: l.as(x.X, k), OpPos: x.OpPos, Op: op, Y: l.as(x.Y, k)}
	}
	v1, g1 := l.pair(x.X)
	v2, g2 := l.pair(x.Y)
	var r Expr
	if strict {
		r = strictEqual(x.OpPos, v1, g1, t1.Kind, v2, g2, t2.Kind)
	} else {
		values := sameValues(x.OpPos, v1, t1.Kind, v2, t2.Kind)
		bothValues := and(eq(g1, AbsentValue), eq(g2, AbsentValue))
		neither := and(not(eq(g1, AbsentValue)), not(eq(g2, AbsentValue)))
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
func strictEqual(pos source.Pos, v1, g1 Expr, k1 Kind, v2, g2 Expr, k2 Kind) Expr {
	sameTag := &Binary{X: g1, OpPos: pos, Op: EQL, Y: g2}
	return and(sameTag, or(not(eq(g1, AbsentValue)), sameValues(pos, v1, k1, v2, k2)))
}

// sameValues compares two lowered values, which are equal only when both
// are of the same kind, or both numbers (an int as the decimal of its
// value: ECMAScript's 1 === 1.0).
func sameValues(pos source.Pos, v1 Expr, k1 Kind, v2 Expr, k2 Kind) Expr {
	if k1 == k2 && k1 != Undef {
		return &Binary{X: v1, OpPos: pos, Op: EQL, Y: v2}
	}
	if k1.IsNumber() && k2.IsNumber() {
		if k1 == Int {
			v1 = &ToDecimal{Start: v1.Pos(), X: v1}
		} else {
			v2 = &ToDecimal{Start: v2.Pos(), X: v2}
		}
		return &Binary{X: v1, OpPos: pos, Op: EQL, Y: v2}
	}
	return &BoolLit{ValuePos: pos}
}

func (l *lowerer) block(b *Block) *Block {
	if b == nil {
		return nil
	}
	out := &Block{Lbrace: b.Lbrace}
	for _, s := range b.Stmts {
		out.Stmts = append(out.Stmts, l.stmt(s)...)
	}
	return out
}

// stmt lowers one statement to one or more.
func (l *lowerer) stmt(s Stmt) []Stmt {
	switch x := s.(type) {
	case *Block:
		return []Stmt{l.block(x)}
	case *Assign:
		name := pathName(x.Target, x.Path)
		tt := locType(l.typ(x.Target), x.Path)
		if x.Op == ASSIGN && leafwise(tt) {
			out := assignLeaves(name, tt, l.vec(x.Value, tt), x.OpPos)
			if Grows(tt, l.typ(x.Value)) {
				out = append([]Stmt{l.arrayBound(x.Value, tt, x.Target.NamePos)}, out...)
			}
			return out
		}
		return []Stmt{&Assign{Target: &Ident{NamePos: x.Target.NamePos, Name: name}, OpPos: x.OpPos, Op: x.Op, Value: Simplify(l.as(x.Value, tt.Kind))}}
	case *IncDec:
		return []Stmt{&IncDec{Target: &Ident{NamePos: x.Target.NamePos, Name: pathName(x.Target, x.Path)}, OpPos: x.OpPos, Op: x.Op}}
	case *ForEach:
		return l.forEach(x)
	case *Decl:
		t := l.typ(x.Name)
		if t.IsComposite() || t.Kind == Mixed {
			return declLeaves(x.Name.Name, t, l.vec(x.Value, t), x.DeclPos)
		}
		if !t.MayBeAbsent() {
			d := &Decl{DeclPos: x.DeclPos, Name: copyIdent(x.Name), Type: x.Type}
			if x.Value != nil {
				d.Value = Simplify(l.value(x.Value))
			}
			return []Stmt{d}
		}
		v, tag := l.pair(x.Value)
		if l.typ(x.Value).Kind == Undef {
			v = ZeroValue(t.Kind, x.Value.Pos())
		}
		return []Stmt{
			&Decl{DeclPos: x.DeclPos, Name: copyIdent(x.Name), Type: x.Type, Value: Simplify(v)},
			&Decl{DeclPos: x.DeclPos, Name: &Ident{NamePos: x.Name.NamePos, Name: AbsentName(x.Name.Name)}, Type: AbsentType, Value: Simplify(tag)},
		}
	case *If:
		return []Stmt{&If{IfPos: x.IfPos, Cond: Simplify(l.cond(x.Cond)), Then: l.block(x.Then), Else: l.elseStmt(x.Else)}}
	case *While:
		return []Stmt{&While{WhilePos: x.WhilePos, Cond: Simplify(l.cond(x.Cond)), Body: l.block(x.Body)}}
	case *For:
		var init, post []Stmt
		if x.Init != nil {
			init = l.stmt(x.Init)
		}
		if x.Post != nil {
			post = l.stmt(x.Post)
		}
		var cond Expr
		if x.Cond != nil {
			cond = Simplify(l.cond(x.Cond))
		}
		body := l.block(x.Body)
		if len(init) <= 1 && len(post) <= 1 {
			f := &For{ForPos: x.ForPos, Cond: cond, Body: body}
			if len(init) == 1 {
				f.Init = init[0]
			}
			if len(post) == 1 {
				f.Post = post[0]
			}
			return []Stmt{f}
		}
		// A loop variable that may be absent takes two statements to set:
		// without break and continue, the loop is init; while (cond) { body;
		// post }, in a block that scopes init's locals.
		if cond == nil {
			cond = &BoolLit{ValuePos: x.ForPos, Value: true}
		}
		body.Stmts = append(body.Stmts, post...)
		return []Stmt{&Block{Stmts: append(init, &While{WhilePos: x.ForPos, Cond: cond, Body: body})}}
	case *Raise:
		return []Stmt{&Raise{RaisePos: x.RaisePos, Event: x.Event, Args: l.args(x.Args), ID: x.ID, Platform: x.Platform}}
	case *Send:
		var delay Expr
		if x.Delay != nil {
			delay = l.value(x.Delay)
		}
		return []Stmt{&Send{SendPos: x.SendPos, Event: x.Event, Args: l.args(x.Args), Target: x.Target, Delay: delay, ID: x.ID}}
	case *Assume:
		return []Stmt{&Assume{AssumePos: x.AssumePos, Cond: Simplify(l.cond(x.Cond))}}
	case *Bound:
		return []Stmt{&Bound{BoundPos: x.BoundPos, Name: x.Name, Limit: x.Limit, Cond: Simplify(l.cond(x.Cond))}}
	}
	return []Stmt{rewriteStmt(s, func(e Expr) Expr { return e })}
}

// leafwise reports whether a value of t is lowered as more than one
// scalar (Leaves): it may be undefined, or is an array, an object or of
// several kinds.
func leafwise(t Type) bool { return t.MayBeAbsent() || t.IsComposite() || t.Kind == Mixed }

func (l *lowerer) elseStmt(s Stmt) Stmt {
	if s == nil {
		return nil
	}
	return l.stmt(s)[0] // a *Block or an *If: one statement each
}

// args lowers event arguments: one that may be absent is passed as its
// value and its tag.
func (l *lowerer) args(args []*Arg) []*Arg {
	var out []*Arg
	for _, a := range args {
		t, known := l.info.Args[a]
		if !known {
			t = l.typ(a.Value)
		}
		if !t.MayBeAbsent() && !t.IsComposite() && t.Kind != Mixed {
			out = append(out, &Arg{NamePos: a.NamePos, Name: a.Name, Value: Simplify(l.as(a.Value, t.Kind))})
			continue
		}
		vs := l.vec(a.Value, t)
		for i, f := range Leaves(t) {
			out = append(out, &Arg{NamePos: a.NamePos, Name: f.Name(a.Name), Value: Simplify(vs[i])})
		}
	}
	return out
}

// rounding writes the rounding built-in fun of the decimal v with Floor:
// Math.ceil(x) = -floor(-x), Math.round(x) = floor(x + 1/2) (ECMAScript
// rounds halves up), Math.trunc(x) = x < 0 ? ceil(x) : floor(x). v is
// copied where it occurs twice.
func rounding(fun string, v Expr, pos source.Pos) Expr {
	floor := func(e Expr) Expr { return &Floor{Start: pos, X: e} }
	neg := func(e Expr) Expr { return &Unary{OpPos: pos, Op: SUB, X: e} }
	ceil := func(e Expr) Expr { return neg(floor(neg(e))) }
	switch fun {
	case "Math.ceil":
		return ceil(v)
	case "Math.round":
		return floor(&Binary{X: v, OpPos: pos, Op: ADD, Y: &DecLit{ValuePos: pos, Value: big.NewRat(1, 2)}})
	case "Math.trunc":
		w := RewriteExpr(v, func(e Expr) Expr { return e })
		return &Cond{Cond: &Binary{X: v, OpPos: pos, Op: LSS, Y: &DecLit{ValuePos: pos, Value: new(big.Rat)}}, Question: pos,
			Then: ceil(RewriteExpr(v, func(e Expr) Expr { return e })), Else: floor(w)}
	}
	return floor(v)
}

// toString writes String(v) for v of kind k: an int's digits, with a '-'
// before those of its negation when it is negative; 'true' or 'false'; a
// string itself.
func toString(v Expr, k Kind, pos source.Pos) Expr {
	switch k {
	case Bool:
		return &Cond{Cond: v, Question: pos, Then: &StrLit{ValuePos: pos, Value: "true"}, Else: &StrLit{ValuePos: pos, Value: "false"}}
	case Int:
		w := RewriteExpr(v, func(e Expr) Expr { return e })
		u := RewriteExpr(v, func(e Expr) Expr { return e })
		return &Cond{Cond: &Binary{X: v, OpPos: pos, Op: GEQ, Y: &IntLit{ValuePos: pos}}, Question: pos,
			Then: &Digits{Start: pos, X: w},
			Else: &Binary{X: &StrLit{ValuePos: pos, Value: "-"}, OpPos: pos, Op: ADD, Y: &Digits{Start: pos, X: &Unary{OpPos: pos, Op: SUB, X: u}}}}
	}
	return v
}

// sliceOf lowers s.slice(start, end) of a string (m, its parts lowered) to
// the substring it is, as ECMAScript computes it: a negative index counts
// from the end (length + i, at least 0), end defaults to the length, and an
// end before the start gives the empty string (where substring would swap
// them). The string and the indexes are read more than once: lowered
// expressions have no side effects.
func sliceOf(m *Method) Expr {
	pos := m.DotPos
	length := &Method{X: m.X, DotPos: pos, Name: "length"}
	zero := &IntLit{ValuePos: pos}
	norm := func(i Expr) Expr {
		fromEnd := &Binary{X: length, OpPos: pos, Op: ADD, Y: i}
		clamped := &Cond{Cond: &Binary{X: fromEnd, OpPos: pos, Op: LSS, Y: zero}, Question: pos, Then: zero, Else: fromEnd}
		return &Cond{Cond: &Binary{X: i, OpPos: pos, Op: LSS, Y: zero}, Question: pos, Then: clamped, Else: i}
	}
	start := norm(m.Args[0])
	var end Expr = length
	if len(m.Args) > 1 {
		end = norm(m.Args[1])
	}
	end = &Cond{Cond: &Binary{X: end, OpPos: pos, Op: LSS, Y: start}, Question: pos, Then: start, Else: end}
	return Simplify(&Method{X: m.X, DotPos: pos, Name: "substring", Call: true, Args: []Expr{start, end}})
}
