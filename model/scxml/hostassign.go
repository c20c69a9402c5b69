package scxml

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/parser"
)

// hostAssigned reads each call of a host function that is the whole value
// of an assignment, x = f(...), where the call's use gives no type
// (lower.HostFunction), as a black box of the type the model's other
// assignments give x (inferVarTypes): a fresh unknown value of x's kind at
// each call, as any host call whose use types it, with a warning that
// names the assumption. It runs with the inference, to a fixpoint, and
// rewrites the statements as read too, which the guards of reads past the
// end lower again. It reports whether it read any.
func (ck *checker) hostAssigned(all []code, vars map[string]ast.Type) bool {
	read := false
	visit := func(n ast.Node) bool {
		a, ok := n.(*ast.Assign)
		if !ok || a.Op != ast.ASSIGN || len(a.Path) > 0 {
			return true
		}
		call, ok := a.Value.(*ast.Call)
		if !ok || !parser.IsHostFunction(call.Fun) {
			return true
		}
		if v := ck.hostResult(call, a.Target.Name, vars[a.Target.Name]); v != nil {
			a.Value, read = v, true
		}
		return true
	}
	for _, c := range all {
		ast.Inspect(c.body, visit)
		for _, s := range ck.pe.source[c.body] {
			ast.Inspect(s, visit)
		}
	}
	return read
}

// hostResult returns the call of a host function assigned to the variable
// name, of type t, as a black box of t's kind (ast.External), and adds the
// function to the model; nil where t is not an int, a decimal, a bool or a
// string, which leaves the call to the checker to refuse.
func (ck *checker) hostResult(call *ast.Call, name string, t ast.Type) ast.Expr {
	switch t.Kind {
	case ast.Int, ast.Decimal, ast.Bool, ast.String:
	default:
		return nil
	}
	res := ast.Type{Kind: t.Kind}
	switch f := ck.m.Function(call.Fun); {
	case f == nil:
		ck.m.Functions = append(ck.m.Functions, &model.Function{Name: call.Fun, Pos: call.FunPos, Result: res, Host: true})
	case f.Result.Kind != res.Kind:
		ck.errorf(ck.file.Offset(call.FunPos), "%s", lower.TwoTypesMsg(call.Fun, res, f.Result, ck.fset.Position(f.Pos)))
		return nil
	}
	ck.warnf(ck.file.Offset(call.FunPos), "call of %s, a function the model does not define (its host's), assigned to %s: setbot reads it as a black box whose result is %s, the type of %s's other values; "+
		"if %s returns another type, declare it: <setbot:function name=%q returns=\"...\"/>", call.Fun, name, ast.Article(res.Kind), name, call.Fun, call.Fun)
	return &ast.External{FunPos: call.FunPos, Fun: call.Fun, Result: res}
}
