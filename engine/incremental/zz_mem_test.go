package incremental_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/vocab"
)

func TestZZMem(t *testing.T) {
	base := loadFile(t, "../../testdata/bench/aqs.scxml")
	head := loadFile(t, "../../testdata/versions/aqs/k_guard_changed.scxml")
	r, err := incremental.Analyze(context.Background(), base, head, incremental.Request{Strategy: vocab.StrategyFull, Engine: engine.Options{MaxDepth: 12, Jobs: 1}, Solver: newZ3,
		Coverage: config.Default().Coverage, Analyses: incremental.CheckOutputs | incremental.CheckNondeterminism})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("live heap %d KB, %.2f KB per head state", ms.HeapAlloc/1024, float64(ms.HeapAlloc)/1024/float64(r.Head.States))
	runtime.KeepAlive(r)
}
