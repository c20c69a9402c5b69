package config

import (
	"reflect"
	"testing"
	"time"

	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/vocab"
)

// TestCap: a bound beyond its ceiling gets the ceiling and is listed with
// what it asked; one within it is left alone; a default beyond a ceiling
// set below it gets the ceiling without being listed, as does no time
// bound at all.
func TestCap(t *testing.T) {
	cfg, err := Parse(FileName, hostile.GreedyConfig())
	if err != nil {
		t.Fatalf("the greedy configuration does not parse: %v", err)
	}
	b := cfg.Bounds
	b[vocab.BoundMicrosteps], b[vocab.BoundTime] = 50, int64(time.Hour)
	got := DefaultCeilings().Cap(b)
	want := []Capped{
		{Setting: "bounds.depth", Asked: "1000000000", Ceiling: "1000"},
		{Setting: "bounds.max_states", Asked: "1000000000000", Ceiling: "2000000"},
		{Setting: "bounds.loop_bound", Asked: "1000000000", Ceiling: "100"},
		{Setting: "bounds.max_mlm_states", Asked: "1000000000000", Ceiling: "100000"},
		{Setting: "bounds.timeout", Asked: "1h0m0s", Ceiling: "10m0s"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("capped\n%+v\nwant\n%+v", got, want)
	}
	wantBounds := vocab.Limits{vocab.BoundDepth: 1000, vocab.BoundStates: 2_000_000, vocab.BoundLoop: 100, vocab.BoundMicrosteps: 50,
		vocab.BoundMLMStates: 100_000, vocab.BoundMLMTransitions: 200_000, vocab.BoundTime: int64(10 * time.Minute)}
	if !reflect.DeepEqual(b, wantBounds) {
		t.Errorf("bounds %+v, want %+v", b, wantBounds)
	}

	// Defaults: nothing asked, nothing listed, but the ceilings hold.
	b = Default().Bounds
	mlmStates, states := vocab.BoundMLMStates.Default(), vocab.BoundStates.Default()
	low := Ceilings{Bounds: vocab.Limits{vocab.BoundMLMStates: mlmStates / 2, vocab.BoundTime: int64(time.Minute)}}
	if got := low.Cap(b); len(got) != 0 {
		t.Errorf("the defaults were listed as capped: %+v", got)
	}
	b[vocab.BoundStates] = states
	if got := (Ceilings{Bounds: vocab.Limits{vocab.BoundStates: states / 10}}).Cap(b); len(got) != 0 || b[vocab.BoundStates] != states/10 {
		t.Errorf("the default states bound was listed as capped (%+v) or not capped (%d)", got, b[vocab.BoundStates])
	}
	if b[vocab.BoundMLMStates] != mlmStates/2 || b.Duration(vocab.BoundTime) != time.Minute || b[vocab.BoundDepth] != vocab.BoundDepth.Default() {
		t.Errorf("bounds %+v, want the flattening and time ceilings and the other defaults", b)
	}
	if got := (Ceilings{}).Cap(b); len(got) != 0 || b[vocab.BoundMLMStates] != mlmStates/2 {
		t.Errorf("no ceilings capped %+v", got)
	}

	f := Functions{Timeout: 5 * time.Minute}
	if got := DefaultCeilings().CapCommands(&f); !reflect.DeepEqual(got, []Capped{{Setting: "functions.timeout", Asked: "5m0s", Ceiling: "1m0s"}}) || f.Timeout != time.Minute {
		t.Errorf("commands capped %+v to %v", got, f.Timeout)
	}
	f.Timeout = DefaultCommandTimeout
	if got := DefaultCeilings().CapCommands(&f); got != nil || f.Timeout != DefaultCommandTimeout {
		t.Errorf("a command limit within the ceiling was capped: %+v", got)
	}
}
