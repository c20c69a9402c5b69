package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
)

// TestSubsumptionIsTheFirstImpliedCandidate checks the index against its
// definition: every state is subsumed by the first earlier candidate of
// its canonical key whose condition its own implies (asked of every
// candidate, without the index), and becomes a candidate when there is
// none; so the index changes the cost of a tree, never the tree.
func TestSubsumptionIsTheFirstImpliedCandidate(t *testing.T) {
	for _, tc := range []struct {
		path  string
		depth int
	}{
		{"../testdata/bench/aqs.scxml", 8},
		{"../testdata/bench/accs.scxml", 8},
		{"../testdata/bench/lgs.scxml", 9},
		{"../examples/radio.scxml", 6},
		{"../examples/triangle.scxml", 10},
		{"testdata/impure.scxml", 3},
	} {
		m, err := load.File(context.Background(), tc.path, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		set, err := Explore(m, Options{MaxDepth: tc.depth}, func(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) })
		if err != nil {
			t.Fatal(err)
		}
		slv, err := z3.New(set.Terms)
		if err != nil {
			t.Fatal(err)
		}
		or := newOracle(set.Terms, slv, nil, nil)
		e := &explorer{x: &executor{tab: set.Terms, or: or}, canonVars: make(map[canonKey]solver.Term), renamed: make(map[renamedKey]solver.Term)}
		type cand struct {
			n  *Node
			pc []solver.Term
		}
		byKey := make(map[string][]cand)
		subsumed := 0
		for _, n := range set.Nodes { // in the order they were decided
			terms, pc := e.canonical(n)
			key := canonicalKey(n, terms)
			p := or.prepare(pc)
			var want *Node
			for _, c := range byKey[key] {
				if or.implies(p, c.pc) {
					want = c.n
					break
				}
			}
			if n.Subsumed != want {
				t.Fatalf("%s: node %d subsumed by %v, want %v", tc.path, n.ID, nodeID(n.Subsumed), nodeID(want))
			}
			if want == nil {
				byKey[key] = append(byKey[key], cand{n, pc})
			} else {
				subsumed++
			}
		}
		slv.Close()
		if subsumed == 0 {
			t.Errorf("%s: no state subsumed: the check checked nothing", tc.path)
		}
	}
}

func nodeID(n *Node) any {
	if n == nil {
		return "none"
	}
	return n.ID
}

// TestCopiedCanonicalForms checks what MSE relies on to import a copied
// node's canonical form rather than compute it: renaming commutes with
// importing. Every node MSE copies from a base tree (decoded, as from the
// cache) has the canonical form its own terms give, on one worker or two.
func TestCopiedCanonicalForms(t *testing.T) {
	newZ3 := func(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }
	for _, tc := range []struct {
		base, head string
		depth      int
	}{
		{"../testdata/bench/aqs.scxml", "../testdata/versions/aqs/k_guard_changed.scxml", 8},
		{"../testdata/bench/accs.scxml", "../testdata/versions/accs/k_guard_changed.scxml", 7},
		{"testdata/two_timers.scxml", "testdata/two_timers.scxml", 6},
		{"../examples/crossing.scxml", "../examples/crossing.scxml", 8},
	} {
		base, head := loadFile(t, tc.base), loadFile(t, tc.head)
		updated := updatedBetween(base, head)
		_, decoded := exploreAndDecode(t, base, Options{MaxDepth: tc.depth})
		for _, jobs := range []int{1, 2} {
			mse, err := ExploreMSE(head, decoded, updated, Renames{}, Options{MaxDepth: tc.depth, Jobs: jobs}, newZ3)
			if err != nil {
				t.Fatal(err)
			}
			e := &explorer{x: &executor{tab: mse.Terms, opts: mse.Options}, canonVars: make(map[canonKey]solver.Term), renamed: make(map[renamedKey]solver.Term)}
			e.x.or = newOracle(mse.Terms, nil, nil, nil)
			copied := 0
			for _, n := range mse.Nodes {
				if n.canon == nil {
					t.Fatalf("%s, %d workers: node %d has no canonical form", tc.head, jobs, n.ID)
				}
				if want := e.canonicalForm(n); !slices.Equal(want, n.canon) {
					t.Fatalf("%s, %d workers: node %d (reused %v) has canonical form %v, computed %v",
						tc.head, jobs, n.ID, n.Reused, n.canon, want)
				}
				if n.Reused {
					copied++
				}
			}
			if copied < len(mse.Nodes)/2 {
				t.Errorf("%s, %d workers: only %d of %d nodes copied: the check checked little", tc.head, jobs, copied, len(mse.Nodes))
			}
		}
	}
}

// exploreAndDecode explores m, and returns the tree and the tree its
// encoding decodes to, as a cache gives it back.
func exploreAndDecode(t *testing.T, m *mlm.Machine, opts Options) (set, decoded *SET) {
	t.Helper()
	set, err := Explore(m, opts, func(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) })
	if err != nil {
		t.Fatal(err)
	}
	enc, err := set.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if decoded, err = DecodeSET(m, enc); err != nil {
		t.Fatal(err)
	}
	return set, decoded
}

// updatedBetween is the keys of head's transitions that base lacks or has
// otherwise.
func updatedBetween(base, head *mlm.Machine) map[string]bool {
	updated := map[string]bool{}
	r := &reuser{}
	old := map[string]*mlm.Transition{}
	for _, tr := range base.Transitions {
		old[tr.Key] = tr
	}
	for _, tr := range head.Transitions {
		if o := old[tr.Key]; o == nil || !r.same(tr, o) {
			updated[tr.Key] = true
		}
	}
	return updated
}

