package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestExploreTriangleJSON(t *testing.T) {
	code, out, errs := runCLI(t, "explore", "../../examples/triangle.scxml", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Stats struct {
			States, Paths, Depth, Subsumed int
			SolverCalls                    int `json:"solver_calls"`
			Ms                             *int64
		}
		Unreachable []any `json:"unreachable"`
		BoundsHit   []any `json:"bounds_hit"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Stats.Paths != 14 || r.Stats.Depth != 5 || r.Stats.States != 29 || r.Stats.Ms == nil {
		t.Errorf("stats %+v", r.Stats)
	}
	if r.Unreachable == nil || len(r.Unreachable) != 0 || r.BoundsHit == nil || len(r.BoundsHit) != 0 {
		t.Errorf("unreachable %v, bounds_hit %v; want two empty lists", r.Unreachable, r.BoundsHit)
	}
}

// TestExploreIsDeterministic: the same model and options give the same
// output, whatever the number of workers; only the measured wall time may
// differ.
func TestExploreIsDeterministic(t *testing.T) {
	ms := regexp.MustCompile(`"ms": \d+`)
	for _, model := range []struct{ path, depth string }{{"../../examples/crossing.scxml", "6"}, {"../../testdata/bench/aqs.scxml", "7"}} {
		for _, format := range []string{"json", "dot", "text"} {
			var first string
			for i, jobs := range []string{"1", "2", "3", "1"} {
				_, out, _ := runCLI(t, "explore", model.path, "--depth", model.depth, "--format", format, "--jobs", jobs)
				out = ms.ReplaceAllString(out, `"ms": 0`)
				out = regexp.MustCompile(`, \d+ ms\n`).ReplaceAllString(out, ", 0 ms\n")
				if i == 0 {
					first = out
				} else if out != first {
					t.Fatalf("%s --format %s: run %d (--jobs %s) differs", model.path, format, i+1, jobs)
				}
			}
		}
	}
}

func TestExploreDepthQualifies(t *testing.T) {
	_, six, _ := runCLI(t, "explore", "../../engine/testdata/depth7.scxml", "--depth", "6")
	if !strings.Contains(six, "states unreachable within 6 events:\n  S7 (line 17)\n  Never (line 18)\n") {
		t.Errorf("--depth 6:\n%s", six)
	}
	_, seven, _ := runCLI(t, "explore", "../../engine/testdata/depth7.scxml", "--depth", "7")
	if strings.Contains(seven, "S7 (line") || !strings.Contains(seven, "Never (line 18)") {
		t.Errorf("--depth 7:\n%s", seven)
	}
}

func TestExploreInvariantExit(t *testing.T) {
	code, out, _ := runCLI(t, "explore", "../../examples/triangle.scxml", "--invariant", "a >= 0")
	if code != 1 || !strings.Contains(out, "invariant a >= 0: VIOLATED in S1_S0 after setTriangleSides(x=-1") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, _, errs := runCLI(t, "explore", "../../examples/triangle.scxml", "--invariant", "q > 0")
	if code != 2 || !strings.Contains(errs, "undeclared name q") {
		t.Errorf("bad invariant: exit %d, %s", code, errs)
	}
}

func TestTestsFormats(t *testing.T) {
	code, out, errs := runCLI(t, "tests", "../../examples/triangle.scxml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var suite struct {
		Tests []struct {
			ID    string
			Steps []struct {
				Event   string
				Args    map[string]any
				Outputs []map[string]any
			}
			Final []string
		}
	}
	if err := json.Unmarshal([]byte(out), &suite); err != nil {
		t.Fatal(err)
	}
	if len(suite.Tests) != 14 || suite.Tests[0].ID == "" || len(suite.Tests[0].Steps) == 0 || len(suite.Tests[0].Final) == 0 {
		t.Errorf("path coverage: %d tests, first %+v", len(suite.Tests), suite.Tests[0])
	}
	_, tr, _ := runCLI(t, "tests", "../../examples/triangle.scxml", "--coverage", "transition")
	if err := json.Unmarshal([]byte(tr), &suite); err != nil || len(suite.Tests) == 0 || len(suite.Tests) >= 14 {
		t.Errorf("transition coverage: %d tests (%v)", len(suite.Tests), err)
	}
	_, junit, _ := runCLI(t, "tests", "../../examples/triangle.scxml", "--format", "junit")
	var js struct {
		Suites []struct {
			Tests int `xml:"tests,attr"`
			Cases []struct {
				Name string `xml:"name,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(junit), &js); err != nil || len(js.Suites) != 1 || js.Suites[0].Tests != 14 {
		t.Errorf("junit: %+v %v", js, err)
	} else if name := js.Suites[0].Cases[0].Name; !regexp.MustCompile(`^\w.*, .* \[t[0-9a-f]+\]$`).MatchString(name) {
		t.Errorf("junit test name %q is not its inputs then its id", name)
	}

	_, scion, _ := runCLI(t, "tests", "../../examples/triangle.scxml", "--format", "scion")
	var traces []struct {
		InitialConfiguration []string `json:"initialConfiguration"`
		Events               []struct {
			Event struct {
				Name string         `json:"name"`
				Data map[string]any `json:"data"`
			} `json:"event"`
			NextConfiguration []string `json:"nextConfiguration"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(scion), &traces); err != nil || len(traces) != 14 ||
		traces[0].InitialConfiguration[0] != "S0" || traces[0].Events[0].Event.Name != "setTriangleSides" ||
		len(traces[0].Events[0].NextConfiguration) != 1 {
		t.Errorf("scion: %v %+v", err, traces)
	}
	if code, _, _ := runCLI(t, "tests", "../../examples/triangle.scxml", "--coverage", "mcdc"); code != 2 {
		t.Errorf("unknown coverage: exit %d", code)
	}
}

func TestSimulateRegistered(t *testing.T) {
	code, out, errs := runCLI(t, "simulate", "../../examples/triangle.scxml",
		"setTriangleSides(x=3, y=3, z=3)", "checkPositiveSides", "checkIsTriangle", "checkTriangleType")
	if code != 0 || !strings.Contains(out, "evEquilateral") || !strings.Contains(out, "S1_S3") {
		t.Errorf("exit %d:\n%s%s", code, out, errs)
	}
}

// TestExploreTransientJSON checks the two senses of reaching a state in
// explore's JSON: with S1_S2 left at once by an eventless transition, it is
// reached (entered) but not stable, listed under transient and not under
// unreachable, with a witness but no stable witness.
func TestExploreTransientJSON(t *testing.T) {
	src, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(string(src), `<transition event="checkTriangleType" target="S1_S3">`, `<transition target="S1_S3">`, 1)
	path := filepath.Join(t.TempDir(), "eventless.scxml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "explore", path, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Unreachable []struct{ State string }
		Transient   []struct{ State string }
		Report      struct {
			States []struct {
				Name            string
				Reached, Stable bool
				Witness         any
				StableWitness   any `json:"stable_witness"`
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Unreachable) != 0 || len(r.Transient) != 1 || r.Transient[0].State != "S1_S2" {
		t.Errorf("unreachable %v, transient %v; want none and S1_S2", r.Unreachable, r.Transient)
	}
	for _, s := range r.Report.States {
		transient := s.Name == "S1_S2"
		if !s.Reached || s.Stable == transient || s.Witness == nil || (s.StableWitness == nil) != transient {
			t.Errorf("%+v: want reached with a witness, and stable with a stable witness unless S1_S2", s)
		}
	}
}

// TestExploreDecimals explores the decimal feature model: every state is
// reached, with witnesses whose decimal arguments read as the language
// writes them, and the range of the decimal variable holds.
func TestExploreDecimals(t *testing.T) {
	code, out, errs := runCLI(t, "explore", "../../model/mlm/testdata/features/decimals.scxml", "--depth", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"output fan to #_parent: first after 1 events (reading(t=21.0))",
		"invariant 0 <= speed && speed <= 3 (range of speed: decimal[0..3]): holds in every state explored"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "unreachable") {
		t.Errorf("a state is unreachable:\n%s", out)
	}
}

// TestTestsSCIONData checks that the SCION traces carry an event's data as
// ECMAScript holds it, not setbot's lowered parts: an array parameter as
// an array of its length, undefined as a missing key, null as null; and
// that the JUnit steps write undefined and null as simulate reads them.
func TestTestsSCIONData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A" datamodel="ecmascript">
  <setbot:event name="load"><setbot:param name="xs" type="(int)[0..2]"/></setbot:event>
  <setbot:event name="e"><setbot:param name="s" type="string|undefined"/></setbot:event>
  <state id="A">
    <transition event="load" cond="_event.data.xs.length == 2 &amp;&amp; _event.data.xs[1] == 7" target="B"/>
    <transition event="e" cond="_event.data.s === undefined" target="U"/>
    <transition event="e" cond="_event.data.s === null" target="N"/>
    <transition event="e" cond="_event.data.s === 'a,b'" target="S"/>
  </state>
  <state id="B"/><state id="U"/><state id="N"/><state id="S"/>
</scxml>`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "tests", path, "--format", "scion")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var traces []struct {
		Events []struct {
			Event struct {
				Name string          `json:"name"`
				Data json.RawMessage `json:"data"`
			} `json:"event"`
			NextConfiguration []string `json:"nextConfiguration"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(out), &traces); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tr := range traces {
		for _, e := range tr.Events {
			var data bytes.Buffer
			if len(e.Event.Data) > 0 {
				if err := json.Compact(&data, e.Event.Data); err != nil {
					t.Fatal(err)
				}
			}
			got[e.NextConfiguration[0]] = e.Event.Name + " " + data.String()
		}
	}
	for state, want := range map[string]string{"B": `load {"xs":[0,7]}`, "U": `e {}`, "N": `e {"s":null}`, "S": `e {"s":"a,b"}`} {
		if got[state] != want {
			t.Errorf("the event that enters %s: %s, want %s", state, got[state], want)
		}
	}
	_, junit, _ := runCLI(t, "tests", path, "--format", "junit")
	for _, want := range []string{"e(s=undefined) =&gt; U", "e(s=null) =&gt; N", "e(s=&#39;a,b&#39;) =&gt; S"} {
		if !strings.Contains(junit, want) {
			t.Errorf("junit lacks %q:\n%s", want, junit)
		}
	}
}

// TestExploreInputDomain checks that explore's verdicts and help are those
// of the input domain: no decimal input x has x * 50 == 55 as a double
// (1.1 * 50 is 55.00000000000001), and 1.1 is off the grid.
func TestExploreInputDomain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A" datamodel="ecmascript">
  <setbot:event name="e"><setbot:param name="x" type="decimal"/></setbot:event>
  <state id="A"><transition event="e" cond="_event.data.x * 50 == 55" target="B"/></state>
  <state id="B"/>
</scxml>`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "explore", path)
	if code != 0 || !strings.Contains(out, "states unreachable:\n  B (line 4)") {
		t.Errorf("exit %d, stderr %q, output:\n%s\nwant B unreachable", code, errs, out)
	}
	_, help, _ := runCLI(t, "explore", "--help")
	if !strings.Contains(help, "a string holds at most 32 code points and a decimal is a multiple of\n2^-10 (1/1024) below 2^42 in magnitude") {
		t.Errorf("explore --help does not state the input domain:\n%s", help)
	}
}

// TestExploreTimedTimers is issue 16's two-timer model: timeout after 2 s,
// go after 1 s. Timed, the state entered only when timeout fires first is
// unreachable (and the claim is unqualified: no bound cut the tree);
// untimed, a timer may fire at any moment, so it is reachable.
func TestExploreTimedTimers(t *testing.T) {
	unreachable := func(args ...string) []string {
		t.Helper()
		code, out, errs := runCLI(t, append([]string{"explore", "../../engine/testdata/two_timers.scxml", "--format", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var r struct {
			Unreachable []struct{ State string } `json:"unreachable"`
			BoundsHit   []any                    `json:"bounds_hit"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.BoundsHit) != 0 {
			t.Errorf("%v: bounds hit %v", args, r.BoundsHit)
		}
		var states []string
		for _, u := range r.Unreachable {
			states = append(states, u.State)
		}
		return states
	}
	if got := unreachable(); !slices.Equal(got, []string{"Early"}) {
		t.Errorf("timed (the default): unreachable %v, want [Early]", got)
	}
	if got := unreachable("--time", "timed"); !slices.Equal(got, []string{"Early"}) {
		t.Errorf("--time timed: unreachable %v, want [Early]", got)
	}
	if got := unreachable("--time", "untimed"); len(got) != 0 {
		t.Errorf("--time untimed: unreachable %v, want none", got)
	}
}

// TestRecursionFollowsLoopBound: calls of script functions are inlined as
// deep as the loop bound. Deep needs 13 nested calls: the default bound
// (10) and 12 cut that path with the call bound, 13 reaches Deep.
func TestRecursionFollowsLoopBound(t *testing.T) {
	const model = "../../engine/testdata/recursion12.scxml"
	for _, tt := range []struct {
		args  []string
		limit string
		deep  bool
	}{
		{nil, "10", false},
		{[]string{"--loop-bound", "12"}, "12", false},
		{[]string{"--loop-bound", "13"}, "13", true},
	} {
		code, out, errs := runCLI(t, append([]string{"explore", model, "--depth", "2"}, tt.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errs)
		}
		if !strings.Contains(out, "bound hit: call (limit "+tt.limit+")") {
			t.Errorf("%v: no call bound of %s hit in\n%s", tt.args, tt.limit, out)
		}
		if unreached := strings.Contains(out, "states unreachable within the bounds:\n  Deep"); unreached == tt.deep {
			t.Errorf("%v: Deep reached %v, want %v:\n%s", tt.args, !unreached, tt.deep, out)
		}
	}
}
