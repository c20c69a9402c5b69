package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/printer"
)

// Limits that keep a diagram legible in a pull-request comment.
const (
	MaxDiagramEdges  = 120 // transitions drawn; the rest are counted
	MaxDiagramStates = 200 // above this the diagram is left out
	maxLabel         = 60  // characters of a transition label
)

// diagramResult is a drawn diagram and what it left out.
type diagramResult struct {
	Source  string // the Mermaid source, without the fence
	Edges   int    // transitions drawn
	Omitted int    // transitions left out by MaxDiagramEdges
	// Parallel says the diagram has parallel states, drawn with a dashed
	// border around their regions.
	Parallel bool
}

// mermaidKeywords are words that Mermaid's state diagram grammar reads as
// syntax, so they cannot be state identifiers.
var mermaidKeywords = map[string]bool{
	"state": true, "end": true, "note": true, "direction": true, "class": true, "classdef": true,
	"style": true, "click": true, "as": true, "hide": true, "scale": true, "left": true, "right": true,
	"of": true, "over": true, "acctitle": true, "accdescr": true, "default": true, "tb": true, "bt": true,
	"lr": true, "rl": true, "concurrent": true,
}

// mermaidIDs gives each state a distinct Mermaid identifier: ASCII letters,
// digits and underscores (SCXML ids may hold dots, dashes and non-ASCII
// letters), not a keyword and not starting with a digit.
type mermaidIDs struct {
	of   map[*model.State]string
	used map[string]bool
}

func newMermaidIDs() *mermaidIDs {
	return &mermaidIDs{of: make(map[*model.State]string), used: make(map[string]bool)}
}

// sanitize maps a state id to an identifier Mermaid accepts.
func sanitize(id string) string {
	var b strings.Builder
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if strings.Trim(s, "_") == "" || s[0] >= '0' && s[0] <= '9' || mermaidKeywords[strings.ToLower(s)] {
		s = "s_" + s
	}
	return s
}

// add assigns s its identifier; ids that sanitise alike get a suffix, in
// document order, so the mapping is deterministic.
func (ids *mermaidIDs) add(s *model.State) string {
	base := sanitize(s.ID)
	id := base
	for n := 2; ids.used[id]; n++ {
		id = base + "_" + strconv.Itoa(n)
	}
	ids.used[id] = true
	ids.of[s] = id
	return id
}

// mermaidLabel escapes what Mermaid (or the Markdown fence around it) would
// read as syntax in a label: entity codes are Mermaid's own escapes.
var mermaidLabel = strings.NewReplacer(
	"#", "#35;", "&", "#38;", ":", "#58;", ";", "#59;", `"`, "#quot;", "<", "#lt;", ">", "#gt;",
	"%", "#37;", "`", "#96;", "{", "#123;", "}", "#125;", "\n", " ", "\r", " ",
)

type diagramEdge struct {
	from, to *model.State
	label    string
	changed  bool
	touches  bool // an end is newly unreachable
}

// diagram draws the head model of m as a Mermaid stateDiagram-v2 from the
// hierarchical model: compound and parallel states as nested blocks,
// initial and final pseudo-states, one arrow per transition from the state
// that defines it to each state it targets, labels "event [guard]".
// Parallel states get class "parallel" (a dashed border) instead of
// Mermaid's "--" region separators, which make the whole diagram fail to
// render when an arrow starts or ends at a composite state inside a region
// (mermaid-js/mermaid#4052): an arrow is never moved off the states the
// model names. Transitions changed by the pull request carry ⚠ in their
// label; states that changed get class "changed", newly unreachable ones
// class "unreachable" and ⚠ in their name. At most maxEdges transitions
// are drawn, changed ones and those touching an unreachable state first.
// ok is false when there is no head model or it is too large to draw.
func diagram(m *Model, maxEdges int) (diagramResult, bool) {
	if m.HeadMachine == nil || m.HeadMachine.Source == nil {
		return diagramResult{}, false
	}
	src := m.HeadMachine.Source
	states := src.States()[1:] // without the root
	if len(states) > MaxDiagramStates {
		return diagramResult{}, false
	}
	d := &drawer{src: src, ids: newMermaidIDs(), changedT: make(map[string]bool),
		changedS: make(map[string]bool), unreachable: make(map[string]bool)}
	for _, s := range states {
		d.ids.add(s)
	}
	if m.ChangeAnalysis != nil {
		d.mark(m.Changes)
		for _, s := range m.NewlyUnreachable {
			d.unreachable[s.State] = true
		}
	}
	d.collect()
	d.cap(maxEdges)
	return d.draw(), true
}

