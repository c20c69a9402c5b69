package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runSimulate runs the simulate command directly (it is registered in
// main.go separately) and returns its exit code and output.
func runSimulate(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := newSimulateCmd()
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SilenceUsage = true
	cmd.SilenceErrors = true
	var ee exitError
	switch err := cmd.Execute(); {
	case err == nil:
		code = exitOK
	case errors.As(err, &ee):
		code = ee.code
	default:
		code = exitUsage
		errb.WriteString(err.Error())
	}
	return code, out.String(), errb.String()
}

func TestSimulateText(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		out  string
		err  string
	}{
		{
			name: "triangle",
			args: []string{"../../examples/triangle.scxml", "setTriangleSides(x=3, y=4, z=5)", "checkPositiveSides",
				"checkIsTriangle", "checkTriangleType"},
			out: `(start)
  outputs: none
  state: S0
> setTriangleSides(x=3, y=4, z=5)
  outputs: evStartChecking() to #_parent
  state: S1_S0
> checkPositiveSides()
  outputs: evValidInput() to #_parent
  state: S1_S1
> checkIsTriangle()
  outputs: evIsTriangle() to #_parent
  state: S1_S2
> checkTriangleType()
  outputs: evScalene() to #_parent
  state: S1_S3
`,
		},
		{
			name: "timers",
			args: []string{"--time", "untimed", "../../examples/crossing.scxml", "carsWithin(n=5)", "press", "waitingTimeout", "lightsTimeout"},
			out: `(start)
  outputs: none
  state: NoWalking
> carsWithin(n=5)
  outputs: none
  state: NoWalking
> press()
  outputs: none
  state: Waiting
  timers: waitingTimeout
> waitingTimeout()
  outputs: lights(color=1) to #_parent
  state: Changing
  timers: lightsTimeout
> lightsTimeout()
  outputs: lights(color=2) to #_parent; walk(seconds=25) to #_parent
  state: Walking
  timers: walkTimeout
`,
		},
		{
			name: "halted",
			args: []string{"../../model/mlm/testdata/features/final.scxml", "fetched", "parsed", "fetched"},
			out: `(start)
  outputs: none
  state: Fetching,Parsing
> fetched()
  outputs: none
  state: FetchDone,Parsing
> parsed()
  outputs: none
  state: End (halted)
> fetched()
  outputs: none
  state: End (halted)
  discarded: the machine has stopped (in final state End)
`,
		},
		{
			name: "events nothing takes are discarded",
			args: []string{"--time", "untimed", "../../examples/crossing.scxml", "waitingTimeout", "nosuch", "press", "press"},
			out: `(start)
  outputs: none
  state: NoWalking
> waitingTimeout()
  outputs: none
  state: NoWalking
  discarded: no transition of NoWalking takes it
> nosuch()
  outputs: none
  state: NoWalking
  discarded: the machine has no such event
> press()
  outputs: none
  state: Waiting
  timers: waitingTimeout
> press()
  outputs: none
  state: Waiting
  timers: waitingTimeout
  discarded: no transition of Waiting takes it
`,
		},
		{
			// Timed (the default): each step at its time; go is due before
			// timeout, so timeout cannot fire first.
			name: "timed",
			args: []string{"../../engine/testdata/two_timers.scxml", "go", "timeout@2s"},
			out: `(start) @0s
  outputs: none
  state: Armed
  timers: go, timeout
  next: go at 1s
> go() @1s
  outputs: none
  state: Going
  timers: timeout
  next: timeout at 2s
> timeout() @2s
  outputs: none
  state: Done (halted)
`,
		},
		{
			name: "a timer due later cannot fire first",
			args: []string{"../../engine/testdata/two_timers.scxml", "timeout"},
			out: `(start) @0s
  outputs: none
  state: Armed
  timers: go, timeout
  next: go at 1s
`,
			code: exitFindings,
			err:  "../../engine/testdata/two_timers.scxml: event 1: timer timeout cannot fire yet: go is due first (at 1s)\n",
		},
		{
			name: "an input after a deadline",
			args: []string{"../../examples/crossing.scxml", "press@1s", "failed@11.5s"},
			out: `(start) @0s
  outputs: none
  state: NoWalking
> press() @1s
  outputs: none
  state: Waiting
  timers: waitingTimeout
  next: waitingTimeout at 11s
`,
			code: exitFindings,
			err:  "../../examples/crossing.scxml: event 2: event failed at 11.5s comes after timer waitingTimeout fires (at 11s): fire the timer first\n",
		},
		{
			name: "a time that is no duration",
			args: []string{"../../examples/crossing.scxml", "press@1"},
			code: exitUsage,
			err:  `event "press@1": the time after @: time "1" is not a CSS2 duration: write a number followed by s or ms, such as "2s" or "500ms"`,
		},
		{
			name: "a timer set twice is pending twice",
			args: []string{"--time", "untimed", "../../examples/crossing.scxml", "press", "failed", "repaired", "press", "waitingTimeout", "waitingTimeout"},
			out: `(start)
  outputs: none
  state: NoWalking
> press()
  outputs: none
  state: Waiting
  timers: waitingTimeout
> failed()
  outputs: blink() to #_parent
  state: Blinking
  timers: waitingTimeout
> repaired()
  outputs: none
  state: NoWalking
  timers: waitingTimeout
> press()
  outputs: none
  state: Waiting
  timers: waitingTimeout, waitingTimeout
> waitingTimeout()
  outputs: lights(color=1) to #_parent
  state: Changing
  timers: lightsTimeout, waitingTimeout
> waitingTimeout()
  outputs: none
  state: Changing
  timers: lightsTimeout
  discarded: no transition of Changing takes it
`,
		},
		{
			name: "an argument out of range",
			args: []string{"--time", "untimed", "../../examples/crossing.scxml", "carsWithin(n=51)"},
			code: exitFindings,
			out:  "(start)\n  outputs: none\n  state: NoWalking\n",
			err:  "../../examples/crossing.scxml: event 1: argument n=51 of event carsWithin is out of range int[0..50]\n",
		},
		{
			name: "reference",
			args: []string{"--reference", "../../model/mlm/testdata/features/final.scxml", "fetched", "parsed", "fetched"},
			out: `(start)
  transition: scxml:initial>Job
  exited: none
  entered: Job Fetch Fetching Parse Parsing
  outputs: none
  configuration: Fetching Parsing
> fetched()
  transition: Fetching:fetched>FetchDone
  exited: Fetching
  entered: FetchDone
  outputs: none
  configuration: FetchDone Parsing
> parsed()
  transition: Parsing:parsed>ParseDone
  transition: Job:done.state.Job>End
  exited: Parsing ParseDone Parse FetchDone Fetch Job End
  entered: ParseDone End
  outputs: none
  configuration: End (halted)
> fetched()
  exited: none
  entered: none
  outputs: none
  configuration: End (halted)
  discarded: the machine has stopped (in final state End)
`,
		},
		{
			name: "reference error",
			args: []string{"--time", "untimed", "--reference", "../../examples/crossing.scxml", "carsWithin(n=51)"},
			code: exitFindings,
			out: `(start)
  transition: scxml:initial>Operating
  exited: none
  entered: Operating NoWalking
  outputs: none
  configuration: NoWalking
`,
			err: "../../examples/crossing.scxml: event 1: argument n=51 of event carsWithin is out of range int[0..50]\n",
		},
		{
			name: "reference model error",
			args: []string{"--reference", "no/such/file.scxml"},
			code: exitFindings,
		},
		{
			name: "bad event syntax",
			args: []string{"../../examples/crossing.scxml", "carsWithin(n=)"},
			code: exitUsage,
			err:  `event "carsWithin(n=)": argument n has no value`,
		},
		{
			name: "bad format",
			args: []string{"../../examples/crossing.scxml", "--format", "xml"},
			code: exitUsage,
			err:  `unknown --format "xml" (want text or json)`,
		},
		{
			name: "model error",
			args: []string{"no/such/file.scxml"},
			code: exitFindings,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runSimulate(t, tt.args...)
			if code != tt.code || out != tt.out || tt.err != "" && errs != tt.err {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nwant:\n%s\nstderr: %q\nwant:   %q", code, tt.code, out, tt.out, errs, tt.err)
			}
			if tt.code == exitFindings && errs == "" {
				t.Error("no message on stderr")
			}
		})
	}
}

