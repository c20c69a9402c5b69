package z3

import (
	"errors"
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/solver"
)

func TestCheckBasics(t *testing.T) {
	tab := solver.NewTable()
	x := tab.Var("x", solver.IntSort)
	y := tab.Var("y", solver.IntSort)
	b := tab.Var("b", solver.BoolSort)
	c := tab.Int
	tests := []struct {
		name  string
		conj  []solver.Term
		want  solver.Result
		calls int // Z3 checks expected
	}{
		{"empty", nil, solver.Sat, 0},
		{"true", []solver.Term{tab.Bool(true)}, solver.Sat, 0},
		{"false", []solver.Term{tab.Lt(x, c(1)), tab.Bool(false)}, solver.Unsat, 0},
		{"true and atom", []solver.Term{tab.Bool(true), tab.Gt(x, c(5))}, solver.Sat, 1},
		{"x>5", []solver.Term{tab.Gt(x, c(5))}, solver.Sat, 1},
		{"x>5,x<3", []solver.Term{tab.Gt(x, c(5)), tab.Lt(x, c(3))}, solver.Unsat, 1},
		{"b,!b", []solver.Term{b, tab.Not(b)}, solver.Unsat, 1},
		{"b==(x<0),b,x>=0", []solver.Term{tab.Eq(b, tab.Lt(x, c(0))), b, tab.Ge(x, c(0))}, solver.Unsat, 1},
		{"x*x==4,x>0", []solver.Term{tab.Eq(tab.Mul(x, x), c(4)), tab.Gt(x, c(0))}, solver.Sat, 1},
		{"x*y==7,x>1,y>1", []solver.Term{tab.Eq(tab.Mul(x, y), c(7)), tab.Gt(x, c(1)), tab.Gt(y, c(1))}, solver.Unsat, 1},
		{"odd and even", []solver.Term{tab.Eq(tab.Rem(x, c(2)), c(1)), tab.Eq(tab.Rem(x, c(2)), c(0))}, solver.Unsat, 1},
		{"x/0 != 0", []solver.Term{tab.Eq(y, c(0)), tab.Ne(tab.Div(x, y), c(0))}, solver.Unsat, 1},
		{"x%0 != x", []solver.Term{tab.Eq(y, c(0)), tab.Ne(tab.Rem(x, y), x)}, solver.Unsat, 1},
		{"-7%y == -1", []solver.Term{tab.Eq(tab.Rem(c(-7), y), c(-1)), tab.Lt(y, c(0))}, solver.Sat, 1},
		{"-7%y > 0", []solver.Term{tab.Gt(tab.Rem(c(-7), y), c(0))}, solver.Unsat, 1},
		{"ite", []solver.Term{tab.Eq(tab.Ite(b, x, y), c(3)), tab.Ne(x, c(3)), tab.Ne(y, c(3))}, solver.Unsat, 1},
		{"or", []solver.Term{tab.Or(tab.Lt(x, c(0)), tab.Gt(x, c(10))), tab.Le(c(0), x), tab.Le(x, c(10))}, solver.Unsat, 1},
		{"large", []solver.Term{tab.Gt(x, c(math.MaxInt64)), tab.Lt(tab.Add(x, x), c(0))}, solver.Unsat, 1},
	}
	s := newSolver(t, tab)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := s.Calls()
			got, err := s.Check(tc.conj)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Check = %v, want %v", got, tc.want)
			}
			if n := s.Calls() - before; n != tc.calls {
				t.Errorf("Z3 calls = %d, want %d", n, tc.calls)
			}
		})
	}
}

