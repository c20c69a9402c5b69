package interp

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// run is one step in progress: the procedures of SCXML Appendix D over a
// copy of the machine, recording what the step did.
type run struct {
	in *Interp
	c  *machine // the session whose procedures run
	st *stepState
}

// stepState is what the sessions of one step share: the step's record,
// the microsteps counted so far, and the internal events taken off the
// queue so far (queued), which the microsteps bound limits too: an
// internal event that no transition takes is no microstep, and a cond
// that fails raises error.execution each time it is evaluated, so a
// machine can go on taking such events without end.
type stepState struct {
	step       Step
	microsteps int
	queued     int
	// forwarded is set when an input was forwarded to a child (autoforward):
	// then it is not discarded.
	forwarded bool
}

// at is the run of the same step in session c.
func (r *run) at(c *machine) *run { return &run{in: r.in, c: c, st: r.st} }

// start is the algorithm's interpret() for the session: the root's
// initial transition, which carries the top-level script, enters the
// initial states; then the initial macrostep runs. The top session then
// runs to completion (New).
func (r *run) start() error {
	if err := r.microstep([]*model.Transition{r.c.m.Root.Initial}); err != nil {
		return err
	}
	return r.macrostep()
}

// external processes one event from outside the internal queue (the
// environment's, one the machine sent itself, or one from a child
// session, from): the invoke's finalize and autoforwarding, its
// transitions, then the rest of its macrostep. It reports whether a
// transition took the event.
func (r *run) external(ev sim.Event, from *machine) (bool, error) {
	r.c.event = &ev
	if err := r.beforeTransitions(ev, from); err != nil {
		return false, err
	}
	ts, err := r.selectTransitions(ev.Name)
	if err != nil {
		return false, err
	}
	if len(ts) > 0 {
		if err := r.microstep(ts); err != nil {
			return false, err
		}
	}
	return len(ts) > 0, r.macrostep()
}

// selfQueue processes the events the sessions sent (themselves, their
// parent or their children), each as an external event of its session with
// its own macrostep, until none is left. The sessions share one queue, in
// the order the events were sent (sessionsQueue).
func (r *run) selfQueue() error {
	top := r.c.root()
	for !top.halted && len(top.queue) > 0 {
		d := top.queue[0]
		top.queue = top.queue[1:]
		if !d.to.live() || d.from != nil && d.from.cancelled {
			continue // a session that ended takes nothing; a cancelled child's events are dropped
		}
		if _, err := r.at(d.to).external(d.ev, d.from); err != nil {
			return fmt.Errorf("%s event %s: %w", d.kind(), d.ev, err)
		}
	}
	return nil
}

// macrostep is the inner loop of mainEventLoop: eventless transitions
// first, then one internal event, until neither enables a transition.
func (r *run) macrostep() error {
	for !r.c.halted {
		ts, err := r.selectTransitions("")
		if err != nil {
			return err
		}
		if len(ts) == 0 {
			r.staleEvents()
			if len(r.c.internal) == 0 {
				// The macrostep ends: the children of the states it
				// entered and did not leave start; an invoke that fails
				// raises error.execution, and the macrostep goes on.
				if err := r.invokePending(); err != nil || len(r.c.internal) == 0 {
					return err
				}
				continue
			}
			ev := r.c.internal[0]
			r.c.internal = r.c.internal[1:]
			if r.st.queued++; r.st.queued > r.in.opts.MaxMicrosteps {
				return fmt.Errorf("the step did not settle within %d queued events (next: %s)", r.in.opts.MaxMicrosteps, ev.Name)
			}
			r.c.event = &ev
			if ts, err = r.selectTransitions(ev.Name); err != nil {
				return fmt.Errorf("internal event %s: %w", ev, err)
			}
		}
		if len(ts) > 0 {
			if err := r.microstep(ts); err != nil {
				return err
			}
		}
	}
	r.staleEvents()
	return nil
}

