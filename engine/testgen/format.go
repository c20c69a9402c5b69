package testgen

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model/lang"
)

// Formats of a test suite.
var Formats = []string{"json", "junit", "scion"}

// Write writes tests in a format: json ({"tests": [...]}, the arguments
// named as lowering names them), junit (one test case per test, its steps
// in system-out, written as setbot simulate reads events) or scion
// (SCION-style traces: the initial configuration, then each event, with
// its data as ECMAScript holds it (lang.EventData), and the configuration
// it leads to, so existing SCXML harnesses can run them).
func Write(w io.Writer, format, machine string, initial []string, tests []*Test) error {
	switch format {
	case "json":
		return writeJSON(w, tests)
	case "junit":
		return writeJUnit(w, machine, tests)
	case "scion":
		return writeSCION(w, initial, tests)
	}
	return fmt.Errorf("unknown test format %q (want %s)", format, strings.Join(Formats, ", "))
}

func writeJSON(w io.Writer, tests []*Test) error {
	if tests == nil {
		tests = []*Test{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(struct {
		Tests []*Test `json:"tests"`
	}{tests})
}

type scionEvent struct {
	Event struct {
		Name string          `json:"name"`
		Data json.RawMessage `json:"data,omitempty"` // absent where the event carries no data
	} `json:"event"`
	NextConfiguration []string `json:"nextConfiguration"`
}

type scionTrace struct {
	Name                 string       `json:"name"`
	InitialConfiguration []string     `json:"initialConfiguration"`
	Events               []scionEvent `json:"events"`
}

func writeSCION(w io.Writer, initial []string, tests []*Test) error {
	traces := make([]scionTrace, 0, len(tests))
	for _, t := range tests {
		tr := scionTrace{Name: t.ID, InitialConfiguration: initial, Events: []scionEvent{}}
		for _, s := range t.Steps {
			var e scionEvent
			e.Event.Name = s.Event
			if data, ok := lang.EventData(s.Args); ok {
				raw, err := marshalData(data)
				if err != nil {
					return fmt.Errorf("test %s: the data of %s: %w", t.ID, s.Event, err)
				}
				e.Event.Data = raw
			}
			e.NextConfiguration = s.Config
			tr.Events = append(tr.Events, e)
		}
		traces = append(traces, tr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(traces)
}

// marshalData returns an event's data as JSON, as the traces write the
// rest (no HTML escapes).
func marshalData(data any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(data); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name  string      `xml:"name,attr"`
	Tests int         `xml:"tests,attr"`
	Cases []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string `xml:"name,attr"`
	ClassName string `xml:"classname,attr"`
	SystemOut string `xml:"system-out"`
}

func writeJUnit(w io.Writer, machine string, tests []*Test) error {
	suite := junitSuite{Name: machine, Tests: len(tests)}
	for _, t := range tests {
		var b strings.Builder
		for i, s := range t.Steps {
			fmt.Fprintf(&b, "%d. %s", i+1, s.Event)
			if len(s.Args) > 0 {
				fmt.Fprintf(&b, "(%s)", FormatArgs(s.Args))
			}
			for _, o := range s.Outputs {
				fmt.Fprintf(&b, " -> %s(%s) to %s", o.Event, FormatArgs(o.Args), o.Target)
			}
			fmt.Fprintf(&b, " => %s\n", strings.Join(s.Config, ","))
		}
		fmt.Fprintf(&b, "final: %s\n", strings.Join(t.Final, ","))
		suite.Cases = append(suite.Cases, junitCase{Name: t.ID, ClassName: machine, SystemOut: b.String()})
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(junitSuites{Suites: []junitSuite{suite}}); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// FormatEvent spells an event of a test as reports show it: "e", "e(n=3)"
// with its arguments, or "e (timer)" for a pending timer firing (it has
// none).
func FormatEvent(event string, timer bool, args map[string]any) string {
	switch {
	case timer:
		return event + " (timer)"
	case len(args) == 0:
		return event
	}
	return event + "(" + FormatArgs(args) + ")"
}

// FormatArgs spells event arguments as setbot simulate reads them
// (sim.FormatArgs): "n=3, ok=true, s='a\\'b, c'", s=undefined for a
// parameter whose tag says so. A value that is not one tests carry
// (sim.ValueOf) is written with %v.
func FormatArgs(args map[string]any) string {
	values := make(map[string]sim.Value, len(args))
	var odd []string
	for name, v := range args {
		value, err := sim.ValueOf(v)
		if err != nil {
			odd = append(odd, fmt.Sprintf("%s=%v", name, v))
			continue
		}
		values[name] = value
	}
	if len(odd) == 0 {
		return sim.FormatArgs(values)
	}
	sort.Strings(odd)
	if len(values) > 0 {
		odd = append([]string{sim.FormatArgs(values)}, odd...)
	}
	return strings.Join(odd, ", ")
}
