// Package simplify folds constants in the action language's trees:
// boolean identities, ?: on a constant condition, arithmetic, comparisons
// and string operations on literals, every value rule asked of lang/arith
// and lang/ecma. The checker asks it whether an operand is constant, as
// go/types asks go/constant, and the lowering (package lang/lower)
// simplifies what it writes. It returns new trees and never changes one.
package simplify

import (
	"math"
	"math/big"

	intarith "github.com/setbot/setbot/model/lang/arith"
	"github.com/setbot/setbot/model/lang/ecma"

	"github.com/setbot/setbot/model/lang/ast"
)

// Expr returns a copy of e with constants folded: boolean identities
// (true && x is x, x || true is true: expressions have no side effects),
// !!x, ?: with a constant condition, and arithmetic and comparisons on two
// literals. Integers are mathematical: an operation whose result does not
// fit int64 is left as it is, as is a division or remainder by zero.
// Division truncates toward zero, as in C.
func Expr(e ast.Expr) ast.Expr { return ast.RewriteExpr(e, fold) }

// Block returns a copy of b with every expression simplified.
func Block(b *ast.Block) *ast.Block { return ast.RewriteBlock(b, fold) }

// fold simplifies one node whose children are already simplified.
func fold(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.Unary:
		return foldUnary(x)
	case *ast.Binary:
		return foldBinary(x)
	case *ast.Cond:
		return foldCond(x)
	case *ast.Method:
		return foldMethod(x)
	case *ast.ToDecimal:
		if r, ok := ratValue(x.X); ok {
			return &ast.DecLit{ValuePos: x.Start, Value: r}
		}
	}
	return e
}

// ratValue returns the value of an int or decimal literal as a rational.
func ratValue(e ast.Expr) (*big.Rat, bool) {
	switch x := e.(type) {
	case *ast.IntLit:
		return new(big.Rat).SetInt64(x.Value), true
	case *ast.DecLit:
		return x.Value, true
	}
	return nil, false
}

// foldCond folds ?: with a constant condition, and one whose branches are
// boolean literals into && and ||.
func foldCond(x *ast.Cond) ast.Expr {
	if c, ok := x.Cond.(*ast.BoolLit); ok {
		if c.Value {
			return x.Then
		}
		return x.Else
	}
	if b, ok := x.Then.(*ast.BoolLit); ok {
		if b.Value { // c ? true : e
			return foldBinary(&ast.Binary{X: x.Cond, OpPos: x.Question, Op: ast.LOR, Y: x.Else})
		}
		return foldBinary(&ast.Binary{X: foldUnary(&ast.Unary{OpPos: x.Question, Op: ast.NOT, X: x.Cond}), OpPos: x.Question, Op: ast.LAND, Y: x.Else})
	}
	if b, ok := x.Else.(*ast.BoolLit); ok {
		if b.Value { // c ? e : true
			return foldBinary(&ast.Binary{X: foldUnary(&ast.Unary{OpPos: x.Question, Op: ast.NOT, X: x.Cond}), OpPos: x.Question, Op: ast.LOR, Y: x.Then})
		}
		return foldBinary(&ast.Binary{X: x.Cond, OpPos: x.Question, Op: ast.LAND, Y: x.Then})
	}
	return x
}

// Literal reports whether e is a literal.
func Literal(e ast.Expr) bool {
	switch e.(type) {
	case *ast.IntLit, *ast.DecLit, *ast.BoolLit, *ast.StrLit:
		return true
	}
	return false
}

