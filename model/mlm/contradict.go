package mlm

import (
	"slices"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
)

// facts are the conditions a way through a macrostep requires at its
// current point, each on values no action has assigned since it was
// required: two of them that read the same expression read the same
// value there. They tell, by a cheap syntactic test and no solver call,
// when a way requires a condition and its negation, or a value equal to
// two different constants, which no input satisfies.
type facts struct {
	list []fact
}

// fact is one required literal: an atom (by ast.Key), whether it is
// required true, and the variables it reads.
type fact struct {
	key  string
	pos  bool
	vars []string
	// lhs and value: for an atom X == constant, X's key and the
	// constant's; "" otherwise.
	lhs, value string
}

// add requires the conjuncts of g and reports whether the facts now
// contradict each other. A conjunct that calls a black-box function is
// left out: each call may answer differently.
func (fs *facts) add(g ast.Expr) bool {
	if g == nil {
		return false
	}
	if x, ok := g.(*ast.Binary); ok && x.Op == ast.LAND {
		return fs.add(x.X) || fs.add(x.Y)
	}
	if callsOut(g) {
		return false
	}
	n := literalOf(g)
	n.vars = lang.Uses(g)
	for _, o := range fs.list {
		if o.key == n.key && o.pos != n.pos ||
			n.pos && o.pos && n.lhs != "" && o.lhs == n.lhs && o.value != n.value {
			return true
		}
	}
	fs.list = append(fs.list, n)
	return false
}

// forget drops the facts that read one of vars, which an action assigned.
// A nil fs holds nothing.
func (fs *facts) forget(vars []string) {
	if fs == nil || len(vars) == 0 {
		return
	}
	fs.list = slices.DeleteFunc(fs.list, func(f fact) bool {
		for _, v := range f.vars {
			if slices.Contains(vars, v) {
				return true
			}
		}
		return false
	})
}

// literalOf returns the atom under e's negations and whether e requires
// it true: a != b and a !== b are the negations of a == b and a === b.
func literalOf(e ast.Expr) fact {
	pos := true
	for {
		switch x := e.(type) {
		case *ast.Unary:
			if x.Op == ast.NOT {
				pos = !pos
				e = x.X
				continue
			}
		case *ast.Binary:
			if eq, ok := equalityOf[x.Op]; ok {
				atom := &ast.Binary{X: x.X, OpPos: x.OpPos, Op: eq, Y: x.Y}
				f := fact{key: ast.Key(atom), pos: pos == (eq == x.Op)}
				f.lhs, f.value = constantSide(x.X, x.Y)
				return f
			}
		}
		return fact{key: ast.Key(e), pos: pos}
	}
}

// constantSide returns, for an equality of x and y one of which is an int
// or string literal, the other's key and the literal's; "" otherwise.
func constantSide(x, y ast.Expr) (string, string) {
	if isConstant(x) {
		x, y = y, x
	}
	if !isConstant(y) || isConstant(x) {
		return "", ""
	}
	return ast.Key(x), ast.Key(y)
}

func isConstant(e ast.Expr) bool {
	switch e.(type) {
	case *ast.IntLit, *ast.StrLit:
		return true
	}
	return false
}

// equalityOf maps each equality operator and its negation to the
// equality.
var equalityOf = map[ast.Token]ast.Token{ast.EQL: ast.EQL, ast.NEQ: ast.EQL, ast.SEQL: ast.SEQL, ast.SNEQ: ast.SEQL}

// callsOut reports whether e calls a function: a black box answers each
// call afresh (ast.External).
func callsOut(e ast.Expr) bool {
	return ast.Any(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.External, *ast.Call:
			return true
		}
		return false
	})
}
