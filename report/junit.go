package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/setbot/setbot/vocab"
)

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
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
// holding the head version's tests (retained, changed oracle and new) with
// their steps in system-out, the obsolete tests as skipped, and one failing
// test case per blocking finding of the model, so that CI shows the gate
// tripping as a red test.
func WriteJUnit(w io.Writer, a *Analysis) error {
	doc := junitSuites{Name: "setbot"}
	for _, m := range sortedModels(a.Models) {
		s := junitSuite{Name: m.Path}
		if m.ChangeAnalysis != nil && m.TestDelta != nil {
			d := m.TestDelta
			for _, group := range []struct {
				what  string
				tests []Test
			}{{"retained", d.Retained}, {"changed oracle", d.Changed}, {"new", d.New}} {
				for i := range group.tests {
					t := &group.tests[i]
					s.Cases = append(s.Cases, junitCase{Name: t.ID, ClassName: m.Path, SystemOut: steps(group.what, t)})
				}
			}
			for i := range d.Obsolete {
				t := &d.Obsolete[i]
				s.Cases = append(s.Cases, junitCase{Name: t.ID, ClassName: m.Path, SystemOut: steps("obsolete", t),
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
			s.Cases = append(s.Cases, junitCase{Name: name, ClassName: m.Path,
				Failure: &junitMessage{Message: f.Message, Type: string(f.Rule), Text: body}})
			s.Failures++
		}
		s.Tests = len(s.Cases)
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Skipped += s.Skipped
		doc.Suites = append(doc.Suites, s)
	}
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

// steps spells a test for system-out: each input with the outputs it must
// produce and the configuration it leads to, then the final configuration.
func steps(what string, t *Test) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s test\n", what)
	for i, s := range t.Steps {
		fmt.Fprintf(&b, "%d. %s", i+1, stepInput(s))
		for _, o := range s.Outputs {
			fmt.Fprintf(&b, " -> %s to %s", call(o.Event, o.Args), o.Target)
		}
		fmt.Fprintf(&b, " => %s\n", strings.Join(s.Config, ","))
	}
	fmt.Fprintf(&b, "final: %s\n", strings.Join(t.Final, ","))
	return b.String()
}
