package model

import (
	"strings"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"
)

// InvokeTypes are the values of <invoke type> that name an SCXML machine,
// the one kind of child session setbot runs (SCXML §6.4.1).
var InvokeTypes = []string{"scxml", "http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml"}

// InvokeEvent is the name of the step that starts the children of the
// states a macrostep entered and did not leave: the composed machine takes
// it when its internal queue is empty at the end of the macrostep. No SCXML
// event name has a '#'.
const InvokeEvent = "#invoke"

// DoneData is the name under which an invoked machine's reader checks the
// <donedata> of its top-level final states, the data of the done.invoke
// event its parent receives (no SCXML name has a '#').
const DoneData = "#donedata"

// DoneInvoke is the name of the event a child session's parent receives
// when the child reaches a top-level final state.
func DoneInvoke(invokeID string) string { return "done.invoke." + invokeID }

// Invoke is an <invoke> of an SCXML machine: a child session that runs
// while its state is active and talks to its parent through events.
type Invoke struct {
	// ID is the invoke id: the id attribute, or one generated from the
	// state's id (stateid.N, SCXML §6.4.1). It prefixes the child's
	// states, variables and events in the composed machine.
	ID    string
	State *State
	Pos   source.Pos
	Order int // document order among the model's invokes
	// Src is the file the child was read from, relative to the top model, or
	// "" for a child given inline in <content>.
	Src   string
	Child *Model
	// Params are the <param> elements and the namelist: the child's
	// variable each sets, and its value in the parent's data model,
	// evaluated when the child starts.
	Params []*ast.Arg
	// Start runs in the parent when the child starts: the assignment of
	// the id to the idlocation. Never nil.
	Start *ast.Block
	// Finalize runs in the parent before it processes an event from the
	// child; nil for none.
	Finalize    *ast.Block
	Autoforward bool
	// OK is nil, or the condition under which the invoke starts its
	// child when it runs: a typeexpr that names the SCXML type (false for
	// arguments that always fail, a namelist entry that names no
	// variable, say). Where it does not hold, the invoke places
	// error.execution on the internal queue and starts nothing (SCXML
	// §6.4).
	OK ast.Expr
}

// ToParent returns the sends by which the child reaches its parent
// (target #_parent), in document order.
func (inv *Invoke) ToParent() []*ast.Send {
	var out []*ast.Send
	for _, b := range inv.Child.Blocks() {
		ast.Inspect(b, func(n ast.Node) bool {
			if s, ok := n.(*ast.Send); ok && s.Target == TargetParent {
				out = append(out, s)
			}
			return true
		})
	}
	return out
}

// Invokes returns the model's invokes in document order.
func (m *Model) Invokes() []*Invoke {
	var out []*Invoke
	for _, s := range m.States() {
		out = append(out, s.Invokes...)
	}
	return out
}

// Blocks returns every block of executable content of the model: entry
// and exit actions, initial and transition content, and the code of its
// invokes (idlocation, finalize), by state in document order.
func (m *Model) Blocks() []*ast.Block {
	var out []*ast.Block
	for _, s := range m.States() {
		out = append(out, s.OnEntry...)
		out = append(out, s.OnExit...)
		if s.Initial != nil {
			out = append(out, s.Initial.Body)
		}
		for _, t := range s.Transitions {
			out = append(out, t.Body)
		}
		for _, inv := range s.Invokes {
			out = append(out, inv.Start)
			if inv.Finalize != nil {
				out = append(out, inv.Finalize)
			}
		}
	}
	return out
}

// Scoped is a state of a model or of a machine it invokes, with the id
// reports give it: its own id in the model, the invoke id, a dot and its
// id in an invoked machine (sub.s0), and so on down the invokes.
type Scoped struct {
	ID string
	*State
}

// ScopedStates returns the model's states in document order, the root
// first, then those of each machine it invokes, in document order of the
// invokes, without their roots.
func (m *Model) ScopedStates() []Scoped {
	var out []Scoped
	for _, s := range m.States() {
		out = append(out, Scoped{s.ID, s})
	}
	for _, inv := range m.Invokes() {
		if inv.Child == nil {
			continue
		}
		for _, s := range inv.Child.ScopedStates() {
			if s.Kind != Root {
				out = append(out, Scoped{inv.ID + "." + s.ID, s.State})
			}
		}
	}
	return out
}

// Lookup returns the state a report's id names (ScopedStates), or nil: a
// state of the model, or of a machine it invokes.
func (m *Model) Lookup(id string) *State {
	if s := m.State(id); s != nil {
		return s
	}
	for _, inv := range m.Invokes() {
		if rest, ok := strings.CutPrefix(id, inv.ID+"."); ok && inv.Child != nil {
			if s := inv.Child.Lookup(rest); s != nil {
				return s
			}
		}
	}
	return nil
}

// Ancestors returns the ids, as reports give them, of the state id names
// and of its ancestors up to the root of its machine (excluded), innermost
// first.
func (m *Model) Ancestors(id string) []string {
	if s := m.State(id); s != nil {
		var out []string
		for ; s != nil && s.Kind != Root; s = s.Parent {
			out = append(out, s.ID)
		}
		return out
	}
	for _, inv := range m.Invokes() {
		if rest, ok := strings.CutPrefix(id, inv.ID+"."); ok && inv.Child != nil {
			if in := inv.Child.Ancestors(rest); in != nil {
				for i := range in {
					in[i] = inv.ID + "." + in[i]
				}
				return in
			}
		}
	}
	return nil
}

// Line is the line of p in the model's own file, or 0 when p is in
// another file (a machine it invokes through src).
func (m *Model) Line(p source.Pos) int {
	if !p.IsValid() {
		return 0
	}
	pos := m.Position(p)
	if m.File != nil && pos.Filename != m.File.Name() {
		return 0
	}
	return pos.Line
}
