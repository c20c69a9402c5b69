package scxml_test

import (
	"testing"

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
	for _, tt := range []struct {
		event, param string
		want         ast.Kind
	}{
		{"e", "n", ast.Decimal}, {"e", "s", ast.String}, {"e", "b", ast.Bool},
		{"p", ast.DataParam, ast.String}, {"q", "k", ast.Bool},
	} {
		p, ok := m.EventByName(tt.event).Param(tt.param)
		if !ok || p.Type.Kind != tt.want {
			t.Errorf("%s.%s: %v %v, want %v", tt.event, tt.param, p.Type, ok, tt.want)
		}
	}
	if _, ok := m.EventByName("e").Param(ast.DataParam); ok {
		t.Errorf("e has named parameters and the data as a whole")
	}
}
