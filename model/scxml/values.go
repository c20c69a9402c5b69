package scxml

import (
	"sort"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/source"
)

// inferVarTypes gives each variable declared without a value (of type
// undefined alone) the type of the values the code assigns to it (a
// <foreach> assigns its item and index), and reports whether it learnt
// anything. A variable may hold undefined and one other kind: assignments
// of two kinds are an error at the second one. A variable whose initial
// value is an int and that the code gives a decimal, without a setbot:type,
// is a decimal: ECMAScript has one number type, and speed = 0 followed by
// speed = 0.5 is common.
func (b *builder) inferVarTypes(all []code, env func(code) *lang.Env, vars map[string]lang.Type) bool {
	learnt := false
	seen := make(map[string]firstAssigned)
	for _, c := range all {
		if !anyNode(c.body, b.mayType) {
			continue
		}
		info, _ := lang.CheckBlock(env(c), b.fset, c.body)
		eachAssigned(c.body, info, func(name string, t lang.Type, value lang.Expr, pos source.Pos) {
			if b.noData(name, t, value, vars) || b.assigned(seen, vars, name, t, pos) {
				learnt = true
			}
		})
	}
	return b.typeAssigned(seen, vars) || learnt
}

// firstAssigned is the type of the values the code assigns to a variable
// declared without a value, and where the first is assigned.
type firstAssigned struct {
	typ lang.Type
	pos source.Pos
}

// eachAssigned calls assigned for each assignment in body that may type
// its variable, with the type of the value (info) and its position: an
// assignment with =, or one of a decimal, and the item and index a
// <foreach> assigns.
func eachAssigned(body *lang.Block, info *lang.Info, assigned func(name string, t lang.Type, value lang.Expr, pos source.Pos)) {
	lang.Inspect(body, func(n lang.Node) bool {
		switch a := n.(type) {
		case *lang.Assign:
			if a.Op == lang.ASSIGN && len(a.Path) == 0 || a.Op != lang.REM_ASSIGN && len(a.Path) == 0 && info.Types[a.Value].Kind == lang.Decimal {
				assigned(a.Target.Name, info.Types[a.Value], a.Value, a.Value.Pos())
			}
		case *lang.ForEach:
			if at := info.Types[a.Array]; at.Kind == lang.Array {
				assigned(a.Item.Name, at.Comp.Elem, nil, a.Item.NamePos)
			}
			if a.Index != nil {
				assigned(a.Index.Name, lang.IntType, nil, a.Index.NamePos)
			}
		}
		return true
	})
}

// assigned takes in a value of type t that the code assigns at pos to
// the variable name: a variable that has a type is retyped or widened at
// once (and assigned reports that), one declared without a value has the
// value's type noted in seen.
func (b *builder) assigned(seen map[string]firstAssigned, vars map[string]lang.Type, name string, t lang.Type, pos source.Pos) bool {
	v := b.m.Var(name)
	if v != nil && b.retype(v, t) {
		vars[v.Name] = v.Type
		return true
	}
	if b.widen(v, t, vars) {
		return true
	}
	if v == nil || v.Type.Kind != lang.Undef || t.Kind == lang.Invalid || t.Kind == lang.Undef {
		return false
	}
	b.noteAssigned(seen, v, t, pos)
	return false
}

// noteAssigned notes in seen a value of type t assigned at pos to v,
// declared without a value: an int and a decimal make a decimal, values
// of several kinds a mixed type, and arrays or objects among them an
// error.
func (b *builder) noteAssigned(seen map[string]firstAssigned, v *model.Var, t lang.Type, pos source.Pos) {
	f, ok := seen[v.Name]
	switch {
	case !ok:
		t.Absent, t.Ranged = false, false
		seen[v.Name] = firstAssigned{t, pos}
	case f.typ.Kind.IsNumber() && t.Kind.IsNumber():
		if t.Kind == lang.Decimal {
			seen[v.Name] = firstAssigned{lang.DecimalType, f.pos} // an int and a decimal: a decimal
		}
	case f.typ.Kind != t.Kind:
		// ECMAScript's variables hold any kind: one given values of
		// several holds each with a tag that says which (lang.Mixed).
		if w, ok := lang.Widen(f.typ, t); ok {
			w.Absent = false
			seen[v.Name] = firstAssigned{w, f.pos}
			return
		}
		b.errs.Add(b.fset.Position(pos), "%s is given a value of type %s here and one of type %s at %s: a variable may hold values of several kinds, but not arrays or objects among them; "+
			"use one variable per type", v.Name, t, f.typ, b.fset.Position(f.pos))
	}
}