// staleEvents ends the processing of the event being processed for the
// _event objects stored in variables: each becomes an earlier event's
// (model.Var.EventRef), as the flattener has it at the end of every
// transition that processes an event.
func (r *run) staleEvents() {
	if r.c.event == nil {
		return
	}
	for _, v := range r.c.m.Vars {
		if v.EventRef {
			r.c.vars[v.Name] = sim.IntValue(lower.EventStale)
		}
	}
}

// selectTransitions is the algorithm's selectTransitions (event != "") or
// selectEventlessTransitions (event == ""): each active atomic state, in
// document order, takes the first transition, from itself outwards and in
// document order within a state, that matches and whose condition holds;
// conflicts are then removed.
func (r *run) selectTransitions(event string) ([]*model.Transition, error) {
	var enabled []*model.Transition
	for _, a := range r.atomic() {
	loop:
		for s := a; s != nil; s = s.Parent {
			for _, t := range s.Transitions {
				if event == "" && !t.Eventless() || event != "" && (t.Eventless() || !t.Matches(event)) {
					continue
				}
				ok, err := r.condition(t)
				if err != nil {
					return nil, err
				}
				if ok {
					if !slices.Contains(enabled, t) {
						enabled = append(enabled, t)
					}
					break loop
				}
			}
		}
	}
	return r.removeConflicting(enabled), nil
}

// atomic returns the active atomic states in document order.
func (r *run) atomic() []*model.State {
	var out []*model.State
	for s := range r.c.active {
		if s.IsAtomic() {
			out = append(out, s)
		}
	}
	byDocument(out)
	return out
}

// condition evaluates a transition's cond (none is true). A cond whose
// evaluation fails (always, or where FailsWhen holds) is false and places
// error.execution on the internal queue (SCXML §5.9).
func (r *run) condition(t *model.Transition) (bool, error) {
	if t.Cond == nil {
		return true, nil
	}
	if t.CondFails {
		r.c.internal = append(r.c.internal, sim.Event{Name: model.ErrorExecution, Args: map[string]sim.Value{}})
		return false, nil
	}
	x := r.executor(t.Pos)
	if t.FailsWhen != nil {
		fails, err := x.EvalBool(t.FailsWhen)
		if err != nil {
			return false, fmt.Errorf("condition of transition %s: %w", t.ID, err)
		}
		if fails {
			r.c.internal = append(r.c.internal, sim.Event{Name: model.ErrorExecution, Args: map[string]sim.Value{}})
			return false, nil
		}
	}
	ok, err := x.EvalBool(t.Cond)
	if err != nil {
		return false, fmt.Errorf("condition of transition %s: %w", t.ID, err)
	}
	return ok, nil
}

// removeConflicting is removeConflictingTransitions: of two transitions
// whose exit sets intersect, the one whose source is a descendant of the
// other's wins, otherwise the one selected first.
func (r *run) removeConflicting(enabled []*model.Transition) []*model.Transition {
	var filtered []*model.Transition
	for _, t1 := range enabled {
		preempted := false
		var remove []*model.Transition
		x1 := r.exitSet([]*model.Transition{t1})
		for _, t2 := range filtered {
			if intersects(x1, r.exitSet([]*model.Transition{t2})) {
				if t1.Source.IsDescendant(t2.Source) {
					remove = append(remove, t2)
				} else {
					preempted = true
					break
				}
			}
		}
		if preempted {
			continue
		}
		filtered = slices.DeleteFunc(filtered, func(t *model.Transition) bool { return slices.Contains(remove, t) })
		filtered = append(filtered, t1)
	}
	return filtered
}

func intersects(a, b []*model.State) bool {
	for _, s := range a {
		if slices.Contains(b, s) {
			return true
		}
	}
	return false
}

