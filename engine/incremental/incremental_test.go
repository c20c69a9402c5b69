package incremental_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

func loadBytes(t testing.TB, name string, src []byte) *mlm.Machine {
	t.Helper()
	m, err := load.Bytes(context.Background(), name, src, load.Options{})
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	return m
}

func loadFile(t testing.TB, path string) *mlm.Machine {
	t.Helper()
	m, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	return m
}

func dump(set *engine.SET) string { return set.Dump() }

// suiteJSON is the path-coverage suite of set that follows base (nil:
// none), as JSON.
func suiteJSON(t testing.TB, set *engine.SET, base []*testgen.Test) string {
	t.Helper()
	tests, err := testgen.SuiteFrom(set, vocab.CoveragePath, newZ3, base)
	if err != nil {
		t.Fatal(err)
	}
	return testsJSON(t, tests)
}

func testsJSON(t testing.TB, tests []*testgen.Test) string {
	t.Helper()
	b, err := json.Marshal(tests)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameAsFull checks that MSE's tree and tests for head, from base's tree,
// are those of a full exploration of head: the head tests, which follow
// the base suite, are those that follow it on the full tree, and so are
// the suites without a base.
func sameAsFull(t testing.TB, name string, base, head *mlm.Machine, opts engine.Options) (*incremental.Result, bool) {
	t.Helper()
	res, err := incremental.Analyze(context.Background(), base, head,
		incremental.Request{Strategy: vocab.StrategyMSE, Engine: opts, Solver: newZ3})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	full, err := engine.Explore(head, opts, newZ3)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if a, b := dump(res.HeadSet), dump(full); a != b {
		t.Errorf("%s: MSE's tree differs from full SE's:\n%s", name, firstDifference(a, b))
		return res, false
	}
	// The base tests are named as the head names them (renames).
	if a, b := testsJSON(t, res.HeadTests), suiteJSON(t, full, testgen.Renamed(res.BaseTests, res.Diff.Key, res.Diff.State)); a != b {
		t.Errorf("%s: MSE's tests differ from full SE's", name)
		return res, false
	}
	if a, b := suiteJSON(t, res.HeadSet, nil), suiteJSON(t, full, nil); a != b {
		t.Errorf("%s: MSE's tests without a base suite differ from full SE's", name)
		return res, false
	}
	return res, true
}

func firstDifference(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  mse:  %s\n  full: %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(la), len(lb))
}

