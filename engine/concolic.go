package engine

import (
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// Where the solver cannot decide a branch (non-linear arithmetic it
// answers "unknown", a timeout), the executor falls back on concolic
// execution, as Ahmadi and Dingel do for state machine models ("Concolic
// Testing for Models of State-Based Systems", ESEC/FSE 2019): it takes
// concrete values for the branch's variables from a model of the path so
// far, follows the branch those values take, and, to reach the other one,
// asks for other values (the previous ones negated) and tries again. A
// path that goes on this way is pinned to the values it took: its step is
// concretised. The tree then only shows that the states it reaches are
// reachable; a state it does not reach is "not reached", never
// "unreachable". The bound vocab.BoundConcretised says so for the whole
// tree (its count is the concretised branches).

// concolicTries is how many different models the fallback asks for, to
// reach both sides of a branch.
const concolicTries = 4

// undecided reports whether the solver left pc ∧ c or pc ∧ ¬c unknown
// (as oracle.sat asked it).
func (o *oracle) undecided(pc []solver.Term, c solver.Term) bool {
	rel := o.Slice(pc, o.tab.Vars(c))
	for _, x := range []solver.Term{c, o.tab.Not(c)} {
		if r, ok := o.cache.lookup(append(append([]solver.Term(nil), rel...), x)); ok && r == solver.Unknown {
			return true
		}
	}
	return false
}

// concolic decides the branch on c concretely: it returns the runs for
// each side that some concrete values of c's variables take, each pinned
// to those values (the caller records the decision); ok is false when no
// model of the path could be found (the branch then stays undecided).
func (x *executor) concolic(r *run, c solver.Term) (t, f *run, ok bool) {
	vars := x.tab.Vars(c)
	base := x.or.Slice(r.pc, vars)
	// The values of a model depend on the checks its solver made before,
	// which differ on a worker (parallel.go): the models come from a solver
	// of their own, so that the pinned values do not depend on --jobs.
	slv, err := x.or.core.modelSolver()
	if err != nil {
		x.fail("%v", err)
		return nil, nil, false
	}
	if slv != x.or.core.slv {
		defer slv.Close()
	}
	var exclude []solver.Term
	for range concolicTries {
		res, model, err := slv.Model(append(append([]solver.Term(nil), base...), exclude...), vars)
		x.or.calls++
		if err != nil || res != solver.Sat {
			break
		}
		val := func(v solver.Term) (solver.Value, bool) { m, ok := model[v]; return m, ok }
		b, good := x.tab.Eval(c, val)
		if !good {
			break
		}
		pin := x.tab.Bool(true)
		for _, v := range vars {
			pin = x.tab.And(pin, x.tab.Eq(v, valueTerm(x.tab, model[v])))
		}
		exclude = append(exclude, x.tab.Not(pin))
		x.tab.Concretise(pin)
		switch {
		case b.Bool && t == nil:
			t = r.clone()
			t.pc = append(t.pc, pin) // which implies c, without its arithmetic
		case !b.Bool && f == nil:
			f = r.clone()
			f.pc = append(f.pc, pin)
		}
		if t != nil && f != nil {
			break
		}
	}
	if t == nil && f == nil {
		return nil, nil, false
	}
	x.bounds[vocab.BoundConcretised]++
	return t, f, true
}

// Concretised reports whether the path to n took a branch with concrete
// values (its path condition holds a pin).
func Concretised(set *SET, n *Node) bool {
	for _, c := range n.PC {
		if set.Terms.Concretised(c) {
			return true
		}
	}
	return false
}

// valueTerm is the constant term of a model's value.
func valueTerm(tab *solver.Table, v solver.Value) solver.Term {
	switch v.Sort {
	case solver.BoolSort:
		return tab.Bool(v.Bool)
	case solver.StringSort:
		return tab.Str(v.Str)
	case solver.RealSort:
		return tab.Rat(v.Rat)
	}
	return tab.Int(v.Int)
}

// pinStart makes one start of the machine out of starts, the ways its
// start may end: before any input the only unknowns are the results of
// black boxes (new Date(), a host's getter in a <data> value or a
// condition), and the tree has one root. As the concolic fallback does
// for a branch, it takes concrete values for the first start's black
// boxes from a model of its path and pins the start to them; the other
// starts are not explored, so that what the tree does not reach is "not
// reached", never "unreachable" (vocab.BoundConcretised, counted once).
// The start it follows is the one that enters the most states (the
// longest way, which shows the most of the machine; the first of those).
// It returns nil where no model of the path could be found.
func (x *executor) pinStart(starts []*run) *run {
	entered := func(r *run) int {
		n := 0
		for _, f := range r.fired {
			n += len(f.T.Entered)
		}
		return n
	}
	r := starts[0]
	for _, s := range starts[1:] {
		if entered(s) > entered(r) {
			r = s
		}
	}
	var vars []solver.Term
	seen := make(map[solver.Term]bool)
	for _, c := range r.pc {
		for _, v := range x.tab.Vars(c) {
			if !seen[v] {
				seen[v] = true
				vars = append(vars, v)
			}
		}
	}
	if len(vars) == 0 {
		return nil // the starts differ in nothing a model can pin
	}
	slv, err := x.or.core.modelSolver()
	if err != nil {
		x.fail("%v", err)
		return nil
	}
	if slv != x.or.core.slv {
		defer slv.Close()
	}
	res, model, err := slv.Model(r.pc, vars)
	x.or.calls++
	if err != nil || res != solver.Sat {
		return nil
	}
	pin := x.tab.Bool(true)
	for _, v := range vars {
		pin = x.tab.And(pin, x.tab.Eq(v, valueTerm(x.tab, model[v])))
	}
	x.tab.Concretise(pin)
	r.pc = append(r.pc, pin)
	x.bounds[vocab.BoundConcretised]++
	return r
}
