package lower

import (
	"fmt"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/parser"
)

// A call of a host function whose value an expression uses
// (GetTotal(hand) >= 21, JSON.stringify(x) === '{}', isReady() as a
// guard) is a black box of unknown result: the call becomes an External
// of a function with no table, which the symbolic executor reads as an
// unconstrained value, as it reads a setbot:function without a table. Its
// result's type is the one its use needs: compared with a string
// literal, a string; with a number literal or an operand of -, *, / or
// %, a number (an int); as a condition or an operand of !, && or || (unless
// the use needs another type), a boolean. The arguments are dropped: the
// host's answer is not known, whatever they are. A use that fixes no
// type is left to the checker, which refuses the call with its position.

// hostValues replaces, in e, the calls of host functions whose type the
// use gives; want is the type e's use needs (the zero Type: unknown).
func (in *Inliner) hostValues(e ast.Expr, want ast.Type) ast.Expr {
	switch x := e.(type) {
	case *ast.Call:
		if t, ok := fixedResults[x.Fun]; ok && in.isHost(x.Fun) {
			return in.host(x, t)
		}
		if want.Kind == ast.Invalid || !in.isHost(x.Fun) {
			return e
		}
		return in.host(x, want)
	case *ast.Unary:
		if x.Op == ast.NOT {
			return &ast.Unary{OpPos: x.OpPos, Op: x.Op, X: in.hostValues(x.X, ast.BoolType)}
		}
	case *ast.Binary:
		return in.hostBinary(x, want)
	case *ast.Cond:
		return &ast.Cond{Cond: in.hostValues(x.Cond, ast.BoolType), Question: x.Question, Then: in.hostValues(x.Then, want), Else: in.hostValues(x.Else, want)}
	}
	return e
}

// fixedResults are the host functions whose result's type ECMAScript
// fixes, whatever the use: Date.now() is the time value, a number
// (ES5.1 §15.9.4.4), an integer for the host's time.
var fixedResults = map[string]ast.Type{"Date.now": ast.IntType}

func (in *Inliner) hostBinary(x *ast.Binary, want ast.Type) ast.Expr {
	var wx, wy ast.Type
	switch x.Op {
	case ast.LAND, ast.LOR:
		wx, wy = ast.BoolType, ast.BoolType
		if want.Kind != ast.Bool && want.Kind != ast.Invalid { // a && b of another type's values
			return x
		}
	case ast.EQL, ast.NEQ, ast.SEQL, ast.SNEQ, ast.LSS, ast.GTR, ast.LEQ, ast.GEQ:
		wx, wy = literalType(x.Y), literalType(x.X)
	case ast.SUB, ast.MUL, ast.QUO, ast.REM: // ECMAScript's numeric operators
		wx, wy = ast.IntType, ast.IntType
	default:
		return x
	}
	return &ast.Binary{X: in.hostValues(x.X, wx), OpPos: x.OpPos, Op: x.Op, Y: in.hostValues(x.Y, wy)}
}

// literalType is the type of the literal e, or of the number that a
// numeric operator computes, or the zero Type.
func literalType(e ast.Expr) ast.Type {
	if b, ok := e.(*ast.Binary); ok && (b.Op == ast.SUB || b.Op == ast.MUL || b.Op == ast.QUO || b.Op == ast.REM) {
		return ast.IntType
	}
	if k := ast.LiteralKind(e); k != ast.Invalid {
		return ast.Type{Kind: k}
	}
	return ast.Type{}
}

// isHost reports whether fun names a function that is the host's: one the
// model neither declares nor names with setbot:function, and no built-in.
func (in *Inliner) isHost(fun string) bool {
	return in.Funcs[fun] == nil && in.Externals[fun] == nil && parser.IsHostFunction(fun)
}

// host makes the call x of a host function an External of result type t,
// and records the function in Hosts; a function whose uses need two types
// is reported.
func (in *Inliner) host(x *ast.Call, t ast.Type) ast.Expr {
	if in.Hosts == nil {
		in.Hosts = make(map[string]*HostFunction)
	}
	h := in.Hosts[x.Fun]
	switch {
	case h == nil:
		in.Hosts[x.Fun] = &HostFunction{Pos: x.FunPos, Result: t}
	case h.Result.Kind != t.Kind:
		in.errorf(x.FunPos, "%s", TwoTypesMsg(x.Fun, t, h.Result, in.Fset.Position(h.Pos)))
	}
	return &ast.External{FunPos: x.FunPos, Fun: x.Fun, Result: t}
}

// TwoTypesMsg is the refusal of a call of the host function fun used as a
// value of type t where an earlier call, at first, is used as one of type
// was.
func TwoTypesMsg(fun string, t, was ast.Type, first source.Position) string {
	return fmt.Sprintf("host function %s used as %s here and as %s at %s: declare it with setbot:function and its result type", fun, ast.Article(t.Kind), ast.Article(was.Kind), first)
}

// A HostFunction is a function of the host that the model calls for its
// value: where it is first called and the type of its result.
type HostFunction struct {
	Pos    source.Pos
	Result ast.Type
}
