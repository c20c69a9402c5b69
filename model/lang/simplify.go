package lang

import (
	"math"
	"math/big"
	"strings"

	intarith "github.com/setbot/setbot/model/lang/arith"
	"github.com/setbot/setbot/model/lang/ecma"
)

// Simplify returns a copy of e with constants folded: boolean identities
// (true && x is x, x || true is true: expressions have no side effects),
// !!x, ?: with a constant condition, and arithmetic and comparisons on two
// literals. Integers are mathematical: an operation whose result does not
// fit int64 is left as it is, as is a division or remainder by zero.
// Division truncates toward zero, as in C.
func Simplify(e Expr) Expr { return RewriteExpr(e, fold) }

// SimplifyBlock returns a copy of b with every expression simplified.
func SimplifyBlock(b *Block) *Block { return RewriteBlock(b, fold) }

// fold simplifies one node whose children are already simplified.
func fold(e Expr) Expr {
	switch x := e.(type) {
	case *Unary:
		return foldUnary(x)
	case *Binary:
		return foldBinary(x)
	case *Cond:
		return foldCond(x)
	case *ToDecimal:
		if r, ok := ratValue(x.X); ok {
			return &DecLit{ValuePos: x.Start, Value: r}
		}
	}
	return e
}

// ratValue returns the value of an int or decimal literal as a rational.
func ratValue(e Expr) (*big.Rat, bool) {
	switch x := e.(type) {
	case *IntLit:
		return new(big.Rat).SetInt64(x.Value), true
	case *DecLit:
		return x.Value, true
	}
	return nil, false
}

// foldCond folds ?: with a constant condition, and one whose branches are
// boolean literals into && and ||.
func foldCond(x *Cond) Expr {
	if c, ok := x.Cond.(*BoolLit); ok {
		if c.Value {
			return x.Then
		}
		return x.Else
	}
	if b, ok := x.Then.(*BoolLit); ok {
		if b.Value { // c ? true : e
			return foldBinary(&Binary{X: x.Cond, OpPos: x.Question, Op: LOR, Y: x.Else})
		}
		return foldBinary(&Binary{X: foldUnary(&Unary{OpPos: x.Question, Op: NOT, X: x.Cond}), OpPos: x.Question, Op: LAND, Y: x.Else})
	}
	if b, ok := x.Else.(*BoolLit); ok {
		if b.Value { // c ? e : true
			return foldBinary(&Binary{X: foldUnary(&Unary{OpPos: x.Question, Op: NOT, X: x.Cond}), OpPos: x.Question, Op: LOR, Y: x.Then})
		}
		return foldBinary(&Binary{X: x.Cond, OpPos: x.Question, Op: LAND, Y: x.Then})
	}
	return x
}

// literal reports whether e is a literal.
func literal(e Expr) bool {
	switch e.(type) {
	case *IntLit, *DecLit, *BoolLit, *StrLit:
		return true
	}
	return false
}

// distribute folds a comparison of a ?: whose branches are literals with a
// literal into a ?: of the folded comparisons: typeof x == 'number', say.
func distribute(x *Binary) (Expr, bool) {
	c, ok := x.X.(*Cond)
	if !ok || !literal(x.Y) || x.Op != EQL && x.Op != NEQ {
		return nil, false
	}
	then := foldBinary(&Binary{X: c.Then, OpPos: x.OpPos, Op: x.Op, Y: x.Y})
	var els Expr = &Binary{X: c.Else, OpPos: x.OpPos, Op: x.Op, Y: x.Y}
	if _, isCond := c.Else.(*Cond); isCond {
		els, ok = distribute(els.(*Binary))
	} else {
		els = foldBinary(els.(*Binary))
	}
	if !ok || !literal(then) {
		return nil, false
	}
	return foldCond(&Cond{Cond: c.Cond, Question: c.Question, Then: then, Else: els}), true
}

func foldUnary(x *Unary) Expr {
	switch y := x.X.(type) {
	case *BoolLit:
		if x.Op == NOT {
			return &BoolLit{ValuePos: x.OpPos, Value: !y.Value}
		}
	case *IntLit:
		if x.Op == SUB && y.Value != math.MinInt64 {
			return &IntLit{ValuePos: x.OpPos, Value: -y.Value}
		}
	case *DecLit:
		if x.Op == SUB {
			return &DecLit{ValuePos: x.OpPos, Value: new(big.Rat).Neg(y.Value)}
		}
	case *Unary:
		if x.Op == NOT && y.Op == NOT {
			return y.X
		}
	}
	return x
}

