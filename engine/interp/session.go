package interp

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
)

// Invoked machines (SCXML §6.4) run as sessions of their own, each with
// its configuration, data model, internal queue and timers, by the
// procedures of Appendix D:
//
//   - at the end of a macrostep, the invokes of the states it entered and
//     did not leave start, in document order: the idlocation is assigned,
//     the child's data model is initialised, then the params set, and the
//     child runs its initial macrostep (and starts its own children);
//   - exiting a state cancels its running children, after its exit
//     actions: a cancelled child exits its states, running their exit
//     actions (their outputs happen; the events they send are not
//     processed), then does nothing more, its timers are gone, and its
//     events still queued are not processed;
//   - the events queued for a session that ended go to no later session
//     of the same invoke (a delivery names its session);
//   - an event from a child runs the invoke's finalize before its parent
//     selects transitions, and every external event a session takes is
//     forwarded to its children that run with autoforward;
//   - a child that reaches a top-level final state exits its states and
//     sends its parent done.invoke.ID;
//   - a send to #_parent reaches the parent's external queue, one to #_ID
//     the child's while it runs, and raises error.communication otherwise.
//
// The sessions run concurrently in SCXML, which leaves their relative
// order open; setbot fixes one (the composed machine of model/mlm has the
// same): the external events of all sessions are taken in the order they
// were sent, each session finishing a macrostep before another starts one,
// and everything the sessions do happens before the environment's next
// input. The finalize of an invoke runs for the events that carry every
// _event.data field it reads (setbot's typed data model has no undefined
// parameter to read instead).

// delivery is an event on its way to a session's external queue.
type delivery struct {
	to, from *machine // from: the child that sent it to its parent, or nil
	ev       sim.Event
}

func (d delivery) kind() string {
	if d.from != nil {
		return "child's"
	}
	return "queued"
}

// root is the top session.
func (c *machine) root() *machine {
	for c.parent != nil {
		c = c.parent
	}
	return c
}

// deliver queues an event for session to (c is the top session).
func (c *machine) deliver(to *machine, ev sim.Event, from *machine) {
	c.queue = append(c.queue, delivery{to: to, from: from, ev: ev})
}

// live reports whether the session still takes events.
func (c *machine) live() bool { return !c.cancelled && !c.done && !c.halted }

// walk calls f on c and on every live session below it, in document order
// of the invokes.
func (c *machine) walk(f func(*machine)) {
	f(c)
	for _, k := range c.kids {
		if k != nil && k.live() {
			k.walk(f)
		}
	}
}

// timerPrefix is what the names of the session's timers begin with in
// PendingTimers: "" at the top, "sub/" for child sub.
func (c *machine) timerPrefix() string {
	if c.parent == nil {
		return ""
	}
	return c.parent.timerPrefix() + c.inv.ID + "/"
}

// setTimer sets a timer of session c, which the top session holds with the
// timers of every session, in the order they were set: its name and id are
// scoped by c's timerPrefix (then, for a delayed send to the parent, by
// "#_parent/"), as the composed machine names them.
func (c *machine) setTimer(scope string, ev sim.Event, sendID string, delay int64) {
	top := c.root()
	ev.Name = c.timerPrefix() + scope + ev.Name
	top.timers = append(top.timers, sim.Timer{Event: ev, ID: c.timerPrefix() + sendID, Due: top.now + delay})
}

// fire processes timer t, which has fired: the session that set it takes
// its event, or, for a delayed send to the parent, the parent does. It
// reports whether a transition took the event.
func (r *run) fire(t sim.Timer) (bool, error) {
	owner := r.c
	owner.walk(func(m *machine) {
		if strings.HasPrefix(t.Name, m.timerPrefix()) && len(m.timerPrefix()) > len(owner.timerPrefix()) {
			owner = m
		}
	})
	ev := t.Event
	ev.Name = strings.TrimPrefix(t.Name, owner.timerPrefix())
	if name, ok := strings.CutPrefix(ev.Name, model.TargetParent+"/"); ok && owner.parent != nil {
		ev.Name = name
		r.c.deliver(owner.parent, fromChild(owner, ev), owner)
		return true, nil // the relay is a step of its own
	}
	return r.at(owner).external(ev, nil)
}

