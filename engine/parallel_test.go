package engine_test

import (
	"bytes"
	"testing"

	"github.com/setbot/setbot/engine"
)

// encoded is set's encoding without the time it took, which is all that
// may differ between two explorations of one model under one set of
// bounds.
func encoded(t *testing.T, set *engine.SET) []byte {
	t.Helper()
	set.Stats.Ms = 0
	b, err := set.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestJobsGiveTheSameTree explores models with one, two and three workers:
// the trees are byte for byte the same, term table, statistics (solver
// calls included) and bounds hit too. The levels of these trees are wide
// enough for the workers to expand them.
func TestJobsGiveTheSameTree(t *testing.T) {
	for _, tc := range []struct {
		path string
		opts engine.Options
	}{
		{"../testdata/bench/aqs.scxml", engine.Options{MaxDepth: 10}},
		{"../testdata/bench/accs.scxml", engine.Options{MaxDepth: 9}},
		{"../testdata/bench/lgs.scxml", engine.Options{}},
		{"../testdata/bench/aqs.scxml", engine.Options{MaxDepth: 12, MaxStates: 3000}}, // cut within a level
		{"../examples/triangle.scxml", engine.Options{}},
		{"../examples/radio.scxml", engine.Options{}},
		{"../examples/crossing.scxml", engine.Options{}},
		{"testdata/depth7.scxml", engine.Options{}},
		{"testdata/twoticks.scxml", engine.Options{}},
		{"testdata/loop.scxml", engine.Options{}},
		{"../model/mlm/testdata/features/cancel.scxml", engine.Options{MaxDepth: 6}},
		{"../model/mlm/testdata/features/strings.scxml", engine.Options{MaxDepth: 4}},
		{"../model/mlm/testdata/features/decimals.scxml", engine.Options{MaxDepth: 4}},
		{"../model/mlm/testdata/features/functions.scxml", engine.Options{MaxDepth: 5}},
		{"../model/mlm/testdata/features/blackbox.scxml", engine.Options{MaxDepth: 5}},
		{"testdata/cancel_invoke.scxml", engine.Options{}},
		{"testdata/wide_blackbox/wide_blackbox.scxml", engine.Options{MaxDepth: 3}},
	} {
		m := machine(t, tc.path)
		one := explore(t, m, tc.opts)
		want, dump := encoded(t, one), one.Dump()
		for _, jobs := range []int{2, 3} {
			opts := tc.opts
			opts.Jobs = jobs
			got := explore(t, m, opts)
			if got.Dump() != dump {
				t.Errorf("%s with %d workers: the tree differs from one worker's", tc.path, jobs)
				continue
			}
			if !bytes.Equal(encoded(t, got), want) {
				t.Errorf("%s with %d workers: the encoding differs from one worker's (states %d, solver calls %d, want %d; terms %d, want %d)",
					tc.path, jobs, got.Stats.States, got.Stats.SolverCalls, one.Stats.SolverCalls, got.Terms.Len(), one.Terms.Len())
			}
		}
	}
}

// TestJobsCancelAHardQuery is TestCancelInterruptsAHardQuery with the
// query on a worker: the exploration stops when canceled, with
// ErrCanceled.
func TestJobsCancelAHardQuery(t *testing.T) {
	cancelHardQuery(t, "testdata/fermat_wide.scxml", engine.Options{MaxDepth: 2, Jobs: 2})
}
