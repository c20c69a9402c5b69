package report

import (
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/vocab"
)

func TestEvaluate(t *testing.T) {
	models := fixtureAnalysis(t).Models
	allOff := allRulesOff()
	with := func(rule vocab.Rule, action vocab.Action) vocab.Gate {
		r := vocab.Gate{}
		for k, v := range allOff {
			r[k] = v
		}
		r[rule] = action
		return r
	}
	tests := []struct {
		name       string
		rules      vocab.Gate
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
			g := Evaluate(tc.rules, models)
			if g.Conclusion != tc.conclusion {
				t.Errorf("conclusion %s, want %s", g.Conclusion, tc.conclusion)
			}
			if g.Findings == nil {
				t.Fatal("Findings is nil, want an empty list")
			}
			got := make(map[vocab.Rule]int)
			for _, f := range g.Findings {
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
			if !sort.SliceIsSorted(g.Findings, func(i, j int) bool { return lessFinding(g.Findings[i], g.Findings[j]) }) {
				t.Errorf("findings not sorted: %+v", g.Findings)
			}
		})
	}
}

func TestEvaluateFindings(t *testing.T) {
	g := Evaluate(nil, fixtureAnalysis(t).Models)
	find := func(rule vocab.Rule) Finding {
		for _, f := range g.Findings {
			if f.Rule == rule {
				return f
			}
		}
		t.Fatalf("no %s finding in %+v", rule, g.Findings)
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
	if b.Subject != "depth" || b.Line != 0 || !strings.Contains(b.Message, "depth bound (4) cut 7 paths") {
		t.Errorf("bound_hit finding %+v", b)
	}
	var lines []int
	for _, f := range g.Findings {
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
	m := &Model{Path: "m.scxml", Status: Modified, Result: &incremental.Result{
		NewlyUnreachable: []incremental.StateRef{{State: "B", Line: 7, Within: 12}, {State: "A", Line: 7}},
		BoundsHit:        []engine.BoundHit{{Bound: "states", Limit: 1000, Count: 1}},
	}}
	g := Evaluate(nil, []*Model{m})
	var got []string
	for _, f := range g.Findings {
		got = append(got, string(f.Rule)+" "+f.Subject+": "+f.Message)
	}
	want := []string{
		"bound_hit states: the states bound (1000) cut 1 path of the head tree: its results hold only within it",
		"unreachable_state A: state A was reachable at base; at head it is unreachable (no execution enters it)",
		"unreachable_state B: state B was reachable at base; at head it is unreachable within 12 events (no execution enters it)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if g.Conclusion != Failure {
		t.Errorf("conclusion %s, want failure", g.Conclusion)
	}
}

// TestTransientAndNewModel checks the transient_state rule (off by
// default, a finding when set) and that a model with no base calls its
// unreachable states unreachable in a new model, never "reachable at
// base".
func TestTransientAndNewModel(t *testing.T) {
	res := &incremental.Result{NoBase: true,
		NewlyUnreachable: []incremental.StateRef{{State: "Never", Line: 7}},
		NewlyTransient:   []incremental.StateRef{{State: "Choice", Line: 4, Within: 10}}}
	models := []*Model{{Path: "m.scxml", Status: Added, Result: res}}
	g := Evaluate(nil, models)
	if g.Conclusion != Failure || len(g.Findings) != 1 || g.Findings[0].Rule != vocab.RuleUnreachableState {
		t.Fatalf("defaults: %+v, want one blocking unreachable_state finding", g)
	}
	if msg := g.Findings[0].Message; msg != "state Never is unreachable in a new model (no execution enters it)" {
		t.Errorf("message %q", msg)
	}
	g = Evaluate(vocab.Gate{vocab.RuleTransientState: vocab.ActionWarn, vocab.RuleUnreachableState: vocab.ActionOff}, models)
	if g.Conclusion != Neutral || len(g.Findings) != 1 || g.Findings[0].Rule != vocab.RuleTransientState {
		t.Fatalf("transient_state: warn: %+v, want one warning", g)
	}
	if msg := g.Findings[0].Message; msg != "state Choice is entered but never stable within 10 events: every macrostep that enters it leaves it again" {
		t.Errorf("message %q", msg)
	}
}

// TestNewModelMarkdown checks how the comment shows a model with no base:
// no base row, no reuse of a base tree, and its never-entered states as
// unreachable in a new model.
func TestNewModelMarkdown(t *testing.T) {
	res := &incremental.Result{Strategy: vocab.StrategyFull, NoBase: true, NewStates: 6, SolverCalls: 3,
		Head:             incremental.Size{States: 6, Paths: 3},
		Changes:          []diffmap.Change{},
		NewlyUnreachable: []incremental.StateRef{{State: "Never", Line: 7}},
		TestDelta:        &testgen.Delta{}}
	body := Markdown(&Analysis{Models: []*Model{{Path: "m.scxml", Status: Added, Result: res}}}, Options{})
	for _, want := range []string{"the file was added: there is no base version", "| head | 6 | 3 |",
		"No base version: executed 6 states, 3 solver calls. Tree computed.", "`Never` (line 7): unreachable in a new model"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	for _, bad := range []string{"| base |", "of the base tree", "newly unreachable`"} {
		if strings.Contains(body, bad) {
			t.Errorf("the comment has %q:\n%s", bad, body)
		}
	}
}

// TestUndecidedQueriesMarkdown: queries the solver left undecided qualify
// the head tree in the comment.
func TestUndecidedQueriesMarkdown(t *testing.T) {
	res := &incremental.Result{Strategy: vocab.StrategyFull, NoBase: true, NewStates: 2, SolverCalls: 3, SolverUnknown: 1,
		Head: incremental.Size{States: 2, Paths: 1}, Changes: []diffmap.Change{}, TestDelta: &testgen.Delta{}}
	body := Markdown(&Analysis{Models: []*Model{{Path: "m.scxml", Status: Added, Result: res}}}, Options{})
	if want := "1 solver query undecided within the solver's time limit: a state reached only through them is not proven reachable"; !strings.Contains(body, want) {
		t.Errorf("the comment lacks %q:\n%s", want, body)
	}
}

// TestEveryRuleHasATitle checks that the comment can name every rule of
// the gate, and counts it in the headline.
func TestEveryRuleHasATitle(t *testing.T) {
	for _, r := range vocab.Rules {
		if ruleTitles[r][0] == "" || ruleTitles[r][1] == "" {
			t.Errorf("rule %s has no title in the comment", r)
		}
		if !slices.Contains(ruleOrder, r) {
			t.Errorf("rule %s is not counted in the headline", r)
		}
	}
}

// allRulesOff is a gate that turns every rule off.
func allRulesOff() vocab.Gate {
	g := vocab.Gate{}
	for _, r := range vocab.Rules {
		g[r] = vocab.ActionOff
	}
	return g
}

// without is g less rule r, which then takes its default.
func without(g vocab.Gate, r vocab.Rule) vocab.Gate {
	out := maps.Clone(g)
	delete(out, r)
	return out
}
