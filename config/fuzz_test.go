package config

import (
	"errors"
	"slices"
	"testing"

	"github.com/setbot/setbot/vocab"
)

// FuzzParse checks that Parse never panics, that every error carries a position in the file, and
// that whatever it accepts is a complete, valid configuration.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"# comment\n",
		"models: [\"**/*.scxml\"]\nignore: [vendor/**]\nstrategy: auto\ncoverage: path\n",
		"bounds: {depth: 10, max_states: 200000, loop_bound: 10, max_microsteps: 100, max_mlm_states: 0, timeout: 60s}\n",
		"invariants: [\"volume <= 10\"]\nmodels_config:\n  - match: \"models/radio*.scxml\"\n    bounds: {depth: 12}\n    invariants: [\"volume <= 10\"]\n    coverage: transition\n    strategy: full\n",
		"gate:\n  unreachable_state: block\n  invariant_violation: block\n  bound_hit: warn\n  model_error: off\nschedule: \"0 3 * * *\"\n",
		"bounds: &b {depth: 3}\nmodels_config: [{match: [a, b/**], bounds: *b}]\n",
		"modles: x\ngate: {bound_hit: maybe}\nbounds: {depth: -1, timeout: 60}\n",
		"a: 1\n---\nb: 2\n",
		"schedule: 'TZ=UTC'\n",
		"bounds:\n  depth: 1\n max_states: 2\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(FileName, data)
		if err != nil {
			if c != nil {
				t.Fatal("a Config along with an error")
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %q is not a non-empty ErrorList", err, err)
			}
			p := &parser{data: data}
			last, _ := p.position(len(data))
			for _, e := range list {
				if e.Pos.Filename != FileName || e.Pos.Line < 1 || e.Pos.Line > last || e.Pos.Column < 0 || e.Msg == "" {
					t.Fatalf("error without a position in the file (%d lines): %+v", last, e)
				}
			}
			return
		}
		switch {
		case !slices.Contains(vocab.Strategies, c.Strategy), !slices.Contains(vocab.Coverages, c.Coverage):
			t.Fatalf("invalid choice in %+v", c)
		case len(c.Gate) != len(gateRules):
			t.Fatalf("gate %v does not hold every rule", c.Gate)
		}
		for _, a := range c.Gate {
			if !slices.Contains(vocab.Actions, a) {
				t.Fatalf("invalid action in %v", c.Gate)
			}
		}
		for _, s := range vocab.Settings() {
			if v, ok := c.Bounds[s.Bound]; !ok || v < 0 {
				t.Fatalf("bound %s missing or negative in %+v", s.Bound, c.Bounds)
			}
		}
		for _, r := range c.PerModel {
			if len(r.Match) == 0 {
				t.Fatalf("rule %+v matches nothing", r)
			}
		}
		c.IsModel("models/a.scxml")
		c.For("models/a.scxml")
	})
}
