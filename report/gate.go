package report

import "github.com/setbot/setbot/gate"

// NewVerdict is the report's object for the gate's verdict.
func NewVerdict(v gate.Verdict) Verdict {
	return Verdict{Conclusion: v.Conclusion, Findings: newFindings(v.Findings), NotGated: newFindings(v.NotGated)}
}

func newFindings(fs []gate.Finding) []Finding {
	out := make([]Finding, len(fs))
	for i, f := range fs {
		out[i] = Finding{Rule: f.Rule, Level: f.Level, Path: f.Path, Line: f.Line, Subject: f.Subject, Message: f.Message, Reason: f.Reason}
	}
	return out
}
