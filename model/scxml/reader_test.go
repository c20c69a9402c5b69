package scxml_test

import (
	"context"
	"strings"
	"testing"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestEventAlphabet: descriptors name input events, except that a prefix
// descriptor matching declared events names that family, not an event of
// its own; raised, self-sent and delayed events are not inputs.
func TestEventAlphabet(t *testing.T) {
	doc := head + `
<setbot:event name="grp.on"><setbot:param name="p" type="int"/></setbot:event>
<setbot:event name="grp.off"><setbot:param name="p" type="int"/></setbot:event>
<datamodel><data id="x" expr="0"/></datamodel>
<state id="a">
  <transition event="grp.*" cond="_event.data.p &gt; 0"><assign location="x" expr="_event.data.p"/></transition>
  <transition event="go" target="b"><raise event="inner"/><send event="later" delay="1s"/><send event="me"/></transition>
  <transition event="inner me later"/>
</state>
<state id="b"><transition event="out.x"/></state>
</scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := map[string]model.EventKind{
		"grp.on": model.Input, "grp.off": model.Input, "go": model.Input, "out.x": model.Input,
		"inner": model.Internal, "me": model.Self, "later": model.Timer,
	}
	for _, ev := range m.Events {
		k, ok := want[ev.Name]
		if !ok {
			t.Errorf("unexpected event %q", ev.Name)
			continue
		}
		if ev.Kinds != k {
			t.Errorf("event %s has kinds %b, want %b", ev.Name, ev.Kinds, k)
		}
		delete(want, ev.Name)
	}
	for name := range want {
		t.Errorf("event %s missing", name)
	}
}

// flattenText reads doc and returns its MLM in text form (which the hash
// and the stable keys are part of).
func flattenText(t *testing.T, doc string) string {
	t.Helper()
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	mach, err := mlm.Flatten(context.Background(), m, mlm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := mlm.WriteText(&b, mach); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// entryCode reads doc and returns the model and the code of the first
// <onentry> of state a, as one line.
func entryCode(t *testing.T, doc string) (*model.Model, string) {
	t.Helper()
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return m, strings.Join(strings.Fields(printer.BlockString(m.State("a").OnEntry[0])), " ")
}

// TestEmptyCond: cond="" (or only white space) is true, so the transition
// is the unconditional one, with the same MLM, keys and hash as without a
// cond.
func TestEmptyCond(t *testing.T) {
	doc := func(cond string) string {
		return head + `<datamodel><data id="x" expr="0"/></datamodel>
<state id="a"><transition event="go"` + cond + ` target="b"><assign location="x" expr="x + 1"/></transition></state>
<state id="b"><transition` + cond + ` target="c"/></state>
<state id="c"/></scxml>`
	}
	want := flattenText(t, doc(""))
	for _, cond := range []string{` cond=""`, ` cond="  "`, " cond=\"\n\t\""} {
		if got := flattenText(t, doc(cond)); got != want {
			t.Errorf("with%s:\n%s\nwant, as without a cond:\n%s", cond, got, want)
		}
	}
	// A history default transition takes no cond, but an empty one is none.
	flattenText(t, head+`<state id="a"><history id="h"><transition cond="" target="b"/></history><state id="b"/></state></scxml>`)
}

// TestInitialTransitionType: type on the transition of <initial> is
// accepted and enters the same states either way.
func TestInitialTransitionType(t *testing.T) {
	doc := func(attrs string) string {
		return head + `<datamodel><data id="x" expr="0"/></datamodel>
<state id="p"><initial><transition` + attrs + ` target="q"><assign location="x" expr="1"/></transition></initial>
<onentry><assign location="x" expr="2"/></onentry>
<state id="o"/><state id="q"><transition event="go" target="o"/></state></state></scxml>`
	}
	want := flattenText(t, doc(""))
	for _, attrs := range []string{` type="internal"`, ` type="external"`, ` type="internal" cond=""`} {
		if got := flattenText(t, doc(attrs)); got != want {
			t.Errorf("with%s:\n%s\nwant, as without a type:\n%s", attrs, got, want)
		}
	}
}

// TestSendIDAndCancel: <send id> is kept on a send to the machine, delayed
// (a pending timer that <cancel> names) or not (the sendid of the event it
// receives), and dropped on an output, where nothing can observe it, so an
// id there changes neither the MLM nor its hash; <cancel sendid> becomes a
// cancel statement.
func TestSendIDAndCancel(t *testing.T) {
	doc := func(id string) string {
		return head + `<state id="a"><transition event="go" target="b">
<send event="later" delay="1s"` + id + `/><send event="me"` + id + `/><send event="out" target="#_parent"` + id + `/>
</transition></state>
<state id="b"><transition event="stop" target="a"><cancel sendid=" t1 "/></transition><transition event="later me"/></state></scxml>`
	}
	got := flattenText(t, doc(` id="t1"`))
	for _, want := range []string{`send later() after '1s' id "t1"; send me() id "t1"; send out() to "#_parent";`, `cancel "t1";`} {
		if !strings.Contains(got, want) {
			t.Errorf("MLM does not contain %q:\n%s", want, got)
		}
	}
	without := flattenText(t, strings.Replace(doc(` id="t1"`), `target="#_parent" id="t1"`, `target="#_parent"`, 1))
	if without != got {
		t.Errorf("an id on an output changed the MLM:\n%s\nwant:\n%s", without, got)
	}
}

// TestSendMetadata: the reader keeps what _event.sendid and _event.type
// read: a send to #_internal is a raise with the send's id; a send the
// SCXML event processor cannot deliver raises a platform error with the
// send's id; a send to the machine's own session location is a send to
// its external queue.
func TestSendMetadata(t *testing.T) {
	got := flattenText(t, head+`<state id="a"><transition event="go" target="b">
<send event="in" target="#_internal" id="i1"/>
<send event="x" target="#_scxml_other" id="c1"/>
<send event="me" target="#_scxml_setbot-session" id="m1"/>
<send event="y" target="baz" id="e1"/>
</transition></state>
<state id="b"><transition event="in x me"/></state></scxml>`)
	want := `raise in() id "i1"; raise platform error.communication() id "c1"; send me() id "m1"; raise platform error.execution() id "e1";`
	if !strings.Contains(got, want) {
		t.Errorf("MLM does not contain %q:\n%s", want, got)
	}
}
