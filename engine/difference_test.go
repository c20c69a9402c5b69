package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
)

// TestDifferenceAgreesWithZ3 asks the difference layer random implications
// over premises of bounds, differences of variables and of opaque terms
// (x/2, x*y), and other conjuncts it leaves out (disequalities,
// disjunctions, sums of two variables), of goals that are differences:
// every implication it proves, Z3 must prove (the premise with the goal
// negated is unsatisfiable), and it must prove a third of those that hold
// (the others need what it leaves out, or relate x and x/2); every premise
// and goal it finds contradictory, Z3 must find unsatisfiable.
func TestDifferenceAgreesWithZ3(t *testing.T) {
	tab := solver.NewTable()
	slv, err := z3.New(tab)
	if err != nil {
		t.Fatal(err)
	}
	defer slv.Close()
	rng := rand.New(rand.NewPCG(7, 11))
	num := func() int64 { return rng.Int64N(41) - 20 }
	vars := []solver.Term{tab.Var("a", solver.IntSort), tab.Var("b", solver.IntSort), tab.Var("c", solver.IntSort), tab.Var("d", solver.IntSort)}
	v := func() solver.Term { return vars[rng.IntN(len(vars))] }
	side := func() solver.Term {
		switch rng.IntN(5) {
		case 0:
			return tab.Int(num())
		case 1:
			return tab.Div(v(), tab.Int(2))
		case 2:
			return tab.Add(v(), tab.Int(num()))
		case 3:
			return tab.Sub(v(), tab.Int(num()))
		}
		return v()
	}
	difference := func() solver.Term { // of two sides: most of a premise, and every goal
		l, r := side(), side()
		switch rng.IntN(4) {
		case 0:
			return tab.Eq(l, r)
		case 1:
			return tab.Le(l, r)
		}
		return tab.Lt(l, r)
	}
	other := func() solver.Term { // left out by the layer
		switch rng.IntN(3) {
		case 0:
			return tab.Ne(side(), side())
		case 1:
			return tab.Or(tab.Lt(side(), side()), tab.Lt(side(), side()))
		}
		return tab.Le(tab.Add(v(), v()), side())
	}
	l := &differenceBounds{tab: tab}
	proven, valid, contradicted := 0, 0, 0
	for range 5000 {
		var pc []solver.Term
		for range 2 + rng.IntN(6) {
			if rng.IntN(4) == 0 {
				pc = append(pc, other())
			} else {
				pc = append(pc, difference())
			}
		}
		if r, err := slv.Check(pc); err != nil || r != solver.Sat {
			continue // premises are satisfiable
		}
		goal := difference()
		r, err := slv.Check(append(slices.Clone(pc), tab.Not(goal)))
		if err != nil {
			t.Fatal(err)
		}
		if r == solver.Unsat {
			valid++
		}
		if l.contradict(pc, goal) {
			contradicted++
			if r, err := slv.Check(append(slices.Clone(pc), goal)); err != nil || r != solver.Unsat {
				t.Fatalf("found %s contradictory, which Z3 says is %v (%v)", conjString(tab, pc, goal), r, err)
			}
		}
		if !l.proves(pc, []solver.Term{goal}) {
			continue
		}
		proven++
		if r != solver.Unsat {
			t.Fatalf("proved %s ⇒ %s, which Z3 refutes", conjString(tab, pc, goal), tab.String(goal))
		}
	}
	if proven < 100 || proven*3 < valid || contradicted < 100 {
		t.Errorf("proved %d of %d valid implications, found %d contradictions: the test says little", proven, valid, contradicted)
	}
}

