package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/setbot/setbot/vocab"
)

// TestSARIF checks the SARIF log against the 2.1.0 schema, and that it has
// a rule with help per gate rule and a result per finding at its line.
func TestSARIF(t *testing.T) {
	a := fixtureAnalysis(t)
	var b bytes.Buffer
	if err := WriteSARIF(&b, a); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, b.Bytes())

	var got struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
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
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Version != "2.1.0" || len(got.Runs) != 1 {
		t.Fatalf("version %q, %d runs", got.Version, len(got.Runs))
	}
	run := got.Runs[0]
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
		if f.Line > 0 && (loc.Region == nil || loc.Region.StartLine != f.Line) {
			t.Errorf("result %d is not at line %d: %+v", i, f.Line, loc.Region)
		}
		if want := map[vocab.Action]string{vocab.ActionBlock: "error", vocab.ActionWarn: "warning"}[f.Level]; r.Level != want {
			t.Errorf("result %d: level %s for a %s finding", i, r.Level, f.Level)
		}
	}
}
