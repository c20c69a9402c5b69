package model

import "github.com/setbot/setbot/model/lang/parser"
import "github.com/setbot/setbot/model/lang/ast"

// SessionID is the value of _sessionid: setbot runs one session of each
// machine, so any fixed string serves.
const SessionID = "setbot-session"

// SCXMLProcessor is the type of the SCXML event I/O processor, the only one
// setbot has: the key of _ioprocessors and the _event.origintype of the
// events the machine sends itself.
const SCXMLProcessor = parser.SCXMLProcessor

// The error events of SCXML (§5.10.2): raised by the platform when
// executable content fails, and when a send cannot be delivered.
const (
	ErrorExecution     = "error.execution"
	ErrorCommunication = "error.communication"
)

// Send targets with a meaning of their own (SCXML §6.2.4): the internal
// queue, the parent session (an output of a machine that no other
// invokes), and the prefix of a session's location.
const (
	TargetInternal      = "#_internal"
	TargetParent        = "#_parent"
	TargetSessionPrefix = "#_scxml_"
)

// SessionLocation is the machine's address at the SCXML event processor:
// _ioprocessors[SCXMLProcessor].location, and the _event.origin of the
// events the machine sends itself (SCXML §C.1).
const SessionLocation = TargetSessionPrefix + SessionID

// EventType is what _event.type says of an event (SCXML §5.10.1).
type EventType uint8

// The event types. The zero value is external: an input from the
// environment, a send to the machine's own external queue, a timer.
const (
	TypeExternal EventType = iota
	TypeInternal           // <raise>, <send target="#_internal">
	TypePlatform           // raised by the platform: error.*, done.state.*
)

func (t EventType) String() string {
	return [...]string{"external", "internal", "platform"}[t]
}

// Meta is how an event reached the machine, which _event's fields other
// than name and data tell. It travels with every queued event and pending
// timer, so that the executors agree on it wherever the same event name can
// arrive in several ways. The zero Meta is an input from the environment:
// external, with no send id and no origin.
type Meta struct {
	Type EventType
	// SendID is the id of the <send> that sent the event, or of the send
	// whose failure an error event reports; "" when it has none.
	SendID string
	// Self marks an event the machine sent to itself (a <send> without a
	// target, delayed or not): its origin is SessionLocation and its
	// origintype SCXMLProcessor.
	Self bool
	// InvokeID is the invoke id of the child session that sent the event
	// to its parent (#_parent, or done.invoke.ID when it finished); ""
	// for every other event.
	InvokeID string
}

// SendMeta is how the event of a <send> to the machine's external queue
// arrives: sent to itself, or, for a send an invoked child makes to its
// parent (ast.Send.From), from that child.
func SendMeta(s *ast.Send) Meta {
	return Meta{SendID: s.ID, Self: s.From == "", InvokeID: s.From}
}

// ChildLocation is the address of the child session an invoke id names:
// the _event.origin of the events the child sends its parent.
func ChildLocation(invokeID string) string { return SessionLocation + "." + invokeID }

// Field returns _event.name's sibling field under m (type, sendid, origin,
// origintype or invokeid): its value, or ok false when it is undefined.
// invokeid is defined for the events a child session sends its parent.
func (m Meta) Field(name string) (value string, ok bool) {
	switch name {
	case "invokeid":
		return m.InvokeID, m.InvokeID != ""
	case "type":
		return m.Type.String(), true
	case "sendid":
		return m.SendID, m.SendID != ""
	case "origin":
		if m.InvokeID != "" {
			return ChildLocation(m.InvokeID), true
		}
		if m.Self {
			return SessionLocation, true
		}
	case "origintype":
		if m.Self || m.InvokeID != "" {
			return SCXMLProcessor, true
		}
	}
	return "", false
}

// Arrivals returns, for every event the machine can receive, the distinct
// ways it arrives: as an input (the zero Meta), raised, sent to itself with
// or without a delay, or raised by the platform (a done.state event, an
// error of a send). The flattener folds a field of _event to a constant
// where every arrival of the event agrees on it.
func (m *Model) Arrivals() map[string][]Meta {
	out := make(map[string][]Meta)
	add := func(name string, meta Meta) {
		for _, have := range out[name] {
			if have == meta {
				return
			}
		}
		out[name] = append(out[name], meta)
	}
	for _, ev := range m.Events {
		switch {
		case ev.Kinds&Input != 0 && m.Invoked:
			add(ev.Name, Meta{Self: true}) // from the parent, an SCXML session
		case ev.Kinds&Input != 0:
			add(ev.Name, Meta{})
		}
	}
	visit := func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.Raise:
			meta := Meta{Type: TypeInternal, SendID: s.ID}
			if s.Platform {
				meta.Type = TypePlatform
			}
			add(s.Event, meta)
		case *ast.Send:
			if s.Target == "" {
				add(s.Event, SendMeta(s))
			}
		}
		return true
	}
	for _, b := range m.Blocks() {
		ast.Inspect(b, visit)
	}
	for _, s := range m.States() {
		if s.Kind == Final && s.Parent != nil && s.Parent.Kind != Root {
			add("done.state."+s.Parent.ID, Meta{Type: TypePlatform})
			if gp := s.Parent.Parent; gp != nil && gp.Kind == Parallel {
				add("done.state."+gp.ID, Meta{Type: TypePlatform})
			}
		}
		for _, inv := range s.Invokes {
			for _, send := range inv.ToParent() {
				add(send.Event, Meta{SendID: send.ID, InvokeID: inv.ID})
			}
			add(DoneInvoke(inv.ID), Meta{InvokeID: inv.ID})
		}
	}
	return out
}
