package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestUndefinedData: a <data> without a value is undefined; its type is
// the kind the code assigns to it, carried as a value and a tag variable
// after lowering, and every guard reads the pair.
func TestUndefinedData(t *testing.T) {
	doc := head + `<datamodel><data id="x"/><data id="n"/><data id="s" expr="'a'"/><data id="k" expr="s + 'b'"/><data id="id" expr="_sessionid"/></datamodel>
<state id="a"><transition event="go" cond="x === undefined" target="b"><assign location="x" expr="3"/></transition>
<transition event="stop" cond="n == null &amp;&amp; typeof x == 'number'" target="b"/></state>
<state id="b"/></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var vars []string
	for _, v := range m.Vars {
		vars = append(vars, v.Name+": "+v.Type.String()+" = "+lang.ExprString(v.Init))
	}
	want := []string{
		"x: int = 0", "_absent_x: int[0..2] = 1", // undefined until assigned an int
		"n: int = 0", "_absent_n: int[0..2] = 1", // never assigned: undefined alone
		"s: string = 'a'",
		"k: string = 'ab'", // folded: s is a constant
		"id: string = ''",  // computed when the machine starts
	}
	if strings.Join(vars, "\n") != strings.Join(want, "\n") {
		t.Errorf("variables:\n%s\nwant:\n%s", strings.Join(vars, "\n"), strings.Join(want, "\n"))
	}
	start := lang.BlockString(m.Root.Initial.Body)
	if want := "id = 'setbot-session';"; start != want {
		t.Errorf("start code %q, want %q", start, want)
	}
	a := m.State("a")
	for i, want := range []string{
		"_absent_x == 1 && !(_absent_x == 0)",
		"!(_absent_n == 0) && (!(_absent_x == 1) && !(_absent_x == 2))", // n == null: n has no value; typeof x is 'number' when x has one
	} {
		if got := lang.ExprString(a.Transitions[i].Cond); got != want {
			t.Errorf("guard %d: %s, want %s", i, got, want)
		}
	}
	if got, want := lang.BlockString(a.Transitions[0].Body), "x = 3; _absent_x = 0;"; got != want {
		t.Errorf("action %q, want %q", got, want)
	}
}

// TestEventName: _event.name is the name of the event whose macrostep the
// flattener folds, also in the eventless transitions that follow it.
func TestEventName(t *testing.T) {
	got := flattenText(t, head+`<state id="a"><transition event="go stop" target="b"/></state>
<state id="b"><transition cond="_event.name == 'go'" target="c"/><transition target="d"/></state>
<state id="c"/><state id="d"/></scxml>`)
	for _, want := range []string{"a go [a:go stop>b ; b:>c] c", "a stop [a:go stop>b ; b:>d] d"} {
		if !strings.Contains(got, want) {
			t.Errorf("no transition %q in\n%s", want, got)
		}
	}
	_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(head+`<state id="a"><transition cond="_event.name == 'go'" target="b"/></state><state id="b"/></scxml>`), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
}
