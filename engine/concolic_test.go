package engine_test

import (
	"slices"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// nonlinearUnknown is Z3 that answers "unknown" to every check with a
// product of two variables, as a solver does on non-linear arithmetic it
// cannot decide (or within its timeout); it still finds models.
type nonlinearUnknown struct {
	solver.Solver
	tab *solver.Table
}

func (s nonlinearUnknown) Check(conj []solver.Term) (solver.Result, error) {
	for _, c := range conj {
		if s.nonlinear(c) {
			return solver.Unknown, nil
		}
	}
	return s.Solver.Check(conj)
}

func (s nonlinearUnknown) nonlinear(x solver.Term) bool {
	a, b, c := s.tab.Args(x)
	if s.tab.Op(x) == solver.OpMul && !s.tab.IsConst(a) && !s.tab.IsConst(b) {
		return true
	}
	for _, y := range []solver.Term{a, b, c} {
		if y != 0 && s.nonlinear(y) {
			return true
		}
	}
	return false
}

func undecidingZ3(tab *solver.Table) (solver.Solver, error) {
	z, err := newZ3(tab)
	return nonlinearUnknown{z, tab}, err
}

// TestCollisionAvoidanceConcolic: on the collision-avoidance controller of
// Ahmadi and Dingel (ESEC/FSE 2019), whose guard into Mitigate is
// non-linear, a solver that cannot decide the guard still gets branch
// coverage: the executor takes concrete readings from a model of the path,
// follows the branch they take, and negates them to reach the other. Both
// outputs of Mitigate's if (steer and vibrate) are reached, the tree says
// it was concretised, and the generated tests replay.
func TestCollisionAvoidanceConcolic(t *testing.T) {
	m := machine(t, "testdata/collision/collision.scxml")
	set, err := engine.Explore(m, engine.Options{MaxDepth: 3}, undecidingZ3)
	if err != nil {
		t.Fatal(err)
	}
	concretised := false
	for _, b := range set.Bounds {
		concretised = concretised || b.Bound == vocab.BoundConcretised
	}
	if !concretised {
		t.Errorf("the tree does not say it was concretised: bounds %v", set.Bounds)
	}
	if got := outputsOf(set); !slices.Contains(got, "steer") || !slices.Contains(got, "vibrate") {
		t.Errorf("outputs %v, want steer and vibrate (both branches of Mitigate's if)", got)
	}
	if got := firedOrigins(set); !slices.Contains(got, "Warn:lidarMsg>Mitigate") || !slices.Contains(got, "Warn:lidarMsg>Idle") {
		t.Errorf("fired %v, want both of Warn's transitions", got)
	}
	tests, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != set.Stats.Paths {
		t.Errorf("%d tests for %d paths", len(tests), set.Stats.Paths)
	}
}

// TestCollisionAvoidanceDecided: with a solver that decides the guard,
// nothing is concretised.
func TestCollisionAvoidanceDecided(t *testing.T) {
	set := explore(t, machine(t, "testdata/collision/collision.scxml"), engine.Options{MaxDepth: 3})
	for _, b := range set.Bounds {
		if b.Bound == vocab.BoundConcretised {
			t.Errorf("concretised with a solver that decides: %v", set.Bounds)
		}
	}
	if got := outputsOf(set); !slices.Contains(got, "steer") || !slices.Contains(got, "vibrate") {
		t.Errorf("outputs %v", got)
	}
}

// TestConcretisedPathsAreMarked: the paths below a concretised branch say
// so, and only those.
func TestConcretisedPathsAreMarked(t *testing.T) {
	m := machine(t, "testdata/collision/collision.scxml")
	set, err := engine.Explore(m, engine.Options{MaxDepth: 3}, undecidingZ3)
	if err != nil {
		t.Fatal(err)
	}
	marked, mitigate := 0, 0
	for _, n := range set.Nodes {
		if n.State.Name == "Mitigate" {
			mitigate++
			if !engine.Concretised(set, n) {
				t.Errorf("node %d reaches Mitigate through the non-linear guard but is not marked concretised", n.ID)
			}
		}
		if engine.Concretised(set, n) {
			marked++
		}
		if n.Depth <= 1 && engine.Concretised(set, n) {
			t.Errorf("node %d at depth %d is marked, but no branch above it is non-linear", n.ID, n.Depth)
		}
	}
	if mitigate == 0 || marked == 0 {
		t.Errorf("%d nodes in Mitigate, %d marked", mitigate, marked)
	}
}

// TestPinnedGuard: on a path pinned to concrete values, a guard the solver
// leaves unknown is decided with those values, as a branch is. Kept
// unknown, B's guard v * v > 50 stood on the path the if's then-branch
// pinned to a p with p * p < 50, where it is false: the tree had a path to
// C that no input takes, and test generation, whose solver decides the
// path, failed on it ("could not be solved (unsat)").
func TestPinnedGuard(t *testing.T) {
	m := machine(t, "testdata/pinned_guard.scxml")
	set, err := engine.Explore(m, engine.Options{MaxDepth: 2}, undecidingZ3)
	if err != nil {
		t.Fatal(err)
	}
	big := varIndex(t, set, "big")
	for _, n := range set.Nodes {
		if n.State.Name == "C" && set.Terms.String(n.Vals[big]) != "0" {
			t.Errorf("the path to C %v took the if's then-branch, where v * v < 50", n.PC)
		}
	}
	tests, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) != set.Stats.Paths {
		t.Errorf("%d tests for %d paths", len(tests), set.Stats.Paths)
	}
}
