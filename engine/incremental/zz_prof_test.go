package incremental_test

import (
	"context"
	"os"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"

	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

type zzTrees struct {
	m     *mlm.Machine
	set   *engine.SET
	tests []*testgen.Test
}

func (b *zzTrees) Tree(m *mlm.Machine) (*engine.SET, []*testgen.Test) {
	if m.Hash == b.m.Hash {
		return b.set, b.tests
	}
	return nil, nil
}
func (b *zzTrees) KeepTree(*mlm.Machine, *engine.SET, []*testgen.Test) {}
func (b *zzTrees) KeepSuite(*mlm.Machine, []*testgen.Test)             {}

func TestZZProf(t *testing.T) {
	base := loadFile(t, "../../testdata/bench/aqs.scxml")
	head := loadFile(t, "../../testdata/versions/aqs/k_guard_changed.scxml")
	opts := engine.Options{MaxDepth: 12, Jobs: 1}
	run := func(s vocab.Strategy, trees incremental.Trees) (*incremental.Result, time.Duration) {
		start := time.Now()
		n := 0
		count := func(tab *solver.Table) (solver.Solver, error) { n++; return newZ3(tab) }
		defer func() { t.Logf("%s: %d solvers", s, n) }()
		r, err := incremental.Analyze(context.Background(), base, head, incremental.Request{Strategy: s, Engine: opts, Solver: count,
			Coverage: config.Default().Coverage, Analyses: incremental.CheckOutputs | incremental.CheckNondeterminism, Trees: trees})
		if err != nil {
			t.Fatal(err)
		}
		return r, time.Since(start)
	}
	r, _ := run(vocab.StrategyMSE, nil)
	warm := &zzTrees{m: base, set: r.BaseSet, tests: r.BaseTests}
	for _, s := range []vocab.Strategy{vocab.StrategyMSE, vocab.StrategyFull} {
		f, _ := os.Create("/tmp/prof-" + string(s) + ".out")
		pprof.StartCPUProfile(f)
		var tot time.Duration
		for i := 0; i < 20; i++ {
			c0 := zzCPU()
			run(s, warm)
			tot += zzCPU() - c0
		}
		pprof.StopCPUProfile()
		f.Close()
		t.Logf("%s: %v per run", s, tot/20)
	}
}

func zzCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
