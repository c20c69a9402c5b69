package lower

import (
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/simplify"

	"github.com/setbot/setbot/model/lang"
)

// A value of a Mixed type (an int or a string, say) is lowered as one
// value per kind it may have, named by KindName, and a tag, named by
// AbsentName as an undefined value's is: MixedTag of the kind it holds,
// or AbsentUndefined or AbsentNull. The values of the kinds it does not
// hold are the zero values of their kinds. ECMAScript's operations on it
// become a case analysis over the kinds (a view): truthiness, typeof, ==
// and ===, + and the comparisons, String(), each as ECMAScript defines it
// for the kinds of the case.

// A view is a scalar value seen as the kinds it may have: for each, its
// value of that kind and the condition under which it holds that kind;
// and the conditions under which it is undefined and null (nil where it
// cannot be). Exactly one of the conditions holds.
type view struct {
	alts        []alt
	undef, null ast.Expr
}

// alt is one case of a viewed value: a kind it may have, or undefined
// (kind Undef) or null (kind Undef and null set).
type alt struct {
	kind    ast.Kind
	val, is ast.Expr
	null    bool
}

// fold returns the branch a ?: with a constant condition takes (the
// checker types it as that branch), and any other e as it is.
func (l *lowerer) fold(e ast.Expr) ast.Expr {
	for {
		x, ok := e.(*ast.Cond)
		if !ok {
			return e
		}
		then, ok := lang.ConstCond(x)
		switch {
		case !ok:
			return e
		case then:
			e = x.Then
		default:
			e = x.Else
		}
	}
}

// view lowers the scalar e to a view of its kinds.
func (l *lowerer) view(e ast.Expr) view {
	e = l.fold(e)
	t := l.typ(e)
	pos := e.Pos()
	switch {
	case t.Kind == ast.Mixed:
		ps := l.parts(e)
		tag := ps[len(ps)-1].x
		var v view
		for i, k := range t.Kinds.List() {
			v.alts = append(v.alts, alt{kind: k, val: ps[i].x, is: eq(dup(tag), ast.MixedTag(t, k))})
		}
		if t.Absent {
			v.undef, v.null = eq(dup(tag), ast.AbsentUndefined), eq(dup(tag), ast.AbsentNull)
		}
		return v
	case t.MayBeAbsent():
		val, tag := l.pair(e)
		v := view{undef: eq(tag, ast.AbsentUndefined), null: eq(dup(tag), ast.AbsentNull)}
		if t.Kind != ast.Undef {
			v.alts = []alt{{kind: t.Kind, val: val, is: eq(dup(tag), ast.AbsentValue)}}
		}
		return v
	}
	return view{alts: []alt{{kind: t.Kind, val: l.value(e), is: &ast.BoolLit{ValuePos: pos, Value: true}}}}
}

// dup copies e, which a lowering writes in more than one place.
func dup(e ast.Expr) ast.Expr { return ast.RewriteExpr(e, func(e ast.Expr) ast.Expr { return e }) }

// cases returns the view's cases in order: its kinds, then undefined and
// null where it may be those (as kind Undef, with the value nil).
func (v view) cases() []alt {
	out := append([]alt(nil), v.alts...)
	if v.undef != nil {
		out = append(out, alt{kind: ast.Undef, is: v.undef})
	}
	if v.null != nil {
		out = append(out, alt{kind: ast.Undef, is: v.null, null: true})
	}
	return out
}

// choose writes the chain "c1 ? x1 : c2 ? x2 : ... xn" over the cases
// for which pick gives an expression; the last needs no test, since one
// case holds. def is the value where no case gives one.
func choose(cases []alt, pick func(a alt) ast.Expr, def ast.Expr) ast.Expr {
	var out ast.Expr
	for i := len(cases) - 1; i >= 0; i-- {
		x := pick(cases[i])
		switch {
		case x == nil:
		case out == nil:
			out = x
		default:
			out = &ast.Cond{Cond: cases[i].is, Question: x.Pos(), Then: x, Else: out}
		}
	}
	if out == nil {
		return def
	}
	return simplify.Expr(out)
}