// TestIndependence checks that no check's conjuncts leak into another,
// whatever prefix two conjunctions share.
func TestIndependence(t *testing.T) {
	tab := solver.NewTable()
	x := tab.Var("x", solver.IntSort)
	y := tab.Var("y", solver.IntSort)
	gt5 := tab.Gt(x, tab.Int(5))
	lt3 := tab.Lt(x, tab.Int(3))
	y1 := tab.Gt(y, tab.Int(1))
	s := newSolver(t, tab)
	steps := []struct {
		conj []solver.Term
		want solver.Result
	}{
		{[]solver.Term{gt5}, solver.Sat},
		{[]solver.Term{lt3}, solver.Sat},
		{[]solver.Term{gt5, lt3}, solver.Unsat},
		{[]solver.Term{lt3}, solver.Sat},
		{[]solver.Term{gt5, y1}, solver.Sat},
		{[]solver.Term{gt5, y1, lt3}, solver.Unsat},
		{[]solver.Term{gt5, y1}, solver.Sat},
		{[]solver.Term{gt5}, solver.Sat},
		{[]solver.Term{y1, lt3}, solver.Sat},
		{[]solver.Term{y1, lt3, gt5}, solver.Unsat},
		{[]solver.Term{y1}, solver.Sat},
		{nil, solver.Sat},
		{[]solver.Term{lt3, gt5}, solver.Unsat},
		{[]solver.Term{lt3, tab.Bool(true)}, solver.Sat},
		{[]solver.Term{gt5}, solver.Sat},
	}
	for i, st := range steps {
		got, err := s.Check(st.conj)
		if err != nil {
			t.Fatal(err)
		}
		if got != st.want {
			t.Errorf("step %d: Check = %v, want %v", i, got, st.want)
		}
	}
}

// TestIndependenceRandom compares incremental checks on random prefix-
// sharing conjunctions with checks from scratch.
func TestIndependenceRandom(t *testing.T) {
	tab := solver.NewTable()
	rnd := rand.New(rand.NewSource(7))
	vars := intVars(tab, "x", 3)
	var pool []solver.Term
	for i := 0; i < 12; i++ {
		pool = append(pool, linearAtom(tab, rnd, vars))
	}
	s, ref := newSolver(t, tab), newSolver(t, tab)
	var pc []solver.Term
	for i := 0; i < 500; i++ {
		if len(pc) > 0 && rnd.Intn(3) == 0 {
			pc = pc[:rnd.Intn(len(pc))]
		}
		pc = append(pc, pool[rnd.Intn(len(pool))])
		got, err := s.Check(pc)
		if err != nil {
			t.Fatal(err)
		}
		if err := ref.popTo(0); err != nil { // check from scratch
			t.Fatal(err)
		}
		want, err := ref.Check(pc)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("check %d: incremental %v, from scratch %v", i, got, want)
		}
	}
}

func TestModel(t *testing.T) {
	tab := solver.NewTable()
	x := tab.Var("x", solver.IntSort)
	y := tab.Var("y", solver.IntSort)
	b := tab.Var("b", solver.BoolSort)
	u := tab.Var("u", solver.IntSort)    // unconstrained
	ub := tab.Var("ub", solver.BoolSort) // unconstrained
	s := newSolver(t, tab)
	tests := []struct {
		name string
		conj []solver.Term
		want map[solver.Term]solver.Value // checked exactly
	}{
		{"empty", nil, nil},
		{"pinned", []solver.Term{tab.Eq(x, tab.Int(-7)), b}, map[solver.Term]solver.Value{
			x: {Sort: solver.IntSort, Int: -7}, b: {Sort: solver.BoolSort, Bool: true}}},
		{"derived", []solver.Term{tab.Eq(tab.Add(x, y), tab.Int(10)), tab.Eq(tab.Sub(x, y), tab.Int(4)), tab.Not(b)},
			map[solver.Term]solver.Value{x: {Sort: solver.IntSort, Int: 7}, y: {Sort: solver.IntSort, Int: 3},
				b: {Sort: solver.BoolSort, Bool: false}}},
		{"extremes", []solver.Term{tab.Eq(x, tab.Int(math.MinInt64)), tab.Eq(y, tab.Int(math.MaxInt64))},
			map[solver.Term]solver.Value{x: {Sort: solver.IntSort, Int: math.MinInt64}, y: {Sort: solver.IntSort, Int: math.MaxInt64}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			vars := []solver.Term{x, y, b, u, ub}
			r, m, err := s.Model(tc.conj, vars)
			if err != nil || r != solver.Sat {
				t.Fatalf("Model = %v, %v", r, err)
			}
			for _, v := range vars {
				got, ok := m[v]
				if !ok {
					t.Errorf("no value for %s", tab.Name(v))
					continue
				}
				if got.Sort != tab.Sort(v) {
					t.Errorf("%s: sort %v, want %v", tab.Name(v), got.Sort, tab.Sort(v))
				}
				if want, ok := tc.want[v]; ok && got != want {
					t.Errorf("%s = %+v, want %+v", tab.Name(v), got, want)
				}
			}
		})
	}
	// Unsat: no model.
	r, m, err := s.Model([]solver.Term{tab.Lt(x, x), tab.Lt(x, y), tab.Lt(y, x)}, []solver.Term{x})
	if err != nil || r != solver.Unsat || m != nil {
		t.Errorf("Model(unsat) = %v, %v, %v", r, m, err)
	}
	// A term instead of a variable is evaluated in the model.
	r, m, err = s.Model([]solver.Term{tab.Eq(x, tab.Int(4))}, []solver.Term{tab.Mul(x, x), tab.Lt(x, u)})
	if err != nil || r != solver.Sat || m[tab.Mul(x, x)].Int != 16 {
		t.Errorf("Model(x*x) = %v, %v, %v", r, m, err)
	}
}

