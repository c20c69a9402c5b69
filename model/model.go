// Package model is the hierarchical statechart IR that every model reader
// produces and the flattener consumes: states, regions, transitions,
// variables and events with typed parameters, each with its source position
// (docs/architecture.md §Packages). Guards and actions are trees of the action
// language (package lang), whatever the input format.
package model

import (
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"
)

// StateKind says what kind of state a State is.
type StateKind int

// The state kinds. Root is the document element (<scxml>): a compound state
// that is always active and never exited.
const (
	Root StateKind = iota
	Atomic
	Compound
	Parallel
	Final
	History
)

func (k StateKind) String() string {
	return [...]string{"root", "atomic", "compound", "parallel", "final", "history"}[k]
}

// Model is one statechart.
type Model struct {
	Name   string
	Fset   *source.FileSet
	File   *source.File
	Root   *State
	Vars   []*Var   // document order
	Events []*Event // every event the model names, sorted by name
	// Functions are the black-box functions it declares, in document order.
	Functions []*Function

	// Warnings are the places where the model does what the SCXML
	// specification makes an error at run time (an expression that is no
	// ECMAScript, an assignment to a system variable, a send to a type of
	// I/O processor there is none of): the model loads and raises
	// error.execution there, as the specification requires, and the
	// warning says so, so that the author's mistake is not hidden.
	Warnings source.ErrorList

	// Invoked is set for a machine that another invokes: its inputs are
	// the events its parent sends it, whose origin is the parent.
	Invoked bool

	states map[string]*State
	events map[string]*Event
}

// New returns an empty model whose root state is root.
func New(name string, fset *source.FileSet, file *source.File, root *State) *Model {
	return &Model{Name: name, Fset: fset, File: file, Root: root,
		states: make(map[string]*State), events: make(map[string]*Event)}
}

// State returns the state with the given id, or nil.
func (m *Model) State(id string) *State { return m.states[id] }

// AddState registers s under its id; it reports false when the id is taken.
func (m *Model) AddState(s *State) bool {
	if _, dup := m.states[s.ID]; dup {
		return false
	}
	m.states[s.ID] = s
	return true
}

// EventByName returns the named event, or nil.
func (m *Model) EventByName(name string) *Event { return m.events[name] }

// AddEvent registers e at the end of Events; the reader sorts Events once
// every event is known.
func (m *Model) AddEvent(e *Event) {
	m.events[e.Name] = e
	m.Events = append(m.Events, e)
}

// Var returns the named variable, or nil.
func (m *Model) Var(name string) *Var {
	for _, v := range m.Vars {
		if v.Name == name {
			return v
		}
	}
	return nil
}

// Position resolves p in the model's file set.
func (m *Model) Position(p source.Pos) source.Position { return m.Fset.Position(p) }

// States returns every state in document order, the root first.
func (m *Model) States() []*State {
	var out []*State
	var walk func(s *State)
	walk = func(s *State) {
		out = append(out, s)
		for _, c := range s.Children {
			walk(c)
		}
	}
	walk(m.Root)
	return out
}

// State is a node of the state hierarchy.
type State struct {
	ID       string
	Kind     StateKind
	Pos      source.Pos
	Parent   *State
	Children []*State // document order; includes history pseudo-states
	Order    int      // document order index (root is 0)

	// Initial is the default entry of a compound state or the root: the
	// transition of an <initial> element, or one built from the initial
	// attribute or the first child. Nil for other kinds.
	Initial *Transition

	OnEntry []*ast.Block // one block per <onentry>, in document order
	OnExit  []*ast.Block // one block per <onexit>, in document order

	Transitions []*Transition // document order

	// Deep is set for a deep history state; its default transition is
	// Transitions[0].
	Deep bool

	// DoneData are the arguments of the done.state event that entering a
	// <final> state raises (its <donedata>); nil for none.
	DoneData []*ast.Arg

	// Invokes are the child sessions the state runs while it is active,
	// in document order.
	Invokes []*Invoke

	// ExpectUnreachable says the model declares that no execution is
	// meant to enter the state (setbot:expect="unreachable" in SCXML).
	ExpectUnreachable bool
}

// DoneRaise returns the raise of the done.state event that entering the
// final state s generates (unless s's parent is the root): done.state.P
// for s's parent P, with s's DoneData.
func (s *State) DoneRaise() *ast.Raise {
	return &ast.Raise{RaisePos: s.Pos, Event: "done.state." + s.Parent.ID, Args: s.DoneData, Platform: true}
}

// IsCompound reports whether s has child states that one of is active at a
// time (the root included).
func (s *State) IsCompound() bool { return s.Kind == Compound || s.Kind == Root }

// IsAtomic reports whether s has no child states (final states included).
func (s *State) IsAtomic() bool { return s.Kind == Atomic || s.Kind == Final }

// IsDescendant reports whether s is a proper descendant of anc.
func (s *State) IsDescendant(anc *State) bool {
	for p := s.Parent; p != nil; p = p.Parent {
		if p == anc {
			return true
		}
	}
	return false
}

