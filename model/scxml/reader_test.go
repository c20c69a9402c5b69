package scxml_test

import (
	"testing"

	"github.com/setbot/setbot/model"
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