func foldBinary(x *Binary) Expr {
	if x.Op == LAND || x.Op == LOR {
		return foldLogical(x)
	}
	if a, ok := x.X.(*BoolLit); ok {
		if b, ok := x.Y.(*BoolLit); ok {
			switch x.Op {
			case EQL:
				return &BoolLit{ValuePos: x.Pos(), Value: a.Value == b.Value}
			case NEQ:
				return &BoolLit{ValuePos: x.Pos(), Value: a.Value != b.Value}
			}
		}
	}
	if d, ok := distribute(x); ok {
		return d
	}
	if a, ok := x.X.(*StrLit); ok {
		if b, ok := x.Y.(*StrLit); ok {
			return foldStrings(x, a.Value, b.Value)
		}
	}
	_, dec1 := x.X.(*DecLit)
	_, dec2 := x.Y.(*DecLit)
	if dec1 || dec2 {
		return foldDecimals(x)
	}
	a, ok1 := x.X.(*IntLit)
	b, ok2 := x.Y.(*IntLit)
	if !ok1 || !ok2 {
		return x
	}
	if v, ok := compare(x.Op, a.Value, b.Value); ok {
		return &BoolLit{ValuePos: x.Pos(), Value: v}
	}
	if v, ok := arith(x.Op, a.Value, b.Value); ok {
		return &IntLit{ValuePos: x.Pos(), Value: v}
	}
	return x
}

// foldLogical applies the identities of && and || with one literal
// operand.
func foldLogical(x *Binary) Expr {
	// neutral is the operand value that leaves the other operand as the
	// result; the other value decides the result by itself.
	neutral := x.Op == LAND
	if a, ok := x.X.(*BoolLit); ok {
		if a.Value == neutral {
			return x.Y
		}
		return a
	}
	if b, ok := x.Y.(*BoolLit); ok {
		if b.Value == neutral {
			return x.X
		}
		return b
	}
	return x
}

func compare(op Token, a, b int64) (v, ok bool) {
	switch op {
	case EQL:
		return a == b, true
	case NEQ:
		return a != b, true
	case LSS:
		return a < b, true
	case GTR:
		return a > b, true
	case LEQ:
		return a <= b, true
	case GEQ:
		return a >= b, true
	}
	return false, false
}

// arith computes a op b exactly and reports whether the result is an
// int64 (package arith). A division or remainder by zero is left as it
// is written: it is defined, but folding it would hide it from the reader.
func arith(op Token, a, b int64) (int64, bool) {
	switch {
	case op == ADD:
		return intarith.Add(a, b)
	case op == SUB:
		return intarith.Sub(a, b)
	case op == MUL:
		return intarith.Mul(a, b)
	case op == QUO && b != 0:
		return intarith.Quo(a, b)
	case op == REM && b != 0:
		return intarith.Rem(a, b)
	}
	return 0, false
}

// foldStrings folds an operation on two string literals: comparisons
// (by code point, as the solver and the simulator compare) and +.
func foldStrings(x *Binary, a, b string) Expr {
	if x.Op == ADD {
		return &StrLit{ValuePos: x.Pos(), Value: a + b}
	}
	c := strings.Compare(a, b) // UTF-8 byte order is code point order
	if v, ok := compare(x.Op, int64(c), 0); ok {
		return &BoolLit{ValuePos: x.Pos(), Value: v}
	}
	return x
}

// foldDecimals folds an operation on two number literals of which one is a
// decimal, exactly: comparisons, + - *, and / by a divisor other than 0.
func foldDecimals(x *Binary) Expr {
	a, ok1 := ratValue(x.X)
	b, ok2 := ratValue(x.Y)
	if !ok1 || !ok2 {
		return x
	}
	if v, ok := compare(x.Op, int64(a.Cmp(b)), 0); ok {
		return &BoolLit{ValuePos: x.Pos(), Value: v}
	}
	r := new(big.Rat)
	switch {
	case x.Op == ADD:
		r.Add(a, b)
	case x.Op == SUB:
		r.Sub(a, b)
	case x.Op == MUL:
		r.Mul(a, b)
	case x.Op == QUO && b.Sign() != 0:
		r.Quo(a, b)
	default:
		return x
	}
	if !ecma.IsDouble(r) {
		// No literal reads back as this value (a literal is the double
		// nearest its text): 1 / 1.1, 0.1 + 1. Leave it as written.
		return x
	}
	return &DecLit{ValuePos: x.Pos(), Value: r}
}
