package z3

import (
	"math/rand"
	"testing"

	"github.com/setbot/setbot/solver"
)

// BenchmarkCheck measures checks per second on small linear conjunctions
// over 3 to 6 integer variables:
//   - pool: 5 to 10 conjuncts drawn at random from a fixed set of 200 atoms;
//   - fresh: 5 to 10 new atoms for every check (a growing Table);
//   - path: path conditions of a random walk in a tree (each check extends
//     a prefix of the previous conjunction by one atom, up to 10 conjuncts),
//     as an executor's feasibility checks do.
func BenchmarkCheck(b *testing.B) {
	report := func(b *testing.B) {
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "checks/s")
	}
	pool := func(tab *solver.Table, rnd *rand.Rand) []solver.Term {
		var pool []solver.Term
		for i := 0; i < 200; i++ {
			pool = append(pool, linearAtom(tab, rnd, intVars(tab, "x", 3+i%4)))
		}
		return pool
	}
	b.Run("pool", func(b *testing.B) {
		tab := solver.NewTable()
		rnd := rand.New(rand.NewSource(1))
		p := pool(tab, rnd)
		s := newSolver(b, tab)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if _, err := s.Check(conjunction(rnd, p)); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	b.Run("fresh", func(b *testing.B) {
		tab := solver.NewTable()
		rnd := rand.New(rand.NewSource(1))
		s := newSolver(b, tab)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			vars := intVars(tab, "x", 3+i%4)
			conj := make([]solver.Term, 5+rnd.Intn(6))
			for j := range conj {
				conj[j] = linearAtom(tab, rnd, vars)
			}
			if _, err := s.Check(conj); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	b.Run("path", func(b *testing.B) {
		tab := solver.NewTable()
		rnd := rand.New(rand.NewSource(1))
		vars := intVars(tab, "x", 6)
		s := newSolver(b, tab)
		var pc []solver.Term
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if len(pc) >= 10 || rnd.Intn(3) == 0 {
				pc = pc[:rnd.Intn(len(pc)+1)]
			}
			pc = append(pc, linearAtom(tab, rnd, vars[:3+rnd.Intn(4)]))
			r, err := s.Check(pc)
			if err != nil {
				b.Fatal(err)
			}
			if r != solver.Sat {
				pc = pc[:len(pc)-1]
			}
		}
		report(b)
	})
}
