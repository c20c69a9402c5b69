package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/setbot/setbot/internal/buildinfo"
	"github.com/setbot/setbot/vocab"
)

// SARIF 2.1.0, the format GitHub code scanning and other CI systems read:
// one run of the tool setbot, with its version, a rule per gate rule with
// its help text, and a result per gate finding at its model line, with a
// fingerprint that does not move with the line.

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
	Name            string      `json:"name"`
	Version         string      `json:"version"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	InformationURI  string      `json:"informationUri"`
	Rules           []sarifRule `json:"rules"`
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
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	Physical sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// sarifFingerprint names setbot's fingerprint of a result in
// partialFingerprints (SARIF §3.27.17: a name and a version).
const sarifFingerprint = "setbotFinding/v1"

// informationURI is where setbot's documentation is.
const informationURI = "https://github.com/setbot/setbot"

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
// its model file (a path relative to the repository root) and line. Every
// result has a region: a finding with no line is on line 1, and none is
// past the end of its file. The rules' default levels are the default
// gate's; a result's level is the gate's action on it, so a pull request's
// code scanning shows the same verdict as the check. A result's
// fingerprint does not depend on its line (fingerprints), so that code
// scanning knows a finding again when an edit above it moves it.
func WriteSARIF(w io.Writer, a *Analysis) error {
	defaults := vocab.DefaultRuleActions()
	index := make(map[vocab.Rule]int, len(vocab.Rules))
	build := buildinfo.Read()
	driver := sarifDriver{Name: "setbot", Version: build.String(), SemanticVersion: build.SemVer(),
		InformationURI: informationURI, Rules: make([]sarifRule, len(vocab.Rules))}
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
	prints := fingerprints(a.Gate.Findings)
	for k, f := range a.Gate.Findings {
		i, ok := index[f.Rule]
		if !ok {
			return fmt.Errorf("writing SARIF: finding of unknown rule %q", f.Rule)
		}
		loc := sarifLocation{Physical: sarifPhysical{Artifact: sarifArtifact{URI: f.Path},
			Region: sarifRegion{StartLine: a.findingLine(f)}}}
		results = append(results, sarifResult{RuleID: string(f.Rule), RuleIndex: i, Level: sarifLevel(f.Level),
			Message: sarifText{f.Message}, Locations: []sarifLocation{loc},
			PartialFingerprints: map[string]string{sarifFingerprint: prints[k]}})
	}
	doc := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results}}}
	if err := encodeJSON(w, doc); err != nil {
		return fmt.Errorf("writing SARIF: %w", err)
	}
	return nil
}

// fingerprints identify findings across commits, for code scanning and
// GitLab's code quality: a hash of a finding's rule, file and subject,
// and not of its line or message, which an unrelated edit can change.
// Findings of one rule and subject in a file (an error message twice) are
// told apart by their order.
func fingerprints(findings []Finding) []string {
	out := make([]string, len(findings))
	seen := make(map[string]int)
	for i, f := range findings {
		key := string(f.Rule) + "\x00" + f.Path + "\x00" + f.Subject
		seen[key]++
		if n := seen[key]; n > 1 {
			key = fmt.Sprintf("%s\x00%d", key, n)
		}
		sum := sha256.Sum256([]byte(key))
		out[i] = hex.EncodeToString(sum[:16])
	}
	return out
}
