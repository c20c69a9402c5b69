package scxml

import (
	"fmt"
	"maps"
	"slices"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
)

// A name that no <data> declares and that no code of the model ever
// assigns (nor declares: a local, a loop's item, a function) is bound
// nowhere, and reading it is an ECMAScript ReferenceError, which SCXML
// makes error.execution (SCXML §B.2). A transition's cond that reads one
// is therefore false and raises error.execution each time it is
// evaluated (SCXML §5.9.1): the reader marks it as it marks a cond that is
// no ECMAScript (model.Transition.CondFails; FailsWhen where it reads the
// name only after an && that may stop before it), with a warning. Elsewhere
// such a name stays the error "undeclared name", with its position, except
// in a statement of a block that reads it whatever the values (failUnbound).

// ecmaGlobals are names ECMAScript binds in the global scope, which are
// never unbound (setbot refuses what it does not model of them).
var ecmaGlobals = map[string]bool{"NaN": true, "Infinity": true, "globalThis": true, "Math": true, "JSON": true, "Date": true,
	"Object": true, "Array": true, "String": true, "Number": true, "Boolean": true, "RegExp": true, "Error": true, "console": true, "SCXML": true}

// unboundConds marks the conds of the transitions of m that read a name
// bound nowhere (boundNames of m, its functions and all its code), or call
// a function that does (fails, failingFunctions), with a warning.
func unboundConds(d *diag, m *model.Model, funcs map[string]*ast.FuncDecl, externals map[string]*lower.Signature, fails map[string]*ast.Ident, all []code) {
	bound := boundNames(m, funcs, externals, all)
	for _, s := range m.States() {
		for _, t := range s.Transitions {
			if t.Cond == nil || t.CondFails || t.FailsWhen != nil {
				continue
			}
			free, when := failsAfter(t.Cond, bound, fails)
			if free == nil {
				continue
			}
			if when == nil {
				d.warns.Add(d.fset.Position(free.NamePos), "%s is bound nowhere in the model (no <data> declares it and no code assigns it): reading it raises %s, "+
					"so setbot takes this cond as false and raises %s each time it is evaluated, as ECMAScript and the SCXML specification require", free.Name, model.ErrorExecution, model.ErrorExecution)
			} else {
				d.warns.Add(d.fset.Position(free.NamePos), "%s is bound nowhere in the model (no <data> declares it and no code assigns it): reading it raises %s, "+
					"so setbot takes this cond as false, and raises %s each time it is evaluated where %s holds (what && reads before it), as ECMAScript and the SCXML specification require",
					free.Name, model.ErrorExecution, model.ErrorExecution, printer.ExprString(when))
			}
			t.Cond, t.CondFails, t.FailsWhen = &ast.BoolLit{ValuePos: t.Cond.Pos(), Value: false}, when == nil, when
		}
	}
}

// failsAfter returns a name bound nowhere that evaluating the cond e
// reads, and when: nil where it always does, the condition that the &&
// before it give otherwise. a && z is then false whatever a is: it raises
// where a holds and is a's false elsewhere. Other operators that read z
// on some values only (||, ?:) are not followed: z stays undeclared.
func failsAfter(e ast.Expr, bound map[string]bool, fails map[string]*ast.Ident) (*ast.Ident, ast.Expr) {
	if free := evaluatedFree(e, bound, fails); free != nil {
		return free, nil
	}
	x, ok := e.(*ast.Binary)
	if !ok || x.Op != ast.LAND {
		return nil, nil
	}
	if free, when := failsAfter(x.X, bound, fails); free != nil {
		return free, when
	}
	free, when := failsAfter(x.Y, bound, fails)
	if free == nil {
		return nil, nil
	}
	if when == nil {
		return free, x.X
	}
	return free, &ast.Binary{X: x.X, OpPos: x.OpPos, Op: ast.LAND, Y: when}
}

