package diffmap_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/diffmap"
)

// ring is four sibling states whose transitions target one another.
const ring = `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="S1">
<datamodel><data id="x" expr="0"/></datamodel>
<state id="S1">
  <transition event="go" cond="x &lt; 3" target="S2"><assign location="x" expr="x + 1"/></transition>
</state>
<state id="S2">
  <transition event="go" target="S3"/>
  <transition event="back" target="S1"/>
</state>
<state id="S3"><transition event="go" target="S4"/></state>
<state id="S4"><transition event="go" cond="In('S3') || x &gt; 1" target="S1"/></state>
</scxml>`

// withHistory is base with a deep history in B that C resumes while B1
// is active.
var withHistory = strings.NewReplacer(`<state id="C"/>`, `<state id="C"><transition event="b" cond="In('B1')" target="h"/></state>`,
	`<final id="B2"/>`, `<final id="B2"/><history id="h" type="deep"><transition target="B1"/></history>`).Replace(base)

// TestRenames: a rename is one state_renamed change and updates no
// flattened transition, however the renamed states name one another
// (siblings, a parent and its children, In(), done.state, a history's
// default); what is not a pure rename is not reported as one.
func TestRenames(t *testing.T) {
	tests := []struct {
		name, model string
		edits       []string // old, new, ...: every occurrence, at once
		want        string
		pure        bool // nothing updated, every transition has its counterpart
	}{
		{"four siblings that target one another", ring,
			[]string{`"S1"`, `"T1"`, `"S2"`, `"T2"`, `"S3"`, `"T3"`, `"S4"`, `"T4"`, `('S3')`, `('T3')`},
			"state_renamed S1>T1 @3; state_renamed S2>T2 @6; state_renamed S3>T3 @10; state_renamed S4>T4 @11", true},
		{"a parent and its child, through In(), done.state and a history", withHistory,
			[]string{`"B"`, `"Bee"`, `done.state.B"`, `done.state.Bee"`, "B1", "First"},
			"state_renamed B1>First @8; state_renamed B>Bee @7", true},
		{"a rename that also changes the state is none", ring,
			[]string{`"S1"`, `"T1"`, `"S2"`, `"T2"`, `"S3"`, `"T3"`, `"S4"`, `"T4"`, `('S3')`, `('T3')`,
				`<transition event="back"`, `<transition event="back" cond="x &gt; 0"`},
			"initial_changed scxml @1; state_added T1 @3; state_added T2 @6; state_added T3 @10; state_added T4 @11; " +
				"state_removed S1; state_removed S2; state_removed S3; state_removed S4", false},
		{"two states renamed into each other are other states", ring,
			[]string{`"S3"`, `"S4"`, `"S4"`, `"S3"`, `('S3')`, `('S4')`},
			"guard_changed S3:go>S1 @11; guard_changed S4:go>S3 @10; " +
				"transition_retargeted S2:go>S4 @7; transition_retargeted S3:go>S1 @11; transition_retargeted S4:go>S3 @10", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			to := strings.NewReplacer(tc.edits...).Replace(tc.model)
			o, n := machine(t, tc.model), machine(t, to)
			d := diffmap.Compute(o.Source, n.Source, o, n)
			if got := changes(d); got != tc.want {
				t.Errorf("changes\n  %s\nwant\n  %s", got, tc.want)
			}
			if !tc.pure {
				if len(d.Updated) == 0 {
					t.Error("nothing updated")
				}
				return
			}
			if len(d.Updated) != 0 || d.RootUpdated {
				t.Errorf("updated %v, root %v: want nothing", d.Updated, d.RootUpdated)
			}
			keys := make(map[string]bool)
			for _, tr := range n.Transitions {
				keys[tr.Key] = true
			}
			for _, tr := range o.Transitions {
				if !keys[d.Key(tr.Key)] {
					t.Errorf("%s has no counterpart (%s)", tr.Key, d.Key(tr.Key))
				}
			}
			if len(d.Keys) == 0 || len(d.Keys) == len(o.Transitions) && tc.model != ring {
				t.Errorf("%d of %d transitions re-keyed", len(d.Keys), len(o.Transitions))
			}
		})
	}
}
