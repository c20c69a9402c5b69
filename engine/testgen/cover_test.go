package testgen

import (
	"context"
	"slices"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

// TestCoverIsTheGreedyChoice checks the coverage choice, which counts
// leaves of equal item sets once, against the plain greedy choice over all
// leaves (the first of the largest gains each round): the same leaves.
func TestCoverIsTheGreedyChoice(t *testing.T) {
	for _, path := range []string{"../../testdata/bench/accs.scxml", "../../testdata/bench/aqs.scxml", "../../examples/radio.scxml"} {
		m, err := load.File(context.Background(), path, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		set, err := engine.Explore(m, engine.Options{MaxDepth: 7}, func(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) })
		if err != nil {
			t.Fatal(err)
		}
		leaves := set.Leaves()
		for _, c := range []vocab.Coverage{vocab.CoverageTransition, vocab.CoverageState} {
			got, err := choose(leaves, c)
			if err != nil {
				t.Fatal(err)
			}
			var items func(*engine.Node) []string
			if c == vocab.CoverageState {
				items = func(n *engine.Node) []string { return []string{n.State.Name} }
			} else {
				items = func(n *engine.Node) []string {
					var out []string
					for _, f := range n.In.Fired {
						out = append(out, f.T.Key)
					}
					return out
				}
			}
			want := greedy(leaves, items)
			if !slices.Equal(got, want) {
				t.Errorf("%s, %s coverage: %d leaves chosen, the plain greedy choice %d", path, c, len(got), len(want))
			}
			if len(want) < 2 {
				t.Errorf("%s, %s coverage: %d leaves: the check shows little", path, c, len(want))
			}
		}
	}
}

// greedy is the plain greedy set cover, every leaf a candidate.
func greedy(leaves []*engine.Node, items func(*engine.Node) []string) []*engine.Node {
	sets := make([]map[string]bool, len(leaves))
	for i, l := range leaves {
		sets[i] = make(map[string]bool)
		for _, x := range l.Path()[1:] {
			for _, it := range items(x) {
				sets[i][it] = true
			}
		}
	}
	covered := make(map[string]bool)
	var picked []int
	for {
		best, gain := -1, 0
		for i, s := range sets {
			n := 0
			for it := range s {
				if !covered[it] {
					n++
				}
			}
			if n > gain {
				best, gain = i, n
			}
		}
		if best < 0 {
			break
		}
		for it := range sets[best] {
			covered[it] = true
		}
		picked = append(picked, best)
	}
	slices.Sort(picked)
	out := make([]*engine.Node, len(picked))
	for i, p := range picked {
		out[i] = leaves[p]
	}
	return out
}
