// Package interp is setbot's reference interpreter: it runs a statechart
// (the IR of package model) directly, by the algorithm of W3C, State Chart
// XML (SCXML): State Machine Notation for Control Abstraction, 2015,
// Appendix D: the event loop, macrosteps and microsteps, transition
// selection in document order with inner states before outer ones,
// conflict removal, exit and entry sets, transition domains, shallow and
// deep history, done.state events, and the internal and external queues.
//
// Semantics have two implementations on purpose (docs/architecture.md §Semantics): the
// flattener (model/mlm), which the symbolic executor runs, and this
// interpreter. They share no code but the IR, the action language (package
// lang) and its concrete executor (sim.Executor); a differential test keeps
// them equal, and where they differ the specification decides.
//
// The machine lives in setbot's environment (README.md, "Models"):
//
//   - The environment sends one event at a time: an input of the machine's
//     alphabet, with exactly its declared arguments, or a pending timer.
//     Every delayed send is its own pending timer; of the pending timers of
//     one name the oldest fires, with the arguments it was set with. A
//     cancel removes every pending timer sent with its send id.
//   - One step is that event's macrostep, then run-to-completion: raised
//     events (the internal queue) and eventless transitions as the
//     algorithm interleaves them, then the events the machine sent itself
//     without a delay (its own external queue), each with its own
//     macrostep, until both queues are empty.
//   - An event nothing takes is discarded, as SCXML discards it: one that
//     enables no transition, one that is not in the machine's alphabet
//     (it never reaches the queue), and any event after the machine has
//     stopped. The step says why.
//   - Entering a top-level final state stops the machine: the remaining
//     states run their exit actions (innermost first) and the queues and
//     timers are dropped.
//   - Sends to any other target are the machine's outputs, but for those
//     to #_parent in an invoked machine and to #_ID of an invoke.
//   - The machines the statechart invokes run as sessions of their own
//     (session.go), in the order model/mlm's composed machine fixes.
//
// Errors in code (an integer overflow, a loop past its bound) and steps
// that do not settle within a bound of microsteps are errors, after which
// the machine is as it was before the step.
package interp

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// Options bound a run, as they bound one of the flattened machine's
// simulator: the same type, so both executors are run with the same bounds.
type Options = sim.Options

// Step is what one event from the environment (or the start) did, across
// every microstep of the macrosteps it caused.
type Step struct {
	Input sim.Event // as the environment sent it; zero Name for the start step
	// Transitions has one entry per microstep: the ids of the statechart
	// transitions it took (model.Transition.ID), "+"-joined in the order
	// they were selected.
	Transitions []string
	Exited      []string     // states exited, in order
	Entered     []string     // states entered, in order
	Outputs     []sim.Output // in order
	// Config is the active atomic states after the step, sorted; once the
	// machine has stopped, those it stopped in (before its states were
	// exited).
	Config []string
	Halted bool // the machine has stopped in a top-level final state
	// Discarded says why the input was discarded: nothing took it and
	// nothing followed (no eventless transition its _event enabled);
	// empty otherwise.
	Discarded string
	At        int64 // when the step happened, in ms since the start (timed)
}

// Interp is a running statechart.
//
// It is a sim.Stepper, as the flattened machine is.
type Interp struct {
	m    *model.Model
	opts Options
	cur  *machine
}

// machine is one session's state: the top machine's, or that of a machine
// it invokes (session.go). The top machine's, with every session below it,
// is copied for each step so that a failed step leaves it as it was.
type machine struct {
	active   map[*model.State]bool           // the configuration; the root is implicit
	hist     map[*model.State][]*model.State // historyValue, by history state
	vars     map[string]sim.Value
	event    *sim.Event // _event: the event processed last
	internal []sim.Event
	timers   []sim.Timer // pending, in the order they were set
	now      int64       // ms since the start (timed)
	halted   bool
	stopped  []string // the atomic states the machine stopped in

	// queue, in the top session only, holds the events the sessions sent
	// to their own external queues, their parent's or a child's, in the
	// order they were sent.
	queue []delivery

	m        *model.Model
	inv      *model.Invoke // the invoke that started the session; nil for the top one
	parent   *machine
	prefix   string          // of its states and variables in reports: "" at the top, "sub." for child sub
	invs     []*model.Invoke // m.Invokes()
	kids     []*machine      // the child session of each of invs, nil where none runs
	invoking map[*model.State]bool
	// done is set when the session reached a top-level final state,
	// cancelled when its parent left the invoking state while it ran.
	done, cancelled bool
}