// evaluatedFree returns the first name bound nowhere that evaluating e
// always reads (directly, or through a call of a function of fails, which
// reads the name given there whatever its arguments), or nil: && and ||
// read their right operand and ?: its branches only on some values, so a
// name there may never be read (evaluated).
func evaluatedFree(e ast.Expr, bound map[string]bool, fails map[string]*ast.Ident) *ast.Ident {
	frees := evaluated(e, func(x ast.Expr) (*ast.Ident, bool) {
		switch x := x.(type) {
		case *ast.Ident:
			return x, unboundName(x, bound)
		case *ast.Call:
			f := fails[x.Fun]
			return f, f != nil
		}
		return nil, false
	}, nil)
	if len(frees) == 0 {
		return nil
	}
	return frees[0]
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
func boundNames(m *model.Model, funcs map[string]*ast.FuncDecl, externals map[string]*lower.Signature, all []code) map[string]bool {
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
// condition of an if, the header of a for): reading it is a
// ReferenceError, error.execution in SCXML, which skips the rest of the
// block (SCXML §4.10 and §B.2). The statement becomes the raise of
// error.execution, with a warning; the statements before it run. The same
// holds in the branches of an if, where the raise ends the branch and the
// rest of the block (the lowering of the raise, lowerIf). A name read only
// in a loop's body, a function or after && or || stays the error
// "undeclared name". It reports whether it ended any block.
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
		var ended bool
		c.body.Stmts, ended = dc.failUnboundIn(c.body.Stmts, bound)
		changed = changed || ended
	}
	return changed
}

// failUnboundIn is failUnbound for one list of statements and the branches
// of its ifs.
func (dc *declarer) failUnboundIn(stmts []ast.Stmt, bound map[string]bool) ([]ast.Stmt, bool) {
	for i, st := range stmts {
		free, before := stmtFree(st, bound, nil)
		if free == nil {
			// A raise in a branch skips what follows the if too: the if is
			// lowered again with the rest of the list (lowerIf), which is
			// safe for ifs already lowered, not for a loop whose failing
			// body was (its flag would be lowered twice).
			x, ok := st.(*ast.If)
			if !ok || dc.failsInLoop(stmts[i:]) || !dc.failUnboundIf(x, bound) {
				continue
			}
			// The rest may read such a name too (a second if): it ends
			// there before it joins the if's branches.
			rest, _ := dc.failUnboundIn(slices.Clone(stmts[i+1:]), bound)
			dc.low.left = maxLowered
			y := dc.low.lowerIf(x, rest)
			if dc.low.left < 0 {
				dc.errorf(dc.file.Offset(x.IfPos), "this if reads a name bound nowhere, which raises %s, under so many conditions that skipping "+
					"the rest of the block takes more than %d statements to write: declare the name with a <data>", model.ErrorExecution, maxLowered)
			}
			return append(stmts[:i:i], y), true
		}
		what := fmt.Sprintf("%s is bound nowhere in the model (no <data> declares it and no code assigns it), and reading it is a ReferenceError "+
			"(where the engine binds it, as scxmlrun binds _data, or a document that includes this one does, as the Qt SCXML editor's fragments expect, "+
			"the model runs otherwise: declare it with a <data> to say what it holds)", free.Name)
		r := dc.low.fail(dc.file.Offset(free.NamePos), what)
		out := stmts[:i:i]
		if before != nil {
			out = append(out, before)
		}
		return append(out, r), true
	}
	return stmts, false
}

// failsInLoop reports whether a loop under stmts holds an element that
// raises error.execution.
func (dc *declarer) failsInLoop(stmts []ast.Stmt) bool {
	return slices.ContainsFunc(stmts, func(s ast.Stmt) bool {
		return ast.Any(s, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.While, *ast.For, *ast.ForEach:
				return dc.low.failing(n) != nil
			}
			return false
		})
	})
}

// failUnboundIf is failUnboundIn for the branches of x.
func (dc *declarer) failUnboundIf(x *ast.If, bound map[string]bool) bool {
	var changed bool
	x.Then.Stmts, changed = dc.failUnboundIn(x.Then.Stmts, bound)
	switch e := x.Else.(type) {
	case *ast.If:
		changed = dc.failUnboundIf(e, bound) || changed
	case *ast.Block:
		var ended bool
		e.Stmts, ended = dc.failUnboundIn(e.Stmts, bound)
		changed = changed || ended
	}
	return changed
}

