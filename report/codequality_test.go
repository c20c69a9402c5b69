package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/setbot/setbot/vocab"
)

// TestCodeQuality checks the GitLab Code Quality report of the fixture:
// one issue per finding with the fields GitLab requires (description,
// check_name, fingerprint, severity, location.path, location.lines.begin),
// the same fingerprints as the SARIF log's, and lines as the SARIF log's.
func TestCodeQuality(t *testing.T) {
	a := fixtureAnalysis(t)
	var b bytes.Buffer
	if err := WriteCodeQuality(&b, a); err != nil {
		t.Fatal(err)
	}
	var issues []struct {
		Description string `json:"description"`
		CheckName   string `json:"check_name"`
		Fingerprint string `json:"fingerprint"`
		Severity    string `json:"severity"`
		Location    struct {
			Path  string `json:"path"`
			Lines struct {
				Begin int `json:"begin"`
			} `json:"lines"`
		} `json:"location"`
	}
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&issues); err != nil {
		t.Fatal(err)
	}
	findings := a.Gate.Findings
	if len(issues) != len(findings) || len(issues) == 0 {
		t.Fatalf("%d issues, want one per finding (%d)", len(issues), len(findings))
	}
	sarif := writeSARIF(t, a).Runs[0].Results
	seen := make(map[string]bool)
	for i, is := range issues {
		f := findings[i]
		want := map[vocab.Action]string{vocab.ActionBlock: "blocker", vocab.ActionWarn: "minor"}[f.Level]
		if is.Description != f.Message || is.CheckName != string(f.Rule) || is.Severity != want || is.Location.Path != f.Path {
			t.Errorf("issue %d: %+v for finding %+v", i, is, f)
		}
		if is.Location.Lines.Begin != sarif[i].Locations[0].PhysicalLocation.Region.StartLine {
			t.Errorf("issue %d at line %d, the SARIF result at %d", i, is.Location.Lines.Begin, sarif[i].Locations[0].PhysicalLocation.Region.StartLine)
		}
		if is.Fingerprint == "" || is.Fingerprint != sarif[i].PartialFingerprints[sarifFingerprint] || seen[is.Fingerprint] {
			t.Errorf("issue %d: fingerprint %q (SARIF's %q), or seen before", i, is.Fingerprint, sarif[i].PartialFingerprints[sarifFingerprint])
		}
		seen[is.Fingerprint] = true
	}
}