// truthy is ECMAScript's ToBoolean of the viewed value.
func (v view) truthy() ast.Expr {
	var out ast.Expr
	for _, a := range v.alts {
		c := and(a.is, truthy(a.val, a.kind))
		if out == nil {
			out = c
			continue
		}
		out = or(out, c)
	}
	if out == nil {
		return &ast.BoolLit{}
	}
	return simplify.Expr(out)
}

// typeOf is typeof of the viewed value.
func (v view) typeOf(pos source.Pos) ast.Expr {
	return choose(v.cases(), func(a alt) ast.Expr {
		name := typeofName[a.kind]
		if a.null {
			name = "object" // typeof null
		}
		return &ast.StrLit{ValuePos: pos, Value: name}
	}, nil)
}

// equal is v == w (strict: v === w) as ECMAScript compares: values of one
// kind (or two numbers) by value; undefined and null equal each other
// under == and themselves under ===; under ==, a bool is the number 1 or
// 0 and a string meets a number as Number(s).
func (v view) equal(w view, strict bool, pos source.Pos) ast.Expr {
	var out ast.Expr = &ast.BoolLit{ValuePos: pos}
	add := func(c ast.Expr) { out = or(out, c) }
	for _, a := range v.alts {
		for _, b := range w.alts {
			if same := looseEqual(a.kind, a.val, b.kind, b.val, strict, pos); same != nil {
				add(and(and(a.is, b.is), same))
			}
		}
	}
	switch {
	case strict:
		if v.undef != nil && w.undef != nil {
			add(and(v.undef, w.undef))
		}
		if v.null != nil && w.null != nil {
			add(and(v.null, w.null))
		}
	default:
		for _, a := range []ast.Expr{v.undef, v.null} {
			for _, b := range []ast.Expr{w.undef, w.null} {
				if a != nil && b != nil {
					add(and(a, b))
				}
			}
		}
	}
	return simplify.Expr(out)
}

// looseEqual compares x of kind k1 with y of kind k2 (== or, strict,
// ===), or returns nil where they are never equal.
func looseEqual(k1 ast.Kind, x ast.Expr, k2 ast.Kind, y ast.Expr, strict bool, pos source.Pos) ast.Expr {
	switch {
	case k1 == k2 || k1.IsNumber() && k2.IsNumber():
		return sameValues(pos, dup(x), k1, dup(y), k2)
	case strict:
		return nil
	case k1 == ast.Bool:
		return looseEqual(ast.Int, boolNumber(x, pos), k2, y, false, pos)
	case k2 == ast.Bool:
		return looseEqual(k1, x, ast.Int, boolNumber(y, pos), false, pos)
	case k1.IsNumber() && k2 == ast.String:
		return sameValues(pos, dup(x), k1, &ast.Convert{Start: pos, Fun: "Number", X: dup(y)}, ast.Decimal)
	case k1 == ast.String && k2.IsNumber():
		return sameValues(pos, &ast.Convert{Start: pos, Fun: "Number", X: dup(x)}, ast.Decimal, dup(y), k2)
	}
	return nil
}

// boolNumber is ToNumber of the bool b: 1 or 0.
func boolNumber(b ast.Expr, pos source.Pos) ast.Expr {
	return &ast.Cond{Cond: dup(b), Question: pos, Then: &ast.IntLit{ValuePos: pos, Value: 1}, Else: &ast.IntLit{ValuePos: pos}}
}

// binary views x op y, + or a comparison with an operand of a Mixed type,
// case by case over the two operands' kinds (mixedResult).
func (l *lowerer) binary(x *ast.Binary) view {
	v, w := l.view(x.X), l.view(x.Y)
	var out view
	for _, a := range v.cases() {
		for _, b := range w.cases() {
			k, _ := lang.MixedResult(x.Op, a.kind, b.kind)
			out.alts = append(out.alts, alt{kind: k, val: operate(x.Op, a, b, x.OpPos), is: and(a.is, b.is)})
		}
	}
	return out
}

