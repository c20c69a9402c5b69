package mlm

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// Composition. A statechart that invokes SCXML machines is one system for
// the executors: its own MLM and the MLM of each invoked child (flattened
// separately, and composed in turn when it invokes) are combined into one
// machine whose state holds the parent's configuration and, for every
// invoke, whether its child session runs and in which configuration.
//
// The child's variables, states and events are prefixed by the invoke id:
// variable x of child sub is sub.x, its state s0 is reported as sub.s0,
// an event e for it is sub/e, and an event e it sends its parent is e@sub
// (no SCXML name has a '/' or an '@', so none of them clashes with the
// parent's). All sessions share one FIFO of external events (the
// executors' self queue): each session takes its own events in the order
// they were sent, and a session's macrostep is never interleaved with
// another's, which is one of the schedules the SCXML specification
// allows for concurrently running sessions. Everything the children do
// happens before the environment's next input or timer.
//
// Following the algorithm of the specification (Appendix D):
//   - a child starts at the end of the macrostep that entered its state and
//     did not leave it (the machine is Invoking until the executors take
//     model.InvokeEvent, when the internal queue is empty): the idlocation
//     is assigned, the child's variables get their initial values and then
//     the <param> values, and the child's initial macrostep runs, one child
//     after the other in document order; where the invoke fails (Invoke.OK
//     does not hold) it raises error.execution instead;
//   - a child is cancelled when its state is exited, right after the
//     state's exit actions (where the flattener marks it): the child's
//     exit actions for its configuration run, innermost first
//     (exitInterpreter, State.stop), with only their effects outside the
//     session (outputs, assignments; not its events to its parent or
//     itself), then its pending timers are cancelled (a delayed send to
//     the parent is a timer of the child, relayed when it fires); a send
//     to the child after the mark raises error.communication;
//   - the events of a session that ended are taken by no later session:
//     each end queues a mark (ended), and until it is taken the events
//     queued for the child are dropped, and so are those from it while
//     the first end queued is a cancel (the queued events of a child that
//     finished are still taken);
//   - an event from a child runs the invoke's <finalize> before the
//     parent selects transitions (their conditions see what it wrote), if
//     the event carries every _event.data field the finalize reads;
//   - with autoforward, every external event the parent takes is sent on
//     to the child, whether or not a transition of the parent takes it;
//   - a child that reaches a top-level final state runs its exit actions,
//     sends done.invoke.ID to its parent (with the state's <donedata>) and
//     stops; a send to a child that is not running raises
//     error.communication.
//
// The interpreter of engine/interp runs the same system as separate
// sessions, and a differential test keeps the two equal.

// Session states of an invoke other than a configuration of the child.
const (
	idle     = ""      // not started, or cancelled
	finished = "#done" // reached a top-level final state
)

// slot is one invoke of a composed machine.
type slot struct {
	inv      *model.Invoke
	mach     *Machine
	vars     map[string]bool // the child machine's variables, unprefixed
	toParent map[string]bool // the events it sends its parent, done.invoke included
	delayed  []string        // those it sends with a delay, in document order
	bySource map[string][]*Transition
	// hears: the child takes events from the queue (sent by its parent,
	// forwarded, or sent by itself); speaks: it sends its parent events
	// other than done.invoke. A session's end needs no mark where
	// neither can leave an event of it queued (see ended).
	hears, speaks bool
}

// pstate is a state of the composition.
type pstate struct {
	p       *State
	kids    []string // per slot: idle, finished or the child's MLM state
	pending []bool   // per slot: waiting to start
	// ends holds, per slot, the ends of its sessions whose marks are
	// still queued, in the order they were sent: endCancelled or
	// endFinished (see endMark).
	ends []string
}

// clone copies ps, in the parent's state p.
func (ps *pstate) clone(p *State) *pstate {
	return &pstate{p: p, kids: slices.Clone(ps.kids), pending: slices.Clone(ps.pending), ends: slices.Clone(ps.ends)}
}

// ending reports whether a mark of a session's end is queued in ps: the
// machine passes through such a state within a step.
func (ps *pstate) ending() bool {
	return slices.ContainsFunc(ps.ends, func(e string) bool { return e != "" })
}

type composer struct {
	m        *model.Model
	opts     Options
	invoked  bool     // the machine is a child: its states need State.stop
	watch    *stopper // stops it when the context is done
	parent   *Machine
	slots    []*slot                  // in document order
	order    []int                    // the slots' indices by invoke id (byID)
	bySource map[string][]*Transition // the parent's transitions by source state
	byName   map[string]*State
	info     map[string]*pstate
	queue    []string
	trans    []*Transition
}

