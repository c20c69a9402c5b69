package diffmap_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
)

func machine(t *testing.T, doc string) *mlm.Machine {
	t.Helper()
	mach, err := load.Bytes(context.Background(), "m.scxml", []byte(doc), load.Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return mach
}

const base = `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="A">
<datamodel><data id="x" expr="0"/></datamodel>
<state id="A">
  <transition event="go" cond="x &lt; 3" target="B"><assign location="x" expr="x + 1"/></transition>
  <transition event="stop" target="C"/>
</state>
<state id="B" initial="B1">
  <state id="B1"><transition event="next" target="B2"/></state>
  <final id="B2"/>
  <transition event="done.state.B" target="A"/>
  <transition event="back" cond="In('B1')" target="A"/>
</state>
<state id="C"/>
</scxml>`

func changes(d *diffmap.Diff) string {
	var parts []string
	for _, c := range d.Changes {
		s := fmt.Sprintf("%s %s", c.Kind, c.Subject)
		if c.New != nil {
			s += fmt.Sprintf(" @%d", c.New.Line)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

func TestClassification(t *testing.T) {
	tests := []struct {
		name, from, to, want string
		updated              int
	}{
		{"reordered and reformatted", "<state id=\"A\">\n  <transition event=\"go\" cond=\"x &lt; 3\" target=\"B\"><assign location=\"x\" expr=\"x + 1\"/></transition>\n  <transition event=\"stop\" target=\"C\"/>",
			"<state id=\"A\"><transition   target=\"C\" event=\"stop\" /><!-- moved -->\n  <transition cond=\"x&lt;3\" event=\"go\" target=\"B\"><assign expr=\"x+1\" location=\"x\"/></transition>", "", 0},
		{"rename seen through In() and done.state", "B1", "First", "state_renamed B1>First @8", 0},
		{"retarget", `<transition event="stop" target="C"/>`, `<transition event="stop" target="B"/>`,
			"transition_retargeted A:stop>B @5", 2},
		{"trigger", `<transition event="stop" target="C"/>`, `<transition event="halt" target="C"/>`,
			"trigger_changed A:halt>C @5", 2},
		{"guard", `cond="x &lt; 3"`, `cond="x &lt; 4"`, "guard_changed A:go>B @4", 2},
		{"initial value", `expr="0"`, `expr="1"`, "initial_value_changed x @2", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			to := strings.ReplaceAll(base, tc.from, tc.to)
			if to == base {
				t.Fatal("the test's replacement did not apply")
			}
			o, n := machine(t, base), machine(t, to)
			d := diffmap.Compute(o.Source, n.Source, o, n)
			if got := changes(d); got != tc.want {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
			if tc.name == "initial value" && !d.RootUpdated {
				t.Error("an initial value change does not update the root")
			}
			if tc.updated > 0 && len(d.Updated) == 0 {
				t.Error("no MLM transition updated")
			}
			if tc.updated == 0 && tc.name != "initial value" && len(d.Updated) != 0 {
				t.Errorf("updated %v, want none", d.Updated)
			}
		})
	}
}

// TestFailingCondChanged: two conds that read a name bound nowhere after
// && are both false, and raise error.execution on different values: the
// guard changed.
func TestFailingCondChanged(t *testing.T) {
	from := strings.ReplaceAll(base, `cond="x &lt; 3"`, `cond="x &lt; 3 &amp;&amp; ghost"`)
	to := strings.ReplaceAll(base, `cond="x &lt; 3"`, `cond="x &lt; 4 &amp;&amp; ghost"`)
	o, n := machine(t, from), machine(t, to)
	d := diffmap.Compute(o.Source, n.Source, o, n)
	if got := changes(d); got != "guard_changed A:go>B @4" || len(d.Updated) == 0 {
		t.Errorf("changes %q, updated %v; want the guard changed and its flattened transitions updated", got, d.Updated)
	}
}
