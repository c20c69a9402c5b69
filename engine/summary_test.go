package engine_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/sim"
)

// TestBlackBoxSubsumption: subsumption renames the results of black-box
// calls as it renames any variable, their rows staying in the renamed path
// condition. The tree of a loop over calls reaches exactly the MLM states
// that running every input sequence up to its depth on the simulator does,
// the simulator answering each call from the table.
func TestBlackBoxSubsumption(t *testing.T) {
	const depth = 4
	m := machine(t, "testdata/bbloop/bbloop.scxml")
	set := explore(t, m, engine.Options{MaxDepth: depth})
	if set.Stats.Subsumed == 0 {
		t.Fatal("no state subsumed: the test tests nothing")
	}
	inTree := map[string]bool{}
	for _, n := range set.Nodes {
		inTree[n.State.Name] = true
	}
	concrete := map[string]bool{}
	var run func(seq []int64)
	run = func(seq []int64) {
		s, start, err := sim.New(m, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		concrete[start.State] = true
		for _, k := range seq {
			step, err := s.StepAt(sim.Event{Name: "read", Args: map[string]sim.Value{"k": sim.IntValue(k)}}, nil)
			if err != nil {
				return // a read no row answers: the tree stops there too (the table bound)
			}
			concrete[step.State] = true
		}
		if len(seq) < depth {
			for k := int64(0); k <= 3; k++ {
				run(append(slices.Clone(seq), k))
			}
		}
	}
	run(nil)
	if !maps.Equal(inTree, concrete) {
		t.Errorf("the tree reaches %v, the simulator %v", slices.Sorted(maps.Keys(inTree)), slices.Sorted(maps.Keys(concrete)))
	}
	if !concrete["goal"] || !concrete["low"] {
		t.Errorf("the simulator reaches %v: the model does not test what it says", slices.Sorted(maps.Keys(concrete)))
	}
}