// TestTriangleT2Action is Fig. 5 of
// Khalil and Dingel, Incremental symbolic execution, 2015: T2's action changes. T2 is
// updated, nothing is impacted, auto picks MSE, DSE's tree is smaller, and
// MSE's tree is full SE's.
func TestTriangleT2Action(t *testing.T) {
	base := loadFile(t, "../../examples/triangle.scxml")
	head := loadFile(t, "testdata/triangle_t2_action.scxml")
	res, err := incremental.Analyze(context.Background(), base, head,
		incremental.Request{Engine: engine.Options{}, Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Strategy != vocab.StrategyMSE {
		t.Errorf("strategy %s (%s), want mse", res.Strategy, res.StrategyReason)
	}
	const t2 = "S1_S0 checkPositiveSides [S1_S0:checkPositiveSides>S1_S1] S1_S1"
	if len(res.Impact.Changed) != 1 || res.Impact.Changed[0] != t2 || len(res.Impact.Impacted) != 0 {
		t.Errorf("impact %+v, want T2 updated and nothing impacted", res.Impact)
	}
	if len(res.Changes) != 1 || res.Changes[0].Kind != "action_changed" || res.Changes[0].New.Line != 43 {
		t.Errorf("changes %+v", res.Changes)
	}
	if res.Tests != (incremental.Counts{Retained: 4, Changed: 10}) {
		t.Errorf("tests %+v, want 4 retained (paths avoiding T2) and 10 with a changed oracle", res.Tests)
	}
	dse, err := incremental.Analyze(context.Background(), base, head,
		incremental.Request{Strategy: vocab.StrategyDSE, Engine: engine.Options{}, Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if dse.Head.States >= res.Head.States {
		t.Errorf("DSE tree has %d states, full %d", dse.Head.States, res.Head.States)
	}
	sameAsFull(t, "triangle T2", base, head, engine.Options{})
}

// TestIdenticalMachineIsReused: reformatting changes nothing, and the base
// tree is reused whole.
func TestIdenticalMachineIsReused(t *testing.T) {
	base := loadFile(t, "../../examples/triangle.scxml")
	res, err := incremental.Analyze(context.Background(), base, loadFile(t, "../../examples/triangle.scxml"),
		incremental.Request{Engine: engine.Options{}, Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Strategy != vocab.StrategyReuse || len(res.Changes) != 0 || res.Tests.Retained != 14 || res.NewStates != 0 {
		t.Errorf("%s, %d changes, tests %+v, %d new states", res.Strategy, len(res.Changes), res.Tests, res.NewStates)
	}
}

// TestNewlyUnreachable: T5's guard can no longer hold, so S1_S2 is newly
// unreachable; MSE says so, and DSE says so only after confirming it. The
// head tests, which follow the base suite, are the same whichever strategy
// built the tree they are read on.
func TestNewlyUnreachable(t *testing.T) {
	base := loadFile(t, "../../examples/triangle.scxml")
	head := loadFile(t, "testdata/triangle_s2_off.scxml")
	var tests string
	for _, strategy := range []vocab.Strategy{vocab.StrategyAuto, vocab.StrategyDSE, vocab.StrategyFull} {
		res, err := incremental.Analyze(context.Background(), base, head,
			incremental.Request{Strategy: strategy, Engine: engine.Options{}, Solver: newZ3})
		if err != nil {
			t.Fatal(err)
		}
		if got := testsJSON(t, res.HeadTests) + testsJSON(t, res.TestDelta.New); tests == "" {
			tests = got
		} else if got != tests {
			t.Errorf("%s: the head tests differ from auto's", strategy)
		}
		if len(res.NewlyUnreachable) != 1 || res.NewlyUnreachable[0].State != "S1_S2" || res.NewlyUnreachable[0].Within != 0 {
			t.Errorf("%s: newly unreachable %+v, want S1_S2, proven", strategy, res.NewlyUnreachable)
		}
		if strategy == vocab.StrategyDSE && res.ConfirmedBy == "" {
			t.Errorf("DSE reported an unreachable state without confirming it")
		}
		if len(res.Changes) != 1 || res.Changes[0].Kind != "guard_changed" {
			t.Errorf("%s: changes %+v", strategy, res.Changes)
		}
	}
	sameAsFull(t, "triangle S1_S2 off", base, head, engine.Options{})
}

// TestEventlessRefactorIsTransient checks the refactor that used to block
// merges: S1_S2 classified at once by an eventless transition is still
// entered (and still sends its outputs), so it is not newly unreachable; it
// is newly transient, since the machine no longer rests in it. DSE, whose
// tree is partial, confirms the candidate on a whole tree.
func TestEventlessRefactorIsTransient(t *testing.T) {
	src, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(string(src), `<transition event="checkTriangleType" target="S1_S3">`, `<transition target="S1_S3">`, 1)
	base := loadFile(t, "../../examples/triangle.scxml")
	head := loadBytes(t, "eventless.scxml", []byte(doc))
	for _, strategy := range []vocab.Strategy{vocab.StrategyAuto, vocab.StrategyDSE, vocab.StrategyFull} {
		res, err := incremental.Analyze(context.Background(), base, head,
			incremental.Request{Strategy: strategy, Solver: newZ3})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.NewlyUnreachable) != 0 {
			t.Errorf("%s: newly unreachable %+v, want none", strategy, res.NewlyUnreachable)
		}
		if len(res.NewlyTransient) != 1 || res.NewlyTransient[0].State != "S1_S2" || res.NewlyTransient[0].Within != 0 {
			t.Errorf("%s: newly transient %+v, want S1_S2, proven", strategy, res.NewlyTransient)
		}
	}
}

// TestNewModelHasNoBase checks that a model with no base version reports
// its never-entered states as unreachable in a new model (NoBase), its
// transient states, and everything else as newly reachable.
func TestNewModelHasNoBase(t *testing.T) {
	const doc = `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="A">
  <state id="A"><transition event="go" target="B"/></state>
  <state id="B"><transition target="C"/></state>
  <state id="C"/>
  <state id="Never"/>
</scxml>`
	res, err := incremental.Analyze(context.Background(), nil, loadBytes(t, "new.scxml", []byte(doc)),
		incremental.Request{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	names := func(refs []incremental.StateRef) string {
		var out []string
		for _, r := range refs {
			out = append(out, r.State)
		}
		return strings.Join(out, " ")
	}
	if !res.NoBase {
		t.Error("NoBase is false for a model with no base")
	}
	if got := names(res.NewlyUnreachable); got != "Never" {
		t.Errorf("unreachable %q, want Never", got)
	}
	if got := names(res.NewlyTransient); got != "B" {
		t.Errorf("transient %q, want B", got)
	}
	if got := names(res.NewlyReachable); got != "A B C" {
		t.Errorf("reachable %q, want A B C", got)
	}
}
