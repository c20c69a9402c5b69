package testgen_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

// BenchmarkSuite generates the path-coverage suite of each benchmark
// model's tree (depth 10): go test -bench Suite ./engine/testgen.
func BenchmarkSuite(b *testing.B) {
	newZ3 := func(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }
	paths, _ := filepath.Glob("../../testdata/bench/*.scxml")
	for _, path := range paths {
		m, err := load.File(context.Background(), path, load.Options{})
		if err != nil {
			b.Fatal(err)
		}
		set, err := engine.Explore(m, engine.Options{}, newZ3)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(path), ".scxml"), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				tests, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(len(tests)), "tests")
			}
		})
	}
}
