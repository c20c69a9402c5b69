package config

import (
	"reflect"
	"testing"
	"time"

	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/mlm"
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
	b.MaxMicrosteps, b.Timeout = 50, time.Hour
	got := DefaultCeilings().Cap(&b)
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
	wantBounds := Bounds{Depth: 1000, MaxStates: 2_000_000, LoopBound: 100, MaxMicrosteps: 50, MaxMLMStates: 100_000, Timeout: 10 * time.Minute}
	if b != wantBounds {
		t.Errorf("bounds %+v, want %+v", b, wantBounds)
	}

	// Defaults: nothing asked, nothing listed, but the ceilings hold.
	b = Default().Bounds
	low := Ceilings{Bounds: Bounds{MaxMLMStates: mlm.DefaultMaxStates / 2, Timeout: time.Minute}}
	if got := low.Cap(&b); len(got) != 0 {
		t.Errorf("the defaults were listed as capped: %+v", got)
	}
	b.MaxStates = DefaultMaxStates
	if got := (Ceilings{Bounds: Bounds{MaxStates: DefaultMaxStates / 10}}).Cap(&b); len(got) != 0 || b.MaxStates != DefaultMaxStates/10 {
		t.Errorf("the default states bound was listed as capped (%+v) or not capped (%d)", got, b.MaxStates)
	}
	if b.MaxMLMStates != mlm.DefaultMaxStates/2 || b.Timeout != time.Minute || b.Depth != DefaultDepth {
		t.Errorf("bounds %+v, want the flattening and time ceilings and the other defaults", b)
	}
	if got := (Ceilings{}).Cap(&b); len(got) != 0 || b.MaxMLMStates != mlm.DefaultMaxStates/2 {
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
