package config

import (
	"maps"
	"reflect"
	"testing"
	"time"

	"github.com/setbot/setbot/vocab"
)

func TestDefault(t *testing.T) {
	want := &Config{
		Models:   []string{"**/*.scxml"},
		Strategy: "auto",
		Coverage: "transition",
		Time:     "timed",
		Bounds: vocab.Limits{vocab.BoundDepth: 10, vocab.BoundStates: 200000, vocab.BoundLoop: 10, vocab.BoundMicrosteps: 100,
			vocab.BoundMLMStates: 10000, vocab.BoundMLMTransitions: 200000, vocab.BoundTime: 0},
		Gate: vocab.RuleActions{
			"unreachable_state":   "block",
			"transient_state":     "off",
			"invariant_violation": "block",
			"bound_hit":           "warn",
			"model_error":         "block",
			"runtime_error":       "warn",
			"output_lost":         "warn",
			"nondeterminism":      "warn",

			"model_refused":                "warn",
			"expected_unreachable_reached": "block",
			"new_model_unreachable":        "warn",
			"new_model_error":              "warn",
		},
		Functions: Functions{GrowRounds: 2, Timeout: 10 * time.Second},
	}
	if got := Default(); !reflect.DeepEqual(got, want) {
		t.Errorf("Default() = %+v, want %+v", got, want)
	}
	// Each call is a fresh value: changing one does not change the next.
	Default().Gate[vocab.RuleBoundHit] = vocab.ActionBlock
	if got := Default().Gate[vocab.RuleBoundHit]; got != vocab.ActionWarn {
		t.Errorf("Default() shares its gate: bound_hit = %q", got)
	}
}

func TestIsModel(t *testing.T) {
	c := Default()
	c.Models = []string{"**/*.scxml", "charts/*.json"}
	c.Ignore = []string{"vendor/**", "**/testdata/**", "**/*_old.scxml"}
	tests := []struct {
		path string
		want bool
	}{
		{"a.scxml", true}, // ** matches no directory at all
		{"models/radio.scxml", true},
		{"a/b/c/d.scxml", true},
		{"charts/x.json", true},
		{"charts/sub/x.json", false}, // * does not cross a /
		{"x.json", false},
		{"models/radio.scxml.bak", false},
		{"vendor/m.scxml", false},
		{"vendor/deep/m.scxml", false},
		{"a/testdata/m.scxml", false},
		{"testdata/m.scxml", false},
		{"models/radio_old.scxml", false},
		{"README.md", false},
	}
	for _, tt := range tests {
		if got := c.IsModel(tt.path); got != tt.want {
			t.Errorf("IsModel(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestIsModelNoModels(t *testing.T) {
	c := Default()
	c.Models = nil
	if c.IsModel("a.scxml") {
		t.Error("IsModel with no model globs matched")
	}
}

func TestFor(t *testing.T) {
	const src = `
strategy: mse
bounds: {depth: 8, timeout: 30s}
invariants: ["x >= 0"]
models_config:
  - match: "models/radio*.scxml"
    bounds: {depth: 12, loop_bound: 3}
    invariants: ["volume <= 10"]
    coverage: state
  - match: ["models/radio_fm.scxml", "legacy/**"]
    bounds: {depth: 1, timeout: 0}
    invariants: ["band != 0"]
    strategy: full
    time: untimed
  - match: "models/**"
    bounds: {}
    invariants: [true]
`
	c, err := Parse(FileName, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	base := bounds(vocab.Limits{vocab.BoundDepth: 8, vocab.BoundTime: int64(30 * time.Second)})
	tests := []struct {
		path string
		want ModelConfig
	}{
		{"other.scxml", ModelConfig{
			Strategy: "mse", Coverage: "transition", Time: "timed", Bounds: base,
			Invariants: []string{"x >= 0"},
		}},
		{"models/radio_am.scxml", ModelConfig{ // rules 0 and 2
			Strategy: "mse", Coverage: "state", Time: "timed",
			Bounds:     bounds(vocab.Limits{vocab.BoundDepth: 12, vocab.BoundLoop: 3, vocab.BoundTime: int64(30 * time.Second)}),
			Invariants: []string{"x >= 0", "volume <= 10", "true"},
		}},
		{"models/radio_fm.scxml", ModelConfig{ // rules 0, 1 and 2: explicit zeros override, absent keys do not
			Strategy: "full", Coverage: "state", Time: "untimed",
			Bounds:     bounds(vocab.Limits{vocab.BoundDepth: 1, vocab.BoundLoop: 3, vocab.BoundTime: 0}),
			Invariants: []string{"x >= 0", "volume <= 10", "band != 0", "true"},
		}},
		{"legacy/a/b.scxml", ModelConfig{ // rule 1 by its second glob
			Strategy: "full", Coverage: "transition", Time: "untimed",
			Bounds:     bounds(vocab.Limits{vocab.BoundDepth: 1}),
			Invariants: []string{"x >= 0", "band != 0"},
		}},
	}
	for _, tt := range tests {
		if got := c.For(tt.path); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("For(%q) =\n%+v, want\n%+v", tt.path, got, tt.want)
		}
	}
}

// For must not let one model's invariants leak into the configuration or another model's.
func TestForDoesNotAlias(t *testing.T) {
	c := Default()
	c.Invariants = make([]string, 1, 10)
	c.Invariants[0] = "a"
	c.PerModel = []ModelRule{
		{Match: []string{"x"}, Invariants: []string{"b"}},
		{Match: []string{"y"}, Invariants: []string{"c"}},
	}
	x, y := c.For("x"), c.For("y")
	if !reflect.DeepEqual(x.Invariants, []string{"a", "b"}) || !reflect.DeepEqual(y.Invariants, []string{"a", "c"}) {
		t.Errorf("For(x).Invariants = %q, For(y).Invariants = %q", x.Invariants, y.Invariants)
	}
	x.Invariants[0] = "changed"
	if c.Invariants[0] != "a" {
		t.Error("For returned the configuration's own invariants slice")
	}
}

func TestRulesIsACopy(t *testing.T) {
	c := Default()
	r := c.Rules()
	r[vocab.RuleModelError] = vocab.ActionOff
	if c.Gate[vocab.RuleModelError] != vocab.ActionBlock {
		t.Error("Rules returned the gate itself")
	}
}

// bounds returns the default bounds with those l sets.
func bounds(l vocab.Limits) vocab.Limits {
	out := vocab.DefaultLimits()
	maps.Copy(out, l)
	return out
}
