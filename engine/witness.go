package engine

import "github.com/setbot/setbot/solver"

// witnessLayer decides a feasibility query satisfiable when it can build a
// model of it itself (witnessSearch), and hands the rest on. A model is
// what the solver's Sat would have said exists, so the answer is exact;
// the search tries one variable at a time and gives up where a greedy
// choice does not do, which is never wrong, only slower. It is KLEE's
// counterexample cache (Cadar, Dunbar and Engler, "KLEE: Unassisted and
// Automatic Generation of High-Coverage Tests for Complex Systems
// Programs", 2008) turned to making models rather than remembering them:
// the guards on a new input against a chain of earlier inputs (ACCS's
// `distance@k < distance@j - 20`) have models a greedy choice finds, and
// were most of the solver's feasibility checks. Its answer depends on the
// query alone (not on what was asked before, nor on term numbers), so the
// checks that reach the cache and the solver are the same with any
// number of workers.
type witnessLayer struct {
	tab  *solver.Table
	next layer
	s    witnessSearch
}

func (l *witnessLayer) decide(q query) answer {
	if !q.valid {
		if l.s.find(l.tab, q.pc, q.goal, false) {
			return answer{r: solver.Sat}
		}
		return l.next.decide(q)
	}
	for _, g := range q.goals {
		if l.s.find(l.tab, q.pc, g, true) {
			return answer{r: solver.Sat, model: l.s.model(q.goals), solved: true}
		}
	}
	return l.next.decide(q)
}

// Bounds of the search: a query with more variables or conjuncts goes to
// the solver, and a variable without a bound of its own is sought within
// ±witnessRange.
const (
	maxWitnessVars  = 64
	maxWitnessConj  = 256
	witnessRange    = 1 << 32
	witnessBudget   = 32 // values tried, in all
	witnessMaxDepth = 64 // of a term, for the shape check's recursion
)

// witnessSearch looks for a model of a conjunction of linear integer
// constraints: the variables in the order they first occur, each given,
// in turn, a value that satisfies the conjuncts whose last variable it is,
// the others' values being fixed; the interval those conjuncts allow is
// found by bisection of each comparison (monotone in the variable when it
// occurs once, and checked anyway). Every conjunct is evaluated exactly
// (Table.EvalScalar, the solver's semantics of these terms) once its
// variables all have values, so a model found is a model. Only terms the
// solver decides without "unknown" are tried: integer variables and
// constants under +, -, negation, multiplication by a constant, division
// and remainder by a non-zero constant, comparisons, !, && and ||.
type witnessSearch struct {
	tab     *solver.Table
	conj    []solver.Term
	vars    []solver.Term
	seen    map[solver.Term]bool
	pos     []int      // by term: a variable's index in vars
	owner   []int      // per conjunct, the index of its last variable (-1: none)
	dep     []uint64   // per variable, the earlier ones its conjuncts mention, as a mask
	box     []interval // per variable, the bounds among the conjuncts
	value   []int64    // by term: the value chosen for a variable
	has     []bool     // by term: whether a variable has a value
	look    func(solver.Term) (int64, bool)
	budget  int  // values left to try
	negated bool // the last conjunct is to be false
}

// find reports whether it found a model of pc ∧ goal, or of pc ∧ ¬goal
// when negated.
func (s *witnessSearch) find(tab *solver.Table, pc []solver.Term, goal solver.Term, negated bool) bool {
	if !s.prepare(tab, pc, goal, negated) {
		return false
	}
	for i := range s.conj {
		if s.owner[i] < 0 && !s.holds(i) {
			return false
		}
	}
	s.budget = witnessBudget
	ok, _ := s.assign(0)
	return ok
}

// model returns the model find found, as the solver gives one: a value for
// every variable of its conjunction and of more (those it does not
// constrain get 0).
func (s *witnessSearch) model(more []solver.Term) map[solver.Term]solver.Value {
	m := make(map[solver.Term]solver.Value, len(s.vars))
	for _, v := range s.vars {
		m[v] = solver.Value{Sort: solver.IntSort, Int: s.value[v]}
	}
	for _, x := range more {
		for _, v := range s.tab.Vars(x) {
			if _, ok := m[v]; !ok {
				m[v] = solver.Value{Sort: s.tab.Sort(v)}
			}
		}
	}
	return m
}

