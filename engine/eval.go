package engine

import (
	"fmt"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/solver"
)

// Eval evaluates a pure expression on n's valuation, to one term (&& and
// || become terms rather than forks). Event parameters come from params,
// In('s') from active; a name that is neither a machine variable nor
// provided is an error. A bool is false where a conversion it makes is
// not exact. The event, when params is not nil, is an input:
// _event's fields that may be undefined are an input's.
func (s *SET) Eval(n *Node, e lang.Expr, params map[string]solver.Term, active map[string]bool) (solver.Term, error) {
	t, exact, err := s.EvalExact(n, e, params, active)
	if s.Terms.Sort(t) == solver.BoolSort {
		t = s.Terms.And(t, exact)
	}
	return t, err
}

// EvalExact is Eval with the condition under which the conversions the
// expression makes are exact (true when it makes none) apart: a bool is
// not conjoined with it, so that an analysis can tell a value it claims
// nothing of (a NaN, in ECMAScript) from a false one.
func (s *SET) EvalExact(n *Node, e lang.Expr, params map[string]solver.Term, active map[string]bool) (t, exact solver.Term, err error) {
	tab := s.Terms
	// A condition holds only where the conversions it makes are exact:
	// elsewhere the executors cut the path (vocab.BoundNumber), and an
	// analysis claims nothing of those values.
	exact = tab.Bool(true)
	// at is the condition under which the subexpression being walked is
	// evaluated at all: && and || short-circuit, ?: evaluates one branch,
	// and a conversion that is not evaluated is no cut.
	at := tab.Bool(true)
	under := func(c solver.Term, f func() solver.Term) solver.Term {
		saved := at
		at = tab.And(at, c)
		defer func() { at = saved }()
		return f()
	}
	var walk func(e lang.Expr) solver.Term
	walk = func(e lang.Expr) solver.Term {
		switch e := e.(type) {
		case *lang.IntLit:
			return tab.Int(e.Value)
		case *lang.DecLit:
			return tab.Rat(e.Value)
		case *lang.ToDecimal:
			return tab.ToReal(walk(e.X))
		case *lang.Floor:
			return tab.Floor(walk(e.X))
		case *lang.Digits:
			return tab.Digits(walk(e.X))
		case *lang.Convert:
			x := &executor{tab: tab, m: s.Machine}
			v, ok := x.convert(e, walk(e.X))
			exact = tab.And(exact, tab.Or(tab.Not(at), ok))
			return v
		case *lang.BoolLit:
			return tab.Bool(e.Value)
		case *lang.StrLit:
			return tab.Str(e.Value)
		case *lang.Method:
			args := make([]solver.Term, len(e.Args))
			for i, a := range e.Args {
				args[i] = walk(a)
			}
			x := &executor{tab: tab, m: s.Machine}
			return x.stringOp(e, walk(e.X), args)
		case *lang.Ident:
			for i, v := range s.Machine.Vars {
				if v.Name == e.Name {
					return n.Vals[i]
				}
			}
			err = fmt.Errorf("unknown variable %s", e.Name)
		case *lang.EventParam:
			if v, ok := params[e.Name]; ok {
				return v
			}
			err = fmt.Errorf("no event parameter %s here", e.Name)
		case *lang.InState:
			return tab.Bool(active[e.State])
		case *lang.EventField:
			// The event is an input: _event is bound when params is, and
			// the fields that may be undefined are an input's (the zero
			// model.Meta).
			field, tag := lang.AbsentOf(e.Field)
			switch v, has := (model.Meta{}).Field(field); {
			case e.Field == "":
				return tab.Bool(params != nil)
			case !lang.EventFields[field] || field == "name":
				err = fmt.Errorf("_event.%s cannot be evaluated here", e.Field)
			case !tag:
				return tab.Str(v)
			case has:
				return tab.Int(lang.AbsentValue)
			default:
				return tab.Int(lang.AbsentUndefined)
			}
		case *lang.Unary:
			x := &executor{tab: tab}
			return x.unary(e.Op, walk(e.X))
		case *lang.Cond:
			c := walk(e.Cond)
			then := under(c, func() solver.Term { return walk(e.Then) })
			return tab.Ite(c, then, under(tab.Not(c), func() solver.Term { return walk(e.Else) }))
		case *lang.External:
			args := make([]solver.Term, len(e.Args))
			for i, a := range e.Args {
				args[i] = walk(a)
			}
			return tab.Apply(e.Fun, SortOf(e.Result), args)
		case *lang.Binary:
			a := walk(e.X)
			switch e.Op {
			case lang.LAND:
				return tab.And(a, under(a, func() solver.Term { return walk(e.Y) }))
			case lang.LOR:
				return tab.Or(a, under(tab.Not(a), func() solver.Term { return walk(e.Y) }))
			}
			b := walk(e.Y)
			x := &executor{tab: tab}
			return x.binary(e.Op, a, b)
		default:
			err = fmt.Errorf("unexpected expression %T", e)
		}
		return tab.Int(0)
	}
	t = walk(e) // before exact and err are read: walk sets them
	return t, exact, err
}
