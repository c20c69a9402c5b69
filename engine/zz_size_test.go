package engine_test

import (
	"testing"

	"github.com/setbot/setbot/engine"
)

func TestZZSize(t *testing.T) {
	m := machine(t, "../testdata/bench/aqs.scxml")
	set := explore(t, m, engine.Options{MaxDepth: 12, Jobs: 1})
	b, _ := set.MarshalBinary()
	t.Logf("%d states, %d bytes, %.0f bytes/state", set.Stats.States, len(b), float64(len(b))/float64(set.Stats.States))
}
