package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/setbot/setbot/vocab"
)

// SARIF 2.1.0, the format GitHub code scanning and other CI systems read:
// one run of the tool setbot, a rule per gate rule with its help text, and
// a result per gate finding at its model line.

const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name  string      `json:"name"`
	Rules []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string        `json:"id"`
	ShortDescription sarifText     `json:"shortDescription"`
	FullDescription  sarifText     `json:"fullDescription"`
	Help             sarifText     `json:"help"`
	Default          sarifDefaults `json:"defaultConfiguration"`
}

type sarifDefaults struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	Physical sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// sarifLevel maps a gate action to a SARIF level: a blocking finding is an
// error, a warning a warning, and a rule that is off only a note.
func sarifLevel(a vocab.Action) string {
	switch a {
	case vocab.ActionBlock:
		return "error"
	case vocab.ActionWarn:
		return "warning"
	}
	return "note"
}

// WriteSARIF writes the gate's findings as a SARIF 2.1.0 log: every gate
// rule, with what it means and what to do, and one result per finding, at
// its model file (a path relative to the repository root) and line. The
// rules' default levels are the default gate's; a result's level is the
// gate's action on it, so a pull request's code scanning shows the same
// verdict as the check.
func WriteSARIF(w io.Writer, a *Analysis) error {
	defaults := vocab.DefaultGate()
	index := make(map[vocab.Rule]int, len(vocab.Rules))
	driver := sarifDriver{Name: "setbot", Rules: make([]sarifRule, len(vocab.Rules))}
	for i, r := range vocab.Rules {
		index[r] = i
		driver.Rules[i] = sarifRule{
			ID:               string(r),
			ShortDescription: sarifText{r.Summary()},
			FullDescription:  sarifText{r.Summary() + " " + r.Help()},
			Help:             sarifText{r.Help()},
			Default:          sarifDefaults{sarifLevel(defaults.Action(r))},
		}
	}
	results := []sarifResult{}
	for _, f := range a.Gate.Findings {
		i, ok := index[f.Rule]
		if !ok {
			return fmt.Errorf("writing SARIF: finding of unknown rule %q", f.Rule)
		}
		loc := sarifLocation{Physical: sarifPhysical{Artifact: sarifArtifact{URI: f.Path}}}
		if f.Line > 0 {
			loc.Physical.Region = &sarifRegion{StartLine: f.Line}
		}
		results = append(results, sarifResult{RuleID: string(f.Rule), RuleIndex: i, Level: sarifLevel(f.Level),
			Message: sarifText{f.Message}, Locations: []sarifLocation{loc}})
	}
	doc := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing SARIF: %w", err)
	}
	return nil
}
