package html

import (
	"slices"
	"strconv"
	"strings"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/report"
)

// maxLabel bounds a transition's label on the diagram, in characters; the
// whole label is the arrow's tooltip.
const maxLabel = 48

// graph is the head statechart as the diagram draws it, with the diff
// overlaid as classes: the same for both layouts, so that the page's
// script finds states and arrows by their ids whichever drew them.
type graph struct {
	prefix string // of the SVG ids: the model's on the page
	root   *model.State
	nodes  map[*model.State]node
	edges  []edge
	// stateEl and transEl map the model's state ids and transition ids to
	// the ids of their SVG elements (one per target for a transition).
	stateEl map[string]string
	transEl map[string][]string
}

type node struct{ id, class, label string }

type edge struct {
	id, class, label, title string
	events                  string // the label without the condition
	from, to                *model.State
}

// marks is what the analysis says about the states and transitions of the
// head model, by id.
type marks struct {
	states      map[string][]string // state id -> classes
	transitions map[string][]string // transition id -> classes
}

func newMarks(m *report.Model) marks {
	k := marks{states: map[string][]string{}, transitions: map[string][]string{}}
	ca := m.ChangeAnalysis
	if ca == nil {
		return k
	}
	for _, c := range ca.Changes {
		switch c.Kind {
		case diffmap.TransitionAdded:
			k.transitions[c.Subject] = add(k.transitions[c.Subject], "added")
		case diffmap.TransitionRetargeted, diffmap.TriggerChanged, diffmap.GuardChanged, diffmap.ActionChanged:
			k.transitions[c.Subject] = add(k.transitions[c.Subject], "changed")
		case diffmap.StateAdded:
			k.states[c.Subject] = add(k.states[c.Subject], "added")
		case diffmap.EntryChanged, diffmap.ExitChanged:
			k.states[c.Subject] = add(k.states[c.Subject], "changed")
		case diffmap.StateRenamed:
			if _, to, ok := strings.Cut(c.Subject, ">"); ok {
				k.states[to] = add(k.states[to], "changed")
			}
		}
	}
	for _, key := range ca.Impact.Impacted {
		for _, id := range origins(key) {
			k.transitions[id] = add(k.transitions[id], "impacted")
		}
	}
	for _, r := range ca.NewlyUnreachable {
		k.states[r.State] = append(k.states[r.State], "unreachable")
	}
	for _, r := range ca.NewlyTransient {
		k.states[r.State] = append(k.states[r.State], "transient")
	}
	for _, r := range ca.NewlyReachable {
		k.states[r.State] = append(k.states[r.State], "reached")
	}
	return k
}

// add adds class to classes once.
func add(classes []string, class string) []string {
	if slices.Contains(classes, class) {
		return classes
	}
	return append(classes, class)
}

// origins are the statechart transitions of a flattened transition's key
// (docs/architecture.md, Stable keys): "src event [t1+t2 ; t3] dst" gives
// t1, t2 and t3.
func origins(key string) []string {
	i, j := strings.Index(key, "["), strings.LastIndex(key, "]")
	if i < 0 || j < i {
		return nil
	}
	var out []string
	for _, micro := range strings.Split(key[i+1:j], " ; ") {
		for _, id := range strings.Split(micro, "+") {
			if id = strings.TrimSpace(id); id != "" {
				out = append(out, id)
			}
		}
	}
	return out
}

// newGraph builds the diagram's graph of src with the classes of k; its
// SVG ids start with prefix.
func newGraph(src *model.Model, k marks, prefix string) *graph {
	g := &graph{prefix: prefix, root: src.Root, nodes: map[*model.State]node{}, stateEl: map[string]string{}, transEl: map[string][]string{}}
	for i, s := range src.States()[1:] {
		id := prefix + "st-" + strconv.Itoa(i+1)
		label := s.ID
		if s.Kind == model.History {
			label = "H"
			if s.Deep {
				label = "H*"
			}
		}
		class := "st k-" + s.Kind.String()
		if s.ExpectUnreachable {
			class += " expected-unreachable"
		}
		for _, c := range k.states[s.ID] {
			class += " " + c
		}
		g.nodes[s] = node{id: id, class: class, label: label}
		g.stateEl[s.ID] = id
	}
	for _, s := range src.States() {
		for _, t := range s.Transitions {
			g.addTransition(s, t, k)
		}
	}
	return g
}

// addRemoved draws the transition id of the base model base, which the
// change removed, as an arrow of class removed, when the head still has
// its source and targets; it reports whether it did.
func (g *graph) addRemoved(base, head *model.Model, id string) bool {
	for _, s := range base.States() {
		for _, t := range s.Transitions {
			if t.ID != id || head.State(s.ID) == nil {
				continue
			}
			var ends []*model.State
			for _, to := range t.Targets {
				if h := head.State(to.ID); h != nil {
					ends = append(ends, h)
				}
			}
			if len(ends) < len(t.Targets) {
				return false // a target went too: the list under the diagram names the change
			}
			g.addTransition(head.State(s.ID), &model.Transition{ID: t.ID, Events: t.Events, Cond: t.Cond, Targets: ends},
				marks{transitions: map[string][]string{t.ID: {"removed"}}})
			return true
		}
	}
	return false
}

func (g *graph) addTransition(s *model.State, t *model.Transition, k marks) {
	if s.Kind == model.Root {
		return // the document's own transitions: none in SCXML
	}
	title := strings.Join(t.Events, " ")
	if t.Cond != nil {
		title = strings.TrimSpace(title + " [" + printer.ExprString(t.Cond) + "]")
	}
	label := title
	if r := []rune(label); len(r) > maxLabel {
		label = string(r[:maxLabel-1]) + "…"
	}
	class := "tr"
	for _, c := range k.transitions[t.ID] {
		class += " " + c
	}
	targets := t.Targets
	if len(targets) == 0 {
		targets = []*model.State{s} // a targetless transition stays in its state
	}
	for _, to := range targets {
		if to.Kind == model.Root {
			continue
		}
		id := g.prefix + "tr-" + strconv.Itoa(len(g.edges)+1)
		g.edges = append(g.edges, edge{id: id, class: class, label: label, title: t.ID + ": " + title, events: strings.Join(t.Events, " "), from: s, to: to})
		g.transEl[t.ID] = append(g.transEl[t.ID], id)
	}
}
