package engine_test

import (
	"runtime"
	"testing"

	"github.com/setbot/setbot/engine"
)

func TestZZAlloc(t *testing.T) {
	m := machine(t, "../testdata/bench/aqs.scxml")
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	set := explore(t, m, engine.Options{MaxDepth: 12, Jobs: 1})
	runtime.ReadMemStats(&b)
	t.Logf("%d states: %.0f bytes, %.1f allocs per state; %d GCs", set.Stats.States, float64(b.TotalAlloc-a.TotalAlloc)/float64(set.Stats.States), float64(b.Mallocs-a.Mallocs)/float64(set.Stats.States), b.NumGC-a.NumGC)
}
