package gate

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/vocab"
)

// file is the file d is in: its own, or the model's.
func (d Diagnostic) file(model string) string {
	if d.Path != "" {
		return d.Path
	}
	return model
}

// located writes a diagnostic with its place: "line 3, column 5: ...",
// after the file when it is not the model's.
func (d Diagnostic) located() string {
	msg := d.Message
	if d.Line > 0 {
		msg = fmt.Sprintf("line %d: %s", d.Line, d.Message)
		if d.Column > 0 {
			msg = fmt.Sprintf("line %d, column %d: %s", d.Line, d.Column, d.Message)
		}
	}
	if d.Path != "" {
		msg = d.Path + ", " + msg
	}
	return msg
}

// places are the positions a message may quote ("m.scxml:3:7", "line 3"),
// which move when lines are added above them.
var places = regexp.MustCompile(`:\d+:\d+\b|\bline \d+`)

// diagnosticKey is what tells a diagnostic the same at both versions: its
// file (the model's under either name, or the one it reads), whether it is
// a refusal, and its message with the positions it quotes left out. The
// position itself is not part of it, so a line moved by an unrelated edit
// keeps an old error old.
func diagnosticKey(d Diagnostic) string {
	return fmt.Sprintf("%s\x00%t\x00%s", d.Path, d.Refused, places.ReplaceAllString(d.Message, "#"))
}

// atBase returns, for each of head, whether base has the same diagnostic,
// each of base matching at most one of head.
func atBase(head, base []Diagnostic) []bool {
	left := make(map[string]int, len(base))
	for _, d := range base {
		left[diagnosticKey(d)]++
	}
	out := make([]bool, len(head))
	for i, d := range head {
		if k := diagnosticKey(d); left[k] > 0 {
			left[k]--
			out[i] = true
		}
	}
	return out
}

// noBase says why a model has nothing to compare with, "" when it has.
func (m Model) noBase() vocab.Reason {
	switch {
	case m.New:
		return vocab.ReasonNewModel
	case len(m.BaseErrors) > 0:
		return vocab.ReasonNoBase
	}
	return ""
}

