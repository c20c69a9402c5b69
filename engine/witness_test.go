package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
)

// TestWitnessAgreesWithZ3 searches models of random conjunctions of linear
// constraints (bounds, comparisons of terms in which a variable may occur
// more than once, equalities, disequalities, disjunctions, remainders),
// with the last conjunct wanted true or false: every model found must be
// one by Z3 too (the conjunction with every variable pinned to its value
// is satisfiable), and none may be found where Z3 proves there is none.
func TestWitnessAgreesWithZ3(t *testing.T) {
	tab := solver.NewTable()
	slv, err := z3.New(tab)
	if err != nil {
		t.Fatal(err)
	}
	defer slv.Close()
	rng := rand.New(rand.NewPCG(30, 2))
	num := func() int64 { return rng.Int64N(61) - 30 }
	vars := []solver.Term{tab.Var("a", solver.IntSort), tab.Var("b", solver.IntSort), tab.Var("c", solver.IntSort), tab.Var("d", solver.IntSort)}
	var term func(depth int) solver.Term
	term = func(depth int) solver.Term {
		if depth == 0 {
			if rng.IntN(3) == 0 {
				return tab.Int(num())
			}
			return vars[rng.IntN(len(vars))]
		}
		switch rng.IntN(6) {
		case 0:
			return tab.Neg(term(depth - 1))
		case 1:
			return tab.Mul(term(depth-1), tab.Int(num()))
		case 2:
			return tab.Div(term(depth-1), tab.Int(1+rng.Int64N(5)))
		case 3:
			return tab.Rem(term(depth-1), tab.Int(2+rng.Int64N(4)))
		case 4:
			return tab.Sub(term(depth-1), term(depth-1))
		}
		return tab.Add(term(depth-1), term(depth-1))
	}
	var constraint func(depth int) solver.Term
	constraint = func(depth int) solver.Term {
		l, r := term(rng.IntN(3)), term(rng.IntN(3))
		switch rng.IntN(7) {
		case 0:
			return tab.Eq(l, r)
		case 1:
			return tab.Ne(l, r)
		case 2:
			if depth > 0 {
				return tab.Or(constraint(depth-1), constraint(depth-1))
			}
		case 3:
			return tab.Lt(l, r)
		}
		return tab.Le(l, r)
	}
	found, unsat := 0, 0
	for range 600 {
		var conj []solver.Term
		for _, v := range vars {
			if rng.IntN(4) > 0 {
				lo := num()
				conj = append(conj, tab.Le(tab.Int(lo), v), tab.Le(v, tab.Int(lo+rng.Int64N(40))))
			}
		}
		for range 1 + rng.IntN(4) {
			conj = append(conj, constraint(1))
		}
		rng.Shuffle(len(conj), func(i, j int) { conj[i], conj[j] = conj[j], conj[i] })
		negated := rng.IntN(2) == 0
		var s witnessSearch
		pc, goal := conj[:len(conj)-1], conj[len(conj)-1]
		last := goal
		if negated {
			last = tab.Not(goal)
		}
		want, err := slv.Check(append(slices.Clone(pc), last))
		if err != nil {
			t.Fatal(err)
		}
		if want == solver.Unsat {
			unsat++
		}
		if !s.find(tab, pc, goal, negated) {
			continue
		}
		found++
		m := s.model(nil)
		pinned := append(slices.Clone(pc), last)
		for v, x := range m {
			pinned = append(pinned, tab.Eq(v, tab.Int(x.Int)))
		}
		if r, err := slv.Check(pinned); err != nil || r != solver.Sat {
			t.Fatalf("model %v of %s: Z3 says %v (%v)", m, conjString(tab, pc, last), r, err)
		}
	}
	if found < 200 || unsat < 100 {
		t.Errorf("found %d models, %d conjunctions unsatisfiable, of 600: the test says little", found, unsat)
	}
}

// conjString prints pc ∧ last for a failure.
func conjString(tab *solver.Table, pc []solver.Term, last solver.Term) string {
	s := ""
	for _, x := range append(slices.Clone(pc), last) {
		s += tab.String(x) + "; "
	}
	return s
}

// TestWitnessDecidesChains: the checks of ACCS that were the solver's
// (a guard on a new input against a chain of distance conditions, and an
// implication the premise refutes) are decided without it, and the model
// that refutes the implication is kept as a counterexample.
func TestWitnessDecidesChains(t *testing.T) {
	tab := solver.NewTable()
	in := func(name string) solver.Term {
		return tab.Var(name, solver.IntSort)
	}
	rangeOf := func(v solver.Term) []solver.Term {
		return []solver.Term{tab.Le(tab.Int(0), v), tab.Le(v, tab.Int(200))}
	}
	d2, d3, d5, v8, d10 := in("distance@2"), in("distance@3"), in("distance@5"), in("v@8"), in("distance@10")
	var pc []solver.Term
	for _, c := range [][]solver.Term{
		rangeOf(d2), {tab.Lt(d2, tab.Int(150))},
		rangeOf(d3), {tab.Lt(d3, tab.Int(150)), tab.Lt(d3, tab.Sub(d2, tab.Int(20)))},
		rangeOf(d5), {tab.Lt(d5, tab.Int(150)), tab.Lt(d5, tab.Sub(d3, tab.Int(20)))},
		rangeOf(v8), {tab.Lt(d5, tab.Div(v8, tab.Int(2)))},
		rangeOf(d10), {tab.Lt(d10, tab.Int(150))},
	} {
		pc = append(pc, c...)
	}
	or := newOracle(tab, noSolver{t}, nil, nil)
	if !or.sat(pc, tab.Lt(d10, tab.Sub(d5, tab.Int(20)))) {
		t.Error("the chain's guard found infeasible")
	}
	p := or.prepare(pc)
	if or.implies(p, []solver.Term{tab.Lt(d10, tab.Sub(d2, tab.Int(100)))}) {
		t.Error("the chain implies distance@10 < distance@2 - 100")
	}
	if len(or.cex.kept) != 1 {
		t.Errorf("%d counterexamples kept, want the witness's", len(or.cex.kept))
	}
	if or.calls != 0 {
		t.Errorf("%d solver calls, want none", or.calls)
	}
}

// TestWitnessLeavesOtherTerms: terms the solver may answer "unknown" on
// (a product of variables) or that are not integers are not searched, so
// that a check the solver would leave unknown is not decided here.
func TestWitnessLeavesOtherTerms(t *testing.T) {
	tab := solver.NewTable()
	x, y := tab.Var("x", solver.IntSort), tab.Var("y", solver.IntSort)
	s := tab.Var("s", solver.StringSort)
	pc := []solver.Term{tab.Le(tab.Int(0), x), tab.Le(x, tab.Int(9)), tab.Le(tab.Int(0), y), tab.Le(y, tab.Int(9))}
	var w witnessSearch
	for _, goal := range []solver.Term{
		tab.Eq(tab.Mul(x, y), tab.Int(6)),
		tab.Eq(tab.Length(s), x),
		tab.Lt(tab.Div(x, y), tab.Int(3)),
	} {
		if w.find(tab, pc, goal, false) {
			t.Errorf("searched %s", tab.String(goal))
		}
	}
	if !w.find(tab, pc, tab.Eq(tab.Add(x, y), tab.Int(6)), false) {
		t.Error("no model of x + y == 6 in [0, 9]²")
	}
}
