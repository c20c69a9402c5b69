package report

import (
	"fmt"
	"io"

	"github.com/setbot/setbot/vocab"
)

// GitLab's Code Quality report (artifacts:reports:codequality), a subset
// of Code Climate's issue format that GitLab shows in a merge request and
// on the changed lines: one issue per gate finding.

type codeQualityIssue struct {
	Description string              `json:"description"`
	CheckName   string              `json:"check_name"`
	Fingerprint string              `json:"fingerprint"`
	Severity    string              `json:"severity"`
	Location    codeQualityLocation `json:"location"`
}

type codeQualityLocation struct {
	Path  string           `json:"path"`
	Lines codeQualityLines `json:"lines"`
}

type codeQualityLines struct {
	Begin int `json:"begin"`
}

// codeQualitySeverity maps a gate action to one of GitLab's severities
// (info, minor, major, critical, blocker).
func codeQualitySeverity(a vocab.Action) string {
	if a == vocab.ActionBlock {
		return "blocker"
	}
	return "minor"
}

// WriteCodeQuality writes the gate's findings as a GitLab Code Quality
// report: per finding its message, its rule as the check, a fingerprint
// that does not depend on its line (as SARIF's), "blocker" for a blocking
// finding and "minor" for a warning, and its file and line (line 1 when
// it has none, never past the end of its file).
func WriteCodeQuality(w io.Writer, a *Analysis) error {
	prints := fingerprints(a.Gate.Findings)
	issues := make([]codeQualityIssue, len(a.Gate.Findings))
	for i, f := range a.Gate.Findings {
		issues[i] = codeQualityIssue{Description: f.Message, CheckName: string(f.Rule), Fingerprint: prints[i],
			Severity: codeQualitySeverity(f.Level),
			Location: codeQualityLocation{Path: f.Path, Lines: codeQualityLines{Begin: a.findingLine(f)}}}
	}
	if err := encodeJSON(w, issues); err != nil {
		return fmt.Errorf("writing the code quality report: %w", err)
	}
	return nil
}
