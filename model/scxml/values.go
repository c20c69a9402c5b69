package scxml

import (
	"sort"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/simplify"
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
func (ck *checker) inferVarTypes(all []code, env func(code) *lang.Env, vars map[string]ast.Type) bool {
	learnt := false
	seen := make(map[string]firstAssigned)
	for _, c := range all {
		if !ast.Any(c.body, ck.mayType) {
			continue
		}
		info, _ := lang.CheckBlock(env(c), ck.fset, c.body)
		eachAssigned(c.body, info, func(name string, t ast.Type, value ast.Expr, pos source.Pos) {
			if ck.noData(name, t, value, vars) || ck.assigned(seen, vars, name, t, pos) {
				learnt = true
			}
		})
	}
	return ck.typeAssigned(seen, vars) || learnt
}

// firstAssigned is the type of the values the code assigns to a variable
// declared without a value, and where the first is assigned.
type firstAssigned struct {
	typ ast.Type
	pos source.Pos
}

// eachAssigned calls assigned for each assignment in body that may type
// its variable, with the type of the value (info) and its position: an
// assignment with =, or one of a decimal, and the item and index a
// <foreach> assigns.
func eachAssigned(body *ast.Block, info *lang.Info, assigned func(name string, t ast.Type, value ast.Expr, pos source.Pos)) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch a := n.(type) {
		case *ast.Assign:
			if a.Op == ast.ASSIGN && len(a.Path) == 0 || a.Op != ast.REM_ASSIGN && len(a.Path) == 0 && info.Types[a.Value].Kind == ast.Decimal {
				assigned(a.Target.Name, info.Types[a.Value], a.Value, a.Value.Pos())
			}
		case *ast.ForEach:
			if at := info.Types[a.Array]; at.Kind == ast.Array {
				assigned(a.Item.Name, at.Comp.Elem, nil, a.Item.NamePos)
			}
			if a.Index != nil {
				assigned(a.Index.Name, ast.IntType, nil, a.Index.NamePos)
			}
		}
		return true
	})
}

// assigned takes in a value of type t that the code assigns at pos to
// the variable name: a variable that has a type is retyped or widened at
// once (and assigned reports that), one declared without a value has the
// value's type noted in seen.
func (ck *checker) assigned(seen map[string]firstAssigned, vars map[string]ast.Type, name string, t ast.Type, pos source.Pos) bool {
	v := ck.m.Var(name)
	if v != nil && ck.retype(v, t) {
		vars[v.Name] = v.Type
		return true
	}
	if ck.widen(v, t, vars) {
		return true
	}
	if v == nil || v.Type.Kind != ast.Undef || t.Kind == ast.Invalid || t.Kind == ast.Undef {
		return false
	}
	ck.noteAssigned(seen, v, t, pos)
	return false
}

// noteAssigned notes in seen a value of type t assigned at pos to v,
// declared without a value: an int and a decimal make a decimal, values
// of several kinds a mixed type, and arrays or objects among them an
// error.
func (ck *checker) noteAssigned(seen map[string]firstAssigned, v *model.Var, t ast.Type, pos source.Pos) {
	f, ok := seen[v.Name]
	switch {
	case !ok:
		t.Absent, t.Ranged = false, false
		seen[v.Name] = firstAssigned{t, pos}
	case f.typ.Kind.IsNumber() && t.Kind.IsNumber():
		if t.Kind == ast.Decimal {
			seen[v.Name] = firstAssigned{ast.DecimalType, f.pos} // an int and a decimal: a decimal
		}
	case f.typ.Kind != t.Kind:
		// ECMAScript's variables hold any kind: one given values of
		// several holds each with a tag that says which (lang.Mixed).
		if w, ok := ast.Widen(f.typ, t); ok {
			w.Absent = false
			seen[v.Name] = firstAssigned{w, f.pos}
			return
		}
		ck.errs.Add(ck.fset.Position(pos), "%s is given a value of type %s here and one of type %s at %s: a variable may hold values of several kinds, but not arrays or objects among them; "+
			"use one variable per type", v.Name, t, f.typ, ck.fset.Position(f.pos))
	}
}

