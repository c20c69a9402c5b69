package interp_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine/interp"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

func readModel(t *testing.T, name, src string) *model.Model {
	t.Helper()
	m, errs := scxml.Read(source.NewFileSet(), name, []byte(src), scxml.Options{})
	if len(errs) > 0 {
		t.Fatalf("reading %s:\n%v", name, errs)
	}
	return m
}

// step is the expected result of one step; empty fields are not checked,
// except out ("" means no outputs) and discarded ("" means taken).
type step struct {
	ev          string // as sim.ParseEvent reads it; "" for the start
	err         string // a substring of the wanted error; nothing else is checked
	transitions string // microsteps joined with " ; "
	exited      string // joined with " "
	entered     string // joined with " "
	config      string // joined with " "
	out         string // outputs joined with "; "
	discarded   string // a substring of the reason
	halted      bool
	timers      string // pending timers joined with " ", or "none"
	vars        string // "x=1 y=2"
}

const head = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" `

// TestSemantics checks the algorithm of SCXML Appendix D, one feature per
// model, on what each step exits, enters and sends.
func TestSemantics(t *testing.T) {
	tests := []struct {
		name  string
		model string
		opts  interp.Options
		steps []step
	}{
		{
			name: "inner before outer, then document order",
			model: head + `initial="A">
  <state id="P">
    <transition event="go" target="Z"/>
    <state id="A">
      <transition event="go" target="B"/>
      <transition event="go" target="C"/>
      <transition event="up" target="C"/>
    </state>
    <state id="B"/>
    <state id="C"/>
  </state>
  <state id="Z"/>
</scxml>`,
			steps: []step{
				{entered: "P A", config: "A", transitions: "scxml:initial>A"},
				{ev: "go", transitions: "A:go>B", exited: "A", entered: "B", config: "B"},
				{ev: "go", transitions: "P:go>Z", exited: "B P", entered: "Z", config: "Z"},
			},
		},
		{
			name: "exit innermost first, content, entry outermost first",
			model: head + `initial="A1">
  <state id="A">
    <onexit><send event="exitA" target="#_parent"/></onexit>
    <state id="A1">
      <onexit><send event="exitA1" target="#_parent"/></onexit>
      <transition event="go" target="B1"><send event="content" target="#_parent"/></transition>
    </state>
  </state>
  <state id="B">
    <onentry><send event="enterB" target="#_parent"/></onentry>
    <state id="B1"><onentry><send event="enterB1" target="#_parent"/></onentry></state>
  </state>
</scxml>`,
			steps: []step{
				{entered: "A A1", config: "A1"},
				{ev: "go", exited: "A1 A", entered: "B B1", config: "B1",
					out: "exitA1() to #_parent; exitA() to #_parent; content() to #_parent; enterB() to #_parent; enterB1() to #_parent"},
			},
		},
		{
			name: "parallel regions: both take the event unless their exit sets conflict",
			model: head + `initial="P">
  <parallel id="P">
    <state id="R1">
      <state id="a1">
        <transition event="step" target="a2"/>
        <transition event="leave" target="X"/>
      </state>
      <state id="a2"/>
    </state>
    <state id="R2">
      <state id="b1">
        <transition event="step" target="b2"/>
        <transition event="leave" target="b2"/>
      </state>
      <state id="b2"/>
    </state>
  </parallel>
  <state id="X"/>
</scxml>`,
			steps: []step{
				{entered: "P R1 a1 R2 b1", config: "a1 b1"},
				{ev: "step", transitions: "a1:step>a2+b1:step>b2", exited: "b1 a1", entered: "a2 b2", config: "a2 b2"},
			},
		},
		{
			name: "a conflicting transition of a later region is preempted",
			model: head + `initial="P">
  <parallel id="P">
    <state id="R1"><state id="a1"><transition event="leave" target="X"/></state></state>
    <state id="R2"><state id="b1"><transition event="leave" target="b2"/></state><state id="b2"/></state>
  </parallel>
  <state id="X"/>
</scxml>`,
			steps: []step{
				{config: "a1 b1"},
				{ev: "leave", transitions: "a1:leave>X", exited: "b1 R2 a1 R1 P", entered: "X", config: "X"},
			},
		},
		{
			name: "internal transition does not exit its source",
			model: head + `initial="C">
  <state id="C">
    <onexit><send event="exitC" target="#_parent"/></onexit>
    <transition event="in" type="internal" target="c2"/>
    <transition event="ext" target="c2"/>
    <state id="c1"/>
    <state id="c2"/>
  </state>
</scxml>`,
			steps: []step{
				{config: "c1"},
				{ev: "in", exited: "c1", entered: "c2", config: "c2", out: ""},
				{ev: "ext", exited: "c2 C", entered: "C c2", config: "c2", out: "exitC() to #_parent"},
			},
		},
		{
			name: "shallow and deep history",
			model: head + `initial="C">
  <state id="C">
    <transition event="out" target="O"/>
    <history id="Hs"><transition target="c1"><send event="defaultHs" target="#_parent"/></transition></history>
    <history id="Hd" type="deep"><transition target="c1"/></history>
    <state id="c1">
      <transition event="next" target="c2x"/>
    </state>
    <state id="c2">
      <state id="c2a"/>
      <state id="c2x"/>
    </state>
  </state>
  <state id="O">
    <transition event="shallow" target="Hs"/>
    <transition event="deep" target="Hd"/>
  </state>
</scxml>`,
			steps: []step{
				{config: "c1"},
				{ev: "next", entered: "c2 c2x", config: "c2x"},
				{ev: "out", exited: "c2x c2 C", config: "O"},
				// Shallow history re-enters c2 by its default, c2a.
				{ev: "shallow", entered: "C c2 c2a", config: "c2a", out: ""},
				{ev: "next", discarded: "no transition of c2a"},
				{ev: "out", config: "O"},
				// Deep history recorded c2a when C was left the second time.
				{ev: "deep", entered: "C c2 c2a", config: "c2a"},
			},
		},
		{
			name: "history default content runs after the parent's entry",
			model: head + `initial="O">
  <state id="O"><transition event="go" target="H"/></state>
  <state id="C">
    <onentry><send event="enterC" target="#_parent"/></onentry>
    <history id="H"><transition target="c1"><send event="default" target="#_parent"/></transition></history>
    <state id="c1"><onentry><send event="enterc1" target="#_parent"/></onentry></state>
  </state>
</scxml>`,
			steps: []step{
				{config: "O"},
				{ev: "go", entered: "C c1", config: "c1",
					out: "enterC() to #_parent; default() to #_parent; enterc1() to #_parent"},
			},
		},
		{
			name: "initial element content runs after the state's entry",
			model: head + `initial="C">
  <state id="C">
    <onentry><send event="enterC" target="#_parent"/></onentry>
    <initial><transition target="c1"><send event="initial" target="#_parent"/></transition></initial>
    <state id="c1"><onentry><send event="enterc1" target="#_parent"/></onentry></state>
  </state>
</scxml>`,
			steps: []step{
				{entered: "C c1", config: "c1", out: "enterC() to #_parent; initial() to #_parent; enterc1() to #_parent"},
			},
		},
		{
			name: "done.state events, parallel completion last",
			model: head + `initial="P">
  <datamodel><data id="seen" expr="0"/></datamodel>
  <parallel id="P">
    <onentry><raise event="e1"/><raise event="e2"/></onentry>
    <transition event="done.state.R1"><assign location="seen" expr="seen * 10 + 1"/></transition>
    <transition event="done.state.R2"><assign location="seen" expr="seen * 10 + 2"/></transition>
    <transition event="done.state.P" target="Done"/>
    <state id="R1"><state id="r1"><transition event="e1" target="f1"/></state><final id="f1"/></state>
    <state id="R2"><state id="r2"><transition event="e2" target="f2"/></state><final id="f2"/></state>
  </parallel>
  <state id="Done"/>
</scxml>`,
			steps: []step{
				{config: "Done", vars: "seen=12", entered: "P R1 r1 R2 r2 f1 f2 Done",
					transitions: "scxml:initial>P ; r1:e1>f1 ; r2:e2>f2 ; P:done.state.R1> ; P:done.state.R2> ; P:done.state.P>Done"},
			},
		},
		{
			name: "a top-level final state stops the machine; every state exits",
			model: head + `initial="A">
  <state id="A">
    <onexit><send event="exitA" target="#_parent"/></onexit>
    <transition event="stop" target="F"><raise event="lost"/><send event="later" delay="1s"/></transition>
    <transition event="arm"><send event="tick" delay="1s"/></transition>
  </state>
  <final id="F"><onexit><send event="exitF" target="#_parent"/><raise event="gone"/></onexit></final>
</scxml>`,
			steps: []step{
				{config: "A"},
				{ev: "arm", timers: "tick"},
				{ev: "stop", exited: "A F", entered: "F", config: "F", halted: true, timers: "none",
					out: "exitA() to #_parent; exitF() to #_parent"},
				{ev: "stop", discarded: "the machine has stopped (in final state F)", config: "F", halted: true},
				{ev: "tick", discarded: "the machine has stopped", halted: true},
			},
		},
		{
			name: "internal queue, then eventless transitions between events, then the self queue",
			model: head + `initial="A">
  <setbot:event name="go" input="true"/>
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="A">
    <transition event="go" target="B">
      <send event="s"/><raise event="i"/><assign location="x" expr="1"/>
    </transition>
  </state>
  <state id="B">
    <transition cond="x == 2" target="C"/>
    <transition event="i"><assign location="x" expr="2"/><send event="fromI" target="#_parent"/></transition>
  </state>
  <state id="C">
    <transition event="s" target="D"><send event="fromS" target="#_parent"/></transition>
  </state>
  <state id="D"/>
</scxml>`,
			steps: []step{
				{config: "A"},
				{ev: "go", transitions: "A:go>B ; B:i> ; B:>C ; C:s>D", entered: "B C D", config: "D",
					out: "fromI() to #_parent; fromS() to #_parent"},
			},
		},
		{
			name: "every delayed send is its own timer, the oldest fires first",
			model: head + `initial="A">
  <setbot:event name="arm"><setbot:param name="v" type="int"/></setbot:event>
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="A">
    <transition event="arm"><send event="t" delay="1s"><param name="v" expr="_event.data.v"/></send></transition>
    <transition event="t"><assign location="x" expr="_event.data.v"/></transition>
  </state>
</scxml>`,
			steps: []step{
				{config: "A", timers: "none"},
				{ev: "arm(v=1)", timers: "t"},
				{ev: "arm(v=2)", timers: "t t"},
				{ev: "t", vars: "x=1", timers: "t"},
				{ev: "t", vars: "x=2", timers: "none"},
				{ev: "t", err: "timer t is not pending"},
				{ev: "t(v=3)", err: "timer t is not pending"},
			},
		},
		{
			name: "In() sees the configuration as it is when the code runs",
			model: head + `initial="A">
  <state id="A">
    <onexit><if cond="In('A')"><send event="exitSeesA" target="#_parent"/></if></onexit>
    <transition event="go" target="B"><if cond="In('A')"><send event="contentSeesA" target="#_parent"/></if></transition>
  </state>
  <state id="B">
    <onentry><if cond="In('B')"><send event="entrySeesB" target="#_parent"/></if></onentry>
  </state>
</scxml>`,
			steps: []step{
				{config: "A"},
				{ev: "go", config: "B", out: "exitSeesA() to #_parent; entrySeesB() to #_parent"},
			},
		},
		{
			name: "discarded events",
			model: head + `initial="A">
  <setbot:event name="go"><setbot:param name="n" type="int[0..9]"/></setbot:event>
  <setbot:event name="other" input="true"/>
  <state id="A"><transition event="go" cond="_event.data.n &gt; 5" target="B"/></state>
  <state id="B"/>
</scxml>`,
			steps: []step{
				{config: "A"},
				{ev: "nosuch", discarded: "the machine has no such event", config: "A"},
				{ev: "other", discarded: "no transition of A takes it", config: "A"},
				{ev: "go(n=3)", discarded: "no transition of A takes it (every condition is false)", config: "A"},
				{ev: "go(n=10)", err: "out of range int[0..9]"},
				{ev: "go", err: "needs argument n"},
				{ev: "go(n=6)", config: "B", entered: "B", exited: "A"},
			},
		},
		{
			name: "errors leave the machine as it was",
			model: head + `initial="A">
  <setbot:event name="add"><setbot:param name="n" type="int"/></setbot:event>
  <datamodel><data id="x" expr="9223372036854775806"/></datamodel>
  <state id="A">
    <transition event="add" target="B"><assign location="x" expr="x + _event.data.n"/></transition>
  </state>
  <state id="B"><onentry><assign location="x" expr="0"/></onentry></state>
</scxml>`,
			steps: []step{
				{config: "A"},
				{ev: "add(n=2)", err: "event add(n=2): transition A:add>B: integer overflow in x + _event.data.n at semantics.scxml:5:"},
				{ev: "add(n=1)", config: "B", vars: "x=0"},
			},
		},
		{
			// mainEventLoop sets _event before selecting transitions and
			// runs the macrostep loop even when the event enabled none.
			name: "eventless conditions see every event, taken or not",
			model: head + `initial="A">
  <setbot:event name="go"><setbot:param name="n" type="int[0..9]"/></setbot:event>
  <setbot:event name="poke"><setbot:param name="n" type="int[0..9]"/></setbot:event>
  <state id="A"><transition event="go" target="B"/></state>
  <state id="B"><transition cond="_event.data.n == 5" target="C"/></state>
  <state id="C"/>
</scxml>`,
			steps: []step{
				{config: "A"},
				{ev: "go(n=1)", config: "B"},
				{ev: "poke(n=5)", transitions: "B:>C", config: "C"},
				{ev: "poke(n=5)", discarded: "no transition of C takes it", config: "C"},
			},
		},
		{
			// SCXML §6.4, W3C tests 250 and 252.
			name: "a cancelled child exits its states: its outputs happen, its events to the parent are not processed",
			model: head + `initial="on">
  <state id="on">
    <invoke id="kid"><content><scxml initial="a">
      <datamodel><data id="n" expr="0"/></datamodel>
      <state id="p" initial="a">
        <onexit><send event="pbye" target="#_log"><param name="n" expr="n"/></send></onexit>
        <state id="a">
          <onexit>
            <assign location="n" expr="n + 1"/>
            <send event="bye" target="#_parent"/>
            <send event="abye" target="#_log"/>
          </onexit>
        </state>
      </state>
    </scxml></content></invoke>
    <onexit><send event="onbye" target="#_log"/></onexit>
    <transition event="off" target="off"/>
  </state>
  <state id="off"><transition event="bye" target="wrong"/></state>
  <state id="wrong"/>
</scxml>`,
			steps: []step{
				{config: "kid.a on"},
				{ev: "off", transitions: "on:off>off", exited: "on kid.a kid.p", entered: "off", config: "off",
					out: "onbye() to #_log; abye() to #_log; pbye(n=1) to #_log"},
			},
		},
		{
			name: "a cancelled child cancels its own child after the exit actions of the invoking state",
			model: head + `initial="on">
  <state id="on">
    <invoke id="mid"><content><scxml initial="m">
      <state id="m">
        <invoke id="leaf"><content><scxml initial="l">
          <state id="l"><onexit><send target="#_log" event="leafbye"/><send target="#_parent" event="lb"/></onexit></state>
        </scxml></content></invoke>
        <onexit><send target="#_log" event="midbye"/><send target="#_leaf" event="x"/></onexit>
        <transition event="lb" target="bad"/>
      </state>
      <state id="bad"/>
    </scxml></content></invoke>
    <transition event="re" target="on"/>
  </state>
</scxml>`,
			steps: []step{
				{config: "mid.leaf.l mid.m on"},
				{ev: "re", exited: "on mid.m mid.leaf.l", entered: "on mid.m mid.leaf.l", config: "mid.leaf.l mid.m on",
					out: "midbye() to #_log; leafbye() to #_log"},
			},
		},
		{
			name: "a send to the child in the transition that leaves the invoking state raises error.communication",
			model: head + `initial="on">
  <setbot:event name="off" input="true"/>
  <datamodel><data id="errs" expr="0"/></datamodel>
  <state id="on">
    <invoke id="kid"><content><scxml initial="a"><state id="a"><transition event="late" target="b"/></state><state id="b"/></scxml></content></invoke>
    <onexit><send event="early" target="#_kid"/></onexit>
    <transition event="off" target="on"><send event="late" target="#_kid"/></transition>
    <transition event="error.communication"><assign location="errs" expr="errs + 1"/></transition>
  </state>
</scxml>`,
			steps: []step{
				{config: "kid.a on"},
				// early reaches the old session, which is cancelled before
				// it takes it; late finds no session: error.communication.
				{ev: "off", transitions: "on:off>on ; on:error.communication> ; kid.scxml:initial>a", config: "kid.a on", vars: "errs=1"},
			},
		},
		{
			name: "a new session takes no event sent to the old one, and the parent none the cancelled one sent",
			model: head + `initial="on">
  <setbot:event name="both" input="true"/>
  <datamodel><data id="acks" expr="0"/></datamodel>
  <state id="on">
    <invoke id="kid"><content><scxml initial="a">
      <state id="a">
        <transition event="tick"><send event="ack" target="#_parent"/></transition>
        <transition event="tock" target="b"/>
      </state>
      <state id="b"/>
    </scxml></content></invoke>
    <transition event="both"><send event="tick" target="#_kid"/><send event="again"/><send event="tock" target="#_kid"/></transition>
    <transition event="again" target="on"/>
    <transition event="ack"><assign location="acks" expr="acks + 1"/></transition>
  </state>
</scxml>`,
			steps: []step{
				{config: "kid.a on"},
				// The old session takes tick and acks; again starts a new
				// session while ack and tock are queued: neither is taken.
				{ev: "both", transitions: "on:both> ; kid.a:tick> ; on:again>on ; kid.scxml:initial>a", config: "kid.a on", vars: "acks=0"},
			},
		},
		{
			name:  "a step that does not settle is an error, not a hang",
			opts:  interp.Options{MaxMicrosteps: 50},
			model: head + `initial="A"><state id="A"><transition target="B"/></state><state id="B"><transition target="A"/></state></scxml>`,
			steps: []step{{err: "did not settle within 50 microsteps"}},
		},
		{
			// The cond reads a name bound nowhere: it is false and raises
			// error.execution each time it is evaluated, which no
			// transition takes, so no microstep is counted; the queued
			// events are.
			name:  "a step that raises error.execution without end is an error, not a hang",
			opts:  interp.Options{MaxMicrosteps: 50},
			model: head + `initial="A"><state id="A"><transition cond="ghost &gt; 0" target="B"/></state><state id="B"/></scxml>`,
			steps: []step{{err: "did not settle within 50 queued events (next: error.execution)"}},
		},
		{
			name: "loops are bounded",
			opts: interp.Options{LoopLimit: 5},
			model: head + `initial="A">
  <setbot:event name="spin" input="true"/>
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="A"><transition event="spin"><script>while (x &gt;= 0) { x++ }</script></transition></state>
</scxml>`,
			steps: []step{{config: "A"}, {ev: "spin", err: "ran more than 5 iterations"}, {ev: "nosuch", discarded: "no such event", vars: "x=0"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := readModel(t, "semantics.scxml", tt.model)
			in, st, err := interp.New(m, tt.opts)
			if !checkStep(t, "start", st, err, in, tt.steps[0]) {
				return
			}
			var events []sim.Event
			for _, w := range tt.steps[1:] {
				ev, perr := sim.ParseEvent(w.ev)
				if perr != nil {
					t.Fatal(perr)
				}
				events = append(events, ev)
				st, err := in.StepAt(ev, nil)
				checkStep(t, w.ev, st, err, in, w)
			}
			// Where setbot flattens the model, the flattened machine agrees.
			s, _ := load("semantics.scxml", []byte(tt.model))
			if s != nil {
				if d := s.compare(fixed(events), &counts{}); d != "" {
					t.Error(d)
				}
			}
		})
	}
}

// checkStep compares a step with what is wanted; it reports false when the
// machine did not start.
func checkStep(t *testing.T, label string, st interp.Step, err error, in *interp.Interp, w step) bool {
	t.Helper()
	if w.err != "" {
		if err == nil || !strings.Contains(err.Error(), w.err) {
			t.Errorf("%s: error %v, want one containing %q", label, err, w.err)
		}
		return in != nil
	}
	if err != nil {
		t.Errorf("%s: %v", label, err)
		return in != nil
	}
	var outs []string
	for _, o := range st.Outputs {
		outs = append(outs, o.String())
	}
	checks := []struct{ what, got, want string }{
		{"outputs", strings.Join(outs, "; "), w.out},
		{"discarded", st.Discarded, w.discarded},
		{"transitions", strings.Join(st.Transitions, " ; "), w.transitions},
		{"exited", strings.Join(st.Exited, " "), w.exited},
		{"entered", strings.Join(st.Entered, " "), w.entered},
		{"configuration", strings.Join(st.Config, " "), w.config},
		{"timers", timersString(in), w.timers},
		{"variables", varsString(in, w.vars), w.vars},
	}
	for i, c := range checks {
		switch {
		case c.what == "discarded" && w.discarded != "":
			if !strings.Contains(c.got, c.want) {
				t.Errorf("%s: discarded %q, want %q", label, c.got, c.want)
			}
		case i < 2 && c.got != c.want, i >= 2 && c.want != "" && c.got != c.want:
			t.Errorf("%s: %s %q, want %q", label, c.what, c.got, c.want)
		}
	}
	if st.Halted != w.halted {
		t.Errorf("%s: halted %v, want %v", label, st.Halted, w.halted)
	}
	return true
}

func timersString(in *interp.Interp) string {
	if len(in.PendingTimers()) == 0 {
		return "none"
	}
	return strings.Join(in.PendingTimers(), " ")
}

// varsString returns the values of the variables named in want, as want
// writes them.
func varsString(in *interp.Interp, want string) string {
	vars := in.Vars()
	var parts []string
	for _, f := range strings.Fields(want) {
		name, _, _ := strings.Cut(f, "=")
		parts = append(parts, name+"="+vars[name].String())
	}
	return strings.Join(parts, " ")
}

// TestHistoryCycle checks that the interpreter refuses history defaults
// that lead in a cycle even in an IR the SCXML reader did not check (the
// reader refuses such a document).
func TestHistoryCycle(t *testing.T) {
	m := readModel(t, "cycle.scxml", `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="O">
  <state id="O"><transition event="go" target="H1"/></state>
  <state id="C">
    <history id="H1"><transition target="c1"/></history>
    <history id="H2"><transition target="H1"/></history>
    <state id="c1"/>
  </state>
</scxml>`)
	m.State("H1").Transitions[0].Targets = []*model.State{m.State("H2")}
	_, _, err := interp.New(m, interp.Options{})
	if want := "cycle.scxml:4:5: the default transitions of history states lead in a cycle: H1 -> H2 -> H1"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

// TestBoundError: an array that grows past its bound stops the
// interpreter, as it stops the simulator, with a *sim.BoundError naming
// the bound (the symbolic executor cuts the path there).
func TestBoundError(t *testing.T) {
	m := readModel(t, "grow.scxml", `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="a">
  <datamodel><data id="xs" expr="[]" setbot:type="int[2]"/></datamodel>
  <state id="a"><transition event="add"><assign location="xs" expr="xs.concat(xs.length)"/></transition></state>
</scxml>`)
	in, _, err := interp.New(m, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := in.StepAt(sim.Event{Name: "add"}, nil); err != nil {
			t.Fatal(err)
		}
	}
	_, err = in.StepAt(sim.Event{Name: "add"}, nil)
	var be *sim.BoundError
	want := "event add(): transition a:add>: grow.scxml:3:59: an array grows past its bound of 2 elements (the array bound; raise it with setbot:type)"
	if !errors.As(err, &be) || be.Bound != "array" || be.Limit != 2 || err.Error() != want {
		t.Errorf("got %v, want a BoundError: %s", err, want)
	}
}
