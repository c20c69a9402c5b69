package engine

import "github.com/setbot/setbot/solver"

// differenceLayer proves implications that follow from the difference
// constraints of their premise, and hands the rest on. A comparison of two
// integer terms, each an atom plus a constant (x < y - 20, y/2 <= z, 0 <= x),
// says how far one atom may be from the other: a - b ≤ c. Closing those
// bounds (zone.go's difference-bound matrix, the one the timers' dues use)
// gives the tightest bound on every difference the premise's difference
// constraints entail, and a goal whose own bound is no tighter follows
// from them. It is the relation ACCS's guards build over a chain of
// inputs (distance@k < distance@j - 20 < distance@i - 40), where the
// implications that hold could only be decided by the solver: no model
// refutes them, so neither the counterexamples nor the witness search can.
//
// Only proofs are answers, and each is exact: the premise's other
// conjuncts are left out and an atom that is not a variable (y/2, x*y) is
// taken for one, which can only weaken the premise, and a weaker premise
// that implies the goal means the premise does. So the answer is the
// solver's, and the tree the same; what is not proven goes on.
type differenceLayer struct {
	tab   *solver.Table
	next  layer
	atoms []solver.Term // scratch: the premise's atoms; 0 (index 0) is the constant 0
	diffs []difference  // scratch: its difference constraints
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

func (l *differenceLayer) decide(q query) answer {
	if q.valid && l.proves(q.pc, q.goals) {
		return answer{r: solver.Unsat}
	}
	return l.next.decide(q)
}

// proves reports whether the difference constraints among pc entail every
// goal.
func (l *differenceLayer) proves(pc, goals []solver.Term) bool {
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
	atoms := append(l.atoms[:0], 0)
	defer func() { l.atoms = atoms[:0] }()
	index := func(t solver.Term) int {
		for i, a := range atoms {
			if a == t {
				return i
			}
		}
		atoms = append(atoms, t)
		return len(atoms) - 1
	}
	for _, d := range diffs[wanted:] {
		index(d.a)
		index(d.b)
	}
	known := len(atoms)
	if known > maxDifferenceAtoms {
		return false
	}
	for _, d := range diffs[:wanted] {
		if index(d.a) >= known || index(d.b) >= known {
			return false // the premise bounds nothing of that atom
		}
	}
	z := newZone(known - 1)
	for _, d := range diffs[wanted:] {
		z.tighten(index(d.a), index(d.b), d.c)
	}
	if !z.close() {
		return false // pc is satisfiable, so this is not: leave it to the solver
	}
	for _, d := range diffs[:wanted] {
		if z.bound(index(d.a), index(d.b)) > d.c {
			return false
		}
	}
	return true
}

// differences appends the difference constraints x is (one for < and <=,
// two for ==), and reports whether x is one: a comparison of integer
// terms, each an atom plus a constant.
func (l *differenceLayer) differences(to []difference, x solver.Term) ([]difference, bool) {
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
func (l *differenceLayer) offset(t solver.Term) (atom solver.Term, k int64, ok bool) {
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
