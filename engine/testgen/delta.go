package testgen

import (
	"reflect"

	"github.com/setbot/setbot/engine"
)

// Delta is how a test suite changed between two versions (seed 003):
// tests with the same identity and the same oracle are retained (and keep
// their values while those still drive the new path), those whose oracle
// changed are listed with their new oracle, tests of paths that are gone
// are obsolete, tests of new paths are new.
type Delta struct {
	Retained []*Test `json:"retained"`
	Changed  []*Test `json:"changed"`
	Obsolete []*Test `json:"obsolete"`
	New      []*Test `json:"new"`
}

// Compare computes the delta from the base suite to the suite of head, a
// tree whose leaves the head suite covers (path coverage). Tests that keep
// their identity are rebuilt from the base values when these still satisfy
// the head path, so that a retained test is the same test.
func Compare(base, head []*Test, headSet *engine.SET, newSolver engine.NewSolver) (*Delta, error) {
	byID := make(map[string]*Test, len(base))
	for _, t := range base {
		byID[t.ID] = t
	}
	g, err := NewGenerator(headSet, newSolver)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	d := &Delta{Retained: []*Test{}, Changed: []*Test{}, Obsolete: []*Test{}, New: []*Test{}}
	seen := make(map[string]bool)
	for _, h := range head {
		b, ok := byID[h.ID]
		if !ok {
			d.New = append(d.New, h)
			continue
		}
		seen[h.ID] = true
		kept, ok, err := g.Reuse(h.Leaf, b)
		if err != nil {
			return nil, err
		}
		if ok {
			h = kept
		}
		if sameOracle(b, h) {
			d.Retained = append(d.Retained, h)
		} else {
			d.Changed = append(d.Changed, h)
		}
	}
	for _, b := range base {
		if !seen[b.ID] {
			d.Obsolete = append(d.Obsolete, b)
		}
	}
	return d, nil
}

// sameOracle compares what two tests with the same identity expect.
func sameOracle(a, b *Test) bool {
	if !reflect.DeepEqual(a.Final, b.Final) || len(a.Steps) != len(b.Steps) {
		return false
	}
	for i := range a.Steps {
		x, y := a.Steps[i], b.Steps[i]
		if !reflect.DeepEqual(x.Args, y.Args) || !reflect.DeepEqual(x.Outputs, y.Outputs) || !reflect.DeepEqual(x.Config, y.Config) {
			return false
		}
	}
	return true
}
