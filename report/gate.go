package report

import "github.com/setbot/setbot/gate"

// NewGate is the report's object for the gate's verdict.
func NewGate(v gate.Verdict) Gate {
	g := Gate{Conclusion: v.Conclusion, Findings: make([]Finding, len(v.Findings))}
	for i, f := range v.Findings {
		g.Findings[i] = Finding{Rule: f.Rule, Level: f.Level, Path: f.Path, Line: f.Line, Subject: f.Subject, Message: f.Message}
	}
	return g
}