// typeAssigned gives each variable declared without a value that the
// code assigns the type of those values, noted in seen, and reports
// whether it gave any.
func (b *builder) typeAssigned(seen map[string]firstAssigned, vars map[string]lang.Type) bool {
	learnt := false
	for _, v := range b.m.Vars {
		f, ok := seen[v.Name]
		if !ok || v.Type.Kind != lang.Undef {
			continue
		}
		if f.typ.Kind == lang.Object && !b.isRead(v.Name) {
			// Never read: whether it starts undefined or as the object
			// does not show, so it starts as an object of the type.
			v.Type, v.Init = f.typ, emptyObject(f.typ, v.Pos)
			vars[v.Name] = v.Type
			learnt = true
			continue
		}
		if f.typ.IsComposite() {
			example := "[]"
			if f.typ.Kind == lang.Object {
				example = lang.ExprString(emptyObject(f.typ, f.pos))
			}
			b.errs.Add(b.fset.Position(f.pos), "%s has no initial value and is given %s here, and an array or object that may be undefined is not modelled: "+
				"give %s an initial value, e.g. expr=\"%s\" with setbot:type=\"%s\"", v.Name, f.typ, v.Name, example, f.typ)
			continue
		}
		v.Type = f.typ.OrAbsent()
		vars[v.Name] = v.Type
		learnt = true
	}
	return learnt
}

// noData makes the variable name, a scalar without a setbot:type, hold
// undefined besides its kind where the code assigns it the data of an
// event that carries none (_event.data of an input whose data no use
// tells: undefined in ECMAScript), and reports whether it did. Other values
// of type undefined alone may be an inference not finished yet (a
// <foreach> item), and are left to widen and the checker.
func (b *builder) noData(name string, t lang.Type, value lang.Expr, vars map[string]lang.Type) bool {
	v := b.m.Var(name)
	if _, ok := value.(*lang.EventParam); !ok || t.Kind != lang.Undef || v == nil || b.annotated[name] || !v.Type.Kind.IsScalar() || v.Type.MayBeAbsent() {
		return false
	}
	v.Type = v.Type.OrAbsent()
	vars[name] = v.Type
	return true
}

// retype gives the variable v, which has a type, the type that also holds
// an assigned value of type t, and reports whether that changed its type:
// an int without a setbot:type given a decimal is a decimal (ECMAScript
// has one number type, and speed = 0 followed by speed = 0.5 is common);
// one given another kind holds both (widens).
func (b *builder) retype(v *model.Var, t lang.Type) bool {
	if v.Type.Kind == lang.Int && t.Kind == lang.Decimal && !b.annotated[v.Name] {
		v.Type.Kind = lang.Decimal
		if lit, ok := v.Init.(*lang.IntLit); ok { // the value, or the placeholder of one computed at start
			v.Init = lang.Simplify(&lang.ToDecimal{Start: lit.ValuePos, X: lit})
		}
		return true
	}
	if !b.widens(v, t) {
		return false
	}
	w, _ := lang.Widen(v.Type, t)
	w.Absent = v.Type.MayBeAbsent()
	v.Type = w
	return true
}

// widens reports whether assigning a value of type t makes the variable v
// one of several kinds (lang.Mixed): v, without a setbot:type, holds a
// value (its <data> gave one, or the code did), and t is of another kind.
// A value that may be undefined is left to the checker, which refuses it
// where v cannot be undefined.
func (b *builder) widens(v *model.Var, t lang.Type) bool {
	if b.annotated[v.Name] || !(v.Type.Kind.IsScalar() || v.Type.Kind == lang.Mixed) || !(t.Kind.IsScalar() || t.Kind == lang.Mixed) {
		return false
	}
	t.Absent = false
	_, ok := lang.Widen(v.Type, t)
	return ok && lang.Assignable(v.Type, t) != ""
}

// mayType reports whether n may give a variable its type (inferVarTypes):
// a <foreach>, or an assignment of a whole variable that is undefined
// alone, or a scalar without a setbot:type that a decimal makes a decimal
// or a value that may be undefined widens (widen).
func (b *builder) mayType(n lang.Node) bool {
	switch a := n.(type) {
	case *lang.ForEach:
		return true
	case *lang.Assign:
		v := b.m.Var(a.Target.Name)
		return len(a.Path) == 0 && v != nil && (v.Type.Kind == lang.Undef || (v.Type.Kind.IsScalar() || v.Type.Kind == lang.Mixed) && !b.annotated[v.Name])
	}
	return false
}