// ProperAncestors returns s's ancestors from the parent outwards, stopping
// before upTo (nil: up to and including the root).
func (s *State) ProperAncestors(upTo *State) []*State {
	var out []*State
	for p := s.Parent; p != nil && p != upTo; p = p.Parent {
		out = append(out, p)
	}
	return out
}

// ChildStates returns the children that are states proper (not history).
func (s *State) ChildStates() []*State {
	var out []*State
	for _, c := range s.Children {
		if c.Kind != History {
			out = append(out, c)
		}
	}
	return out
}

// HistoryStates returns the history pseudo-states among s's children.
func (s *State) HistoryStates() []*State {
	var out []*State
	for _, c := range s.Children {
		if c.Kind == History {
			out = append(out, c)
		}
	}
	return out
}

// TransitionType is SCXML's transition type attribute.
type TransitionType int

// TransitionExternal is the default; TransitionInternal does not exit a
// compound source whose descendants are all targets.
const (
	TransitionExternal TransitionType = iota
	TransitionInternal
)

// Transition is a statechart transition.
type Transition struct {
	Source  *State
	Events  []string // descriptors ("e", "e.*", "*"); empty for eventless
	Cond    ast.Expr // nil means true
	Targets []*State // empty for a targetless transition
	Type    TransitionType
	Body    *ast.Block // executable content; never nil
	Pos     source.Pos
	Order   int // document order among all transitions

	// ID identifies the transition across versions of the model: an
	// explicit setbot:id, or source, events and targets, with an ordinal
	// only among transitions that share all three. It never depends on
	// where the transition sits in the file.
	ID string

	// CondFails marks a cond whose evaluation is an error (SCXML §5.9): it
	// is false (Cond is the literal false), and every evaluation of it
	// places error.execution on the internal queue.
	CondFails bool
	// FailsWhen, where not nil, is when evaluating the cond is an error
	// (it reads a field of an object that is undefined then): the cond is
	// false there (Cond implies !FailsWhen), and evaluating it places
	// error.execution on the internal queue.
	FailsWhen ast.Expr
}

// Eventless reports whether t fires without an event.
func (t *Transition) Eventless() bool { return len(t.Events) == 0 }

// Matches reports whether one of t's descriptors matches the event name, by
// SCXML's token-prefix rule: "e" and "e.*" match "e" and "e.x"; "*" matches
// every event.
func (t *Transition) Matches(name string) bool {
	for _, d := range t.Events {
		if DescriptorMatches(d, name) {
			return true
		}
	}
	return false
}

// DescriptorMatches applies SCXML's event descriptor rule.
func DescriptorMatches(desc, name string) bool {
	if desc == "*" {
		return true
	}
	if n := len(desc); n >= 2 && desc[n-2:] == ".*" {
		desc = desc[:n-2]
	}
	if n := len(desc); n > 0 && desc[n-1] == '.' {
		desc = desc[:n-1]
	}
	if len(name) < len(desc) || name[:len(desc)] != desc {
		return false
	}
	return len(name) == len(desc) || name[len(desc)] == '.'
}

// Var is a machine variable.
type Var struct {
	Name string
	Type ast.Type
	Init ast.Expr // a constant expression
	Pos  source.Pos
	// EventRef marks the identity of a stored _event (lower.EventCurrent
	// while its event is processed): when the processing of an event ends,
	// every executor sets it to lower.EventStale, so that the next event's
	// _event differs from it (the flattener at the end of every
	// transition that processes an event, the interpreter where it takes
	// the next event or the macrostep ends).
	EventRef bool
	// Passed marks a variable of an invoked machine that an invoke's
	// <param> or namelist may set when the machine starts: its initial
	// value is no constant of the start.
	Passed bool
}

// EventKind records how an event reaches the machine.
type EventKind int

// Input events come from the environment; Internal ones are raised (or sent
// to #_internal, or done.state.*); Self ones are sent to the machine's own
// external queue; Timer ones are delayed sends to the machine; Output ones
// are sent elsewhere. An event can be several of these; Kinds is a set.
const (
	Input EventKind = 1 << iota
	Internal
	Self
	Timer
	Output
	// Invoked events come from a child session the machine invokes: sent
	// to #_parent, or its done.invoke event.
	Invoked
)

// Event is a named event with typed parameters.
type Event struct {
	Name     string
	Params   []Param // sorted by name
	Kinds    EventKind
	Declared bool       // declared in setbot's namespace
	Pos      source.Pos // declaration or first mention
}

// Param is a typed event parameter.
type Param struct {
	Name string
	Type ast.Type
}

// Param returns the named parameter.
func (e *Event) Param(name string) (Param, bool) {
	for _, p := range e.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// ParamTypes returns the parameters as a map.
func (e *Event) ParamTypes() map[string]ast.Type {
	m := make(map[string]ast.Type, len(e.Params))
	for _, p := range e.Params {
		m[p.Name] = p.Type
	}
	return m
}
