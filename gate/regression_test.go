package gate

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/vocab"
)

// TestRegressionsOnly checks that with the default rules only what the
// change makes worse blocks, and that every other finding says why it
// does not.
func TestRegressionsOnly(t *testing.T) {
	type want struct {
		rule   vocab.Rule
		level  vocab.Action
		reason vocab.Reason
		text   string // in the message
	}
	conflict := func(atBase bool) incremental.Conflict {
		return incremental.Conflict{Conflict: analysis.Conflict{State: "A", Event: "e", Taken: "A:e>B", Shadows: "A:e>C", Line: 4}, AtBase: atBase}
	}
	tests := []struct {
		name string
		m    Model
		want []want
	}{
		{"an old error in a touched file, its line moved", Model{Path: "m.scxml",
			Errors:     []Diagnostic{{Line: 9, Column: 3, Message: `unknown target state "x"`}},
			BaseErrors: []Diagnostic{{Line: 8, Column: 3, Message: `unknown target state "x"`}}},
			[]want{{vocab.RuleNewModelError, vocab.ActionOff, vocab.ReasonAtBase, `line 9, column 3: unknown target state "x"`}}},
		{"an old error quoting a moved place, and a new one", Model{Path: "m.scxml",
			Errors: []Diagnostic{{Line: 9, Message: `duplicate setbot:id "T" (first at m.scxml:4:2)`},
				{Line: 12, Message: `unknown target state "y"`}},
			BaseErrors: []Diagnostic{{Line: 8, Message: `duplicate setbot:id "T" (first at m.scxml:3:2)`}}},
			[]want{{vocab.RuleNewModelError, vocab.ActionWarn, vocab.ReasonNoBase, "the base version could not be read: line 8: duplicate"},
				{vocab.RuleNewModelError, vocab.ActionOff, vocab.ReasonAtBase, "first at"}}},
		{"a model that loaded at the base breaks", Model{Path: "m.scxml",
			Errors: []Diagnostic{{Line: 3, Message: "malformed XML"}}},
			[]want{{vocab.RuleModelError, vocab.ActionBlock, "", "the model cannot be analysed: line 3: malformed XML"}}},
		{"an added file that does not load", Model{Path: "m.scxml", New: true,
			Errors: []Diagnostic{{Line: 3, Message: "malformed XML"}}},
			[]want{{vocab.RuleNewModelError, vocab.ActionWarn, vocab.ReasonNewModel, "malformed XML"}}},
		{"an added file in another data model", Model{Path: "m.scxml", New: true,
			Errors: []Diagnostic{{Line: 1, Column: 50, Message: `datamodel "xpath" is not supported`, Refused: true}}},
			[]want{{vocab.RuleModelRefused, vocab.ActionWarn, vocab.ReasonRefused, "setbot does not support a construct"}}},
		{"a refusal the base had too", Model{Path: "m.scxml",
			Errors:     []Diagnostic{{Line: 1, Message: `datamodel "xpath" is not supported`, Refused: true}},
			BaseErrors: []Diagnostic{{Line: 1, Message: `datamodel "xpath" is not supported`, Refused: true}}},
			[]want{{vocab.RuleModelRefused, vocab.ActionOff, vocab.ReasonAtBase, "not supported"}}},
		{"an error message the base has as a refusal is not the same", Model{Path: "m.scxml",
			Errors:     []Diagnostic{{Line: 1, Message: "x"}},
			BaseErrors: []Diagnostic{{Line: 1, Message: "x", Refused: true}}},
			[]want{{vocab.RuleNewModelError, vocab.ActionWarn, vocab.ReasonNoBase, "x"}}},
		{"a modified file whose base did not load", Model{Path: "m.scxml",
			BaseErrors: []Diagnostic{{Line: 2, Column: 1, Message: "malformed XML"}},
			Result:     &incremental.Result{NoBase: true, NewlyUnreachable: []incremental.StateRef{{State: "S", Line: 5}}}},
			[]want{{vocab.RuleNewModelUnreachable, vocab.ActionWarn, vocab.ReasonNoBase,
				"state S is unreachable (no execution enters it); the base version could not be read: line 2, column 1: malformed XML, so it is compared with nothing"}}},
		{"an added W3C test's fail state", Model{Path: "m.scxml", New: true, Expected: map[string]string{"fail": `setbot:expect="unreachable"`},
			Result: &incremental.Result{NoBase: true, NewlyUnreachable: []incremental.StateRef{{State: "fail", Line: 5}}}},
			[]want{{vocab.RuleNewModelUnreachable, vocab.ActionOff, vocab.ReasonExpected, `state fail is unreachable, as expected (setbot:expect="unreachable")`}}},
		{"a state meant to be unreachable that the change makes reachable", Model{Path: "m.scxml", Expected: map[string]string{"fail": "expect_unreachable: fail"},
			Result: &incremental.Result{NewlyReachable: []incremental.StateRef{{State: "fail", Line: 5}, {State: "pass", Line: 4}}}},
			[]want{{vocab.RuleExpectedReached, vocab.ActionBlock, "", "state fail is meant to be unreachable (expect_unreachable: fail), and some execution enters it: the base never did"}}},
		{"a state meant to be unreachable that a new model enters", Model{Path: "m.scxml", New: true, Expected: map[string]string{"fail": "expect_unreachable: fail"},
			Result: &incremental.Result{NoBase: true, NewlyReachable: []incremental.StateRef{{State: "fail", Line: 5}}}},
			[]want{{vocab.RuleExpectedReached, vocab.ActionWarn, vocab.ReasonNewModel, "state fail is meant to be unreachable"}}},
		{"a changed model's newly unreachable state", Model{Path: "m.scxml",
			Result: &incremental.Result{NewlyUnreachable: []incremental.StateRef{{State: "pass", Line: 4}}}},
			[]want{{vocab.RuleUnreachableState, vocab.ActionBlock, "", "state pass was reachable at base"}}},
		{"conflicts, one the base had", Model{Path: "m.scxml",
			Result: &incremental.Result{Nondeterminism: []incremental.Conflict{conflict(true), conflict(false)}}},
			[]want{{vocab.RuleNondeterminism, vocab.ActionWarn, vocab.ReasonRule, "both take e"},
				{vocab.RuleNondeterminism, vocab.ActionOff, vocab.ReasonAtBase, "both take e"}}},
		{"run-time errors, one the base had", Model{Path: "m.scxml",
			Warnings:     []Diagnostic{{Line: 7, Message: "an assignment to _event"}, {Line: 9, Message: "an assignment to _name"}},
			BaseWarnings: []Diagnostic{{Line: 6, Message: "an assignment to _event"}}},
			[]want{{vocab.RuleRuntimeError, vocab.ActionWarn, vocab.ReasonRule, "_name"},
				{vocab.RuleRuntimeError, vocab.ActionOff, vocab.ReasonAtBase, "_event"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Evaluate(nil, []Model{tc.m})
			got := append(append([]Finding(nil), v.Findings...), v.NotGated...) // counted first
			if len(got) != len(tc.want) {
				t.Fatalf("findings %+v, want %d", got, len(tc.want))
			}
			conclusion := Success
			for i, w := range tc.want {
				f := got[i]
				if f.Rule != w.rule || f.Level != w.level || f.Reason != w.reason || !strings.Contains(f.Message, w.text) {
					t.Errorf("finding %d: %s %s %q: %s\nwant %s %s %q: ...%s...", i, f.Rule, f.Level, f.Reason, f.Message, w.rule, w.level, w.reason, w.text)
				}
				switch {
				case w.level == vocab.ActionBlock:
					conclusion = Failure
				case w.level == vocab.ActionWarn && conclusion == Success:
					conclusion = Neutral
				}
			}
			if v.Conclusion != conclusion {
				t.Errorf("conclusion %s, want %s", v.Conclusion, conclusion)
			}
		})
	}
}

// TestNotGatedStaysOff: a rule a team turns off drops its findings, those
// already at the base included.
func TestNotGatedStaysOff(t *testing.T) {
	m := Model{Path: "m.scxml", Errors: []Diagnostic{{Message: "x"}}, BaseErrors: []Diagnostic{{Message: "x"}}}
	if v := Evaluate(vocab.RuleActions{vocab.RuleNewModelError: vocab.ActionOff}, []Model{m}); len(v.Findings)+len(v.NotGated) != 0 {
		t.Errorf("verdict %+v, want nothing", v)
	}
}