type drawer struct {
	src         *model.Model
	ids         *mermaidIDs
	changedT    map[string]bool // statechart transition ids
	changedS    map[string]bool // state ids
	unreachable map[string]bool
	edges       []diagramEdge
	omitted     int
	b           strings.Builder
}

// mark records what the source-level changes touch in the head model.
func (d *drawer) mark(changes []Change) {
	for _, c := range changes {
		switch c.Kind {
		case diffmap.TransitionAdded, diffmap.TransitionRetargeted, diffmap.TriggerChanged,
			diffmap.GuardChanged, diffmap.ActionChanged:
			d.changedT[c.Subject] = true
		case diffmap.StateAdded, diffmap.EntryChanged, diffmap.ExitChanged:
			d.changedS[c.Subject] = true
		case diffmap.StateRenamed:
			if _, to, ok := strings.Cut(c.Subject, ">"); ok {
				d.changedS[to] = true
			}
		}
	}
}

// collect lists every transition of the model as edges, one per target,
// from its source (the state that defines it) to the target as declared.
func (d *drawer) collect() {
	for _, s := range d.src.States() {
		for _, t := range s.Transitions {
			label := strings.Join(t.Events, " ")
			if t.Cond != nil {
				label = strings.TrimSpace(label + " [" + printer.ExprString(t.Cond) + "]")
			}
			label = shorten(label, maxLabel)
			changed := d.changedT[t.ID]
			if changed {
				label = strings.TrimSpace("⚠ " + label)
			}
			targets := t.Targets
			if len(targets) == 0 {
				targets = []*model.State{s} // a targetless transition stays in its state
			}
			for _, t := range targets {
				d.edges = append(d.edges, diagramEdge{from: s, to: t, label: label,
					changed: changed, touches: d.unreachable[s.ID] || d.unreachable[t.ID]})
			}
		}
	}
}

// cap keeps at most limit edges: changed transitions first, then those
// touching a newly unreachable state, then document order.
func (d *drawer) cap(limit int) {
	if len(d.edges) <= limit {
		return
	}
	keep := make([]bool, len(d.edges))
	kept := 0
	for _, pass := range []func(e diagramEdge) bool{
		func(e diagramEdge) bool { return e.changed },
		func(e diagramEdge) bool { return e.touches },
		func(diagramEdge) bool { return true },
	} {
		for i, e := range d.edges {
			if kept < limit && !keep[i] && pass(e) {
				keep[i] = true
				kept++
			}
		}
	}
	var out []diagramEdge
	for i, e := range d.edges {
		if keep[i] {
			out = append(out, e)
		}
	}
	d.omitted = len(d.edges) - len(out)
	d.edges = out
}

// scope is the state whose block holds an edge: the common parent when
// both ends are children of one compound state, else the top level (nil).
// Mermaid places a state in the last block that mentions it, so an edge
// between states of different blocks is only safe at the top level.
func scope(e diagramEdge) *model.State {
	p := e.from.Parent
	if p != nil && p == e.to.Parent && p.Kind == model.Compound {
		return p
	}
	return nil
}

