package report

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/setbot/setbot/vocab"
)

type parsedSuites struct {
	Tests    int           `xml:"tests,attr"`
	Failures int           `xml:"failures,attr"`
	Skipped  int           `xml:"skipped,attr"`
	Suites   []parsedSuite `xml:"testsuite"`
}

type parsedSuite struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Cases    []struct {
		Name      string `xml:"name,attr"`
		ClassName string `xml:"classname,attr"`
		SystemOut string `xml:"system-out"`
		Skipped   *struct {
			Message string `xml:"message,attr"`
		} `xml:"skipped"`
		Failure *struct {
			Message string `xml:"message,attr"`
			Type    string `xml:"type,attr"`
			Text    string `xml:",chardata"`
		} `xml:"failure"`
	} `xml:"testcase"`
}

func parseJUnit(t *testing.T, a *Analysis) parsedSuites {
	t.Helper()
	var b bytes.Buffer
	if err := WriteJUnit(&b, a); err != nil {
		t.Fatal(err)
	}
	var got parsedSuites
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("the JUnit XML does not parse: %v\n%s", err, b.String())
	}
	return got
}

func TestJUnit(t *testing.T) {
	a := fixtureAnalysis(t)
	got := parseJUnit(t, a)
	if len(got.Suites) != len(a.Models) {
		t.Fatalf("%d suites, want one per model (%d)", len(got.Suites), len(a.Models))
	}
	byPath := make(map[string]*Model)
	for _, m := range a.Models {
		byPath[m.Path] = m
	}
	var tests, failures, skipped int
	for _, s := range got.Suites {
		m := byPath[s.Name]
		if m == nil {
			t.Errorf("suite %q names no model", s.Name)
			continue
		}
		var wantTests, wantSkipped, wantFailures int
		if m.ChangeAnalysis != nil {
			d := m.TestDelta
			wantTests = len(d.Retained) + len(d.Changed) + len(d.New) + len(d.Obsolete)
			wantSkipped = len(d.Obsolete)
		}
		for _, f := range a.Gate.Findings {
			if f.Path == m.Path && f.Level == vocab.ActionBlock {
				wantFailures++
			}
		}
		wantTests += wantFailures
		var cases, caseFailures, caseSkipped int
		for _, c := range s.Cases {
			cases++
			if c.ClassName != m.Path {
				t.Errorf("%s: test case %s has classname %q", m.Path, c.Name, c.ClassName)
			}
			if c.Failure != nil {
				caseFailures++
				if !strings.HasPrefix(c.Name, "gate: "+c.Failure.Type) {
					t.Errorf("%s: failing case %q is not named after its rule %s", m.Path, c.Name, c.Failure.Type)
				}
			}
			if c.Skipped != nil {
				caseSkipped++
			}
			if c.Failure == nil && !strings.Contains(c.SystemOut, "final: ") {
				t.Errorf("%s: test %s has no steps in system-out", m.Path, c.Name)
			}
		}
		if s.Tests != wantTests || cases != wantTests {
			t.Errorf("%s: tests=%d with %d cases, want %d", m.Path, s.Tests, cases, wantTests)
		}
		if s.Failures != wantFailures || caseFailures != wantFailures {
			t.Errorf("%s: failures=%d with %d failing cases, want %d", m.Path, s.Failures, caseFailures, wantFailures)
		}
		if s.Skipped != wantSkipped || caseSkipped != wantSkipped {
			t.Errorf("%s: skipped=%d with %d skipped cases, want %d", m.Path, s.Skipped, caseSkipped, wantSkipped)
		}
		tests, failures, skipped = tests+s.Tests, failures+s.Failures, skipped+s.Skipped
	}
	if got.Tests != tests || got.Failures != failures || got.Skipped != 0 {
		t.Errorf("testsuites counts %d/%d/%d, want the sums %d/%d and no skipped (junit-10.xsd has none there)", got.Tests, got.Failures, got.Skipped, tests, failures)
	}
	if skipped == 0 {
		t.Error("the fixture has no obsolete tests to skip")
	}
	if failures != 5 {
		t.Errorf("%d failing gate cases, want 5 (1 unreachable state, 1 invariant, 3 model errors)", failures)
	}
}

// TestJUnitEscapes checks that text which is not plain XML survives.
func TestJUnitEscapes(t *testing.T) {
	msg := "a <b> & \"c\" ]]> \x01 end"
	m := &Model{Path: "models/a&b.scxml", Status: Modified, Errors: []Diagnostic{{Line: 1, Message: msg}}}
	a := &Analysis{Models: []*Model{m}, Gate: judge(nil, []*Model{m})}
	got := parseJUnit(t, a)
	if len(got.Suites) != 1 || got.Suites[0].Name != m.Path || len(got.Suites[0].Cases) != 1 {
		t.Fatalf("parsed %+v", got)
	}
	f := got.Suites[0].Cases[0].Failure
	if f == nil || !strings.Contains(f.Message, "a <b> & \"c\" ]]>") || !strings.Contains(f.Text, "end") {
		t.Errorf("failure %+v", f)
	}
}

// TestJUnitSchema checks the JUnit XML against Jenkins' schema with xmllint.
func TestJUnitSchema(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJUnit(&b, fixtureAnalysis(t)); err != nil {
		t.Fatal(err)
	}
	validateJUnit(t, b.Bytes())
	got := parseJUnit(t, fixtureAnalysis(t))
	for _, s := range got.Suites {
		for _, c := range s.Cases {
			if c.Failure == nil && !strings.HasSuffix(c.Name, "]") || strings.HasPrefix(c.Name, "t") && !strings.Contains(c.Name, " ") {
				t.Errorf("test name %q is not its inputs then its id", c.Name)
			}
		}
	}
}
