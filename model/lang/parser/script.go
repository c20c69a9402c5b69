package parser

import "github.com/setbot/setbot/model/lang/ast"

// GlobalDecls returns b, the code of an SCXML <script>, with each of its
// top-level "var x = e" and "let x = e" that names a machine variable
// (isVar) made the assignment "x = e". A script runs in the data model's
// global scope, where such a declaration assigns the variable rather than
// declaring a local that hides it. Declarations inside blocks, and typed
// ones, are left alone (the checker reports those that hide a variable).
func GlobalDecls(b *ast.Block, isVar func(name string) bool) *ast.Block {
	out := &ast.Block{Lbrace: b.Lbrace, Stmts: make([]ast.Stmt, len(b.Stmts))}
	for i, s := range b.Stmts {
		out.Stmts[i] = s
		d, ok := s.(*ast.Decl)
		if !ok || d.Type.Kind != ast.Invalid || d.Value == nil || !isVar(d.Name.Name) {
			continue
		}
		out.Stmts[i] = &ast.Assign{Target: d.Name, OpPos: d.DeclPos, Op: ast.ASSIGN, Value: d.Value}
	}
	return out
}
