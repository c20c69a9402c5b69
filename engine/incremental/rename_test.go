package incremental_test

import (
	"os"
	"strings"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
)

// TestRenameReused: renaming states (siblings that target one another, a
// compound state with a final child and a deep history, In() and
// done.state naming them) is only state_renamed changes; every base test
// is retained, MSE copies the whole base tree but its root (one worker or
// several), and its tree and tests are full SE's.
func TestRenameReused(t *testing.T) {
	triangle, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	lgs, err := os.ReadFile("../../testdata/bench/lgs.scxml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		src     string
		edits   []string // old, new, ...: every occurrence, at once
		depth   int
		renamed int // states
		jobs    int // engine.Options.Jobs
	}{
		{"the four children of the triangle's S1", string(triangle),
			[]string{`"S1_S0"`, `"Positive"`, `"S1_S1"`, `"Triangle"`, `"S1_S2"`, `"Kind"`, `"S1_S3"`, `"Done"`}, 6, 4, 0},
		{"a compound state, its child, In() and done.state", `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="A">
<datamodel><data id="x" expr="0"/></datamodel>
<state id="A"><transition event="go" cond="x &lt; 3" target="B"><assign location="x" expr="x + 1"/></transition></state>
<state id="B" initial="B1">
  <history id="h" type="deep"><transition target="B1"/></history>
  <state id="B1"><transition event="next" target="B2"/></state>
  <final id="B2"/>
  <transition event="done.state.B" target="A"/>
  <transition event="back" cond="In('B1')" target="A"/>
  <transition event="again" target="h"/>
</state>
</scxml>`, []string{`"B"`, `"Bee"`, `done.state.B"`, `done.state.Bee"`, "B1", "First"}, 5, 2, 0},
		{"LGS: Departing", string(lgs), []string{`"Departing"`, `"DepartingRenamed"`}, 10, 1, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			head := strings.NewReplacer(tc.edits...).Replace(tc.src)
			base, hm := loadBytes(t, "base.scxml", []byte(tc.src)), loadBytes(t, "head.scxml", []byte(head))
			res, same := sameAsFull(t, tc.name, base, hm, engine.Options{MaxDepth: tc.depth, Jobs: tc.jobs})
			if !same {
				return
			}
			for _, c := range res.Changes {
				if c.Kind != diffmap.StateRenamed {
					t.Errorf("change %s %s, want only renames", c.Kind, c.Subject)
				}
			}
			if len(res.Changes) != tc.renamed || len(res.Impact.Changed) != 0 {
				t.Errorf("%d changes, %d transitions updated", len(res.Changes), len(res.Impact.Changed))
			}
			if res.Tests.Retained != len(res.BaseTests) || res.Tests.Retained == 0 || res.Tests.New != 0 {
				t.Errorf("tests %+v of %d: want all retained", res.Tests, len(res.BaseTests))
			}
			if res.ReusedStates != res.Head.States-1 {
				t.Errorf("MSE reused %d of %d states, want all but the root", res.ReusedStates, res.Head.States)
			}
		})
	}
}

// TestRenameWithChange: a rename and a real change in one version (three
// of the triangle's children renamed, T2, which enters one of them, sending
// one more output). The change is what it is without the rename: T2
// updated, nothing impacted, the tests through T2 with a changed oracle and
// the others retained; MSE's tree and tests are full SE's. (A state renamed
// and changed itself is no rename: it is removed and added.)
func TestRenameWithChange(t *testing.T) {
	src, err := os.ReadFile("testdata/triangle_t2_action.scxml")
	if err != nil {
		t.Fatal(err)
	}
	head := strings.NewReplacer(`"S1_S1"`, `"Triangle"`, `"S1_S2"`, `"Kind"`, `"S1_S3"`, `"Done"`).Replace(string(src))
	base, hm := loadFile(t, "../../examples/triangle.scxml"), loadBytes(t, "head.scxml", []byte(head))
	res, same := sameAsFull(t, "renamed and T2 changed", base, hm, engine.Options{})
	if !same {
		return
	}
	var kinds []string
	for _, c := range res.Changes {
		kinds = append(kinds, string(c.Kind))
	}
	if got := strings.Join(kinds, " "); got != "action_changed state_renamed state_renamed state_renamed" {
		t.Errorf("changes %s", got)
	}
	const t2 = "S1_S0 checkPositiveSides [S1_S0:checkPositiveSides>Triangle] Triangle"
	if len(res.Impact.Changed) != 1 || res.Impact.Changed[0] != t2 || len(res.Impact.Impacted) != 0 {
		t.Errorf("impact %+v, want T2 updated and nothing impacted", res.Impact)
	}
	if res.Tests != (incremental.Counts{Retained: 4, Changed: 10}) {
		t.Errorf("tests %+v, want 4 retained (paths avoiding T2) and 10 with a changed oracle", res.Tests)
	}
	if res.ReusedStates == 0 {
		t.Error("MSE copied nothing")
	}
}
