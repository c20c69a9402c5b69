package mlm_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

func compose(t *testing.T, doc string) *mlm.Machine {
	t.Helper()
	m, errs := scxml.Read(source.NewFileSet(), "p.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	mach, err := mlm.Flatten(context.Background(), m, mlm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return mach
}

// parentDoc invokes a child in state on, whose transitions come in the
// given order.
func parentDoc(childTransitions string) string {
	return `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="off">
<state id="off"><transition event="on" target="on"/></state>
<state id="on"><invoke id="kid"><content><scxml initial="a">
<datamodel><data id="x" expr="0"/></datamodel>
<state id="a">` + childTransitions + `</state><state id="b"/></scxml></content></invoke>
<transition event="off" target="off"/><transition event="poke"><send target="#_kid" event="p"/></transition></state></scxml>`
}

// TestComposeStates: the composed machine's states carry the child's
// configuration under the invoke id; entering the invoking state waits for
// the child to start (Invoking), leaving it cancels the child, and a send
// to #_kid goes to the child's queue only while it runs.
func TestComposeStates(t *testing.T) {
	mach := compose(t, parentDoc(`<transition event="p" cond="x == 0" target="b"><assign location="x" expr="1"/></transition>`))
	var names []string
	for _, s := range mach.States {
		names = append(names, s.Name)
	}
	// off is reached within the step that leaves on with the child's
	// cancel queued, and then without it (see TestComposeEnding).
	want := []string{"off", "off | kid ending c", "on | invoking kid", "on | kid:a", "on | kid:b"}
	if !slices.Equal(names, want) {
		t.Fatalf("states %q, want %q", names, want)
	}
	if s := mach.State("on | invoking kid"); !s.Invoking || !slices.Equal(s.Atomic, []string{"on"}) {
		t.Errorf("%s: invoking %v atomic %v", s.Name, s.Invoking, s.Atomic)
	}
	if s := mach.State("on | kid:a"); s.Invoking || !slices.Equal(s.Atomic, []string{"kid.a", "on"}) {
		t.Errorf("%s: invoking %v atomic %v; want the child's a as kid.a", s.Name, s.Invoking, s.Atomic)
	}
	if !slices.ContainsFunc(mach.Vars, func(v *model.Var) bool { return v.Name == "kid.x" }) {
		t.Error("no variable kid.x")
	}
	for _, tr := range mach.Transitions {
		switch {
		case tr.Event == "off" && strings.Contains(tr.Source.Name, "kid:") != (tr.Target.Name == "off | kid ending c"):
			t.Errorf("%s: off leads to %s; leaving on cancels the child, which runs in kid:", tr.Key, tr.Target.Name)
		case tr.Event == "kid/p":
			if tr.Source.Name != "on | kid:a" || !strings.Contains(mlm.GuardString(tr.Guard), "kid.x == 0") || !strings.Contains(printer.BlockString(tr.Action), "kid.x = 1") {
				t.Errorf("%s: guard %s action %s; want the child's step with its variable renamed", tr.Key, mlm.GuardString(tr.Guard), printer.BlockString(tr.Action))
			}
		case tr.Event == "poke":
			action := printer.BlockString(tr.Action)
			if running := strings.Contains(tr.Source.Name, "kid:"); running != strings.Contains(action, `send "kid/p"`) || !running && !strings.Contains(action, "error.communication") {
				t.Errorf("%s: %s; want the send to reach the running child, and error.communication otherwise", tr.Key, action)
			}
		}
	}
}

// TestComposeStableKeys: the keys and the hash of a composed machine do
// not depend on the order of the child's transitions in the file.
func TestComposeStableKeys(t *testing.T) {
	t1 := `<transition event="p" target="b"/>`
	t2 := `<transition event="q" target="b"><assign location="x" expr="2"/></transition>`
	one, two := compose(t, parentDoc(t1+t2)), compose(t, parentDoc(t2+"\n\n"+t1))
	if one.Hash != two.Hash {
		t.Errorf("reordering the child's transitions changes the hash")
	}
	keys := func(m *mlm.Machine) []string {
		var out []string
		for _, tr := range m.Transitions {
			out = append(out, tr.Key)
		}
		return out
	}
	if !slices.Equal(keys(one), keys(two)) {
		t.Errorf("keys differ:\n%q\n%q", keys(one), keys(two))
	}
	if !slices.Contains(keys(one), "on | kid:a kid/q [kid: a q [a:q>b] b] on | kid:b") {
		t.Errorf("no key of the child's q within the invoke: %q", keys(one))
	}
}

// TestComposeCancel: the transition that leaves the invoking state runs,
// after the state's exit actions, the exit actions of the child's
// configuration, innermost first, keeping only what leaves the session
// (its outputs and assignments, not its event to the parent), then ends
// the child's timers and marks its end in the queue; a send to the child
// after that raises error.communication.
func TestComposeCancel(t *testing.T) {
	mach := compose(t, `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="on">
<state id="on"><invoke id="kid"><content><scxml initial="a">
<datamodel><data id="x" expr="0"/></datamodel>
<state id="p" initial="a"><onexit><send target="#_log" event="pbye"/></onexit>
<state id="a"><onexit><assign location="x" expr="1"/><send target="#_parent" event="bye"/><send target="#_log" event="abye"/></onexit></state>
</state></scxml></content></invoke>
<onexit><send target="#_kid" event="early"/><send target="#_log" event="onbye"/></onexit>
<transition event="off" target="off"><send target="#_kid" event="late"/></transition></state>
<state id="off"/></scxml>`)
	var action string
	for _, tr := range mach.Transitions {
		if tr.Source.Name == "on | kid:a" && tr.Event == "off" {
			action = printer.BlockString(tr.Action)
			if tr.Target.Name != "off | kid ending c" {
				t.Errorf("%s: target %s, want the state with the cancel queued", tr.Key, tr.Target.Name)
			}
		}
	}
	order := []string{`send "kid/early"`, `onbye()`, `kid.x = 1`, `abye()`, `pbye()`, `cancel "kid/" prefix`, `raise platform error.communication`, `send "kid//cancelled"`}
	at := 0
	for _, want := range order {
		i := strings.Index(action[at:], want)
		if i < 0 {
			t.Fatalf("off from on | kid:a: %s\nwant, in order, %q (missing or out of order: %s)", action, order, want)
		}
		at += i + len(want)
	}
	if strings.Contains(action, "bye@kid") || strings.Contains(action, "late") && !strings.Contains(action, "error.communication") {
		t.Errorf("off from on | kid:a: %s\nthe cancelled child's event to its parent is sent, or late reaches the child", action)
	}
}

// TestComposeEnding: while a session's end is queued, the composed machine
// is in a state it passes through within the step (Ending): it takes no
// input, and the mark leads to the state without it.
func TestComposeEnding(t *testing.T) {
	mach := compose(t, parentDoc(`<transition event="p" target="b"/>`))
	s := mach.State("off | kid ending c")
	if s == nil || !s.Ending || mach.State("off").Ending {
		t.Fatalf("off | kid ending c: %+v; want a state marked Ending, and off not", s)
	}
	var events []string
	for _, tr := range mach.Transitions {
		if tr.Source == s {
			events = append(events, tr.Event+" -> "+tr.Target.Name)
		}
	}
	if want := []string{"kid//cancelled -> off"}; !slices.Equal(events, want) {
		t.Errorf("transitions of %s: %q, want %q (no input is taken within a step)", s.Name, events, want)
	}
	// A child that takes no event from the queue and sends its parent
	// none leaves nothing of its session queued: its end needs no mark.
	mute := compose(t, parentDoc(`<transition cond="x == 1" target="b"/>`))
	for _, s := range mute.States {
		if s.Ending {
			t.Errorf("%s: a mark for a child that neither hears nor speaks", s.Name)
		}
	}
}