// TestModelSatisfies checks that models of random conjunctions satisfy
// them, evaluated by Go.
func TestModelSatisfies(t *testing.T) {
	tab := solver.NewTable()
	g := newGen(tab, 3, 3, 2)
	s := newSolver(t, tab)
	vars := append(append([]solver.Term{}, g.ints...), g.bools...)
	sat := 0
	for i := 0; i < 300; i++ {
		conj := []solver.Term{g.bool(3), g.bool(3), g.bool(2)}
		r, m, err := s.Model(conj, vars)
		if errors.Is(err, solver.ErrOutOfRange) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if r != solver.Sat {
			continue
		}
		sat++
		for _, c := range conj {
			if !evalBool(tab, c, valuation(m)) {
				t.Fatalf("model %v does not satisfy %s", m, tab.String(c))
			}
		}
	}
	if sat < 50 {
		t.Errorf("only %d of 300 random conjunctions satisfiable", sat)
	}
}

func TestOutOfRange(t *testing.T) {
	tab := solver.NewTable()
	x := tab.Var("x", solver.IntSort)
	q := tab.Var("q", solver.IntSort)
	s := newSolver(t, tab)
	tests := []struct {
		name string
		conj []solver.Term
	}{
		{"MaxInt64+1", []solver.Term{tab.Eq(x, tab.Int(math.MaxInt64)), tab.Eq(q, tab.Add(x, tab.Int(1)))}},
		{"MinInt64/-1", []solver.Term{tab.Eq(x, tab.Int(math.MinInt64)), tab.Eq(q, tab.Div(x, tab.Int(-1)))}},
		{"-MinInt64", []solver.Term{tab.Eq(x, tab.Int(math.MinInt64)), tab.Eq(q, tab.Neg(x))}},
		{"square", []solver.Term{tab.Eq(x, tab.Int(math.MaxInt32)), tab.Eq(q, tab.Mul(x, tab.Mul(x, x)))}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, _, err := s.Model(tc.conj, []solver.Term{q})
			if r != solver.Sat || !errors.Is(err, solver.ErrOutOfRange) {
				t.Errorf("Model = %v, %v; want sat, ErrOutOfRange", r, err)
			}
			if _, _, err := s.Model(tc.conj, []solver.Term{x}); err != nil {
				t.Errorf("Model(x): %v", err)
			}
		})
	}
}

// factored is the product of two large primes, 2147483647 and 1000000007.
const factored = 2147483647 * 1000000007

// factoring returns x, y and a query that asks for them to factor a
// product of two large primes: satisfiable, but hard.
func factoring(tab *solver.Table) (x, y solver.Term, hard []solver.Term) {
	x, y = tab.Var("x", solver.IntSort), tab.Var("y", solver.IntSort)
	return x, y, []solver.Term{tab.Gt(x, tab.Int(1)), tab.Gt(y, tab.Int(1)), tab.Eq(tab.Mul(x, y), tab.Int(factored))}
}