// microstep exits the exit set (recording history first), runs the
// transitions' content in selection order, and enters the entry set.
func (r *run) microstep(ts []*model.Transition) error {
	r.st.microsteps++
	ids := make([]string, len(ts))
	for i, t := range ts {
		ids[i] = r.c.prefix + t.ID
	}
	taken := strings.Join(ids, "+")
	if r.st.microsteps > r.in.opts.MaxMicrosteps {
		return fmt.Errorf("the step did not settle within %d microsteps (next: %s)", r.in.opts.MaxMicrosteps, taken)
	}
	r.st.step.Transitions = append(r.st.step.Transitions, taken)
	if err := r.exitStates(ts); err != nil {
		return err
	}
	for _, t := range ts {
		if err := r.exec(t.Body, t.Pos); err != nil {
			return fmt.Errorf("transition %s: %w", t.ID, err)
		}
	}
	if err := r.enterStates(ts); err != nil {
		return err
	}
	if r.c.halted {
		return r.exitInterpreter()
	}
	return nil
}

// exitStates is the algorithm's exitStates.
func (r *run) exitStates(ts []*model.Transition) error {
	exit := r.exitSet(ts)
	sort.Slice(exit, func(i, j int) bool { return exit[i].Order > exit[j].Order })
	for _, s := range exit {
		for _, h := range s.HistoryStates() {
			var rec []*model.State
			for a := range r.c.active {
				if h.Deep && a.IsAtomic() && a.IsDescendant(s) || !h.Deep && a.Parent == s {
					rec = append(rec, a)
				}
			}
			byDocument(rec)
			r.c.hist[h] = rec
		}
	}
	for _, s := range exit {
		if err := r.exitState(s); err != nil {
			return err
		}
	}
	return nil
}

// exitState runs a state's exit actions and removes it from the
// configuration.
func (r *run) exitState(s *model.State) error {
	for _, b := range s.OnExit {
		if err := r.exec(b, s.Pos); err != nil {
			return fmt.Errorf("onexit of %s: %w", s.ID, err)
		}
	}
	delete(r.c.active, s)
	r.st.step.Exited = append(r.st.step.Exited, r.c.prefix+s.ID)
	return r.cancelInvokes(s)
}

