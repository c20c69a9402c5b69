package scxml

import (
	"slices"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"
)

// pastEnd guards the reads of elements past the end of an array
// (guardPastEnd): declareCode makes it and runs it on the code as
// declared, and the checker runs it again once arrays have grown. It
// holds the blocks as read, which it lowers again (low), and the reads it
// guarded (inRange), which the checker's environment asks.
type pastEnd struct {
	*diag
	m       *model.Model
	low     *lowerer
	source  map[*ast.Block][]ast.Stmt
	inRange map[source.Pos]bool
	// dicts are the reads among them of a value of an object used as a
	// dictionary (m[k], ast.DictType), which no entry may have.
	dicts map[source.Pos]bool
}

// guardPastEnd guards the reads a[i] of an array or object element at an
// index that may lie past the end of a (t[k][0], t[k].f): ECMAScript reads
// undefined there, and reading into undefined throws a TypeError, which
// SCXML makes error.execution, skipping the rest of the block (§B.2). The
// guard says so before the statement that reads: if i is not an index of
// a, error.execution is raised (a failing element, as a throw is), and the
// read runs only where it lies within a (lang.Env.InRange). It guards a
// read into the element (a field, an element, the length) that its
// statement makes whenever it runs: in an assignment's value, a
// declaration's initial value or an if's condition, at the top of a block
// of executable content or of an if's branch there, and not under ?:, &&
// or ||, which may skip it; any other stays refused by the checker.
// It runs, as failNonArrays does, on the statements as read, and lowers
// the blocks it changes again. It returns the position of the first
// guard, and whether it guarded any.
func (pe *pastEnd) guardPastEnd(all []code) (first source.Pos, changed bool) {
	vars := varTypes(pe.m)
	for _, c := range all {
		stmts, ok := pe.source[c.body]
		if !ok {
			continue
		}
		env := &lang.Env{Vars: vars, Param: paramLookup(pe.m, c.trans), State: func(string) bool { return true },
			InRange: func(x *ast.Index) bool { return pe.inRange[x.Lbrack] }}
		info, _ := lang.CheckBlock(env, pe.fset, c.body)
		if len(info.PastEnd) == 0 {
			continue
		}
		refused := make(map[source.Pos]bool, len(info.PastEnd))
		for _, x := range info.PastEnd {
			refused[x.Lbrack] = true
			if info.Types[x.X].IsDict() {
				pe.dicts[x.Lbrack] = true
			}
		}
		stmts = slices.Clone(stmts)
		if !pe.guardStmts(&stmts, refused) {
			continue
		}
		if !changed {
			first = info.PastEnd[0].Lbrack
		}
		blk := &ast.Block{Lbrace: c.body.Lbrace, Stmts: pe.low.lowerBlock(stmts)}
		pe.source[blk] = stmts
		c.set(c.cond, blk)
		changed = true
	}
	return first, changed
}

// guardStmts puts the guards of the refused reads before the statements
// of *stmts that make them, and in the branches of its ifs.
func (pe *pastEnd) guardStmts(stmts *[]ast.Stmt, refused map[source.Pos]bool) bool {
	into := func(e ast.Expr) (*ast.Index, bool) {
		// Only a read into the element throws; the element itself,
		// assigned or compared whole, is undefined, which stays refused.
		var in ast.Expr
		switch x := e.(type) {
		case *ast.Index:
			in = x.X
		case *ast.Member:
			in = x.X
		case *ast.Method:
			in = x.X
		}
		x, ok := in.(*ast.Index)
		return x, ok && refused[x.Lbrack]
	}
	return guardEach(stmts, func(s ast.Stmt) []ast.Stmt {
		var reads []*ast.Index
		switch x := s.(type) {
		case *ast.Assign:
			reads = intoKey(x.Target, x.Path, refused, reads)
			reads = evaluated(x.Value, into, reads)
		case *ast.IncDec:
			reads = intoKey(x.Target, x.Path, refused, reads)
		case *ast.Decl:
			reads = evaluated(x.Value, into, reads)
		case *ast.If:
			reads = evaluated(x.Cond, into, reads)
		}
		var guards []ast.Stmt
		for _, r := range reads {
			guards = append(guards, pe.indexGuard(r))
		}
		return guards
	})
}

