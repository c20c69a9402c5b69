package modelgen

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestRoundTrip checks that a document parsed and written back without
// edits is byte-identical.
func TestRoundTrip(t *testing.T) {
	docs := map[string][]byte{
		"prefixed": []byte(`<?xml version="1.0"?>
<!-- a comment -->
<sc:scxml xmlns:sc="http://www.w3.org/2005/07/scxml" xmlns:s='https://setbot.dev/scxml' initial="a">
  <s:event name="go"><s:param name="x" type="int"/></s:event>
  <sc:state id="a"><sc:transition event="go" cond="_event.data.x &gt; 1 &amp;&amp; true" target="a"/></sc:state>
  <sc:script><![CDATA[ var k = 1 < 2; ]]></sc:script>
</sc:scxml>
`),
	}
	files, _ := filepath.Glob("../../testdata/bench/*.scxml")
	more, _ := filepath.Glob("../../examples/*.scxml")
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = src
	}
	for seed := int64(1); seed <= 20; seed++ {
		docs[fmt.Sprint("generated ", seed)] = Generate(seed, Options{Parallel: true, History: true, Internal: true, Timers: true})
	}
	for name, src := range docs {
		d, err := parseDocument(src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := string(d.bytes()); got != string(src) {
			t.Errorf("%s: written back differently:\n%s", name, got)
		}
	}
}

// TestEdits checks insertion, removal and the namespaces of new elements.
func TestEdits(t *testing.T) {
	src := `<sc:scxml xmlns:sc="http://www.w3.org/2005/07/scxml">
  <sc:state id="a"/>
  <sc:state id="b">
    <sc:transition event="go" target="a"/>
  </sc:state>
</sc:scxml>
`
	c := newChart([]byte(src))
	if c == nil || len(c.states) != 2 || len(c.trans) != 1 || c.trans[0].id != "b:go>a" {
		t.Fatalf("chart: %+v", c)
	}
	a, b := c.byID["a"], c.byID["b"]
	a.appendChild(newChild(a, "transition", "event", "x", "target", "b"))
	c.trans[0].el.remove()
	b.appendChild(newChild(b, "onentry"))
	want := `<sc:scxml xmlns:sc="http://www.w3.org/2005/07/scxml">
  <sc:state id="a">
    <sc:transition event="x" target="b"/>
  </sc:state>
  <sc:state id="b">
    <sc:onentry/>
  </sc:state>
</sc:scxml>
`
	if got := string(c.doc.bytes()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !b.elems()[0].is("onentry") {
		t.Error("a new element is not in the SCXML namespace")
	}
}