// widen makes v, a variable without a setbot:type that is assigned a value
// of type t, hold undefined besides its kind where t may be undefined: a
// scalar that is given a value of its own kind that may be undefined
// (symbol = codeReference[k]), as ECMAScript's variables hold any value.
// It reports whether it did.
func (b *builder) widen(v *model.Var, t lang.Type, vars map[string]lang.Type) bool {
	if v == nil || b.annotated[v.Name] {
		return false
	}
	vt := v.Type
	if vt.Kind == lang.Undef || vt.IsComposite() || vt.MayBeAbsent() || !t.MayBeAbsent() || t.Kind != vt.Kind {
		return false
	}
	v.Type = vt.OrAbsent()
	vars[v.Name] = v.Type
	return true
}

// growArrays gives room to grow to each array variable without a
// setbot:type that the code assigns a value that may be longer than its
// initial value (a = a.concat([x])): the bound lang.GrowArrayLen, or the
// longest such value's where that is longer, and where the initial value
// is empty, the elements' type of the first such value. It reports whether
// it grew any. A variable grows once: where a value longer still is
// assigned to it, the lowering checks the length, and a path on which it
// does not fit meets the array bound.
func (b *builder) growArrays(all []code, env func(code) *lang.Env, vars map[string]lang.Type) bool {
	grow := make(map[string]lang.Type)
	for _, c := range all {
		if !anyNode(c.body, b.mayGrow) {
			continue
		}
		info, _ := lang.CheckBlock(env(c), b.fset, c.body)
		lang.Inspect(c.body, func(n lang.Node) bool {
			a, ok := n.(*lang.Assign)
			if !ok || a.Op != lang.ASSIGN || len(a.Path) > 0 {
				return true
			}
			v, vt := b.m.Var(a.Target.Name), info.Types[a.Value]
			if v == nil || b.annotated[v.Name] || b.grown[v.Name] || !lang.Grows(v.Type, vt) {
				return true
			}
			g, ok := grow[v.Name]
			if !ok {
				g = v.Type
			}
			elem := g.Comp.Elem
			if g.Comp.Len == 0 {
				elem = vt.Comp.Elem
			}
			bound := min(max(lang.GrowArrayLen, g.Comp.Len, vt.Comp.Len), lang.MaxArrayLen)
			grow[v.Name] = lang.ArrayType(elem, v.Type.Comp.MinLen, bound)
			return true
		})
	}
	for _, v := range b.m.Vars {
		if t, ok := grow[v.Name]; ok {
			v.Type = t
			vars[v.Name] = t
			b.grown[v.Name] = true
		}
	}
	return len(grow) > 0
}

// mayGrow reports whether n assigns a whole array variable that
// growArrays may give room to grow.
func (b *builder) mayGrow(n lang.Node) bool {
	a, ok := n.(*lang.Assign)
	if !ok || a.Op != lang.ASSIGN || len(a.Path) > 0 {
		return false
	}
	v := b.m.Var(a.Target.Name)
	return v != nil && v.Type.Kind == lang.Array && !b.annotated[v.Name] && !b.grown[v.Name]
}

// declareLoopVars declares the items and indexes of <foreach> elements
// that name no variable: SCXML declares them (§4.6). They are undefined
// until the loop assigns them.
func (b *builder) declareLoopVars(all []code) {
	for _, c := range all {
		lang.Inspect(c.body, func(n lang.Node) bool {
			f, ok := n.(*lang.ForEach)
			if !ok {
				return true
			}
			for _, id := range []*lang.Ident{f.Item, f.Index} {
				if id != nil && b.m.Var(id.Name) == nil {
					b.m.Vars = append(b.m.Vars, &model.Var{Name: id.Name, Pos: id.NamePos, Type: lang.UndefType, Init: &lang.Absent{ValuePos: id.NamePos}})
				}
			}
			return true
		})
	}
}

