package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
)

// noSolver fails the test on any check: what it is given must be decided
// without the solver.
type noSolver struct{ t *testing.T }

func (s noSolver) Check(conj []solver.Term) (solver.Result, error) {
	s.t.Errorf("solver asked to check %v", conj)
	return solver.Unknown, nil
}

func (s noSolver) Model(conj, _ []solver.Term) (solver.Result, map[solver.Term]solver.Value, error) {
	s.t.Errorf("solver asked for a model of %v", conj)
	return solver.Unknown, nil, nil
}

func (noSolver) SetTimeout(time.Duration)  {}
func (noSolver) SetDeadline(time.Time)     {}
func (noSolver) SetCancel(<-chan struct{}) {}
func (noSolver) Close()                    {}

// TestImpliesRefutesNegatedConjunct: a premise that holds the negation of
// a conjunct does not imply it, and the solver is not asked (the premise
// is satisfiable, so its models refute the conjunct).
func TestImpliesRefutesNegatedConjunct(t *testing.T) {
	tab := solver.NewTable()
	gap, v := tab.Var("#0", solver.IntSort), tab.Var("#1", solver.IntSort)
	half := tab.Div(v, tab.Int(2))
	premise := []solver.Term{
		tab.Le(tab.Int(0), gap), tab.Le(gap, tab.Int(200)),
		tab.Le(tab.Int(0), v), tab.Le(v, tab.Int(200)),
		tab.Lt(gap, half),
	}
	or := newOracle(tab, noSolver{t}, nil, nil)
	p := or.prepare(premise)
	for _, b := range [][]solver.Term{
		{tab.Le(half, gap)},
		{tab.Le(tab.Int(0), gap), tab.Le(half, gap)},
	} {
		if or.implies(p, b) {
			t.Errorf("%v implies %v, whose negation it holds", premise, b)
		}
	}
	if !or.implies(p, premise[:2]) {
		t.Errorf("%v does not imply its own conjuncts", premise)
	}
	if or.calls != 0 {
		t.Errorf("%d solver calls, want none", or.calls)
	}
}

// TestSatDecidesBoxes: a guard that with the conjuncts it shares variables
// with is nothing but bounds is decided by their intervals, without the
// solver.
func TestSatDecidesBoxes(t *testing.T) {
	tab := solver.NewTable()
	v, w := tab.Var("v", solver.IntSort), tab.Var("w", solver.IntSort)
	pc := []solver.Term{tab.Le(tab.Int(0), v), tab.Le(v, tab.Int(200))}
	or := newOracle(tab, noSolver{t}, nil, nil)
	for _, tc := range []struct {
		c    solver.Term
		want bool
	}{
		{tab.Lt(tab.Int(150), v), true},
		{tab.Le(tab.Int(201), v), false},
		{tab.Eq(v, tab.Int(200)), true},
		{tab.Eq(v, tab.Int(-1)), false},
	} {
		if got := or.sat(pc, tc.c); got != tc.want {
			t.Errorf("sat(%v, %s) = %v, want %v", pc, tab.String(tc.c), got, tc.want)
		}
	}
	// A variable met twice makes a term no longer monotone in it: v < v - 1
	// has no model, though v's interval holds values below others.
	if _, decided := boxSatisfiable(tab, pc, tab.Lt(v, tab.Sub(v, tab.Int(1)))); decided {
		t.Error("v < v - 1 decided by intervals")
	}
	// v's conjuncts are bounds still when pc has another, about w alone.
	pc = append(pc[:2], tab.Lt(w, tab.Int(5)))
	if !or.sat(pc, tab.Le(tab.Int(100), v)) {
		t.Errorf("100 <= v infeasible with %v", pc)
	}
}

// TestBoxSatisfiableAgreesWithZ3 decides random comparisons of monotone
// terms over random boxes both by intervals and by Z3: where the intervals
// decide, they must give Z3's answer.
func TestBoxSatisfiableAgreesWithZ3(t *testing.T) {
	tab := solver.NewTable()
	slv, err := z3.New(tab)
	if err != nil {
		t.Fatal(err)
	}
	defer slv.Close()
	rng := rand.New(rand.NewPCG(30, 1))
	num := func() int64 { return rng.Int64N(41) - 20 }
	vars := []solver.Term{tab.Var("a", solver.IntSort), tab.Var("b", solver.IntSort), tab.Var("c", solver.IntSort)}
	// term builds a random term of the variables vs, each used once.
	var term func(vs []solver.Term) solver.Term
	term = func(vs []solver.Term) solver.Term {
		if len(vs) == 0 {
			return tab.Int(num())
		}
		switch rng.IntN(6) {
		case 0:
			return tab.Neg(term(vs))
		case 1:
			return tab.Mul(term(vs), tab.Int(num()))
		case 2:
			return tab.Div(term(vs), tab.Int(num()))
		case 3:
			k := rng.IntN(len(vs) + 1)
			return tab.Add(term(vs[:k]), term(vs[k:]))
		case 4:
			k := rng.IntN(len(vs) + 1)
			return tab.Sub(term(vs[:k]), term(vs[k:]))
		}
		if len(vs) == 1 {
			return vs[0]
		}
		return tab.Add(vs[0], term(vs[1:]))
	}
	decided := 0
	for i := 0; i < 400; i++ {
		var box []solver.Term
		for _, v := range vars {
			lo := num()
			box = append(box, tab.Le(tab.Int(lo), v), tab.Le(v, tab.Int(lo+rng.Int64N(12))))
		}
		vs := slices.Clone(vars[:1+rng.IntN(len(vars))])
		rng.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
		k := rng.IntN(len(vs) + 1)
		l, r := term(vs[:k]), term(vs[k:])
		x := tab.Le(l, r)
		if rng.IntN(2) == 0 {
			x = tab.Lt(l, r)
		}
		if tab.Op(x) != solver.OpLe && tab.Op(x) != solver.OpLt {
			continue // folded to a constant
		}
		got, ok := boxSatisfiable(tab, box, x)
		if !ok {
			continue
		}
		decided++
		want, err := slv.Check(append(slices.Clone(box), x))
		if err != nil {
			t.Fatal(err)
		}
		if got != (want == solver.Sat) {
			t.Fatalf("%s over %v: intervals say %v, Z3 %v", tab.String(x), box, got, want)
		}
	}
	if decided < 200 {
		t.Errorf("intervals decided only %d of 400", decided)
	}
}
