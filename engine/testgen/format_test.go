package testgen_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/vocab"
)

// values yields the tests of a slice.
func values(tests []*testgen.Test) iter.Seq2[*testgen.Test, error] {
	return func(yield func(*testgen.Test, error) bool) {
		for _, t := range tests {
			if !yield(t, nil) {
				return
			}
		}
	}
}

// TestWriteStreamsTheWholeSuite checks that writing a suite test by test
// gives, in every format, the bytes of the whole suite encoded at once
// (whole, below), for no test, one, and many.
func TestWriteStreamsTheWholeSuite(t *testing.T) {
	for _, path := range []string{"../../examples/crossing.scxml", "../../model/mlm/testdata/features/decimals.scxml",
		"../../model/mlm/testdata/features/strings.scxml", "../../model/mlm/testdata/features/objects.scxml", "../../model/mlm/testdata/features/arrays.scxml"} {
		m, err := load.File(context.Background(), path, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		set, err := engine.Explore(m, engine.Options{MaxDepth: 4}, newZ3)
		if err != nil {
			t.Fatal(err)
		}
		all, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
		if err != nil {
			t.Fatal(err)
		}
		initial := set.Nodes[0].State.Atomic
		for _, tests := range [][]*testgen.Test{nil, all[:1], all} {
			for _, format := range testgen.Formats {
				var got bytes.Buffer
				if err := testgen.Write(&got, format, testgen.SuiteInfo{Machine: m.Name, Initial: initial, N: len(tests)}, values(tests)); err != nil {
					t.Fatal(err)
				}
				want, err := whole(format, m.Name, initial, tests)
				if err != nil {
					t.Fatal(err)
				}
				if got.String() != want {
					t.Errorf("%s, %d tests, %s: streamed\n%s\nwhole\n%s", path, len(tests), format, got.String(), want)
				}
			}
		}
	}
}

// TestWriteStopsAtAnError checks that an error of the sequence is Write's.
func TestWriteStopsAtAnError(t *testing.T) {
	failing := func(yield func(*testgen.Test, error) bool) { yield(nil, errors.New("no model")) }
	for _, format := range testgen.Formats {
		if err := testgen.Write(&bytes.Buffer{}, format, testgen.SuiteInfo{Machine: "m", N: 1}, failing); err == nil || err.Error() != "no model" {
			t.Errorf("%s: error %v, want the sequence's", format, err)
		}
	}
}

// whole encodes a suite at once, as setbot wrote suites before they were
// streamed.
func whole(format, machine string, initial []string, tests []*testgen.Test) (string, error) {
	var b bytes.Buffer
	switch format {
	case "json":
		if tests == nil {
			tests = []*testgen.Test{}
		}
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err := enc.Encode(struct {
			Tests []*testgen.Test `json:"tests"`
		}{tests})
		return b.String(), err
	case "scion":
		type event struct {
			Event struct {
				Name string          `json:"name"`
				Data json.RawMessage `json:"data,omitempty"`
			} `json:"event"`
			NextConfiguration []string `json:"nextConfiguration"`
			After             *int64   `json:"after,omitempty"` // ms since the event before
		}
		type trace struct {
			Name                 string   `json:"name"`
			InitialConfiguration []string `json:"initialConfiguration"`
			Events               []event  `json:"events"`
		}
		traces := []trace{}
		for _, t := range tests {
			tr := trace{Name: t.ID, InitialConfiguration: initial, Events: []event{}}
			var before int64
			for _, s := range t.Steps {
				var e event
				if s.At != nil {
					wait := *s.At - before
					e.After, before = &wait, *s.At
				}
				e.Event.Name = s.Event
				if data, ok := lower.EventData(s.Args); ok {
					var d bytes.Buffer
					enc := json.NewEncoder(&d)
					enc.SetEscapeHTML(false)
					if err := enc.Encode(data); err != nil {
						return "", err
					}
					e.Event.Data = bytes.TrimSuffix(d.Bytes(), []byte("\n"))
				}
				e.NextConfiguration = s.Config
				tr.Events = append(tr.Events, e)
			}
			traces = append(traces, tr)
		}
		enc := json.NewEncoder(&b)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err := enc.Encode(traces)
		return b.String(), err
	}
	type testcase struct {
		Name      string `xml:"name,attr"`
		ClassName string `xml:"classname,attr"`
		Time      string `xml:"time,attr"`
		SystemOut string `xml:"system-out"`
	}
	type testsuite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Errors   int        `xml:"errors,attr"`
		Time     string     `xml:"time,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	type testsuites struct {
		XMLName  xml.Name    `xml:"testsuites"`
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Time     string      `xml:"time,attr"`
		Suites   []testsuite `xml:"testsuite"`
	}
	suite := testsuite{Name: machine, Tests: len(tests), Time: "0.000"}
	for _, t := range tests {
		var out strings.Builder
		var inputs []string
		for i, s := range t.Steps {
			in := testgen.FormatEvent(s.Event, s.Timer, s.Args)
			inputs = append(inputs, in)
			if s.At != nil {
				in = fmt.Sprintf("%s@%s", testgen.FormatEvent(s.Event, false, s.Args), sim.FormatTime(*s.At))
				if s.Timer {
					in += " (timer)"
				}
			}
			fmt.Fprintf(&out, "%d. %s", i+1, in)
			for _, o := range s.Outputs {
				fmt.Fprintf(&out, " -> %s to %s", testgen.FormatEvent(o.Event, false, o.Args), o.Target)
			}
			fmt.Fprintf(&out, " => %s\n", strings.Join(s.Config, ","))
		}
		fmt.Fprintf(&out, "final: %s\n", strings.Join(t.Final, ","))
		suite.Cases = append(suite.Cases, testcase{Name: testgen.Name(t.ID, inputs), ClassName: machine, Time: "0.000", SystemOut: out.String()})
	}
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(testsuites{Name: "setbot", Tests: len(tests), Time: "0.000", Suites: []testsuite{suite}}); err != nil {
		return "", err
	}
	b.WriteString("\n")
	return b.String(), nil
}

// TestName checks that a test's name is its inputs in order, shortened,
// then its id.
func TestName(t *testing.T) {
	long := make([]string, 30)
	for i := range long {
		long[i] = fmt.Sprintf("tick(n=%d)", i)
	}
	for _, tc := range []struct {
		inputs []string
		want   string
	}{
		{nil, "(no input) [t1]"},
		{[]string{"power", "setVolume(level=0)"}, "power, setVolume(level=0) [t1]"},
		{long, "tick(n=0), tick(n=1), tick(n=2), tick(n=3), tick(n=4), tick(n=5), tick(n=6), … 23 more [t1]"},
		{[]string{strings.Repeat("x", 200)}, strings.Repeat("x", 80) + "… [t1]"},
	} {
		if got := testgen.Name("t1", tc.inputs); got != tc.want {
			t.Errorf("Name(%q) = %q, want %q", tc.inputs, got, tc.want)
		}
	}
}
