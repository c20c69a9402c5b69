package engine_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
)

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

func machine(t testing.TB, path string) *mlm.Machine {
	t.Helper()
	m, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	return m
}

func explore(t testing.TB, m *mlm.Machine, opts engine.Options) *engine.SET {
	t.Helper()
	set, err := engine.Explore(m, opts, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestTriangleTree checks Fig. 4 and Example 3 of
// Khalil and Dingel, Incremental symbolic execution, 2015: 14 paths, depth
// 5, T3 giving three symbolic states, T4's target subsumed by the root.
func TestTriangleTree(t *testing.T) {
	set := explore(t, machine(t, "../examples/triangle.scxml"), engine.Options{})
	st := set.Stats
	if st.Paths != 14 || st.Depth != 5 || st.States != 29 || len(set.Bounds) != 0 {
		t.Fatalf("stats %+v, bounds %v; want 14 paths, depth 5, 29 states, no bound", st, set.Bounds)
	}
	root := set.Nodes[0]
	if root.State.Name != "S0" || len(root.Children) != 1 {
		t.Fatalf("root %s with %d children", root.State.Name, len(root.Children))
	}
	ss2 := root.Children[0]
	var t3, t4 []*engine.Node
	for _, c := range ss2.Children {
		switch c.In.Fired[0].T.Key {
		case "S1_S0 checkPositiveSides [S1_S0:checkPositiveSides>S1_S3] S1_S3":
			t3 = append(t3, c)
		case "S1_S0 reset [S1:reset>S0] S0":
			t4 = append(t4, c)
		}
	}
	if len(t3) != 3 {
		t.Errorf("T3 gave %d symbolic states, want 3", len(t3))
	}
	if len(t4) != 1 || t4[0].Subsumed != root {
		t.Errorf("T4's target is not subsumed by the root")
	}
	x := set.Terms.String(ss2.Vals[0])
	if x != "x@1" {
		t.Errorf("a after T1 is %s, want x@1", x)
	}
}

// dump prints a tree completely, for comparing runs.
func dump(set *engine.SET) string {
	var b strings.Builder
	for _, n := range set.Nodes {
		fmt.Fprintf(&b, "%d %s d%d", n.ID, n.State.Name, n.Depth)
		if n.Parent != nil {
			fmt.Fprintf(&b, " <- %d %s", n.Parent.ID, n.In.Event)
			for _, f := range n.In.Fired {
				fmt.Fprintf(&b, " [%s #%s]", f.T.Key, f.Path)
			}
		}
		for _, v := range n.Vals {
			fmt.Fprintf(&b, " %s", set.Terms.String(v))
		}
		for _, c := range n.PC {
			fmt.Fprintf(&b, " {%s}", set.Terms.String(c))
		}
		if n.Subsumed != nil {
			fmt.Fprintf(&b, " subsumed-by %d", n.Subsumed.ID)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestDeterministic(t *testing.T) {
	for _, path := range []string{"../examples/triangle.scxml", "../examples/crossing.scxml", "../examples/radio.scxml"} {
		m := machine(t, path)
		a := dump(explore(t, m, engine.Options{MaxDepth: 6}))
		b := dump(explore(t, machine(t, path), engine.Options{MaxDepth: 6}))
		if a != b {
			t.Errorf("%s: two explorations differ", path)
		}
	}
}

func reached(set *engine.SET, state string) bool {
	for _, n := range set.Nodes {
		for _, a := range n.State.Atomic {
			if a == state {
				return true
			}
		}
	}
	return false
}

func TestDepthBoundAndUnreachable(t *testing.T) {
	m := machine(t, "testdata/depth7.scxml")
	six := explore(t, m, engine.Options{MaxDepth: 6})
	if reached(six, "S7") {
		t.Error("S7 reached within 6 events")
	}
	if len(six.Bounds) != 1 || six.Bounds[0].Bound != "depth" || six.Bounds[0].Limit != 6 {
		t.Errorf("bounds %+v, want the depth bound 6", six.Bounds)
	}
	seven := explore(t, m, engine.Options{MaxDepth: 7})
	if !reached(seven, "S7") {
		t.Error("S7 not reached within 7 events")
	}
	if reached(seven, "Never") {
		t.Error("a state behind an unsatisfiable guard was reached")
	}
	// set(v) in S0 keeps receiving inputs; subsumption must close it
	// rather than the depth bound: S0 nodes after set are subsumed.
	closed := 0
	for _, n := range seven.Nodes {
		if n.Subsumed != nil && n.State.Name == "S0" {
			closed++
		}
	}
	if closed == 0 {
		t.Error("the input loop on S0 never closed by subsumption")
	}
}

func TestLoopBound(t *testing.T) {
	set := explore(t, machine(t, "testdata/loop.scxml"), engine.Options{LoopBound: 4})
	if len(set.Bounds) != 1 || set.Bounds[0].Bound != "loop" || set.Bounds[0].Limit != 4 {
		t.Fatalf("bounds %+v, want the loop bound 4", set.Bounds)
	}
	// n = 0..4 each give one path through the loop.
	if got := len(set.Nodes[0].Children); got != 5 {
		t.Errorf("%d paths through the loop within the bound, want 5", got)
	}
}

// TestArrayBound: the fourth add outgrows log's declared bound of 3: that
// path is cut and counted as a hit of the array bound, with the bound as
// its limit, while the check after three adds still reaches end.
func TestArrayBound(t *testing.T) {
	set := explore(t, machine(t, "../model/mlm/testdata/features/growing_arrays.scxml"), engine.Options{MaxDepth: 6})
	want := []engine.BoundHit{{Bound: "array", Limit: 3, Count: 1}}
	if !reflect.DeepEqual(set.Bounds, want) {
		t.Fatalf("bounds %+v, want %+v", set.Bounds, want)
	}
	if !reached(set, "end") {
		t.Error("end not reached: the check after three adds")
	}
	for _, n := range set.Nodes {
		if n.Depth > 4 {
			t.Errorf("node %d at depth %d: a fourth add went past the array bound", n.ID, n.Depth)
		}
	}
}

func TestStateAndTimeBounds(t *testing.T) {
	m := machine(t, "../examples/crossing.scxml")
	set := explore(t, m, engine.Options{MaxStates: 50})
	if len(set.Bounds) == 0 || set.Bounds[len(set.Bounds)-1].Bound != "states" || set.Stats.States > 50+20 {
		t.Errorf("bounds %+v with %d states; want the states bound to stop near 50", set.Bounds, set.Stats.States)
	}
	timed := explore(t, m, engine.Options{Timeout: 1})
	found := false
	for _, b := range timed.Bounds {
		found = found || b.Bound == "time"
	}
	if !found {
		t.Errorf("a 1ns budget did not cut the tree: %+v", timed.Bounds)
	}
}

// TestClosed checks that a closed system gets no input: the go events of
// twoticks.scxml set its timers, and without them the machine never moves,
// though it is explored (and encoded) like any other.
func TestClosed(t *testing.T) {
	m := machine(t, "testdata/twoticks.scxml")
	open := explore(t, m, engine.Options{MaxDepth: 4})
	closed := explore(t, m, engine.Options{MaxDepth: 4, Closed: true})
	if len(open.Nodes) < 2 {
		t.Fatalf("the open machine takes no input: %d nodes", len(open.Nodes))
	}
	if len(closed.Nodes) != 1 {
		t.Fatalf("the closed machine has %d nodes, want the root alone:\n%s", len(closed.Nodes), closed.Dump())
	}
	roundTrip(t, closed)
}

// TestSolverTimeoutFromBudget: without a solver timeout of its own, one
// query is bounded by the exploration's whole budget, which is otherwise
// checked only between states.
func TestSolverTimeoutFromBudget(t *testing.T) {
	if got := (engine.Options{Timeout: 3 * time.Second}).WithDefaults().SolverTimeout; got != 3*time.Second {
		t.Errorf("solver timeout %v, want the 3s budget", got)
	}
	if got := (engine.Options{Timeout: 3 * time.Second, SolverTimeout: time.Second}).WithDefaults().SolverTimeout; got != time.Second {
		t.Errorf("solver timeout %v, want the 1s given", got)
	}
	if got := (engine.Options{}).WithDefaults().SolverTimeout; got != engine.DefaultSolverTimeout {
		t.Errorf("solver timeout without a budget %v, want the default %v", got, engine.DefaultSolverTimeout)
	}
}

// TestNoSolverStartedUnasked: an exploration whose checks the engine's own
// layers answer (ACCS at depth 10: bounds, differences, models it builds)
// starts no solver, with one worker or two, and builds the same tree as
// one that had its solver from the start.
func TestNoSolverStartedUnasked(t *testing.T) {
	m := machine(t, "../testdata/bench/accs.scxml")
	want := explore(t, m, engine.Options{MaxDepth: 10, Jobs: 1})
	for _, jobs := range []int{1, 2} {
		var started atomic.Int32 // a worker starts its solver on its own goroutine
		set, err := engine.Explore(m, engine.Options{MaxDepth: 10, Jobs: jobs}, func(tab *solver.Table) (solver.Solver, error) {
			started.Add(1)
			return newZ3(tab)
		})
		if err != nil {
			t.Fatal(err)
		}
		if set.Stats.SolverCalls != 0 || set.Stats.States != want.Stats.States {
			t.Fatalf("--jobs %d: %d solver calls, %d states; want 0 and %d", jobs, set.Stats.SolverCalls, set.Stats.States, want.Stats.States)
		}
		if n := started.Load(); n != 0 {
			t.Errorf("--jobs %d: %d solvers started, want none", jobs, n)
		}
	}
}
