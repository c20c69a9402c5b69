package testgen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"iter"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model/lang/lower"
)

// Formats of a test suite.
var Formats = []string{"json", "junit", "scion"}

// Write writes n tests in a format, each as tests yields it, so that a
// suite is streamed rather than held whole: json ({"tests": [...]}, the
// arguments named as lowering names them), junit (one test case per test,
// its steps in system-out, written as setbot simulate reads events) or
// scion (SCION-style traces: the initial configuration, then each event,
// with its data as ECMAScript holds it (lower.EventData), the configuration
// it leads to and, timed, how long to wait before it, so existing SCXML
// harnesses can run them).
// The output is that of the whole suite encoded at once. An error of tests
// stops the output where it is.
func Write(w io.Writer, format string, s SuiteInfo, tests iter.Seq2[*Test, error]) error {
	bw := bufio.NewWriter(w)
	var err error
	switch format {
	case "json":
		err = writeJSON(bw, tests)
	case "junit":
		err = writeJUnit(bw, s, tests)
	case "scion":
		err = writeSCION(bw, s.Initial, tests)
	default:
		return fmt.Errorf("unknown test format %q (want %s)", format, strings.Join(Formats, ", "))
	}
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}

// SuiteInfo is what Write needs to know of a suite besides its tests.
type SuiteInfo struct {
	Machine string        // the machine's name
	Initial []string      // the initial configuration
	N       int           // how many tests there are
	Elapsed time.Duration // how long the tree took (the tests are written as they are made)
}

// jsonArray writes the values of seq as the elements of a JSON array at
// the given depth of a document indented by two spaces, as
// json.Encoder.SetIndent("", "  ") writes the whole array, without HTML
// escapes.
func jsonArray[T any](w *bufio.Writer, depth int, seq iter.Seq2[T, error]) error {
	indent := strings.Repeat("  ", depth)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent(indent+"  ", "  ")
	enc.SetEscapeHTML(false)
	w.WriteString("[")
	i := 0
	for v, err := range seq {
		if err != nil {
			return err
		}
		buf.Reset()
		if err := enc.Encode(v); err != nil {
			return err
		}
		if i > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n" + indent + "  ")
		w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
		i++
	}
	if i > 0 {
		w.WriteString("\n" + indent)
	}
	_, err := w.WriteString("]")
	return err
}

func writeJSON(w *bufio.Writer, tests iter.Seq2[*Test, error]) error {
	w.WriteString("{\n  \"tests\": ")
	if err := jsonArray(w, 1, tests); err != nil {
		return err
	}
	_, err := w.WriteString("\n}\n")
	return err
}

type scionEvent struct {
	Event struct {
		Name string          `json:"name"`
		Data json.RawMessage `json:"data,omitempty"` // absent where the event carries no data
	} `json:"event"`
	NextConfiguration []string `json:"nextConfiguration"`
	// After is how long the harness waits, in ms, from the event before
	// (or the start) until this one (timed semantics only).
	After *int64 `json:"after,omitempty"`
}

type scionTrace struct {
	Name                 string       `json:"name"`
	InitialConfiguration []string     `json:"initialConfiguration"`
	Events               []scionEvent `json:"events"`
}

func writeSCION(w *bufio.Writer, initial []string, tests iter.Seq2[*Test, error]) error {
	traces := func(yield func(scionTrace, error) bool) {
		for t, err := range tests {
			if err != nil {
				yield(scionTrace{}, err)
				return
			}
			tr, err := trace(initial, t)
			if !yield(tr, err) || err != nil {
				return
			}
		}
	}
	if err := jsonArray(w, 0, traces); err != nil {
		return err
	}
	_, err := w.WriteString("\n")
	return err
}

