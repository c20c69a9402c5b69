package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
)

// TestDateData: a <data> whose value calls the host (new Date(), a Date's
// getter) holds a placeholder of its value's type and is assigned first
// when the machine starts; a Date's getter is an int black box, typeof of
// a Date "object" (here, where it holds a value from the start).
func TestDateData(t *testing.T) {
	doc := head + `<datamodel><data id="d" expr="new Date()"/><data id="y" expr="d.getFullYear()"/>
<data id="now" expr="Date.now()"/><data id="k"/></datamodel>
<state id="a"><onentry><script>k = typeof d; d = new Date(); k = d.getMonth() &lt; now ? 'h1' : 'h2';</script></onentry></state></scxml>`
	m, code := entryCode(t, doc)
	for name, kind := range map[string]ast.Kind{"d": ast.Int, "y": ast.Int, "now": ast.Int} {
		if v := m.Var(name); v == nil || v.Type.Kind != kind || v.Type.MayBeAbsent() {
			t.Errorf("%s: %v, want a variable of kind %v that holds a value from the start", name, v, kind)
		}
	}
	if want := "k = 'object'; _absent_k = 0; d = new Date(); k = d.getMonth() < now ? 'h1' : 'h2'; _absent_k = 0;"; code != want {
		t.Errorf("entry code %s, want %s", code, want)
	}
	start := strings.Join(strings.Fields(printer.BlockString(m.Root.Initial.Body)), " ")
	if want := "d = new Date(); y = d.getFullYear(); now = Date.now();"; !strings.HasPrefix(start, want) {
		t.Errorf("start code %s, want it to begin with %s", start, want)
	}
	var hosts []string
	for _, f := range m.Functions {
		if f.Host && f.Result.Kind == ast.Int {
			hosts = append(hosts, f.Name)
		}
	}
	if got := strings.Join(hosts, " "); got != "Date.now d.getFullYear d.getMonth new Date" {
		t.Errorf("int host functions %s", got)
	}
}
