package z3

import (
	"fmt"
	"math/rand"
	"runtime"
	"testing"

	"github.com/setbot/setbot/solver"
)

// usage returns Z3's estimate of its allocated memory and the live Go heap.
func usage() (z3, heap uint64) {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return Allocated(), ms.HeapAlloc
}

const mb = 1 << 20

// flat fails if the usage grew by more than slack after the warm-up. (The
// Z3 estimate is synchronised across threads in steps of about 100 kB, and
// it follows a saw-tooth as Z3 solvers are replaced.)
func flat(t *testing.T, what string, warm, end, slack uint64) {
	t.Helper()
	t.Logf("%s: %.2f MB after warm-up, %.2f MB at the end", what, float64(warm)/mb, float64(end)/mb)
	if end > warm+slack {
		t.Errorf("%s grew from %.2f MB to %.2f MB", what, float64(warm)/mb, float64(end)/mb)
	}
}

// query runs one check or, every third time, a model query.
func query(t *testing.T, s *Solver, i int, conj, vars []solver.Term) {
	t.Helper()
	var err error
	if i%3 == 0 {
		_, _, err = s.Model(conj, vars)
	} else {
		_, err = s.Check(conj)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestLeakFixedTable runs many queries on random conjunctions over a fixed
// Table: once its terms are translated, nothing may grow (models, model
// values and translations' intermediate terms must be released).
func TestLeakFixedTable(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	const warmup, total = 2000, 10000
	tab := solver.NewTable()
	rnd := rand.New(rand.NewSource(11))
	vars := intVars(tab, "x", 6)
	var pool []solver.Term
	for i := 0; i < 300; i++ {
		a := linearAtom(tab, rnd, vars[:3+i%4])
		switch {
		case i%50 == 0: // a few nonlinear ones
			a = tab.Le(tab.Add(tab.Mul(vars[i%6], vars[(i+3)%6]), tab.Rem(vars[(i+1)%6], vars[(i+2)%6])), tab.Int(int64(i%7)))
		case i%10 == 0: // division and remainder by constants
			a = tab.Le(tab.Add(tab.Div(vars[i%6], tab.Int(int64(2+i%5))), tab.Rem(vars[(i+1)%6], tab.Int(int64(-3-i%4)))), tab.Int(int64(i%7)))
		}
		pool = append(pool, a)
	}
	s := newSolver(t, tab)
	var z3Warm, heapWarm uint64
	for i := 0; i < total; i++ {
		if i == warmup {
			z3Warm, heapWarm = usage()
		}
		query(t, s, i, conjunction(rnd, pool), vars)
	}
	z3End, heapEnd := usage()
	flat(t, "Z3 memory", z3Warm, z3End, 4*mb)
	flat(t, "Go heap", heapWarm, heapEnd, 2*mb)
}

// TestLeakGrowingTable runs many queries on new terms (new constants, and
// variable names from a large set): translations must be released when
// the memo is dropped.
func TestLeakGrowingTable(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	const warmup, total = 2000, 10000
	tab := solver.NewTable()
	rnd := rand.New(rand.NewSource(12))
	s := newSolver(t, tab)
	s.limit = 2000 // drop the memo every few dozen queries
	var z3Warm uint64
	for i := 0; i < total; i++ {
		if i == warmup {
			z3Warm, _ = usage()
		}
		vars := intVars(tab, fmt.Sprintf("p%d@", i%500), 4)
		conj := make([]solver.Term, 5+rnd.Intn(6))
		for j := range conj {
			conj[j] = tab.Le(tab.Add(tab.Mul(tab.Int(rnd.Int63n(1e6)+2), vars[j%4]), vars[(j+1)%4]), tab.Int(rnd.Int63n(1e9)))
		}
		query(t, s, i, conj, vars)
	}
	z3End, _ := usage()
	// The Go heap grows with the Table; the solver's share of it is bounded
	// by the memo limit.
	flat(t, "Z3 memory", z3Warm, z3End, 4*mb)
	if len(s.memo) > s.limit+100 {
		t.Errorf("memo holds %d terms, limit %d", len(s.memo), s.limit)
	}
}

// TestLeakSolvers creates and closes many solvers.
func TestLeakSolvers(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	const warmup, total = 50, 500
	tab := solver.NewTable()
	rnd := rand.New(rand.NewSource(13))
	vars := intVars(tab, "x", 4)
	var z3Warm, heapWarm uint64
	for i := 0; i < total; i++ {
		if i == warmup {
			z3Warm, heapWarm = usage()
		}
		s, err := New(tab)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 3; j++ {
			conj := []solver.Term{linearAtom(tab, rnd, vars), linearAtom(tab, rnd, vars), linearAtom(tab, rnd, vars)}
			query(t, s, j, conj, vars)
		}
		s.Close()
	}
	z3End, heapEnd := usage()
	flat(t, "Z3 memory", z3Warm, z3End, 2*mb)
	flat(t, "Go heap", heapWarm, heapEnd, 2*mb)
}

// TestLeakStringModels reads many string model values, escaped ones
// character by character: the intermediate terms of the decoding must be
// released. The strings are new ones (Z3 shares equal terms, which would
// hide a leaked reference), and the memo is dropped now and then.
func TestLeakStringModels(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	const warmup, total = 500, 2500
	tab := solver.NewTable()
	u := tab.Var("u", solver.StringSort)
	s := newSolver(t, tab)
	s.limit = 500
	var z3Warm uint64
	for i := 0; i < total; i++ {
		if i == warmup {
			z3Warm, _ = usage()
		}
		want := fmt.Sprintf("é\\%d日", i)
		r, m, err := s.Model([]solver.Term{tab.Eq(u, tab.Str(want))}, []solver.Term{u})
		if err != nil || r != solver.Sat || m[u].Str != want {
			t.Fatalf("Model(u == %q) = %v, %v, %v", want, r, m, err)
		}
	}
	z3End, _ := usage()
	flat(t, "Z3 memory", z3Warm, z3End, mb)
}
