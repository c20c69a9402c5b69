package lang

import (
	"strings"

	"github.com/setbot/setbot/model/source"
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
func (in *Inliner) hostValues(e Expr, want Type) Expr {
	switch x := e.(type) {
	case *Call:
		if want.Kind == Invalid || !in.isHost(x.Fun) {
			return e
		}
		return in.host(x, want)
	case *Unary:
		if x.Op == NOT {
			return &Unary{OpPos: x.OpPos, Op: x.Op, X: in.hostValues(x.X, BoolType)}
		}
	case *Binary:
		return in.hostBinary(x, want)
	case *Cond:
		return &Cond{Cond: in.hostValues(x.Cond, BoolType), Question: x.Question, Then: in.hostValues(x.Then, want), Else: in.hostValues(x.Else, want)}
	}
	return e
}

func (in *Inliner) hostBinary(x *Binary, want Type) Expr {
	var wx, wy Type
	switch x.Op {
	case LAND, LOR:
		wx, wy = BoolType, BoolType
		if want.Kind != Bool && want.Kind != Invalid { // a && b of another type's values
			return x
		}
	case EQL, NEQ, SEQL, SNEQ, LSS, GTR, LEQ, GEQ:
		wx, wy = literalType(x.Y), literalType(x.X)
	case SUB, MUL, QUO, REM: // ECMAScript's numeric operators
		wx, wy = IntType, IntType
	default:
		return x
	}
	return &Binary{X: in.hostValues(x.X, wx), OpPos: x.OpPos, Op: x.Op, Y: in.hostValues(x.Y, wy)}
}

// literalType is the type of the literal e, or of the number that a
// numeric operator computes, or the zero Type.
func literalType(e Expr) Type {
	switch e := e.(type) {
	case *Binary:
		if e.Op == SUB || e.Op == MUL || e.Op == QUO || e.Op == REM {
			return IntType
		}
	case *IntLit:
		return IntType
	case *DecLit:
		return DecimalType
	case *StrLit:
		return StringType
	case *BoolLit:
		return BoolType
	}
	return Type{}
}

// isHost reports whether fun names a function that is the host's: one the
// model neither declares nor names with setbot:function, and no built-in.
func (in *Inliner) isHost(fun string) bool {
	return in.Funcs[fun] == nil && in.Externals[fun] == nil && hostFunction(fun)
}

// hostFunction reports whether fun may name a host function: no built-in,
// no method setbot knows of ECMAScript's own objects, and not console's or
// SCXML's (statements of their own).
func hostFunction(fun string) bool {
	if builtinNames[fun] || IsKeyword(fun) || fun == "In" {
		return false
	}
	obj := hostObject(fun)
	method := fun[strings.LastIndexByte(fun, '.')+1:]
	return obj != "Math" && !hostObjects[obj] && method != "" && (obj == "" || !builtinMethods[method] && !growingMethods[method] && stringAlternatives[method] == "")
}

// hostMsg is the refusal of a call of the host function fun whose use
// gives no type.
func hostMsg(fun string) string {
	if fun == "new Date" {
		return "new Date() is a black box of the host's (the time), read as a number where its use gives that type " +
			"(new Date() - t > 900, compared with a number literal), and here it does not: use it in such a comparison"
	}
	return "call of " + fun + ", a function the model does not define (its host's): setbot reads such a call as a black box of unknown result " +
		"where its use gives the type (compared with a literal, in a condition, in arithmetic), and here it does not; " +
		"declare it, <setbot:function name=\"" + fun + "\" returns=\"int\"/> (or bool, decimal, string), or compare its result with a literal"
}

// host makes the call x of a host function an External of result type t,
// and records the function in Hosts; a function whose uses need two types
// is reported.
func (in *Inliner) host(x *Call, t Type) Expr {
	if in.Hosts == nil {
		in.Hosts = make(map[string]*HostFunction)
	}
	h := in.Hosts[x.Fun]
	switch {
	case h == nil:
		in.Hosts[x.Fun] = &HostFunction{Pos: x.FunPos, Result: t}
	case h.Result.Kind != t.Kind:
		in.errorf(x.FunPos, "host function %s used as %s here and as %s at %s: declare it with setbot:function and its result type", x.Fun, article(t.Kind), article(h.Result.Kind), in.Fset.Position(h.Pos))
	}
	return &External{FunPos: x.FunPos, Fun: x.Fun, Result: t}
}

// A HostFunction is a function of the host that the model calls for its
// value: where it is first called and the type of its result.
type HostFunction struct {
	Pos    source.Pos
	Result Type
}

// hostPath returns the dotted name of x, a variable or a chain of fields
// of one (blackjack, app.ui), whose method a call names: a host object's.
func hostPath(x Expr) (string, bool) {
	switch x := x.(type) {
	case *Ident:
		return x.Name, true
	case *Member:
		s, ok := hostPath(x.X)
		return s + "." + x.Name, ok
	}
	return "", false
}

// builtinMethods are methods of ECMAScript's arrays, strings, numbers and
// objects that setbot does not model: a call of one is refused, not read
// as a host's.
var builtinMethods = map[string]bool{
	"join": true, "slice": true, "splice": true, "map": true, "filter": true, "reduce": true, "forEach": true,
	"some": true, "every": true, "find": true, "findIndex": true, "sort": true, "reverse": true, "push": true,
	"pop": true, "shift": true, "unshift": true, "lastIndexOf": true, "split": true, "replace": true,
	"toUpperCase": true, "toLowerCase": true, "trim": true, "toString": true, "toFixed": true, "valueOf": true,
	"hasOwnProperty": true, "padStart": true, "padEnd": true, "repeat": true, "match": true, "search": true,
}