// stmtFree returns a name bound nowhere that running s reads whatever the
// values, or nil, and the statement that runs before the read where s
// itself does not (the init of a for whose condition reads it), or nil.
func stmtFree(s ast.Stmt, bound map[string]bool, fails map[string]*ast.Ident) (*ast.Ident, ast.Stmt) {
	unbound := func(x *ast.Ident) bool { return unboundName(x, bound) }
	switch x := s.(type) {
	case *ast.Assign:
		if (len(x.Path) > 0 || x.Op != ast.ASSIGN) && unbound(x.Target) {
			return x.Target, nil
		}
		for _, p := range x.Path {
			if p.Index != nil {
				if free := evaluatedFree(p.Index, bound, fails); free != nil {
					return free, nil
				}
			}
		}
		return evaluatedFree(x.Value, bound, fails), nil
	case *ast.IncDec:
		if unbound(x.Target) {
			return x.Target, nil
		}
	case *ast.Decl, *ast.Return:
		if v := stmtValue(x); v != nil {
			return evaluatedFree(v, bound, fails), nil
		}
	case *ast.If:
		return evaluatedFree(x.Cond, bound, fails), nil
	case *ast.For:
		// for (init; cond; ...) runs init, then reads cond.
		if x.Init != nil {
			if free, _ := stmtFree(x.Init, bound, fails); free != nil {
				return free, nil
			}
		}
		if x.Cond != nil {
			if free := evaluatedFree(x.Cond, bound, fails); free != nil {
				return free, x.Init
			}
		}
	}
	return nil, nil
}

// stmtValue is the value a declaration or a return computes, or nil.
func stmtValue(s ast.Stmt) ast.Expr {
	switch x := s.(type) {
	case *ast.Decl:
		return x.Value
	case *ast.Return:
		return x.Value
	}
	return nil
}

// failingFunctions ends the body of each function that reads a name bound
// nowhere whatever its arguments (before any return can end it: in a
// statement of its body that stmtFree finds, or in a call of another such
// function) at that read: the statements before it compute the function's
// locals only, and the read raises error.execution, so what follows never
// runs; the body becomes those statements and return NAME. Inlined, a call
// of the function then reads the name where it is called, which is
// ECMAScript's ReferenceError there (failUnbound, unboundConds), and an
// assignment of a global after the read, which a function may not make in
// setbot, is gone with the code that never runs. It gives the functions
// it ended, each with the name read (unboundConds takes them), or nil for
// a model without functions.
func failingFunctions(m *model.Model, funcs map[string]*ast.FuncDecl, externals map[string]*lower.Signature, all []code) map[string]*ast.Ident {
	if len(funcs) == 0 {
		return nil
	}
	bound := boundNames(m, funcs, externals, all)
	fails := make(map[string]*ast.Ident)
	for changed := true; changed; {
		changed = false
		for _, name := range slices.Sorted(maps.Keys(funcs)) {
			f := funcs[name]
			if fails[name] != nil || f.Body == nil {
				continue
			}
			local := localNames(f, bound)
			for i, st := range f.Body.Stmts {
				if free, _ := stmtFree(st, local, fails); free != nil {
					fails[name] = free
					ret := &ast.Return{ReturnPos: free.NamePos, Value: &ast.Ident{NamePos: free.NamePos, Name: free.Name}}
					f.Body = &ast.Block{Lbrace: f.Body.Lbrace, Stmts: append(f.Body.Stmts[:i:i], ret)}
					changed = true
					break
				}
				if ast.Any(st, func(n ast.Node) bool { _, ok := n.(*ast.Return); return ok }) {
					break
				}
			}
		}
	}
	return fails
}

// localNames is bound with the parameters of f and the names its body
// declares.
func localNames(f *ast.FuncDecl, bound map[string]bool) map[string]bool {
	local := maps.Clone(bound)
	maps.Copy(local, f.Locals())
	return local
}
