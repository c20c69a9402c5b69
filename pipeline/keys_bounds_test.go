package pipeline

import (
	"context"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/vocab"
)

// TestSetKeyAsWritten checks that a tree's cache key is made of the parts,
// in the words, that keys have always been written in (docs/config.md,
// "Bounds"): the bounds table derives the key, and a cache filled by an
// earlier build must still be found by this one's options.
func TestSetKeyAsWritten(t *testing.T) {
	m, err := load.File(context.Background(), "../examples/triangle.scxml", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		o    engine.Options
		want string
	}{
		{engine.Options{}.WithDefaults(), "depth=10 states=200000 loop=10 micro=100 time=timed"},
		{engine.Options{MaxDepth: 12, MaxStates: 5000, LoopBound: 3, MaxMicrosteps: 50, Time: vocab.TimeUntimed}, "depth=12 states=5000 loop=3 micro=50 time=untimed"},
	} {
		want := digest(engine.SemanticsVersion, buildVersion(), engine.EncodingVersion, m.Hash, tc.want)
		if got := setKey(m, tc.o); got != want {
			t.Errorf("key of %+v is not the one of %q", tc.o, tc.want)
		}
	}
}
