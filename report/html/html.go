// Package html renders an analysis (report.Analysis) as one self-contained
// web page: the head statechart drawn as SVG with the change overlaid, each
// finding with a player that steps through its witness, the test delta with
// every test playable, the tests' coverage as a heat map, and the impact
// measures and the strategy in plain words. The page needs no network: its
// style and script are inlined. It is one more renderer of the analysis,
// beside package report's markdown, JSON, SARIF and JUnit.
package html

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os/exec"
	"strings"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/report"
)

//go:embed page.tmpl
var pageTemplate string

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

var tmpl = template.Must(template.New("page").Funcs(template.FuncMap{"pct": pct, "count": count}).Parse(pageTemplate))

// MaxPlays bounds the witnesses and tests a page replays per model; the
// others are listed without a player, and the page says how many.
const MaxPlays = 300

// Layout chooses how the diagram is laid out.
type Layout string

// The layouts: Graphviz's dot where it is installed and the model is not
// too large for it, else setbot's own nested boxes; or one of them.
const (
	LayoutAuto  Layout = ""
	LayoutDot   Layout = "dot"
	LayoutBoxes Layout = "boxes"
)

// Options say how the page is rendered.
type Options struct {
	Layout Layout
}

// lookDot finds Graphviz's dot on PATH.
func lookDot() (string, error) { return exec.LookPath("dot") }

// Write renders a as one page to w.
func Write(ctx context.Context, w io.Writer, a *report.Analysis, o Options) error {
	dot := ""
	if o.Layout != LayoutBoxes {
		dot, _ = lookDot()
	}
	p := page{Analysis: a, CSS: template.CSS(pageCSS), JS: template.JS(pageJS)}
	var data pageData
	for _, m := range a.Models {
		v := newModelView(ctx, m, len(p.Models), o.Layout, dot)
		p.Models = append(p.Models, v)
		data.Models = append(data.Models, v.data)
	}
	// json.Marshal writes <, > and & as \u003c, \u003e and \u0026, so no
	// state id or label of the model can end the <script> element or
	// start a comment in it.
	js, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("rendering the page's data: %w", err)
	}
	p.Data = template.JS(js)
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, p); err != nil {
		return fmt.Errorf("rendering the page: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

type page struct {
	*report.Analysis
	Models []*modelView
	CSS    template.CSS
	JS     template.JS
	Data   template.JS
}

type pageData struct {
	Models []modelData `json:"models"`
}

// modelData is what the page's script needs of one model.
type modelData struct {
	StateEl map[string]string   `json:"stateEl"`
	TransEl map[string][]string `json:"transEl"`
	Plays   []play              `json:"plays"`
	// Heat is the coverage level (1 to 5) of each covered state and
	// transition, by SVG element id.
	Heat map[string]int `json:"heat"`
}

// modelView is one model's section of the page.
type modelView struct {
	*report.Model
	Index    int
	SVG      template.HTML
	LayoutBy string
	Findings []finding
	Tests    []testRow
	Unplayed int // tests and witnesses beyond MaxPlays
	Removed  []report.Change
	data     modelData
}

// finding is one thing the reviewer should look at, with its witness.
type finding struct {
	Kind, Subject, Text string
	Play                int // index in the model's plays; -1: no witness
}

type testRow struct {
	Class string // retained, changed, obsolete, new
	ID    string
	Steps int
	Play  int
}

func newModelView(ctx context.Context, m *report.Model, index int, layout Layout, dot string) *modelView {
	v := &modelView{Model: m, Index: index, data: modelData{StateEl: map[string]string{}, TransEl: map[string][]string{}, Plays: []play{}, Heat: map[string]int{}}}
	if m.HeadMachine == nil || m.HeadMachine.Source == nil {
		return v
	}
	src := m.HeadMachine.Source
	g := newGraph(src, newMarks(m), fmt.Sprintf("m%d-", index))
	v.data.StateEl, v.data.TransEl = g.stateEl, g.transEl
	if m.ChangeAnalysis != nil {
		v.removed(g)
	}
	svg, ok := "", false
	if layout != LayoutBoxes {
		svg, ok = dotSVG(ctx, g, dot)
		v.LayoutBy = "Graphviz dot"
	}
	if !ok {
		svg, v.LayoutBy = boxSVG(g), "setbot's nested boxes"
	}
	v.SVG = template.HTML(svg) // built from escaped text
	if m.ChangeAnalysis == nil {
		return v
	}
	pl := &player{v: v}
	v.Findings = pl.findings(m.ChangeAnalysis)
	v.Tests = pl.tests(m.TestDelta)
	v.data.Heat = heat(g, m.TestDelta)
	return v
}

// removed draws on g the transitions the change removed whose ends the
// head still has, and lists the other removals under the diagram.
func (v *modelView) removed(g *graph) {
	var base *model.Model
	if v.BaseMachine != nil {
		base = v.BaseMachine.Source
	}
	for _, c := range v.Changes {
		drawn := c.Kind == diffmap.TransitionRemoved && base != nil && g.addRemoved(base, v.HeadMachine.Source, c.Subject)
		if !drawn && strings.HasSuffix(string(c.Kind), "_removed") {
			v.Removed = append(v.Removed, c)
		}
	}
}

// pct writes a percentage (0 to 100) as a whole number.
func pct(f float64) string { return fmt.Sprintf("%.0f%%", f) }

// count writes "1 transition", "2 transitions".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// FileName is the name of a's page: the two commits it compares.
func FileName(a *report.Analysis) string {
	return fmt.Sprintf("setbot-%.7s-%.7s.html", a.Base, a.Head)
}
