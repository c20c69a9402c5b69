package sim

import (
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/model/lang/printer"
)

// method evaluates a string property or method, with the operations of
// package ecma (the solver folds with the same ones).
func (x *Executor) method(n *ast.Method) (Value, error) {
	recv, err := x.evalString(n.X)
	if err != nil {
		return Value{}, err
	}
	args := make([]Value, len(n.Args))
	for i, a := range n.Args {
		if args[i], err = x.Eval(a); err != nil {
			return Value{}, err
		}
	}
	switch n.Name {
	case "length":
		return IntValue(ecma.Length(recv)), nil
	case "indexOf":
		return IntValue(ecma.IndexOf(recv, args[0].Str)), nil
	case "lastIndexOf":
		if len(args) > 1 {
			return IntValue(ecma.LastIndexOfFrom(recv, args[0].Str, args[1].Int)), nil
		}
		return IntValue(ecma.LastIndexOf(recv, args[0].Str)), nil
	case "startsWith":
		return BoolValue(ecma.StartsWith(recv, args[0].Str)), nil
	case "endsWith":
		return BoolValue(ecma.EndsWith(recv, args[0].Str)), nil
	case "includes":
		return BoolValue(ecma.Includes(recv, args[0].Str)), nil
	case "charAt":
		return StringValue(ecma.CharAt(recv, args[0].Int)), nil
	case "substring":
		end := ecma.Length(recv)
		if len(args) > 1 {
			end = args[1].Int
		}
		return StringValue(ecma.Substring(recv, args[0].Int, end)), nil
	}
	return Value{}, x.errorf(n, "unsupported string method %s", n.Name)
}

func (x *Executor) evalString(e ast.Expr) (string, error) {
	v, err := x.Eval(e)
	if err != nil {
		return "", err
	}
	if v.Kind != ast.String {
		return "", x.errorf(e, "%s is %s, not string", printer.ExprString(e), v.Kind)
	}
	return v.Str, nil
}

// bitOp applies one of ECMAScript's 32-bit bit operators (package ecma
// says how).
func bitOp(op ast.Token, a, b int64) int64 {
	switch op {
	case ast.AND:
		return ecma.BitAnd(a, b)
	case ast.OR:
		return ecma.BitOr(a, b)
	case ast.XOR:
		return ecma.BitXor(a, b)
	case ast.SHL:
		return ecma.Shl(a, b)
	case ast.SHR:
		return ecma.Shr(a, b)
	case ast.USHR:
		return ecma.UShr(a, b)
	}
	panic("sim: not a bit operator: " + op.String())
}