// trace is the SCION-style trace of t.
func trace(initial []string, t *Test) (scionTrace, error) {
	tr := scionTrace{Name: t.ID, InitialConfiguration: initial, Events: []scionEvent{}}
	var last int64
	for _, s := range t.Steps {
		var e scionEvent
		if s.At != nil {
			after := *s.At - last
			e.After, last = &after, *s.At
		}
		e.Event.Name = s.Event
		if data, ok := lower.EventData(s.Args); ok {
			raw, err := marshalData(data)
			if err != nil {
				return scionTrace{}, fmt.Errorf("test %s: the data of %s: %w", t.ID, s.Event, err)
			}
			e.Event.Data = raw
		}
		e.NextConfiguration = s.Config
		tr.Events = append(tr.Events, e)
	}
	return tr, nil
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

type junitCase struct {
	Name      string `xml:"name,attr"`
	ClassName string `xml:"classname,attr"`
	Time      string `xml:"time,attr"`
	SystemOut string `xml:"system-out"`
}

// writeJUnit writes <testsuites><testsuite name tests failures errors time>
// and a test case per test, indented by two spaces, as Jenkins' JUnit schema
// wants it. A generated test has not run, so its time is 0; the suite's is
// the time the tree took.
func writeJUnit(w *bufio.Writer, s SuiteInfo, tests iter.Seq2[*Test, error]) error {
	w.WriteString(xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	attr := func(name, value string) xml.Attr { return xml.Attr{Name: xml.Name{Local: name}, Value: value} }
	n, secs := strconv.Itoa(s.N), Seconds(s.Elapsed)
	suites := xml.StartElement{Name: xml.Name{Local: "testsuites"}, Attr: []xml.Attr{
		attr("name", "setbot"), attr("tests", n), attr("failures", "0"), attr("errors", "0"), attr("time", secs)}}
	suite := xml.StartElement{Name: xml.Name{Local: "testsuite"}, Attr: []xml.Attr{
		attr("name", s.Machine), attr("tests", n), attr("failures", "0"), attr("errors", "0"), attr("time", secs)}}
	if err := enc.EncodeToken(suites); err != nil {
		return err
	}
	if err := enc.EncodeToken(suite); err != nil {
		return err
	}
	testcase := xml.StartElement{Name: xml.Name{Local: "testcase"}}
	for t, err := range tests {
		if err != nil {
			return err
		}
		inputs := make([]string, len(t.Steps))
		var b strings.Builder
		for i, st := range t.Steps {
			inputs[i] = FormatEvent(st.Event, st.Timer, st.Args)
			outputs := make([]string, len(st.Outputs))
			for j, o := range st.Outputs {
				outputs[j] = FormatOutput(o.Event, o.Target, o.Args)
			}
			in := inputs[i]
			if st.At != nil { // as setbot simulate reads it: go@1.5s
				in = FormatEvent(st.Event, false, st.Args) + "@" + sim.FormatTime(*st.At)
				if st.Timer {
					in += " (timer)"
				}
			}
			b.WriteString(StepLine(i+1, in, outputs, st.Config))
		}
		fmt.Fprintf(&b, "final: %s\n", strings.Join(t.Final, ","))
		c := junitCase{Name: Name(t.ID, inputs), ClassName: s.Machine, Time: Seconds(0), SystemOut: b.String()}
		if err := enc.EncodeElement(c, testcase); err != nil {
			return err
		}
	}
	if err := enc.EncodeToken(suite.End()); err != nil {
		return err
	}
	if err := enc.EncodeToken(suites.End()); err != nil {
		return err
	}
	if err := enc.Flush(); err != nil {
		return err
	}
	_, err := w.WriteString("\n")
	return err
}

// Seconds spells a duration as JUnit's time attribute wants it: seconds
// with three decimals.
func Seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 3, 64) }

// maxNameInputs is about how many characters of inputs a test's name spells
// before it is shortened.
const maxNameInputs = 80

// Name is a test's name where CI lists it: its inputs in order, as
// FormatEvent spells them, shortened to about maxNameInputs characters with
// a count of the ones left out, then its id in brackets, which keeps two
// tests apart whose shortened inputs agree and keeps the name the same
// across commits while the test is.
func Name(id string, inputs []string) string {
	if len(inputs) == 0 {
		return "(no input) [" + id + "]"
	}
	var b strings.Builder
	for i, in := range inputs {
		if i > 0 && b.Len()+len(in) > maxNameInputs {
			fmt.Fprintf(&b, ", … %d more", len(inputs)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		if len(in) > maxNameInputs {
			in = string([]rune(in)[:min(len([]rune(in)), maxNameInputs)]) + "…"
		}
		b.WriteString(in)
	}
	return b.String() + " [" + id + "]"
}

// FormatOutput spells an expected output as reports show it: "e(n=1) to
// #_parent".
func FormatOutput(event, target string, args map[string]any) string {
	return FormatEvent(event, false, args) + " to " + target
}

// StepLine spells step i (from 1) of a test, everywhere setbot writes one
// out: the input, each output it must send, and the configuration it leads
// to: "2. coin(x=3) -> ok to #_parent => idle\n".
func StepLine(i int, input string, outputs []string, config []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d. %s", i, input)
	for _, o := range outputs {
		b.WriteString(" -> " + o)
	}
	fmt.Fprintf(&b, " => %s\n", strings.Join(config, ","))
	return b.String()
}

// FormatEvent spells an event of a test as reports show it: "e", "e(n=3)"
// with its arguments, or "e (timer)" for a pending timer firing (it has
// none).
func FormatEvent(event string, timer bool, args map[string]any) string {
	switch {
	case timer:
		return event + " " + sim.TimerMark
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