func TestSimulateJSON(t *testing.T) {
	code, out, errs := runSimulate(t, "../../examples/radio.scxml", "--format", "json",
		"power", "source", "play", "mute", "eject", "setVolume(level=7)", "sourceChanged", "setVolume(level=11)")
	if code != exitFindings || !strings.Contains(errs, "event 8: ") {
		t.Fatalf("exit %d, stderr %q; want 1 and an error at event 8", code, errs)
	}
	var got struct {
		Steps []struct {
			Event string         `json:"event"`
			Args  map[string]any `json:"args"`
			Fired []struct {
				Key  string `json:"key"`
				Path string `json:"path"`
			} `json:"fired"`
			Entered []string `json:"entered"`
			Outputs []struct {
				Event  string         `json:"event"`
				Target string         `json:"target"`
				Args   map[string]any `json:"args"`
			} `json:"outputs"`
			State     string   `json:"state"`
			Config    []string `json:"configuration"`
			Halted    bool     `json:"halted"`
			Timers    []string `json:"timers"`
			Discarded string   `json:"discarded"`
		} `json:"steps"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Steps) != 8 {
		t.Fatalf("%d steps, want 8 (the start and seven events)", len(got.Steps))
	}
	start := got.Steps[0]
	if start.Event != "" || len(start.Args) != 0 || start.State != "Off" || len(start.Fired) != 1 ||
		start.Fired[0].Key != "initial [scxml:initial>Off] Off" || strings.Join(start.Entered, " ") != "Off" {
		t.Errorf("start step %+v", start)
	}
	if power := got.Steps[1]; strings.Join(power.Entered, " ") != "On Source Radio Sound Unmuted" {
		t.Errorf("power step entered %v, want On Source Radio Sound Unmuted", power.Entered)
	}
	mute := got.Steps[4]
	if mute.Event != "mute" || len(mute.Outputs) != 1 || mute.Outputs[0].Event != "muted" ||
		mute.Outputs[0].Target != "#_parent" || strings.Join(mute.Config, ",") != "CDPlaying,Muted" {
		t.Errorf("mute step %+v", mute)
	}
	if eject := got.Steps[5]; len(eject.Fired) != 2 || eject.State != "Radio,Unmuted" {
		t.Errorf("eject step %+v, want two fired transitions ending in Radio,Unmuted", eject)
	}
	if vol := got.Steps[6]; vol.Args["level"] != 7.0 || vol.Halted || vol.Discarded != "" {
		t.Errorf("setVolume step %+v", vol)
	}
	if sc := got.Steps[7]; sc.Event != "sourceChanged" || len(sc.Fired) != 0 ||
		sc.Discarded != "no transition of Radio,Unmuted takes it" || sc.State != "Radio,Unmuted" {
		t.Errorf("sourceChanged step %+v, want it discarded", sc)
	}
	if !strings.Contains(got.Error, "event 8: ") {
		t.Errorf("error %q", got.Error)
	}
}

// TestSimulateReferenceJSON: the reference interpreter's steps list the
// statechart transitions, the states exited and entered, and agree with
// the flattened machine's configurations.
func TestSimulateReferenceJSON(t *testing.T) {
	events := []string{"power", "source", "play", "mute", "eject", "setVolume(level=7)", "sourceChanged"}
	code, out, errs := runSimulate(t, append([]string{"--reference", "../../examples/radio.scxml", "--format", "json"}, events...)...)
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var got struct {
		Steps []struct {
			Event       string   `json:"event"`
			Transitions []string `json:"transitions"`
			Exited      []string `json:"exited"`
			Entered     []string `json:"entered"`
			Outputs     []struct {
				Event string `json:"event"`
			} `json:"outputs"`
			Config    []string `json:"configuration"`
			Halted    bool     `json:"halted"`
			Timers    []string `json:"timers"`
			Discarded string   `json:"discarded"`
		} `json:"steps"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	_, flatOut, _ := runSimulate(t, append([]string{"../../examples/radio.scxml", "--format", "json"}, events...)...)
	var flat struct {
		Steps []struct {
			Entered []string `json:"entered"`
			Config  []string `json:"configuration"`
		} `json:"steps"`
	}
	if err := json.Unmarshal([]byte(flatOut), &flat); err != nil {
		t.Fatalf("%v\n%s", err, flatOut)
	}
	if len(got.Steps) != 8 || len(flat.Steps) != 8 {
		t.Fatalf("%d reference and %d flattened steps, want 8", len(got.Steps), len(flat.Steps))
	}
	for i, st := range got.Steps {
		if strings.Join(st.Config, ",") != strings.Join(flat.Steps[i].Config, ",") ||
			strings.Join(st.Entered, ",") != strings.Join(flat.Steps[i].Entered, ",") {
			t.Errorf("step %d: reference %v entering %v, flattened %v entering %v",
				i, st.Config, st.Entered, flat.Steps[i].Config, flat.Steps[i].Entered)
		}
	}
	eject := got.Steps[5]
	if strings.Join(eject.Transitions, " ; ") != "CDPlaying:eject>Radio ; Muted:sourceChanged>Unmuted" ||
		strings.Join(eject.Exited, " ") != "CDPlaying CD Muted" || strings.Join(eject.Entered, " ") != "Radio Unmuted" {
		t.Errorf("eject step %+v", eject)
	}
	if last := got.Steps[7]; last.Discarded == "" || len(last.Transitions) != 0 || last.Exited == nil {
		t.Errorf("sourceChanged step %+v, want it discarded with empty lists", last)
	}
}

// TestSimulateReferenceModelError: a statechart the reference interpreter
// cannot run is a model error, reported at its position like the reader's.
func TestSimulateReferenceModelError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cycle.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="O">
  <state id="O"><transition event="go" target="H1"/></state>
  <state id="C">
    <history id="H1"><transition target="H2"/></history>
    <history id="H2"><transition target="H1"/></history>
    <state id="c1"/>
  </state>
</scxml>`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runSimulate(t, "--reference", path, "go")
	want := path + ":4:5: the default transitions of history states lead in a cycle: H1 -> H2 -> H1; make one of them target a state that is not a history\n"
	if code != exitFindings || out != "" || errs != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing and %q", code, out, errs, want)
	}
}

// TestSimulateDecimals runs the decimal feature model: decimal arguments
// as the language writes them (an int argument of a decimal parameter is
// its decimal), outputs with decimal data, and a decimal out of range.
func TestSimulateDecimals(t *testing.T) {
	model := "../../model/mlm/testdata/features/decimals.scxml"
	for _, ref := range []bool{false, true} {
		args := []string{model, "reading(t=31)", "boost(steps=1)", "reading(t=-2.5)"}
		if ref {
			args = append(args, "--reference")
		}
		code, out, errs := runSimulate(t, args...)
		if code != exitOK || errs != "" {
			t.Fatalf("reference %v: exit %d, stderr %q", ref, code, errs)
		}
		for _, want := range []string{"> reading(t=31.0)", "fan(speed=1.5) to #_parent", "> reading(t=-2.5)"} {
			if !strings.Contains(out, want) {
				t.Errorf("reference %v: output lacks %q:\n%s", ref, want, out)
			}
		}
	}
	code, out, _ := runSimulate(t, model, "--format", "json", "reading(t=21.5)")
	if code != exitOK || !strings.Contains(out, `"t": 21.5`) || !strings.Contains(out, `"speed": 0.5`) {
		t.Errorf("json: exit %d, output lacks the decimals as JSON numbers:\n%s", code, out)
	}
	if code, _, errs := runSimulate(t, model, "reading(t=99.5)"); code != exitFindings || !strings.Contains(errs, "argument t=99.5 of event reading is out of range decimal[-40..60]") {
		t.Errorf("out of range: exit %d, stderr %q", code, errs)
	}
	// 21.3 is within the range but outside the input domain, as ECMAScript
	// holds it only rounded.
	for _, ref := range []string{"--reference=false", "--reference"} {
		code, _, errs := runSimulate(t, model, ref, "reading(t=21.3)")
		if want := "argument t=21.3 of event reading is outside the input domain: a decimal input is a multiple of 2^-10 (1/1024) below 2^42 in magnitude"; code != exitFindings || !strings.Contains(errs, want) {
			t.Errorf("%s: off the grid: exit %d, stderr %q", ref, code, errs)
		}
	}
}

// TestSimulateEventText checks that simulate reads every string a
// generated test holds, written as the witnesses write it, and undefined
// and null where a parameter may hold them, on both executors.
func TestSimulateEventText(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "text.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A" datamodel="ecmascript">
  <setbot:event name="e"><setbot:param name="s" type="string"/></setbot:event>
  <setbot:event name="u"><setbot:param name="s" type="string|undefined"/><setbot:param name="n" type="int|undefined"/></setbot:event>
  <state id="A">
    <transition event="e" cond="_event.data.s == &quot;a'b, c=1)&quot;"><send event="quote" target="#_parent"/></transition>
    <transition event="e" cond="_event.data.s == 'x\n\u00e9'"><send event="escape" target="#_parent"/></transition>
    <transition event="u" cond="_event.data.s === undefined &amp;&amp; _event.data.n === null"><send event="absent" target="#_parent"/></transition>
    <transition event="u" cond="_event.data.s === '' &amp;&amp; _event.data.n === 0"><send event="present" target="#_parent"/></transition>
  </state>
</scxml>`
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ref := range []bool{false, true} {
		args := []string{model, `e(s='a\'b, c=1)')`, `e(s="x\n\u{e9}")`, "u(s=undefined, n=null)", "u(s='', n: 0)"}
		if ref {
			args = append(args, "--reference")
		}
		code, out, errs := runSimulate(t, args...)
		if code != exitOK || errs != "" {
			t.Fatalf("reference %v: exit %d, stderr %q", ref, code, errs)
		}
		for _, want := range []string{
			`> e(s='a\'b, c=1)')`, "quote() to #_parent",
			`> e(s='x\né')`, "escape() to #_parent",
			"> u(n=null, s=undefined)", "absent() to #_parent",
			"> u(n=0, s='')", "present() to #_parent",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("reference %v: output lacks %q:\n%s", ref, want, out)
			}
		}
	}
	code, _, errs := runSimulate(t, model, "u(s=yes)")
	if code != exitUsage || !strings.Contains(errs, `argument s: "yes" is no value: write an integer (-2), a decimal (1.5, 2e3), true, false, a string`) {
		t.Errorf("a bad value: exit %d, stderr %q", code, errs)
	}
}

