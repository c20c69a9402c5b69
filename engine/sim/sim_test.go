package sim_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// load reads and flattens a model file, failing the test on any error.
func loadFile(t *testing.T, path string) *mlm.Machine {
	t.Helper()
	mach, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatalf("loading %s:\n%v", path, err)
	}
	return mach
}

// loadString reads and flattens an SCXML document given as text.
func loadString(t *testing.T, name, src string) *mlm.Machine {
	t.Helper()
	mach, err := load.Bytes(context.Background(), name, []byte(src), load.Options{})
	if err != nil {
		t.Fatalf("loading %s:\n%v", name, err)
	}
	return mach
}

// want is the expected result of one step. Empty fields other than out
// are not checked; out "" means no outputs.
type want struct {
	ev  string // the event, as ParseEvent reads it; "" for the start step
	err string // a substring of the wanted error; nothing else is checked
	// discarded is a substring of why the event was discarded; the step
	// is checked as any other (the machine stays where it was).
	discarded string
	state     string
	out       string // outputs joined with "; "
	paths     string // the decision paths of the fired transitions, %q of the list
	vars      string // some variables' values: "a=0 b=1"
	timers    string // pending timers joined with " ", or "none"
}

// replay starts m and sends it the events of steps[1:], checking each
// step; steps[0] is the start step.
func replay(t *testing.T, m *mlm.Machine, opts sim.Options, steps []want) {
	t.Helper()
	s, st, err := sim.New(m, opts)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	check(t, s, "start", st, steps[0])
	for _, w := range steps[1:] {
		ev, err := sim.ParseEvent(w.ev)
		if err != nil {
			t.Fatal(err)
		}
		st, err := s.StepAt(ev, nil)
		if w.err != "" {
			if err == nil || !strings.Contains(err.Error(), w.err) {
				t.Errorf("%s: got error %v, want one containing %q", w.ev, err, w.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", w.ev, err)
			continue
		}
		if got := st.Discarded; w.discarded == "" && got != "" || !strings.Contains(got, w.discarded) {
			t.Errorf("%s: discarded %q, want %q", w.ev, got, w.discarded)
		}
		check(t, s, w.ev, st, w)
	}
}

func check(t *testing.T, s *sim.Sim, label string, st sim.Step, w want) {
	t.Helper()
	if w.state != "" && st.State != w.state {
		t.Errorf("%s: state %s, want %s", label, st.State, w.state)
	}
	var outs []string
	for _, o := range st.Outputs {
		outs = append(outs, o.String())
	}
	if got := strings.Join(outs, "; "); got != w.out {
		t.Errorf("%s: outputs %q, want %q", label, got, w.out)
	}
	if got := pathsOf(st); w.paths != "" && got != w.paths {
		t.Errorf("%s: paths %s, want %s (fired %v)", label, got, w.paths, st.Fired)
	}
	if w.vars != "" {
		vars := s.Vars()
		for _, kv := range strings.Fields(w.vars) {
			name, val, _ := strings.Cut(kv, "=")
			if got, ok := vars[name]; !ok || got.String() != val {
				t.Errorf("%s: %s=%v, want %s (vars %v)", label, name, got, val, vars)
			}
		}
	}
	if w.timers != "" {
		got := strings.Join(s.PendingTimers(), " ")
		if got == "" {
			got = "none"
		}
		if got != w.timers {
			t.Errorf("%s: pending timers %s, want %s", label, got, w.timers)
		}
	}
}

// pathsOf returns the decision paths of the fired transitions, quoted:
// ["tt" ""].
func pathsOf(st sim.Step) string {
	paths := []string{}
	for _, f := range st.Fired {
		paths = append(paths, f.Path)
	}
	return fmt.Sprintf("%q", paths)
}

const parent = " to #_parent"

func TestTriangle(t *testing.T) {
	m := loadFile(t, "../../examples/triangle.scxml")
	start := want{state: "S0", paths: `[""]`, vars: "a=0 b=0 c=0"}
	tests := []struct {
		name  string
		steps []want
	}{
		{"equilateral", []want{start,
			{ev: "setTriangleSides(x=3, y=3, z=3)", state: "S1_S0", out: "evStartChecking()" + parent, paths: `[""]`, vars: "a=3 b=3 c=3"},
			{ev: "checkPositiveSides", state: "S1_S1", out: "evValidInput()" + parent, paths: `["tt"]`},
			{ev: "checkIsTriangle", state: "S1_S2", out: "evIsTriangle()" + parent, paths: `["tt"]`},
			{ev: "checkTriangleType", state: "S1_S3", out: "evEquilateral()" + parent, paths: `["tt"]`},
			{ev: "reset()", state: "S0", paths: `[""]`, vars: "a=0 b=0 c=0"},
		}},
		{"isosceles", []want{start,
			{ev: "setTriangleSides(x=3, y=3, z=4)", state: "S1_S0", out: "evStartChecking()" + parent},
			{ev: "checkPositiveSides", state: "S1_S1", out: "evValidInput()" + parent},
			{ev: "checkIsTriangle", state: "S1_S2", out: "evIsTriangle()" + parent},
			// a == b && b == c: t (left of &&), f (the if); then
			// a == b || b == c || a == c: t (left of the inner ||), t (left of
			// the outer ||), t (the else-if).
			{ev: "checkTriangleType", state: "S1_S3", out: "evIsosceles()" + parent, paths: `["tfttt"]`},
		}},
		{"isosceles on the right", []want{start,
			{ev: "setTriangleSides(x=3, y=4, z=4)", state: "S1_S0", out: "evStartChecking()" + parent},
			{ev: "checkPositiveSides", state: "S1_S1", out: "evValidInput()" + parent},
			{ev: "checkIsTriangle", state: "S1_S2", out: "evIsTriangle()" + parent},
			// f (left of &&, which short-circuits), f (the if); f (left of
			// the inner ||), t (left of the outer ||: b == c made the inner
			// one true), t (the else-if).
			{ev: "checkTriangleType", state: "S1_S3", out: "evIsosceles()" + parent, paths: `["ffftt"]`},
		}},
		{"scalene", []want{start,
			{ev: "setTriangleSides(x=3, y=4, z=5)", state: "S1_S0", out: "evStartChecking()" + parent},
			{ev: "checkPositiveSides", state: "S1_S1", out: "evValidInput()" + parent},
			{ev: "checkIsTriangle", state: "S1_S2", out: "evIsTriangle()" + parent},
			{ev: "checkTriangleType", state: "S1_S3", out: "evScalene()" + parent, paths: `["fffff"]`},
			{ev: "reset", state: "S0", vars: "a=0 b=0 c=0"},
		}},
		{"not a triangle", []want{start,
			{ev: "setTriangleSides(x=1, y=2, z=5)", state: "S1_S0", out: "evStartChecking()" + parent},
			{ev: "checkPositiveSides", state: "S1_S1", out: "evValidInput()" + parent},
			// T5's guard fails on its first operand; T6's path is its own.
			{ev: "checkIsTriangle", state: "S1_S3", out: "evIsNotTriangle()" + parent, paths: `["tt"]`},
			{ev: "checkTriangleType", state: "S1_S3", paths: `[]`, discarded: "no transition of S1_S3 takes it"},
			{ev: "reset", state: "S0", vars: "a=0 b=0 c=0"},
		}},
		{"not positive", []want{start,
			{ev: "setTriangleSides(x=0, y=-2, z=5)", state: "S1_S0", out: "evStartChecking()" + parent, vars: "a=0 b=-2 c=5"},
			{ev: "checkPositiveSides", state: "S1_S3", out: "evInvalidInput()" + parent, paths: `["tt"]`},
		}},
		{"bad arguments", []want{start,
			{ev: "setTriangleSides(x=3, y=3)", err: "event setTriangleSides needs argument z (int)"},
			{ev: "setTriangleSides(x=3, y=3, z=true)", err: "argument z of event setTriangleSides must be int, not true"},
			{ev: "setTriangleSides(x=3, y=3, z=3, w=1)", err: "event setTriangleSides has no parameter w"},
			{ev: "evStartChecking", state: "S0", discarded: "no transition of S0 takes it"},
			{ev: "nosuch", state: "S0", discarded: "the machine has no such event"},
			// An input the current state does not react to is discarded.
			{ev: "checkPositiveSides", state: "S0", paths: `[]`, vars: "a=0 b=0 c=0", discarded: "no transition of S0 takes it"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { replay(t, m, sim.Options{}, tt.steps) })
	}
}

func TestCrossing(t *testing.T) {
	m := loadFile(t, "../../examples/crossing.scxml")
	replay(t, m, sim.Options{}, []want{
		{state: "NoWalking", timers: "none"},
		{ev: "waitingTimeout", state: "NoWalking", discarded: "no transition of NoWalking takes it"},
		{ev: "carsWithin(n=51)", err: "argument n=51 of event carsWithin is out of range int[0..50]"},
		{ev: "carsWithin(n=5)", state: "NoWalking", vars: "carLights=0 noOfCars=5 walkTime=0"},
		{ev: "press", state: "Waiting", timers: "waitingTimeout"},
		{ev: "waitingTimeout(x=1)", err: "timer waitingTimeout takes no arguments"},
		{ev: "waitingTimeout", state: "Changing", out: "lights(color=1)" + parent, timers: "lightsTimeout"},
		{ev: "waitingTimeout", state: "Changing", discarded: "no transition of Changing takes it"},
		{ev: "lightsTimeout", state: "Walking", out: "lights(color=2)" + parent + "; walk(seconds=25)" + parent,
			paths: `["tt"]`, vars: "carLights=2 noOfCars=5 walkTime=25", timers: "walkTimeout"},
		{ev: "walkTimeout", state: "NoWalking", out: "lights(color=0)" + parent + "; dontWalk()" + parent, timers: "none"},
		{ev: "blink", state: "NoWalking", discarded: "no transition of NoWalking takes it"},
		{ev: "press", state: "Waiting"},
		{ev: "failed", state: "Blinking", out: "blink()" + parent, timers: "waitingTimeout"},
		// A timer stays pending after its state is left; firing it is
		// allowed and, with no transition to take, discarded.
		{ev: "waitingTimeout", state: "Blinking", paths: `[]`, timers: "none", discarded: "no transition of Blinking takes it"},
		{ev: "repaired", state: "NoWalking", vars: "carLights=0 noOfCars=0 walkTime=25"},
	})
}

func TestRadio(t *testing.T) {
	m := loadFile(t, "../../examples/radio.scxml")
	replay(t, m, sim.Options{}, []want{
		{state: "Off", vars: "volume=5"},
		{ev: "power", state: "Radio,Unmuted"},
		{ev: "source", state: "CDStopped,Unmuted"},
		{ev: "play", state: "CDPlaying,Unmuted"},
		{ev: "mute", state: "CDPlaying,Muted", out: "muted()" + parent},
		// Deep history restores both regions.
		{ev: "power", state: "Off|Resume=CDPlaying,Muted"},
		{ev: "power", state: "CDPlaying,Muted", out: "muted()" + parent},
		// eject raises sourceChanged, which unmutes in the same step.
		{ev: "eject", state: "Radio,Unmuted", paths: `["" ""]`},
		{ev: "sourceChanged", discarded: "no transition of"},
		{ev: "setVolume(level=11)", err: "out of range int[0..10]"},
		{ev: "setVolume(level=7)", state: "Radio,Unmuted", vars: "volume=7"},
		{ev: "setVolume(level=0)", state: "Muted,Radio", out: "muted()" + parent, vars: "volume=7"},
	})
}

// TestInputDomain checks that inputs outside the input domain are refused,
// as an int outside its range is: a decimal off the grid of 2^-10 or not
// below 2^42 in magnitude, a string of more than 32 code points.
func TestInputDomain(t *testing.T) {
	m := loadString(t, "domain.scxml", `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A" datamodel="ecmascript">
  <setbot:event name="d"><setbot:param name="x" type="decimal"/></setbot:event>
  <setbot:event name="s"><setbot:param name="t" type="string"/></setbot:event>
  <state id="A">
    <transition event="d" cond="_event.data.x * 4 == 5" target="B"/>
    <transition event="s" cond="_event.data.t.length &gt; 32" target="B"/>
  </state>
  <state id="B"/>
</scxml>`)
	long := strings.Repeat("é", 33)
	decimalDomain := "is outside the input domain: a decimal input is a multiple of 2^-10 (1/1024) below 2^42 in magnitude"
	replay(t, m, sim.Options{}, []want{
		{state: "A"},
		{ev: "d(x=1.1)", err: "argument x=1.1 of event d " + decimalDomain},
		{ev: "d(x=0.0001)", err: "argument x=0.0001 of event d " + decimalDomain},
		{ev: "d(x=4398046511104.0)", err: "argument x=4398046511104.0 of event d " + decimalDomain},
		{ev: "d(x=-4398046511104.0)", err: decimalDomain},
		{ev: "d(x=4398046511103.999)", state: "A", discarded: "every guard is false"},
		{ev: "d(x=0.0009765625)", state: "A", discarded: "every guard is false"},
		{ev: "d(x=3)", state: "A", discarded: "every guard is false"},
		{ev: "d(x=1.25)", state: "B"},
		{ev: "s(t='" + long + "')", err: "argument t='" + long + "' of event s is outside the input domain: a string input holds at most 32 code points, this one 33"},
	})
	replay(t, m, sim.Options{}, []want{
		{state: "A"},
		{ev: "s(t='" + long[2:] + "')", state: "A", discarded: "every guard is false"},
	})
}

func feature(name string) string {
	return filepath.Join("../../model/mlm/testdata/features", name+".scxml")
}

func TestFeatures(t *testing.T) {
	tests := []struct {
		model string
		steps []want
	}{
		{"eventless", []want{{state: "Idle"},
			// The first candidate (guard y == 0) assumes x > 10.
			{ev: "input(v=20)", state: "Idle", paths: `["t"]`, vars: "x=20 y=0"},
			// x > 10 fails for the first candidate, the guard for the
			// second, the assume for Low; Negative completes.
			{ev: "input(v=-1)", state: "Negative", paths: `["tt"]`, vars: "x=-1 y=0"},
			{ev: "input(v=3)", state: "Negative", paths: `[]`, vars: "x=-1 y=0", discarded: "no transition of Negative takes it"},
		}},
		{"eventless", []want{{state: "Idle"},
			{ev: "input(v=5)", state: "Low", paths: `["tt"]`, vars: "x=5 y=0"},
		}},
		{"final", []want{{state: "Fetching,Parsing"},
			{ev: "fetched", state: "FetchDone,Parsing", paths: `[""]`},
			{ev: "parsed", state: "End", paths: `["" ""]`, vars: "exits=1"},
			{ev: "fetched", state: "End", discarded: "the machine has stopped (in final state End)"},
		}},
		{"send", []want{{state: "Idle", timers: "none"},
			// The self-sent selfCheck is processed before the next input.
			{ev: "arm", state: "Checked", out: "report(armed=true, code=7, speed=3)" + parent,
				paths: `["" ""]`, timers: "timeout"},
			{ev: "selfCheck", discarded: "no transition of"},
			{ev: "timeout", state: "Idle", timers: "none"},
			{ev: "timeout", discarded: "no transition of"},
		}},
		{"raise", []want{{state: "A"},
			// ticked moves to C; measured(value=2) fails its guard there.
			{ev: "tick", state: "C", paths: `["" ""]`, vars: "count=1"},
			{ev: "ticked", discarded: "no transition of"},
		}},
		{"order", []want{{state: "A1", vars: "trace=0"},
			{ev: "go", state: "B1", vars: "trace=12345"},
		}},
		{"growing_arrays", []want{{state: "idle", vars: "count=2 seen.length=4 seen[2]=2 seen[3]=3"},
			{ev: "add(v=5)", state: "idle", vars: "log.length=1 log[0]=5"},
			{ev: "add(v=0)", discarded: "no transition of"},
			{ev: "add(v=7)", state: "idle", vars: "log.length=2 log[1]=7"},
			{ev: "add(v=3)", state: "idle", vars: "log.length=3 log[2]=3"},
			// The fourth add outgrows log's bound: the run stops there.
			{ev: "add(v=1)", err: "an array grows past its bound of 3 elements (the array bound; raise it with setbot:type)"},
		}},
		{"internal_transition", []want{{state: "C1", vars: "entries=1"},
			{ev: "inner", state: "C2", vars: "entries=1"},
			{ev: "outer", state: "C2", vars: "entries=2"},
			{ev: "inner", state: "C2", vars: "entries=2"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) { replay(t, loadFile(t, feature(tt.model)), sim.Options{}, tt.steps) })
	}
}

// TestBoundError: where a path meets a bound of the model, the step fails
// with a *sim.BoundError naming the bound.
func TestBoundError(t *testing.T) {
	s, _, err := sim.New(loadFile(t, feature("growing_arrays")), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := s.StepAt(sim.Event{Name: "add", Args: map[string]sim.Value{"v": sim.IntValue(1)}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err = s.StepAt(sim.Event{Name: "add", Args: map[string]sim.Value{"v": sim.IntValue(1)}}, nil)
	var be *sim.BoundError
	if !errors.As(err, &be) || be.Bound != "array" || be.Limit != 3 || !strings.Contains(be.Pos, "growing_arrays.scxml:23:") {
		t.Errorf("got %v (%#v), want a BoundError of the array bound 3 at line 23", err, be)
	}
}

// TestStringBeyondMaxString: a string doubled 40 times stops the run at
// the term bound where it would pass sim.MaxString, at the statement, in
// a script as in an assignment of +=; doubled 20 times it is computed.
func TestStringBeyondMaxString(t *testing.T) {
	for _, tc := range []struct {
		doublings int
		cut       bool
	}{{40, true}, {20, false}} {
		for _, src := range []string{"s = s + s", "s += s"} {
			m := loadString(t, "d.scxml", strings.ReplaceAll(string(hostile.Doubles(tc.doublings)), "s = s + s", src))
			s, _, err := sim.New(m, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = s.StepAt(sim.Event{Name: "e", Args: map[string]sim.Value{"y": sim.IntValue(1)}}, nil)
			var be *sim.BoundError
			switch {
			case tc.cut && (!errors.As(err, &be) || be.Bound != vocab.BoundTerm || !strings.HasPrefix(be.Pos, "d.scxml:")):
				t.Errorf("%s, %d times: got %v, want a BoundError of the term bound at the statement", src, tc.doublings, err)
			case !tc.cut && err != nil:
				t.Errorf("%s, %d times: %v", src, tc.doublings, err)
			}
		}
	}
}

func TestHalted(t *testing.T) {
	s, _, err := sim.New(loadFile(t, feature("final")), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var st sim.Step
	for _, ev := range []string{"parsed", "fetched"} {
		if st, err = s.StepAt(sim.Event{Name: ev}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if !st.Halted || s.State().Name != "End" || fmt.Sprint(st.Config) != "[End]" {
		t.Errorf("halted %v in %s (config %v), want halted in End", st.Halted, s.State().Name, st.Config)
	}
	// The machine stays halted: a later event is discarded.
	if st, err = s.StepAt(sim.Event{Name: "parsed"}, nil); err != nil || !st.Halted || st.Discarded == "" {
		t.Errorf("an event after halting: %+v, %v; want it discarded by the halted machine", st, err)
	}
	if got := s.PendingTimers(); len(got) != 0 {
		t.Errorf("pending timers %v after halting", got)
	}
}