// TestDifferenceProvesChains: the implications of ACCS's subsumption that
// only the solver decided (a chain of distance conditions implying a bound
// on the difference between its ends, with a halved speed as an atom) are
// proven, each goal of a query must be, and what is not entailed, or not a
// difference, is not.
func TestDifferenceProvesChains(t *testing.T) {
	tab := solver.NewTable()
	in := func(name string) solver.Term { return tab.Var(name, solver.IntSort) }
	d1, d2, d3, v := in("distance@1"), in("distance@2"), in("distance@3"), in("v@3")
	half := tab.Div(v, tab.Int(2))
	pc := []solver.Term{
		tab.Le(tab.Int(0), d1), tab.Le(d1, tab.Int(200)),
		tab.Lt(d2, tab.Sub(d1, tab.Int(20))),
		tab.Lt(d3, tab.Sub(d2, tab.Int(20))),
		tab.Lt(d2, half),
		tab.Ne(d3, tab.Int(7)), // not a difference: left out
	}
	l := &differenceBounds{tab: tab}
	for _, c := range []struct {
		goals []solver.Term
		want  bool
	}{
		{[]solver.Term{tab.Lt(d3, d1)}, true},
		{[]solver.Term{tab.Lt(d3, tab.Sub(d1, tab.Int(41)))}, true},
		{[]solver.Term{tab.Lt(d3, tab.Sub(d1, tab.Int(42)))}, false},
		{[]solver.Term{tab.Lt(d3, half)}, true},
		{[]solver.Term{tab.Lt(d3, tab.Int(159))}, true}, // d3 ≤ d1 - 42 ≤ 158
		{[]solver.Term{tab.Lt(d3, tab.Int(158))}, false},
		{[]solver.Term{tab.Lt(d3, d1), tab.Lt(d2, d1)}, true},
		{[]solver.Term{tab.Lt(d3, d1), tab.Lt(d1, d2)}, false},
		{[]solver.Term{tab.Ne(d3, tab.Int(7))}, false}, // the layer proves differences only
		{[]solver.Term{tab.Lt(v, d1)}, false},          // v is no atom of the premise
		{[]solver.Term{tab.Lt(d3, tab.Add(d1, tab.Int(1<<50)))}, false},
	} {
		if got := l.proves(pc, c.goals); got != c.want {
			t.Errorf("%s: proves = %v, want %v", conjString(tab, pc, c.goals[0]), got, c.want)
		}
	}
	s1, s2 := tab.Var("s", solver.StringSort), tab.Var("t", solver.StringSort)
	if l.proves([]solver.Term{tab.Lt(s1, s2)}, []solver.Term{tab.Le(s1, s2)}) {
		t.Error("a comparison of strings is taken for a difference")
	}
}

// TestPresolver: the presolver answers what its layers decide (a box, a
// cycle of differences, a model it builds) and leaves the rest to the
// solver.
func TestPresolver(t *testing.T) {
	tab := solver.NewTable()
	x, y, z := tab.Var("x", solver.IntSort), tab.Var("y", solver.IntSort), tab.Var("z", solver.IntSort)
	p := NewPresolver(tab)
	for _, c := range []struct {
		name string
		pc   []solver.Term
		goal solver.Term
		want solver.Result
	}{
		{"a box", []solver.Term{tab.Le(tab.Int(0), x), tab.Le(x, tab.Int(9))}, tab.Lt(x, tab.Int(3)), solver.Sat},
		{"outside the box", []solver.Term{tab.Le(tab.Int(0), x), tab.Le(x, tab.Int(9))}, tab.Lt(tab.Int(9), x), solver.Unsat},
		{"a cycle of differences", []solver.Term{tab.Lt(x, y), tab.Lt(y, tab.Sub(z, tab.Int(2)))}, tab.And(tab.Le(z, x), tab.Le(tab.Int(0), x)), solver.Unsat},
		{"a chain with room", []solver.Term{tab.Lt(x, y), tab.Lt(y, tab.Sub(z, tab.Int(2)))}, tab.Le(z, tab.Add(x, tab.Int(4))), solver.Sat},
		{"not linear", []solver.Term{tab.Lt(x, y)}, tab.Eq(tab.Mul(x, x), tab.Int(2)), solver.Unknown},
		// guards of the nondeterminism check, a conjunction with no path condition
		{"bounds apart", nil, tab.And(tab.Lt(x, tab.Int(3)), tab.Le(tab.Int(5), x)), solver.Unsat},
		{"bounds apart, nested", nil, tab.And(tab.And(tab.Eq(x, tab.Int(4)), tab.Lt(y, tab.Int(0))), tab.Lt(x, tab.Int(4))), solver.Unsat},
		{"a cycle in the guards", nil, tab.And(tab.Lt(x, y), tab.Lt(y, x)), solver.Unsat},
		{"bounds that meet", nil, tab.And(tab.Lt(x, tab.Int(3)), tab.Le(tab.Int(2), x)), solver.Sat},
	} {
		if got := p.Check(c.pc, c.goal); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
