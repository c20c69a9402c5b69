package modelgen

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/setbot/setbot/diffmap"
)

// Kind is a change class: diffmap's, so that a generated change and its
// classification are compared as the same values.
type Kind = diffmap.Kind

// The change classes (after Rapos's classification; docs/architecture.md §Changes and impact).
const (
	StateAdded           = diffmap.StateAdded
	StateRemoved         = diffmap.StateRemoved
	StateRenamed         = diffmap.StateRenamed
	TransitionAdded      = diffmap.TransitionAdded
	TransitionRemoved    = diffmap.TransitionRemoved
	TransitionRetargeted = diffmap.TransitionRetargeted
	TriggerChanged       = diffmap.TriggerChanged
	GuardChanged         = diffmap.GuardChanged
	ActionChanged        = diffmap.ActionChanged
	EntryChanged         = diffmap.EntryChanged
	ExitChanged          = diffmap.ExitChanged
	VariableAdded        = diffmap.VariableAdded
	VariableRemoved      = diffmap.VariableRemoved
	InitialValueChanged  = diffmap.InitialValueChanged
	ParamAdded           = diffmap.ParamAdded
	ParamRemoved         = diffmap.ParamRemoved
	InitialChanged       = diffmap.InitialChanged
)

// Kinds lists every change class.
var Kinds = []Kind{
	StateAdded, StateRemoved, StateRenamed,
	TransitionAdded, TransitionRemoved, TransitionRetargeted, TriggerChanged,
	GuardChanged, ActionChanged, EntryChanged, ExitChanged,
	VariableAdded, VariableRemoved, InitialValueChanged,
	ParamAdded, ParamRemoved, InitialChanged,
}

// Change describes one applied change: its kind and the id of the element
// it applies to, as package diffmap names it. That is the state id (for
// initial_changed, the state whose initial changed, or "scxml" for the
// machine's); for transitions the model's identity of the transition in
// the new document (in the old one for a transition_removed), as
// model.Transition.ID spells it: its setbot:id if it has one, otherwise
// "SOURCE:EVENTS>TARGETS" (source state id, ':', the event descriptors
// separated by spaces, '>', the target ids separated by spaces) with a
// "#N" suffix for the Nth transition with the same source, events and
// targets; for variables the data id; for params "EVENT.PARAM"; for
// state_renamed "OLD>NEW".
type Change struct {
	Kind    Kind
	Subject string
}

// Edit is an applied change with a sentence that describes it.
type Edit struct {
	Change
	Description string
}

// Mutate applies one change of the given kind to an SCXML document (as
// produced by Generate, or any document in the supported subset), choosing
// the element with the seeded random source. It returns the new document
// and the change, or ok=false when the document has no element the kind
// applies to (or does not parse).
//
// The result stays a valid model (it reads and flattens), and the change
// is only what its kind says:
//
//   - state_added adds an atomic state that nothing enters; state_removed
//     removes an atomic or final state that no In() names, retargeting the
//     transitions and initials into it to a sibling; state_renamed renames a
//     state (not a history pseudo-state) and every reference to it
//     (targets, initial attributes, In(), done.state events).
//   - transition_added adds a transition on an input event, with the lowest
//     priority among its source's; transition_removed removes one;
//     transition_retargeted gives one on input events another target;
//     trigger_changed renames the event of one to a new event, <old>Renamed,
//     declared like the old one (see RenameTrigger).
//   - guard_changed negates a transition's cond, changes a constant in it,
//     or adds one; action_changed adds <send event="evAudit"
//     target="#_parent"/> to a transition's content or changes a constant
//     assigned in it; entry_changed and exit_changed do the same to an
//     onentry or onexit, adding one when the state has none.
//   - variable_added adds a <data> that nothing uses; variable_removed
//     removes one that nothing uses; initial_value_changed gives one with a
//     constant initial value another value of its type and range.
//   - param_added and param_removed edit the <setbot:event> declaration of
//     an event the machine neither raises nor sends, removing only a
//     parameter no code reads.
//   - initial_changed points the initial attribute (or <initial> element)
//     of <scxml> or of a compound state at another child state.
//
// No change makes code that reads _event.data outside a transition (entry,
// exit, eventless) run on an event without the parameter. Guards and
// targets change on evented transitions only; an eventless transition into
// a removed state goes to a later sibling of its source, never back, so
// that no macrostep loops. Comments and formatting outside the edited
// elements are kept.
func Mutate(src []byte, kind Kind, seed int64) (out []byte, ch Change, ok bool) {
	out, e, ok := MutateEdit(src, kind, seed)
	return out, e.Change, ok
}

