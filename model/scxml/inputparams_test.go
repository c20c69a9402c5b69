package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestInputParamKinds: an input event's parameters take the kind their
// uses tell; the data as a whole only where the event has no named
// parameter, and only from a use that tells a kind.
func TestInputParamKinds(t *testing.T) {
	doc := head + `<state id="a">
<transition event="e" cond="_event.data.n &gt;= 1.5 || _event.data.n == 2"/>
<transition event="e" cond="_event.data &amp;&amp; _event.data.s.length &gt; 0 &amp;&amp; !_event.data.b"/>
<transition event="p" cond="parseInt(_event.data) == 3"/>
<transition event="q" cond="_event.data.k == true"/>
</state></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantParams(t, m, []paramKind{
		{"e", "n", ast.Decimal}, {"e", "s", ast.String}, {"e", "b", ast.Bool},
		{"p", ast.DataParam, ast.String}, {"q", "k", ast.Bool},
	})
	if _, ok := m.EventByName("e").Param(ast.DataParam); ok {
		t.Errorf("e has named parameters and the data as a whole")
	}
}

// TestInputParamForwarded: an input's data that the model only passes on
// (a <content>, a <param>, SCXML.send's data) is a string, with a warning
// at the first place that passes it on; any use that tells a kind wins,
// and a <setbot:param> is kept as declared, without a warning.
func TestInputParamForwarded(t *testing.T) {
	doc := head + `<setbot:event name="d"><setbot:param name="_data" type="int"/></setbot:event><state id="a">
<transition event="a"><send event="out" target="#_parent"><content expr="_event.data"/></send></transition>
<transition event="b"><send event="out2" target="#_parent"><param name="p" expr="_event.data.x"/><param name="q" expr="_event.data.n"/></send></transition>
<transition event="b" cond="_event.data.n &gt; 2"/>
<transition event="c"><script>var v = _event.data; SCXML.send({name: 'out3', target: '#_parent', data: v})</script></transition>
<transition event="d"><send event="out4" target="#_parent"><content expr="_event.data"/></send></transition>
</state></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantParams(t, m, []paramKind{
		{"a", ast.DataParam, ast.String}, {"b", "x", ast.String}, {"b", "n", ast.Int},
		{"c", ast.DataParam, ast.String}, {"d", ast.DataParam, ast.Int},
	})
	var got []string
	for _, w := range m.Warnings {
		got = append(got, w.Error())
	}
	want := []string{
		`m.scxml:2:74: setbot takes the data of event "a" to be a string, as the model only passes it on: to have the environment send another kind, declare it in <setbot:event name="a"> with <setbot:param name="_data" type="..."/>`,
		`m.scxml:3:82: setbot takes _event.data.x of event "b" to be a string, as the model only passes it on: to have the environment send another kind, declare it in <setbot:event name="b"> with <setbot:param name="x" type="..."/>`,
		`m.scxml:5:?: setbot takes the data of event "c" to be a string`,
	}
	if len(got) != len(want) {
		t.Fatalf("warnings %q\nwant %q", got, want)
	}
	for i := range want {
		if pre, post, _ := strings.Cut(want[i], "?"); !strings.HasPrefix(got[i], pre) || !strings.Contains(got[i], post) {
			t.Errorf("warning %q\nwant %q", got[i], want[i])
		}
	}
}

// TestInputParamForwardedAndAssigned: data the model passes on and also
// assigns to a global declared without a value takes the kind the global
// gets, with no warning that it is only passed on; where the global gets
// none, it is a string, with that warning.
func TestInputParamForwardedAndAssigned(t *testing.T) {
	doc := head + `<datamodel><data id="u"/><data id="w"/></datamodel><state id="a">
<onentry><assign location="u" expr="5"/></onentry>
<transition event="upd"><assign location="u" expr="_event.data"/><send event="out" target="#_parent"><content expr="_event.data"/></send></transition>
<transition event="fwd"><assign location="w" expr="_event.data"/><send event="out2" target="#_parent"><content expr="_event.data"/></send></transition>
<transition event="go" cond="u === 7"/>
</state></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantParams(t, m, []paramKind{{"fwd", ast.DataParam, ast.String}, {"upd", ast.DataParam, ast.Int}})
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].Error(), `the data of event "fwd" to be a string, as the model only passes it on`) {
		t.Errorf("warnings %q, want one, that fwd's data is taken to be a string", m.Warnings)
	}
}

// TestInputParamAssigned: an input's data assigned to a global whose
// <data> value gives it a kind, as a whole, a field or through a local
// that holds it, is of that kind; with a decimal use besides an int
// global's, a decimal; assigned to a global declared without a value,
// the kind the code's other assignments give it. A local, or a global
// that nothing gives a kind, tells nothing.
func TestInputParamAssigned(t *testing.T) {
	doc := head + `<datamodel><data id="n" expr="1000"/><data id="s" expr="'a'"/><data id="u"/></datamodel><state id="a">
<onentry><assign location="u" expr="true"/></onentry>
<transition event="e"><assign location="u" expr="_event.data.on"/></transition>
<transition event="a"><assign location="n" expr="_event.data"/></transition>
<transition event="b"><script>var v = _event.data.who; s = v</script></transition>
<transition event="c"><assign location="n" expr="_event.data.k"/></transition>
<transition event="c" cond="_event.data.k &lt; 2.5"/>
</state></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	wantParams(t, m, []paramKind{
		{"a", ast.DataParam, ast.Int}, {"b", "who", ast.String}, {"c", "k", ast.Decimal}, {"e", "on", ast.Bool},
	})
	doc = head + `<datamodel><data id="u"/></datamodel><state id="a">
<transition event="d"><script>var n = 0; n = _event.data.k; u = _event.data.j</script></transition>
</state></scxml>`
	_, errs = scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "parameter k is not declared") || !strings.Contains(errs[1].Error(), "parameter j is not declared") {
		t.Errorf("errors %v, want k and j undeclared", errs)
	}
}

// paramKind is the kind a parameter of an event should have.
type paramKind struct {
	event, param string
	want         ast.Kind
}

// wantParams checks that each parameter of want is one of m's, of the
// kind want says.
func wantParams(t *testing.T, m *model.Model, want []paramKind) {
	t.Helper()
	for _, tt := range want {
		p, ok := m.EventByName(tt.event).Param(tt.param)
		if !ok || p.Type.Kind != tt.want {
			t.Errorf("%s.%s: %v %v, want %v", tt.event, tt.param, p.Type, ok, tt.want)
		}
	}
}
