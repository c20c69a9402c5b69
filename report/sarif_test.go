package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/setbot/setbot/internal/buildinfo"
	"github.com/setbot/setbot/vocab"
)

// TestSARIF checks the SARIF log against the 2.1.0 schema, and that it has
// a rule with help per gate rule and a result per finding at its line.
func TestSARIF(t *testing.T) {
	a := fixtureAnalysis(t)
	run := writeSARIF(t, a).Runs[0]
	rules := run.Tool.Driver.Rules
	if len(rules) != len(vocab.Rules) {
		t.Errorf("%d rules, want %d", len(rules), len(vocab.Rules))
	}
	for _, r := range rules {
		if r.Help.Text == "" {
			t.Errorf("rule %s has no help", r.ID)
		}
	}
	if len(run.Results) != len(a.Gate.Findings) || len(run.Results) == 0 {
		t.Fatalf("%d results, want one per finding (%d)", len(run.Results), len(a.Gate.Findings))
	}
	for i, r := range run.Results {
		f := a.Gate.Findings[i]
		loc := r.Locations[0].PhysicalLocation
		if r.RuleID != string(f.Rule) || rules[r.RuleIndex].ID != r.RuleID || loc.ArtifactLocation.URI != f.Path {
			t.Errorf("result %d: %+v for finding %+v", i, r, f)
		}
		if loc.Region == nil || loc.Region.StartLine != max(f.Line, 1) {
			t.Errorf("result %d is not at line %d: %+v", i, f.Line, loc.Region)
		}
		if want := map[vocab.Action]string{vocab.ActionBlock: "error", vocab.ActionWarn: "warning"}[f.Level]; r.Level != want {
			t.Errorf("result %d: level %s for a %s finding", i, r.Level, f.Level)
		}
	}
}

// sarifOut is what the tests read of a SARIF log.
type sarifOut struct {
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Version         string `json:"version"`
				SemanticVersion string `json:"semanticVersion"`
				Rules           []struct {
					ID   string `json:"id"`
					Help struct{ Text string }
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			RuleIndex int    `json:"ruleIndex"`
			Level     string `json:"level"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI string } `json:"artifactLocation"`
					Region           *struct {
						StartLine int `json:"startLine"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

func writeSARIF(t *testing.T, a *Analysis) sarifOut {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSARIF(&b, a); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, b.Bytes())
	var out sarifOut
	if err := json.Unmarshal(b.Bytes(), &out); err != nil || out.Version != "2.1.0" || len(out.Runs) != 1 {
		t.Fatalf("SARIF (err %v):\n%s", err, b.Bytes())
	}
	return out
}

// TestSARIFRegions checks that every result has a region within its file
// (a finding with no line on line 1, one past the end of its file on its
// last line), the tool's version, and fingerprints that tell findings
// apart and stay the same when an edit moves the lines.
func TestSARIFRegions(t *testing.T) {
	analysis := func(shift int) *Analysis {
		return &Analysis{
			Models: []*Model{
				{Path: "m.scxml", Lines: map[string]int{"m.scxml": 40 + shift, "sub/child.scxml": 6}},
				{Path: "broken.scxml", Lines: map[string]int{"broken.scxml": 2 + shift}},
				{Path: "binary.scxml"},
			},
			Gate: Verdict{Conclusion: Failure, Findings: []Finding{
				{Rule: vocab.RuleUnreachableState, Level: vocab.ActionBlock, Path: "m.scxml", Line: 7 + shift, Subject: "B"},
				{Rule: vocab.RuleUnreachableState, Level: vocab.ActionBlock, Path: "m.scxml", Line: 9 + shift, Subject: "C"},
				{Rule: vocab.RuleBoundHit, Level: vocab.ActionWarn, Path: "m.scxml", Line: 2 + shift, Subject: "depth"},
				{Rule: vocab.RuleModelError, Level: vocab.ActionBlock, Path: "sub/child.scxml", Line: 4, Subject: "unknown target state \"X\""},
				{Rule: vocab.RuleModelError, Level: vocab.ActionBlock, Path: "sub/child.scxml", Line: 5, Subject: "unknown target state \"X\""},
				// The end of a file that ends with a newline: one line
				// past its last.
				{Rule: vocab.RuleModelError, Level: vocab.ActionBlock, Path: "broken.scxml", Line: 3 + shift, Subject: "malformed XML: unexpected EOF"},
				{Rule: vocab.RuleModelError, Level: vocab.ActionBlock, Path: "binary.scxml", Subject: "not UTF-8 text: is it a model?"},
			}},
		}
	}
	want := []int{7, 9, 2, 4, 5, 2, 1}
	got := writeSARIF(t, analysis(0))
	if v := got.Runs[0].Tool.Driver.Version; v == "" || v != buildinfo.Read().String() {
		t.Errorf("driver version %q, want %q", v, buildinfo.Read().String())
	}
	results := got.Runs[0].Results
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d", len(results), len(want))
	}
	prints := make(map[string]int)
	for i, r := range results {
		region := r.Locations[0].PhysicalLocation.Region
		if region == nil || region.StartLine != want[i] {
			t.Errorf("result %d (%s): region %+v, want line %d", i, r.Locations[0].PhysicalLocation.ArtifactLocation.URI, region, want[i])
		}
		fp := r.PartialFingerprints[sarifFingerprint]
		if fp == "" {
			t.Errorf("result %d has no %s fingerprint: %v", i, sarifFingerprint, r.PartialFingerprints)
		}
		if j, dup := prints[fp]; dup {
			t.Errorf("results %d and %d have the same fingerprint", j, i)
		}
		prints[fp] = i
	}
	moved := writeSARIF(t, analysis(10)).Runs[0].Results
	for i, r := range moved {
		if fp := r.PartialFingerprints[sarifFingerprint]; fp != results[i].PartialFingerprints[sarifFingerprint] {
			t.Errorf("result %d: the fingerprint changed when the lines moved", i)
		}
	}
	if line := moved[5].Locations[0].PhysicalLocation.Region.StartLine; line != 12 {
		t.Errorf("past the end of a 12-line file: line %d, want 12", line)
	}
}

func TestLineCount(t *testing.T) {
	for text, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "a\nb\n": 2, "\n\n": 2} {
		if got := LineCount([]byte(text)); got != want {
			t.Errorf("LineCount(%q) = %d, want %d", text, got, want)
		}
	}
}
