package scxml

import (
	"maps"
	"slices"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
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

// dateVars makes each assignment of new Date() to a variable that holds
// nothing else the black box's number, and refuses the reads of such a
// variable that are not of its time value.
func (b *builder) dateVars() {
	all := b.allCode()
	assigned := make(map[string][]*ast.Assign)
	other := make(map[string]bool)
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
	dates := make(map[string]bool)
	for name := range assigned {
		if v := b.m.Var(name); v != nil && !other[name] {
			if _, absent := v.Init.(*ast.Absent); v.Init == nil || absent {
				dates[name] = true
			}
		}
	}
	if len(dates) == 0 {
		return
	}
	for _, c := range all {
		b.dateReads(c.cond, dates)
		b.dateReads(c.body, dates)
	}
	for _, v := range b.m.Vars {
		b.dateReads(v.Init, dates)
	}
	fns := slices.Sorted(maps.Keys(b.funcs))
	for _, name := range fns {
		b.dateReads(b.funcs[name].Body, dates)
	}
	for name := range dates {
		for _, x := range assigned[name] {
			call := x.Value.(*ast.Call)
			x.Value = &ast.External{FunPos: call.FunPos, Fun: call.Fun, Result: ast.IntType}
			if b.dateHosts == nil {
				b.dateHosts = map[string]*lang.HostFunction{call.Fun: {Pos: call.FunPos, Result: ast.IntType}}
			}
		}
	}
}

// isNewDate reports whether e is new Date() (without arguments: with them
// it is a date the arguments give, not the host's time).
func isNewDate(e ast.Expr) bool {
	c, ok := e.(*ast.Call)
	return ok && c.Fun == "new Date" && len(c.Args) == 0
}

// dateReads refuses each read under n of a variable of dates that is not
// an operand of a numeric operator.
func (b *builder) dateReads(n ast.Node, dates map[string]bool) {
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
		}
		return true
	})
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && dates[id.Name] && !numeric[id] {
			b.refusef(b.file.Offset(id.NamePos), "%s holds a Date (it is assigned new Date() and nothing else), which setbot holds as its time value: "+
				"read it as an operand of - * / %% or < > <= >=, where ECMAScript reads that number too (new Date() - %s > 900); elsewhere a Date is an object "+
				"(== compares identities, + joins its text), which setbot does not model", id.Name, id.Name)
		}
		return true
	})
}
