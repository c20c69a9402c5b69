package scxml

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// code is one piece of guard or action code with the events whose
// parameters it may read, and where it lives in the model (set replaces
// it, after lowering).
type code struct {
	cond  ast.Expr
	body  *ast.Block
	trans *model.Transition // nil for entry/exit/script code
	set   func(cond ast.Expr, body *ast.Block)
	entry *model.State // the state whose <onentry> this is, or nil
}

// nodes are the piece's condition and body, those it has.
func (c code) nodes() []ast.Node {
	var nodes []ast.Node
	if c.cond != nil {
		nodes = append(nodes, c.cond)
	}
	if c.body != nil {
		nodes = append(nodes, c.body)
	}
	return nodes
}

// allCode returns every guard and action of m, a document read as inv
// says, in document order. It marks the variables that the parent of an
// invoked machine passes (passedCode).
func allCode(m *model.Model, inv invocation) []code {
	var all []code
	for _, s := range m.States() {
		for i, blk := range s.OnEntry {
			all = append(all, code{body: blk, set: func(_ ast.Expr, body *ast.Block) { s.OnEntry[i] = body }, entry: s})
		}
		for i, blk := range s.OnExit {
			all = append(all, code{body: blk, set: func(_ ast.Expr, body *ast.Block) { s.OnExit[i] = body }})
		}
		if t := s.Initial; t != nil {
			all = append(all, code{body: t.Body, trans: t, set: func(_ ast.Expr, body *ast.Block) { t.Body = body }})
		}
		for _, t := range s.Transitions {
			all = append(all, code{cond: t.Cond, body: t.Body, trans: t, set: func(cond ast.Expr, body *ast.Block) { t.Cond, t.Body = cond, body }})
			if t.FailsWhen != nil {
				all = append(all, code{cond: t.FailsWhen, body: &ast.Block{}, trans: t, set: func(cond ast.Expr, _ *ast.Block) { t.FailsWhen = cond }})
			}
		}
		for _, inv := range s.Invokes {
			if inv.OK != nil {
				all = append(all, code{cond: inv.OK, body: &ast.Block{}, set: func(cond ast.Expr, _ *ast.Block) { inv.OK = cond }})
			}
			all = append(all, code{body: inv.Start, set: func(_ ast.Expr, body *ast.Block) { inv.Start = body }})
			if inv.Finalize != nil {
				all = append(all, code{body: inv.Finalize, set: func(_ ast.Expr, body *ast.Block) { inv.Finalize = body }})
			}
		}
		if s.Kind == model.Final && s.Parent.Kind == model.Root && inv.invoked && hasDoneData(s.Parent) {
			// The data of the done.invoke event the parent receives.
			done := &ast.Send{SendPos: s.Pos, Event: model.DoneData, Target: model.TargetParent, Args: s.DoneData}
			all = append(all, code{body: &ast.Block{Stmts: []ast.Stmt{done}}, set: func(_ ast.Expr, body *ast.Block) {
				s.DoneData = body.Stmts[0].(*ast.Send).Args
			}})
		}
		if s.Kind == model.Final && s.Parent.Kind != model.Root && hasDoneData(s.Parent) {
			// The done.state event's data is checked and lowered as the
			// arguments of the raise that entering s runs.
			all = append(all, code{body: &ast.Block{Stmts: []ast.Stmt{s.DoneRaise()}}, set: func(_ ast.Expr, body *ast.Block) {
				s.DoneData = body.Stmts[0].(*ast.Raise).Args
			}})
		}
	}
	return append(all, passedCode(m, inv.passed)...)
}

// hasDoneData reports whether a final child of s has <donedata>: then
// every final child's done.state event is checked, so that all of them
// pass the same parameters.
func hasDoneData(s *model.State) bool {
	for _, c := range s.Children {
		if c.Kind == model.Final && c.DoneData != nil {
			return true
		}
	}
	return false
}