// prepare collects the conjunction's variables, each conjunct's last one,
// and the variables' bounds; false when the conjunction is not of the
// shape searched.
func (s *witnessSearch) prepare(tab *solver.Table, pc []solver.Term, goal solver.Term, negated bool) bool {
	if len(pc)+1 > maxWitnessConj {
		return false
	}
	if s.seen == nil {
		s.seen = make(map[solver.Term]bool)
		s.look = func(v solver.Term) (int64, bool) { return s.value[v], s.has[v] }
	}
	for _, v := range s.vars {
		s.has[v] = false
	}
	if n := tab.Len() + 1; len(s.has) < n {
		s.has, s.value, s.pos = make([]bool, 2*n), make([]int64, 2*n), make([]int, 2*n)
	}
	s.tab, s.negated = tab, negated
	s.conj = append(append(s.conj[:0], pc...), goal)
	clear(s.seen)
	s.vars = s.vars[:0]
	for _, x := range s.conj {
		if !linearBool(tab, x, witnessMaxDepth) {
			return false
		}
		s.vars = tab.VarsInOrder(x, s.seen, s.vars)
		if len(s.vars) > maxWitnessVars {
			return false
		}
	}
	s.box = s.box[:0]
	for i, v := range s.vars {
		s.pos[v] = i
		s.box = append(s.box, interval{-witnessRange, witnessRange})
	}
	s.owner = s.owner[:0]
	s.dep = append(s.dep[:0], make([]uint64, len(s.vars))...)
	for j, x := range s.conj {
		last, mask := -1, uint64(0)
		for _, v := range tab.Vars(x) {
			last = max(last, s.pos[v])
			mask |= 1 << s.pos[v]
		}
		s.owner = append(s.owner, last)
		if last >= 0 {
			s.dep[last] |= mask &^ (1 << last)
		}
		if v, iv, ok := bound(tab, x); ok && !s.negatedAt(j) {
			b := &s.box[s.pos[v]]
			b.lo, b.hi = max(b.lo, iv.lo), min(b.hi, iv.hi)
		}
	}
	return true
}

// assign gives the variables from the i-th on values, depth first: each
// the greatest, the middle or the least of what its conjuncts allow (the
// greatest first, which leaves the most room to the later variables of a
// chain of `x < y - c`). It reports whether every conjunct then holds and,
// when not, the earlier variables whose values made it fail (a conflict
// set, as a mask): a variable not among them jumps back past its other
// values (conflict-directed backjumping, Prosser, "Hybrid algorithms for
// the constraint satisfaction problem", 1993). It gives up once it has
// tried witnessBudget values.
func (s *witnessSearch) assign(i int) (bool, uint64) {
	if i == len(s.vars) {
		return true, 0
	}
	v, bit := s.vars[i], uint64(1)<<i
	iv := s.box[i]
	for j, x := range s.conj {
		if s.owner[j] == i {
			s.narrow(x, v, &iv, !s.negatedAt(j))
		}
	}
	conflict := s.dep[i]
	if iv.lo > iv.hi {
		return false, conflict
	}
	mid := iv.lo + (iv.hi-iv.lo)/2
	for k, c := range [3]int64{iv.hi, mid, iv.lo} {
		if k > 0 && (c == iv.hi || k == 2 && c == mid) {
			continue // tried
		}
		if s.budget--; s.budget < 0 {
			break
		}
		s.value[v], s.has[v] = c, true
		if !s.owns(i) {
			continue
		}
		ok, later := s.assign(i + 1)
		if ok {
			return true, 0
		}
		if later&bit == 0 {
			s.has[v] = false
			return false, later
		}
		conflict |= later &^ bit
	}
	s.has[v] = false
	return false, conflict
}

// owns reports whether the conjuncts whose last variable is the i-th hold.
func (s *witnessSearch) owns(i int) bool {
	for j := range s.conj {
		if s.owner[j] == i && !s.holds(j) {
			return false
		}
	}
	return true
}

// negatedAt reports whether the j-th conjunct is to be false.
func (s *witnessSearch) negatedAt(j int) bool { return s.negated && j == len(s.conj)-1 }

// holds reports whether the j-th conjunct is as wanted (true, or false when
// negated) under the values chosen.
func (s *witnessSearch) holds(j int) bool { return s.is(s.conj[j], !s.negatedAt(j)) }

// is reports whether x evaluates to want under the values chosen; a term
// that cannot be evaluated (a variable without a value, an overflow) is
// neither true nor false.
func (s *witnessSearch) is(x solver.Term, want bool) bool {
	t, ok := s.tab.EvalScalar(x, s.look)
	return ok && (t != 0) == want
}

