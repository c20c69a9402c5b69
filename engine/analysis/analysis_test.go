package analysis_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

func analyze(t *testing.T, path string, opts engine.Options, invariants ...string) (*mlm.Machine, *analysis.Report) {
	t.Helper()
	mach, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := engine.Explore(mach, opts, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	var invs []analysis.Invariant
	for _, text := range invariants {
		inv, err := analysis.ParseInvariant(mach, text)
		if err != nil {
			t.Fatal(err)
		}
		invs = append(invs, inv)
	}
	rep, err := analysis.Analyze(set, invs, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	return mach, rep
}

func find(list []analysis.Reach, name string) (analysis.Reach, bool) {
	for _, r := range list {
		if r.Name == name {
			return r, true
		}
	}
	return analysis.Reach{}, false
}

// reaches returns the statechart states' Reach parts.
func reaches(list []analysis.StateReach) []analysis.Reach {
	out := make([]analysis.Reach, len(list))
	for i, s := range list {
		out[i] = s.Reach
	}
	return out
}

// run replays a witness on the simulator and returns it at the end.
func run(t *testing.T, m *mlm.Machine, w *testgen.Test) *sim.Sim {
	s, _ := replayWitness(t, m, w)
	return s
}

// replayWitness replays a witness on the simulator and returns it at the
// end, with the last step.
func replayWitness(t *testing.T, m *mlm.Machine, w *testgen.Test) (*sim.Sim, sim.Step) {
	t.Helper()
	s, last, err := sim.New(m, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range w.Steps {
		ev, err := st.Input()
		if err != nil {
			t.Fatal(err)
		}
		if last, err = s.StepAt(ev, st.At); err != nil {
			t.Fatalf("witness step %s: %v", st.Event, err)
		}
	}
	return s, last
}

// TestTransientState checks the two senses of reaching a statechart state
// on the triangle with S1_S2 classified at once (an eventless transition
// leaves it): S1_S2 is reached, its witness enters it, and it is never
// stable; S1_S3 is both, with one witness that rests in it.
func TestTransientState(t *testing.T) {
	src, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(string(src), `<transition event="checkTriangleType" target="S1_S3">`, `<transition target="S1_S3">`, 1)
	path := filepath.Join(t.TempDir(), "eventless.scxml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	m, rep := analyze(t, path, engine.Options{})
	byName := make(map[string]analysis.StateReach)
	for _, s := range rep.States {
		byName[s.Name] = s
	}
	s2 := byName["S1_S2"]
	if !s2.Reached || s2.Stable || !s2.Transient() || s2.StableWitness != nil {
		t.Fatalf("S1_S2: %+v; want reached, never stable", s2)
	}
	if _, last := replayWitness(t, m, s2.Witness); !slices.Contains(last.Entered, "S1_S2") {
		t.Errorf("the witness for S1_S2 does not enter it on its last step (entered %v)", last.Entered)
	}
	s3 := byName["S1_S3"]
	if !s3.Reached || !s3.Stable || s3.Transient() || s3.StableWitness == nil {
		t.Fatalf("S1_S3: %+v; want reached and stable", s3)
	}
	if got := run(t, m, s3.StableWitness).State().Atomic; len(got) != 1 || got[0] != "S1_S3" {
		t.Errorf("the stable witness for S1_S3 ends in %v", got)
	}
}

func TestReachabilityWithinDepth(t *testing.T) {
	m, six := analyze(t, "../testdata/depth7.scxml", engine.Options{MaxDepth: 6})
	if six.Proven || six.WithinDepth != 6 {
		t.Errorf("proven %v within %d; want a claim within 6 events", six.Proven, six.WithinDepth)
	}
	if r, _ := find(reaches(six.States), "S7"); r.Reached {
		t.Error("S7 reported reachable within 6 events")
	}
	_, seven := analyze(t, "../testdata/depth7.scxml", engine.Options{MaxDepth: 7})
	r, _ := find(reaches(seven.States), "S7")
	if !r.Reached || r.Depth != 7 || len(r.Witness.Steps) != 7 {
		t.Fatalf("S7 within 7: %+v", r)
	}
	if got := run(t, m, r.Witness).State().Atomic; len(got) != 1 || got[0] != "S7" {
		t.Errorf("the witness for S7 ends in %v", got)
	}
	if never, _ := find(reaches(seven.States), "Never"); never.Reached {
		t.Error("Never, guarded by x > 5 && x < 3, reported reachable")
	}
	if tr, _ := find(seven.Transitions, "S0:jump>Never"); tr.Reached {
		t.Error("the guarded-off transition reported taken")
	}
}

func TestTriangleComplete(t *testing.T) {
	_, rep := analyze(t, "../../examples/triangle.scxml", engine.Options{})
	if !rep.Proven {
		t.Error("the triangle's tree is complete, so its claims are proven")
	}
	for _, list := range [][]analysis.Reach{reaches(rep.States), rep.MLMStates, rep.Transitions} {
		for _, r := range list {
			if !r.Reached {
				t.Errorf("%s unreachable", r.Name)
			}
		}
	}
	if len(rep.Outputs) != 8 {
		t.Errorf("%d outputs, want 8", len(rep.Outputs))
	}
	for _, o := range rep.Outputs {
		if !o.Reached {
			t.Errorf("output %s never sent", o.Name)
		}
	}
}

func TestInvariantViolationWitness(t *testing.T) {
	m, rep := analyze(t, "../../examples/triangle.scxml", engine.Options{}, "a >= 0", "a == a")
	if len(rep.Invariants) != 2 {
		t.Fatalf("%d invariant results", len(rep.Invariants))
	}
	bad, good := rep.Invariants[0], rep.Invariants[1]
	if !good.Holds {
		t.Error("a == a reported violated")
	}
	if bad.Holds || bad.Witness == nil {
		t.Fatal("a >= 0 not reported violated")
	}
	if a := run(t, m, bad.Witness).Vars()["a"]; a.Int >= 0 {
		t.Errorf("the witness ends with a = %v, which does not violate a >= 0", a)
	}
}

func TestRangeInvariantAndNondeterminism(t *testing.T) {
	_, rep := analyze(t, "../../examples/radio.scxml", engine.Options{MaxDepth: 5})
	var ranged bool
	for _, inv := range rep.Invariants {
		if inv.Implied == "volume: int[0..10]" && inv.Holds {
			ranged = true
		}
	}
	if !ranged {
		t.Errorf("the range of volume is not checked as an invariant: %+v", rep.Invariants)
	}
	if len(rep.Nondeterminism) != 1 {
		t.Fatalf("nondeterminism %+v, want the setVolume pair", rep.Nondeterminism)
	}
	c := rep.Nondeterminism[0]
	if c.Event != "setVolume" || c.Taken != "Unmuted:setVolume>Muted" || c.Shadows != "Unmuted:setVolume>" {
		t.Errorf("conflict %+v", c)
	}
}

// TestNondeterminismInInputDomain checks that the conflicts reported are
// those of inputs in the input domain: a string input holds at most 32
// code points, so a guard on a longer one never fires and shadows nothing.
func TestNondeterminismInInputDomain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "len.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A" datamodel="ecmascript">
  <setbot:event name="e"><setbot:param name="s" type="string"/><setbot:param name="x" type="decimal"/></setbot:event>
  <state id="A">
    <transition event="e" cond="_event.data.s.length &gt; 32" target="B"/>
    <transition event="e" cond="_event.data.x * 10 == 1" target="B"/>
    <transition event="e" cond="_event.data.x * 4 == 1" target="C"/>
    <transition event="e"/>
  </state>
  <state id="B"/><state id="C"/>
</scxml>`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, rep := analyze(t, path, engine.Options{MaxDepth: 2})
	var got []string
	for _, c := range rep.Nondeterminism {
		got = append(got, c.Taken+" shadows "+c.Shadows)
	}
	if want := []string{"A:e>C shadows A:e>"}; !slices.Equal(got, want) {
		t.Errorf("nondeterminism %q, want %q", got, want)
	}
}

func TestParseInvariantErrors(t *testing.T) {
	m, _ := analyze(t, "../../examples/triangle.scxml", engine.Options{MaxDepth: 1})
	for _, text := range []string{"a +", "zz > 0", "a + 1", "_event.data.x > 0"} {
		if _, err := analysis.ParseInvariant(m, text); err == nil {
			t.Errorf("invariant %q accepted", text)
		}
	}
}

// TestNondeterminismPerPathCondition checks that two nodes with the same
// valuation and the same competing conditions are decided each under its
// own path condition: the answer of one is not reused for the other.
func TestNondeterminismPerPathCondition(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pc.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A" datamodel="ecmascript">
  <setbot:event name="a"><setbot:param name="v" type="int"/></setbot:event>
  <setbot:event name="b"><setbot:param name="v" type="int"/></setbot:event>
  <setbot:event name="go"><setbot:param name="p" type="int"/></setbot:event>
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="A">
    <transition event="a" cond="_event.data.v &gt; 100" target="B"><assign location="x" expr="_event.data.v"/></transition>
    <transition event="b" cond="_event.data.v &lt; 3" target="B"><assign location="x" expr="_event.data.v"/></transition>
  </state>
  <state id="B">
    <transition event="go" cond="_event.data.p &gt; x" target="C"/>
    <transition event="go" cond="_event.data.p &lt; 5" target="D"/>
  </state>
  <state id="C"/><state id="D"/>
</scxml>`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, rep := analyze(t, path, engine.Options{MaxDepth: 1})
	if len(rep.Nondeterminism) != 1 {
		t.Fatalf("nondeterminism %+v, want the go pair after b", rep.Nondeterminism)
	}
	c := rep.Nondeterminism[0]
	if c.Taken != "B:go>C" || c.Shadows != "B:go>D" {
		t.Errorf("conflict %s shadows %s, want B:go>C shadows B:go>D", c.Taken, c.Shadows)
	}
	if len(c.Witness.Steps) != 1 || c.Witness.Steps[0].Event != "b" {
		t.Errorf("witness %+v, want the step b (after a, x > 100 leaves go no choice)", c.Witness.Steps)
	}
	replayWitness(t, m, c.Witness)
}

// TestInvariantOverConversions: a violation is a value an invariant is
// false at where the conversions it makes are exact; where one is not (a
// NaN), an invariant that holds elsewhere holds qualified by the number
// bound, and no witness with that value is given as a violation.
func TestInvariantOverConversions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "codes.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="A" datamodel="ecmascript">
<datamodel><data id="code" expr="'7'"/></datamodel>
<state id="A">
  <transition event="junk" target="A"><assign location="code" expr="'abc'"/></transition>
  <transition event="neg" target="A"><assign location="code" expr="'-3'"/></transition>
  <transition event="clear" target="A"><assign location="code" expr="''"/></transition>
  <transition event="check" cond="code == '' || parseInt(code) &gt; 100" target="B"/>
  <transition event="check" cond="code.length == 0" target="C"/>
</state>
<state id="B"/><state id="C"/></scxml>`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, rep := analyze(t, path, engine.Options{MaxDepth: 2}, "code == '' || parseInt(code) > -10", "parseInt(code) >= 0", "code != '' && parseInt(code) > -10")
	if len(rep.Invariants) != 3 {
		t.Fatalf("%d invariant results", len(rep.Invariants))
	}
	nan, neg, guarded := rep.Invariants[0], rep.Invariants[1], rep.Invariants[2]
	// A conversion && or || does not evaluate is no cut: at code == '' the
	// third is false, with no conversion made (and true elsewhere).
	if guarded.Holds {
		t.Errorf("code != '' && parseInt(code) > -10: %+v, want a violation at code == ''", guarded)
	}
	// Nor does it hide a conflict: at code == '' both checks are enabled.
	if len(rep.Nondeterminism) != 1 {
		t.Errorf("conflicts %+v, want the two check transitions at code == ''", rep.Nondeterminism)
	}
	if !nan.Holds || nan.CutBy != vocab.BoundNumber {
		t.Errorf("parseInt(code) > -10: holds %v, cut by %q; want it to hold, cut by the number bound (parseInt('abc') is NaN)", nan.Holds, nan.CutBy)
	}
	if neg.Holds || neg.Witness == nil || neg.CutBy != "" {
		t.Fatalf("parseInt(code) >= 0: %+v, want a violation", neg)
	}
	if code := run(t, m, neg.Witness).Vars()["code"]; code.Str != "-3" {
		t.Errorf("the witness ends with code = %v, want -3", code)
	}
}

// TestNondeterminismWitnessesAfterChecks checks the conflicts' witnesses,
// made once every check is done and the checking solver closed: each
// conflict has one, a test that ends in the state the conflict was found
// in, and the same analyzer asked again (its solver started anew) finds
// the same conflicts with the same tests.
func TestNondeterminismWitnessesAfterChecks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A" datamodel="ecmascript">
  <setbot:event name="e"><setbot:param name="x" type="int[0..100]"/></setbot:event>
  <setbot:event name="f"/>
  <state id="A">
    <transition event="e" cond="_event.data.x &gt; 40" target="B"/>
    <transition event="e" cond="_event.data.x &lt; 60" target="C"/>
  </state>
  <state id="B"><transition event="f" target="C"/></state>
  <state id="C">
    <transition event="e" cond="_event.data.x == 7" target="A"/>
    <transition event="e" cond="_event.data.x &lt; 10" target="B"/>
  </state>
</scxml>`
	set := exploreFile(t, path, src, 3)
	an := analysis.New(set, newZ3)
	defer an.Close()
	describe := func() []string {
		t.Helper()
		found, err := an.Nondeterminism()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range found {
			if c.Witness == nil {
				t.Fatalf("conflict %s shadows %s has no witness", c.Taken, c.Shadows)
			}
			if c.Witness.Leaf.State.Name != c.State {
				t.Errorf("the witness of %s shadows %s ends in %s, not %s", c.Taken, c.Shadows, c.Witness.Leaf.State.Name, c.State)
			}
			out = append(out, fmt.Sprintf("%s shadows %s after %v", c.Taken, c.Shadows, c.Witness.Steps))
		}
		return out
	}
	first := describe()
	if len(first) != 2 {
		t.Fatalf("conflicts %q, want A's pair and C's", first)
	}
	if again := describe(); !slices.Equal(again, first) {
		t.Errorf("asked again: %q, first %q", again, first)
	}
}

// exploreFile writes src to path and explores it to depth.
func exploreFile(t *testing.T, path, src string, depth int) *engine.SET {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	mach, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := engine.Explore(mach, engine.Options{MaxDepth: depth}, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// checkCounter is a solver that counts the satisfiability checks it is
// asked (its models are the solver's own business).
type checkCounter struct {
	solver.Solver
	checks *int
}

func (c checkCounter) Check(conj []solver.Term) (solver.Result, error) {
	*c.checks++
	return c.Solver.Check(conj)
}

// TestNondeterminismPresolved: where the competing guards are comparisons
// of inputs with constants, the engine's presolver decides every check of
// the nondeterminism check (those that hold with a model it builds, the
// others by bounds that contradict), so the analysis asks its solver
// nothing and still finds the conflicts, and none that is not one.
func TestNondeterminismPresolved(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bounds.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A" datamodel="ecmascript">
  <setbot:event name="e"><setbot:param name="x" type="int[0..100]"/></setbot:event>
  <state id="A">
    <transition event="e" cond="_event.data.x &gt; 40" target="B"/>
    <transition event="e" cond="_event.data.x &lt; 60" target="C"/>
  </state>
  <state id="B">
    <transition event="e" cond="_event.data.x &gt; 50" target="A"/>
    <transition event="e" cond="_event.data.x &lt; 20" target="C"/>
  </state>
  <state id="C"/>
</scxml>`
	set := exploreFile(t, path, src, 2)
	checks := 0
	an := analysis.New(set, func(tab *solver.Table) (solver.Solver, error) {
		s, err := newZ3(tab)
		return checkCounter{s, &checks}, err
	})
	defer an.Close()
	found, err := an.Nondeterminism()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range found {
		got = append(got, c.Taken+" shadows "+c.Shadows)
	}
	if !slices.Equal(got, []string{"A:e>B shadows A:e>C"}) {
		t.Errorf("conflicts %q, want only A's pair (B's guards exclude each other)", got)
	}
	if checks != 0 {
		t.Errorf("the analysis asked its solver %d satisfiability checks, want none", checks)
	}
}