// compose flattens m and the machines it invokes into one machine.
func compose(stop *stopper, m *model.Model, opts Options, invoked bool) (*Machine, error) {
	opts = opts.withDefaults()
	parent, err := flattenOne(stop, m, opts, invoked)
	if err != nil {
		return nil, err
	}
	c := &composer{m: m, opts: opts, invoked: invoked, watch: stop, parent: parent, bySource: bySource(parent), byName: make(map[string]*State),
		info: make(map[string]*pstate)}
	for _, inv := range m.Invokes() {
		child, err := flatten(stop, inv.Child, opts, true)
		if err != nil {
			return nil, err
		}
		s := &slot{inv: inv, mach: child, vars: make(map[string]bool), toParent: map[string]bool{model.DoneInvoke(inv.ID): true},
			bySource: bySource(child)}
		for _, v := range child.Vars {
			s.vars[v.Name] = true
		}
		for _, e := range child.Events {
			s.hears = s.hears || e.Kinds&(model.Input|model.Self) != 0
		}
		s.speaks = len(inv.ToParent()) > 0
		for _, send := range inv.ToParent() {
			s.toParent[send.Event] = true
			if send.Delay != nil && !slices.Contains(s.delayed, send.Event) {
				s.delayed = append(s.delayed, send.Event)
			}
		}
		c.slots = append(c.slots, s)
	}
	c.order = c.byID()
	mach, err := c.run()
	if stop.stopped(err) {
		return nil, err
	}
	if err != nil {
		return nil, source.ErrorList{{Pos: m.Position(m.Root.Pos), Msg: err.Error()}}
	}
	return mach, nil
}

func bySource(m *Machine) map[string][]*Transition {
	out := make(map[string][]*Transition)
	for _, t := range m.Transitions {
		out[t.Source.Name] = append(out[t.Source.Name], t)
	}
	return out
}

func (c *composer) run() (*Machine, error) {
	var initial []*Transition
	for _, t := range c.parent.Initial {
		from := &pstate{kids: make([]string, len(c.slots)), pending: make([]bool, len(c.slots)), ends: make([]string, len(c.slots))}
		to, err := c.intern(c.after(from, t))
		if err != nil {
			return nil, err
		}
		code, _ := c.parentCode(from, t.Action.Stmts) // no child runs yet
		initial = append(initial, &Transition{Key: t.Key, Target: to, Guard: t.Guard, Action: &ast.Block{Stmts: code},
			Origins: t.Origins, Entered: t.Entered, Pos: t.Pos})
	}
	for len(c.queue) > 0 {
		name := c.queue[0]
		c.queue = c.queue[1:]
		if err := c.watch.tick(); err != nil {
			return nil, err
		}
		if err := c.expand(c.byName[name], c.info[name]); err != nil {
			return nil, err
		}
	}
	return finish(&Machine{Name: c.parent.Name, Source: c.m, Vars: c.vars(), Events: c.events(), Initial: initial,
		Transitions: c.trans, byName: c.byName})
}

// byID returns the slots in the order of their invoke ids: what names and
// lists the sessions does not depend on the document order of the states
// that hold them, so that reordering sibling states changes no state name,
// variable order or hash. (Where order means something, as when several
// children start in one step, the slots keep document order.)
func (c *composer) byID() []int {
	order := make([]int, len(c.slots))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(i, j int) bool { return c.slots[order[i]].inv.ID < c.slots[order[j]].inv.ID })
	return order
}

// vars are the parent's variables, then each child's, prefixed, children
// by invoke id.
func (c *composer) vars() []*model.Var {
	out := append([]*model.Var(nil), c.parent.Vars...)
	for _, k := range c.byID() {
		s := c.slots[k]
		for _, v := range s.mach.Vars {
			w := *v
			w.Name = s.inv.ID + "." + v.Name
			out = append(out, &w)
		}
	}
	return out
}

