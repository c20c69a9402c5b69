package gate

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

func loadMachine(t testing.TB, path string) *mlm.Machine {
	t.Helper()
	m, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	return m
}

// analyze runs the real incremental analysis of a change.
func analyze(t testing.TB, basePath, headPath string, depth int) (*incremental.Result, *mlm.Machine) {
	t.Helper()
	base, head := loadMachine(t, basePath), loadMachine(t, headPath)
	r, err := incremental.Analyze(context.Background(), base, head,
		incremental.Request{Engine: engine.Options{MaxDepth: depth}, Solver: newZ3, Analyses: incremental.CheckOutputs | incremental.CheckNondeterminism})
	if err != nil {
		t.Fatalf("analysing %s -> %s: %v", basePath, headPath, err)
	}
	return r, head
}

const (
	triangle       = "../examples/triangle.scxml"
	triangleS2Off  = "../engine/incremental/testdata/triangle_s2_off.scxml"
	triangleAction = "../engine/incremental/testdata/triangle_t2_action.scxml"
	radio          = "../examples/radio.scxml"
	radioHead      = "../report/testdata/radio_head.scxml"
	broken         = "../report/testdata/broken.scxml"
)

var (
	fixtureOnce sync.Once
	fixture     []Model
)

// fixtureModels are six model files: a state made unreachable, a changed
// action, a model whose depth bound is hit and whose invariant fails, a
// file that does not parse, a file whose machine did not change, and a
// deleted file (the same as report's fixture).
func fixtureModels(t testing.TB) []Model {
	t.Helper()
	fixtureOnce.Do(func() { fixture = buildFixture(t) })
	if fixture == nil {
		t.Fatal("the fixture could not be built")
	}
	return fixture
}

func buildFixture(t testing.TB) []Model {
	var models []Model
	r, head := analyze(t, triangle, triangleS2Off, 10)
	models = append(models, Model{Path: "models/triangle.scxml", Result: r, Head: head})
	r, head = analyze(t, triangle, triangleAction, 10)
	models = append(models, Model{Path: "models/triangle_audit.scxml", Result: r, Head: head})

	r, head = analyze(t, radio, radioHead, 4)
	inv, err := analysis.ParseInvariant(head, "volume != 7")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := analysis.Analyze(r.HeadSet, []analysis.Invariant{inv}, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	r.Invariants = rep.Invariants
	models = append(models, Model{Path: "models/radio.scxml", Result: r, Head: head})

	r, head = analyze(t, triangle, triangle, 10)
	models = append(models, Model{Path: "models/triangle_copy.scxml", Result: r, Head: head})

	_, err = load.File(context.Background(), broken, load.Options{})
	var errs source.ErrorList
	if !errors.As(err, &errs) {
		t.Fatalf("%s loads without a model error (%v)", broken, err)
	}
	bad := Model{Path: "models/broken.scxml"}
	for _, e := range errs {
		bad.Errors = append(bad.Errors, Diagnostic{Line: e.Pos.Line, Column: e.Pos.Column, Message: e.Msg})
	}
	return append(models, bad, Model{Path: "models/legacy.scxml"})
}

func TestEvaluate(t *testing.T) {
	models := fixtureModels(t)
	allOff := allRulesOff()
	with := func(rule vocab.Rule, action vocab.Action) vocab.RuleActions {
		r := maps.Clone(allOff)
		r[rule] = action
		return r
	}
	tests := []struct {
		name       string
		rules      vocab.RuleActions
		conclusion string
		levels     map[vocab.Rule]vocab.Action // rule -> level of its findings; absent: none
	}{
		{"defaults", nil, Failure, map[vocab.Rule]vocab.Action{vocab.RuleUnreachableState: vocab.ActionBlock, vocab.RuleInvariantViolation: vocab.ActionBlock,
			vocab.RuleBoundHit: vocab.ActionWarn, vocab.RuleModelError: vocab.ActionBlock, vocab.RuleOutputLost: vocab.ActionWarn}},
		{"all off", allOff, Success, nil},
		{"unreachable blocks", with(vocab.RuleUnreachableState, vocab.ActionBlock), Failure, map[vocab.Rule]vocab.Action{vocab.RuleUnreachableState: vocab.ActionBlock}},
		{"unreachable warns", with(vocab.RuleUnreachableState, vocab.ActionWarn), Neutral, map[vocab.Rule]vocab.Action{vocab.RuleUnreachableState: vocab.ActionWarn}},
		{"invariant warns", with(vocab.RuleInvariantViolation, vocab.ActionWarn), Neutral, map[vocab.Rule]vocab.Action{vocab.RuleInvariantViolation: vocab.ActionWarn}},
		{"bound blocks", with(vocab.RuleBoundHit, vocab.ActionBlock), Failure, map[vocab.Rule]vocab.Action{vocab.RuleBoundHit: vocab.ActionBlock}},
		{"bound warns", with(vocab.RuleBoundHit, vocab.ActionWarn), Neutral, map[vocab.Rule]vocab.Action{vocab.RuleBoundHit: vocab.ActionWarn}},
		{"model error warns", with(vocab.RuleModelError, vocab.ActionWarn), Neutral, map[vocab.Rule]vocab.Action{vocab.RuleModelError: vocab.ActionWarn}},
		{"output lost blocks", with(vocab.RuleOutputLost, vocab.ActionBlock), Failure, map[vocab.Rule]vocab.Action{vocab.RuleOutputLost: vocab.ActionBlock}},
		{"unknown action takes the default", with(vocab.RuleUnreachableState, "maybe"), Failure, map[vocab.Rule]vocab.Action{vocab.RuleUnreachableState: vocab.ActionBlock}},
		{"a missing rule takes the default", without(allOff, vocab.RuleBoundHit), Neutral, map[vocab.Rule]vocab.Action{vocab.RuleBoundHit: vocab.ActionWarn}},
	}
	want := map[vocab.Rule]int{vocab.RuleUnreachableState: 1, vocab.RuleInvariantViolation: 1, vocab.RuleBoundHit: 1, vocab.RuleModelError: 3, vocab.RuleOutputLost: 4}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Evaluate(tc.rules, models)
			if v.Conclusion != tc.conclusion {
				t.Errorf("conclusion %s, want %s", v.Conclusion, tc.conclusion)
			}
			if v.Findings == nil {
				t.Fatal("Findings is nil, want an empty list")
			}
			got := make(map[vocab.Rule]int)
			for _, f := range v.Findings {
				got[f.Rule]++
				if f.Level != tc.levels[f.Rule] {
					t.Errorf("%s finding at level %q, want %q", f.Rule, f.Level, tc.levels[f.Rule])
				}
			}
			for rule := range tc.levels {
				if got[rule] != want[rule] {
					t.Errorf("%d %s findings, want %d", got[rule], rule, want[rule])
				}
			}
			if !sort.SliceIsSorted(v.Findings, func(i, j int) bool { return less(v.Findings[i], v.Findings[j]) }) {
				t.Errorf("findings not sorted: %+v", v.Findings)
			}
		})
	}
}

