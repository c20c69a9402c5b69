package report

import (
	"maps"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/model"
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
	return withResult(&Model{Path: "awkward.scxml", Status: Modified, HeadMachine: head}, &incremental.Result{
		Changes: []diffmap.Change{
			{Kind: diffmap.GuardChanged, Subject: head.Source.State("a.b").Transitions[0].ID},
			{Kind: diffmap.StateAdded, Subject: "state"},
		},
		NewlyUnreachable: []incremental.StateRef{{State: "x.2", Line: 16}},
	})
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
		"s__ --> c : u\n",                            // into the composite "c" in a region, as declared
		"class a_b_3 parallel\n",                     // the parallel state's dashed border
		"classDef parallel stroke-dasharray",         // its class is defined
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
	if regexp.MustCompile(`(?m)^\s*--$`).MatchString(src) {
		t.Errorf("the diagram has a region separator, which breaks arrows at composite states in regions:\n%s", src)
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

// TestDiagramEdgesFromSource checks the arrows of the ACCS benchmark, whose
// group transitions are defined on composite states inside a parallel
// region: each starts at the state that defines it and ends at the state
// it names.
func TestDiagramEdgesFromSource(t *testing.T) {
	head := loadMachine(t, "../testdata/bench/accs.scxml")
	r, ok := diagram(&Model{Path: "accs.scxml", HeadMachine: head}, MaxDiagramEdges)
	if !ok {
		t.Fatal("no diagram")
	}
	edges := diagramEdges(r.Source)
	for _, want := range []string{
		"Engaged --> Override : accelPedal", // defined on Engaged, not its initial SpeedControl
		"Engaged --> Standby : brake",
		"On --> Unavailable : radarBlocked", // defined on On, not its initial Standby
		"Standby --> Engaged : set",         // to Engaged as declared, not SpeedControl
		"Unavailable --> Restore : radarReady",
		"Tracking --> NoTarget : radarBlocked",
		"Close --> NoTarget : radarBlocked",
	} {
		if edges[want] != 1 {
			t.Errorf("the diagram has %d arrows %q, want 1:\n%s", edges[want], want, r.Source)
		}
	}
	for _, wrong := range []string{
		"SpeedControl --> Override : accelPedal",
		"SpeedControl --> Standby : brake",
		"Standby --> Unavailable : radarBlocked",
		"Standby --> SpeedControl : set",
	} {
		if edges[wrong] > 0 {
			t.Errorf("the diagram draws %q:\n%s", wrong, r.Source)
		}
	}
}

// TestDiagramEdgesAllModels compares the arrows drawn for every bundled and
// benchmark model with the transitions of its statechart: one arrow per
// transition and target, from its source to the target as declared.
func TestDiagramEdgesAllModels(t *testing.T) {
	paths, _ := filepath.Glob("../examples/*.scxml")
	bench, _ := filepath.Glob("../testdata/bench/*.scxml")
	for _, p := range append(paths, bench...) {
		head := loadMachine(t, p)
		r, ok := diagram(&Model{Path: p, HeadMachine: head}, len(head.Source.States())*len(head.Source.States()))
		if !ok {
			t.Errorf("%s: no diagram", p)
			continue
		}
		ids := newMermaidIDs()
		for _, s := range head.Source.States()[1:] {
			ids.add(s)
		}
		want := make(map[string]int)
		for _, s := range head.Source.States() {
			for _, tr := range s.Transitions {
				targets := tr.Targets
				if len(targets) == 0 {
					targets = []*model.State{s}
				}
				for _, to := range targets {
					want[ids.of[tr.Source]+" --> "+ids.of[to]]++
				}
			}
		}
		got := make(map[string]int)
		for e, n := range diagramEdges(r.Source) {
			ends, _, _ := strings.Cut(e, " : ")
			if !strings.Contains(ends, "[*]") {
				got[ends] += n
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: arrows %v, want %v", p, got, want)
		}
	}
}

// diagramEdges counts the arrows of a Mermaid source, each as
// "from --> to : label" (or "from --> to").
func diagramEdges(src string) map[string]int {
	edges := make(map[string]int)
	for _, line := range strings.Split(src, "\n") {
		if line = strings.TrimSpace(line); strings.Contains(line, " --> ") {
			edges[line]++
		}
	}
	return edges
}