// distribute folds a comparison of a ?: whose branches are literals with a
// literal into a ?: of the folded comparisons: typeof x == 'number', say.
func distribute(x *ast.Binary) (ast.Expr, bool) {
	c, ok := x.X.(*ast.Cond)
	if !ok || !Literal(x.Y) || x.Op != ast.EQL && x.Op != ast.NEQ {
		return nil, false
	}
	then := foldBinary(&ast.Binary{X: c.Then, OpPos: x.OpPos, Op: x.Op, Y: x.Y})
	var els ast.Expr = &ast.Binary{X: c.Else, OpPos: x.OpPos, Op: x.Op, Y: x.Y}
	if _, isCond := c.Else.(*ast.Cond); isCond {
		els, ok = distribute(els.(*ast.Binary))
	} else {
		els = foldBinary(els.(*ast.Binary))
	}
	if !ok || !Literal(then) {
		return nil, false
	}
	return foldCond(&ast.Cond{Cond: c.Cond, Question: c.Question, Then: then, Else: els}), true
}

func foldUnary(x *ast.Unary) ast.Expr {
	switch y := x.X.(type) {
	case *ast.BoolLit:
		if x.Op == ast.NOT {
			return &ast.BoolLit{ValuePos: x.OpPos, Value: !y.Value}
		}
	case *ast.IntLit:
		if x.Op == ast.SUB && y.Value != math.MinInt64 {
			return &ast.IntLit{ValuePos: x.OpPos, Value: -y.Value}
		}
	case *ast.DecLit:
		if x.Op == ast.SUB {
			return &ast.DecLit{ValuePos: x.OpPos, Value: new(big.Rat).Neg(y.Value)}
		}
	case *ast.Unary:
		if x.Op == ast.NOT && y.Op == ast.NOT {
			return y.X
		}
	}
	return x
}

func foldBinary(x *ast.Binary) ast.Expr {
	if x.Op == ast.LAND || x.Op == ast.LOR {
		return foldLogical(x)
	}
	if a, ok := x.X.(*ast.BoolLit); ok {
		if b, ok := x.Y.(*ast.BoolLit); ok {
			switch x.Op {
			case ast.EQL:
				return &ast.BoolLit{ValuePos: x.Pos(), Value: a.Value == b.Value}
			case ast.NEQ:
				return &ast.BoolLit{ValuePos: x.Pos(), Value: a.Value != b.Value}
			}
		}
	}
	if d, ok := distribute(x); ok {
		return d
	}
	if a, ok := x.X.(*ast.StrLit); ok {
		if b, ok := x.Y.(*ast.StrLit); ok {
			return foldStrings(x, a.Value, b.Value)
		}
	}
	_, dec1 := x.X.(*ast.DecLit)
	_, dec2 := x.Y.(*ast.DecLit)
	if dec1 || dec2 {
		return foldDecimals(x)
	}
	a, ok1 := x.X.(*ast.IntLit)
	b, ok2 := x.Y.(*ast.IntLit)
	if !ok1 || !ok2 {
		return x
	}
	if v, ok := compare(x.Op, a.Value, b.Value); ok {
		return &ast.BoolLit{ValuePos: x.Pos(), Value: v}
	}
	if v, ok := arith(x.Op, a.Value, b.Value); ok {
		return &ast.IntLit{ValuePos: x.Pos(), Value: v}
	}
	return x
}

// foldLogical applies the identities of && and || with one literal
// operand.
func foldLogical(x *ast.Binary) ast.Expr {
	// neutral is the operand value that leaves the other operand as the
	// result; the other value decides the result by itself.
	neutral := x.Op == ast.LAND
	if a, ok := x.X.(*ast.BoolLit); ok {
		if a.Value == neutral {
			return x.Y
		}
		return a
	}
	if b, ok := x.Y.(*ast.BoolLit); ok {
		if b.Value == neutral {
			return x.X
		}
		return b
	}
	return x
}

func compare(op ast.Token, a, b int64) (v, ok bool) {
	switch op {
	case ast.EQL:
		return a == b, true
	case ast.NEQ:
		return a != b, true
	case ast.LSS:
		return a < b, true
	case ast.GTR:
		return a > b, true
	case ast.LEQ:
		return a <= b, true
	case ast.GEQ:
		return a >= b, true
	}
	return false, false
}