// spelled gives the cases undefined and null their string values: what +
// joins.
func spelled(a alt) alt {
	if a.kind != ast.Undef {
		return a
	}
	s := "undefined"
	if a.null {
		s = "null"
	}
	a.val = &ast.StrLit{ValuePos: a.is.Pos(), Value: s}
	return a
}

// operate computes a op b for the kinds of one case (mixedResult says
// which are modelled).
func operate(op ast.Token, a, b alt, pos source.Pos) ast.Expr {
	if op == ast.ADD && (a.kind == ast.String || b.kind == ast.String) {
		a, b = spelled(a), spelled(b)
		return &ast.Binary{X: stringOf(dup(a.val), a.kind, pos), OpPos: pos, Op: ast.ADD, Y: stringOf(dup(b.val), b.kind, pos)}
	}
	if a.kind == ast.String && b.kind == ast.String {
		return &ast.Binary{X: dup(a.val), OpPos: pos, Op: op, Y: dup(b.val)}
	}
	if op != ast.ADD && (a.kind == ast.Undef && !a.null || b.kind == ast.Undef && !b.null) {
		return &ast.BoolLit{ValuePos: pos} // undefined is NaN, which compares false
	}
	// Numbers: a string meets a number as Number(s), null is 0 and
	// undefined NaN, which the conversion of the word cuts the path at.
	k := ast.Int
	if a.kind == ast.String || b.kind == ast.String || a.kind == ast.Decimal || b.kind == ast.Decimal {
		k = ast.Decimal
	}
	return &ast.Binary{X: toNumber(a, k, pos), OpPos: pos, Op: op, Y: toNumber(b, k, pos)}
}

// toNumber is ECMAScript's ToNumber of the case a, as a number of kind k.
func toNumber(a alt, k ast.Kind, pos source.Pos) ast.Expr {
	var x ast.Expr
	switch {
	case a.kind == ast.Undef && a.null:
		x = &ast.IntLit{ValuePos: pos}
	case a.kind == ast.Undef && k == ast.Int:
		return &ast.Convert{Start: pos, Fun: "parseInt", X: &ast.StrLit{ValuePos: pos, Value: "undefined"}}
	case a.kind == ast.Undef:
		return &ast.Convert{Start: pos, Fun: "Number", X: &ast.StrLit{ValuePos: pos, Value: "undefined"}}
	case a.kind == ast.String:
		return &ast.Convert{Start: pos, Fun: "Number", X: dup(a.val)}
	default:
		x = dup(a.val)
	}
	if k == ast.Decimal && (a.kind == ast.Int || a.kind == ast.Undef) {
		return &ast.ToDecimal{Start: pos, X: x}
	}
	return x
}

// stringOf is String(x) for x of kind k (a string, for undefined and null
// their spelling).
func stringOf(x ast.Expr, k ast.Kind, pos source.Pos) ast.Expr {
	if k == ast.Decimal {
		return &ast.Convert{Start: pos, Fun: "String", X: x}
	}
	return toString(x, k, pos)
}

