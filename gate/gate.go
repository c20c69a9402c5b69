// Package gate decides whether a change may pass (ARCHITECTURE.md §8): it
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
	// Result is the analysis of the change; nil when the model was deleted
	// or could not be analysed.
	Result *incremental.Result
	// Head is the flattened head model, for the lines of states; nil when
	// there is none.
	Head *mlm.Machine
}

// Diagnostic is a message about a place in a model file.
type Diagnostic struct {
	// Path is the file, when it is not the model's own (a machine the
	// model invokes through src); "" for the model's.
	Path         string
	Line, Column int // 0 when unknown
	Message      string
}

// Verdict is the gate rules' verdict on the findings.
type Verdict struct {
	Conclusion string    // Success, Neutral or Failure
	Findings   []Finding // never nil
}

// Finding is one thing the gate looked at.
type Finding struct {
	Rule    vocab.Rule
	Level   vocab.Action // block or warn
	Path    string
	Line    int    // in the head file; the root element's when the finding is about the whole model; 0 when unknown
	Subject string // the state, invariant or bound, ...
	Message string

	// uncertain: a bound leaves the claim open, so it warns at most.
	uncertain bool
}

// Evaluate applies the gate rules to what the models show: a rule that is
// absent, or set to something other than block, warn or off (the config
// package validates the values), takes its default; off drops the finding;
// a claim a bound leaves open warns at most. The conclusion is Failure when
// any finding blocks, Neutral when any warns, Success otherwise. Findings
// are sorted by path, line, rule, subject and message.
func Evaluate(rules vocab.Gate, models []Model) Verdict {
	v := Verdict{Conclusion: Success, Findings: []Finding{}}
	for _, m := range models {
		for _, f := range findings(m) {
			if f.Line == 0 && f.Path == m.Path {
				// A claim about the whole model (a bound, a lost
				// output) is at its root element, so that every
				// finding has a place to annotate.
				f.Line = m.rootLine()
			}
			f.Level = rules.Action(f.Rule)
			if f.uncertain && f.Level == vocab.ActionBlock {
				f.Level = vocab.ActionWarn
			}
			if f.Level != vocab.ActionOff {
				v.Findings = append(v.Findings, f)
			}
		}
	}
	sort.SliceStable(v.Findings, func(i, j int) bool { return less(v.Findings[i], v.Findings[j]) })
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