// endTimers cancels the pending timers of session c and of the sessions
// below it, which end.
func (c *machine) endTimers() {
	top := c.root()
	top.timers = sim.CancelTimers(top.timers, c.timerPrefix(), true)
}

// invoke returns the index of the invoke a send target #_ID names, or -1.
func (c *machine) invoke(target string) int {
	id, ok := strings.CutPrefix(target, "#_")
	if !ok {
		return -1
	}
	return slices.IndexFunc(c.invs, func(inv *model.Invoke) bool { return inv.ID == id })
}

// fromChild is ev as the parent of session c receives it.
func fromChild(c *machine, ev sim.Event) sim.Event {
	meta := model.Meta{InvokeID: c.inv.ID}
	if ev.Meta.SendID != "" {
		meta.SendID = c.inv.ID + "/" + ev.Meta.SendID
	}
	return sim.Event{Name: ev.Name, Args: copyArgs(ev.Args), Meta: meta}
}

// sendToChild sends ev to the child of invoke k: to its external queue
// while it runs; otherwise the send raises error.communication.
func (r *run) sendToChild(k int, ev sim.Event) {
	kid := r.c.kids[k]
	if kid == nil || !kid.live() {
		r.c.internal = append(r.c.internal, sim.Event{Name: model.ErrorCommunication, Args: map[string]sim.Value{},
			Meta: model.Meta{Type: model.TypePlatform, SendID: ev.Meta.SendID}})
		return
	}
	ev.Meta = model.Meta{SendID: ev.Meta.SendID, Self: true}
	r.c.root().deliver(kid, ev, nil)
}

// beforeTransitions is what mainEventLoop does with an external event
// before it selects transitions: the finalize of the invoke the event
// comes from, then the forwarding to the children with autoforward.
func (r *run) beforeTransitions(ev sim.Event, from *machine) error {
	if from != nil {
		if f := from.inv.Finalize; f != nil && len(f.Stmts) > 0 && r.carries(ev.Name, f) {
			if err := r.exec(f, from.inv.Pos); err != nil {
				return fmt.Errorf("finalize of %s: %w", from.inv.ID, err)
			}
		}
	}
	if ev.Meta.Type != model.TypeExternal {
		return nil
	}
	invs := r.c.invs
	for k, kid := range r.c.kids {
		if kid != nil && kid.live() && invs[k].Autoforward {
			r.c.root().deliver(kid, sim.Event{Name: ev.Name, Args: copyArgs(ev.Args), Meta: model.Meta{Self: true}}, nil)
			r.st.forwarded = true
		}
	}
	return nil
}

// carries reports whether the session's event name has every parameter
// code reads.
func (r *run) carries(name string, code *ast.Block) bool {
	ev := r.c.m.EventByName(name)
	ok := ev != nil
	ast.Inspect(code, func(n ast.Node) bool {
		if p, is := n.(*ast.EventParam); is && ok {
			_, ok = ev.Param(p.Name)
		}
		return ok
	})
	return ok
}

// invokePending starts the children of the states the macrostep entered
// and did not leave (statesToInvoke), in document order.
func (r *run) invokePending() error {
	if len(r.c.invoking) == 0 {
		return nil
	}
	states := make([]*model.State, 0, len(r.c.invoking))
	for s := range r.c.invoking {
		states = append(states, s)
	}
	sort.Slice(states, func(i, j int) bool { return states[i].Order < states[j].Order })
	clear(r.c.invoking)
	invs := r.c.invs
	for _, s := range states {
		for _, inv := range s.Invokes {
			if err := r.startChild(slices.Index(invs, inv)); err != nil {
				return fmt.Errorf("invoke %s: %w", inv.ID, err)
			}
		}
	}
	return nil
}

