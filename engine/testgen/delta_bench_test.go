package testgen_test

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/vocab"
)

// BenchmarkCompare computes the test-suite delta from each benchmark
// model's path-coverage suite (depth 10) to that of some of its versions:
// go test -bench Compare ./engine/testgen. The trees and suites are built
// before the timer starts.
func BenchmarkCompare(b *testing.B) {
	for _, model := range []string{"accs", "aqs", "lgs"} {
		_, bt := benchSuite(b, filepath.Join("../../testdata/bench", model+".scxml"))
		for _, version := range []string{"k_action_changed", "k_guard_changed", "k_transition_removed"} {
			head, ht := benchSuite(b, filepath.Join("../../testdata/versions", model, version+".scxml"))
			b.Run(model+"/"+version, func(b *testing.B) {
				runtime.GC() // the garbage of building the trees is not Compare's
				b.ResetTimer()
				var d *testgen.Delta
				for i := 0; i < b.N; i++ {
					var err error
					if d, err = testgen.Compare(context.Background(), bt, ht, head); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(bt)), "tests")
				b.ReportMetric(float64(len(d.Retained)), "retained")
				b.ReportMetric(float64(len(d.Changed)), "changed")
				b.ReportMetric(float64(len(d.Obsolete)), "obsolete")
				b.ReportMetric(float64(len(d.New)), "new")
			})
		}
	}
}

// benchSuite explores the model at path with the default bounds and
// returns its tree and path-coverage suite.
func benchSuite(b testing.TB, path string) (*engine.SET, []*testgen.Test) {
	b.Helper()
	m, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		b.Fatal(err)
	}
	set, err := engine.Explore(m, engine.Options{}, newZ3)
	if err != nil {
		b.Fatal(err)
	}
	tests, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
	if err != nil {
		b.Fatal(err)
	}
	return set, tests
}
