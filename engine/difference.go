package engine

import "github.com/setbot/setbot/solver"

// differenceBounds decides by the difference constraints among terms. A
// comparison of two integer terms, each an atom plus a constant (x < y - 20,
// y/2 <= z, 0 <= x), says how far one atom may be from the other: a - b ≤ c.
// Closing those bounds (zone.go's difference-bound matrix, the one the
// timers' dues use) gives the tightest bound on every difference they
// entail: a goal whose own bound is no tighter follows from them (proves),
// and bounds that sum below zero around a cycle contradict each other
// (contradict). It is the relation ACCS's guards build over a chain of
// inputs (distance@k < distance@j - 20 < distance@i - 40), where the
// implications that hold could only be decided by the solver: no model
// refutes them, so neither the counterexamples nor the witness search can.
//
// Only proofs are answers, and each is exact: the other conjuncts are left
// out and an atom that is not a variable (y/2, x*y) is taken for one, which
// can only weaken what is known, and a weaker premise that implies the goal
// means the premise does, as weaker constraints that contradict each other
// mean the whole conjunction does. So the answer is the solver's, and the
// tree the same; what is not proven goes on.
type differenceBounds struct {
	tab   *solver.Table
	atoms []solver.Term // scratch: the atoms of the zone built last; 0 (index 0) is the constant 0
	diffs []difference  // scratch: its difference constraints
	z     zone          // scratch: the zone built last
}

// proofLayer proves the implications that difference bounds entail. It
// comes before the witness search, which cannot refute an implication that
// holds and would spend its tries on it.
type proofLayer struct {
	d    *differenceBounds
	next layer
}

func (l proofLayer) decide(q query) answer {
	if q.valid && l.d.proves(q.pc, q.goals) {
		return answer{r: solver.Unsat}
	}
	return l.next.decide(q)
}

// contradictionLayer finds unsatisfiable the feasibility queries whose
// difference bounds contradict each other. It comes after the witness
// search, which answers the satisfiable ones, most of an exploration's,
// for less than a closure costs.
type contradictionLayer struct {
	d    *differenceBounds
	next layer
}

func (l contradictionLayer) decide(q query) answer {
	if !q.valid && l.d.contradict(q.pc, q.goal) {
		return answer{r: solver.Unsat}
	}
	return l.next.decide(q)
}

// difference is a - b ≤ c over atoms (0 for the constant 0).
type difference struct {
	a, b solver.Term
	c    int64
}

// Limits: a premise with more atoms goes on (the closure is cubic in
// them), and so does a constant beyond maxDifference, so that sums along
// the closure's paths cannot overflow.
const (
	maxDifferenceAtoms = 48
	maxDifference      = 1 << 40
)

// contradict reports whether the difference constraints among pc and the
// conjuncts of goal contradict each other (a cycle of bounds that sums
// below zero: x < y, y < z - 2, z <= x), so that pc ∧ goal is
// unsatisfiable; the same relaxation makes the answer exact.
func (l *differenceBounds) contradict(pc []solver.Term, goal solver.Term) bool {
	diffs := l.diffs[:0]
	defer func() { l.diffs = diffs[:0] }()
	var conjuncts func(x solver.Term)
	conjuncts = func(x solver.Term) {
		if l.tab.Op(x) == solver.OpAnd {
			a, b, _ := l.tab.Args(x)
			conjuncts(a)
			conjuncts(b)
			return
		}
		diffs, _ = l.differences(diffs, x)
	}
	conjuncts(goal)
	if len(diffs) == 0 {
		return false // the goal adds no difference, and pc alone is satisfiable
	}
	for _, x := range pc {
		diffs, _ = l.differences(diffs, x)
	}
	z, ok := l.zone(diffs)
	return ok && !z.close()
}

// proves reports whether the difference constraints among pc entail every
// goal.
func (l *differenceBounds) proves(pc, goals []solver.Term) bool {
	diffs := l.diffs[:0]
	defer func() { l.diffs = diffs[:0] }()
	for _, g := range goals { // the goals first: most queries end here
		var ok bool
		if diffs, ok = l.differences(diffs, g); !ok {
			return false
		}
	}
	wanted := len(diffs)
	for _, x := range pc {
		diffs, _ = l.differences(diffs, x)
	}
	z, ok := l.zone(diffs[wanted:])
	if !ok || !z.close() {
		return false // pc is satisfiable, so a contradiction is not: leave it to the solver
	}
	for _, d := range diffs[:wanted] {
		i, j := l.index(d.a), l.index(d.b)
		if i < 0 || j < 0 || z.bound(i, j) > d.c {
			return false // the premise bounds nothing of that atom, or not so tightly
		}
	}
	return true
}

// zone returns the difference-bound matrix of diffs, not yet closed, over
// their atoms (l.atoms, the constant 0 first), and false when they are too
// many. It is l's scratch, overwritten by the next call.
func (l *differenceBounds) zone(diffs []difference) (*zone, bool) {
	l.atoms = append(l.atoms[:0], 0)
	for _, d := range diffs {
		for _, t := range [2]solver.Term{d.a, d.b} {
			if l.index(t) < 0 {
				if len(l.atoms) == maxDifferenceAtoms {
					return nil, false
				}
				l.atoms = append(l.atoms, t)
			}
		}
	}
	l.z.init(len(l.atoms) - 1)
	for _, d := range diffs {
		l.z.tighten(l.index(d.a), l.index(d.b), d.c)
	}
	return &l.z, true
}

// index returns t's index among l.atoms, -1 for none.
func (l *differenceBounds) index(t solver.Term) int {
	for i, a := range l.atoms {
		if a == t {
			return i
		}
	}
	return -1
}

// differences appends the difference constraints x is (one for < and <=,
// two for ==), and reports whether x is one: a comparison of integer
// terms, each an atom plus a constant.
func (l *differenceBounds) differences(to []difference, x solver.Term) ([]difference, bool) {
	op := l.tab.Op(x)
	if op != solver.OpLt && op != solver.OpLe && op != solver.OpEq {
		return to, false
	}
	lhs, rhs, _ := l.tab.Args(x)
	a, ka, ok1 := l.offset(lhs)
	b, kb, ok2 := l.offset(rhs)
	if !ok1 || !ok2 {
		return to, false
	}
	if a == b { // a constant comparison (x - 20 < x): of the constant 0 with itself
		a, b = 0, 0
	}
	c := kb - ka // a + ka op b + kb: a - b op kb - ka
	switch op {
	case solver.OpLt:
		return append(to, difference{a, b, c - 1}), true
	case solver.OpLe:
		return append(to, difference{a, b, c}), true
	}
	return append(to, difference{a, b, c}, difference{b, a, -c}), true
}

// offset splits an integer term into an atom and a constant, t = atom + k
// (atom 0 for a constant), and reports whether it is of that shape with a
// constant within maxDifference.
func (l *differenceBounds) offset(t solver.Term) (atom solver.Term, k int64, ok bool) {
	tab := l.tab
	if tab.Sort(t) != solver.IntSort {
		return 0, 0, false
	}
	small := func(c int64) bool { return -maxDifference <= c && c <= maxDifference }
	if c, ok := tab.IntValue(t); ok {
		return 0, c, small(c)
	}
	a, b, _ := tab.Args(t)
	switch tab.Op(t) {
	case solver.OpAdd:
		if c, ok := tab.IntValue(b); ok {
			return a, c, small(c)
		}
		if c, ok := tab.IntValue(a); ok {
			return b, c, small(c)
		}
	case solver.OpSub:
		if c, ok := tab.IntValue(b); ok {
			return a, -c, small(c)
		}
	}
	return t, 0, true
}