// newMachine is a session of m, before it starts.
func newMachine(m *model.Model) *machine {
	return &machine{m: m, active: make(map[*model.State]bool), hist: make(map[*model.State][]*model.State),
		vars: make(map[string]sim.Value), invs: m.Invokes(), kids: make([]*machine, len(m.Invokes())), invoking: make(map[*model.State]bool)}
}

// clone copies the session tree below c (the top session), with the
// sessions its queue names.
func (c *machine) clone() *machine {
	memo := make(map[*machine]*machine)
	d := c.copyInto(memo)
	for i, q := range d.queue {
		d.queue[i].to = q.to.copyInto(memo)
		if q.from != nil {
			d.queue[i].from = q.from.copyInto(memo)
		}
	}
	return d
}

func (c *machine) copyInto(memo map[*machine]*machine) *machine {
	if d, ok := memo[c]; ok {
		return d
	}
	d := *c
	memo[c] = &d
	d.active = make(map[*model.State]bool, len(c.active))
	for s := range c.active {
		d.active[s] = true
	}
	d.hist = make(map[*model.State][]*model.State, len(c.hist))
	for h, v := range c.hist {
		d.hist[h] = v
	}
	d.vars = make(map[string]sim.Value, len(c.vars))
	for k, v := range c.vars {
		d.vars[k] = v
	}
	d.invoking = make(map[*model.State]bool, len(c.invoking))
	for s := range c.invoking {
		d.invoking[s] = true
	}
	d.internal = slices.Clone(c.internal)
	d.queue = slices.Clone(c.queue)
	d.timers = slices.Clone(c.timers)
	if c.parent != nil {
		d.parent = c.parent.copyInto(memo)
	}
	d.kids = make([]*machine, len(c.kids))
	for i, k := range c.kids {
		if k != nil {
			d.kids[i] = k.copyInto(memo)
		}
	}
	return &d
}

// New starts m: the variables take their initial values, the top-level
// script runs and the initial states are entered, then the machine runs
// to completion. It returns the interpreter and the start step.
func New(m *model.Model, opts Options) (*Interp, Step, error) {
	in := &Interp{m: m, opts: opts.WithDefaults()}
	c := newMachine(m)
	if err := initVars(c); err != nil {
		return nil, Step{}, err
	}
	if err := check(m); err != nil {
		return nil, Step{}, err
	}
	r := &run{in: in, c: c, st: &stepState{}}
	if err := r.start(); err != nil {
		return nil, Step{}, fmt.Errorf("starting the machine: %w", err)
	}
	if err := r.selfQueue(); err != nil {
		return nil, Step{}, fmt.Errorf("starting the machine: %w", err)
	}
	in.cur = c
	return in, in.finish(r.st.step), nil
}

// initVars gives a session's variables their initial values.
func initVars(c *machine) error {
	init := &sim.Executor{Vars: map[string]sim.Value{}, Source: c.m}
	for _, v := range c.m.Vars {
		val, err := init.Eval(v.Init)
		if err != nil {
			return fmt.Errorf("initial value of %s%s: %w", c.prefix, v.Name, err)
		}
		c.vars[v.Name] = val
	}
	return nil
}

