package incremental_test

import (
	"flag"
	"fmt"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/internal/modelgen"
)

var pairs = flag.Int("pairs", 0, "how many (model, change) pairs the differential test runs (0: a CI-sized default)")

// TestDifferential generates random models and random changes of every
// class, and checks that MSE's tree and tests are full SE's, that DSE
// explores every updated and impacted transition full SE takes, and that
// diffmap classifies the change as what it is.
func TestDifferential(t *testing.T) {
	n := *pairs
	if n == 0 {
		n = 300
		if testing.Short() {
			n = 60
		}
	}
	opts := engine.Options{MaxDepth: 3, MaxStates: 2000}
	runs, classified := 0, 0
	byKind := make(map[modelgen.Kind]int)
	for i := 0; runs < n && i < 4*n; i++ {
		seed := int64(i/len(modelgen.Kinds) + 1)
		kind := modelgen.Kinds[i%len(modelgen.Kinds)]
		gopts := modelgen.Options{Parallel: seed%3 == 0, History: seed%4 == 1, Internal: seed%2 == 0,
			Timers: seed%5 == 0, Loops: seed%3 == 1, Unused: int(seed % 2)}
		src := modelgen.Generate(seed, gopts)
		out, ch, ok := modelgen.Mutate(src, kind, seed)
		if !ok {
			continue
		}
		runs++
		byKind[kind]++
		name := fmt.Sprintf("seed %d %s %s", seed, ch.Kind, ch.Subject)
		base, head := loadBytes(t, "base.scxml", src), loadBytes(t, "head.scxml", out)
		res, same := sameAsFull(t, name, base, head, opts)
		if !same {
			t.Logf("base:\n%s\nhead:\n%s", src, out)
			continue
		}
		found := false
		for _, c := range res.Changes {
			if c.Kind == ch.Kind && c.Subject == ch.Subject {
				found = true
			}
		}
		if found {
			classified++
		} else {
			t.Errorf("%s: diffmap reports %+v", name, res.Changes)
		}
		checkDSE(t, name, res, head, opts)
	}
	if runs < n/2 {
		t.Errorf("only %d pairs could be generated", runs)
	}
	for _, k := range modelgen.Kinds {
		if byKind[k] == 0 {
			t.Errorf("no change of kind %s was tested", k)
		}
	}
	t.Logf("%d (model, change) pairs, %d classified exactly; per kind %v", runs, classified, byKind)
}

// checkDSE: every updated or impacted transition that full SE fires, DSE
// fires too.
func checkDSE(t *testing.T, name string, res *incremental.Result, head interface{}, opts engine.Options) {
	t.Helper()
	interest := make(map[string]bool)
	for _, k := range append(append([]string(nil), res.Impact.Changed...), res.Impact.Impacted...) {
		interest[k] = true
	}
	dse, err := engine.ExploreDSE(res.HeadSet.Machine, interest, opts, newZ3)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	fired := func(set *engine.SET) map[string]bool {
		out := make(map[string]bool)
		for _, n := range set.Nodes {
			if n.In == nil {
				continue
			}
			for _, f := range n.In.Fired {
				if interest[f.T.Key] {
					out[f.T.Key] = true
				}
			}
		}
		return out
	}
	full, partial := fired(res.HeadSet), fired(dse)
	for k := range full {
		if !partial[k] {
			t.Errorf("%s: DSE never fires %s, which full SE fires", name, k)
		}
	}
}
