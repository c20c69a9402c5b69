package incremental_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// TestCachedTrees checks that trees and suites handed in (as the cache
// does) are used as they are: the head tree is not explored again, and
// the result is the one computed from scratch.
func TestCachedTrees(t *testing.T) {
	base := loadFile(t, "../../examples/triangle.scxml")
	head := loadFile(t, "testdata/triangle_s2_off.scxml")
	trees := memTrees{}
	opts := incremental.Request{Engine: engine.Options{}, Solver: newZ3, Trees: trees}
	first, err := incremental.Analyze(context.Background(), base, head, opts)
	if err != nil {
		t.Fatal(err)
	}
	if first.BaseTests == nil || first.HeadTests == nil {
		t.Fatal("the suites are not returned for caching")
	}
	explored := 0
	opts.Solver = func(tab *solver.Table) (solver.Solver, error) {
		explored++
		return newZ3(tab)
	}
	if trees[base.Hash].set != first.BaseSet || trees[head.Hash].set != first.HeadSet || trees[head.Hash].tests == nil {
		t.Fatal("the analysis did not keep the trees it built, with their suites")
	}
	second, err := incremental.Analyze(context.Background(), base, head, opts)
	if err != nil {
		t.Fatal(err)
	}
	if second.Strategy != vocab.StrategyCached || second.SolverCalls != 0 || second.NewStates != 0 {
		t.Errorf("strategy %s, %d solver calls, %d new states; want cached, 0, 0", second.Strategy, second.SolverCalls, second.NewStates)
	}
	if second.HeadSet != first.HeadSet {
		t.Error("the cached head tree was not used")
	}
	if explored > 1 {
		t.Errorf("%d solvers created; only the test delta's one was expected", explored)
	}
	a, b := first, second
	for _, f := range []func(r *incremental.Result) any{
		func(r *incremental.Result) any { return r.Changes },
		func(r *incremental.Result) any { return r.Impact },
		func(r *incremental.Result) any { return r.TestDelta },
		func(r *incremental.Result) any { return r.NewlyUnreachable },
	} {
		x, _ := json.Marshal(f(a))
		y, _ := json.Marshal(f(b))
		if string(x) != string(y) {
			t.Errorf("cached result differs:\n%s\nwant\n%s", y, x)
		}
	}
	if len(second.NewlyUnreachable) == 0 {
		t.Error("the change makes a state unreachable; nothing reported")
	}
}

// TestNewModel checks the analysis of a model with no base version: all
// tests new, reached states newly reachable, a state nothing enters
// reported unreachable with its line.
func TestNewModel(t *testing.T) {
	head := loadFile(t, "testdata/triangle_s2_off.scxml")
	full := loadFile(t, "../../examples/triangle.scxml")
	r, err := incremental.Analyze(context.Background(), nil, head, incremental.Request{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Strategy != vocab.StrategyFull || r.Tests.New == 0 || r.Tests.New != len(r.HeadTests) || len(r.TestDelta.New) != r.Tests.New {
		t.Errorf("strategy %s, %d new tests of %d", r.Strategy, r.Tests.New, len(r.HeadTests))
	}
	if len(r.NewlyUnreachable) == 0 || r.NewlyUnreachable[0].Line == 0 {
		t.Errorf("newly unreachable %+v; want the state the change cut off, with its line", r.NewlyUnreachable)
	}
	whole, err := incremental.Analyze(context.Background(), nil, full, incremental.Request{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.NewlyUnreachable) != 0 || len(whole.NewlyReachable) == 0 {
		t.Errorf("the triangle reaches every state; got unreachable %+v", whole.NewlyUnreachable)
	}
	trees := memTrees{full.Hash: {whole.HeadSet, nil}}
	again, err := incremental.Analyze(context.Background(), nil, full, incremental.Request{Solver: newZ3, Trees: trees})
	if err != nil {
		t.Fatal(err)
	}
	if again.Strategy != vocab.StrategyCached || again.SolverCalls != 0 || again.Tests.New != whole.Tests.New {
		t.Errorf("cached: strategy %s, %d solver calls, %d tests", again.Strategy, again.SolverCalls, again.Tests.New)
	}
	if kept := trees[full.Hash]; kept.set != whole.HeadSet || len(kept.tests) != whole.Tests.New {
		t.Errorf("the suite of a tree that came without one was not kept: %d tests", len(kept.tests))
	}
}

// memTrees keeps trees in memory, by machine hash, as the cache does.
type memTrees map[string]struct {
	set   *engine.SET
	tests []*testgen.Test
}

func (m memTrees) Tree(x *mlm.Machine) (*engine.SET, []*testgen.Test) {
	t := m[x.Hash]
	return t.set, t.tests
}

func (m memTrees) KeepTree(x *mlm.Machine, set *engine.SET, tests []*testgen.Test) {
	m[x.Hash] = struct {
		set   *engine.SET
		tests []*testgen.Test
	}{set, tests}
}

func (m memTrees) KeepSuite(x *mlm.Machine, tests []*testgen.Test) {
	t := m[x.Hash]
	t.tests = tests
	m[x.Hash] = t
}
