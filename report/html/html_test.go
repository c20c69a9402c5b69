package html

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/internal/demo"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/pipeline"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

var demoOnce struct {
	sync.Once
	analyses []*report.Analysis
	err      error
}

// demoAnalyses are the analyses `setbot demo` shows: each commit of the
// demo repository against its parent, the last one the triangle change
// that makes S1_S2 unreachable.
func demoAnalyses(t testing.TB) []*report.Analysis {
	t.Helper()
	demoOnce.Do(func() {
		dir := filepath.Join(t.TempDir(), "repo")
		commits, err := demo.Build(dir)
		if err != nil {
			demoOnce.err = err
			return
		}
		repo, err := vcs.Open(dir)
		if err != nil {
			demoOnce.err = err
			return
		}
		defer repo.Close()
		for i := 1; i < len(commits); i++ {
			a, err := pipeline.Analyze(context.Background(), repo, commits[i-1].SHA, commits[i].SHA, pipeline.Options{Solver: newZ3})
			if err != nil {
				demoOnce.err = err
				return
			}
			demoOnce.analyses = append(demoOnce.analyses, a)
		}
	})
	if demoOnce.err != nil {
		t.Fatal(demoOnce.err)
	}
	return demoOnce.analyses
}

func render(t testing.TB, a *report.Analysis, o Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(context.Background(), &b, a, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// pageData reads back the JSON the page's script reads.
func readData(t *testing.T, page string) pageData {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script id="data" type="application/json">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page has no data")
	}
	var d pageData
	if err := json.Unmarshal([]byte(m[1]), &d); err != nil {
		t.Fatalf("the page's data: %v", err)
	}
	return d
}

// element returns the opening tag of the SVG element with the given id.
func element(t *testing.T, page, id string) string {
	t.Helper()
	page = strings.ReplaceAll(page, "&#45;", "-") // as dot writes "-"
	m := regexp.MustCompile(`<g id="` + regexp.QuoteMeta(id) + `" class="[^"]*"`).FindString(page)
	if m == "" {
		t.Fatalf("no element %s in the page", id)
	}
	return m
}

// TestTrianglePage checks the page of the demo's last change in both
// layouts: S1_S2 drawn as newly unreachable, the changed transition
// marked, and the unreachable state's witness (the base's test that
// entered it) replayed at head, where it ends elsewhere.
func TestTrianglePage(t *testing.T) {
	a := demoAnalyses(t)[2]
	for _, layout := range []Layout{LayoutBoxes, LayoutDot} {
		t.Run(string(layout), func(t *testing.T) {
			o := Options{Layout: layout}
			if layout == LayoutDot && dotPath() == "" {
				t.Skip("Graphviz's dot is not installed")
			}
			page := render(t, a, o)
			for _, bad := range []string{"<script src", "<link ", "@import", "url(http"} {
				if strings.Contains(page, bad) {
					t.Errorf("the page loads something (%q): it must be self-contained", bad)
				}
			}
			d := readData(t, page)
			m := d.Models[0]
			if c := element(t, page, m.StateEl["S1_S2"]); !strings.Contains(c, "unreachable") {
				t.Errorf("S1_S2 is drawn as %s, want class unreachable", c)
			}
			if c := element(t, page, m.StateEl["S1_S3"]); strings.Contains(c, "unreachable") {
				t.Errorf("S1_S3 is drawn as %s, want it reachable", c)
			}
			changed := m.TransEl["S1_S1:checkIsTriangle>S1_S2"]
			if len(changed) != 1 || !strings.Contains(element(t, page, changed[0]), "changed") {
				t.Errorf("the changed transition is %v, want one element of class changed", changed)
			}
			if !strings.Contains(page, "layout: "+map[Layout]string{LayoutBoxes: "setbot&#39;s nested boxes", LayoutDot: "Graphviz dot"}[layout]) {
				t.Errorf("the page does not say which layout drew it")
			}
			w := witness(t, m, "unreachable")
			last := w.Frames[len(w.Frames)-1]
			if !slices.Contains(last.Expected, "S1_S2") || slices.Contains(last.Active, "S1_S2") {
				t.Errorf("the witness's last frame: active %v, expected %v; want S1_S2 expected and not active", last.Active, last.Expected)
			}
			if len(w.Frames) < 2 || w.Frames[1].Vars["a"] == "" || len(w.Frames[1].Fired) == 0 {
				t.Errorf("the witness's first step has no variables or fired transitions: %+v", w.Frames)
			}
		})
	}
}

func witness(t *testing.T, m modelData, kind string) play {
	t.Helper()
	for _, p := range m.Plays {
		if p.Kind == kind {
			return p
		}
	}
	t.Fatalf("no %s witness among %d plays", kind, len(m.Plays))
	return play{}
}

func dotPath() string {
	p, _ := lookDot()
	return p
}

// TestHeatAndTests checks that every test of the delta is listed and
// playable and that the coverage levels are in 1..5 with the most covered
// state at 5.
func TestHeatAndTests(t *testing.T) {
	a := demoAnalyses(t)[1] // new behaviour: new tests
	page := render(t, a, Options{Layout: LayoutBoxes})
	m := readData(t, page).Models[0]
	ca := a.Models[0].ChangeAnalysis
	n := len(ca.TestDelta.New) + len(ca.TestDelta.Changed) + len(ca.TestDelta.Obsolete) + len(ca.TestDelta.Retained)
	if got := strings.Count(page, `class="play" data-play=`); got != n {
		t.Errorf("%d playable tests and witnesses, want the %d tests", got, n)
	}
	top := 0
	for el, h := range m.Heat {
		if h < 1 || h > 5 {
			t.Errorf("heat of %s is %d, want 1..5", el, h)
		}
		top = max(top, h)
	}
	if top != 5 {
		t.Errorf("the most covered element has heat %d, want 5", top)
	}
}

// TestBoxesNest checks the fallback layout: every child box lies inside
// its parent's, and the regions of a parallel state side by side.
func TestBoxesNest(t *testing.T) {
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="P">
  <parallel id="P">
    <state id="R1"><state id="A"><transition event="e" target="B"/></state><state id="B"/></state>
    <state id="R2"><state id="C"><transition event="f" target="D"/></state><final id="D"/></state>
  </parallel>
</scxml>`
	m, err := load.Bytes(context.Background(), "p.scxml", []byte(src), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	root := boxLayout(m.Source.Root)
	var check func(b *box)
	check = func(b *box) {
		for _, k := range b.kids {
			if !inside(k, b) {
				t.Errorf("%s (%v,%v %vx%v) is not inside %s (%v,%v %vx%v)", k.s.ID, k.x, k.y, k.w, k.h, b.s.ID, b.x, b.y, b.w, b.h)
			}
			check(k)
		}
	}
	check(root)
	p := root.kids[0]
	if r1, r2 := p.kids[0], p.kids[1]; r1.y != r2.y || r2.x < r1.x+r1.w {
		t.Errorf("the regions are not side by side: %v,%v and %v,%v", r1.x, r1.y, r2.x, r2.y)
	}
	g := newGraph(m.Source, marks{}, "m0-")
	svg := boxSVG(g)
	for _, id := range []string{"P", "R1", "A", "D"} {
		if !strings.Contains(svg, fmt.Sprintf(`id="%s"`, g.stateEl[id])) {
			t.Errorf("state %s is not drawn", id)
		}
	}
}

// TestOrigins checks the statechart transitions read from flattened keys.
func TestOrigins(t *testing.T) {
	got := origins("S1_S2 reset [S1:reset>S0+x ; y] S0")
	if want := []string{"S1:reset>S0", "x", "y"}; !slices.Equal(got, want) {
		t.Errorf("origins = %v, want %v", got, want)
	}
}

// TestHostileNames checks that a model's ids and conditions, which a pull
// request chooses, stay text on the page: in the diagram of both layouts
// and in the script's data.
func TestHostileNames(t *testing.T) {
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="a"><transition event="go" cond="x &lt; 1 &amp;&amp; '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;' != ''" target="b"/></state>
  <state id="b"/>
</scxml>`
	m, err := load.Bytes(context.Background(), "h.scxml", []byte(src), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := &report.Analysis{Base: "b", Head: "h", Models: []*report.Model{{Path: "h.scxml", Status: report.Added, HeadMachine: m,
		ChangeAnalysis: &report.ChangeAnalysis{TestDelta: &report.TestDelta{New: []report.Test{{ID: "t<script>", Steps: []report.Step{{Event: "go", Config: []string{"b"}}}}}}}}}}
	for _, layout := range []Layout{LayoutBoxes, LayoutDot} {
		if layout == LayoutDot && dotPath() == "" {
			continue
		}
		page := render(t, a, Options{Layout: layout})
		if n := strings.Count(page, "<script"); n != 2 {
			t.Errorf("%s: %d <script elements, want the page's own 2", layout, n)
		}
		if strings.Contains(page, "alert(1)</script>") {
			t.Errorf("%s: the condition's text ends a script element", layout)
		}
	}
}

// TestRemovedTransition checks that a transition the change removed is
// drawn, as removed, when the head still has its ends, and listed under
// the diagram otherwise.
func TestRemovedTransition(t *testing.T) {
	load1 := func(src string) *mlm.Machine {
		m, err := load.Bytes(context.Background(), "r.scxml", []byte(src), load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	base := load1(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
  <state id="a"><transition event="go" target="b"/><transition event="gone" target="c"/><transition event="back" target="a"/></state>
  <state id="b"/><state id="c"/>
</scxml>`)
	head := load1(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
  <state id="a"><transition event="back" target="a"/></state>
  <state id="b"/>
</scxml>`)
	ids := map[string]string{}
	for _, tr := range base.Source.State("a").Transitions {
		ids[tr.Events[0]] = tr.ID
	}
	ca := &report.ChangeAnalysis{Changes: []report.Change{{Kind: diffmap.TransitionRemoved, Subject: ids["go"]},
		{Kind: diffmap.TransitionRemoved, Subject: ids["gone"]}, {Kind: diffmap.StateRemoved, Subject: "c"}}}
	a := &report.Analysis{Base: "b", Head: "h", Models: []*report.Model{{Path: "r.scxml", Status: report.Modified, HeadMachine: head, BaseMachine: base, ChangeAnalysis: ca}}}
	page := render(t, a, Options{Layout: LayoutBoxes})
	m := readData(t, page).Models[0]
	if els := m.TransEl[ids["go"]]; len(els) != 1 || !strings.Contains(element(t, page, els[0]), "removed") {
		t.Errorf("the removed transition %s is drawn as %v, want one arrow of class removed", ids["go"], els)
	}
	if _, ok := m.TransEl[ids["gone"]]; ok {
		t.Errorf("%s, whose target the head removed, is drawn", ids["gone"])
	}
	if !strings.Contains(page, "transition_removed "+template.HTMLEscapeString(ids["gone"])) || !strings.Contains(page, "state_removed c") {
		i := strings.Index(page, "Removed at head")
		t.Errorf("the page does not list what it could not draw: %.300s", page[max(i, 0):])
	}
}

// TestReachedWitness checks that a newly reached state's witness is the
// shortest test of the head that enters it, cut where it does.
func TestReachedWitness(t *testing.T) {
	m, err := load.Bytes(context.Background(), "w.scxml", []byte(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
  <datamodel><data id="n" expr="0"/></datamodel>
  <state id="a"><transition event="go" target="b"><assign location="n" expr="n + 1"/></transition></state>
  <state id="b"><transition event="back" target="a"/></state>
</scxml>`), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	step := func(ev, to string) report.Step { return report.Step{Event: ev, Config: []string{to}} }
	delta := &report.TestDelta{New: []report.Test{
		{ID: "long", Steps: []report.Step{step("go", "b"), step("back", "a"), step("go", "b")}},
		{ID: "short", Steps: []report.Step{step("go", "b"), step("back", "a")}},
	}}
	a := &report.Analysis{Base: "b", Head: "h", Models: []*report.Model{{Path: "w.scxml", Status: report.Modified, HeadMachine: m,
		ChangeAnalysis: &report.ChangeAnalysis{TestDelta: delta, NewlyReachable: []report.StateRef{{State: "b"}}}}}}
	w := witness(t, readData(t, render(t, a, Options{Layout: LayoutBoxes})).Models[0], "reached")
	if len(w.Frames) != 2 || !slices.Contains(w.Frames[1].Active, "b") || w.Frames[1].Vars["n"] != "1" || len(w.Frames[1].Expected) != 0 {
		t.Errorf("the witness of b: %+v, want the start and one step into b with n = 1", w.Frames)
	}
}

// TestEveryStateDrawn renders a model with parallel regions and a deep
// history state in both layouts: every state is drawn, history included
// (transitions target it), and every transition has its arrow.
func TestEveryStateDrawn(t *testing.T) {
	m, err := load.File(context.Background(), "../../examples/radio.scxml", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := &report.Analysis{Base: "b", Head: "h", Models: []*report.Model{{Path: "radio.scxml", Status: report.Added, HeadMachine: m},
		{Path: "gone.scxml", Status: report.Deleted},
		{Path: "broken.scxml", Status: report.Modified, Errors: []report.Diagnostic{{Path: "broken.scxml", Line: 3, Column: 5, Message: "unexpected <stat>"}}}}}
	for _, layout := range []Layout{LayoutBoxes, LayoutDot} {
		if layout == LayoutDot && dotPath() == "" {
			continue
		}
		page := render(t, a, Options{Layout: layout})
		if !strings.Contains(page, "broken.scxml:3:5: unexpected &lt;stat&gt;") || !strings.Contains(page, "gone.scxml") {
			t.Errorf("%s: the page does not show the deleted model and the broken one's error", layout)
		}
		d := readData(t, page).Models[0]
		for _, s := range m.Source.States()[1:] {
			element(t, page, d.StateEl[s.ID])
		}
		for id, els := range d.TransEl {
			for _, el := range els {
				if c := element(t, page, el); !strings.Contains(c, "tr") {
					t.Errorf("%s: transition %s is drawn as %s", layout, id, c)
				}
			}
		}
	}
}

// TestReplayFollowsTheTimeSemantics: a test found under untimed semantics
// fires the later of two timers first, which timed semantics forbids; the
// page replays it as the analysis read it, and only timed replay stops.
func TestReplayFollowsTheTimeSemantics(t *testing.T) {
	src := `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s" datamodel="ecmascript">
  <state id="s">
    <onentry><send event="late" delay="2s"/><send event="soon" delay="1s"/></onentry>
    <transition event="late" target="done"/>
  </state>
  <final id="done"/>
</scxml>`
	m, err := load.Bytes(context.Background(), "timers.scxml", []byte(src), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	test := &report.Test{ID: "t1", Steps: []report.Step{{Event: "late", Timer: true, Args: map[string]any{}, Config: []string{"done"}}}}
	if p := replay(m.Source, vocab.TimeUntimed, "t1", "new", test); p.Note != "" || len(p.Frames) != 2 || !slices.Contains(p.Frames[1].Active, "done") {
		t.Errorf("untimed replay: note %q, frames %+v; want the timer to reach done", p.Note, p.Frames)
	}
	if p := replay(m.Source, vocab.TimeTimed, "t1", "new", test); p.Note == "" {
		t.Errorf("timed replay of the untimed test: frames %+v, no note; want it stopped (soon is due first)", p.Frames)
	}
}