func TestEvaluateFindings(t *testing.T) {
	models := fixtureModels(t)
	v := Evaluate(nil, models)
	find := func(rule vocab.Rule) Finding {
		for _, f := range v.Findings {
			if f.Rule == rule {
				return f
			}
		}
		t.Fatalf("no %s finding in %+v", rule, v.Findings)
		return Finding{}
	}
	u := find(vocab.RuleUnreachableState)
	if u.Path != "models/triangle.scxml" || u.Subject != "S1_S2" || u.Line != 63 ||
		u.Message != "state S1_S2 was reachable at base; at head it is unreachable (no execution enters it)" {
		t.Errorf("unreachable_state finding %+v", u)
	}
	inv := find(vocab.RuleInvariantViolation)
	if inv.Path != "models/radio.scxml" || inv.Subject != "volume != 7" || inv.Line == 0 ||
		!strings.Contains(inv.Message, "setVolume(level=7)") || !strings.Contains(inv.Message, "Radio,Unmuted") {
		t.Errorf("invariant_violation finding %+v", inv)
	}
	b := find(vocab.RuleBoundHit)
	// A claim about the whole model is at its <scxml> element: line 11 of
	// radio_head.scxml.
	if b.Subject != "depth" || b.Line != 11 || !strings.Contains(b.Message, "depth bound (4) cut 7 paths") {
		t.Errorf("bound_hit finding %+v", b)
	}
	// A lost output is at the transition that sent it at base, which the
	// head still has: the guard the change broke (T5, line 54, sent
	// evIsTriangle), or the transition out of the state it made
	// unreachable (T8, line 65, sent the three kinds).
	lost := map[string]int{}
	for _, f := range v.Findings {
		if f.Rule == vocab.RuleOutputLost && f.Path == "models/triangle.scxml" {
			lost[strings.TrimSuffix(f.Subject, " to #_parent")] = f.Line
		}
		if f.Line == 0 && f.Path != "models/broken.scxml" {
			t.Errorf("finding without a line in a model that loads: %+v", f)
		}
	}
	if want := map[string]int{"evIsTriangle": 54, "evEquilateral": 65, "evIsosceles": 65, "evScalene": 65}; !maps.Equal(lost, want) {
		t.Errorf("output_lost findings at %v, want %v", lost, want)
	}
	// When the head has none of the transitions that sent it, a lost
	// output is at the model's <scxml> element.
	head := models[0].Head
	gone := Model{Path: "m.scxml", Head: head, Result: &incremental.Result{OutputsLost: []incremental.OutputRef{{Output: "evGone to #_parent",
		BaseWitness: &testgen.Test{Steps: []testgen.Step{{Event: "go", Fired: []testgen.Fired{{Key: "no such transition"}}}}}}}}}
	if f := Evaluate(nil, []Model{gone}).Findings; len(f) != 1 || f[0].Line != 8 {
		t.Errorf("a lost output whose sender is gone: %+v, want one finding at line 8", f)
	}
	var lines []int
	for _, f := range v.Findings {
		if f.Rule == vocab.RuleModelError {
			lines = append(lines, f.Line)
		}
	}
	if !slices.Equal(lines, []int{3, 3, 5}) {
		t.Errorf("model_error lines %v, want [3 3 5]", lines)
	}
}