// TestSimulateVars: with --vars every step lists the declared variables,
// the same on the flattened machine and the reference interpreter; the
// parts setbot's lowering adds stay hidden; without it nothing is listed.
func TestSimulateVars(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.scxml")
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a" datamodel="ecmascript">
<datamodel><data id="n" expr="1"/><data id="s"/></datamodel>
<state id="a"><transition event="go" target="b"><assign location="n" expr="n * 3"/><assign location="s" expr="'x'"/></transition></state>
<state id="b"/></scxml>`
	if err := os.WriteFile(model, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := func(args ...string) []string {
		t.Helper()
		code, out, errs := runSimulate(t, append(args, "--vars", "--format", "json", model, "go")...)
		if code != exitOK {
			t.Fatalf("exit %d, stderr %q", code, errs)
		}
		var got struct {
			Steps []struct {
				Vars map[string]any `json:"vars"`
			} `json:"steps"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		var lines []string
		for _, st := range got.Steps {
			b, _ := json.Marshal(st.Vars)
			lines = append(lines, string(b))
		}
		return lines
	}
	flat, ref := vars(), vars("--reference")
	want := []string{`{"_absent_s":1,"n":1,"s":""}`, `{"_absent_s":0,"n":3,"s":"x"}`}
	if strings.Join(flat, " ") != strings.Join(want, " ") || strings.Join(ref, " ") != strings.Join(want, " ") {
		t.Errorf("vars: flattened %v, reference %v; want %v", flat, ref, want)
	}
	_, text, _ := runSimulate(t, "--vars", model, "go")
	if !strings.Contains(text, "  vars: n=1, s=undefined\n") || !strings.Contains(text, "  vars: n=3, s='x'\n") {
		t.Errorf("text output does not list the variables:\n%s", text)
	}
	if _, plain, _ := runSimulate(t, model, "go"); strings.Contains(plain, "vars") {
		t.Errorf("variables listed without --vars:\n%s", plain)
	}
}

