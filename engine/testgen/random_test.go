package testgen_test

import (
	"fmt"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/internal/modelgen"
)

// TestTestsReplayOnRandomModels is the same property over generated models.
func TestTestsReplayOnRandomModels(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 15
	}
	total := 0
	for seed := int64(1); seed <= int64(n); seed++ {
		opts := modelgen.Options{Parallel: seed%3 == 0, History: seed%4 == 0, Internal: seed%2 == 0,
			Timers: seed%5 == 0, Loops: seed%3 == 1, Values: seed%4 == 3}
		src := modelgen.Generate(seed, opts)
		m, err := flatten(fmt.Sprintf("gen%d.scxml", seed), src)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		total += checkSuite(t, fmt.Sprintf("seed %d", seed), m, engine.Options{MaxDepth: 4, MaxStates: 3000})
	}
	t.Logf("%d tests replayed on %d random models", total, n)
}