// narrow shrinks iv to where the comparisons among x's conjuncts are as
// wanted (want: true, or false) for v, assuming each is monotone in v: when
// it is at one end of iv and not at the other, bisection finds where it
// changes. Other conjuncts are left to the check after the choice.
func (s *witnessSearch) narrow(x, v solver.Term, iv *interval, want bool) {
	tab := s.tab
	a, b, _ := tab.Args(x)
	switch op := tab.Op(x); {
	case op == solver.OpNot:
		s.narrow(a, v, iv, !want)
	case op == solver.OpAnd && want, op == solver.OpOr && !want:
		s.narrow(a, v, iv, want)
		s.narrow(b, v, iv, want)
	case op == solver.OpLt, op == solver.OpLe:
		s.narrowBy(v, iv, func() bool { return s.is(x, want) })
	case op == solver.OpEq && want && tab.Sort(a) == solver.IntSort:
		s.narrowBy(v, iv, func() bool { return s.compare(a, b) <= 0 })
		s.narrowBy(v, iv, func() bool { return s.compare(a, b) >= 0 })
	}
}

// compare compares the values of two integer terms (0 when one cannot
// be computed: the check after the choice then fails).
func (s *witnessSearch) compare(a, b solver.Term) int {
	x, ok1 := s.tab.EvalScalar(a, s.look)
	y, ok2 := s.tab.EvalScalar(b, s.look)
	switch {
	case !ok1 || !ok2 || x == y:
		return 0
	case x < y:
		return -1
	}
	return 1
}

// narrowBy shrinks iv to where p holds for v, when p holds at one end and
// not at the other; iv becomes empty when p holds at neither.
func (s *witnessSearch) narrowBy(v solver.Term, iv *interval, p func() bool) {
	if iv.lo > iv.hi {
		return
	}
	at := func(x int64) bool { s.value[v], s.has[v] = x, true; return p() }
	lo, hi := at(iv.lo), at(iv.hi)
	s.has[v] = false
	switch {
	case lo && hi:
	case !lo && !hi:
		iv.lo, iv.hi = 1, 0
	case lo: // holds up to some point: find the last one
		iv.hi = edge(iv.lo, iv.hi, at)
	default: // holds from some point on: find the first one
		iv.lo = edge(iv.hi, iv.lo, at)
	}
	s.has[v] = false
}

// linearBool reports whether x is a boolean term of the searched shape:
// comparisons of linearInt terms under !, && and ||.
func linearBool(tab *solver.Table, x solver.Term, depth int) bool {
	if depth == 0 {
		return false
	}
	a, b, _ := tab.Args(x)
	switch tab.Op(x) {
	case solver.OpBool:
		return true
	case solver.OpNot:
		return linearBool(tab, a, depth-1)
	case solver.OpAnd, solver.OpOr:
		return linearBool(tab, a, depth-1) && linearBool(tab, b, depth-1)
	case solver.OpEq, solver.OpLt, solver.OpLe:
		return linearInt(tab, a, depth-1) && linearInt(tab, b, depth-1)
	}
	return false
}

// linearInt reports whether x is an integer term of the searched shape.
func linearInt(tab *solver.Table, x solver.Term, depth int) bool {
	if depth == 0 || tab.Sort(x) != solver.IntSort {
		return false
	}
	a, b, _ := tab.Args(x)
	switch tab.Op(x) {
	case solver.OpInt, solver.OpVar:
		return true
	case solver.OpNeg:
		return linearInt(tab, a, depth-1)
	case solver.OpAdd, solver.OpSub:
		return linearInt(tab, a, depth-1) && linearInt(tab, b, depth-1)
	case solver.OpMul:
		_, ka := tab.IntValue(a)
		_, kb := tab.IntValue(b)
		return (ka || kb) && linearInt(tab, a, depth-1) && linearInt(tab, b, depth-1)
	case solver.OpDiv, solver.OpRem:
		k, ok := tab.IntValue(b)
		return ok && k != 0 && linearInt(tab, a, depth-1)
	}
	return false
}

// edge bisects between good, where at holds, and bad, where it does not,
// in either order, and returns the point where at holds next to one where
// it does not.
func edge(good, bad int64, at func(int64) bool) int64 {
	for bad-good > 1 || good-bad > 1 {
		if mid := good + (bad-good)/2; at(mid) {
			good = mid
		} else {
			bad = mid
		}
	}
	return good
}
