package testgen_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// Transition keys of examples/triangle.scxml.
const (
	triangleT2 = "S1_S0 checkPositiveSides [S1_S0:checkPositiveSides>S1_S1] S1_S1"
	triangleT5 = "S1_S1 checkIsTriangle [S1_S1:checkIsTriangle>S1_S2] S1_S2"
	triangleT6 = "S1_S1 checkIsTriangle [S1_S1:checkIsTriangle>S1_S3] S1_S3"
)

// edit is a change of a model's source: old, which must occur exactly
// once, becomes new.
type edit struct{ old, new string }

// TestCompare replays base suites on changed models: each row names, for
// every base test, what it must be in the delta, and how many head tests
// are new. Whatever the row, checkDelta checks what every delta must be.
func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name       string
		model      string
		base, head []edit // applied to the model for each version
		baseDepth  int    // 0: depth
		depth      int
		expect     func(b *testgen.Test) string // "retained", "changed" or "obsolete"; nil: all retained
		newTests   int
		beyondHead bool // some retained test goes beyond the head tree's leaves
	}{
		{name: "triangle unchanged", model: "triangle", depth: 6},
		{name: "radio unchanged", model: "radio", depth: 5},
		{name: "crossing unchanged", model: "crossing", depth: 6},
		{
			// T2's action sends another output: the tests through T2 are
			// the same inputs on the same path with another oracle.
			name: "output changed", model: "triangle", depth: 6,
			head:   []edit{{`<send event="evValidInput" target="#_parent"/>`, `<send event="evInputValid" target="#_parent"/>`}},
			expect: when(firesKey(triangleT2), "changed"),
		},
		{
			// The walk time the lights timeout sends when no car, or 20 or
			// more, are waiting changes: an output's argument is part of
			// the oracle.
			name: "output argument changed", model: "crossing", depth: 6,
			head:   []edit{{`walkTime = 30;`, `walkTime = 25;`}},
			expect: when(walkTime(30), "changed"),
		},
		{
			// T5's guard tightens (b + c > a becomes b + c > 2a): the path
			// of an equilateral triangle is gone, and the test of a
			// triangle the solver gave sides (1, 1, 1) no longer takes T5
			// (nor T6: the input is discarded). T6's flattened guard now
			// evaluates the negation of T5's first (the two guards are no
			// longer each other's negation), so its decision paths differ:
			// its tests are obsolete too. The head has tests of those three
			// paths and of the triangle's, with values that drive them: new.
			name: "guard tightened", model: "triangle", depth: 6,
			head: []edit{{`b + c &gt; a" target="S1_S2"`, `b + c &gt; a + a" target="S1_S2"`}},
			expect: when(func(b *testgen.Test) bool {
				x, y, z := sides(b)
				return firesKey(triangleT5)(b) && y+z <= 2*x || firesKey(triangleT6)(b)
			}, "obsolete"),
			newTests: 4,
		},
		{
			// The sensor reports at most 10 cars: a test that reports more
			// sends a value out of range, which the machine rejects.
			name: "parameter range narrowed", model: "crossing", depth: 6,
			head:   []edit{{`<setbot:param name="n" type="int[0..50]"/>`, `<setbot:param name="n" type="int[0..10]"/>`}},
			expect: when(carsAbove(10), "obsolete"),
		},
		{
			// The base version forgets to reset a, so after T1 and a reset
			// its tree goes on; the head's reset restores the start, whose
			// node subsumes the new one. The base tests that go on still
			// replay: retained, though no head test has their identity. The
			// head's subsumed leaf (T1, reset) is a new test.
			name: "subsumed in head", model: "triangle", depth: 6,
			base:     []edit{{"<assign location=\"a\" expr=\"0\"/>\n      <assign location=\"b\"", "<assign location=\"b\""}},
			newTests: 1, beyondHead: true,
		},
		{
			// The head tree is cut at depth 3: longer base tests are no
			// leaves of it, and retained. The four paths of three steps
			// that go on in the base tree are new tests.
			name: "cut by a bound in head", model: "triangle", baseDepth: 6, depth: 3,
			newTests: 4, beyondHead: true,
		},
		{
			// Walking no longer sets walkTimeout: the event becomes an input
			// of the environment. A test that fires it as a timer no longer
			// can, though the machine would take it as an input, and
			// neither can one whose timer fired where nothing took it. The
			// head's tests that send walkTimeout as an input are new, some
			// with the identity of an obsolete test.
			name: "timer no longer set", model: "crossing", depth: 6,
			head:     []edit{{`<send event="walkTimeout" delay="30s"/>`, ``}},
			expect:   when(sends("walkTimeout"), "obsolete"),
			newTests: 12,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := os.ReadFile("../../examples/" + tc.model + ".scxml")
			if err != nil {
				t.Fatal(err)
			}
			baseDepth := tc.baseDepth
			if baseDepth == 0 {
				baseDepth = tc.depth
			}
			_, bset, bt := suiteOf(t, "base.scxml", apply(t, src, tc.base), baseDepth)
			hm, hset, ht := suiteOf(t, "head.scxml", apply(t, src, tc.head), tc.depth)
			d, err := testgen.Compare(context.Background(), bt, ht, hset)
			if err != nil {
				t.Fatal(err)
			}
			checkDelta(t, bt, ht, d, hm)
			expect := tc.expect
			if expect == nil {
				expect = func(*testgen.Test) string { return "retained" }
			}
			got := make(map[string]string)
			for class, tests := range map[string][]*testgen.Test{"retained": d.Retained, "changed": d.Changed, "obsolete": d.Obsolete} {
				for _, x := range tests {
					got[x.ID] = class
				}
			}
			counts := make(map[string]int)
			for _, b := range bt {
				want := expect(b)
				counts[want]++
				if got[b.ID] != want {
					t.Errorf("test %s (%s) is %s, want %s", b.ID, strings.Join(b.Identity, " / "), got[b.ID], want)
				}
			}
			if len(d.New) != tc.newTests {
				t.Errorf("%d new tests, want %d", len(d.New), tc.newTests)
			}
			if tc.expect != nil && counts["retained"] == len(bt) {
				t.Errorf("the row expects every test retained: it shows nothing")
			}
			if tc.beyondHead && !slices.ContainsFunc(d.Retained, func(x *testgen.Test) bool { return x.Leaf == nil }) {
				t.Errorf("every retained test ends at a node of the head tree: the row shows nothing")
			}
			t.Logf("base %d tests (%d states), head %d tests (%d states): %d retained, %d changed, %d obsolete, %d new",
				len(bt), len(bset.Nodes), len(ht), len(hset.Nodes), len(d.Retained), len(d.Changed), len(d.Obsolete), len(d.New))
		})
	}
}

