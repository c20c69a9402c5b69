package engine

import (
	"testing"

	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
)

// BenchmarkMSE builds AQS's head tree at depth 12 after its one-guard
// change by MSE from the base tree, decoded as the cache gives it: what an
// analysis with the base tree cached pays to explore.
func BenchmarkMSE(b *testing.B) {
	newZ3 := func(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }
	t := &testing.T{}
	base := loadFile(t, "../testdata/bench/aqs.scxml")
	head := loadFile(t, "../testdata/versions/aqs/k_guard_changed.scxml")
	opts := Options{MaxDepth: 12, Jobs: 1}
	set, err := Explore(base, opts, newZ3)
	if err != nil {
		b.Fatal(err)
	}
	enc, err := set.MarshalBinary()
	if err != nil {
		b.Fatal(err)
	}
	decoded, err := DecodeSET(base, enc)
	if err != nil {
		b.Fatal(err)
	}
	updated := updatedBetween(base, head)
	b.ResetTimer()
	for range b.N {
		mse, err := ExploreMSE(head, decoded, updated, Renames{}, opts, newZ3)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(mse.Stats.Reused), "copied")
	}
}
