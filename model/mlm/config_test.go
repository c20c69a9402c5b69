package mlm

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestUnderWalksAgree: under's two walks, by the sources and by the
// active states, find the same states in the same order, on random
// configurations (each active state's ancestors active) and random sets
// of sources of models with compound, parallel and history states.
func TestUnderWalksAgree(t *testing.T) {
	paths, _ := filepath.Glob("testdata/features/*.scxml")
	rng := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for _, path := range paths {
		m, errs := scxml.ReadFile(source.NewFileSet(), path, scxml.Options{})
		if len(errs) > 0 {
			continue // a feature model that is an error on purpose
		}
		lay := newLayout(m)
		for range 50 {
			c := lay.newConfig()
			for _, s := range lay.states {
				if s.IsAtomic() && rng.IntN(3) == 0 {
					for a := s; a != nil && a.Kind != model.Root; a = a.Parent {
						c.set(a, true)
					}
				}
			}
			var sources []int
			for i := range lay.states {
				if rng.IntN(2) == 0 {
					sources = append(sources, i)
				}
			}
			byActive, bySources := c.activeUnder(sources), c.sourcesUnder(sources)
			if !slices.Equal(byActive, bySources) {
				t.Fatalf("%s: sources %v: by the active states %v, by the sources %v", path, sources, stateIDs(byActive), stateIDs(bySources))
			}
			checked += len(byActive)
		}
	}
	if checked == 0 {
		t.Fatal("no configuration had a state under a source")
	}
}

func stateIDs(states []*model.State) []string {
	out := make([]string, len(states))
	for i, s := range states {
		out[i] = s.ID
	}
	return out
}