// TestEvaluateWithin checks the qualification of a claim by the depth
// bound, and the order of findings at one place.
func TestEvaluateWithin(t *testing.T) {
	m := Model{Path: "m.scxml", Result: &incremental.Result{
		NewlyUnreachable: []incremental.StateRef{{State: "B", Line: 7, Within: 12}, {State: "A", Line: 7}},
		BoundsHit:        []engine.BoundHit{{Bound: "states", Limit: 1000, Count: 1}},
	}}
	v := Evaluate(nil, []Model{m})
	var got []string
	for _, f := range v.Findings {
		got = append(got, string(f.Rule)+" "+f.Subject+": "+f.Message)
	}
	want := []string{
		"bound_hit states: the states bound (1000) cut 1 path of the head tree: its results hold only within it (raise it with bounds.max_states in .setbot.yml, --max-states on the command line)",
		"unreachable_state A: state A was reachable at base; at head it is unreachable (no execution enters it)",
		"unreachable_state B: state B was reachable at base; at head it is unreachable within 12 events (no execution enters it)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if v.Conclusion != Failure {
		t.Errorf("conclusion %s, want failure", v.Conclusion)
	}
}

// TestTransientAndNewModel checks the transient_state rule (off by
// default, a finding when set) and that a model with no base calls its
// unreachable states unreachable in a new model, never "reachable at
// base", under the new model's rule, which warns unless a team asks.
func TestTransientAndNewModel(t *testing.T) {
	res := &incremental.Result{NoBase: true,
		NewlyUnreachable: []incremental.StateRef{{State: "Never", Line: 7}},
		NewlyTransient:   []incremental.StateRef{{State: "Choice", Line: 4, Within: 10}}}
	models := []Model{{Path: "m.scxml", New: true, Result: res}}
	v := Evaluate(nil, models)
	if v.Conclusion != Neutral || len(v.Findings) != 1 || v.Findings[0].Rule != vocab.RuleNewModelUnreachable || v.Findings[0].Reason != vocab.ReasonNewModel {
		t.Fatalf("defaults: %+v, want one new_model_unreachable warning, for a new model", v)
	}
	if msg := v.Findings[0].Message; msg != "state Never is unreachable in a new model (no execution enters it)" {
		t.Errorf("message %q", msg)
	}
	if v := Evaluate(vocab.RuleActions{vocab.RuleNewModelUnreachable: vocab.ActionBlock}, models); v.Conclusion != Failure || v.Findings[0].Reason != "" {
		t.Errorf("new_model_unreachable: block: %+v, want a blocking finding with no reason", v)
	}
	v = Evaluate(vocab.RuleActions{vocab.RuleTransientState: vocab.ActionWarn, vocab.RuleNewModelUnreachable: vocab.ActionOff}, models)
	if v.Conclusion != Neutral || len(v.Findings) != 1 || v.Findings[0].Rule != vocab.RuleTransientState {
		t.Fatalf("transient_state: warn: %+v, want one warning", v)
	}
	if msg := v.Findings[0].Message; msg != "state Choice is entered but never stable within 10 events: every macrostep that enters it leaves it again" {
		t.Errorf("message %q", msg)
	}
}

// TestUnreachableCutByABound: a state not reached because a bound other
// than depth cut the tree is a warning at most, however strict the rule.
func TestUnreachableCutByABound(t *testing.T) {
	res := &incremental.Result{
		NewlyUnreachable: []incremental.StateRef{{State: "S", Line: 3, CutBy: "states"}, {State: "T", Line: 9}},
	}
	m := Model{Path: "m.scxml", Result: res}
	v := Evaluate(vocab.RuleActions{vocab.RuleUnreachableState: vocab.ActionBlock}, []Model{m})
	if len(v.Findings) != 2 || v.Conclusion != Failure {
		t.Fatalf("verdict %+v", v)
	}
	if f := v.Findings[0]; f.Subject != "S" || f.Level != vocab.ActionWarn || !strings.Contains(f.Message, "states bound") {
		t.Errorf("a bound-qualified claim: %+v, want a warning naming the bound", f)
	}
	if f := v.Findings[1]; f.Subject != "T" || f.Level != vocab.ActionBlock {
		t.Errorf("a proven claim: %+v, want it to block", f)
	}
	res.NewlyUnreachable = res.NewlyUnreachable[:1]
	if v := Evaluate(vocab.RuleActions{vocab.RuleUnreachableState: vocab.ActionBlock}, []Model{m}); v.Conclusion != Neutral {
		t.Errorf("only a bound-qualified claim: conclusion %s, want neutral", v.Conclusion)
	}
}

// allRulesOff is a gate that turns every rule off.
func allRulesOff() vocab.RuleActions {
	g := vocab.RuleActions{}
	for _, r := range vocab.Rules {
		g[r] = vocab.ActionOff
	}
	return g
}

// without is g less rule r, which then takes its default.
func without(g vocab.RuleActions, r vocab.Rule) vocab.RuleActions {
	out := maps.Clone(g)
	delete(out, r)
	return out
}
