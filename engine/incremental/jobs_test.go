package incremental_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/vocab"
)

// TestJobsGiveTheSameAnalysis analyses changes of the benchmark models by
// MSE, DSE and full exploration with one, two and three workers per
// exploration: the trees (encoded, but for the time they took), the tests
// and the whole result are byte for byte the same.
func TestJobsGiveTheSameAnalysis(t *testing.T) {
	for _, tc := range []struct {
		base, head string
		depth      int
	}{
		{"../../testdata/bench/aqs.scxml", "../../testdata/versions/aqs/k_guard_changed.scxml", 8},
		{"../../testdata/bench/accs.scxml", "../../testdata/versions/accs/k_guard_changed.scxml", 7},
		{"../../testdata/bench/aqs.scxml", "../../testdata/versions/aqs/k_action_changed.scxml", 8},
	} {
		base, head := loadFile(t, tc.base), loadFile(t, tc.head)
		for _, strategy := range []vocab.Strategy{vocab.StrategyMSE, vocab.StrategyDSE, vocab.StrategyFull} {
			var want []byte
			for _, jobs := range []int{1, 2, 3} {
				res, err := incremental.Analyze(context.Background(), base, head, incremental.Request{Strategy: strategy,
					Engine: engine.Options{MaxDepth: tc.depth, Jobs: jobs}, Solver: newZ3})
				if err != nil {
					t.Fatalf("%s, %s, %d workers: %v", tc.head, strategy, jobs, err)
				}
				got := analysisBytes(t, res)
				if want == nil {
					want = got
				} else if !bytes.Equal(got, want) {
					t.Errorf("%s, %s: %d workers give another analysis than one", tc.head, strategy, jobs)
				}
			}
		}
	}
}

// analysisBytes is everything an analysis computed, but the time it took.
func analysisBytes(t *testing.T, res *incremental.Result) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, set := range []*engine.SET{res.BaseSet, res.HeadSet, res.WholeSet} {
		if set == nil {
			continue
		}
		set.Stats.Ms = 0
		enc, err := set.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		b.Write(enc)
	}
	res.Base.Ms, res.Head.Ms = 0, 0
	js, err := json.Marshal([]any{res.Strategy, res.StrategyReason, res.Changes, res.Impact, res.Base, res.Head,
		res.ReusedStates, res.NewStates, res.SolverCalls, res.SolverUnknown, res.Tests, res.TestsPartial, res.TestDelta,
		res.NewlyUnreachable, res.NewlyReachable, res.NewlyTransient, res.ConfirmedBy, res.BoundsHit,
		res.Invariants, res.OutputsLost, res.Nondeterminism, res.NondeterminismPartial, res.BaseTests, res.HeadTests})
	if err != nil {
		t.Fatal(err)
	}
	b.Write(js)
	return b.Bytes()
}