// lowerPiece rewrites the guard and action of c, checked with condInfo
// (nil without a guard) and info, into what the flattener and the
// executors run (lang.LowerExpr): a variable, event parameter or field of
// _event that may be undefined or null becomes a value and a tag
// (lang.AbsentName), and the system variables their values. Every consumer
// of the IR then sees the same lowered code, a tree of its own.
func (b *builder) lowerPiece(c code, condInfo, info *lang.Info) {
	var cond lang.Expr
	if c.cond != nil {
		cond = lang.RewriteExpr(lang.LowerExpr(c.cond, condInfo, true), b.sysValue)
	}
	c.set(cond, lang.RewriteBlock(lang.LowerBlock(c.body, info), b.sysValue))
}

// sysValue is the value of the system variable e, or e.
func (b *builder) sysValue(e lang.Expr) lang.Expr {
	if x, ok := e.(*lang.SysVar); ok {
		switch x.Name {
		case "_sessionid":
			return &lang.StrLit{ValuePos: x.NamePos, Value: model.SessionID}
		case "_name":
			return &lang.StrLit{ValuePos: x.NamePos, Value: b.m.Name}
		case "_ioprocessors": // lowering replaced the object itself; the parser accepts only the SCXML processor's location
			return &lang.StrLit{ValuePos: x.NamePos, Value: model.SessionLocation}
		}
	}
	return e
}

// lowerVars splits each variable and event parameter that may be
// undefined or null, or is an array or object, into its leaves (lang.Leaves),
// as the lowered code reads them.
func (b *builder) lowerVars() {
	var vars []*model.Var
	for _, v := range b.m.Vars {
		if !v.Type.MayBeAbsent() && !v.Type.IsComposite() && !v.Type.Kind.IsRef() && v.Type.Kind != lang.Mixed {
			vars = append(vars, v)
			continue
		}
		info, _ := lang.CheckExpr(nil, b.fset, v.Init, lang.Invalid)
		inits := lang.LowerValue(v.Init, info, v.Type)
		if inits == nil {
			inits = lang.ZeroLeaves(v.Type, v.Pos) // computed when the machine starts
		}
		for i, f := range lang.Leaves(v.Type) {
			ref := v.Type.Kind == lang.EventRef && !f.Tag
			vars = append(vars, &model.Var{Name: f.Name(v.Name), Type: f.Type, Pos: v.Pos, Init: inits[i], EventRef: ref, Passed: v.Passed})
		}
	}
	b.m.Vars = vars
	for _, ev := range b.m.Events {
		var params []model.Param
		for _, p := range ev.Params {
			if !p.Type.MayBeAbsent() && !p.Type.IsComposite() && p.Type.Kind != lang.Mixed {
				params = append(params, p)
				continue
			}
			for _, f := range lang.Leaves(p.Type) {
				params = append(params, model.Param{Name: f.Name(p.Name), Type: f.Type})
			}
		}
		sort.Slice(params, func(i, j int) bool { return params[i].Name < params[j].Name })
		ev.Params = params
	}
}

// emptyObject returns a literal of object type t whose fields hold zero
// values and empty arrays: an initial value to suggest.
func emptyObject(t lang.Type, pos source.Pos) lang.Expr {
	o := &lang.ObjectLit{Lbrace: pos}
	for _, f := range t.Comp.Fields {
		var v lang.Expr
		switch f.Type.Kind {
		case lang.Array:
			v = &lang.ArrayLit{Lbrack: pos}
		case lang.Object:
			v = emptyObject(f.Type, pos)
		default:
			v = lang.ZeroValue(f.Type.Kind, pos)
		}
		o.Fields = append(o.Fields, &lang.FieldInit{NamePos: pos, Name: f.Name, Value: v})
	}
	return o
}

// isRead reports whether some code of the model, or the value of a
// <data>, reads the variable name: names it other than as the target of an
// assignment of the whole variable.
func (b *builder) isRead(name string) bool {
	for _, v := range b.m.Vars {
		if v.Init != nil && anyNode(v.Init, func(n lang.Node) bool { id, ok := n.(*lang.Ident); return ok && id.Name == name }) {
			return true
		}
	}
	for _, c := range b.allCode() {
		targets, uses := 0, 0
		for _, n := range c.nodes() {
			lang.Inspect(n, func(n lang.Node) bool {
				switch x := n.(type) {
				case *lang.Assign:
					if x.Target.Name == name && len(x.Path) == 0 && x.Op == lang.ASSIGN {
						targets++
					}
				case *lang.Ident:
					if x.Name == name {
						uses++
					}
				}
				return true
			})
		}
		if uses > targets {
			return true
		}
	}
	return false
}
