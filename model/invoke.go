package model

import (
	"github.com/setbot/setbot/model/lang"
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
	Params []*lang.Arg
	// Start runs in the parent when the child starts: the assignment of
	// the id to the idlocation. Never nil.
	Start *lang.Block
	// Finalize runs in the parent before it processes an event from the
	// child; nil for none.
	Finalize    *lang.Block
	Autoforward bool
}

// ToParent returns the sends by which the child reaches its parent
// (target #_parent), in document order.
func (inv *Invoke) ToParent() []*lang.Send {
	var out []*lang.Send
	for _, b := range inv.Child.Blocks() {
		lang.Inspect(b, func(n lang.Node) bool {
			if s, ok := n.(*lang.Send); ok && s.Target == TargetParent {
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
func (m *Model) Blocks() []*lang.Block {
	var out []*lang.Block
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