// events are the parent's events, the events of each child (sub/e), those
// each child sends its parent (e@sub), and model.InvokeEvent, by name.
func (c *composer) events() []*model.Event {
	out := append([]*model.Event(nil), c.parent.Events...)
	for _, s := range c.slots {
		for _, e := range s.mach.Events {
			kinds := e.Kinds &^ (model.Output | model.Input)
			if e.Kinds&model.Input != 0 {
				kinds |= model.Self // from the parent
			}
			if kinds != 0 {
				out = append(out, &model.Event{Name: s.inv.ID + "/" + e.Name, Params: e.Params, Kinds: kinds, Pos: e.Pos})
			}
		}
		for _, name := range s.delayed {
			var params []model.Param
			if pe := c.parent.Event(name); pe != nil {
				params = pe.Params
			}
			out = append(out, &model.Event{Name: relay(s.inv.ID, name), Params: params, Kinds: model.Timer, Pos: s.inv.Pos})
		}
		for _, end := range []byte{endCancelled, endFinished} {
			out = append(out, &model.Event{Name: endMark(s.inv.ID, end), Kinds: model.Self, Pos: s.inv.Pos})
		}
		for name := range s.toParent {
			ev := &model.Event{Name: name + "@" + s.inv.ID, Kinds: model.Self, Pos: s.inv.Pos}
			if pe := c.parent.Event(name); pe != nil {
				ev.Params = pe.Params
			}
			out = append(out, ev)
		}
	}
	out = append(out, &model.Event{Name: model.InvokeEvent, Kinds: model.Internal, Pos: c.m.Root.Pos})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// name is a composed state's name: the parent's, then each session that
// runs or finished, then the invokes waiting to start, sessions by invoke
// id.
func (c *composer) name(ps *pstate) string {
	var b strings.Builder
	b.WriteString(ps.p.Name)
	var starting []string
	for _, k := range c.order {
		s := c.slots[k]
		if ps.kids[k] != idle {
			fmt.Fprintf(&b, " | %s:%s", s.inv.ID, ps.kids[k])
		}
		if ps.pending[k] {
			starting = append(starting, s.inv.ID)
		}
		if ps.ends[k] != "" {
			fmt.Fprintf(&b, " | %s ending %s", s.inv.ID, ps.ends[k])
		}
	}
	if len(starting) > 0 {
		b.WriteString(" | invoking " + strings.Join(starting, ","))
	}
	return b.String()
}

// intern returns the composed state, queueing a new one.
func (c *composer) intern(ps *pstate) (*State, error) {
	name := c.name(ps)
	if s, ok := c.byName[name]; ok {
		return s, nil
	}
	if len(c.byName) >= c.opts.MaxStates {
		return nil, fmt.Errorf("composing the invoked machines exceeds %d MLM states; raise the bound (%s) or split the model", c.opts.MaxStates, vocab.BoundMLMStates.Setting())
	}
	s := &State{Name: name, Atomic: slices.Clone(ps.p.Atomic), History: slices.Clone(ps.p.History), Final: ps.p.Final, Pos: ps.p.Pos}
	if c.invoked {
		s.stop, _ = c.parentCode(ps, ps.p.stop)
	}
	s.Ending = ps.ending()
	for _, k := range c.order {
		sl := c.slots[k]
		s.Invoking = s.Invoking || ps.pending[k]
		cs := sl.mach.State(ps.kids[k])
		if cs == nil {
			continue
		}
		s.Invoking = s.Invoking || cs.Invoking
		for _, a := range cs.Atomic {
			s.Atomic = append(s.Atomic, sl.inv.ID+"."+a)
		}
		for _, h := range cs.History {
			states := make([]string, len(h.States))
			for i, x := range h.States {
				states[i] = sl.inv.ID + "." + x
			}
			s.History = append(s.History, HistoryValue{History: sl.inv.ID + "." + h.History, States: states})
		}
	}
	sort.Strings(s.Atomic)
	c.byName[name] = s
	c.info[name] = ps
	c.queue = append(c.queue, name)
	return s, nil
}

// active returns the statechart states of an MLM state of the parent: its
// atomic states and their ancestors.
func (c *composer) active(s *State) map[string]bool {
	out := make(map[string]bool)
	if s == nil {
		return out
	}
	for _, a := range s.Atomic {
		for st := c.m.State(a); st != nil; st = st.Parent {
			out[st.ID] = true
		}
	}
	return out
}

// after is the composed state a transition t of the parent leads to from
// from: the sessions of the states it exits are cancelled, and the invokes
// of the states it enters and leaves active wait to start.
func (c *composer) after(from *pstate, t *Transition) *pstate {
	to := from.clone(t.Target)
	if t.Target.Final {
		clear(to.kids)
		clear(to.pending)
		clear(to.ends)
		return to
	}
	was, is := c.active(from.p), c.active(t.Target)
	entered := make(map[string]bool, len(t.Entered))
	for _, e := range t.Entered {
		entered[e] = true
	}
	for k, s := range c.slots {
		st := s.inv.State.ID
		if was[st] && (!is[st] || entered[st]) {
			// A running child is cancelled; the events of one that
			// finished, still queued, are taken all the same.
			to.pending[k] = false
			if to.kids[k] != finished {
				to.kids[k] = idle
			}
		}
		if entered[st] && is[st] {
			to.pending[k] = true
		}
	}
	return to
}

// running reports whether slot k's child runs in ps (not finished).
func (ps *pstate) running(k int) bool { return ps.kids[k] != idle && ps.kids[k] != finished }

// emit adds the transition from src on event to the composed state to; key
// names what it does within src and event (the component transitions'
// keys), so that its key is stable.
func (c *composer) emit(src *State, event, key string, to *pstate, guard ast.Expr, stmts []ast.Stmt,
	origins, entered []string, pos source.Pos) error {
	dst, err := c.intern(to)
	if err != nil {
		return err
	}
	if len(c.trans) >= c.opts.MaxTransitions {
		return fmt.Errorf("composing the invoked machines exceeds %d MLM transitions; raise the bound (%s) or split the model", c.opts.MaxTransitions, vocab.BoundMLMTransitions.Setting())
	}
	c.trans = append(c.trans, &Transition{Key: fmt.Sprintf("%s %s [%s] %s", src.Name, event, key, dst.Name), Source: src, Target: dst,
		Event: event, Guard: guard, Action: &ast.Block{Stmts: stmts}, Origins: origins, Entered: entered, Pos: pos})
	return nil
}

// expand emits the transitions of a composed state.
func (c *composer) expand(src *State, ps *pstate) error {
	if src.Final {
		return nil
	}
	if slices.Contains(ps.pending, true) {
		if err := c.start(src, ps); err != nil {
			return err
		}
	}
	if err := c.parentSteps(src, ps); err != nil {
		return err
	}
	for k := range c.slots {
		if ps.running(k) {
			if err := c.childSteps(src, ps, k); err != nil {
				return err
			}
			if err := c.relaySteps(src, ps, k); err != nil {
				return err
			}
		}
		if ps.ends[k] != "" {
			to := ps.clone(ps.p)
			to.ends[k] = ps.ends[k][1:]
			s := c.slots[k]
			if err := c.emit(src, endMark(s.inv.ID, ps.ends[k][0]), s.inv.ID+": end of a session", to, nil, nil, nil, nil, s.inv.Pos); err != nil {
				return err
			}
		}
	}
	return nil
}

// The ends of sessions. The executors keep one queue for all sessions and
// the composed machine names the events of a child by its invoke, not by
// its session: when the invoking state is left and entered again in one
// step, the events of the old session may still be queued when the new
// one starts. The spec has neither session take the other's: the events
// sent to a session that ended are delivered to no later one, and those
// a cancelled session sent are not processed. So a session's end (its
// cancel, or its reaching a final state) queues a mark, and until the mark
// has been taken the composed state knows that the events of the invoke
// it takes were queued before that end: an event for the child is
// dropped (but for those the new session raises itself, internal events),
// and an event from the child is dropped when the first end still queued
// is a cancel. An end while maxEnds marks are queued would need another,
// which the composed state has no room for: the path stops there, cut by
// the sessions bound, so that the events of more sessions ended in one step
// are never confused and what is not reached beyond is qualified.
const (
	endCancelled = 'c'
	endFinished  = 'f'
	maxEnds      = 3
)

// endMark is the event that marks, in the queue, an end of a session of
// invokeID: no event of the child has a '/' (nor does one of the
// grandchildren's start with one).
func endMark(invokeID string, end byte) string {
	if end == endCancelled {
		return invokeID + "//cancelled"
	}
	return invokeID + "//finished"
}

// ended records an end of the session of slot k in to, and returns the
// send of its mark; nil when no event the mark would set apart can be
// queued: none for the child where it takes none from the queue, none from
// a cancelled child where it sends its parent none either. When maxEnds
// marks are queued already, it returns a cut by the sessions bound.
func (c *composer) ended(to *pstate, k int, end byte) []ast.Stmt {
	s := c.slots[k]
	if !s.hears && (end == endFinished || !s.speaks) {
		return nil
	}
	if len(to.ends[k]) >= maxEnds {
		return []ast.Stmt{&ast.Bound{BoundPos: s.inv.Pos, Name: vocab.BoundSessions, Limit: maxEnds, Cond: &ast.BoolLit{ValuePos: s.inv.Pos}}}
	}
	to.ends[k] += string(end)
	return []ast.Stmt{&ast.Send{SendPos: s.inv.Pos, Event: endMark(s.inv.ID, end)}}
}

// parentSteps emits the parent's macrosteps: on each event it can take,
// as it arrives from the environment, the parent itself or a child.
func (c *composer) parentSteps(src *State, ps *pstate) error {
	cands := make(map[string][]*Transition)
	for _, t := range c.bySource[ps.p.Name] {
		cands[t.Event] = append(cands[t.Event], t)
	}
	for _, ev := range c.parent.Events {
		if ev.Kinds&(model.Input|model.Internal|model.Self|model.Timer) != 0 && (!ps.ending() || queued(ev)) {
			if err := c.parentStep(src, ps, ev, -1, cands[ev.Name]); err != nil {
				return err
			}
		}
		for k, s := range c.slots {
			if s.toParent[ev.Name] && ps.kids[k] != idle && !strings.HasPrefix(ps.ends[k], string(endCancelled)) {
				if err := c.parentStep(src, ps, ev, k, cands[ev.Name]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// parentStep emits the parent's transitions on ev, sent by the child of
// slot from (or not by a child, when from is -1), with the invoke's
// finalize first and the autoforwarding of the event, and, when either
// applies, a step for the case where no transition takes the event.
func (c *composer) parentStep(src *State, ps *pstate, ev *model.Event, from int, ts []*Transition) error {
	event := ev.Name
	var fin []ast.Stmt
	if from >= 0 {
		event = ev.Name + "@" + c.slots[from].inv.ID
		if f := c.slots[from].inv.Finalize; f != nil && len(f.Stmts) > 0 && carries(ev, f) {
			fin = []ast.Stmt{ast.RewriteBlock(f, c.resolver(ps, ev.Name))}
		}
	}
	fwd := c.forward(ps, ev, from >= 0)
	if fin == nil && fwd == nil && len(ts) == 0 {
		return nil
	}
	for _, t := range ts {
		to := c.after(ps, t)
		guard, stmts := t.Guard, append(slices.Clip(fin), fwd...)
		if fin != nil && guard != nil {
			stmts = append(stmts, &ast.Assume{AssumePos: guard.Pos(), Cond: guard})
			guard = nil
		}
		code, running := c.parentCode(ps, t.Action.Stmts)
		stmts = append(stmts, code...)
		for k, s := range c.slots {
			if running[k] && !to.running(k) {
				return fmt.Errorf("internal error: transition %q cancels invoke %s without exiting its state", t.Key, s.inv.ID)
			}
			if ps.running(k) && !running[k] && !t.Target.Final {
				// After the cancel, the transition sends the child nothing
				// more (error.communication), so its end is marked here.
				stmts = append(stmts, c.ended(to, k, endCancelled)...)
			}
		}
		if err := c.emit(src, event, t.Key, to, guard, stmts, t.Origins, t.Entered, t.Pos); err != nil {
			return err
		}
	}
	if fin == nil && fwd == nil {
		return nil
	}
	// No transition takes the event: finalize and forwarding happen all
	// the same.
	var none ast.Expr
	for _, t := range ts {
		if t.Guard == nil {
			return nil
		}
		not := &ast.Unary{OpPos: t.Guard.Pos(), Op: ast.NOT, X: t.Guard}
		if none == nil {
			none = not
		} else {
			none = &ast.Binary{X: none, OpPos: t.Guard.Pos(), Op: ast.LAND, Y: not}
		}
	}
	stmts := slices.Clip(fin)
	if fin != nil && none != nil {
		stmts = append(stmts, &ast.Assume{AssumePos: none.Pos(), Cond: none})
		none = nil
	}
	stmts = append(stmts, fwd...)
	return c.emit(src, event, "no transition", ps, none, stmts, nil, nil, c.m.Root.Pos)
}

// resolver decides, in code of the parent that the flattener did not fold
// (a finalize, a param's value, a typeexpr), what the composed state
// decides: In() of the parent's states, and _event.name of the event being
// processed (event; "" for none).
func (c *composer) resolver(ps *pstate, event string) func(ast.Expr) ast.Expr {
	active := c.active(ps.p)
	return func(x ast.Expr) ast.Expr {
		switch x := x.(type) {
		case *ast.InState:
			return &ast.BoolLit{ValuePos: x.Start, Value: active[x.State]}
		case *ast.EventField:
			if x.Field == "name" && event != "" {
				return &ast.StrLit{ValuePos: x.Start, Value: event}
			}
		}
		return x
	}
}

// carries reports whether ev has every parameter that code reads. The
// finalize of an invoke runs only for the events from the child that carry
// what it reads: setbot's typed data model has no undefined parameter to
// read instead (ECMAScript would read undefined).
func carries(ev *model.Event, code *ast.Block) bool {
	ok := true
	ast.Inspect(code, func(n ast.Node) bool {
		if p, is := n.(*ast.EventParam); is {
			if _, has := ev.Param(p.Name); !has {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// forward returns the sends of an event the parent takes to the children
// that run with autoforward: only external events are forwarded, which
// an event from a child always is.
func (c *composer) forward(ps *pstate, ev *model.Event, fromChild bool) []ast.Stmt {
	if !fromChild && ev.Kinds&(model.Input|model.Self|model.Timer) == 0 {
		return nil
	}
	var out []ast.Stmt
	for k, s := range c.slots {
		if !s.inv.Autoforward || !ps.running(k) {
			continue
		}
		var args []*ast.Arg
		for _, p := range ev.Params {
			args = append(args, &ast.Arg{NamePos: s.inv.Pos, Name: p.Name, Value: &ast.EventParam{Start: s.inv.Pos, Name: p.Name}})
		}
		out = append(out, &ast.Send{SendPos: s.inv.Pos, Event: s.inv.ID + "/" + ev.Name, Args: args})
	}
	if len(out) == 0 || fromChild || ev.Kinds&model.Internal == 0 {
		return out
	}
	// The event may also be raised: forward it only when it is external.
	pos := c.slots[0].inv.Pos
	external := &ast.Binary{X: &ast.EventField{Start: pos, Field: "type"}, OpPos: pos, Op: ast.EQL,
		Y: &ast.StrLit{ValuePos: pos, Value: model.TypeExternal.String()}}
	return []ast.Stmt{&ast.If{IfPos: pos, Cond: external, Then: &ast.Block{Stmts: out}}}
}

// parentCode is code of the parent in the composition, run from the
// composed state ps: its sends to a child (#_ID) go to the child's queue
// while the child runs and raise error.communication when it does not, and
// where the exit of the invoking state cancels a running child (the
// flattener's mark, after the state's exit actions), the child stops
// (stop). It returns the code and, per slot, whether the child still runs
// after it.
func (c *composer) parentCode(ps *pstate, stmts []ast.Stmt) ([]ast.Stmt, []bool) {
	ids := make(map[string]int, len(c.slots))
	running := make([]bool, len(c.slots))
	for k, s := range c.slots {
		ids[s.inv.ID] = k
		running[k] = ps.running(k)
	}
	out := rewriteStmts(stmts, func(st ast.Stmt) ast.Stmt {
		if id, ok := markOf(st); ok {
			k, ok := ids[id]
			if !ok || !running[k] {
				return &ast.Block{} // an invoke that did not start, or whose child stopped
			}
			running[k] = false
			return &ast.Block{Stmts: c.stop(ps, k)}
		}
		send, ok := st.(*ast.Send)
		if !ok {
			return st
		}
		k, ok := ids[strings.TrimPrefix(send.Target, "#_")]
		switch {
		case !ok || !strings.HasPrefix(send.Target, "#_"):
			return send
		case running[k]:
			out := *send
			out.Event, out.Target = c.slots[k].inv.ID+"/"+send.Event, ""
			return &out
		}
		return &ast.Raise{RaisePos: send.SendPos, Event: model.ErrorCommunication, ID: send.ID, Platform: true}
	})
	return dropEmpty(out), running
}

// stop is what cancelling the running child of slot k in ps does: the
// child's exit actions for its configuration (exitInterpreter), of which
// only the effects outside the session remain (assignments, which nobody
// reads afterwards, and sends to external targets, outputs of the
// machine): its raises and its sends to itself, to its parent and to its
// own children (which its composition made sends to itself) are not
// processed by anyone. Then its timers are cancelled.
func (c *composer) stop(ps *pstate, k int) []ast.Stmt {
	s := c.slots[k]
	var out []ast.Stmt
	if cs := s.mach.State(ps.kids[k]); cs != nil {
		quiet := rewriteStmts(cs.stop, func(st ast.Stmt) ast.Stmt {
			switch x := st.(type) {
			case *ast.Raise:
				return &ast.Block{}
			case *ast.Send:
				if x.Target == "" || x.Target == model.TargetParent {
					return &ast.Block{}
				}
			}
			return st
		})
		out = c.embed(&ast.Block{Stmts: dropEmpty(quiet)}, s).Stmts
	}
	return append(out, endSession(s))
}

// dropEmpty removes the empty blocks of a list of statements, and inlines
// the others that declare nothing.
func dropEmpty(stmts []ast.Stmt) []ast.Stmt {
	out := stmts[:0:0]
	for _, st := range stmts {
		b, ok := st.(*ast.Block)
		switch {
		case !ok:
			out = append(out, st)
		case !slices.ContainsFunc(b.Stmts, func(x ast.Stmt) bool { _, decl := x.(*ast.Decl); return decl }):
			out = append(out, dropEmpty(b.Stmts)...)
		default:
			out = append(out, st)
		}
	}
	return out
}

// start emits the step that starts the first waiting child of ps (in
// document order; the next step starts the next, once the internal queue
// is empty again, so that each child's initial macrostep ends before the
// next child starts): one per initial macrostep of the child, and one
// where the invoke fails (its OK does not hold) and raises error.execution.
func (c *composer) start(src *State, ps *pstate) error {
	k := slices.Index(ps.pending, true)
	s := c.slots[k]
	inv := s.inv
	lit, isLit := inv.OK.(*ast.BoolLit)
	var choices []*Transition // nil: the invoke fails
	if !isLit || lit.Value {
		choices = append(choices, s.mach.Initial...)
	}
	if inv.OK != nil && !(isLit && lit.Value) {
		choices = append(choices, nil)
	}
	for _, t := range choices {
		to := ps.clone(ps.p)
		to.pending[k] = false
		var stmts []ast.Stmt
		if t == nil {
			if !isLit {
				not := &ast.Unary{OpPos: inv.Pos, Op: ast.NOT, X: ast.RewriteExpr(inv.OK, c.resolver(ps, ""))}
				stmts = append(stmts, &ast.Assume{AssumePos: inv.Pos, Cond: not})
			}
			stmts = append(stmts, &ast.Raise{RaisePos: inv.Pos, Event: model.ErrorExecution, Platform: true})
			if err := c.emit(src, model.InvokeEvent, inv.ID+": fails", to, nil, stmts, nil, nil, inv.Pos); err != nil {
				return err
			}
			continue
		}
		resolve := c.resolver(ps, "")
		if inv.OK != nil && !isLit {
			stmts = append(stmts, &ast.Assume{AssumePos: inv.Pos, Cond: ast.RewriteExpr(inv.OK, resolve)})
		}
		stmts = append(stmts, inv.Start.Stmts...)
		for _, v := range s.mach.Vars {
			if v.Init != nil {
				stmts = append(stmts, assign(inv.ID+"."+v.Name, c.embedExpr(v.Init, s), inv.Pos))
			}
		}
		for _, p := range inv.Params {
			if s.vars[p.Name] {
				stmts = append(stmts, assign(inv.ID+"."+p.Name, ast.RewriteExpr(p.Value, resolve), p.NamePos))
			}
			if tag := lower.AbsentName(p.Name); s.vars[tag] {
				// A variable that may be undefined now has a value.
				stmts = append(stmts, assign(inv.ID+"."+tag, &ast.IntLit{ValuePos: p.NamePos, Value: ast.AbsentValue}, p.NamePos))
			}
		}
		if t.Guard != nil {
			stmts = append(stmts, &ast.Assume{AssumePos: t.Guard.Pos(), Cond: c.embedExpr(t.Guard, s)})
		}
		stmts = append(stmts, c.embed(t.Action, s).Stmts...)
		to.kids[k] = t.Target.Name
		if t.Target.Final {
			to.kids[k] = finished
			stmts = append(stmts, c.done(s, t.Target), endSession(s))
			stmts = append(stmts, c.ended(to, k, endFinished)...)
		}
		if err := c.emit(src, model.InvokeEvent, inv.ID+": "+t.Key, to, nil, stmts,
			prefixAll(inv.ID+".", t.Origins), prefixAll(inv.ID+".", t.Entered), src.Pos); err != nil {
			return err
		}
	}
	return nil
}

// childSteps emits the macrosteps of the running child of slot k.
func (c *composer) childSteps(src *State, ps *pstate, k int) error {
	s := c.slots[k]
	parentStarts := slices.Contains(ps.pending, true)
	for _, t := range s.bySource[ps.kids[k]] {
		event := s.inv.ID + "/" + t.Event
		if t.Event == model.InvokeEvent {
			if parentStarts {
				continue // the parent's children start first; the next step starts this child's
			}
			event = model.InvokeEvent
		}
		var guard ast.Expr
		if t.Guard != nil {
			guard = c.embedExpr(t.Guard, s)
		}
		if ps.ends[k] != "" && t.Event != model.InvokeEvent {
			// The external events queued before an end of a session were
			// sent to one that ended: only the new session's own raises
			// (and the platform's errors) are for it.
			switch ev := s.mach.Event(t.Event); {
			case ev == nil || !queued(ev):
				continue
			case ev.Kinds != model.Internal:
				guard = and(guard, notExternal(t.Pos))
			}
		}
		to := ps.clone(ps.p)
		to.kids[k] = t.Target.Name
		stmts := c.embed(t.Action, s).Stmts
		if t.Target.Final {
			to.kids[k] = finished
			stmts = append(slices.Clip(stmts), c.done(s, t.Target), endSession(s))
			stmts = append(stmts, c.ended(to, k, endFinished)...)
		}
		if err := c.emit(src, event, s.inv.ID+": "+t.Key, to, guard, stmts,
			prefixAll(s.inv.ID+".", t.Origins), prefixAll(s.inv.ID+".", t.Entered), t.Pos); err != nil {
			return err
		}
	}
	return nil
}

// relay names the timer of a delayed send of event by the child invokeID
// to its parent: a timer of the child, which the child relays to its
// parent when it fires while the child runs (a session that ended cancels
// its delayed sends).
func relay(invokeID, event string) string { return invokeID + "/" + model.TargetParent + "/" + event }

// relaySteps emits the relays of the running child of slot k (timers,
// which fire between steps).
func (c *composer) relaySteps(src *State, ps *pstate, k int) error {
	if ps.ending() {
		return nil
	}
	s := c.slots[k]
	for _, ev := range s.delayed {
		var args []*ast.Arg
		if pe := c.parent.Event(ev); pe != nil {
			for _, p := range pe.Params {
				args = append(args, &ast.Arg{NamePos: s.inv.Pos, Name: p.Name, Value: &ast.EventParam{Start: s.inv.Pos, Name: p.Name}})
			}
		}
		send := &ast.Send{SendPos: s.inv.Pos, Event: ev + "@" + s.inv.ID, Args: args, From: s.inv.ID}
		if err := c.emit(src, relay(s.inv.ID, ev), s.inv.ID+": relay "+ev, ps, nil, []ast.Stmt{send}, nil, nil, s.inv.Pos); err != nil {
			return err
		}
	}
	return nil
}

// done is the send of done.invoke.ID with which a child that reached the
// final state of end tells its parent, with the state's <donedata>.
func (c *composer) done(s *slot, end *State) ast.Stmt {
	name := model.DoneInvoke(s.inv.ID)
	var args []*ast.Arg
	if f := s.inv.Child.State(end.Atomic[0]); f != nil {
		for _, a := range f.DoneData {
			args = append(args, &ast.Arg{NamePos: a.NamePos, Name: a.Name, Value: c.embedExpr(a.Value, s)})
		}
	}
	return &ast.Send{SendPos: s.inv.Pos, Event: name + "@" + s.inv.ID, Args: args, From: s.inv.ID}
}

// queued reports whether ev can be taken within a step, from a queue:
// raised or sent to the machine, or an error the composition raises (the
// reader, which does not know it, may have it as an input). The
// environment's inputs and the timers come between steps.
func queued(ev *model.Event) bool {
	return ev.Kinds&(model.Internal|model.Self) != 0 || ev.Name == model.ErrorCommunication || ev.Name == model.ErrorExecution
}

// and is x && y, where x may be nil (true).
func and(x, y ast.Expr) ast.Expr {
	if x == nil {
		return y
	}
	return &ast.Binary{X: x, OpPos: y.Pos(), Op: ast.LAND, Y: y}
}

// notExternal holds for an event that was not sent (raised, or raised by
// the platform).
func notExternal(pos source.Pos) ast.Expr {
	return &ast.Binary{X: &ast.EventField{Start: pos, Field: "type"}, OpPos: pos, Op: ast.NEQ,
		Y: &ast.StrLit{ValuePos: pos, Value: model.TypeExternal.String()}}
}

func assign(name string, v ast.Expr, pos source.Pos) ast.Stmt {
	return &ast.Assign{Target: &ast.Ident{NamePos: pos, Name: name}, OpPos: pos, Op: ast.ASSIGN, Value: v}
}

// prefixAll prefixes every name, and every part of a '+'-joined one.
func prefixAll(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		parts := strings.Split(n, "+")
		for j := range parts {
			parts[j] = prefix + parts[j]
		}
		out[i] = strings.Join(parts, "+")
	}
	return out
}

// embedExpr renames the child's variables in e.
func (c *composer) embedExpr(e ast.Expr, s *slot) ast.Expr {
	return ast.RewriteExpr(e, func(x ast.Expr) ast.Expr { return c.rename(x, s) })
}

func (c *composer) rename(x ast.Expr, s *slot) ast.Expr {
	if id, ok := x.(*ast.Ident); ok && s.vars[id.Name] {
		id.Name = s.inv.ID + "." + id.Name
	}
	return x
}

// timerScope is the prefix of the send ids of the timers of the child
// invokeID: its sends keep their ids behind it, so that a cancel of the
// child cancels no timer of the parent's, and the end of the session
// cancels every one of its own (endSession).
func timerScope(invokeID string) string { return invokeID + "/" }

// endSession cancels the pending delayed sends of the child of s, which
// ends: it finished, or its parent cancelled it.
func endSession(s *slot) ast.Stmt {
	return &ast.Cancel{CancelPos: s.inv.Pos, SendID: timerScope(s.inv.ID), Prefix: true}
}

// embed is a child's action in the composition: its variables renamed, its
// raises and sends to itself addressed to its session, its sends to
// #_parent to the parent's queue from the child, its send ids prefixed so
// that neither cancels the other's timers.
func (c *composer) embed(b *ast.Block, s *slot) *ast.Block {
	id := s.inv.ID
	prefixID := func(x string) string {
		if x == "" {
			return ""
		}
		return timerScope(id) + x
	}
	copied := ast.RewriteBlock(b, func(x ast.Expr) ast.Expr { return c.rename(x, s) })
	return &ast.Block{Stmts: rewriteStmts(copied.Stmts, func(st ast.Stmt) ast.Stmt {
		switch x := st.(type) {
		case *ast.Assign:
			if s.vars[x.Target.Name] {
				x.Target.Name = id + "." + x.Target.Name
			}
		case *ast.IncDec:
			if s.vars[x.Target.Name] {
				x.Target.Name = id + "." + x.Target.Name
			}
		case *ast.Decl:
			if s.vars[x.Name.Name] {
				x.Name.Name = id + "." + x.Name.Name
			}
		case *ast.Raise:
			x.Event = id + "/" + x.Event
		case *ast.Cancel:
			x.SendID = timerScope(id) + x.SendID // a prefix cancel of a grandchild's stays one
		case *ast.Send:
			switch x.Target {
			case "":
				x.Event, x.ID = id+"/"+x.Event, prefixID(x.ID)
			case model.TargetParent:
				if x.Delay != nil {
					x.Event, x.Target = relay(id, x.Event), ""
					break
				}
				x.Event, x.Target, x.From, x.ID = x.Event+"@"+id, "", id, prefixID(x.ID)
			}
			if x.Delay != nil {
				// Every timer of the child has an id in its scope, so that
				// the end of the session cancels them all.
				x.ID = timerScope(id) + x.ID
			}
		}
		return st
	})}
}

// rewriteStmts applies f to every statement, nested ones included, and
// returns the list of what f returns; f may change a statement in place
// (those of a copy).
func rewriteStmts(stmts []ast.Stmt, f func(ast.Stmt) ast.Stmt) []ast.Stmt {
	out := make([]ast.Stmt, len(stmts))
	for i, s := range stmts {
		out[i] = rewriteStmt(s, f)
	}
	return out
}

func rewriteStmt(s ast.Stmt, f func(ast.Stmt) ast.Stmt) ast.Stmt {
	switch x := s.(type) {
	case *ast.Block:
		return &ast.Block{Lbrace: x.Lbrace, Stmts: rewriteStmts(x.Stmts, f)}
	case *ast.If:
		y := *x
		y.Then = &ast.Block{Lbrace: x.Then.Lbrace, Stmts: rewriteStmts(x.Then.Stmts, f)}
		if x.Else != nil {
			y.Else = rewriteStmt(x.Else, f)
		}
		return &y
	case *ast.While:
		y := *x
		y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: rewriteStmts(x.Body.Stmts, f)}
		return &y
	case *ast.For:
		y := *x
		if x.Init != nil {
			y.Init = rewriteStmt(x.Init, f)
		}
		if x.Post != nil {
			y.Post = rewriteStmt(x.Post, f)
		}
		y.Body = &ast.Block{Lbrace: x.Body.Lbrace, Stmts: rewriteStmts(x.Body.Stmts, f)}
		return &y
	}
	return f(s)
}