// MutateEdit is Mutate, with a description of the change.
func MutateEdit(src []byte, kind Kind, seed int64) (out []byte, e Edit, ok bool) {
	c := newChart(src)
	if c == nil {
		return nil, Edit{}, false
	}
	h := fnv.New64a()
	h.Write([]byte(kind))
	m := &mutator{chart: c, r: rand.New(rand.NewPCG(uint64(seed), h.Sum64()))}
	switch kind {
	case StateAdded:
		e, ok = m.addState()
	case StateRemoved:
		e, ok = m.removeState()
	case StateRenamed:
		e, ok = m.renameState()
	case TransitionAdded:
		e, ok = m.addTransition()
	case TransitionRemoved:
		e, ok = m.removeTransition()
	case TransitionRetargeted:
		e, ok = m.retarget()
	case TriggerChanged:
		e, ok = m.changeTrigger()
	case GuardChanged:
		e, ok = m.changeGuard()
	case ActionChanged:
		e, ok = m.changeAction()
	case EntryChanged:
		e, ok = m.changeEntryExit("onentry", EntryChanged)
	case ExitChanged:
		e, ok = m.changeEntryExit("onexit", ExitChanged)
	case VariableAdded:
		e, ok = m.addVariable()
	case VariableRemoved:
		e, ok = m.removeVariable()
	case InitialValueChanged:
		e, ok = m.changeInitialValue()
	case ParamAdded:
		e, ok = m.addParam()
	case ParamRemoved:
		e, ok = m.removeParam()
	case InitialChanged:
		e, ok = m.changeInitial()
	case PriorityChanged:
		e, ok = m.swapPriority()
	}
	if !ok {
		return nil, Edit{}, false
	}
	return c.doc.bytes(), e, true
}

// TransitionInfo describes a transition of a state or parallel state.
type TransitionInfo struct {
	ID        string   // the model's identity of the transition (model.Transition.ID)
	Source    string   // the source state's id
	Events    []string // the event descriptors; none for an eventless transition
	Group     bool     // the source has child states: a group transition
	Depth     int      // the source's nesting depth (children of <scxml> are at 1)
	Renamable bool     // RenameTrigger applies to it
}

// Transitions lists the transitions of the states and parallel states of
// an SCXML document, in document order.
func Transitions(src []byte) ([]TransitionInfo, error) {
	c := newChart(src)
	if c == nil {
		return nil, errNotSCXML
	}
	var out []TransitionInfo
	for _, t := range c.trans {
		out = append(out, TransitionInfo{ID: t.id, Source: c.ids[t.source], Events: events(t.el),
			Group: len(childStates(t.source)) > 0, Depth: len(ancestors(t.source)) + 1, Renamable: c.renamable(t)})
	}
	return out, nil
}

// RenameTrigger gives the transition with the given identity a new event,
// named after its old one and used nowhere else, declared with the old
// event's parameters when the old one is declared (Khalil and Dingel,
// Incremental symbolic execution, 2015, §6.2.2: "an alteration to the event
// name").
func RenameTrigger(src []byte, id string) ([]byte, Edit, error) {
	c, t, err := find(src, id)
	if err != nil {
		return nil, Edit{}, err
	}
	if !c.renamable(t) {
		return nil, Edit{}, fmt.Errorf("the event of transition %q cannot be renamed", id)
	}
	e := c.renameTrigger(t)
	return c.doc.bytes(), e, nil
}

// AddOutput adds <send event="evAudit" target="#_parent"/> at the end of
// the content of the transition with the given identity (Khalil and Dingel,
// Incremental symbolic execution, 2015, §6.2.2: "adding a send event
// statement to the action code").
func AddOutput(src []byte, id string) ([]byte, Edit, error) {
	c, t, err := find(src, id)
	if err != nil {
		return nil, Edit{}, err
	}
	e := Edit{Change{ActionChanged, t.id}, c.addAudit(t.el) + " added to the action of transition " + t.id}
	return c.doc.bytes(), e, nil
}

var errNotSCXML = errors.New("not an SCXML document")

// find parses src and looks up a transition.
func find(src []byte, id string) (*chart, *trans, error) {
	c := newChart(src)
	if c == nil {
		return nil, nil, errNotSCXML
	}
	t := c.transition(id)
	if t == nil {
		return nil, nil, fmt.Errorf("no transition %q", id)
	}
	return c, t, nil
}

// mutator applies one random change to a chart.
type mutator struct {
	*chart
	r *rand.Rand
}

// choose returns a random element of a non-empty list.
func choose[T any](m *mutator, list []T) T { return list[m.r.IntN(len(list))] }

// chance returns true with probability p.
func (m *mutator) chance(p float64) bool { return m.r.Float64() < p }

// first tries the candidates 0..n-1 in random order and returns the first
// one try accepts, or -1.
func (m *mutator) first(n int, try func(i int) bool) int {
	for _, i := range m.r.Perm(n) {
		if try(i) {
			return i
		}
	}
	return -1
}

// label names a state in messages and changes; <scxml> is "scxml", as in
// the identity of the machine's initial transition.
func (c *chart) label(n *node) string {
	if n == c.root {
		return "scxml"
	}
	return c.ids[n]
}

// named returns the states with an id attribute for which f holds.
func (c *chart) named(f func(*node) bool) []*node {
	var out []*node
	for _, s := range c.states {
		if _, ok := s.attr("id"); ok && f(s) {
			out = append(out, s)
		}
	}
	return out
}

// enterable reports whether a transition or initial may target s without
// finishing anything: a state or parallel state.
func enterable(s *node) bool { return s.is("state") || s.is("parallel") }

// hasChild reports whether n has an SCXML child element with the name.
func hasChild(n *node, local string) bool {
	return slices.ContainsFunc(n.elems(), func(k *node) bool { return k.is(local) })
}

// replaceTokens replaces the word old by new in a space-separated
// attribute, dropping a duplicate it makes.
func replaceTokens(n *node, attr, old, new string) {
	v, ok := n.attr(attr)
	if !ok {
		return
	}
	var out []string
	changed := false
	for _, f := range strings.Fields(v) {
		if f == old {
			f, changed = new, true
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if changed {
		n.setAttr(attr, strings.Join(out, " "))
	}
}