// startChild starts the child session of invoke k.
func (r *run) startChild(k int) error {
	inv := r.c.invs[k]
	if inv.OK != nil {
		ok, err := r.executor(inv.Pos).EvalBool(inv.OK)
		if err != nil {
			return err
		}
		if !ok {
			// The invoke fails (a type that is no SCXML type, arguments
			// that fail): error.execution, and no child.
			r.c.internal = append(r.c.internal, sim.Event{Name: model.ErrorExecution, Args: map[string]sim.Value{},
				Meta: model.Meta{Type: model.TypePlatform}})
			return nil
		}
	}
	if err := r.exec(inv.Start, inv.Pos); err != nil {
		return err
	}
	kid := newMachine(inv.Child)
	kid.inv, kid.parent, kid.prefix = inv, r.c, r.c.prefix+inv.ID+"."
	if err := initVars(kid); err != nil {
		return err
	}
	for _, p := range inv.Params {
		if _, ok := kid.vars[p.Name]; !ok {
			continue // a param that names no variable of the child sets nothing
		}
		v, err := r.executor(p.NamePos).Eval(p.Value)
		if err != nil {
			return fmt.Errorf("param %s: %w", p.Name, err)
		}
		kid.vars[p.Name] = v
		if tag := lower.AbsentName(p.Name); slices.ContainsFunc(kid.m.Vars, func(v *model.Var) bool { return v.Name == tag }) {
			kid.vars[tag] = sim.IntValue(ast.AbsentValue)
		}
	}
	r.c.kids[k] = kid
	return r.at(kid).start()
}

// cancelInvokes cancels the children of a state being exited (after its
// exit actions). A cancelled child's processor exits its interpreter: its
// active states exit, innermost first, running their exit actions (and
// cancelling its own children); the events it sends from then on are not
// processed (its parent drops them, and it takes none itself), but its
// outputs happen. Then its timers are gone.
func (r *run) cancelInvokes(s *model.State) error {
	delete(r.c.invoking, s)
	invs := r.c.invs
	for _, inv := range s.Invokes {
		k := slices.Index(invs, inv)
		kid := r.c.kids[k]
		if kid == nil {
			continue
		}
		if kid.live() {
			kid.cancelled = true
			if err := r.at(kid).stop(); err != nil {
				return fmt.Errorf("cancelling invoke %s: %w", inv.ID, err)
			}
		}
		kid.endTimers()
		r.c.kids[k] = nil
	}
	return nil
}

// stop exits every active state of a session its parent cancels,
// innermost first (exitInterpreter, which sends no done event: the session
// did not reach a final state).
func (r *run) stop() error {
	rest := make([]*model.State, 0, len(r.c.active))
	for s := range r.c.active {
		rest = append(rest, s)
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].Order > rest[j].Order })
	for _, s := range rest {
		if err := r.exitState(s); err != nil {
			return err
		}
	}
	r.c.internal = nil
	return nil
}

// ended follows the exit of the session's interpreter: a child tells its
// parent done.invoke.ID, with the <donedata> of the final state it
// reached (returnDoneEvent).
func (r *run) ended() error {
	if r.c.parent == nil {
		return nil
	}
	r.c.done = true
	r.c.endTimers()
	done := sim.Event{Name: model.DoneInvoke(r.c.inv.ID), Args: map[string]sim.Value{}, Meta: model.Meta{InvokeID: r.c.inv.ID}}
	if f := r.c.m.State(r.c.stopped[0]); f != nil {
		x := r.executor(f.Pos)
		for _, a := range f.DoneData {
			v, err := x.Eval(a.Value)
			if err != nil {
				return fmt.Errorf("donedata of %s: %w", f.ID, err)
			}
			done.Args[a.Name] = v
		}
	}
	r.c.root().deliver(r.c.parent, done, r.c)
	return nil
}