// checkDelta checks what any delta from base to head must be: every base
// test is in exactly one of retained, changed and obsolete, in base order;
// retained and changed tests keep their identity and inputs and replay on
// the head machine with their oracle, and a changed test's oracle is not
// the base one; obsolete tests do not follow their path on the head
// machine; new tests are the head tests of no other identity, in head
// order.
func checkDelta(t *testing.T, base, head []*testgen.Test, d *testgen.Delta, hm *mlm.Machine) {
	t.Helper()
	if d.Retained == nil || d.Changed == nil || d.Obsolete == nil || d.New == nil {
		t.Errorf("a list of the delta is nil (JSON null): %+v", d)
	}
	byID := make(map[string]*testgen.Test)
	for _, b := range base {
		byID[b.ID] = b
	}
	pos := make(map[string]int)
	for i, b := range base {
		pos[b.ID] = i
	}
	var seen []string
	kept := make(map[string]bool)
	for class, tests := range map[string][]*testgen.Test{"retained": d.Retained, "changed": d.Changed, "obsolete": d.Obsolete} {
		if !slices.IsSortedFunc(tests, func(x, y *testgen.Test) int { return pos[x.ID] - pos[y.ID] }) {
			t.Errorf("the %s tests are not in the base suite's order", class)
		}
		for _, x := range tests {
			seen = append(seen, x.ID)
			b := byID[x.ID]
			if b == nil {
				t.Errorf("%s test %s is no base test", class, x.ID)
				continue
			}
			if !slices.Equal(x.Identity, b.Identity) || !sameInputs(x, b) {
				t.Errorf("%s test %s has other identity or inputs than the base test", class, x.ID)
			}
			switch class {
			case "obsolete":
				if why := follows(hm, x); why == "" {
					t.Errorf("obsolete test %s (%s) follows its path on the head machine", x.ID, strings.Join(x.Identity, " / "))
				}
			default:
				kept[x.ID] = true
				if err := replay(hm, x); err != nil {
					t.Errorf("%s test %s does not replay with its oracle: %v", class, x.ID, err)
				}
				if class == "changed" && replay(hm, b) == nil {
					t.Errorf("changed test %s: the base oracle holds on the head machine", x.ID)
				}
				if class == "retained" && replay(hm, b) != nil {
					t.Errorf("retained test %s: the base oracle does not hold on the head machine", x.ID)
				}
				if x.Leaf != nil && x.Leaf.Depth != len(x.Steps) {
					t.Errorf("%s test %s of %d steps refers to a node at depth %d", class, x.ID, len(x.Steps), x.Leaf.Depth)
				}
			}
		}
	}
	slices.Sort(seen)
	ids := make([]string, len(base))
	for i, b := range base {
		ids[i] = b.ID
	}
	slices.Sort(ids)
	if !slices.Equal(seen, ids) {
		t.Errorf("retained, changed and obsolete hold %d tests, the base suite %d", len(seen), len(ids))
	}
	var fresh []string
	for _, h := range head {
		if !kept[h.ID] {
			fresh = append(fresh, h.ID)
		}
	}
	var got []string
	for _, x := range d.New {
		got = append(got, x.ID)
	}
	if !slices.Equal(got, fresh) {
		t.Errorf("new tests %v, want %v", got, fresh)
	}
}