// TestMSETimerSlots: where two timers of one event are pending, a step
// has a child per timer that can fire next. MSE executes the step when
// the change touches it, and must take each child's counterpart from the
// base child of the same timer slot: copying below the other one's gave
// the tree another path condition than a full exploration's.
func TestMSETimerSlots(t *testing.T) {
	newZ3 := func(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }
	base := loadFile(t, "testdata/mse/two_ticks_base.scxml")
	head := loadFile(t, "testdata/mse/two_ticks_head.scxml")
	opts := Options{MaxDepth: 6}
	full, err := Explore(head, opts, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	set, err := Explore(base, opts, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	for _, jobs := range []int{1, 2} {
		opts.Jobs = jobs
		mse, err := ExploreMSE(head, set, updatedBetween(base, head), Renames{}, opts, newZ3)
		if err != nil {
			t.Fatal(err)
		}
		if mse.Stats.Reused == 0 {
			t.Fatalf("%d workers: nothing copied: the test tests nothing", jobs)
		}
		if got, want := mse.Dump(), full.Dump(); got != want {
			t.Errorf("%d workers: MSE's tree differs from a full exploration's:\n%s", jobs, firstDiff(got, want))
		}
	}
}

// firstDiff shows the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("line %d:\n  got:  %s\n  want: %s", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

func loadFile(t *testing.T, path string) *mlm.Machine {
	t.Helper()
	m, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMSEKeepsBounds: MSE's tree is the full exploration's, bounds
// included. Where a bound cut paths inside a step (a loop, a call, a
// conversion), copying the step's children from the base counted none of
// the cuts, so the tree claimed more than it had explored; and the cut
// paths left no child whose trace could show that they processed a
// changed pair (cut_base.scxml: the step is cut wholly in the base, not
// at all in the head). On one worker or two, over a base in memory or
// decoded, and over an MSE tree as the base of another.
func TestMSEKeepsBounds(t *testing.T) {
	newZ3 := func(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }
	for _, tc := range []struct{ base, head string }{
		{"../model/mlm/testdata/features/conversions.scxml", "../model/mlm/testdata/features/conversions.scxml"},
		{"testdata/recursion12.scxml", "testdata/recursion12.scxml"},
		{"testdata/mse/loop_back.scxml", "testdata/mse/loop_back.scxml"},
		{"testdata/mse/cut_base.scxml", "testdata/mse/cut_head.scxml"},
	} {
		base, head := loadFile(t, tc.base), loadFile(t, tc.head)
		updated := updatedBetween(base, head)
		opts := Options{MaxDepth: 3}
		full, err := Explore(head, opts, newZ3)
		if err != nil {
			t.Fatal(err)
		}
		want, wantDump := sortedBounds(full), full.Dump()
		set, decoded := exploreAndDecode(t, base, opts)
		check := func(what string, got *SET) {
			t.Helper()
			if g := sortedBounds(got); !slices.Equal(g, want) {
				t.Errorf("%s, %s: MSE's bounds %v, a full exploration's %v", tc.head, what, g, want)
			}
			if d := got.Dump(); d != wantDump {
				t.Errorf("%s, %s: MSE's tree differs from a full exploration's:\n%s", tc.head, what, firstDiff(d, wantDump))
			}
		}
		for _, jobs := range []int{1, 2} {
			opts := opts
			opts.Jobs = jobs
			for _, b := range []struct {
				name string
				set  *SET
			}{{"in memory", set}, {"decoded", decoded}} {
				what := fmt.Sprintf("%d workers, base %s", jobs, b.name)
				mse, err := ExploreMSE(head, b.set, updated, Renames{}, opts, newZ3)
				if err != nil {
					t.Fatal(err)
				}
				check(what, mse)
				// The MSE tree as the base of another: the nodes it
				// copied must say what bounds their steps met too.
				again, err := ExploreMSE(head, mse, map[string]bool{}, Renames{}, opts, newZ3)
				if err != nil {
					t.Fatal(err)
				}
				check(what+", then over that", again)
				t.Logf("%s, %s: %d and %d of %d states copied", tc.head, what, mse.Stats.Reused, again.Stats.Reused, mse.Stats.States)
			}
		}
	}
}

func sortedBounds(s *SET) []BoundHit {
	out := slices.Clone(s.Bounds)
	slices.SortFunc(out, func(a, b BoundHit) int { return strings.Compare(string(a.Bound), string(b.Bound)) })
	return out
}

// TestCanonicalKeyTimers: a key names each timer by event, quoted ID,
// arguments and due, as it always has (the key is built without fmt).
func TestCanonicalKeyTimers(t *testing.T) {
	n := &Node{State: &mlm.State{Name: "S"}, Vals: []solver.Term{3},
		Timers: []Timer{{Event: "tick", ID: "a\"b", Args: []Arg{{Name: "x"}, {Name: "y"}}, Due: 9}, {Event: "t2", ID: ""}}}
	if got, want := canonicalKey(n, []solver.Term{7, 11, 12, 13}), `S|7|tick#"a\"b",x=11,y=12@13|t2#""`; got != want {
		t.Fatalf("canonicalKey = %s, want %s", got, want)
	}
}
