package scxml

import (
	"slices"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/vocab"
)

// inlineCalls is the phase of inlining. It takes the model m and all its
// code, the functions its scripts declare (funcs), its black-box functions
// (externals), the host functions known before (hosts, dateVars) and how
// deep calls nest (depth, Options.CallDepth); it
// inlines the calls of script functions and built-ins in every guard and
// action (lower.Inliner), makes the calls of black-box functions
// ast.External, and adds to m the host functions the code uses
// (hostFunctions). A guard whose calls may nest deeper than
// the inliner's limit (Options.CallDepth) enables its transition where they do, and the transition's
// action then begins with the bound that cuts the path there, so that the
// cut is reported rather than taken for a false guard.
func inlineCalls(d *diag, m *model.Model, all []code, funcs map[string]*ast.FuncDecl, externals map[string]*lower.Signature,
	hosts map[string]*lower.HostFunction, depth int) {
	in := &lower.Inliner{Funcs: funcs, Externals: externals, Fset: d.fset, Depth: depth, Hosts: hosts}
	for _, c := range all {
		if !lower.HasCalls(c.body) && (c.cond == nil || !lower.HasCalls(c.cond)) {
			continue
		}
		body := in.Block(c.body)
		var cond ast.Expr
		if c.cond != nil {
			var over ast.Expr
			cond, over = in.Cond(c.cond)
			if over != nil {
				pos := c.cond.Pos()
				cond = &ast.Binary{X: cond, OpPos: pos, Op: ast.LOR, Y: over}
				bound := &ast.Bound{BoundPos: pos, Name: vocab.BoundCall, Limit: int64(in.Limit()), Cond: &ast.Unary{OpPos: pos, Op: ast.NOT, X: over}}
				body = &ast.Block{Lbrace: body.Lbrace, Stmts: append([]ast.Stmt{bound}, body.Stmts...)}
			}
		}
		c.set(cond, body)
	}
	in.Declared()
	hostFunctions(m, in.Hosts)
	d.errs = append(d.errs, in.Errs...)
}

// hostFunctions adds to the model m, as black-box functions without a table,
// the host functions whose values the code uses (lower.HostFunction): the
// symbolic executor reads each call as an unconstrained value.
func hostFunctions(m *model.Model, hosts map[string]*lower.HostFunction) {
	names := make([]string, 0, len(hosts))
	for n := range hosts {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		m.Functions = append(m.Functions, &model.Function{Name: n, Pos: hosts[n].Pos, Result: hosts[n].Result, Host: true})
	}
}
