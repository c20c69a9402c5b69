package scxml

import (
	"fmt"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
)

// A name that no <data> declares and that no code of the model ever
// assigns (nor declares: a local, a loop's item, a function) is bound
// nowhere, and reading it is an ECMAScript ReferenceError, which SCXML
// makes error.execution (SCXML §B.2). A transition's cond that reads one
// is therefore false and raises error.execution each time it is
// evaluated (SCXML §5.9.1): the reader marks it as it marks a cond that is
// no ECMAScript (model.Transition.CondFails), with a warning. Elsewhere
// such a name stays the error "undeclared name", with its position, except
// in a statement of a block that reads it whatever the values (failUnbound).

// ecmaGlobals are names ECMAScript binds in the global scope, which are
// never unbound (setbot refuses what it does not model of them).
var ecmaGlobals = map[string]bool{"NaN": true, "Infinity": true, "globalThis": true, "Math": true, "JSON": true, "Date": true,
	"Object": true, "Array": true, "String": true, "Number": true, "Boolean": true, "RegExp": true, "Error": true, "console": true, "SCXML": true}

// unboundConds marks the conds of the transitions of m that read a name
// bound nowhere (boundNames of m, its functions and all its code), with a
// warning.
func unboundConds(d *diag, m *model.Model, funcs map[string]*ast.FuncDecl, externals map[string]*lang.Signature, all []code) {
	bound := boundNames(m, funcs, externals, all)
	for _, s := range m.States() {
		for _, t := range s.Transitions {
			if t.Cond == nil || t.CondFails {
				continue
			}
			free := evaluatedFree(t.Cond, bound)
			if free == nil {
				continue
			}
			d.warns.Add(d.fset.Position(free.NamePos), "%s is bound nowhere in the model (no <data> declares it and no code assigns it): reading it raises %s, "+
				"so setbot takes this cond as false and raises %s each time it is evaluated, as ECMAScript and the SCXML specification require", free.Name, model.ErrorExecution, model.ErrorExecution)
			t.Cond, t.CondFails = &ast.BoolLit{ValuePos: t.Cond.Pos(), Value: false}, true
		}
	}
}

// evaluatedFree returns a name bound nowhere that evaluating e always
// reads, or nil: && and || read their right operand and ?: its branches
// only on some values, so a name there may never be read.
func evaluatedFree(e ast.Expr, bound map[string]bool) *ast.Ident {
	var free *ast.Ident
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if unboundName(x, bound) {
				free = x
			}
		case *ast.Binary:
			if x.Op == ast.LAND || x.Op == ast.LOR {
				ast.Inspect(x.X, visit)
				return false
			}
		case *ast.Cond:
			ast.Inspect(x.Cond, visit)
			return false
		}
		return free == nil
	}
	ast.Inspect(e, visit)
	return free
}

// unboundName reports whether x names nothing the model or ECMAScript
// binds. A reserved word (return in a cond) is no name: the checker
// refuses it as a statement where a value belongs.
func unboundName(x *ast.Ident, bound map[string]bool) bool {
	_, reserved := parser.IllegalExpr(x.Name)
	return x.Name != "_" && !bound[x.Name] && !ecmaGlobals[x.Name] && !reserved && !ast.IsKeyword(x.Name)
}

// boundNames are the names that something of the model m binds: its
// variables, functions (funcs, externals), and every name that its code
// (all) assigns or declares.
func boundNames(m *model.Model, funcs map[string]*ast.FuncDecl, externals map[string]*lang.Signature, all []code) map[string]bool {
	bound := make(map[string]bool)
	for _, v := range m.Vars {
		bound[v.Name] = true
	}
	for name, f := range funcs {
		bound[name] = true
		for _, p := range f.Params {
			bound[p.Name] = true
		}
	}
	for name := range externals {
		bound[name] = true
	}
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.Assign:
				// z.f = 1 and z += 1 read z first: they bind nothing.
				if len(s.Path) == 0 && s.Op == ast.ASSIGN {
					bound[s.Target.Name] = true
				}
			case *ast.Decl:
				bound[s.Name.Name] = true
			case *ast.ForEach:
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

// failUnbound ends each block of executable content at its first
// statement that reads a name bound nowhere whatever the values (the
// base of z.f = 1, the value of an assignment or declaration, the
// condition of an if): reading it is a ReferenceError, error.execution in
// SCXML, which skips the rest of the block (SCXML §4.10 and §B.2). The
// statement becomes the raise of error.execution, with a warning; the
// statements before it run. A name read only in a branch, a loop or a
// function stays the error "undeclared name". It reports whether it ended
// any block.
func (dc *declarer) failUnbound(all []code) bool {
	var bound map[string]bool
	changed := false
	for _, c := range all {
		if c.body == nil {
			continue
		}
		if bound == nil {
			bound = boundNames(dc.m, dc.funcs, dc.externals, allCode(dc.m, dc.inv))
		}
		for i, st := range c.body.Stmts {
			free := stmtFree(st, bound)
			if free == nil {
				continue
			}
			what := fmt.Sprintf("%s is bound nowhere in the model (no <data> declares it and no code assigns it), and reading it is a ReferenceError "+
				"(where the engine binds it, as scxmlrun binds _data, or a document that includes this one does, as the Qt SCXML editor's fragments expect, "+
				"the model runs otherwise: declare it with a <data> to say what it holds)", free.Name)
			r := dc.low.fail(dc.file.Offset(free.NamePos), what)
			c.body.Stmts = append(c.body.Stmts[:i:i], r)
			changed = true
			break
		}
	}
	return changed
}

// stmtFree returns a name bound nowhere that running s reads whatever the
// values, or nil.
func stmtFree(s ast.Stmt, bound map[string]bool) *ast.Ident {
	unbound := func(x *ast.Ident) bool { return unboundName(x, bound) }
	switch x := s.(type) {
	case *ast.Assign:
		if (len(x.Path) > 0 || x.Op != ast.ASSIGN) && unbound(x.Target) {
			return x.Target
		}
		for _, p := range x.Path {
			if p.Index != nil {
				if free := evaluatedFree(p.Index, bound); free != nil {
					return free
				}
			}
		}
		return evaluatedFree(x.Value, bound)
	case *ast.IncDec:
		if unbound(x.Target) {
			return x.Target
		}
	case *ast.Decl:
		if x.Value != nil {
			return evaluatedFree(x.Value, bound)
		}
	case *ast.If:
		return evaluatedFree(x.Cond, bound)
	}
	return nil
}
