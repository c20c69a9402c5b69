package testgen_test

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// counting returns a solver constructor that counts the models asked of
// the solvers it makes.
func counting(models *int) engine.NewSolver {
	return func(tab *solver.Table) (solver.Solver, error) {
		s, err := newZ3(tab)
		return countingSolver{s, models}, err
	}
}

type countingSolver struct {
	solver.Solver
	models *int
}

func (c countingSolver) Model(conj, vars []solver.Term) (solver.Result, map[solver.Term]solver.Value, error) {
	*c.models++
	return c.Solver.Model(conj, vars)
}

// withArgs returns a copy of tests where the first step of test id has the
// arguments args (the steps of a suite's tests are shared: none is
// written to).
func withArgs(t *testing.T, tests []*testgen.Test, id string, args map[string]any) []*testgen.Test {
	t.Helper()
	out := slices.Clone(tests)
	for i, tc := range out {
		if tc.ID != id {
			continue
		}
		c := *tc
		c.Steps = slices.Clone(tc.Steps)
		c.Steps[0].Args = args
		out[i] = &c
		return out
	}
	t.Fatalf("no test %s", id)
	return nil
}

// TestSuiteFromKeepsValues checks that a suite made from a base suite
// keeps the values of every base test of the same identity that still
// satisfy its path, without asking the solver, and solves the others.
func TestSuiteFromKeepsValues(t *testing.T) {
	src, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	m, set, base := suiteOf(t, "triangle.scxml", src, 6)
	find := func(key string) *testgen.Test {
		i := slices.IndexFunc(base, firesKey(key))
		if i < 0 {
			t.Fatalf("no test fires %s", key)
		}
		return base[i]
	}
	// Values the solver would not give, which still drive the first
	// test that finds a side not positive (T3) along its path (its guard's
	// decision path: the first two sides positive, the third not); and a
	// first test through T2 whose sides no longer are all positive.
	const triangleT3 = "S1_S0 checkPositiveSides [S1_S0:checkPositiveSides>S1_S3] S1_S3"
	kept, stale := find(triangleT3), find(triangleT2)
	edited := withArgs(t, base, kept.ID, map[string]any{"x": int64(5), "y": int64(3), "z": int64(-7)})
	edited = withArgs(t, edited, stale.ID, map[string]any{"x": int64(-1), "y": int64(2), "z": int64(2)})

	models := 0
	tests, err := testgen.SuiteFrom(set, vocab.CoveragePath, counting(&models), edited)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != len(base) {
		t.Fatalf("%d tests, want %d", len(tests), len(base))
	}
	for i, tc := range tests {
		if tc.ID != base[i].ID {
			t.Fatalf("test %d is %s, want %s", i, tc.ID, base[i].ID)
		}
		if err := replay(m, tc); err != nil {
			t.Errorf("test %s does not replay: %v", tc.ID, err)
		}
		switch x, y, z := sides(tc); tc.ID {
		case kept.ID:
			if x != 5 || y != 3 || z != -7 {
				t.Errorf("test %s sets sides (%d, %d, %d), want the base test's (5, 3, -7)", tc.ID, x, y, z)
			}
		case stale.ID:
			if x <= 0 {
				t.Errorf("test %s sets sides (%d, %d, %d): its base values, which no longer fire T2", tc.ID, x, y, z)
			}
		default:
			if !sameInputs(tc, edited[i]) {
				t.Errorf("test %s (%s) does not keep its base values", tc.ID, strings.Join(tc.Identity, " / "))
			}
		}
	}
	// The stale test is solved unless a recent solution satisfies it.
	if models > 1 {
		t.Errorf("%d models asked of the solver; at most the stale test's was needed", models)
	}
}

// TestSuiteFromChangedGuard derives the suite of a version whose guard
// tightened from the base suite: the tests of the same identity keep their
// values where these still satisfy the path, and only the others ask the
// solver.
func TestSuiteFromChangedGuard(t *testing.T) {
	src, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	_, _, base := suiteOf(t, "base.scxml", src, 6)
	head := apply(t, src, []edit{{`b + c &gt; a" target="S1_S2"`, `b + c &gt; a + a" target="S1_S2"`}})
	hm, hset, fresh := suiteOf(t, "head.scxml", head, 6)
	models := 0
	tests, err := testgen.SuiteFrom(hset, vocab.CoveragePath, counting(&models), base)
	if err != nil {
		t.Fatal(err)
	}
	byID := make(map[string]*testgen.Test)
	for _, b := range base {
		byID[b.ID] = b
	}
	kept, solved := 0, 0
	for i, tc := range tests {
		if tc.ID != fresh[i].ID || !slices.Equal(tc.Identity, fresh[i].Identity) {
			t.Fatalf("test %d is %s, the suite without a base has %s", i, tc.ID, fresh[i].ID)
		}
		if err := replay(hm, tc); err != nil {
			t.Errorf("test %s does not replay: %v", tc.ID, err)
		}
		b := byID[tc.ID]
		switch {
		case b != nil && follows(hm, b) == "":
			// The base values still drive the head along the path.
			kept++
			if !sameInputs(tc, b) {
				t.Errorf("test %s (%s) does not keep the base test's values", tc.ID, strings.Join(tc.Identity, " / "))
			}
		case b != nil:
			solved++
			if maps.Equal(tc.Steps[0].Args, b.Steps[0].Args) {
				t.Errorf("test %s keeps base values that no longer drive it along its path", tc.ID)
			}
		}
	}
	if kept == 0 || solved == 0 {
		t.Errorf("%d tests kept their values, %d were solved again: the change shows nothing", kept, solved)
	}
	if models > len(tests)-kept {
		t.Errorf("%d models asked for %d tests of which %d kept their values", models, len(tests), kept)
	}
	t.Logf("%d tests: %d kept their base values, %d of a base identity solved again; %d models asked", len(tests), kept, solved, models)
}

// TestCoverageSolvesOnlyChosen checks that state and transition coverage
// ask the solver only for the leaves they keep.
func TestCoverageSolvesOnlyChosen(t *testing.T) {
	src, err := os.ReadFile("../../examples/crossing.scxml")
	if err != nil {
		t.Fatal(err)
	}
	_, set, all := suiteOf(t, "crossing.scxml", src, 6)
	byID := make(map[string]bool)
	for _, tc := range all {
		byID[tc.ID] = true
	}
	for _, coverage := range []vocab.Coverage{vocab.CoverageState, vocab.CoverageTransition} {
		models := 0
		tests, err := testgen.Suite(set, coverage, counting(&models))
		if err != nil {
			t.Fatal(err)
		}
		if len(tests) == 0 || len(tests) >= len(all) {
			t.Fatalf("%s coverage keeps %d of %d paths", coverage, len(tests), len(all))
		}
		for _, tc := range tests {
			if !byID[tc.ID] {
				t.Errorf("%s coverage: test %s is no path's", coverage, tc.ID)
			}
		}
		if models > len(tests) {
			t.Errorf("%s coverage: %d models asked for %d tests", coverage, models, len(tests))
		}
		t.Logf("%s coverage: %d tests of %d paths, %d models asked", coverage, len(tests), len(all), models)
	}
}
