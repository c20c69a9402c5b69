package diffmap_test

import (
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
	m, errs := load.Bytes("m.scxml", []byte(doc), load.Options{Read: scxml.Options{ReadFile: read}})
	if len(errs) > 0 {
		t.Fatal(errs)
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
