package incremental_test

import (
	"encoding/json"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// TestCachedTrees checks that trees and suites handed in (as the cache
// does) are used as they are: the head tree is not explored again, and
// the result is the one computed from scratch.
func TestCachedTrees(t *testing.T) {
	base := loadFile(t, "../../examples/triangle.scxml")
	head := loadFile(t, "testdata/triangle_s2_off.scxml")
	opts := incremental.Options{Engine: engine.Options{}, Solver: newZ3}
	first, err := incremental.Analyze(incremental.Version{Machine: base}, incremental.Version{Machine: head}, opts)
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
	second, err := incremental.Analyze(
		incremental.Version{Machine: base, Set: first.BaseSet, Tests: first.BaseTests},
		incremental.Version{Machine: head, Set: first.HeadSet, Tests: first.HeadTests}, opts)
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
	r, err := incremental.AnalyzeNew(incremental.Version{Machine: head}, incremental.Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Strategy != vocab.StrategyFull || r.Tests.New == 0 || r.Tests.New != len(r.HeadTests) || len(r.TestDelta.New) != r.Tests.New {
		t.Errorf("strategy %s, %d new tests of %d", r.Strategy, r.Tests.New, len(r.HeadTests))
	}
	if len(r.NewlyUnreachable) == 0 || r.NewlyUnreachable[0].Line == 0 {
		t.Errorf("newly unreachable %+v; want the state the change cut off, with its line", r.NewlyUnreachable)
	}
	whole, err := incremental.AnalyzeNew(incremental.Version{Machine: full}, incremental.Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if len(whole.NewlyUnreachable) != 0 || len(whole.NewlyReachable) == 0 {
		t.Errorf("the triangle reaches every state; got unreachable %+v", whole.NewlyUnreachable)
	}
	again, err := incremental.AnalyzeNew(incremental.Version{Machine: full, Set: whole.HeadSet, Tests: whole.HeadTests}, incremental.Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if again.Strategy != vocab.StrategyCached || again.SolverCalls != 0 || again.Tests.New != whole.Tests.New {
		t.Errorf("cached: strategy %s, %d solver calls, %d tests", again.Strategy, again.SolverCalls, again.Tests.New)
	}
}