// follows replays tc on m and says why its inputs do not drive m along its
// path: a timer step whose timer is not pending, an input step whose event
// is no input of m (unless the test's path discarded it), an error, or
// other fired transitions. It returns "" when they do.
func follows(m *mlm.Machine, tc *testgen.Test) string {
	s, _, err := sim.New(m, sim.Options{})
	if err != nil {
		return err.Error()
	}
	for i, st := range tc.Steps {
		ev := sim.Event{Name: st.Event}
		if st.Timer {
			if !slices.Contains(s.PendingTimers(), st.Event) {
				return fmt.Sprintf("step %d: timer %s is not pending", i+1, st.Event)
			}
		} else {
			ev.Args = simArgs(st.Args)
			if e := m.Event(st.Event); len(st.Fired) > 0 && (e == nil || e.Kinds&model.Input == 0) {
				return fmt.Sprintf("step %d: %s is not an input", i+1, st.Event)
			}
		}
		got, err := s.StepAt(ev, st.At)
		if err != nil {
			return fmt.Sprintf("step %d: %v", i+1, err)
		}
		var fired []testgen.Fired
		for _, f := range got.Fired {
			fired = append(fired, testgen.Fired{Key: f.Key, Path: f.Path})
		}
		if !slices.Equal(fired, st.Fired) {
			return fmt.Sprintf("step %d fired %v, the test %v (%s)", i+1, fired, st.Fired, got.Discarded)
		}
	}
	return ""
}

func sameInputs(a, b *testgen.Test) bool {
	return slices.EqualFunc(a.Steps, b.Steps, func(x, y testgen.Step) bool {
		return x.Event == y.Event && x.Timer == y.Timer && maps.Equal(x.Args, y.Args) && slices.Equal(x.Fired, y.Fired)
	})
}

func apply(t *testing.T, src []byte, edits []edit) []byte {
	t.Helper()
	out := string(src)
	for _, e := range edits {
		if n := strings.Count(out, e.old); n != 1 {
			t.Fatalf("%q occurs %d times in the model", e.old, n)
		}
		out = strings.Replace(out, e.old, e.new, 1)
	}
	return []byte(out)
}

func suiteOf(t *testing.T, name string, src []byte, depth int) (*mlm.Machine, *engine.SET, []*testgen.Test) {
	t.Helper()
	m, err := flatten(name, src)
	if err != nil {
		t.Fatal(err)
	}
	set, err := engine.Explore(m, engine.Options{MaxDepth: depth}, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	tests, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	return m, set, tests
}

// when expects class for the base tests that match and retained for the
// others.
func when(match func(*testgen.Test) bool, class string) func(*testgen.Test) string {
	return func(b *testgen.Test) string {
		if match(b) {
			return class
		}
		return "retained"
	}
}

// firesKey matches the tests that fire the transition.
func firesKey(key string) func(*testgen.Test) bool {
	return func(b *testgen.Test) bool {
		for _, st := range b.Steps {
			for _, f := range st.Fired {
				if f.Key == key {
					return true
				}
			}
		}
		return false
	}
}

// sends matches the tests that send the event.
func sends(event string) func(*testgen.Test) bool {
	return func(b *testgen.Test) bool {
		return slices.ContainsFunc(b.Steps, func(st testgen.Step) bool { return st.Event == event })
	}
}

// walkTime matches the crossing tests whose walk output says seconds.
func walkTime(seconds int64) func(*testgen.Test) bool {
	return func(b *testgen.Test) bool {
		for _, st := range b.Steps {
			for _, o := range st.Outputs {
				if o.Event == "walk" && o.Args["seconds"] == seconds {
					return true
				}
			}
		}
		return false
	}
}

// carsAbove matches the crossing tests that report more than n cars.
func carsAbove(n int64) func(*testgen.Test) bool {
	return func(b *testgen.Test) bool {
		return slices.ContainsFunc(b.Steps, func(st testgen.Step) bool { return st.Event == "carsWithin" && st.Args["n"].(int64) > n })
	}
}

// sides returns the sides a triangle test sets first.
func sides(b *testgen.Test) (x, y, z int64) {
	a := b.Steps[0].Args
	return a["x"].(int64), a["y"].(int64), a["z"].(int64)
}
