package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestDataFunctions: a <data> bound to a function expression, by expr or
// as its text, is that function, declared as in a <script>, and no
// variable; so is var f = function ... in a script. Binding the name
// again is refused where it is.
func TestDataFunctions(t *testing.T) {
	doc := head + `<datamodel><data id="x" expr="0"/>
<data id="inc" expr="function (a) { return (a + 1) % 3; }"/>
<data id="top">function(v) {
  return v == 2
}</data></datamodel>
<script>var twice = function (a) { return inc(inc(a)); }</script>
<state id="a"><onentry><script>x = top(x) ? twice(x) : inc(x);</script></onentry></state></scxml>`
	m, code := entryCode(t, doc)
	if want := "x = x == 2 ? ((x + 1) % 3 + 1) % 3 : (x + 1) % 3;"; code != want {
		t.Errorf("entry code %s, want %s", code, want)
	}
	for _, v := range []string{"inc", "top", "twice"} {
		if m.Var(v) != nil {
			t.Errorf("%s is a variable, want a function only", v)
		}
	}
	for _, tt := range []struct{ edit, want string }{
		{`<script>inc = function (a) { return a; }</script>`, "m.scxml:2:11: function inc declared twice (first at m.scxml:7:38)"},
		{`<assign location="top" expr="1"/>`, "undeclared name top"},
		{`<script>o.f = function (a) { return a; }</script>`, "function expression: a function is not a value in setbot"},
	} {
		bad := strings.Replace(doc, "<onentry>", "<onentry>"+tt.edit, 1)
		_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(bad), scxml.Options{})
		if len(errs) == 0 || !strings.Contains(errs.Error(), tt.want) {
			t.Errorf("%s: %v, want %s", tt.edit, errs, tt.want)
		}
	}
}