func TestTimeout(t *testing.T) {
	tab := solver.NewTable()
	x, y, hard := factoring(tab)
	s := newSolver(t, tab)
	// A timeout that is not honoured leaves the check running until the
	// test binary's own timeout stops it: no wall-clock bound is asserted
	// here, since a loaded machine can be arbitrarily slow.
	s.SetTimeout(50 * time.Millisecond)
	start := time.Now()
	r, m, err := s.Model(hard, []solver.Term{x, y})
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hard query under a 50ms timeout: %v in %v", r, elapsed)
	switch r {
	case solver.Unsat:
		t.Fatal("satisfiable query reported unsat")
	case solver.Sat:
		if m[x].Int*m[y].Int != factored {
			t.Errorf("wrong model %v", m)
		}
	}
	// The solver still works, and the timeout can be lifted.
	if r, err := s.Check([]solver.Term{tab.Gt(x, tab.Int(1)), tab.Lt(x, tab.Int(3))}); r != solver.Sat || err != nil {
		t.Errorf("easy check after timeout = %v, %v", r, err)
	}
	s.SetTimeout(0)
	if r, err := s.Check([]solver.Term{tab.Eq(tab.Mul(x, y), tab.Int(6)), tab.Gt(x, tab.Int(1)), tab.Gt(y, tab.Int(2))}); r != solver.Sat || err != nil {
		t.Errorf("check without timeout = %v, %v", r, err)
	}
}

func TestClose(t *testing.T) {
	tab := solver.NewTable()
	x := tab.Var("x", solver.IntSort)
	s, err := New(tab)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check([]solver.Term{tab.Lt(x, tab.Int(0))}); r != solver.Sat || err != nil {
		t.Fatalf("Check = %v, %v", r, err)
	}
	s.Close()
	s.Close()
	if _, err := s.Check([]solver.Term{tab.Lt(x, tab.Int(0))}); err == nil {
		t.Error("Check after Close: no error")
	}
	if _, _, err := s.Model(nil, []solver.Term{x}); err == nil {
		t.Error("Model after Close: no error")
	}
	s.SetTimeout(time.Second) // no effect, no crash
}

// TestErrors checks that ill-formed input gives an error, not an abort,
// and that the solver keeps working afterwards.
func TestErrors(t *testing.T) {
	tab := solver.NewTable()
	x := tab.Var("x", solver.IntSort)
	b := tab.Var("b", solver.BoolSort)
	xb := tab.Var("x", solver.BoolSort) // same name, other sort
	u := tab.Var("u", solver.StringSort)
	s := newSolver(t, tab)
	tests := []struct {
		name string
		conj []solver.Term
		want string
	}{
		{"bool operand of +", []solver.Term{tab.Lt(tab.Add(b, x), tab.Int(3))}, "operand 1 is bool"},
		{"int operand of !", []solver.Term{tab.Not(tab.Add(x, x))}, "operand 1 is int"},
		{"int conjunct", []solver.Term{tab.Add(x, x)}, "not boolean"},
		{"mixed ==", []solver.Term{tab.Eq(x, b)}, "operand 2 is bool"},
		{"int operand of length", []solver.Term{tab.Lt(tab.Length(x), tab.Int(3))}, "operand 1 is int, want string"},
		{"string operand of &", []solver.Term{tab.Lt(tab.BitAnd(x, u), tab.Int(3))}, "operand 2 is string, want int"},
		{"string < int", []solver.Term{tab.Lt(u, x)}, "operand 2 is int, want string"},
		{"string index of charAt", []solver.Term{tab.Eq(tab.CharAt(u, u), u)}, "operand 2 is string, want int"},
		{"zero term", []solver.Term{0}, "invalid term"},
		{"unknown term", []solver.Term{solver.Term(tab.Len() + 100)}, "invalid term"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Check(tc.conj)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Check error = %v, want one containing %q", err, tc.want)
			}
		})
	}
	// Z3 itself rejects an ill-sorted term: the error comes back as a Go
	// error (building the term without the sort check here).
	tr, err := s.hold(s.ctx.mkBool(true))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ctx.mk(kAdd, s.zero, tr); err == nil {
		t.Error("Z3 accepted 0 + true")
	} else {
		t.Logf("Z3 error: %v", err)
	}
	s.releaseTemps(0)
	// Same name, two sorts: two distinct Z3 constants.
	r, err := s.Check([]solver.Term{tab.Eq(x, tab.Int(2)), xb, b})
	if r != solver.Sat || err != nil {
		t.Errorf("Check after errors = %v, %v", r, err)
	}
}

