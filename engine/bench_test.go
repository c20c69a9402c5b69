package engine_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
)

// BenchmarkExplore explores each benchmark model (testdata/bench) to depth
// 10 and reports symbolic states per second.
func BenchmarkExplore(b *testing.B) {
	paths, _ := filepath.Glob("../testdata/bench/*.scxml")
	for _, p := range paths {
		m := machine(&testing.T{}, p)
		b.Run(strings.TrimSuffix(filepath.Base(p), ".scxml"), func(b *testing.B) {
			var states int
			for i := 0; i < b.N; i++ {
				set, err := engine.Explore(m, engine.Options{MaxDepth: 10}, newZ3)
				if err != nil {
					b.Fatal(err)
				}
				states = set.Stats.States
			}
			b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
			b.ReportMetric(float64(states), "states")
		})
	}
}
