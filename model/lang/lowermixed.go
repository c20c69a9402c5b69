package lang

import "github.com/setbot/setbot/model/source"

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
	undef, null Expr
}

// alt is one case of a viewed value: a kind it may have, or undefined
// (kind Undef) or null (kind Undef and null set).
type alt struct {
	kind    Kind
	val, is Expr
	null    bool
}

// fold returns the branch a ?: with a constant condition takes (the
// checker types it as that branch), and any other e as it is.
func (l *lowerer) fold(e Expr) Expr {
	for {
		x, ok := e.(*Cond)
		if !ok {
			return e
		}
		then, ok := ConstCond(x)
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
func (l *lowerer) view(e Expr) view {
	e = l.fold(e)
	t := l.typ(e)
	pos := e.Pos()
	switch {
	case t.Kind == Mixed:
		ps := l.parts(e)
		tag := ps[len(ps)-1].x
		var v view
		for i, k := range t.Kinds.List() {
			v.alts = append(v.alts, alt{kind: k, val: ps[i].x, is: eq(dup(tag), MixedTag(t, k))})
		}
		if t.Absent {
			v.undef, v.null = eq(dup(tag), AbsentUndefined), eq(dup(tag), AbsentNull)
		}
		return v
	case t.MayBeAbsent():
		val, tag := l.pair(e)
		v := view{undef: eq(tag, AbsentUndefined), null: eq(dup(tag), AbsentNull)}
		if t.Kind != Undef {
			v.alts = []alt{{kind: t.Kind, val: val, is: eq(dup(tag), AbsentValue)}}
		}
		return v
	}
	return view{alts: []alt{{kind: t.Kind, val: l.value(e), is: &BoolLit{ValuePos: pos, Value: true}}}}
}

// dup copies e, which a lowering writes in more than one place.
func dup(e Expr) Expr { return RewriteExpr(e, func(e Expr) Expr { return e }) }

// cases returns the view's cases in order: its kinds, then undefined and
// null where it may be those (as kind Undef, with the value nil).
func (v view) cases() []alt {
	out := append([]alt(nil), v.alts...)
	if v.undef != nil {
		out = append(out, alt{kind: Undef, is: v.undef})
	}
	if v.null != nil {
		out = append(out, alt{kind: Undef, is: v.null, null: true})
	}
	return out
}

// choose writes the chain "c1 ? x1 : c2 ? x2 : ... xn" over the cases
// for which pick gives an expression; the last needs no test, since one
// case holds. def is the value where no case gives one.
func choose(cases []alt, pick func(a alt) Expr, def Expr) Expr {
	var out Expr
	for i := len(cases) - 1; i >= 0; i-- {
		x := pick(cases[i])
		switch {
		case x == nil:
		case out == nil:
			out = x
		default:
			out = &Cond{Cond: cases[i].is, Question: x.Pos(), Then: x, Else: out}
		}
	}
	if out == nil {
		return def
	}
	return Simplify(out)
}

// truthy is ECMAScript's ToBoolean of the viewed value.
func (v view) truthy() Expr {
	var out Expr
	for _, a := range v.alts {
		c := and(a.is, truthy(a.val, a.kind))
		if out == nil {
			out = c
			continue
		}
		out = or(out, c)
	}
	if out == nil {
		return &BoolLit{}
	}
	return Simplify(out)
}

// typeOf is typeof of the viewed value.
func (v view) typeOf(pos source.Pos) Expr {
	return choose(v.cases(), func(a alt) Expr {
		name := typeofName[a.kind]
		if a.null {
			name = "object" // typeof null
		}
		return &StrLit{ValuePos: pos, Value: name}
	}, nil)
}

// equal is v == w (strict: v === w) as ECMAScript compares: values of one
// kind (or two numbers) by value; undefined and null equal each other
// under == and themselves under ===; under ==, a bool is the number 1 or
// 0 and a string meets a number as Number(s).
func (v view) equal(w view, strict bool, pos source.Pos) Expr {
	var out Expr = &BoolLit{ValuePos: pos}
	add := func(c Expr) { out = or(out, c) }
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
		for _, a := range []Expr{v.undef, v.null} {
			for _, b := range []Expr{w.undef, w.null} {
				if a != nil && b != nil {
					add(and(a, b))
				}
			}
		}
	}
	return Simplify(out)
}

// looseEqual compares x of kind k1 with y of kind k2 (== or, strict,
// ===), or returns nil where they are never equal.
func looseEqual(k1 Kind, x Expr, k2 Kind, y Expr, strict bool, pos source.Pos) Expr {
	switch {
	case k1 == k2 || k1.IsNumber() && k2.IsNumber():
		return sameValues(pos, dup(x), k1, dup(y), k2)
	case strict:
		return nil
	case k1 == Bool:
		return looseEqual(Int, boolNumber(x, pos), k2, y, false, pos)
	case k2 == Bool:
		return looseEqual(k1, x, Int, boolNumber(y, pos), false, pos)
	case k1.IsNumber() && k2 == String:
		return sameValues(pos, dup(x), k1, &Convert{Start: pos, Fun: "Number", X: dup(y)}, Decimal)
	case k1 == String && k2.IsNumber():
		return sameValues(pos, &Convert{Start: pos, Fun: "Number", X: dup(x)}, Decimal, dup(y), k2)
	}
	return nil
}

// boolNumber is ToNumber of the bool b: 1 or 0.
func boolNumber(b Expr, pos source.Pos) Expr {
	return &Cond{Cond: dup(b), Question: pos, Then: &IntLit{ValuePos: pos, Value: 1}, Else: &IntLit{ValuePos: pos}}
}

// binary views x op y, + or a comparison with an operand of a Mixed type,
// case by case over the two operands' kinds (mixedResult).
func (l *lowerer) binary(x *Binary) view {
	v, w := l.view(x.X), l.view(x.Y)
	var out view
	for _, a := range v.cases() {
		for _, b := range w.cases() {
			k, _ := mixedResult(x.Op, a.kind, b.kind)
			out.alts = append(out.alts, alt{kind: k, val: operate(x.Op, a, b, x.OpPos), is: and(a.is, b.is)})
		}
	}
	return out
}

// spelled gives the cases undefined and null their string values: what +
// joins.
func spelled(a alt) alt {
	if a.kind != Undef {
		return a
	}
	s := "undefined"
	if a.null {
		s = "null"
	}
	a.val = &StrLit{ValuePos: a.is.Pos(), Value: s}
	return a
}

// operate computes a op b for the kinds of one case (mixedResult says
// which are modelled).
func operate(op Token, a, b alt, pos source.Pos) Expr {
	if op == ADD && (a.kind == String || b.kind == String) {
		a, b = spelled(a), spelled(b)
		return &Binary{X: stringOf(dup(a.val), a.kind, pos), OpPos: pos, Op: ADD, Y: stringOf(dup(b.val), b.kind, pos)}
	}
	if a.kind == String && b.kind == String {
		return &Binary{X: dup(a.val), OpPos: pos, Op: op, Y: dup(b.val)}
	}
	if op != ADD && (a.kind == Undef && !a.null || b.kind == Undef && !b.null) {
		return &BoolLit{ValuePos: pos} // undefined is NaN, which compares false
	}
	// Numbers: a string meets a number as Number(s), null is 0 and
	// undefined NaN, which the conversion of the word cuts the path at.
	k := Int
	if a.kind == String || b.kind == String || a.kind == Decimal || b.kind == Decimal {
		k = Decimal
	}
	return &Binary{X: toNumber(a, k, pos), OpPos: pos, Op: op, Y: toNumber(b, k, pos)}
}

// toNumber is ECMAScript's ToNumber of the case a, as a number of kind k.
func toNumber(a alt, k Kind, pos source.Pos) Expr {
	var x Expr
	switch {
	case a.kind == Undef && a.null:
		x = &IntLit{ValuePos: pos}
	case a.kind == Undef && k == Int:
		return &Convert{Start: pos, Fun: "parseInt", X: &StrLit{ValuePos: pos, Value: "undefined"}}
	case a.kind == Undef:
		return &Convert{Start: pos, Fun: "Number", X: &StrLit{ValuePos: pos, Value: "undefined"}}
	case a.kind == String:
		return &Convert{Start: pos, Fun: "Number", X: dup(a.val)}
	default:
		x = dup(a.val)
	}
	if k == Decimal && (a.kind == Int || a.kind == Undef) {
		return &ToDecimal{Start: pos, X: x}
	}
	return x
}

// stringOf is String(x) for x of kind k (a string, for undefined and null
// their spelling).
func stringOf(x Expr, k Kind, pos source.Pos) Expr {
	if k == Decimal {
		return &Convert{Start: pos, Fun: "String", X: x}
	}
	return toString(x, k, pos)
}

// mixedValue lowers e where it is a plain value computed from a Mixed one
// (a comparison, + that gives one kind, String()), and reports whether it
// was one.
func (l *lowerer) mixedValue(e Expr) (Expr, bool) {
	switch x := e.(type) {
	case *Binary:
		if l.typ(x.X).Kind != Mixed && l.typ(x.Y).Kind != Mixed || x.Op != ADD && x.Op != LSS && x.Op != GTR && x.Op != LEQ && x.Op != GEQ {
			return nil, false
		}
		k := l.typ(e).Kind
		if k == Mixed {
			panic("lang: lowering " + ExprString(e) + ", of several kinds, as one value")
		}
		return choose(l.binary(x).alts, func(a alt) Expr { return as(a, k) }, ZeroValue(k, x.OpPos)), true
	case *Call:
		if x.Fun != "String" || len(x.Args) != 1 || l.typ(x.Args[0]).Kind != Mixed {
			return nil, false
		}
		v := l.view(x.Args[0])
		return choose(v.cases(), func(a alt) Expr { return stringOf(dup(spelled(a).val), a.kind, x.FunPos) }, nil), true
	}
	return nil, false
}

// as converts the value of a case to kind k: an int to a decimal.
func as(a alt, k Kind) Expr {
	if k == Decimal && a.kind == Int {
		return &ToDecimal{Start: a.val.Pos(), X: a.val}
	}
	return a.val
}

// encode lowers e to the leaves of t, a Mixed type its value is
// assignable to: per kind of t the value where e holds that kind (the
// zero value elsewhere), and the tag.
func (l *lowerer) encode(e Expr, t Type) []Expr {
	if et := l.typ(l.fold(e)); et == t {
		ps := l.parts(e)
		out := make([]Expr, len(ps))
		for i, p := range ps {
			out[i] = p.x
		}
		return out
	}
	return l.encodeView(l.view(e), t, e.Pos())
}

// tagOf is the tag, in t's encoding, of a value with the given cases.
func tagOf(cases []alt, t Type, pos source.Pos) Expr {
	return choose(cases, func(a alt) Expr {
		switch {
		case a.null:
			return &IntLit{ValuePos: pos, Value: AbsentNull}
		case a.kind == Undef:
			return &IntLit{ValuePos: pos, Value: AbsentUndefined}
		case a.kind == Int && !t.Kinds.Has(Int):
			return &IntLit{ValuePos: pos, Value: MixedTag(t, Decimal)}
		}
		return &IntLit{ValuePos: pos, Value: MixedTag(t, a.kind)}
	}, nil)
}

// mixedLeaves lowers e, of the Mixed type t and no variable or parameter,
// to t's leaves: a ?: leaf by leaf, a + case by case.
func (l *lowerer) mixedLeaves(e Expr, t Type) []Expr {
	switch x := e.(type) {
	case *Cond:
		c := Simplify(l.cond(x.Cond))
		a, b := l.vec(x.Then, t), l.vec(x.Else, t)
		out := make([]Expr, len(a))
		for i := range a {
			out[i] = &Cond{Cond: dup(c), Question: x.Question, Then: a[i], Else: b[i]}
		}
		return out
	case *Binary:
		return l.encodeView(l.binary(x), t, x.OpPos)
	}
	panic("lang: lowering a value of several kinds of unexpected form " + ExprString(e))
}

// encodeView is encode for a view already lowered.
func (l *lowerer) encodeView(v view, t Type, pos source.Pos) []Expr {
	cases := v.cases()
	var out []Expr
	for _, k := range t.Kinds.List() {
		out = append(out, choose(cases, func(a alt) Expr {
			if a.kind != k && !(k == Decimal && a.kind == Int) {
				return ZeroValue(k, pos)
			}
			return as(a, k)
		}, ZeroValue(k, pos)))
	}
	return append(out, tagOf(cases, t, pos))
}