func (d *drawer) draw() diagramResult {
	d.b.WriteString("stateDiagram-v2\n")
	d.b.WriteString("  classDef changed stroke:#d97706,stroke-width:3px\n")
	d.b.WriteString("  classDef unreachable fill:#fee2e2,stroke:#dc2626,stroke-width:2px,stroke-dasharray:5\n")
	var changed, unreachable, parallel []string
	for _, s := range d.src.States()[1:] {
		if s.Kind == model.Parallel {
			parallel = append(parallel, d.ids.of[s])
		}
	}
	if len(parallel) > 0 {
		d.b.WriteString("  classDef parallel stroke-dasharray:8 4\n")
	}
	d.block(d.src.Root, 1)
	d.edgesIn(nil, 1)
	for _, s := range d.src.States()[1:] {
		if d.unreachable[s.ID] {
			unreachable = append(unreachable, d.ids.of[s])
		} else if d.changedS[s.ID] {
			changed = append(changed, d.ids.of[s])
		}
	}
	if len(changed) > 0 {
		fmt.Fprintf(&d.b, "  class %s changed\n", strings.Join(changed, ","))
	}
	if len(unreachable) > 0 {
		fmt.Fprintf(&d.b, "  class %s unreachable\n", strings.Join(unreachable, ","))
	}
	if len(parallel) > 0 {
		fmt.Fprintf(&d.b, "  class %s parallel\n", strings.Join(parallel, ","))
	}
	if d.omitted > 0 {
		fmt.Fprintf(&d.b, "  %%%% %d transitions left out\n", d.omitted)
	}
	return diagramResult{Source: d.b.String(), Edges: len(d.edges), Omitted: d.omitted, Parallel: len(parallel) > 0}
}

// block writes the children of s (the root, a compound or a parallel
// state) at the given depth: the initial arrow, the child states, the
// edges scoped to s, the arrows to final. A parallel state has neither
// an initial arrow (all its regions are entered) nor final children.
func (d *drawer) block(s *model.State, depth int) {
	pad := strings.Repeat("  ", depth)
	if s.Initial != nil {
		for _, t := range s.Initial.Targets {
			if c := childContaining(s, t); c != nil {
				fmt.Fprintf(&d.b, "%s[*] --> %s\n", pad, d.ids.of[c])
			}
		}
	}
	for _, c := range s.Children {
		d.state(c, depth)
	}
	if s.Kind != model.Root {
		d.edgesIn(s, depth)
	}
	for _, c := range s.Children {
		if c.Kind == model.Final {
			fmt.Fprintf(&d.b, "%s%s --> [*]\n", pad, d.ids.of[c])
		}
	}
}

// state declares one state (and, for a composite one, its block).
func (d *drawer) state(s *model.State, depth int) {
	pad := strings.Repeat("  ", depth)
	id := d.ids.of[s]
	name := s.ID
	if s.Kind == model.History {
		name = "H"
		if s.Deep {
			name = "H*"
		}
	}
	if d.unreachable[s.ID] {
		name = "⚠ " + name
	}
	decl := id
	if name != id {
		decl = fmt.Sprintf("state \"%s\" as %s", mermaidLabel.Replace(name), id)
	}
	if len(s.ChildStates()) == 0 {
		d.b.WriteString(pad + decl + "\n")
		return
	}
	if name == id {
		decl = "state " + id
	}
	d.b.WriteString(pad + decl + " {\n")
	d.block(s, depth+1)
	d.b.WriteString(pad + "}\n")
}

// edgesIn writes the edges whose scope is s (nil: the top level).
func (d *drawer) edgesIn(s *model.State, depth int) {
	pad := strings.Repeat("  ", depth)
	for _, e := range d.edges {
		if scope(e) != s {
			continue
		}
		line := pad + d.ids.of[e.from] + " --> " + d.ids.of[e.to]
		if e.label != "" {
			line += " : " + mermaidLabel.Replace(e.label)
		}
		d.b.WriteString(line + "\n")
	}
}

// childContaining returns the child of s that is t or holds t.
func childContaining(s, t *model.State) *model.State {
	for x := t; x != nil; x = x.Parent {
		if x.Parent == s {
			return x
		}
	}
	return nil
}
