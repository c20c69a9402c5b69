package report

import (
	"regexp"
	"strings"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine/incremental"
)

func TestSanitize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Idle", "Idle"},
		{"a.b", "a_b"},
		{"x-y", "x_y"},
		{"end", "s_end"},
		{"State", "s_State"},
		{"classDef", "s_classDef"},
		{"1abc", "s_1abc"},
		{"ünï", "_n_"},
		{"ü", "s__"},
		{"a b:c;d", "a_b_c_d"},
		{"", "s_"},
	}
	for _, tc := range tests {
		if got := sanitize(tc.in); got != tc.want {
			t.Errorf("sanitize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// awkward has ids that need sanitising (and collide once sanitised), a
// keyword, a non-ASCII id, a parallel state with a composite region, a
// history state, a final state, guards with < and : and a targetless
// transition.
const awkward = `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a.b">
  <datamodel><data id="n" expr="0"/></datamodel>
  <state id="a.b">
    <transition event="go.on" cond="n &lt; 3" target="a-b"><assign location="n" expr="n + 1"/></transition>
    <transition event="tick"><assign location="n" expr="0"/></transition>
  </state>
  <state id="a-b">
    <transition event="next" target="end"/>
    <transition event="par" target="a_b"/>
  </state>
  <parallel id="a_b">
    <history id="h" type="deep"><transition target="x.1 ü"/></history>
    <transition event="out" cond="In('x.2')" target="state"/>
    <state id="r-1" initial="c">
      <state id="c" initial="x.1">
        <state id="x.1"><transition event="t" target="x.2"/></state>
        <state id="x.2"/>
      </state>
    </state>
    <state id="r-2"><state id="ü"><transition event="u" target="c"/></state></state>
  </parallel>
  <state id="state"><transition event="back" target="h"/></state>
  <final id="end"/>
</scxml>`

func awkwardModel(t *testing.T) *Model {
	head := loadBytes(t, "awkward.scxml", []byte(awkward))
	return &Model{Path: "awkward.scxml", Status: Modified, HeadMachine: head, Result: &incremental.Result{
		Changes: []diffmap.Change{
			{Kind: diffmap.GuardChanged, Subject: head.Source.State("a.b").Transitions[0].ID},
			{Kind: diffmap.StateAdded, Subject: "state"},
		},
		NewlyUnreachable: []incremental.StateRef{{State: "x.2", Line: 16}},
	}}
}

func TestDiagram(t *testing.T) {
	r, ok := diagram(awkwardModel(t), MaxDiagramEdges)
	if !ok {
		t.Fatal("no diagram")
	}
	src := r.Source
	for _, want := range []string{
		"stateDiagram-v2\n",
		"[*] --> a_b\n",                              // the initial state "a.b"
		"state \"a.b\" as a_b\n",                     // its name kept as the label
		"state \"a-b\" as a_b_2\n",                   // collides once sanitised
		"state \"a_b\" as a_b_3 {\n",                 // the parallel state
		"    state \"H*\" as h\n",                    // deep history inside it
		"    state \"r-1\" as r_1 {\n",               // a region
		"    --\n",                                   // between the regions
		"state \"ü\" as s__\n",                       // non-ASCII
		"state \"state\" as s_state\n",               // a keyword
		"state \"⚠ x.2\" as x_2\n",                   // newly unreachable
		"a_b --> a_b_2 : ⚠ go.on [n #lt; 3]\n",       // changed, escaped
		"a_b --> a_b : tick\n",                       // targetless: a self-loop
		"a_b_3 --> s_state : out [In('x.2')]\n",      // from the parallel state
		"end --> [*]\n",                              // final
		"class s_state changed\n",                    // an added state
		"class x_2 unreachable\n",                    // its class
		"a_b_2 --> a_b_3 : par\n",                    // into the parallel state
		"s_state --> h : back\n",                     // into the history state
		"s__ --> x_1 : u\n",                          // the composite "c" in a region: its initial child
		"      [*] --> x_1\n",                        // the initial state of "c"
		"classDef unreachable fill:#fee2e2,stroke:#", // the class is defined
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the diagram lacks %q:\n%s", want, src)
		}
	}
	// Every identifier used in an edge is a plain word.
	edge := regexp.MustCompile(`^\s*(\S+) --> (\S+)`)
	word := regexp.MustCompile(`^(\[\*\]|[A-Za-z_][A-Za-z0-9_]*)$`)
	for _, line := range strings.Split(src, "\n") {
		if m := edge.FindStringSubmatch(line); m != nil {
			for _, id := range m[1:] {
				if !word.MatchString(id) {
					t.Errorf("identifier %q in %q", id, line)
				}
			}
		}
	}
	if o, c := strings.Count(src, "{\n"), strings.Count(src, "}\n"); o != c {
		t.Errorf("%d blocks opened, %d closed:\n%s", o, c, src)
	}
}

func TestDiagramCaps(t *testing.T) {
	m := awkwardModel(t)
	r, _ := diagram(m, 3)
	if r.Edges != 3 || r.Omitted == 0 {
		t.Errorf("%d edges drawn, %d left out; want 3 and the rest", r.Edges, r.Omitted)
	}
	if !strings.Contains(r.Source, "⚠ go.on") {
		t.Error("the cap dropped the changed transition")
	}
	if !strings.Contains(r.Source, "x_1 --> x_2 : t") {
		t.Error("the cap dropped the transition into the unreachable state before unmarked ones")
	}

	big := &Model{Path: "big.scxml", HeadMachine: loadBytes(t, "big.scxml", genSCXML(30, 8, false))}
	if _, ok := diagram(big, MaxDiagramEdges); ok {
		t.Errorf("a model with more than %d states was drawn", MaxDiagramStates)
	}
	if _, ok := diagram(&Model{Path: "gone.scxml", Status: Deleted}, MaxDiagramEdges); ok {
		t.Error("a model without a head machine was drawn")
	}
}
