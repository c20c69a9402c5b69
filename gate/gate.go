// Package gate decides whether a change may pass (docs/architecture.md §The gate): it
// lists what the analysis of each changed model found (a newly unreachable
// state, a violated invariant, a bound that cut the head tree, a model
// that could not be analysed, ...) and applies the gate rules of the base
// branch's configuration to those findings. Package report shows the
// verdict; whoever assembles an analysis (package pipeline) asks for it.
package gate

import (
	"sort"

	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// Conclusions, as GitHub's check runs name them.
const (
	Success = "success"
	Neutral = "neutral"
	Failure = "failure"
)

// Model is what the gate looks at of one changed model file.
type Model struct {
	Path string // repository-relative, at head
	// Errors are the reasons the model could not be analysed; Warnings the
	// places of the head model whose code raises error.execution.
	Errors, Warnings []Diagnostic
	// New says the change adds the model: it has no base version.
	New bool
	// BaseErrors are the reasons the base version could not be read (it
	// does not load, or does not finish starting); nil when it was read or
	// there is none. BaseWarnings are the base's places that raise
	// error.execution. The head's that the base has too are already at the
	// base.
	BaseErrors, BaseWarnings []Diagnostic
	// Result is the analysis of the change; nil when the model was deleted
	// or could not be analysed.
	Result *incremental.Result
	// Head is the flattened head model, for the lines of states; nil when
	// there is none.
	Head *mlm.Machine
	// Expected maps the head's states that no execution is meant to enter
	// to what declares so (a setbot:expect annotation, a glob of
	// .setbot.yml).
	Expected map[string]string
}

// Diagnostic is a message about a place in a model file.
type Diagnostic struct {
	// Path is the file, when it is not the model's own (a machine the
	// model invokes through src); "" for the model's.
	Path         string
	Line, Column int // 0 when unknown
	Message      string
	// Refused: the error is about a construct setbot does not support.
	Refused bool
}

// Verdict is the gate rules' verdict on the findings.
type Verdict struct {
	Conclusion string    // Success, Neutral or Failure
	Findings   []Finding // what the gate counted; never nil
	// NotGated are the findings the gate lists without counting them:
	// those the base already had and states declared unreachable. Their
	// level is off. Never nil.
	NotGated []Finding
}

// Finding is one thing the gate looked at.
type Finding struct {
	Rule    vocab.Rule
	Level   vocab.Action // block or warn; off in Verdict.NotGated
	Path    string
	Line    int    // in the head file; the root element's when the finding is about the whole model; 0 when unknown
	Subject string // the state, invariant or bound, ...
	Message string
	// Reason says why the finding does not block; "" when it does.
	Reason vocab.Reason

	// capped: the finding warns at most, for its reason (a bound leaves
	// the claim open; a new model's first version).
	capped bool
}

// Evaluate applies the gate rules to what the models show: a rule that is
// absent, or set to something other than block, warn or off (the config
// package validates the values), takes its default; off drops the finding.
// A finding the base already had, or about a state declared unreachable,
// is listed in NotGated; a claim a bound leaves open warns at most. Every
// finding that does not block says why. The conclusion is Failure when
// any finding blocks, Neutral when any warns, Success otherwise. Findings
// are sorted by path, line, rule, subject and message.
func Evaluate(rules vocab.RuleActions, models []Model) Verdict {
	v := Verdict{Conclusion: Success, Findings: []Finding{}, NotGated: []Finding{}}
	for _, m := range models {
		for _, f := range findings(m) {
			if f.Line == 0 && f.Path == m.Path {
				// A claim about the whole model (a bound, a lost
				// output) is at its root element, so that every
				// finding has a place to annotate.
				f.Line = m.rootLine()
			}
			f.Level = rules.Action(f.Rule)
			switch {
			case f.Level == vocab.ActionOff:
				continue
			case !f.Reason.Counted():
				f.Level = vocab.ActionOff
				v.NotGated = append(v.NotGated, f)
				continue
			case f.capped && f.Level == vocab.ActionBlock:
				f.Level = vocab.ActionWarn
			}
			if f.Level == vocab.ActionBlock {
				f.Reason = ""
			} else if f.Reason == "" {
				f.Reason = vocab.ReasonRule
			}
			v.Findings = append(v.Findings, f)
		}
	}
	sort.SliceStable(v.Findings, func(i, j int) bool { return less(v.Findings[i], v.Findings[j]) })
	sort.SliceStable(v.NotGated, func(i, j int) bool { return less(v.NotGated[i], v.NotGated[j]) })
	for _, f := range v.Findings {
		switch {
		case f.Level == vocab.ActionBlock:
			v.Conclusion = Failure
		case f.Level == vocab.ActionWarn && v.Conclusion == Success:
			v.Conclusion = Neutral
		}
	}
	return v
}

func less(a, b Finding) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Rule != b.Rule {
		return a.Rule < b.Rule
	}
	if a.Subject != b.Subject {
		return a.Subject < b.Subject
	}
	return a.Message < b.Message
}
