package engine

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// Black-box functions (model.Function) are executed through their
// summaries (Boudhiba, Gaston, Le Gall and Prevosto, "Symbolic execution of
// transition systems with function summaries", TAP 2017, §3): a call is a
// variable named by the call (solver.Table.Apply), and where the function
// has a table the path condition gains the call's summary, the disjunction
// of the table's rows: the arguments equal a row's inputs and the result
// its output. A path that no row fits is infeasible "up to the table";
// GrowTables adds rows where the function's command can compute them.
// Without a table a call is an unconstrained value (an over-approximation).

// external evaluates a call of a black-box function on r, forking where
// its arguments do.
func (x *executor) external(r *run, e *ast.External) []valued {
	type partial struct {
		r    *run
		args []solver.Term
	}
	ps := []partial{{r: r}}
	for _, a := range e.Args {
		var next []partial
		for _, p := range ps {
			for _, v := range x.eval(p.r, a) {
				next = append(next, partial{v.r, append(append([]solver.Term(nil), p.args...), v.v)})
			}
		}
		ps = next
	}
	var out []valued
	for _, p := range ps {
		f := x.function(e.Fun)
		v := x.tab.Apply(e.Fun, SortOf(e.Result), x.hostCall(p.r, f, e, p.args))
		if f != nil && f.Summarised() {
			x.summarised(f)
			if p.r = x.require(p.r, Summary(x.tab, f, p.args, v)); p.r == nil {
				continue
			}
		}
		out = append(out, valued{p.r, v})
	}
	return out
}

// externalTerm is external without forking, for term (pure.go), on the
// arguments' values (pure evaluates them, where a conversion in them is
// not exact adding to the conditions that leave those values out of the
// path): the summary goes into r's path condition unchecked (the next
// check decides it).
func (x *executor) externalTerm(r *run, e *ast.External, args []solver.Term) solver.Term {
	f := x.function(e.Fun)
	v := x.tab.Apply(e.Fun, SortOf(e.Result), x.hostCall(r, f, e, args))
	if f != nil && f.Summarised() {
		x.summarised(f)
		r.pc = append(r.pc, Summary(x.tab, f, args, v))
	}
	return v
}

// hostCall returns the arguments that name the call e of f on r: for a
// host function (model.Function.Host), whose every call is a fresh
// unknown, the step (the events r has processed) and the call's place, so
// that calls in different steps or places are different values while the
// evaluations of one call in one step agree.
func (x *executor) hostCall(r *run, f *model.Function, e *ast.External, args []solver.Term) []solver.Term {
	if f == nil || !f.Host {
		return args
	}
	return append(append([]solver.Term(nil), args...), x.tab.Int(int64(len(r.trace))), x.tab.Int(int64(e.FunPos)))
}

// summarised records that a call was read through f's table: the tree is
// then what the tables allow, and its claims hold up to them, which the
// bound vocab.BoundTable says (its count is the calls so read, its limit
// the largest table's rows).
func (x *executor) summarised(f *model.Function) {
	x.bounds[vocab.BoundTable]++
	x.limits[vocab.BoundTable] = max(x.limits[vocab.BoundTable], int64(len(f.Rows)))
}

func (x *executor) function(name string) *model.Function {
	if x.m == nil || x.m.Source == nil {
		return nil
	}
	return x.m.Source.Function(name)
}

// Summary returns the summary of the call of f with the arguments args
// and the result v: the disjunction of f's rows (false for an empty table).
func Summary(tab *solver.Table, f *model.Function, args []solver.Term, v solver.Term) solver.Term {
	sum := tab.Bool(false)
	for _, row := range f.Rows {
		c := tab.Eq(v, LiteralTerm(tab, row.Out))
		for i, in := range row.In {
			c = tab.And(tab.Eq(args[i], LiteralTerm(tab, in)), c)
		}
		sum = tab.Or(sum, c)
	}
	return sum
}

// LiteralTerm returns the constant term of a literal of a table.
func LiteralTerm(tab *solver.Table, e ast.Expr) solver.Term {
	switch e := e.(type) {
	case *ast.IntLit:
		return tab.Int(e.Value)
	case *ast.DecLit:
		return tab.Rat(e.Value)
	case *ast.BoolLit:
		return tab.Bool(e.Value)
	case *ast.StrLit:
		return tab.Str(e.Value)
	}
	panic("engine: a table holds literals")
}