// exitSet is computeExitSet: the active states below each transition's
// domain, targetless transitions exiting nothing.
func (r *run) exitSet(ts []*model.Transition) []*model.State {
	var out []*model.State
	for _, t := range ts {
		if len(t.Targets) == 0 {
			continue
		}
		dom := r.domain(t)
		if dom == nil {
			continue
		}
		for s := range r.c.active {
			if s.IsDescendant(dom) && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	byDocument(out)
	return out
}

// domain is getTransitionDomain. The document's initial transition, whose
// source is the <scxml> element, has the root as its domain: the root is
// never entered or exited.
func (r *run) domain(t *model.Transition) *model.State {
	if t.Source.Kind == model.Root {
		return t.Source
	}
	targets := r.effectiveTargets(t)
	if len(targets) == 0 {
		return nil
	}
	if t.Type == model.TransitionInternal && t.Source.IsCompound() &&
		!slices.ContainsFunc(targets, func(s *model.State) bool { return !s.IsDescendant(t.Source) }) {
		return t.Source
	}
	return findLCCA(append([]*model.State{t.Source}, targets...))
}

// findLCCA is the least compound ancestor (the root included) of all the
// states, a proper ancestor of the first.
func findLCCA(states []*model.State) *model.State {
	for _, anc := range states[0].ProperAncestors(nil) {
		if !anc.IsCompound() {
			continue
		}
		if !slices.ContainsFunc(states[1:], func(s *model.State) bool { return !s.IsDescendant(anc) }) {
			return anc
		}
	}
	return nil
}

// effectiveTargets is getEffectiveTargetStates: a history target stands for
// what it recorded, or for its default transition's targets.
func (r *run) effectiveTargets(t *model.Transition) []*model.State {
	var out []*model.State
	add := func(s *model.State) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, s := range t.Targets {
		switch {
		case s.Kind != model.History:
			add(s)
		case r.c.hist[s] != nil:
			for _, h := range r.c.hist[s] {
				add(h)
			}
		case len(s.Transitions) > 0:
			for _, h := range r.effectiveTargets(s.Transitions[0]) {
				add(h)
			}
		}
	}
	return out
}

// entrySet is what computeEntrySet builds.
type entrySet struct {
	r              *run
	enter          []*model.State
	defaultEntry   map[*model.State]bool
	historyContent map[*model.State]*model.Transition // by the history's parent
}

func (e *entrySet) add(s *model.State) {
	if !slices.Contains(e.enter, s) {
		e.enter = append(e.enter, s)
	}
}

// enterStates is the algorithm's enterStates, done.state events included.
func (r *run) enterStates(ts []*model.Transition) error {
	e := &entrySet{r: r, defaultEntry: make(map[*model.State]bool), historyContent: make(map[*model.State]*model.Transition)}
	for _, t := range ts {
		for _, s := range t.Targets {
			e.addDescendants(s)
		}
		dom := r.domain(t)
		for _, s := range r.effectiveTargets(t) {
			e.addAncestors(s, dom)
		}
	}
	byDocument(e.enter)
	for _, s := range e.enter {
		r.c.active[s] = true
		r.st.step.Entered = append(r.st.step.Entered, r.c.prefix+s.ID)
		if len(s.Invokes) > 0 {
			r.c.invoking[s] = true
		}
		for _, b := range s.OnEntry {
			if err := r.exec(b, s.Pos); err != nil {
				return fmt.Errorf("onentry of %s: %w", s.ID, err)
			}
		}
		if e.defaultEntry[s] {
			if err := r.exec(s.Initial.Body, s.Initial.Pos); err != nil {
				return fmt.Errorf("initial transition of %s: %w", s.ID, err)
			}
		}
		if h := e.historyContent[s]; h != nil {
			if err := r.exec(h.Body, h.Pos); err != nil {
				return fmt.Errorf("default history transition in %s: %w", s.ID, err)
			}
		}
		if s.Kind != model.Final {
			continue
		}
		parent := s.Parent
		if parent.Kind == model.Root {
			r.c.halted = true
			continue
		}
		if err := r.exec(&ast.Block{Stmts: []ast.Stmt{s.DoneRaise()}}, s.Pos); err != nil {
			return fmt.Errorf("donedata of %s: %w", s.ID, err)
		}
		if gp := parent.Parent; gp != nil && gp.Kind == model.Parallel && r.inFinal(gp) {
			r.c.internal = append(r.c.internal, sim.Event{Name: "done.state." + gp.ID, Args: map[string]sim.Value{}, Meta: model.Meta{Type: model.TypePlatform}})
		}
	}
	return nil
}

// addDescendants is addDescendantStatesToEnter.
func (e *entrySet) addDescendants(s *model.State) {
	if s.Kind == model.History {
		if rec := e.r.c.hist[s]; rec != nil {
			for _, h := range rec {
				e.addDescendants(h)
			}
			for _, h := range rec {
				e.addAncestors(h, s.Parent)
			}
			return
		}
		dt := s.Transitions[0] // check saw to it that there is one
		e.historyContent[s.Parent] = dt
		for _, t := range dt.Targets {
			e.addDescendants(t)
		}
		for _, t := range dt.Targets {
			e.addAncestors(t, s.Parent)
		}
		return
	}
	e.add(s)
	switch {
	case s.IsCompound():
		e.defaultEntry[s] = true
		for _, t := range s.Initial.Targets {
			e.addDescendants(t)
		}
		for _, t := range s.Initial.Targets {
			e.addAncestors(t, s)
		}
	case s.Kind == model.Parallel:
		e.enterRegions(s)
	}
}

// addAncestors is addAncestorStatesToEnter: the proper ancestors of s
// below anc (the root is never entered).
func (e *entrySet) addAncestors(s, anc *model.State) {
	for _, a := range s.ProperAncestors(anc) {
		if a.Kind == model.Root {
			continue
		}
		e.add(a)
		if a.Kind == model.Parallel {
			e.enterRegions(a)
		}
	}
}

// enterRegions enters by default every child of a parallel state that no
// state already chosen for entry is a descendant of.
func (e *entrySet) enterRegions(p *model.State) {
	for _, child := range p.ChildStates() {
		if !slices.ContainsFunc(e.enter, func(s *model.State) bool { return s.IsDescendant(child) }) {
			e.addDescendants(child)
		}
	}
}

// inFinal is isInFinalState.
func (r *run) inFinal(s *model.State) bool {
	switch {
	case s.IsCompound():
		return slices.ContainsFunc(s.ChildStates(), func(k *model.State) bool { return k.Kind == model.Final && r.c.active[k] })
	case s.Kind == model.Parallel:
		return !slices.ContainsFunc(s.ChildStates(), func(k *model.State) bool { return !r.inFinal(k) })
	}
	return false
}

// exitInterpreter runs when a top-level final state has been entered: every
// active state exits, innermost first, and the queues and timers are
// dropped.
func (r *run) exitInterpreter() error {
	r.c.stopped = atomicIDs(r.c.active)
	if err := r.stop(); err != nil {
		return err
	}
	r.c.queue, r.c.timers = nil, nil
	return r.ended()
}

// executor returns the action language's executor over the machine, with
// In() answered by the current configuration and raises and sends routed
// to the queues, the timers and the step's outputs.
func (r *run) executor(fallback source.Pos) *sim.Executor {
	return &sim.Executor{
		Vars:      r.c.vars,
		Event:     r.c.event,
		In:        r.isActive,
		Emit:      r.emit,
		Cancel:    r.cancel,
		LoopLimit: r.in.opts.LoopLimit,
		Timed:     r.in.opts.Time != vocab.TimeUntimed,
		Source:    r.c.m,
		Fallback:  fallback,
	}
}

// exec runs executable content.
func (r *run) exec(b *ast.Block, fallback source.Pos) error {
	err := r.executor(fallback).Run(b)
	if errors.Is(err, sim.ErrAssumeFailed) {
		return fmt.Errorf("assume statement in a statechart (only the flattener emits them)")
	}
	return err
}

func (r *run) isActive(id string) (bool, error) {
	// In() of no state of the model is false, as ECMAScript's In is (the
	// reader warns of it); r.c.active has no entry for a nil state.
	return r.c.active[r.c.m.State(id)], nil
}

func (r *run) emit(route sim.Route, ev sim.Event, target, sendID string, delay int64) {
	switch {
	case route == sim.ToInternal:
		r.c.internal = append(r.c.internal, ev)
	case route == sim.ToSelf:
		r.c.root().deliver(r.c, ev, nil)
	case route == sim.ToTimer && target == model.TargetParent && r.c.parent != nil:
		r.c.setTimer(model.TargetParent+"/", ev, sendID, delay)
	case route == sim.ToTimer && target != "":
		// A machine nobody invokes: an output, whose delay it does not
		// observe.
		r.st.step.Outputs = append(r.st.step.Outputs, sim.Output{Event: ev.Name, Target: target, Args: ev.Args})
	case route == sim.ToTimer:
		r.c.setTimer("", ev, sendID, delay)
	case target == model.TargetParent && r.c.parent != nil:
		r.c.root().deliver(r.c.parent, fromChild(r.c, ev), r.c)
	case r.c.invoke(target) >= 0:
		r.sendToChild(r.c.invoke(target), ev)
	default:
		r.st.step.Outputs = append(r.st.step.Outputs, sim.Output{Event: ev.Name, Target: target, Args: ev.Args})
	}
}

// cancel removes the pending timers sent with the id (SCXML's <cancel>).
func (r *run) cancel(sendID string, prefix bool) {
	top := r.c.root()
	top.timers = sim.CancelTimers(top.timers, r.c.timerPrefix()+sendID, prefix)
}

// byDocument sorts states in document order.
func byDocument(list []*model.State) {
	sort.Slice(list, func(i, j int) bool { return list[i].Order < list[j].Order })
}
