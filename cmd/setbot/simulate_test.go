package main

import (
	"bytes"
	"encoding/json"
	"errors"
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
			args: []string{"../../examples/crossing.scxml", "carsWithin(n=5)", "press", "waitingTimeout", "lightsTimeout"},
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
			code: exitFindings,
			out: `(start)
  outputs: none
  state: Fetching,Parsing
> fetched()
  outputs: none
  state: FetchDone,Parsing
> parsed()
  outputs: none
  state: End (halted)
`,
			err: "../../model/mlm/testdata/features/final.scxml: event 3: the machine has stopped (in final state End); it takes no more events\n",
		},
		{
			name: "an event the machine cannot take",
			args: []string{"../../examples/crossing.scxml", "waitingTimeout"},
			code: exitFindings,
			out:  "(start)\n  outputs: none\n  state: NoWalking\n",
			err:  "../../examples/crossing.scxml: event 1: timer waitingTimeout is not pending: no delayed send has set it since it last fired\n",
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
		"power", "source", "play", "mute", "eject", "setVolume(level=7)", "sourceChanged")
	if code != exitFindings || !strings.Contains(errs, "event 7: ") {
		t.Fatalf("exit %d, stderr %q; want 1 and an error at event 7", code, errs)
	}
	var got struct {
		Steps []struct {
			Event string         `json:"event"`
			Args  map[string]any `json:"args"`
			Fired []struct {
				Key  string `json:"key"`
				Path string `json:"path"`
			} `json:"fired"`
			Outputs []struct {
				Event  string         `json:"event"`
				Target string         `json:"target"`
				Args   map[string]any `json:"args"`
			} `json:"outputs"`
			State  string   `json:"state"`
			Config []string `json:"configuration"`
			Halted bool     `json:"halted"`
			Timers []string `json:"timers"`
		} `json:"steps"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Steps) != 7 {
		t.Fatalf("%d steps, want 7 (the start and six events)", len(got.Steps))
	}
	start := got.Steps[0]
	if start.Event != "" || len(start.Args) != 0 || start.State != "Off" || len(start.Fired) != 1 ||
		start.Fired[0].Key != "initial [scxml:initial>Off] Off" {
		t.Errorf("start step %+v", start)
	}
	mute := got.Steps[4]
	if mute.Event != "mute" || len(mute.Outputs) != 1 || mute.Outputs[0].Event != "muted" ||
		mute.Outputs[0].Target != "#_parent" || strings.Join(mute.Config, ",") != "CDPlaying,Muted" {
		t.Errorf("mute step %+v", mute)
	}
	if eject := got.Steps[5]; len(eject.Fired) != 2 || eject.State != "Radio,Unmuted" {
		t.Errorf("eject step %+v, want two fired transitions ending in Radio,Unmuted", eject)
	}
	if vol := got.Steps[6]; vol.Args["level"] != 7.0 || vol.Halted {
		t.Errorf("setVolume step %+v", vol)
	}
	if !strings.Contains(got.Error, "event 7: ") {
		t.Errorf("error %q", got.Error)
	}
}