// mixedValue lowers e where it is a plain value computed from a Mixed one
// (a comparison, + that gives one kind, String()), or a string joined to a
// value that may be undefined or null (lang.AbsentConcat), and reports
// whether it was one.
func (l *lowerer) mixedValue(e ast.Expr) (ast.Expr, bool) {
	switch x := e.(type) {
	case *ast.Binary:
		mixed := l.typ(x.X).Kind == ast.Mixed || l.typ(x.Y).Kind == ast.Mixed
		if !mixed && !lang.AbsentConcat(x.Op, l.typ(x.X), l.typ(x.Y)) || x.Op != ast.ADD && x.Op != ast.LSS && x.Op != ast.GTR && x.Op != ast.LEQ && x.Op != ast.GEQ {
			return nil, false
		}
		k := l.typ(e).Kind
		if k == ast.Mixed {
			panic("lang: lowering " + printer.ExprString(e) + ", of several kinds, as one value")
		}
		return choose(l.binary(x).alts, func(a alt) ast.Expr { return as(a, k) }, ZeroValue(k, x.OpPos)), true
	case *ast.Call:
		if x.Fun != "String" || len(x.Args) != 1 || l.typ(x.Args[0]).Kind != ast.Mixed {
			return nil, false
		}
		v := l.view(x.Args[0])
		return choose(v.cases(), func(a alt) ast.Expr { return stringOf(dup(spelled(a).val), a.kind, x.FunPos) }, nil), true
	}
	return nil, false
}

// as converts the value of a case to kind k: an int to a decimal.
func as(a alt, k ast.Kind) ast.Expr {
	if k == ast.Decimal && a.kind == ast.Int {
		return &ast.ToDecimal{Start: a.val.Pos(), X: a.val}
	}
	return a.val
}

// encode lowers e to the leaves of t, a Mixed type its value is
// assignable to: per kind of t the value where e holds that kind (the
// zero value elsewhere), and the tag.
func (l *lowerer) encode(e ast.Expr, t ast.Type) []ast.Expr {
	if et := l.typ(l.fold(e)); et == t {
		ps := l.parts(e)
		out := make([]ast.Expr, len(ps))
		for i, p := range ps {
			out[i] = p.x
		}
		return out
	}
	return l.encodeView(l.view(e), t, e.Pos())
}

// tagOf is the tag, in t's encoding, of a value with the given cases.
func tagOf(cases []alt, t ast.Type, pos source.Pos) ast.Expr {
	return choose(cases, func(a alt) ast.Expr {
		switch {
		case a.null:
			return &ast.IntLit{ValuePos: pos, Value: ast.AbsentNull}
		case a.kind == ast.Undef:
			return &ast.IntLit{ValuePos: pos, Value: ast.AbsentUndefined}
		case a.kind == ast.Int && !t.Kinds.Has(ast.Int):
			return &ast.IntLit{ValuePos: pos, Value: ast.MixedTag(t, ast.Decimal)}
		}
		return &ast.IntLit{ValuePos: pos, Value: ast.MixedTag(t, a.kind)}
	}, nil)
}

// mixedLeaves lowers e, of the Mixed type t and no variable or parameter,
// to t's leaves: a ?: leaf by leaf, a + case by case.
func (l *lowerer) mixedLeaves(e ast.Expr, t ast.Type) []ast.Expr {
	switch x := e.(type) {
	case *ast.Cond:
		c := simplify.Expr(l.cond(x.Cond))
		a, b := l.vec(x.Then, t), l.vec(x.Else, t)
		out := make([]ast.Expr, len(a))
		for i := range a {
			out[i] = &ast.Cond{Cond: dup(c), Question: x.Question, Then: a[i], Else: b[i]}
		}
		return out
	case *ast.Binary:
		return l.encodeView(l.binary(x), t, x.OpPos)
	}
	panic("lang: lowering a value of several kinds of unexpected form " + printer.ExprString(e))
}

// encodeView is encode for a view already lowered.
func (l *lowerer) encodeView(v view, t ast.Type, pos source.Pos) []ast.Expr {
	cases := v.cases()
	var out []ast.Expr
	for _, k := range t.Kinds.List() {
		out = append(out, choose(cases, func(a alt) ast.Expr {
			if a.kind != k && !(k == ast.Decimal && a.kind == ast.Int) {
				return ZeroValue(k, pos)
			}
			return as(a, k)
		}, ZeroValue(k, pos)))
	}
	return append(out, tagOf(cases, t, pos))
}
