package engine_test

import (
	"os"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/setbot/setbot/engine"
)

func TestZZExplore(t *testing.T) {
	m := machine(t, "../testdata/bench/aqs.scxml")
	f, _ := os.Create("/tmp/prof-exp.out")
	pprof.StartCPUProfile(f)
	for _, jobs := range []int{1, 2} {
		start := time.Now()
		set := explore(t, m, engine.Options{MaxDepth: 13, Jobs: jobs})
		t.Logf("jobs %d: %d states in %v", jobs, set.Stats.States, time.Since(start))
	}
	pprof.StopCPUProfile()
	f.Close()
}