// guardEach puts before each statement of *stmts, and of the branches of
// its ifs, the guards that guards returns for it (an if's for its
// condition); it reports whether it put any.
func guardEach(stmts *[]ast.Stmt, guards func(ast.Stmt) []ast.Stmt) bool {
	var out []ast.Stmt
	guarded := false
	for _, s := range *stmts {
		if x, ok := s.(*ast.If); ok {
			guarded = guardEach(&x.Then.Stmts, guards) || guarded
			switch e := x.Else.(type) {
			case *ast.Block:
				guarded = guardEach(&e.Stmts, guards) || guarded
			case *ast.If: // else if: a block of its own where it needs a guard
				if else1 := []ast.Stmt{e}; guardEach(&else1, guards) {
					x.Else, guarded = &ast.Block{Stmts: else1}, true
				}
			}
		}
		g := guards(s)
		out = append(append(out, g...), s)
		guarded = guarded || len(g) > 0
	}
	*stmts = out
	return guarded
}

// indexGuard returns if (!(0 <= i && i < a.length)) raise error.execution
// for the read a[i], and records the read as guarded.
func (pe *pastEnd) indexGuard(x *ast.Index) ast.Stmt {
	pe.inRange[x.Lbrack] = true
	pos := x.Lbrack
	dup := func(e ast.Expr) ast.Expr { return ast.RewriteExpr(e, func(e ast.Expr) ast.Expr { return e }) }
	in := &ast.Binary{
		X:     &ast.Binary{X: &ast.IntLit{ValuePos: pos}, OpPos: pos, Op: ast.LEQ, Y: dup(x.Index)},
		OpPos: pos, Op: ast.LAND,
		Y: &ast.Binary{X: dup(x.Index), OpPos: pos, Op: ast.LSS, Y: &ast.Method{X: dup(x.X), DotPos: pos, Name: "length"}},
	}
	what := printer.ExprString(x) + " may lie past the end of " + printer.ExprString(x.X) +
		", where ECMAScript reads undefined and throws a TypeError on reading into it"
	if pe.dicts[pos] {
		// k in m: an entry has the key.
		in = &ast.Binary{X: dup(x.Index), OpPos: pos, Op: ast.IN, Y: dup(x.X)}
		what = "no entry of " + printer.ExprString(x.X) + " may have the key " + printer.ExprString(x.Index) +
			", where ECMAScript reads undefined and throws a TypeError on reading into it"
	}
	raise := pe.low.fail(pe.file.Offset(pos), what)
	return &ast.If{IfPos: pos, Cond: &ast.Unary{OpPos: pos, Op: ast.NOT, X: in}, Then: &ast.Block{Stmts: []ast.Stmt{raise}}}
}

// evaluated appends to reads the reads in e that evaluating e always
// makes, those hit picks, an inner one before the outer: not under the
// branches of ?: or the right operand of && and ||.
func evaluated[T any](e ast.Expr, hit func(ast.Expr) (T, bool), reads []T) []T {
	switch x := e.(type) {
	case nil:
		return reads
	case *ast.Cond:
		return evaluated(x.Cond, hit, reads)
	case *ast.Binary:
		if x.Op == ast.LAND || x.Op == ast.LOR {
			return evaluated(x.X, hit, reads)
		}
	}
	ast.EachChild(e, func(n ast.Node) {
		if ce, ok := n.(ast.Expr); ok {
			reads = evaluated(ce, hit, reads)
		}
	})
	if r, ok := hit(e); ok {
		reads = append(reads, r)
	}
	return reads
}

// intoKey appends to reads the write into target[k] (target[k].f = x),
// a value of a dictionary that no entry may have, where it is refused.
func intoKey(target *ast.Ident, path []*ast.Sel, refused map[source.Pos]bool, reads []*ast.Index) []*ast.Index {
	if len(path) < 2 || !refused[path[0].Pos] {
		return reads
	}
	return append(reads, &ast.Index{X: target, Lbrack: path[0].Pos, Index: path[0].Index})
}
