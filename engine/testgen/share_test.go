package testgen_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/vocab"
)

// TestStepsAreShared checks that a suite holds each step once per node and
// values, not once per test: the tests through a node whose step into it
// has the same arguments and outputs share that step's maps. A node keeps
// the steps of its last few value combinations (4), so only nodes with at
// most that many are checked.
func TestStepsAreShared(t *testing.T) {
	for _, path := range []string{"../../examples/triangle.scxml", "../../examples/radio.scxml"} {
		m, err := load.File(context.Background(), path, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		set, err := engine.Explore(m, engine.Options{MaxDepth: 6}, newZ3)
		if err != nil {
			t.Fatal(err)
		}
		tests, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
		if err != nil {
			t.Fatal(err)
		}
		// maps[node][step JSON] holds the argument maps of the steps.
		maps := make(map[*engine.Node]map[string]map[uintptr]bool)
		steps := 0
		for _, tc := range tests {
			for i, x := range tc.Leaf.Path()[1:] {
				st := tc.Steps[i]
				b, err := json.Marshal(st)
				if err != nil {
					t.Fatal(err)
				}
				if maps[x] == nil {
					maps[x] = make(map[string]map[uintptr]bool)
				}
				if maps[x][string(b)] == nil {
					maps[x][string(b)] = make(map[uintptr]bool)
				}
				maps[x][string(b)][reflect.ValueOf(st.Args).Pointer()] = true
				steps++
			}
		}
		held := 0
		for x, byStep := range maps {
			for st, ptrs := range byStep {
				held += len(ptrs)
				if len(byStep) <= 4 && len(ptrs) != 1 {
					t.Errorf("%s: the step into node %d is held %d times: %s", path, x.ID, len(ptrs), st)
				}
			}
		}
		t.Logf("%s: %d steps held for %d steps of %d tests", path, held, steps, len(tests))
	}
}
