// Package mlm flattens a statechart (package model) into the Mealy-like
// machine (MLM) of Khalil and Dingel, Incremental symbolic execution, 2015,
// §3.1: simple states that are full active configurations, and transitions
// (source, event, guard, action, target) whose behaviour is exactly that of
// the statechart under SCXML semantics.
//
// Each MLM transition is one macrostep from a stable configuration: the
// selection of enabled transitions on the event (with SCXML priority), the
// microstep (exit actions innermost first, transition content, entry actions
// outermost first), and the eventless transitions that follow, folded in.
// Raised and self-sent events stay events of the machine: the executor keeps
// them in the symbolic state's queues and processes them run-to-completion
// (docs/architecture.md §Semantics). Delayed sends are timer events the environment may
// fire once set.
package mlm

import (
	"slices"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// Defaults for Options. Those of the states and the transitions, which a
// user sets, are the bounds table's (vocab.Settings).
const (
	DefaultMaxCombinations   = 4096
	DefaultMaxEventlessSteps = 32
)

// Options bound the flattening, which can grow with the product of
// parallel regions.
type Options struct {
	MaxStates         int // MLM states
	MaxTransitions    int // MLM transitions
	MaxCombinations   int // guard combinations for one state and event, and ways through one macrostep
	MaxEventlessSteps int // eventless microsteps folded into one macrostep
}

// Limit returns the option that holds bound b, a bound of the model
// (vocab.StageModel); nil for another. It is the one place that maps the
// bounds table's rows onto the fields of Options.
func (o *Options) Limit(b vocab.Bound) *int {
	switch b {
	case vocab.BoundMLMStates:
		return &o.MaxStates
	case vocab.BoundMLMTransitions:
		return &o.MaxTransitions
	}
	return nil
}

// Bounded returns the options with the bounds of the model l sets; what l
// leaves unset stays as it was.
func (o Options) Bounded(l vocab.Limits) Options {
	for _, s := range vocab.Settings(vocab.StageModel) {
		if v, ok := l[s.Bound]; ok {
			*o.Limit(s.Bound) = int(v)
		}
	}
	return o
}

func (o Options) withDefaults() Options {
	for _, s := range vocab.Settings(vocab.StageModel) {
		if p := o.Limit(s.Bound); *p <= 0 {
			*p = int(s.Default)
		}
	}
	if o.MaxCombinations <= 0 {
		o.MaxCombinations = DefaultMaxCombinations
	}
	if o.MaxEventlessSteps <= 0 {
		o.MaxEventlessSteps = DefaultMaxEventlessSteps
	}
	return o
}

// Machine is a flattened statechart.
type Machine struct {
	Name        string
	Source      *model.Model
	Vars        []*model.Var
	Events      []*model.Event
	States      []*State      // sorted by name
	Initial     []*Transition // from the pseudo-state before the machine starts
	Transitions []*Transition // sorted by key
	Hash        string        // content hash of the canonical form

	byName map[string]*State
}

// State is an MLM state: an active configuration with the history it has
// recorded.
type State struct {
	Name    string
	Atomic  []string       // active atomic states, sorted
	History []HistoryValue // recorded history, sorted by history state id
	Final   bool           // a top-level final state: the machine has stopped
	Pos     source.Pos
	// Invoking marks a state of a composed machine in which child
	// sessions wait to start: the executors take model.InvokeEvent in it
	// as soon as the internal queue is empty (the end of the macrostep).
	Invoking bool
	// Ending marks a state of a composed machine in which the end of a
	// child session is still queued: the machine passes through it within
	// a step, as it takes the events queued before that end.
	Ending bool

	// stop is what the machine does when its parent cancels it in this
	// state (SCXML's exitInterpreter): the exit actions of the active
	// states, innermost first, each state's invokes cancelled after them.
	// Set in a machine another invokes; the flattener marks the cancels
	// (cancelMarks), the composer replaces them.
	stop []ast.Stmt
}

// HistoryValue is what one history state recorded.
type HistoryValue struct {
	History string
	States  []string
}

// Transition is an MLM transition. Guard is evaluated when the event
// arrives; Action may contain assume statements where a later eventless
// condition reads what the action wrote.
type Transition struct {
	Key     string
	Source  *State // nil for an initial transition
	Target  *State
	Event   string     // "" for an initial transition
	Guard   ast.Expr   // nil means true
	Action  *ast.Block // never nil
	Origins []string   // statechart transitions per microstep, "+"-joined
	// Entered lists the statechart states the macrostep enters, in the
	// order the SCXML algorithm enters them, across all its microsteps: a
	// state entered and left again within the macrostep is here although
	// no configuration the machine rests in contains it.
	Entered []string
	Pos     source.Pos // the first originating statechart transition

	raised []string // the conds that failed on some values only (branch.raised), for Key
}

// State returns the named MLM state, or nil.
func (m *Machine) State(name string) *State { return m.byName[name] }

// Event returns the named event, or nil.
func (m *Machine) Event(name string) *model.Event {
	for _, e := range m.Events {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// SetsTimers reports whether the machine has delayed sends to itself:
// only then does time matter to it.
func (m *Machine) SetsTimers() bool {
	return slices.ContainsFunc(m.Events, func(e *model.Event) bool { return e.Kinds&model.Timer != 0 })
}

// InputEvents returns the input alphabet: the events the environment may
// send (docs/architecture.md §Inputs).
func (m *Machine) InputEvents() []*model.Event {
	var out []*model.Event
	for _, e := range m.Events {
		if e.Kinds&model.Input != 0 {
			out = append(out, e)
		}
	}
	return out
}

// RenameRaised returns a copy of b whose raise statements raise event(e)
// for their event e: how a version that renamed a state raises its
// done.state.<id> (b itself when event renames none).
func RenameRaised(b *ast.Block, event func(string) string) *ast.Block {
	renames := false
	ast.Inspect(b, func(n ast.Node) bool {
		if r, ok := n.(*ast.Raise); ok && event(r.Event) != r.Event {
			renames = true
		}
		return !renames
	})
	if !renames {
		return b
	}
	out := ast.RewriteBlock(b, func(x ast.Expr) ast.Expr { return x }) // a copy
	ast.Inspect(out, func(n ast.Node) bool {
		if r, ok := n.(*ast.Raise); ok {
			r.Event = event(r.Event)
		}
		return true
	})
	return out
}
