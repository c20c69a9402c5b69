package sim

import (
	"fmt"
	"math/big"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/vocab"
)

// DecimalValue returns the decimal value r.
func DecimalValue(r *big.Rat) Value { return Value{Kind: ast.Decimal, Rat: r} }

// Equal reports whether v and w are the same value (decimals compared by
// value).
func (v Value) Equal(w Value) bool {
	if v.Kind == ast.Decimal && w.Kind == ast.Decimal {
		return v.Rat.Cmp(w.Rat) == 0
	}
	return v.Kind == w.Kind && v.Int == w.Int && v.Bool == w.Bool && v.Str == w.Str
}

// convert computes a conversion between strings and numbers with package
// ecma. Where ECMAScript's value is NaN or beyond the exact range, the run
// stops with the bound the symbolic executor cuts the path with.
func (x *Executor) convert(n *ast.Convert) (Value, error) {
	v, err := x.Eval(n.X)
	if err != nil {
		return Value{}, err
	}
	exact := true
	var out Value
	switch {
	case n.Fun == "String" && v.Kind == ast.Decimal:
		return StringValue(ecma.NumberString(v.Rat)), nil
	case n.Fun == "Number" && v.Kind == ast.String:
		var r *big.Rat
		r, exact = ecma.Number(v.Str)
		out = DecimalValue(r)
	case n.Fun == "parseInt" && v.Kind == ast.String:
		var i int64
		i, exact = ecma.ParseInt(v.Str, n.Radix10)
		out = IntValue(i)
	case n.Fun == "parseInt" && v.Kind == ast.Decimal:
		var i *big.Int
		if i, exact = ecma.ParseIntDecimal(v.Rat); exact {
			out = IntValue(i.Int64())
		}
	default:
		return Value{}, x.errorf(n, "%s of %s", n.Fun, v.Kind)
	}
	if !exact {
		return Value{}, &BoundError{Bound: vocab.BoundNumber, Limit: ecma.MaxDigits, Pos: x.pos(n),
			What: fmt.Sprintf("%s of %s is NaN or beyond the range setbot computes exactly (the number bound)", n.Fun, v)}
	}
	return out, nil
}

// evalDecimal evaluates e, which must be a decimal.
func (x *Executor) evalDecimal(e ast.Expr) (*big.Rat, error) {
	v, err := x.Eval(e)
	if err != nil {
		return nil, err
	}
	if v.Kind != ast.Decimal {
		return nil, x.errorf(e, "%s is %s, not decimal", printer.ExprString(e), v.Kind)
	}
	return v.Rat, nil
}

// decimalBinary evaluates a comparison or an arithmetic operation on
// decimals; l is the value of the left operand.
func (x *Executor) decimalBinary(n *ast.Binary, l *big.Rat) (Value, error) {
	r, err := x.evalDecimal(n.Y)
	if err != nil {
		return Value{}, err
	}
	c := l.Cmp(r)
	switch n.Op {
	case ast.LSS:
		return BoolValue(c < 0), nil
	case ast.GTR:
		return BoolValue(c > 0), nil
	case ast.LEQ:
		return BoolValue(c <= 0), nil
	case ast.GEQ:
		return BoolValue(c >= 0), nil
	}
	v := new(big.Rat)
	switch n.Op {
	case ast.ADD:
		v.Add(l, r)
	case ast.SUB:
		v.Sub(l, r)
	case ast.MUL:
		v.Mul(l, r)
	case ast.QUO:
		v = ecma.Quo(l, r)
	default:
		return Value{}, x.errorf(n, "unsupported operator %s on decimals", n.Op)
	}
	return x.exact(n, l, r, v)
}

// exact returns the result v of an operation on a and b, or an error where
// ECMAScript, computing with doubles, would round it: both operands are
// doubles and the exact result is not one.
func (x *Executor) exact(n *ast.Binary, a, b, v *big.Rat) (Value, error) {
	if ecma.IsDouble(a) && ecma.IsDouble(b) && !ecma.IsDouble(v) {
		text, _ := ecma.FormatDecimal(v)
		return Value{}, x.errorf(n, "%s is %s exactly, which no double holds: ECMAScript would round it, and setbot does not model that", printer.ExprString(n), text)
	}
	return DecimalValue(v), nil
}