// arith computes a op b exactly and reports whether the result is an
// int64 (package arith). A division or remainder by zero is left as it
// is written: it is defined, but folding it would hide it from the reader.
func arith(op ast.Token, a, b int64) (int64, bool) {
	switch {
	case op == ast.ADD:
		return intarith.Add(a, b)
	case op == ast.SUB:
		return intarith.Sub(a, b)
	case op == ast.MUL:
		return intarith.Mul(a, b)
	case op == ast.QUO && b != 0:
		return intarith.Quo(a, b)
	case op == ast.REM && b != 0:
		return intarith.Rem(a, b)
	}
	return 0, false
}

// foldStrings folds an operation on two string literals: comparisons
// (by code point, as the solver and the simulator compare) and +.
func foldStrings(x *ast.Binary, a, b string) ast.Expr {
	if x.Op == ast.ADD {
		return &ast.StrLit{ValuePos: x.Pos(), Value: a + b}
	}
	c := ecma.CompareStrings(a, b)
	if v, ok := compare(x.Op, int64(c), 0); ok {
		return &ast.BoolLit{ValuePos: x.Pos(), Value: v}
	}
	return x
}

// foldMethod folds a string method of a string literal whose arguments
// are literals, as the executors compute it (lang/ecma).
func foldMethod(x *ast.Method) ast.Expr {
	recv, ok := x.X.(*ast.StrLit)
	if !ok {
		return x
	}
	var strs []string
	var ints []int64
	for _, a := range x.Args {
		switch a := a.(type) {
		case *ast.StrLit:
			strs = append(strs, a.Value)
		case *ast.IntLit:
			ints = append(ints, a.Value)
		default:
			return x
		}
	}
	s, pos := recv.Value, x.Pos()
	switch {
	case x.Name == "length" && !x.Call:
		return &ast.IntLit{ValuePos: pos, Value: ecma.Length(s)}
	case x.Name == "indexOf" && len(strs) == 1:
		return &ast.IntLit{ValuePos: pos, Value: ecma.IndexOf(s, strs[0])}
	case x.Name == "lastIndexOf" && len(strs) == 1 && len(ints) == 0:
		return &ast.IntLit{ValuePos: pos, Value: ecma.LastIndexOf(s, strs[0])}
	case x.Name == "lastIndexOf" && len(strs) == 1:
		return &ast.IntLit{ValuePos: pos, Value: ecma.LastIndexOfFrom(s, strs[0], ints[0])}
	case x.Name == "substring" && len(ints) == 1 && len(strs) == 0:
		return &ast.StrLit{ValuePos: pos, Value: ecma.Substring(s, ints[0], ecma.Length(s))}
	case x.Name == "substring" && len(ints) == 2:
		return &ast.StrLit{ValuePos: pos, Value: ecma.Substring(s, ints[0], ints[1])}
	}
	return x
}

// foldDecimals folds an operation on two number literals of which one is a
// decimal, exactly: comparisons, + - *, and / by a divisor other than 0.
func foldDecimals(x *ast.Binary) ast.Expr {
	a, ok1 := ratValue(x.X)
	b, ok2 := ratValue(x.Y)
	if !ok1 || !ok2 {
		return x
	}
	if v, ok := compare(x.Op, int64(a.Cmp(b)), 0); ok {
		return &ast.BoolLit{ValuePos: x.Pos(), Value: v}
	}
	r := new(big.Rat)
	switch {
	case x.Op == ast.ADD:
		r.Add(a, b)
	case x.Op == ast.SUB:
		r.Sub(a, b)
	case x.Op == ast.MUL:
		r.Mul(a, b)
	case x.Op == ast.QUO && b.Sign() != 0:
		r.Quo(a, b)
	default:
		return x
	}
	if !ecma.IsDouble(r) {
		// No literal reads back as this value (a literal is the double
		// nearest its text): 1 / 1.1, 0.1 + 1. Leave it as written.
		return x
	}
	return &ast.DecLit{ValuePos: x.Pos(), Value: r}
}