// typeAssigned gives each variable declared without a value that the
// code assigns the type of those values, noted in seen, and reports
// whether it gave any.
func (ck *checker) typeAssigned(seen map[string]firstAssigned, vars map[string]ast.Type) bool {
	learnt := false
	for _, v := range ck.m.Vars {
		f, ok := seen[v.Name]
		if !ok || v.Type.Kind != ast.Undef {
			continue
		}
		if f.typ.Kind == ast.Object && !ck.isRead(v.Name) {
			// Never read: whether it starts undefined or as the object
			// does not show, so it starts as an object of the type.
			v.Type, v.Init = f.typ, emptyObject(f.typ, v.Pos)
			vars[v.Name] = v.Type
			learnt = true
			continue
		}
		// An array or object is undefined until the code assigns it, as
		// a scalar is: its leaves and a tag (lower.Leaves).
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
func (ck *checker) noData(name string, t ast.Type, value ast.Expr, vars map[string]ast.Type) bool {
	v := ck.m.Var(name)
	if _, ok := value.(*ast.EventParam); !ok || t.Kind != ast.Undef || v == nil || ck.annotated[name] || !v.Type.Kind.IsScalar() || v.Type.MayBeAbsent() {
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
func (ck *checker) retype(v *model.Var, t ast.Type) bool {
	if v.Type.Kind == ast.Int && t.Kind == ast.Decimal && !ck.annotated[v.Name] {
		v.Type.Kind = ast.Decimal
		if lit, ok := v.Init.(*ast.IntLit); ok { // the value, or the placeholder of one computed at start
			v.Init = simplify.Expr(&ast.ToDecimal{Start: lit.ValuePos, X: lit})
		}
		return true
	}
	if !ck.widens(v, t) {
		return false
	}
	w, _ := ast.Widen(v.Type, t)
	w.Absent = v.Type.MayBeAbsent()
	v.Type = w
	return true
}

// widens reports whether assigning a value of type t makes the variable v
// one of several kinds (lang.Mixed): v, without a setbot:type, holds a
// value (its <data> gave one, or the code did), and t is of another kind.
// A value that may be undefined is left to the checker, which refuses it
// where v cannot be undefined.
func (ck *checker) widens(v *model.Var, t ast.Type) bool {
	if ck.annotated[v.Name] || !(v.Type.Kind.IsScalar() || v.Type.Kind == ast.Mixed) || !(t.Kind.IsScalar() || t.Kind == ast.Mixed) {
		return false
	}
	t.Absent = false
	_, ok := ast.Widen(v.Type, t)
	return ok && lang.Assignable(v.Type, t) != ""
}

// mayType reports whether n may give a variable its type (inferVarTypes):
// a <foreach>, or an assignment of a whole variable that is undefined
// alone, or a scalar without a setbot:type that a decimal makes a decimal
// or a value that may be undefined widens (widen).
func (ck *checker) mayType(n ast.Node) bool {
	switch a := n.(type) {
	case *ast.ForEach:
		return true
	case *ast.Assign:
		v := ck.m.Var(a.Target.Name)
		return len(a.Path) == 0 && v != nil && (v.Type.Kind == ast.Undef || (v.Type.Kind.IsScalar() || v.Type.Kind == ast.Mixed) && !ck.annotated[v.Name])
	}
	return false
}

// widen makes v, a variable without a setbot:type that is assigned a value
// of type t, hold undefined besides its kind where t may be undefined: a
// scalar that is given a value of its own kind that may be undefined
// (symbol = codeReference[k]), as ECMAScript's variables hold any value.
// It reports whether it did.
func (ck *checker) widen(v *model.Var, t ast.Type, vars map[string]ast.Type) bool {
	if v == nil || ck.annotated[v.Name] {
		return false
	}
	vt := v.Type
	if vt.Kind == ast.Undef || vt.IsComposite() || vt.MayBeAbsent() || !t.MayBeAbsent() || t.Kind != vt.Kind {
		return false
	}
	v.Type = vt.OrAbsent()
	vars[v.Name] = v.Type
	return true
}

// growArrays gives room to grow to each array variable without a
// setbot:type that the code assigns a value that may be longer than its
// initial value (a = a.concat([x])), or an element that may lie past its
// end (a[i] = x, lang.ElementWrite): the bound ast.GrowArrayLen, or the
// longest such value's where that is longer, and where the initial value
// is empty, the elements' type of the first such value. It reports whether
// it grew any. A variable grows once: where a value longer still is
// assigned to it, the lowering checks the length, and a path on which it
// does not fit meets the array bound.
func (ck *checker) growArrays(all []code, env func(code) *lang.Env, vars map[string]ast.Type) bool {
	grow := make(map[string]ast.Type)
	for _, c := range all {
		if !ast.Any(c.body, ck.mayGrow) {
			continue
		}
		info, _ := lang.CheckBlock(env(c), ck.fset, c.body)
		ast.Inspect(c.body, func(n ast.Node) bool {
			a, ok := n.(*ast.Assign)
			if !ok || a.Op != ast.ASSIGN {
				return true
			}
			v, vt := ck.m.Var(a.Target.Name), info.Types[a.Value]
			if v == nil || ck.annotated[v.Name] || ck.grown[v.Name] {
				return true
			}
			switch {
			case lang.ElementWrite(a, v.Type) && v.Type.Comp.Len < ast.GrowArrayLen:
				vt = ast.ArrayType(vt, 0, v.Type.Comp.Len+1) // a[i] = x: the array with x appended, at most
			case len(a.Path) > 0 || !lang.Grows(v.Type, vt):
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
			bound := min(max(ast.GrowArrayLen, g.Comp.Len, vt.Comp.Len), ast.MaxArrayLen)
			grow[v.Name] = ast.ArrayType(elem, v.Type.Comp.MinLen, bound)
			return true
		})
	}
	for _, v := range ck.m.Vars {
		if t, ok := grow[v.Name]; ok {
			v.Type = t
			vars[v.Name] = t
			ck.grown[v.Name] = true
		}
	}
	return len(grow) > 0
}

// mayGrow reports whether n assigns a whole array variable, or an element
// of one past its end, that growArrays may give room to grow.
func (ck *checker) mayGrow(n ast.Node) bool {
	a, ok := n.(*ast.Assign)
	if !ok || a.Op != ast.ASSIGN {
		return false
	}
	v := ck.m.Var(a.Target.Name)
	return v != nil && v.Type.Kind == ast.Array && !ck.annotated[v.Name] && !ck.grown[v.Name] && (len(a.Path) == 0 || lang.ElementWrite(a, v.Type))
}

// declareLoopVars declares the items and indexes of <foreach> elements
// that name no variable: SCXML declares them (§4.6). They are undefined
// until the loop assigns them.
func (dc *declarer) declareLoopVars(all []code) {
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			f, ok := n.(*ast.ForEach)
			if !ok || f.Local {
				return true
			}
			for _, id := range []*ast.Ident{f.Item, f.Index} {
				if id != nil && dc.m.Var(id.Name) == nil {
					dc.m.Vars = append(dc.m.Vars, &model.Var{Name: id.Name, Pos: id.NamePos, Type: ast.UndefType, Init: &ast.Absent{ValuePos: id.NamePos}})
				}
			}
			return true
		})
	}
}

// lowerPiece rewrites the guard and action of c, checked with condInfo
// (nil without a guard) and info, into what the flattener and the
// executors run (lower.Expr): a variable, event parameter or field of
// _event that may be undefined or null becomes a value and a tag
// (lower.AbsentName), and the system variables their values. Every consumer
// of the IR then sees the same lowered code, a tree of its own.
func (ck *checker) lowerPiece(c code, condInfo, info *lang.Info) {
	var cond ast.Expr
	if c.cond != nil {
		cond = ast.RewriteExpr(lower.Expr(c.cond, condInfo, true), ck.sysValue)
		fails := lower.FailsWhen(condInfo)
		if fails != nil && c.trans.FailsWhen != nil {
			// declareCode made it fail where an event has no data
			// (failCond), and it fails where an object is undefined too.
			ck.refusef(ck.file.Offset(c.cond.Pos()), "this cond reads a field of an object that may be undefined and a parameter of an event that may have no data, "+
				"which fail apart, and setbot models one of them in a cond: test one of them in the transition's executable content (an <if>)")
		}
		if fails != nil {
			// Where reading the cond throws, it is false (and raises
			// error.execution, model.Transition.FailsWhen).
			c.trans.FailsWhen = ast.RewriteExpr(fails, ck.sysValue)
			if ck.m.EventByName(model.ErrorExecution) == nil {
				ensureEvent(ck.m, model.ErrorExecution, c.trans.Pos)
				sort.Slice(ck.m.Events, func(i, j int) bool { return ck.m.Events[i].Name < ck.m.Events[j].Name })
			}
			ck.m.EventByName(model.ErrorExecution).Kinds |= model.Internal
			cond = simplify.Expr(&ast.Binary{X: &ast.Unary{OpPos: cond.Pos(), Op: ast.NOT, X: c.trans.FailsWhen}, OpPos: cond.Pos(), Op: ast.LAND, Y: cond})
		}
	}
	c.set(cond, ast.RewriteBlock(lower.Block(c.body, info), ck.sysValue))
}

// sysValue is the value of the system variable e, or e.
func (ck *checker) sysValue(e ast.Expr) ast.Expr {
	if x, ok := e.(*ast.SysVar); ok {
		switch x.Name {
		case "_sessionid":
			return &ast.StrLit{ValuePos: x.NamePos, Value: model.SessionID}
		case "_name":
			return &ast.StrLit{ValuePos: x.NamePos, Value: ck.m.Name}
		case "_ioprocessors": // lowering replaced the object itself; the parser accepts only the SCXML processor's location
			return &ast.StrLit{ValuePos: x.NamePos, Value: model.SessionLocation}
		}
	}
	return e
}

// lowerVars splits each variable and event parameter that may be
// undefined or null, or is an array or object, into its leaves (lower.Leaves),
// as the lowered code reads them.
func (ck *checker) lowerVars() {
	var vars []*model.Var
	for _, v := range ck.m.Vars {
		if !v.Type.MayBeAbsent() && !v.Type.IsComposite() && !v.Type.Kind.IsRef() && v.Type.Kind != ast.Mixed {
			vars = append(vars, v)
			continue
		}
		info, _ := lang.CheckExpr(nil, ck.fset, v.Init, ast.Invalid)
		inits := lower.Value(v.Init, info, v.Type)
		if inits == nil {
			inits = lower.ZeroLeaves(v.Type, v.Pos) // computed when the machine starts
		}
		for i, f := range lower.Leaves(v.Type) {
			ref := v.Type.Kind == ast.EventRef && !f.Tag
			vars = append(vars, &model.Var{Name: f.Name(v.Name), Type: f.Type, Pos: v.Pos, Init: inits[i], EventRef: ref, Passed: v.Passed})
		}
	}
	ck.m.Vars = vars
	for _, ev := range ck.m.Events {
		var params []model.Param
		for _, p := range ev.Params {
			if !p.Type.MayBeAbsent() && !p.Type.IsComposite() && p.Type.Kind != ast.Mixed {
				params = append(params, p)
				continue
			}
			for _, f := range lower.Leaves(p.Type) {
				params = append(params, model.Param{Name: f.Name(p.Name), Type: f.Type})
			}
		}
		sort.Slice(params, func(i, j int) bool { return params[i].Name < params[j].Name })
		ev.Params = params
	}
}

// emptyObject returns a literal of object type t whose fields hold zero
// values and empty arrays: an initial value to suggest.
func emptyObject(t ast.Type, pos source.Pos) ast.Expr {
	o := &ast.ObjectLit{Lbrace: pos}
	for _, f := range t.Comp.Fields {
		var v ast.Expr
		switch f.Type.Kind {
		case ast.Array:
			v = &ast.ArrayLit{Lbrack: pos}
		case ast.Object:
			v = emptyObject(f.Type, pos)
		default:
			v = lower.ZeroValue(f.Type.Kind, pos)
		}
		o.Fields = append(o.Fields, &ast.FieldInit{NamePos: pos, Name: f.Name, Value: v})
	}
	return o
}

// isRead reports whether some code of the model, or the value of a
// <data>, reads the variable name: names it other than as the target of an
// assignment of the whole variable.
func (ck *checker) isRead(name string) bool {
	for _, v := range ck.m.Vars {
		if v.Init != nil && ast.Any(v.Init, func(n ast.Node) bool { id, ok := n.(*ast.Ident); return ok && id.Name == name }) {
			return true
		}
	}
	for _, c := range ck.allCode() {
		targets, uses := 0, 0
		for _, n := range c.nodes() {
			ast.Inspect(n, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.Assign:
					if x.Target.Name == name && len(x.Path) == 0 && x.Op == ast.ASSIGN {
						targets++
					}
				case *ast.Ident:
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
