package scxml

import (
	"maps"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
)

// ECMAScript's new Date() is the host's time: setbot reads it as a black
// box, a fresh unconstrained number at each call (README, "Host calls").
// A variable that only ever holds new Date() (d = new Date(), from a
// <data> without a value) holds a Date object, whose time value ECMAScript
// reads where d is an operand of - * / % or of < > <= >= (ToPrimitive with
// the hint number, ES5.1 §15.9.6): setbot holds that number. Everywhere
// else a Date is an object (== compares identities, + joins its string,
// typeof gives "object", it is true even at time 0), which the number is
// not: such a read is refused with its position, so nothing is claimed of
// a Date that its time value would get wrong.

// dateVars makes, in all the code of m, each assignment of new Date() to
// a variable that holds nothing else the black box's number, and refuses
// the reads of such a variable (there, in its initial values and in the
// functions funcs) that are not of its time value. It gives new Date(),
// the host function, where it made its calls black boxes (inlineCalls
// takes it), else nil.
func dateVars(d *diag, m *model.Model, funcs map[string]*ast.FuncDecl, all []code) (hosts map[string]*lower.HostFunction) {
	assigned, other := dateAssigns(all)
	dates := make(map[string]bool)
	for name := range assigned {
		if v := m.Var(name); v != nil && !other[name] {
			if _, absent := v.Init.(*ast.Absent); v.Init == nil || absent {
				dates[name] = true
			}
		}
	}
	if len(dates) == 0 {
		return nil
	}
	for _, c := range all {
		dateReads(d, c.cond, dates)
		dateReads(d, c.body, dates)
	}
	for _, v := range m.Vars {
		dateReads(d, v.Init, dates)
	}
	fns := slices.Sorted(maps.Keys(funcs))
	for _, name := range fns {
		dateReads(d, funcs[name].Body, dates)
	}
	hosts = make(map[string]*lower.HostFunction)
	for name := range dates {
		for _, x := range assigned[name] {
			call := x.Value.(*ast.Call)
			x.Value = &ast.External{FunPos: call.FunPos, Fun: call.Fun, Result: ast.IntType}
			if hosts[call.Fun] == nil {
				hosts[call.Fun] = &lower.HostFunction{Pos: call.FunPos, Result: ast.IntType}
			}
		}
	}
	rewrite := func(e ast.Expr) ast.Expr { return dateValue(e, dates, hosts) }
	for _, c := range all {
		var cond ast.Expr
		if c.cond != nil {
			cond = ast.RewriteExpr(c.cond, rewrite)
		}
		c.set(cond, ast.RewriteBlock(c.body, rewrite))
	}
	for _, name := range fns {
		funcs[name].Body = ast.RewriteBlock(funcs[name].Body, rewrite)
	}
	return hosts
}

// dateGetters are the methods of a Date that give a number of its time
// (ES5.1 §15.9.5): an integer for the host's time.
var dateGetters = map[string]bool{
	"getTime": true, "getFullYear": true, "getUTCFullYear": true, "getMonth": true, "getUTCMonth": true,
	"getDate": true, "getUTCDate": true, "getDay": true, "getUTCDay": true, "getHours": true, "getUTCHours": true,
	"getMinutes": true, "getUTCMinutes": true, "getSeconds": true, "getUTCSeconds": true,
	"getMilliseconds": true, "getUTCMilliseconds": true, "getTimezoneOffset": true,
}

// dateValue rewrites e, an expression whose parts are rewritten already,
// where it reads a variable of dates as a Date: a getter (d.getFullYear())
// is a black box of the host's, an int (ECMAScript's getters give numbers,
// whatever the use), recorded in hosts; typeof d is "object", or
// "undefined" before d is first assigned.
func dateValue(e ast.Expr, dates map[string]bool, hosts map[string]*lower.HostFunction) ast.Expr {
	switch x := e.(type) {
	case *ast.Call:
		dot := strings.LastIndexByte(x.Fun, '.')
		if dot < 0 || !dates[x.Fun[:dot]] || !dateGetters[x.Fun[dot+1:]] || len(x.Args) > 0 {
			return e
		}
		if hosts[x.Fun] == nil {
			hosts[x.Fun] = &lower.HostFunction{Pos: x.FunPos, Result: ast.IntType}
		}
		return &ast.External{FunPos: x.FunPos, Fun: x.Fun, Result: ast.IntType}
	case *ast.TypeOf:
		id, ok := x.X.(*ast.Ident)
		if !ok || !dates[id.Name] {
			return e
		}
		undef := &ast.Binary{X: id, OpPos: x.OpPos, Op: ast.SEQL, Y: &ast.Absent{ValuePos: x.OpPos}}
		return &ast.Cond{Cond: undef, Question: x.OpPos, Then: &ast.StrLit{ValuePos: x.OpPos, Value: "undefined"}, Else: &ast.StrLit{ValuePos: x.OpPos, Value: "object"}}
	}
	return e
}

// dateAssigns returns the assignments of new Date() in all, by variable,
// and the variables that all writes otherwise.
func dateAssigns(all []code) (assigned map[string][]*ast.Assign, other map[string]bool) {
	assigned, other = make(map[string][]*ast.Assign), make(map[string]bool)
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Assign:
				if isNewDate(x.Value) && len(x.Path) == 0 && x.Op == ast.ASSIGN {
					assigned[x.Target.Name] = append(assigned[x.Target.Name], x)
				} else {
					other[x.Target.Name] = true
				}
			case *ast.IncDec:
				other[x.Target.Name] = true
			case *ast.ForEach:
				other[x.Item.Name] = true
				if x.Index != nil {
					other[x.Index.Name] = true
				}
			}
			return true
		})
	}
	return assigned, other
}

// isNewDate reports whether e is new Date() (without arguments: with them
// it is a date the arguments give, not the host's time).
func isNewDate(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	return ok && c.Fun == "new Date" && len(c.Args) == 0
}

// dateReads refuses each read under n of a variable of dates that is not
// an operand of a numeric operator.
func dateReads(d *diag, n ast.Node, dates map[string]bool) {
	if n == nil {
		return
	}
	numeric := make(map[*ast.Ident]bool)
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Binary:
			switch x.Op {
			case ast.SUB, ast.MUL, ast.QUO, ast.REM, ast.LSS, ast.GTR, ast.LEQ, ast.GEQ:
				for _, e := range []ast.Expr{x.X, x.Y} {
					if id, ok := e.(*ast.Ident); ok {
						numeric[id] = true
					}
				}
			}
		case *ast.Assign:
			numeric[x.Target] = true // the assignment itself, not a read
		case *ast.TypeOf:
			if id, ok := x.X.(*ast.Ident); ok {
				numeric[id] = true // "object" (dateValue)
			}
		}
		return true
	})
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && dates[id.Name] && !numeric[id] {
			d.refusef(d.file.Offset(id.NamePos), "%s holds a Date (it is assigned new Date() and nothing else), which setbot holds as its time value: "+
				"read it as an operand of - * / %% or < > <= >=, where ECMAScript reads that number too (new Date() - %s > 900); elsewhere a Date is an object "+
				"(== compares identities, + joins its text), which setbot does not model", id.Name, id.Name)
		}
		return true
	})
}
