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
	w := &pureEval{s: s, tab: tab, n: n, params: params, active: active,
		exact: tab.Bool(true), at: tab.Bool(true)}
	t = w.walk(e) // before exact and err are read: walk sets them
	return t, w.exact, w.err
}

// pureEval is one walk of EvalExact over an expression.
type pureEval struct {
	s      *SET
	tab    *solver.Table
	n      *Node
	params map[string]solver.Term
	active map[string]bool
	// A condition holds only where the conversions it makes are exact:
	// elsewhere the executors cut the path (vocab.BoundNumber), and an
	// analysis claims nothing of those values.
	exact solver.Term
	// at is the condition under which the subexpression being walked is
	// evaluated at all: && and || short-circuit, ?: evaluates one branch,
	// and a conversion that is not evaluated is no cut.
	at solver.Term
	// err is the last error the walk met.
	err error
}

// under walks e under the further condition c.
func (w *pureEval) under(c solver.Term, e lang.Expr) solver.Term {
	saved := w.at
	w.at = w.tab.And(w.at, c)
	defer func() { w.at = saved }()
	return w.walk(e)
}

// walk translates e to a term, recording inexact conversions and errors.
func (w *pureEval) walk(e lang.Expr) solver.Term {
	tab := w.tab
	switch e := e.(type) {
	case *lang.IntLit:
		return tab.Int(e.Value)
	case *lang.DecLit:
		return tab.Rat(e.Value)
	case *lang.ToDecimal:
		return tab.ToReal(w.walk(e.X))
	case *lang.Floor:
		return tab.Floor(w.walk(e.X))
	case *lang.Digits:
		return tab.Digits(w.walk(e.X))
	case *lang.Convert:
		x := &executor{tab: tab, m: w.s.Machine}
		v, ok := x.convert(e, w.walk(e.X))
		w.exact = tab.And(w.exact, tab.Or(tab.Not(w.at), ok))
		return v
	case *lang.BoolLit:
		return tab.Bool(e.Value)
	case *lang.StrLit:
		return tab.Str(e.Value)
	case *lang.Method:
		args := w.walkAll(e.Args)
		x := &executor{tab: tab, m: w.s.Machine}
		return x.stringOp(e, w.walk(e.X), args)
	case *lang.Ident, *lang.EventParam, *lang.InState, *lang.EventField:
		return w.name(e)
	case *lang.Unary:
		x := &executor{tab: tab}
		return x.unary(e.Op, w.walk(e.X))
	case *lang.Cond:
		c := w.walk(e.Cond)
		then := w.under(c, e.Then)
		return tab.Ite(c, then, w.under(tab.Not(c), e.Else))
	case *lang.External:
		return tab.Apply(e.Fun, SortOf(e.Result), w.walkAll(e.Args))
	case *lang.Binary:
		a := w.walk(e.X)
		switch e.Op {
		case lang.LAND:
			return tab.And(a, w.under(a, e.Y))
		case lang.LOR:
			return tab.Or(a, w.under(tab.Not(a), e.Y))
		}
		b := w.walk(e.Y)
		x := &executor{tab: tab}
		return x.binary(e.Op, a, b)
	}
	w.err = fmt.Errorf("unexpected expression %T", e)
	return tab.Int(0)
}

// walkAll walks the expressions in order.
func (w *pureEval) walkAll(es []lang.Expr) []solver.Term {
	ts := make([]solver.Term, len(es))
	for i, a := range es {
		ts[i] = w.walk(a)
	}
	return ts
}

// name translates what a name reads: a machine variable, an event
// parameter, In('s') or a field of _event.
func (w *pureEval) name(e lang.Expr) solver.Term {
	tab := w.tab
	switch e := e.(type) {
	case *lang.Ident:
		for i, v := range w.s.Machine.Vars {
			if v.Name == e.Name {
				return w.n.Vals[i]
			}
		}
		w.err = fmt.Errorf("unknown variable %s", e.Name)
	case *lang.EventParam:
		if v, ok := w.params[e.Name]; ok {
			return v
		}
		w.err = fmt.Errorf("no event parameter %s here", e.Name)
	case *lang.InState:
		return tab.Bool(w.active[e.State])
	case *lang.EventField:
		return w.eventField(e)
	}
	return tab.Int(0)
}

// eventField translates _event.f. The event is an input: _event is bound
// when params is, and the fields that may be undefined are an input's
// (the zero model.Meta).
func (w *pureEval) eventField(e *lang.EventField) solver.Term {
	tab := w.tab
	field, tag := lang.AbsentOf(e.Field)
	switch v, has := (model.Meta{}).Field(field); {
	case e.Field == "":
		return tab.Bool(w.params != nil)
	case !lang.EventFields[field] || field == "name":
		w.err = fmt.Errorf("_event.%s cannot be evaluated here", e.Field)
	case !tag:
		return tab.Str(v)
	case has:
		return tab.Int(lang.AbsentValue)
	default:
		return tab.Int(lang.AbsentUndefined)
	}
	return tab.Int(0)
}