// check refuses the statecharts the algorithm cannot run: no initial
// state, a compound state without a default entry, a history state without
// a default transition, and history states whose default transitions lead
// from one to the other in a cycle. Its errors are *source.Error, at the
// state at fault.
func check(m *model.Model) error {
	if m.Root == nil || m.Root.Initial == nil {
		return fmt.Errorf("the machine has no initial state")
	}
	for _, inv := range m.Invokes() {
		if err := check(inv.Child); err != nil {
			return err
		}
	}
	for _, s := range m.States() {
		switch {
		case s.Kind == model.Compound && s.Initial == nil:
			return modelError(m, s, "compound state %s has no initial state", s.ID)
		case s.Kind == model.History && len(s.Transitions) == 0:
			return modelError(m, s, "history state %s has no default transition", s.ID)
		case s.Kind == model.History:
			if err := checkHistoryChain(m, s, []*model.State{s}); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkHistoryChain follows the history states that h's default transition
// targets, refusing a cycle.
func checkHistoryChain(m *model.Model, h *model.State, chain []*model.State) error {
	for _, t := range h.Transitions[0].Targets {
		if t.Kind != model.History {
			continue
		}
		if slices.Contains(chain, t) {
			ids := make([]string, 0, len(chain)+1)
			for _, c := range append(chain, t) {
				ids = append(ids, c.ID)
			}
			return modelError(m, chain[0], "the default transitions of history states lead in a cycle: %s", strings.Join(ids, " -> "))
		}
		if len(t.Transitions) == 0 {
			return modelError(m, t, "history state %s has no default transition", t.ID)
		}
		if err := checkHistoryChain(m, t, append(chain, t)); err != nil {
			return err
		}
	}
	return nil
}

// modelError is an error in the statechart, at state s.
func modelError(m *model.Model, s *model.State, format string, args ...any) error {
	return &source.Error{Pos: m.Position(s.Pos), Msg: fmt.Sprintf(format, args...)}
}

// StepAt sends one event from the environment: an input event with
// exactly its declared arguments, or a pending timer without arguments.
// The event is processed, then the machine runs to completion. An event
// nothing takes is discarded and the step says why. On error the machine
// is left as it was. at is when the event comes, in ms since the start, by
// the rules of sim.When (timed; nil: at once); untimed, at is not read.
func (in *Interp) StepAt(ev sim.Event, at *int64) (Step, error) {
	ev.Args = copyArgs(ev.Args) // accept converts ints for decimal parameters in it
	if in.cur.halted {
		return in.discard(ev, fmt.Sprintf("the machine has stopped (in final state %s)", strings.Join(in.cur.stopped, ","))), nil
	}
	timer, why, err := in.accept(ev)
	if err != nil {
		return Step{}, err
	}
	input := sim.Event{Name: ev.Name, Args: copyArgs(ev.Args)}
	if why != "" {
		return in.discard(input, why), nil
	}
	now, next := in.cur.now, -1
	if in.opts.Time != vocab.TimeUntimed {
		if now, next, err = sim.When(in.cur.timers, in.cur.now, ev.Name, timer, at); err != nil {
			return Step{}, err
		}
	}
	c := in.cur.clone()
	c.now = now
	r := &run{in: in, c: c, st: &stepState{step: Step{Input: input}}}
	var taken bool
	if timer {
		i := next
		if i < 0 { // untimed: the oldest of that name
			i = slices.IndexFunc(c.timers, func(t sim.Timer) bool { return t.Name == ev.Name })
		}
		t := c.timers[i]
		c.timers = slices.Delete(c.timers, i, i+1)
		taken, err = r.fire(t)
	} else {
		taken, err = r.external(input, nil)
	}
	if err != nil {
		return Step{}, fmt.Errorf("event %s: %w", input, err)
	}
	if !taken && len(r.st.step.Transitions) == 0 && !r.st.forwarded {
		// A matching transition exists (accept saw to it for events that are
		// not inputs), but no condition held.
		r.st.step.Discarded = "no transition of " + in.configName() + " takes it"
		if in.matched(ev.Name) {
			r.st.step.Discarded += " (every condition is false)"
		}
	}
	if err := r.selfQueue(); err != nil {
		return Step{}, fmt.Errorf("event %s: %w", input, err)
	}
	in.cur = c
	return in.finish(r.st.step), nil
}

// accept checks that the environment may send ev now. It reports whether
// ev fires a pending timer, or why it is discarded without reaching the
// machine's queue. An input is taken as one even when a timer of the same
// name is pending, unless ev's Meta is Self, which stands for the timer.
func (in *Interp) accept(ev sim.Event) (timer bool, discard string, err error) {
	e := in.m.EventByName(ev.Name)
	if ev.Meta.Self {
		return true, "", sim.CheckTimer(ev, in.cur.timers)
	}
	if e == nil && slices.ContainsFunc(in.cur.timers, func(t sim.Timer) bool { return t.Name == ev.Name }) {
		if len(ev.Args) > 0 {
			return false, "", fmt.Errorf("timer %s takes no arguments: it fires with those it was set with", ev.Name)
		}
		return true, "", nil // a timer of a child session
	}
	if e == nil {
		return false, "the machine has no such event", nil
	}
	if e.Kinds&model.Input != 0 {
		return false, "", sim.CheckArgs(e, ev.Args)
	}
	if e.Kinds&model.Timer != 0 && slices.ContainsFunc(in.cur.timers, func(t sim.Timer) bool { return t.Name == ev.Name }) {
		if len(ev.Args) > 0 {
			return false, "", fmt.Errorf("timer %s takes no arguments: it fires with those it was set with", ev.Name)
		}
		return true, "", nil
	}
	if !in.matched(ev.Name) {
		return false, "no transition of " + in.configName() + " takes it", nil
	}
	switch {
	case e.Kinds&model.Timer != 0:
		return false, "", fmt.Errorf("timer %s is not pending: no delayed send has set it since it last fired", ev.Name)
	case e.Kinds&model.Internal != 0:
		return false, "", fmt.Errorf("event %s is internal: only the machine raises it", ev.Name)
	case e.Kinds&model.Self != 0:
		return false, "", fmt.Errorf("event %s is one the machine sends itself, not an input", ev.Name)
	}
	return false, "", fmt.Errorf("event %s is not an input of the machine", ev.Name)
}

// matched reports whether a transition of an active state has a descriptor
// that matches the event name, whatever its condition.
func (in *Interp) matched(name string) bool {
	for s := range in.cur.active {
		for _, t := range s.Transitions {
			if !t.Eventless() && t.Matches(name) {
				return true
			}
		}
	}
	return false
}

// discard is the step of an event that never reaches the machine.
func (in *Interp) discard(ev sim.Event, why string) Step {
	return in.finish(Step{Input: ev, Discarded: why})
}

func (in *Interp) finish(step Step) Step {
	step.Config = in.Config()
	step.Halted = in.cur.halted
	step.At = in.cur.now
	return step
}

// Config returns the active atomic states, sorted, with those of the
// running child sessions under their scoped ids (sub.s0); once the machine
// has stopped, those it stopped in.
func (in *Interp) Config() []string {
	if in.cur.halted {
		return slices.Clone(in.cur.stopped)
	}
	var out []string
	in.cur.walk(func(c *machine) {
		for _, id := range atomicIDs(c.active) {
			out = append(out, c.prefix+id)
		}
	})
	sort.Strings(out)
	return out
}

func (in *Interp) configName() string { return strings.Join(in.Config(), ",") }

// Vars returns a copy of the machine's variables (setbot simulate --vars
// prints them), with those of the running child sessions under their
// scoped names (sub.x).
func (in *Interp) Vars() map[string]sim.Value {
	out := make(map[string]sim.Value)
	in.cur.walk(func(c *machine) {
		for k, v := range c.vars {
			out[c.prefix+k] = v
		}
	})
	return out
}

var _ sim.Stepper[Step] = (*Interp)(nil)

// Timed says whether steps have times: the time semantics is timed and
// the statechart sets timers.
func (in *Interp) Timed() bool {
	return in.opts.Time != vocab.TimeUntimed &&
		slices.ContainsFunc(in.m.Events, func(e *model.Event) bool { return e.Kinds&model.Timer != 0 })
}

// PendingTimers returns the names of the timers the environment may fire,
// one per pending timer (a name twice when two are pending), sorted: a
// child session's under its invoke id (sub/e), and its delayed sends to its
// parent as sub/#_parent/e. The top session holds the timers of every
// session, in the order they were set.
func (in *Interp) PendingTimers() []string {
	names := make([]string, 0, len(in.cur.timers))
	for _, t := range in.cur.timers {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}

// NextTimer returns the timer that fires next, timed: the one due first,
// the earliest set among equals; false when none is pending.
func (in *Interp) NextTimer() (sim.Timer, bool) {
	if i := sim.Next(in.cur.timers); i >= 0 {
		return in.cur.timers[i], true
	}
	return sim.Timer{}, false
}

// atomicIDs returns the ids of the atomic states in a configuration,
// sorted.
func atomicIDs(active map[*model.State]bool) []string {
	var out []string
	for s := range active {
		if s.IsAtomic() {
			out = append(out, s.ID)
		}
	}
	sort.Strings(out)
	return out
}

// copyArgs returns a copy of args that is never nil.
func copyArgs(args map[string]sim.Value) map[string]sim.Value {
	out := make(map[string]sim.Value, len(args))
	for k, v := range args {
		out[k] = v
	}
	return out
}
