package scxml

import (
	"sort"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/source"
)

// inferVarTypes gives each variable declared without a value (of type
// undefined alone) the kind of the values the code assigns to it, and
// reports whether it learnt anything. A variable may hold undefined and one
// other kind: assignments of two kinds are an error at the second one.
func (b *builder) inferVarTypes(all []code, env func(code) *lang.Env, vars map[string]lang.Type) bool {
	learnt := false
	type first struct {
		kind lang.Kind
		pos  source.Pos
	}
	seen := make(map[string]first)
	for _, c := range all {
		info, _ := lang.CheckBlock(env(c), b.fset, c.body)
		lang.Inspect(c.body, func(n lang.Node) bool {
			a, ok := n.(*lang.Assign)
			if !ok || a.Op != lang.ASSIGN {
				return true
			}
			v := b.m.Var(a.Target.Name)
			if v == nil || v.Type.Kind != lang.Undef {
				return true
			}
			k := info.Types[a.Value].Kind
			if k == lang.Invalid || k == lang.Undef {
				return true
			}
			if f, ok := seen[v.Name]; ok && f.kind != k {
				b.errs.Add(b.fset.Position(a.Value.Pos()), "%s is given a %s value here and a %s value at %s: a variable may hold undefined and one other type; "+
					"use one variable per type", v.Name, k, f.kind, b.fset.Position(f.pos))
				return true
			}
			seen[v.Name] = first{k, a.Value.Pos()}
			return true
		})
	}
	for _, v := range b.m.Vars {
		if f, ok := seen[v.Name]; ok && v.Type.Kind == lang.Undef {
			v.Type = lang.Type{Kind: f.kind, Absent: true}
			vars[v.Name] = v.Type
			learnt = true
		}
	}
	return learnt
}

// lowerValues rewrites every guard and action, checked with infos (in the
// order of all, a guard's before its action's), into what the flattener
// and the executors run (lang.LowerExpr): a variable, event parameter or
// field of _event that may be undefined or null becomes a value and a tag
// (lang.AbsentName), and the system variables their values. Every consumer of the IR then
// sees the same lowered code.
func (b *builder) lowerValues(all []code, infos []*lang.Info) {
	sys := func(e lang.Expr) lang.Expr {
		if x, ok := e.(*lang.SysVar); ok {
			switch x.Name {
			case "_sessionid":
				return &lang.StrLit{ValuePos: x.NamePos, Value: model.SessionID}
			case "_name":
				return &lang.StrLit{ValuePos: x.NamePos, Value: b.m.Name}
			case "_ioprocessors": // the parser accepts only the SCXML processor's location
				return &lang.StrLit{ValuePos: x.NamePos, Value: model.SessionLocation}
			}
		}
		return e
	}
	for _, c := range all {
		var cond lang.Expr
		if c.cond != nil {
			cond = lang.RewriteExpr(lang.LowerExpr(c.cond, infos[0], true), sys)
			infos = infos[1:]
		}
		body := lang.RewriteBlock(lang.LowerBlock(c.body, infos[0]), sys)
		infos = infos[1:]
		c.set(cond, body)
	}
	var vars []*model.Var
	for _, v := range b.m.Vars {
		if !v.Type.MayBeAbsent() {
			vars = append(vars, v)
			continue
		}
		tag := int64(lang.AbsentValue)
		if a, ok := v.Init.(*lang.Absent); ok {
			tag = lang.AbsentUndefined
			if a.Null {
				tag = lang.AbsentNull
			}
		}
		kind := v.Type.Kind
		if kind == lang.Undef {
			kind = lang.Int // never given a value: the tag says all there is
		}
		if tag != lang.AbsentValue {
			v.Init = lang.ZeroValue(kind, v.Init.Pos())
		}
		v.Type.Kind, v.Type.Absent = kind, false
		vars = append(vars, v, &model.Var{Name: lang.AbsentName(v.Name), Type: lang.AbsentType, Pos: v.Pos,
			Init: &lang.IntLit{ValuePos: v.Pos, Value: tag}})
	}
	b.m.Vars = vars
	for _, ev := range b.m.Events {
		var params []model.Param
		for _, p := range ev.Params {
			if !p.Type.MayBeAbsent() {
				params = append(params, p)
				continue
			}
			kind := p.Type.Kind
			if kind == lang.Undef {
				kind = lang.Int
			}
			p.Type.Kind, p.Type.Absent = kind, false
			params = append(params, p, model.Param{Name: lang.AbsentName(p.Name), Type: lang.AbsentType})
		}
		sort.Slice(params, func(i, j int) bool { return params[i].Name < params[j].Name })
		ev.Params = params
	}
}
