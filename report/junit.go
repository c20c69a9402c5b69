package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/vocab"
)

// The elements and attributes are those of Jenkins' JUnit schema
// (junit-10.xsd), which other CI systems read too: <testsuites> has no
// skipped count, <testsuite> must have failures and errors.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes JUnit XML: one test suite per model, named by its path,
// holding the head version's tests (retained, changed oracle and new),
// named by their inputs (testgen.Name), with their steps in system-out, the
// obsolete tests as skipped, and one failing test case per blocking finding
// of the model, so that CI shows the gate tripping as a red test. A suite's
// time is the time its trees took; a test case's is 0, since setbot
// generates tests without running them.
func WriteJUnit(w io.Writer, a *Analysis) error {
	doc := junitSuites{Name: "setbot"}
	var total time.Duration
	for _, m := range sortedModels(a.Models) {
		s := junitSuite{Name: m.Path}
		var took time.Duration
		if m.ChangeAnalysis != nil {
			took = time.Duration(m.Base.Ms+m.Head.Ms) * time.Millisecond
		}
		total += took
		s.Time = testgen.Seconds(took)
		zero := testgen.Seconds(0)
		if m.ChangeAnalysis != nil && m.TestDelta != nil {
			d := m.TestDelta
			for _, group := range []struct {
				what  string
				tests []Test
			}{{"retained", d.Retained}, {"changed oracle", d.Changed}, {"new", d.New}} {
				for i := range group.tests {
					t := &group.tests[i]
					s.Cases = append(s.Cases, junitCase{Name: testName(t), ClassName: m.Path, Time: zero, SystemOut: steps(group.what, t)})
				}
			}
			for i := range d.Obsolete {
				t := &d.Obsolete[i]
				s.Cases = append(s.Cases, junitCase{Name: testName(t), ClassName: m.Path, Time: zero, SystemOut: steps("obsolete", t),
					Skipped: &junitMessage{Message: "obsolete: the path it drove is gone at head"}})
				s.Skipped++
			}
		}
		for _, f := range a.Gate.Findings {
			if f.Path != m.Path || f.Level != vocab.ActionBlock {
				continue
			}
			name := "gate: " + string(f.Rule)
			if f.Subject != "" {
				name += " " + f.Subject
			}
			body := f.Message
			if f.Line > 0 {
				body = fmt.Sprintf("%s:%d: %s", f.Path, f.Line, f.Message)
			}
			s.Cases = append(s.Cases, junitCase{Name: name, ClassName: m.Path, Time: zero,
				Failure: &junitMessage{Message: f.Message, Type: string(f.Rule), Text: body}})
			s.Failures++
		}
		s.Tests = len(s.Cases)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Suites = append(doc.Suites, s)
	}
	doc.Time = testgen.Seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JUnit XML: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// testName is a test's name in CI: its inputs in order, shortened, and its id.
func testName(t *Test) string {
	inputs := make([]string, len(t.Steps))
	for i, s := range t.Steps {
		inputs[i] = stepInput(s)
	}
	return testgen.Name(t.ID, inputs)
}

// steps spells a test for system-out: each input with the outputs it must
// produce and the configuration it leads to, then the final configuration,
// as setbot tests --format junit spells them (testgen.StepLine).
func steps(what string, t *Test) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s test\n", what)
	for i, s := range t.Steps {
		outputs := make([]string, len(s.Outputs))
		for j, o := range s.Outputs {
			outputs[j] = testgen.FormatOutput(o.Event, o.Target, o.Args)
		}
		b.WriteString(testgen.StepLine(i+1, stepInput(s), outputs, s.Config))
	}
	fmt.Fprintf(&b, "final: %s\n", strings.Join(t.Final, ","))
	return b.String()
}