// baseUnread says why the base version could not be read: its first error.
func (m Model) baseUnread() string {
	msg := "the base version could not be read: " + m.BaseErrors[0].located()
	if n := len(m.BaseErrors) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// findings lists what one model shows, before the rules are applied.
func findings(m Model) []Finding {
	noBase := m.noBase()
	out := m.diagnosticFindings(noBase)
	r := m.Result
	if r == nil {
		return out
	}
	if r.NoBase && noBase == "" {
		noBase = vocab.ReasonNewModel
	}
	for _, s := range r.NewlyUnreachable {
		out = append(out, m.unreachableFinding(s, noBase))
	}
	for _, s := range r.NewlyReachable {
		if f, ok := m.expectedReached(s, noBase); ok {
			out = append(out, f)
		}
	}
	for _, s := range r.NewlyTransient {
		f := Finding{Rule: vocab.RuleTransientState, Path: m.Path, Line: s.Line, Subject: s.State,
			Message: fmt.Sprintf("state %s is entered but %s: every macrostep that enters it leaves it again", s.State, NeverStable(s.Within))}
		if s.CutBy != "" {
			f.capped, f.Reason = true, vocab.ReasonBound
			f.Message = fmt.Sprintf("state %s is entered but was not stable before the %s bound cut the head tree", s.State, s.CutBy)
		}
		out = append(out, f)
	}
	for _, b := range r.BoundsHit {
		out = append(out, Finding{Rule: vocab.RuleBoundHit, Path: m.Path, Subject: string(b.Bound), Message: boundText(b)})
	}
	for _, c := range r.Invariants {
		if c.Holds {
			continue
		}
		out = append(out, Finding{Rule: vocab.RuleInvariantViolation, Path: m.Path, Line: m.stateLine(c.State),
			Subject: c.Invariant, Message: invariantText(c)})
	}
	for _, o := range r.OutputsLost {
		f := Finding{Rule: vocab.RuleOutputLost, Path: m.Path, Line: m.senderLine(o), Subject: o.Output, Message: outputLostText(o)}
		if o.CutBy != "" {
			f.capped, f.Reason = true, vocab.ReasonBound
		}
		out = append(out, f)
	}
	for _, c := range r.Nondeterminism {
		f := Finding{Rule: vocab.RuleNondeterminism, Path: m.Path, Line: c.Line,
			Subject: c.Taken + " / " + c.Shadows, Message: conflictText(c)}
		if c.AtBase {
			f.Reason = vocab.ReasonAtBase // the change did not make it
		}
		out = append(out, f)
	}
	return out
}

// diagnosticFindings are the findings of the model's errors and run-time
// errors, each marked when the base had it too; noBase says why the model
// has no base to compare with, if so.
func (m Model) diagnosticFindings(noBase vocab.Reason) []Finding {
	var out []Finding
	old := atBase(m.Errors, m.BaseErrors)
	for i, d := range m.Errors {
		f := Finding{Rule: vocab.RuleModelError, Path: d.file(m.Path), Line: d.Line, Subject: d.Message,
			Message: "the model cannot be analysed: " + d.located()}
		switch {
		case d.Refused:
			f.Rule, f.Reason = vocab.RuleModelRefused, vocab.ReasonRefused
			f.Message = "setbot does not support a construct the model uses, so it is not analysed: " + d.located()
		case noBase != "":
			f.Rule, f.Reason = vocab.RuleNewModelError, noBase
		}
		if old[i] {
			f.Reason = vocab.ReasonAtBase
		} else if noBase == vocab.ReasonNoBase {
			f.Message += "; " + m.baseUnread()
		}
		out = append(out, f)
	}
	old = atBase(m.Warnings, m.BaseWarnings)
	for i, d := range m.Warnings {
		f := Finding{Rule: vocab.RuleRuntimeError, Path: d.file(m.Path), Line: d.Line, Subject: d.Message,
			Message: "the code raises error.execution here whenever it runs: " + d.Message}
		if old[i] {
			f.Reason = vocab.ReasonAtBase
		}
		out = append(out, f)
	}
	return out
}

// unreachableFinding is the finding of a state the head never enters: a
// regression, a state of a model with nothing to compare with (noBase), a
// claim a bound leaves open, or a state meant to be unreachable.
func (m Model) unreachableFinding(s incremental.StateRef, noBase vocab.Reason) Finding {
	r := m.Result
	f := Finding{Rule: vocab.RuleUnreachableState, Path: m.Path, Line: s.Line, Subject: s.State,
		Message: fmt.Sprintf("state %s was reachable at base; at head it is %s (no execution enters it)", s.State, Unreachable(s.Within))}
	switch {
	case r.NoBase && noBase == vocab.ReasonNoBase:
		f.Rule, f.Reason = vocab.RuleNewModelUnreachable, noBase
		f.Message = fmt.Sprintf("state %s is %s (no execution enters it); %s, so it is compared with nothing", s.State, Unreachable(s.Within), m.baseUnread())
	case r.NoBase:
		f.Rule, f.Reason = vocab.RuleNewModelUnreachable, noBase
		f.Message = fmt.Sprintf("state %s is %s in a new model (no execution enters it)", s.State, Unreachable(s.Within))
	}
	if s.CutBy != "" {
		f.capped = true
		if f.Reason == "" {
			f.Reason = vocab.ReasonBound
		}
		f.Message = fmt.Sprintf("state %s was not entered before the %s bound cut the head tree (it may still be reachable: raise the bound, %s, to decide)", s.State, s.CutBy, s.CutBy.Setting())
	}
	if why, ok := m.Expected[s.State]; ok {
		f.Reason = vocab.ReasonExpected
		f.Message = fmt.Sprintf("state %s is %s, as expected (%s)", s.State, Unreachable(s.Within), why)
	}
	return f
}

// expectedReached is the finding of a state meant to be unreachable that
// the head enters, where the base did not; false for any other state.
func (m Model) expectedReached(s incremental.StateRef, noBase vocab.Reason) (Finding, bool) {
	why, ok := m.Expected[s.State]
	if !ok {
		return Finding{}, false
	}
	f := Finding{Rule: vocab.RuleExpectedReached, Path: m.Path, Line: s.Line, Subject: s.State,
		Message: fmt.Sprintf("state %s is meant to be unreachable (%s), and some execution enters it: the base never did", s.State, why)}
	if m.Result.NoBase {
		// A new model's first version warns at most.
		f.Message = fmt.Sprintf("state %s is meant to be unreachable (%s), and some execution enters it", s.State, why)
		f.capped, f.Reason = true, noBase
	}
	return f, true
}

// Unreachable qualifies an unreachability claim by the depth bound, as
// the findings and the report say it.
func Unreachable(within int) string {
	if within > 0 {
		return fmt.Sprintf("unreachable within %d events", within)
	}
	return "unreachable"
}

// NeverStable qualifies a transience claim by the depth bound.
func NeverStable(within int) string {
	if within > 0 {
		return fmt.Sprintf("never stable within %d events", within)
	}
	return "never stable"
}

func boundText(b engine.BoundHit) string {
	paths := fmt.Sprintf("%d paths", b.Count)
	if b.Count == 1 {
		paths = "1 path"
	}
	return fmt.Sprintf("the %s bound (%s) cut %s of the head tree: its results hold only within it (raise it with %s)", b.Bound, b.Bound.FormatLimit(b.Limit), paths, b.Bound.Setting())
}

func outputLostText(o incremental.OutputRef) string {
	if o.CutBy != "" {
		return fmt.Sprintf("output %s, which the base sends, was not sent before the %s bound cut the head tree (it may still be: raise the bound, %s, to decide)", o.Output, o.CutBy, o.CutBy.Setting())
	}
	never := "never sends it"
	if o.Within > 0 {
		never = fmt.Sprintf("does not send it within %d events", o.Within)
	}
	msg := fmt.Sprintf("output %s is lost: the head %s", o.Output, never)
	if o.BaseWitness != nil {
		msg += fmt.Sprintf("; the base sends it after the inputs %s", inputs(o.BaseWitness))
	}
	return msg
}

func conflictText(c incremental.Conflict) string {
	msg := fmt.Sprintf("transitions %s and %s both take %s in state %s with conditions that can hold together: there, priority takes %s and %s does not fire",
		c.Taken, c.Shadows, c.Event, c.State, c.Taken, c.Shadows)
	if c.Witness != nil {
		msg += fmt.Sprintf(" (reached by the inputs %s)", inputs(c.Witness))
	}
	return msg
}

func invariantText(c analysis.InvariantCheck) string {
	var b strings.Builder
	fmt.Fprintf(&b, "invariant %s", c.Invariant)
	if c.Implied != "" {
		fmt.Fprintf(&b, " (implied by %s)", c.Implied)
	}
	b.WriteString(" is violated")
	if c.State != "" {
		fmt.Fprintf(&b, " in state %s", c.State)
	}
	if c.Witness != nil {
		fmt.Fprintf(&b, ", reached by the inputs %s", inputs(c.Witness))
	}
	return b.String()
}

// inputs spells a test's input sequence on one line.
func inputs(t *testgen.Test) string {
	if len(t.Steps) == 0 {
		return "(no input)"
	}
	parts := make([]string, len(t.Steps))
	for i, s := range t.Steps {
		parts[i] = testgen.FormatEvent(s.Event, s.Timer, s.Args)
	}
	return strings.Join(parts, ", ")
}

// stateLine is the head file line of a flattened state (its first active
// atomic state), or 0 when unknown.
func (m Model) stateLine(name string) int {
	if m.Head == nil || name == "" {
		return 0
	}
	src := m.Head.Source
	if s := m.Head.State(name); s != nil && s.Pos.IsValid() {
		return src.Position(s.Pos).Line
	}
	if s := src.Lookup(name); s != nil && s.Pos.IsValid() {
		return src.Line(s.Pos)
	}
	return 0
}

// rootLine is the head file line of the model's root element (<scxml>),
// or 0 when unknown.
func (m Model) rootLine() int {
	if m.Head == nil || m.Head.Source == nil || m.Head.Source.Root == nil {
		return 0
	}
	return m.Head.Source.Line(m.Head.Source.Root.Pos)
}

// senderLine is the head file line of the transition that sent a lost
// output at base, when the head still has it (the same key): the last step
// of the base's witness sends it, and of the transitions that step fired,
// the first the head has is the line. 0 when the head has none of them.
func (m Model) senderLine(o incremental.OutputRef) int {
	if m.Head == nil || o.BaseWitness == nil || len(o.BaseWitness.Steps) == 0 {
		return 0
	}
	last := o.BaseWitness.Steps[len(o.BaseWitness.Steps)-1]
	for _, f := range last.Fired {
		i, found := sort.Find(len(m.Head.Transitions), func(i int) int { return strings.Compare(f.Key, m.Head.Transitions[i].Key) })
		if found {
			if line := m.Head.Source.Line(m.Head.Transitions[i].Pos); line > 0 {
				return line
			}
		}
	}
	return 0
}
