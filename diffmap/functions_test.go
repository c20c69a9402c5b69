package diffmap_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
)

// withTable loads doc with rise.csv holding table.
func withTable(t *testing.T, doc, table string) *mlm.Machine {
	t.Helper()
	read := func(string) ([]byte, error) { return []byte(table), nil }
	m, err := load.Bytes(context.Background(), "m.scxml", []byte(doc), load.Options{Read: scxml.Options{ReadFile: read}})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestTableChangeUpdatesItsCallers: a change of a black-box function's
// table changes the transitions that call it (their summary is another),
// and only those, though their code is the same.
func TestTableChangeUpdatesItsCallers(t *testing.T) {
	doc := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A">
<setbot:event name="go"><setbot:param name="v" type="int"/></setbot:event>
<setbot:function name="rise" params="int" returns="int" table="rise.csv"/>
<state id="A">
  <transition event="go" cond="rise(_event.data.v) &gt; 1" target="B"/>
  <transition event="stop" target="B"/>
</state>
<state id="B"/>
</scxml>`
	o := withTable(t, doc, "1,1\n")
	n := withTable(t, doc, "1,1\n2,5\n")
	if o.Hash == n.Hash {
		t.Error("the hash does not see the table")
	}
	d := diffmap.Compute(o.Source, n.Source, o, n)
	var updated []string
	for k := range d.Updated {
		updated = append(updated, k)
	}
	if len(updated) != 1 || !strings.Contains(updated[0], "A go") {
		t.Errorf("updated %v, want the transition on go only", updated)
	}
	same := diffmap.Compute(o.Source, o.Source, o, withTable(t, doc, "1,1\n"))
	if len(same.Updated) != 0 || slices.Contains(same.Changed, "") {
		t.Errorf("an unchanged table updates %v", same.Updated)
	}
}

// TestInvokeAndTableEditsAreNamed: every edit of an <invoke> that updates
// flattened transitions, and an edit of a black-box function's table, is a
// change of its own class naming what changed: none is "no change".
func TestInvokeAndTableEditsAreNamed(t *testing.T) {
	doc := `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s0" datamodel="ecmascript">
  <datamodel><data id="n" expr="1"/><data id="got" expr="0"/></datamodel>
  <state id="s0">
    <invoke type="scxml" id="kid">
      <param name="k" expr="n"/>
      <finalize><assign location="got" expr="1"/></finalize>
      <content>
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="c0" datamodel="ecmascript">
          <datamodel><data id="k" expr="0"/></datamodel>
          <state id="c0"><transition event="ping" cond="k == 1" target="c1"><send event="pong" target="#_parent"/></transition></state>
          <final id="c1"/>
        </scxml>
      </content>
    </invoke>
    <transition event="pong" cond="got == 1" target="pass"/>
    <transition event="go"><send event="ping" target="#_kid"/></transition>
  </state>
  <final id="pass"/>
</scxml>`
	load := func(src string) *mlm.Machine {
		t.Helper()
		m, err := load.Bytes(context.Background(), "m.scxml", []byte(src), load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	o := load(doc)
	for _, tc := range []struct{ old, new, want string }{
		{`expr="n"/>`, `expr="n + 1"/>`, "kid: param"},
		{`expr="1"/></finalize>`, `expr="2"/></finalize>`, "kid: finalize"},
		{`id="kid">`, `id="kid" autoforward="true">`, "kid: autoforward"},
		{`<send event="ping" target="#_kid"/>`, `<send event="ping" target="#_kid"/><send event="ping" target="#_kid"/>`, ""},
	} {
		src := strings.Replace(doc, tc.old, tc.new, 1)
		if src == doc {
			t.Fatalf("%q is not in the model", tc.old)
		}
		n := load(src)
		d := diffmap.Compute(o.Source, n.Source, o, n)
		if len(d.Updated) == 0 {
			t.Errorf("%s: no flattened transition updated", tc.want)
		}
		if tc.want == "" {
			// An edit of the parent's own code: the invoke is as it was.
			if slices.ContainsFunc(d.Changes, func(c diffmap.Change) bool { return c.Kind == diffmap.InvokeChanged }) {
				t.Errorf("an edit outside the invoke: changes %+v name it", d.Changes)
			}
			continue
		}
		if !slices.ContainsFunc(d.Changes, func(c diffmap.Change) bool { return c.Kind == diffmap.InvokeChanged && c.Subject == tc.want }) {
			t.Errorf("changes %+v, want invoke_changed %q", d.Changes, tc.want)
		}
	}
	table := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A">
<setbot:event name="go"><setbot:param name="v" type="int"/></setbot:event>
<setbot:function name="rise" params="int" returns="int" table="rise.csv"/>
<state id="A"><transition event="go" cond="rise(_event.data.v) &gt; 1" target="B"/></state>
<state id="B"/>
</scxml>`
	to, tn := withTable(t, table, "1,1\n"), withTable(t, table, "1,1\n2,5\n")
	d := diffmap.Compute(to.Source, tn.Source, to, tn)
	if len(d.Changes) != 1 || d.Changes[0].Kind != diffmap.TableChanged || d.Changes[0].Subject != "rise: rows" || d.Changes[0].New == nil {
		t.Errorf("a table's new row: changes %+v, want table_changed \"rise: rows\" at the function", d.Changes)
	}
}