// TestTimeoutWithCancel checks the timeout that the Solver enforces itself
// (Z3 is given none): with a cancel channel that is never closed as well,
// a hard check still ends (Unknown, or Sat with a right model), and the
// checks after a timeout, under the same timeout, are decided as before:
// an interrupt of the timed-out check does not leak into them.
func TestTimeoutWithCancel(t *testing.T) {
	tab := solver.NewTable()
	x, y, hard := factoring(tab)
	for _, cancel := range []chan struct{}{nil, make(chan struct{})} {
		s := newSolver(t, tab)
		s.SetCancel(cancel)
		s.SetTimeout(50 * time.Millisecond)
		r, m, err := s.Model(hard, []solver.Term{x, y})
		if err != nil {
			t.Fatal(err)
		}
		if r == solver.Unsat || r == solver.Sat && m[x].Int*m[y].Int != factored {
			t.Fatalf("hard query under a timeout: %v %v", r, m)
		}
		s.SetTimeout(10 * time.Second)
		for i := range 50 {
			easy := []solver.Term{tab.Gt(x, tab.Int(int64(i))), tab.Lt(x, tab.Int(int64(i+2)))}
			if r, err := s.Check(easy); r != solver.Sat || err != nil {
				t.Fatalf("easy check %d after the timeout (cancel %v) = %v, %v", i, cancel != nil, r, err)
			}
			if r, err := s.Check(append(easy, tab.Gt(y, x), tab.Lt(y, tab.Int(int64(i+1))))); r != solver.Unsat || err != nil {
				t.Fatalf("unsatisfiable check %d after the timeout (cancel %v) = %v, %v", i, cancel != nil, r, err)
			}
		}
	}
}

// TestDeadline: a check that would run past the deadline ends Unknown at
// it, under a longer timeout, and one asked after it is not started; a
// check that needs Z3 but has time left decides as before.
func TestDeadline(t *testing.T) {
	tab := solver.NewTable()
	x, y, hard := factoring(tab)
	easy := []solver.Term{tab.Gt(x, tab.Int(3)), tab.Lt(x, tab.Int(5)), tab.Gt(y, x)}
	s := newSolver(t, tab)
	s.SetTimeout(10 * time.Second)
	s.SetDeadline(time.Now().Add(time.Minute))
	if r, err := s.Check(easy); r != solver.Sat || err != nil {
		t.Fatalf("easy check before the deadline = %v, %v", r, err)
	}
	s.SetDeadline(time.Now().Add(100 * time.Millisecond))
	begin := time.Now()
	if r, _ := s.Check(hard); r == solver.Unsat {
		t.Fatalf("hard query under a deadline: %v", r)
	}
	if waited := time.Since(begin); waited > 9*time.Second { // the timeout would give 10 s
		t.Errorf("the hard query ran %v under a 10 s timeout and a deadline 100 ms away", waited)
	}
	time.Sleep(150 * time.Millisecond)
	if r, err := s.Check(append(easy, tab.Lt(y, tab.Int(7)))); r != solver.Unknown || err != nil {
		t.Errorf("a check after the deadline = %v, %v; want Unknown, not started", r, err)
	}
	s.SetDeadline(time.Time{})
	if r, err := s.Check(append(easy, tab.Lt(y, tab.Int(8)))); r != solver.Sat || err != nil {
		t.Errorf("a check without a deadline = %v, %v", r, err)
	}
}
