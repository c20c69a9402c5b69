package testgen

import (
	"slices"
	"strings"
)

// Renamed returns the tests of a suite named as a version that renamed
// states names them: the fired transitions by key (the new key of an old
// one), the configurations by state (the new id of an old one), and the
// identity and ID that follow from the keys. A test that no rename
// touches is returned as it is; the others are copies. Compare judges
// the renamed suite of the base version, so that a test through a
// renamed state keeps its identity.
func Renamed(tests []*Test, key, state func(string) string) []*Test {
	out := make([]*Test, len(tests))
	for i, t := range tests {
		out[i] = renamedTest(t, key, state)
	}
	return out
}

func renamedTest(t *Test, key, state func(string) string) *Test {
	configs := func(ids []string) ([]string, bool) {
		var out []string
		for i, id := range ids {
			if to := state(id); to != id && out == nil {
				out = slices.Clone(ids[:i])
			}
			if out != nil {
				out = append(out, state(id))
			}
		}
		if out == nil {
			return ids, false
		}
		slices.Sort(out)
		return out, true
	}
	var steps []Step // nil while nothing is renamed
	for i, st := range t.Steps {
		h, changed := st, false
		for j, f := range st.Fired {
			if k := key(f.Key); k != f.Key {
				if !changed {
					h.Fired, changed = slices.Clone(st.Fired), true
				}
				h.Fired[j].Key = k
			}
		}
		var c bool
		h.Config, c = configs(st.Config)
		changed = changed || c
		if changed && steps == nil {
			steps = slices.Clone(t.Steps[:i])
		}
		if steps != nil {
			steps = append(steps, h)
		}
	}
	final, c := configs(t.Final)
	if steps == nil && !c {
		return t
	}
	out := *t
	out.Final = final
	if steps != nil {
		out.Steps = steps
		// What the identity says beyond the fired transitions (which
		// of several timers fired) stays.
		out.Identity = make([]string, len(steps))
		for i, st := range steps {
			old := t.Steps[i]
			out.Identity[i] = stepIdentity(st.Event, st.Fired) + strings.TrimPrefix(t.Identity[i], stepIdentity(old.Event, old.Fired))
		}
		out.ID = testID(out.Identity)
	}
	return &out
}