// TestSimulateReadsEveryTestStep: every step of every test setbot generates
// reads back in simulate as printed, timers of invoked sessions (s0.0/timeout)
// included, in the JSON's name and in the text's "name (timer)", and
// simulate and the reference interpreter end where the test says.
func TestSimulateReadsEveryTestStep(t *testing.T) {
	const model = "../../engine/testdata/child_timer.scxml"
	code, out, errs := runCLI(t, "tests", "--coverage", "path", "--format", "json", model)
	if code != exitOK {
		t.Fatalf("tests: exit %d: %s", code, errs)
	}
	var suite struct {
		Tests []struct {
			Steps []struct {
				Event string `json:"event"`
				Timer bool   `json:"timer"`
			} `json:"steps"`
			Final []string `json:"final"`
		} `json:"tests"`
	}
	if err := json.Unmarshal([]byte(out), &suite); err != nil {
		t.Fatal(err)
	}
	childTimers := 0
	for _, tc := range suite.Tests {
		var plain, marked []string
		for _, s := range tc.Steps {
			plain, marked = append(plain, s.Event), append(marked, s.Event)
			if s.Timer {
				marked[len(marked)-1] += " (timer)"
				if strings.Contains(s.Event, "/") {
					childTimers++
				}
			}
		}
		for _, events := range [][]string{plain, marked} {
			for _, ref := range []bool{false, true} {
				args := []string{"--format", "json", model}
				if ref {
					args = append([]string{"--reference"}, args...)
				}
				code, out, errs := runSimulate(t, append(args, events...)...)
				if code != exitOK {
					t.Errorf("simulate (reference %v) %q: exit %d: %s", ref, events, code, errs)
					continue
				}
				var run struct {
					Steps []struct {
						Configuration []string `json:"configuration"`
					} `json:"steps"`
				}
				if err := json.Unmarshal([]byte(out), &run); err != nil || len(run.Steps) != len(events)+1 {
					t.Errorf("simulate (reference %v) %q: %d steps (%v)", ref, events, len(run.Steps), err)
					continue
				}
				if got := run.Steps[len(events)].Configuration; !ref && strings.Join(got, " ") != strings.Join(tc.Final, " ") {
					t.Errorf("simulate %q ends in %v, the test in %v", events, got, tc.Final)
				}
			}
		}
	}
	if childTimers == 0 {
		t.Fatalf("no test fires the child's timer: %s", out)
	}
}

