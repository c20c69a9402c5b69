package incremental_test

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/internal/modelgen"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/mlm"
)

var pairs = flag.Int("pairs", 0, "how many (model, change) pairs the differential test runs (0: a CI-sized default)")

// TestDifferential generates random models and random changes of every
// class, and checks that MSE's tree and tests are full SE's, that DSE
// explores every updated and impacted transition full SE takes, that
// diffmap classifies the change as what it is, and that the test delta is
// what replaying the base tests on the head model says.
func TestDifferential(t *testing.T) {
	n := *pairs
	if n == 0 {
		n = 300
		if testing.Short() {
			n = 60
		}
	}
	opts := engine.Options{MaxDepth: 3, MaxStates: 2000}
	runs, classified, replayed := 0, 0, 0
	byKind := make(map[modelgen.Kind]int)
	for i := 0; runs < n && i < 4*n; i++ {
		seed := int64(i/len(modelgen.Kinds) + 1)
		kind := modelgen.Kinds[i%len(modelgen.Kinds)]
		gopts := modelgen.Options{Parallel: seed%3 == 0, History: seed%4 == 1, Internal: seed%2 == 0,
			Timers: seed%5 == 0, Loops: seed%3 == 1, Unused: int(seed % 2)}
		src := modelgen.Generate(seed, gopts)
		out, ch, ok := modelgen.Mutate(src, kind, seed)
		if !ok {
			continue
		}
		runs++
		byKind[kind]++
		name := fmt.Sprintf("seed %d %s %s", seed, ch.Kind, ch.Subject)
		base, head := loadBytes(t, "base.scxml", src), loadBytes(t, "head.scxml", out)
		res, same := sameAsFull(t, name, base, head, opts)
		if !same {
			t.Logf("base:\n%s\nhead:\n%s", src, out)
			continue
		}
		found := false
		for _, c := range res.Changes {
			if c.Kind == ch.Kind && c.Subject == ch.Subject {
				found = true
			}
		}
		if found {
			classified++
		} else {
			t.Errorf("%s: diffmap reports %+v", name, res.Changes)
		}
		checkDSE(t, name, res, head, opts)
		replayed += checkDelta(t, name, res.TestDelta, head)
	}
	if runs < n/2 {
		t.Errorf("only %d pairs could be generated", runs)
	}
	for _, k := range modelgen.Kinds {
		if byKind[k] == 0 {
			t.Errorf("no change of kind %s was tested", k)
		}
	}
	t.Logf("%d (model, change) pairs, %d classified exactly; per kind %v; %d base tests replayed", runs, classified, byKind, replayed)
}

// checkDSE: every updated or impacted transition that full SE fires, DSE
// fires too, DSE exploring fully what production gives it (those and the
// transitions they depend on).
func checkDSE(t *testing.T, name string, res *incremental.Result, head interface{}, opts engine.Options) {
	t.Helper()
	interest := make(map[string]bool)
	for _, k := range append(append([]string(nil), res.Impact.Changed...), res.Impact.Impacted...) {
		interest[k] = true
	}
	_, explored := incremental.ChangeImpact(res.Diff, res.BaseSet.Machine, res.HeadSet.Machine)
	dse, err := engine.ExploreDSE(res.HeadSet.Machine, explored, opts, newZ3)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	fired := func(set *engine.SET) map[string]bool {
		out := make(map[string]bool)
		for _, n := range set.Nodes {
			if n.In == nil {
				continue
			}
			for _, f := range n.In.Fired {
				if interest[f.T.Key] {
					out[f.T.Key] = true
				}
			}
		}
		return out
	}
	full, partial := fired(res.HeadSet), fired(dse)
	for k := range full {
		if !partial[k] {
			t.Errorf("%s: DSE never fires %s, which full SE fires", name, k)
		}
	}
}

// checkDelta: every test reported obsolete fails to follow its path on the
// head model, every retained or changed one follows it and meets its
// oracle there. It returns how many tests it replayed.
func checkDelta(t *testing.T, name string, d *testgen.Delta, head *mlm.Machine) int {
	t.Helper()
	for _, tc := range d.Obsolete {
		if off, _ := replayOn(head, tc); off == "" {
			t.Errorf("%s: obsolete test %s (%s) follows its path on the head model", name, tc.ID, strings.Join(tc.Identity, " / "))
		}
	}
	for class, tests := range map[string][]*testgen.Test{"retained": d.Retained, "changed": d.Changed} {
		for _, tc := range tests {
			if off, oracle := replayOn(head, tc); off != "" || oracle != "" {
				t.Errorf("%s: %s test %s (%s) does not replay on the head model: %s%s", name, class, tc.ID, strings.Join(tc.Identity, " / "), off, oracle)
			}
		}
	}
	return len(d.Obsolete) + len(d.Retained) + len(d.Changed)
}

// replayOn runs tc's inputs on m and says where they stop driving m along
// tc's path (off): a timer that is not pending, an event the path takes
// that is no input, an error, other transitions or decision paths. When
// they drive it to its end, oracle says where m's outputs or
// configurations first differ from tc's; both are empty when tc replays
// with its oracle.
func replayOn(m *mlm.Machine, tc *testgen.Test) (off, oracle string) {
	s, _, err := sim.New(m, sim.Options{})
	if err != nil {
		return err.Error(), ""
	}
	for i, st := range tc.Steps {
		ev := sim.Event{Name: st.Event}
		if st.Timer {
			if !slices.Contains(s.PendingTimers(), st.Event) {
				return fmt.Sprintf("step %d: timer %s is not pending", i+1, st.Event), ""
			}
		} else {
			if e := m.Event(st.Event); len(st.Fired) > 0 && (e == nil || e.Kinds&model.Input == 0) {
				return fmt.Sprintf("step %d: %s is not an input", i+1, st.Event), ""
			}
			ev.Args = simArgs(st.Args)
		}
		got, err := s.StepAt(ev, st.At)
		if err != nil {
			return fmt.Sprintf("step %d: %v", i+1, err), ""
		}
		fired := make([]testgen.Fired, len(got.Fired))
		for j, f := range got.Fired {
			fired[j] = testgen.Fired{Key: f.Key, Path: f.Path}
		}
		if !slices.Equal(fired, st.Fired) {
			return fmt.Sprintf("step %d fired %v, the test %v %s", i+1, fired, st.Fired, got.Discarded), ""
		}
		if oracle != "" {
			continue
		}
		outputs := make([]string, len(got.Outputs))
		for j, o := range got.Outputs {
			outputs[j] = o.String()
		}
		want := make([]string, len(st.Outputs))
		for j, o := range st.Outputs {
			want[j] = sim.Output{Event: o.Event, Target: o.Target, Args: simArgs(o.Args)}.String()
		}
		switch {
		case !slices.Equal(outputs, want):
			oracle = fmt.Sprintf("step %d sent %v, the test expects %v", i+1, outputs, want)
		case !slices.Equal(got.Config, st.Config):
			oracle = fmt.Sprintf("step %d ends in %v, the test expects %v", i+1, got.Config, st.Config)
		}
	}
	if got := s.State().Atomic; oracle == "" && !slices.Equal(got, tc.Final) {
		oracle = fmt.Sprintf("the test ends in %v, it expects %v", got, tc.Final)
	}
	return "", oracle
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
