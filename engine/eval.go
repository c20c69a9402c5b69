package engine

import (
	"fmt"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/solver"
)

// Eval evaluates a pure expression on n's valuation, to one term (&& and
// || become terms rather than forks). Event parameters come from params,
// In('s') from active; a name that is neither a machine variable nor
// provided is an error. A bool is false where a conversion it makes is
// not exact. The event, when params is not nil, is an input:
// _event's fields that may be undefined are an input's.
func (s *SET) Eval(n *Node, e ast.Expr, params map[string]solver.Term, active map[string]bool) (solver.Term, error) {
	t, exact, err := s.EvalExact(n, e, params, active)
	if s.Terms.Sort(t) == solver.BoolSort {
		t = s.Terms.And(t, exact)
	}
	return t, err
}

// EvalExact is Eval with the condition under which the conversions the
// expression makes are exact (true when it makes none) apart: a bool is
// not conjoined with it, so that an analysis can tell a value it claims
// nothing of (a NaN, in ECMAScript) from a false one. It is the
// executor's one-term evaluation (pure.go) on a node of the tree.
func (s *SET) EvalExact(n *Node, e ast.Expr, params map[string]solver.Term, active map[string]bool) (t, exact solver.Term, err error) {
	tab := s.Terms
	env := &nodeEnv{s: s, tab: tab, n: n, params: params, active: active, exact: tab.Bool(true)}
	x := &executor{tab: tab, m: s.Machine}
	t = x.pure(e, tab.Bool(true), env) // before exact and err are read: pure sets them
	return t, env.exact, env.err
}

// nodeEnv is EvalExact's pureEnv: names read on the node n, calls
// uninterpreted, and the exactness of conversions conjoined in exact.
type nodeEnv struct {
	s      *SET
	tab    *solver.Table
	n      *Node
	params map[string]solver.Term
	active map[string]bool
	// A condition holds only where the conversions it makes are exact:
	// elsewhere the executors cut the path (vocab.BoundNumber), and an
	// analysis claims nothing of those values.
	exact solver.Term
	// err is the last error the walk met.
	err error
}

// converted conjoins to exact that the conversion is exact where it is
// evaluated: one not evaluated (behind && or ||, in the other branch of
// ?:) is no cut.
func (env *nodeEnv) converted(at, ok solver.Term) {
	env.exact = env.tab.And(env.exact, env.tab.Or(env.tab.Not(at), ok))
}

// call is the uninterpreted value of the call.
func (env *nodeEnv) call(e *ast.External, args []solver.Term) solver.Term {
	return env.tab.Apply(e.Fun, SortOf(e.Result), args)
}

// name translates what a name reads: a machine variable, an event
// parameter, In('s') or a field of _event.
func (env *nodeEnv) name(e ast.Expr) solver.Term {
	tab := env.tab
	switch e := e.(type) {
	case *ast.Ident:
		for i, v := range env.s.Machine.Vars {
			if v.Name == e.Name {
				return env.n.Vals[i]
			}
		}
		env.err = fmt.Errorf("unknown variable %s", e.Name)
	case *ast.EventParam:
		if v, ok := env.params[e.Name]; ok {
			return v
		}
		env.err = fmt.Errorf("no event parameter %s here", e.Name)
	case *ast.InState:
		return tab.Bool(env.active[e.State])
	case *ast.EventField:
		return env.eventField(e)
	default:
		env.err = fmt.Errorf("unexpected expression %T", e)
	}
	return tab.Int(0)
}

// eventField translates _event.f. The event is an input: _event is bound
// when params is, and the fields that may be undefined are an input's
// (the zero model.Meta).
func (env *nodeEnv) eventField(e *ast.EventField) solver.Term {
	tab := env.tab
	field, tag := lower.AbsentOf(e.Field)
	switch v, has := (model.Meta{}).Field(field); {
	case e.Field == "":
		return tab.Bool(env.params != nil)
	case !ast.EventFields[field] || field == "name":
		env.err = fmt.Errorf("_event.%s cannot be evaluated here", e.Field)
	case !tag:
		return tab.Str(v)
	case has:
		return tab.Int(ast.AbsentValue)
	default:
		return tab.Int(ast.AbsentUndefined)
	}
	return tab.Int(0)
}