// TestMicrostepsBoundAgrees: explore, simulate and simulate --reference
// stop a step at the same number of microsteps by default, and all reach
// the state beyond it when the bound is raised: no command reaches a state
// another calls unreachable within its bounds.
func TestMicrostepsBoundAgrees(t *testing.T) {
	const model = "testdata/microsteps.scxml"
	for _, raise := range []bool{false, true} {
		var extra []string
		if raise {
			extra = []string{"--max-microsteps", "200"}
		}
		code, out, errs := runCLI(t, append([]string{"explore", "--format", "json", model}, extra...)...)
		if code != exitOK {
			t.Fatalf("explore: exit %d: %s", code, errs)
		}
		var ex struct {
			Unreachable []struct{ State string } `json:"unreachable"`
		}
		if err := json.Unmarshal([]byte(out), &ex); err != nil {
			t.Fatal(err)
		}
		exploreReaches := true
		for _, s := range ex.Unreachable {
			exploreReaches = exploreReaches && s.State != "done"
		}
		for _, ref := range []bool{false, true} {
			args := append([]string{model, "go"}, extra...)
			if ref {
				args = append([]string{"--reference"}, args...)
			}
			code, out, errs := runSimulate(t, args...)
			simReaches := code == exitOK && strings.Contains(out, "done")
			if simReaches != exploreReaches || simReaches != raise {
				t.Errorf("max-microsteps raised %v, reference %v: simulate reaches done %v (exit %d: %s), explore %v",
					raise, ref, simReaches, code, errs, exploreReaches)
			}
		}
	}
}
