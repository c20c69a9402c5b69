package testgen_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

func flatten(name string, src []byte) (*mlm.Machine, error) {
	m, err := load.Bytes(context.Background(), name, src, load.Options{})
	return m, err
}

// simArgs converts a test's values for the simulator; the tests only
// carry int64 and bool.
func simArgs(args map[string]any) map[string]sim.Value {
	out, err := sim.ArgsOf(args)
	if err != nil {
		panic(err)
	}
	return out
}

// replay runs a test on the concrete simulator and compares every step
// with the test's oracle.
func replay(m *mlm.Machine, tc *testgen.Test) error {
	s, _, err := sim.New(m, sim.Options{})
	if err != nil {
		return fmt.Errorf("start: %w", err)
	}
	for i, st := range tc.Steps {
		ev, err := st.Input()
		if err != nil {
			return fmt.Errorf("step %d %s: %w", i+1, st.Event, err)
		}
		got, err := s.StepAt(ev, st.At)
		if err != nil {
			return fmt.Errorf("step %d %s: %w", i+1, st.Event, err)
		}
		var fired []testgen.Fired
		for _, f := range got.Fired {
			fired = append(fired, testgen.Fired{Key: f.Key, Path: f.Path})
		}
		if !reflect.DeepEqual(fired, st.Fired) && !(len(fired) == 0 && len(st.Fired) == 0) {
			return fmt.Errorf("step %d %s fired %v, the test expects %v", i+1, st.Event, fired, st.Fired)
		}
		if len(got.Outputs) != len(st.Outputs) {
			return fmt.Errorf("step %d %s sent %v, the test expects %v", i+1, st.Event, got.Outputs, st.Outputs)
		}
		for j, o := range got.Outputs {
			want := st.Outputs[j]
			if o.Event != want.Event || o.Target != want.Target || !reflect.DeepEqual(o.Args, simArgs(want.Args)) {
				return fmt.Errorf("step %d output %d is %v, the test expects %+v", i+1, j, o, want)
			}
		}
		if !reflect.DeepEqual(got.Config, st.Config) {
			return fmt.Errorf("step %d ends in %v, the test expects %v", i+1, got.Config, st.Config)
		}
	}
	if got := s.State().Atomic; !reflect.DeepEqual(got, tc.Final) {
		return fmt.Errorf("final configuration %v, the test expects %v", got, tc.Final)
	}
	return nil
}

func checkSuite(t *testing.T, name string, m *mlm.Machine, opts engine.Options) int {
	t.Helper()
	set, err := engine.Explore(m, opts, newZ3)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	tests, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(tests) != set.Stats.Paths {
		t.Errorf("%s: %d tests for %d paths", name, len(tests), set.Stats.Paths)
	}
	for _, tc := range tests {
		if err := replay(m, tc); err != nil {
			t.Errorf("%s: test %s (%s) does not replay: %v", name, tc.ID, strings.Join(tc.Identity, " / "), err)
			return len(tests)
		}
	}
	return len(tests)
}

// TestTestsReplayOnExamples: every generated test of every example and
// feature model replays on the simulator and meets its own oracle.
func TestTestsReplayOnExamples(t *testing.T) {
	paths, _ := filepath.Glob("../../examples/*.scxml")
	features, _ := filepath.Glob("../../model/mlm/testdata/features/*.scxml")
	for _, p := range append(paths, features...) {
		mach, err := load.File(context.Background(), p, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkSuite(t, p, mach, engine.Options{MaxDepth: 6})
	}
}
