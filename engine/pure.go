package engine

import (
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/solver"
)

// The executor evaluates an expression in one of two modes. eval (exec.go)
// forks a run where &&, || and ?: branch on a symbolic value, and cuts the
// paths where a conversion is not exact. pure, here, evaluates a pure
// expression to one term, without forking (&& and || become terms, ?: an
// if-then-else), and hands each conversion's exactness, under the
// condition at which the conversion is evaluated at all, to its reader.
// Its two readers differ in nothing but what a pureEnv supplies:
//
//   - the executor's condition that no transition fires (term): names
//     read on a run, a call read through its function's summary, and the
//     condition true where a conversion is not exact (firing the
//     transition cuts the path there, so staying must too);
//   - the analyses' evaluation on a node of the tree (SET.EvalExact):
//     names read on the node, a call left uninterpreted (the tree's path
//     conditions hold what the summaries say), and the exactness returned
//     apart, so that an analysis tells a value it claims nothing of from a
//     false one.

// pureEnv is what one reader of pure supplies.
type pureEnv interface {
	// name reads a name (a variable, an event parameter, a field of
	// _event, In()) or any other leaf pure does not evaluate itself.
	name(e ast.Expr) solver.Term
	// call is the value of the black-box call e on args.
	call(e *ast.External, args []solver.Term) solver.Term
	// converted is told a conversion evaluated where at holds is exact
	// where exact holds.
	converted(at, exact solver.Term)
}

// pure evaluates e to one term where at holds (see above).
func (x *executor) pure(e ast.Expr, at solver.Term, env pureEnv) solver.Term {
	tab := x.tab
	switch e := e.(type) {
	case *ast.IntLit, *ast.DecLit, *ast.BoolLit, *ast.StrLit:
		return LiteralTerm(tab, e)
	case *ast.Binary:
		a := x.pure(e.X, at, env)
		switch e.Op {
		case ast.LAND:
			return tab.And(a, x.pure(e.Y, tab.And(at, a), env))
		case ast.LOR:
			return tab.Or(a, x.pure(e.Y, tab.And(at, tab.Not(a)), env))
		}
		return x.binary(e.Op, a, x.pure(e.Y, at, env))
	case *ast.Unary:
		return x.unary(e.Op, x.pure(e.X, at, env))
	case *ast.Cond:
		c := x.pure(e.Cond, at, env)
		return tab.Ite(c, x.pure(e.Then, tab.And(at, c), env), x.pure(e.Else, tab.And(at, tab.Not(c)), env))
	case *ast.External:
		return env.call(e, x.pureAll(e.Args, at, env))
	case *ast.Convert:
		v, exact := x.convert(e, x.pure(e.X, at, env))
		env.converted(at, exact)
		return v
	case *ast.Floor:
		return tab.Floor(x.pure(e.X, at, env))
	case *ast.Digits:
		return tab.Digits(x.pure(e.X, at, env))
	case *ast.ToDecimal:
		return tab.ToReal(x.pure(e.X, at, env))
	case *ast.Method:
		args := x.pureAll(e.Args, at, env)
		return x.stringOp(e, x.pure(e.X, at, env), args)
	}
	return env.name(e)
}

// pureAll evaluates the expressions in order.
func (x *executor) pureAll(es []ast.Expr, at solver.Term, env pureEnv) []solver.Term {
	ts := make([]solver.Term, len(es))
	for i, a := range es {
		ts[i] = x.pure(a, at, env)
	}
	return ts
}

// term evaluates a pure expression on r to one term, without forking:
// used for the condition that no transition fires. A condition is also
// true where a conversion it evaluates is not exact: there firing the
// transition cuts the path (eval), so the path where no transition fires
// must leave those values out too.
func (x *executor) term(r *run, e ast.Expr) solver.Term {
	env := &runEnv{x: x, r: r}
	v := x.pure(e, x.tab.Bool(true), env)
	if x.tab.Sort(v) == solver.BoolSort {
		for _, c := range env.cuts {
			v = x.tab.Or(v, c)
		}
	}
	return v
}

// runEnv is term's pureEnv: names read on the run r, calls through their
// summaries, and the conditions under which a conversion is not exact
// kept in cuts.
type runEnv struct {
	x    *executor
	r    *run
	cuts []solver.Term
}

func (env *runEnv) name(e ast.Expr) solver.Term { return env.x.eval(env.r, e)[0].v }

func (env *runEnv) converted(at, exact solver.Term) {
	env.cuts = append(env.cuts, env.x.tab.And(at, env.x.tab.Not(exact)))
}

func (env *runEnv) call(e *ast.External, args []solver.Term) solver.Term {
	return env.x.externalTerm(env.r, e, args)
}
