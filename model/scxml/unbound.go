package scxml

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
)

// A name that no <data> declares and that no code of the model ever
// assigns (nor declares: a local, a loop's item, a function) is bound
// nowhere, and reading it is an ECMAScript ReferenceError, which SCXML
// makes error.execution (SCXML §B.2). A transition's cond that reads one
// is therefore false and raises error.execution each time it is
// evaluated (SCXML §5.9.1): the reader marks it as it marks a cond that is
// no ECMAScript (model.Transition.CondFails), with a warning. Elsewhere
// such a name stays the error "undeclared name", with its position.

// ecmaGlobals are names ECMAScript binds in the global scope, which are
// never unbound (setbot refuses what it does not model of them).
var ecmaGlobals = map[string]bool{"NaN": true, "Infinity": true, "globalThis": true, "Math": true, "JSON": true, "Date": true,
	"Object": true, "Array": true, "String": true, "Number": true, "Boolean": true, "RegExp": true, "Error": true, "console": true, "SCXML": true}

// unboundConds marks the conds of transitions that read a name bound
// nowhere.
func (b *builder) unboundConds() {
	bound := b.boundNames()
	for _, s := range b.m.States() {
		for _, t := range s.Transitions {
			if t.Cond == nil || t.CondFails {
				continue
			}
			free := evaluatedFree(t.Cond, bound)
			if free == nil {
				continue
			}
			b.warns.Add(b.fset.Position(free.NamePos), "%s is bound nowhere in the model (no <data> declares it and no code assigns it): reading it raises %s, "+
				"so setbot takes this cond as false and raises %s each time it is evaluated, as ECMAScript and the SCXML specification require", free.Name, model.ErrorExecution, model.ErrorExecution)
			t.Cond, t.CondFails = &lang.BoolLit{ValuePos: t.Cond.Pos(), Value: false}, true
		}
	}
}

// evaluatedFree returns a name bound nowhere that evaluating e always
// reads, or nil: && and || read their right operand and ?: its branches
// only on some values, so a name there may never be read.
func evaluatedFree(e lang.Expr, bound map[string]bool) *lang.Ident {
	var free *lang.Ident
	var visit func(n lang.Node) bool
	visit = func(n lang.Node) bool {
		switch x := n.(type) {
		case *lang.Ident:
			if x.Name != "_" && !bound[x.Name] && !ecmaGlobals[x.Name] {
				free = x
			}
		case *lang.Binary:
			if x.Op == lang.LAND || x.Op == lang.LOR {
				lang.Inspect(x.X, visit)
				return false
			}
		case *lang.Cond:
			lang.Inspect(x.Cond, visit)
			return false
		}
		return free == nil
	}
	lang.Inspect(e, visit)
	return free
}

// boundNames are the names that something of the model binds: its
// variables, functions, and every name that code assigns or declares.
func (b *builder) boundNames() map[string]bool {
	bound := make(map[string]bool)
	for _, v := range b.m.Vars {
		bound[v.Name] = true
	}
	for name, f := range b.funcs {
		bound[name] = true
		for _, p := range f.Params {
			bound[p.Name] = true
		}
	}
	for name := range b.externals {
		bound[name] = true
	}
	for _, c := range b.allCode() {
		lang.Inspect(c.body, func(n lang.Node) bool {
			switch s := n.(type) {
			case *lang.Assign:
				bound[s.Target.Name] = true
			case *lang.IncDec:
				bound[s.Target.Name] = true
			case *lang.Decl:
				bound[s.Name.Name] = true
			case *lang.ForEach:
				bound[s.Item.Name] = true
				if s.Index != nil {
					bound[s.Index.Name] = true
				}
			}
			return true
		})
	}
	return bound
}
