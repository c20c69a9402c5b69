// Package sim runs a Mealy-like machine (package mlm) on concrete values.
// It is the oracle that generated tests are replayed on, so its semantics
// are exactly those the symbolic executor implements. Its Executor, the
// concrete semantics of the action language, is shared with the reference
// interpreter (engine/interp), which runs the statechart itself.
//
//   - Values are int64 and bool. Overflow of + - * / or negation is an
//     error; division and remainder follow C with x / 0 = 0 and x % 0 = x.
//     Variable ranges are not enforced; the arguments of input events must
//     lie in their declared ranges and the input domain (CheckArgs).
//   - An event is processed by trying the transitions that leave the
//     current state on it, in key order: the first whose guard holds and
//     whose action runs to its end (no assume fails) is taken, on a copy of
//     the machine that is committed only then. An event no transition
//     completes is discarded.
//   - Raised events go to the internal queue, sends without a target to the
//     self queue, delayed sends add a pending timer (every delayed send is
//     its own event; of the pending timers of one name the oldest fires
//     first, as it does when they share their delay), a cancel removes the
//     pending timers of its send id, sends to another target are outputs.
//   - An event that nothing takes is discarded, as SCXML discards it: one
//     no transition of the current state takes, an unknown one, and any
//     event sent after the machine stopped. The step says so.
//   - After an input, run-to-completion processes the internal queue, then
//     the self queue, until both are empty or the machine halts in a final
//     state (queues and timers are then dropped).
//   - The decision path of a taken transition has one 't' or 'f' per
//     branching point its guard and action evaluated, in order: the left
//     operand of && and ||, the condition of ?:, of if, of each loop test
//     and of assume.
package sim

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// Defaults for Options; the microsteps bound's is the bounds table's
// (vocab.Settings), as the symbolic executor's is.
const DefaultLoopLimit = 10000

// Options bound a run of either simulator (this one and the reference
// interpreter, engine/interp, which takes the same Options); zero fields
// take the defaults.
type Options struct {
	LoopLimit int // iterations of one execution of one loop
	// MaxMicrosteps bounds one input step: the queued events its
	// run-to-completion processes, its macrosteps together.
	MaxMicrosteps int
	// Time is how delays are read, as by the symbolic executor: timed
	// (the default, "") or untimed.
	Time vocab.Time
}

// WithDefaults is o with its zero fields set to the defaults.
func (o Options) WithDefaults() Options {
	if o.LoopLimit <= 0 {
		o.LoopLimit = DefaultLoopLimit
	}
	if o.MaxMicrosteps <= 0 {
		o.MaxMicrosteps = int(vocab.BoundMicrosteps.Default())
	}
	return o
}

// Fired is one MLM transition the machine took, with the decision path
// through its guard and action.
type Fired struct {
	Key  string
	Path string
}

// Step is what one input (or the start) did.
type Step struct {
	Input   Event    // as the environment sent it; zero Name for the start step
	Fired   []Fired  // transitions taken, in order: the input's, then run-to-completion's
	Entered []string // statechart states entered, in order, across the step's macrosteps
	Outputs []Output // in order
	State   string   // MLM state after the step
	Config  []string // its active atomic states
	Halted  bool     // the machine reached a final state
	At      int64    // when the step happened, in ms since the start (timed)
	// Discarded says why the input was discarded (no transition took it,
	// the event is unknown, the machine has stopped); empty when it was
	// taken.
	Discarded string
	// moved says that a transition of the statechart was taken in the
	// step: one that did more than raise error.execution for conds that
	// failed (failsOnly).
	moved bool
}

// Sim is a running machine.
type Sim struct {
	m     *mlm.Machine
	opts  Options
	index map[string]map[string][]*mlm.Transition // source state, event: candidates in key order
	cur   *config
}

// config is the machine's whole concrete state.
type config struct {
	state    *mlm.State
	vars     map[string]Value
	internal []Event // internal queue
	self     []Event // self queue
	timers   []Timer // pending, in the order they were set
	halted   bool
	now      int64 // ms since the start (timed)
}

// Timer is a pending delayed send: the event it will deliver and the send
// id a cancel names ("" when the send has none).
type Timer struct {
	Event
	ID  string
	Due int64 // when it fires, in ms since the start (timed)
}

// CancelTimers removes from ts every timer sent with the id (with prefix,
// every one whose id begins with it: the delayed sends of a child session
// that ends), keeping the order of the others (in place: ts is the
// caller's to give); an id with nothing pending changes nothing.
func CancelTimers(ts []Timer, id string, prefix bool) []Timer {
	return slices.DeleteFunc(ts, func(t Timer) bool { return t.ID == id || prefix && strings.HasPrefix(t.ID, id) })
}

func (c *config) clone() *config {
	d := *c
	d.vars = make(map[string]Value, len(c.vars))
	for k, v := range c.vars {
		d.vars[k] = v
	}
	d.internal = append([]Event(nil), c.internal...)
	d.self = append([]Event(nil), c.self...)
	d.timers = append([]Timer(nil), c.timers...)
	return &d
}

// New starts m: the variables take their initial values, the first
// initial transition that completes is taken, then run-to-completion. It
// returns the simulator and the start step.
func New(m *mlm.Machine, opts Options) (*Sim, Step, error) {
	s := &Sim{m: m, opts: opts.WithDefaults(), index: map[string]map[string][]*mlm.Transition{}}
	for _, tr := range m.Transitions {
		if tr.Source == nil {
			continue
		}
		byEvent := s.index[tr.Source.Name]
		if byEvent == nil {
			byEvent = map[string][]*mlm.Transition{}
			s.index[tr.Source.Name] = byEvent
		}
		byEvent[tr.Event] = append(byEvent[tr.Event], tr)
	}
	c := &config{vars: map[string]Value{}}
	init := &Executor{Vars: map[string]Value{}, Source: m.Source}
	for _, v := range m.Vars {
		val, err := init.Eval(v.Init)
		if err != nil {
			return nil, Step{}, fmt.Errorf("initial value of %s: %w", v.Name, err)
		}
		c.vars[v.Name] = val
	}
	var step Step
	took, err := s.take(c, m.Initial, nil, &step)
	if err != nil {
		return nil, Step{}, fmt.Errorf("starting the machine: %w", err)
	}
	if !took {
		return nil, Step{}, fmt.Errorf("starting the machine: no initial transition completes")
	}
	if err := s.runToCompletion(c, &step); err != nil {
		return nil, Step{}, fmt.Errorf("starting the machine: %w", err)
	}
	s.cur = c
	return s, s.finish(step), nil
}

// StepAt sends one event from the environment: an input event with
// exactly its declared arguments, or a pending timer without arguments (it
// fires with the arguments it was set with; where the name is also an
// input's, an event whose Meta is Self stands for the timer).
// The event is processed, then run-to-completion. An event nothing takes
// (no transition of the current state, an unknown event, any event after
// the machine stopped) is discarded and the step says why. On error the
// machine is left as it was.
//
// at is when the event comes, in ms since the start: timed, an input comes
// at that time (nil: at once, when the last step came), no earlier than
// the last step and no later than the next deadline, and a timer fires only
// when it is the next due (ties in the order they were set), at its
// deadline (which at, when given, must be). Untimed, at is not read.
func (s *Sim) StepAt(ev Event, at *int64) (Step, error) {
	ev.Args = copyArgs(ev.Args) // accept converts ints for decimal parameters in it
	if s.cur.halted {
		return s.discard(ev, fmt.Sprintf("the machine has stopped (in final state %s)", s.cur.state.Name)), nil
	}
	timer, err := s.accept(ev)
	if err != nil {
		return Step{}, err
	}
	now, next, err := s.when(ev, timer, at)
	if err != nil {
		return Step{}, err
	}
	candidates := s.index[s.cur.state.Name][ev.Name]
	if !timer && len(candidates) == 0 {
		if now != s.cur.now { // time passed all the same
			s.cur = s.cur.clone()
			s.cur.now = now
		}
		why := "no transition of " + s.cur.state.Name + " takes it"
		if s.m.Event(ev.Name) == nil {
			why = "the machine has no such event"
		}
		return s.discard(ev, why), nil
	}
	c := s.cur.clone()
	c.now = now
	in := Event{Name: ev.Name, Args: copyArgs(ev.Args)}
	processed := in
	if timer {
		i := next
		if i < 0 { // untimed: the oldest of that name
			i = slices.IndexFunc(c.timers, func(t Timer) bool { return t.Name == ev.Name })
		}
		processed.Args, processed.Meta = c.timers[i].Args, c.timers[i].Meta
		c.timers = slices.Delete(c.timers, i, i+1)
	}
	step := Step{Input: in}
	took, err := s.take(c, candidates, &processed, &step)
	if err != nil {
		return Step{}, fmt.Errorf("event %s: %w", in, err)
	}
	switch {
	case took:
	case len(candidates) == 0:
		step.Discarded = "no transition of " + s.cur.state.Name + " takes it"
	default:
		step.Discarded = "no transition of " + s.cur.state.Name + " takes it (every guard is false)"
	}
	if err := s.runToCompletion(c, &step); err != nil {
		return Step{}, fmt.Errorf("event %s: %w", in, err)
	}
	if took && !step.moved {
		// Only conds that failed were evaluated (each raising
		// error.execution), and nothing took those errors: as the SCXML
		// algorithm sees it, no transition took the input.
		step.Discarded = "no transition of " + s.cur.state.Name + " takes it (every guard is false)"
	}
	s.cur = c
	return s.finish(step), nil
}

// when checks the time of ev (a timer when timer is set) and returns it,
// with the index of the timer that fires (-1 untimed, or for an input).
func (s *Sim) when(ev Event, timer bool, at *int64) (now int64, next int, err error) {
	if s.opts.Time == vocab.TimeUntimed {
		return s.cur.now, -1, nil
	}
	return When(s.cur.timers, s.cur.now, ev.Name, timer, at)
}

// When applies the timed semantics to the environment's next step, for the
// simulator and the reference interpreter alike: an input named name
// comes at at (nil: at now), no earlier than now and no later than the
// first deadline of timers; a timer fires only when it is the first due
// (the earliest set among equals), at its deadline (which at, when given,
// must be). It returns the step's time and, for a timer, its index in
// timers (-1 for an input).
func When(timers []Timer, now int64, name string, timer bool, at *int64) (int64, int, error) {
	next := Next(timers)
	if timer {
		t := timers[next]
		switch {
		case t.Name != name:
			return 0, 0, fmt.Errorf("timer %s cannot fire yet: %s is due first (at %s)", name, t.Name, FormatTime(t.Due))
		case at != nil && *at != t.Due:
			return 0, 0, fmt.Errorf("timer %s fires at %s, not at %s", name, FormatTime(t.Due), FormatTime(*at))
		}
		return t.Due, next, nil
	}
	when := now
	if at != nil {
		when = *at
	}
	switch {
	case when < now:
		return 0, 0, fmt.Errorf("event %s at %s comes before the last step (at %s)", name, FormatTime(when), FormatTime(now))
	case next >= 0 && when > timers[next].Due:
		return 0, 0, fmt.Errorf("event %s at %s comes after timer %s fires (at %s): fire the timer first", name, FormatTime(when), timers[next].Name, FormatTime(timers[next].Due))
	}
	return when, -1, nil
}

// Next returns the index of the timer due first, the earliest set among
// equals (timed semantics), or -1 when none is pending.
func Next(timers []Timer) int {
	next := -1
	for i, t := range timers {
		if next < 0 || t.Due < timers[next].Due {
			next = i
		}
	}
	return next
}

// FormatTime writes a time in ms as a CSS2 duration, in seconds where
// that is exact ("1.5s", "0s", "0.001s").
func FormatTime(ms int64) string {
	if ms%1000 == 0 {
		return fmt.Sprintf("%ds", ms/1000)
	}
	return strings.TrimRight(fmt.Sprintf("%d.%03d", ms/1000, ms%1000), "0") + "s"
}

// discard is the step of an event nothing takes: the machine stays as it
// is.
func (s *Sim) discard(ev Event, why string) Step {
	return s.finish(Step{Input: Event{Name: ev.Name, Args: copyArgs(ev.Args)}, Discarded: why})
}

// accept checks that the environment may send ev now and reports whether
// it fires a pending timer. An event that is an input is taken as one even
// when a timer of the same name is pending, unless ev's Meta says it
// arrives as the machine sent it to itself (Self): that is the pending
// timer firing. An event the machine does not know, or one that is not an
// input but that no transition of the current state takes, is accepted:
// it will be discarded.
func (s *Sim) accept(ev Event) (timer bool, err error) {
	e := s.m.Event(ev.Name)
	if ev.Meta.Self {
		return true, CheckTimer(ev, s.cur.timers)
	}
	if e != nil && e.Kinds&model.Input != 0 {
		return false, CheckArgs(e, ev.Args)
	}
	if e != nil && e.Kinds&model.Timer != 0 && slices.ContainsFunc(s.cur.timers, func(t Timer) bool { return t.Name == ev.Name }) {
		if len(ev.Args) > 0 {
			return false, fmt.Errorf("timer %s takes no arguments: it fires with those it was set with", ev.Name)
		}
		return true, nil
	}
	if e == nil || len(s.index[s.cur.state.Name][ev.Name]) == 0 {
		return false, nil
	}
	switch {
	case e.Kinds&model.Timer != 0:
		return false, fmt.Errorf("timer %s is not pending: no delayed send has set it since it last fired", ev.Name)
	case e.Kinds&model.Internal != 0:
		return false, fmt.Errorf("event %s is internal: only the machine raises it", ev.Name)
	case e.Kinds&model.Self != 0:
		return false, fmt.Errorf("event %s is one the machine sends itself, not an input", ev.Name)
	}
	return false, fmt.Errorf("event %s is not an input of the machine", ev.Name)
}

// CheckTimer checks that ev, which stands for a pending timer firing (its
// Meta is Self), names a pending timer and carries no arguments.
func CheckTimer(ev Event, pending []Timer) error {
	switch {
	case !slices.ContainsFunc(pending, func(t Timer) bool { return t.Name == ev.Name }):
		return fmt.Errorf("timer %s is not pending: no delayed send has set it since it last fired", ev.Name)
	case len(ev.Args) > 0:
		return fmt.Errorf("timer %s takes no arguments: it fires with those it was set with", ev.Name)
	}
	return nil
}

// CheckArgs checks an input's arguments against the event's parameters:
// the same names, the declared types, values within their ranges and the
// input domain (a string of at most model.MaxInputString code points, a
// decimal on the grid of model.DecimalInputScale). An int
// argument of a decimal parameter is converted in args to the decimal of
// its value.
func CheckArgs(e *model.Event, args map[string]Value) error {
	for _, name := range sortedNames(args) {
		v := args[name]
		p, ok := e.Param(name)
		if !ok {
			return fmt.Errorf("event %s has no parameter %s", e.Name, name)
		}
		if v.Kind == ast.Int && p.Type.Kind == ast.Decimal {
			v = DecimalValue(new(big.Rat).SetInt64(v.Int))
			args[name] = v
		}
		if v.Kind == ast.Decimal && !p.Type.ContainsDecimal(v.Rat) && p.Type.Kind == ast.Decimal {
			return fmt.Errorf("argument %s=%s of event %s is out of range %s", name, v, e.Name, p.Type)
		}
		if v.Kind != p.Type.Kind {
			return fmt.Errorf("argument %s of event %s must be %s, not %s", name, e.Name, p.Type, v)
		}
		if v.Kind == ast.Int && !p.Type.Contains(v.Int) {
			return fmt.Errorf("argument %s=%d of event %s is out of range %s", name, v.Int, e.Name, p.Type)
		}
		var err error
		switch v.Kind {
		case ast.Decimal:
			err = model.CheckInputDecimal(v.Rat)
		case ast.String:
			err = model.CheckInputString(v.Str)
		}
		if err != nil {
			return fmt.Errorf("argument %s=%s of event %s %w", name, v, e.Name, err)
		}
	}
	for _, p := range e.Params {
		if _, ok := args[p.Name]; !ok {
			return fmt.Errorf("event %s needs argument %s (%s)", e.Name, p.Name, p.Type)
		}
	}
	return nil
}

// take processes one event (nil for the start) on c: the first candidate
// whose guard holds and whose action completes is committed. It reports
// whether one was.
func (s *Sim) take(c *config, candidates []*mlm.Transition, ev *Event, step *Step) (bool, error) {
	for _, tr := range candidates {
		f := newFrame(s, tr, ev, c)
		ok, err := f.run()
		if err != nil {
			return false, fmt.Errorf("transition %q: %w", tr.Key, err)
		}
		if !ok {
			continue
		}
		c.vars = f.x.Vars
		c.internal = append(c.internal, f.raised...)
		c.self = append(c.self, f.selfSent...)
		c.timers = f.timers
		c.state = tr.Target
		step.moved = step.moved || !failsOnly(tr)
		step.Fired = append(step.Fired, Fired{Key: tr.Key, Path: f.x.Path()})
		step.Entered = append(step.Entered, tr.Entered...)
		step.Outputs = append(step.Outputs, f.outputs...)
		if tr.Target.Final {
			c.halted = true
			c.internal, c.self = nil, nil
			c.timers = nil
		}
		return true, nil
	}
	return false, nil
}

// failsOnly reports whether tr takes no transition of the statechart and
// only raises error.execution, once for each cond that failed when the
// transitions were selected (the flattener's raiseFails).
func failsOnly(tr *mlm.Transition) bool {
	for _, o := range tr.Origins {
		if o != "" {
			return false
		}
	}
	for _, st := range tr.Action.Stmts {
		if r, ok := st.(*ast.Raise); !ok || r.Event != model.ErrorExecution {
			return false
		}
	}
	return len(tr.Entered) == 0
}

// runToCompletion processes the internal queue, then (in a composed
// machine) starts the children a macrostep invoked, then the self queue,
// until all are done or the machine halts.
func (s *Sim) runToCompletion(c *config, step *Step) error {
	for n := 0; !c.halted; n++ {
		var ev Event
		var kind string
		switch {
		case len(c.internal) > 0:
			ev, c.internal, kind = c.internal[0], c.internal[1:], "internal event"
		case c.state.Invoking:
			// The macrostep ends: the children it invoked start.
			ev, kind = Event{Name: model.InvokeEvent, Meta: model.Meta{Type: model.TypePlatform}}, "start of invoked machines"
		case len(c.self) > 0:
			ev, c.self, kind = c.self[0], c.self[1:], "self-sent event"
		default:
			return nil
		}
		if n == s.opts.MaxMicrosteps {
			return fmt.Errorf("run-to-completion did not finish within %d events (next: %s %s)", s.opts.MaxMicrosteps, kind, ev)
		}
		if _, err := s.take(c, s.index[c.state.Name][ev.Name], &ev, step); err != nil {
			return fmt.Errorf("%s %s: %w", kind, ev, err)
		}
	}
	return nil
}

func (s *Sim) finish(step Step) Step {
	step.State = s.cur.state.Name
	step.Config = append([]string(nil), s.cur.state.Atomic...)
	step.Halted = s.cur.halted
	step.At = s.cur.now
	return step
}

// A frame runs one candidate transition's guard and action on a copy of
// the machine's variables, collecting what the action would do. Nothing
// reaches the machine unless the candidate completes (take commits it).
type frame struct {
	tr       *mlm.Transition
	x        Executor
	raised   []Event // to the internal queue
	selfSent []Event // to the self queue
	timers   []Timer // the pending timers as the action leaves them
	outputs  []Output
	now      int64
}

func newFrame(s *Sim, tr *mlm.Transition, ev *Event, c *config) *frame {
	f := &frame{tr: tr, timers: slices.Clone(c.timers), now: c.now}
	f.x = Executor{Vars: copyArgs(c.vars), Event: ev, In: unresolvedIn, Emit: f.emit, Cancel: f.cancel,
		LoopLimit: s.opts.LoopLimit, Source: s.m.Source, Fallback: tr.Pos, Timed: s.opts.Time != vocab.TimeUntimed}
	return f
}

// unresolvedIn answers In() in the flattened machine, where the flattener
// has resolved every In() against the configuration it knows at each
// point: one left over has no concrete meaning.
func unresolvedIn(state string) (bool, error) {
	return false, fmt.Errorf("In('%s') was not resolved by the flattener", state)
}

func (f *frame) emit(r Route, ev Event, target, sendID string, delay int64) {
	switch r {
	case ToInternal:
		f.raised = append(f.raised, ev)
	case ToSelf:
		f.selfSent = append(f.selfSent, ev)
	case ToTimer:
		if target != "" {
			// A delayed send to #_parent of a machine nobody invokes: an
			// output, whose delay the machine does not observe.
			f.outputs = append(f.outputs, Output{Event: ev.Name, Target: target, Args: ev.Args})
			return
		}
		f.timers = append(f.timers, Timer{Event: ev, ID: sendID, Due: f.now + delay})
	case ToOutput:
		f.outputs = append(f.outputs, Output{Event: ev.Name, Target: target, Args: ev.Args})
	}
}

func (f *frame) cancel(sendID string, prefix bool) { f.timers = CancelTimers(f.timers, sendID, prefix) }

// run evaluates the transition's guard and, when it holds, its action. It
// reports whether the transition completes: false when the guard is false
// or an assume statement cuts it.
func (f *frame) run() (bool, error) {
	if f.tr.Guard != nil {
		g, err := f.x.EvalBool(f.tr.Guard)
		if err != nil || !g {
			return false, err
		}
	}
	switch err := f.x.Run(f.tr.Action); {
	case errors.Is(err, ErrAssumeFailed):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// Vars returns a copy of the machine's variables (setbot simulate --vars
// prints them).
func (s *Sim) Vars() map[string]Value { return copyArgs(s.cur.vars) }

// Timed says whether steps have times: the time semantics is timed and
// the machine sets timers.
func (s *Sim) Timed() bool { return s.opts.Time != vocab.TimeUntimed && s.m.SetsTimers() }

// State returns the current MLM state.
func (s *Sim) State() *mlm.State { return s.cur.state }

// NextTimer returns the timer that fires next, timed: the one due first,
// the earliest set among equals; false when none is pending.
func (s *Sim) NextTimer() (Timer, bool) {
	if i := Next(s.cur.timers); i >= 0 {
		return s.cur.timers[i], true
	}
	return Timer{}, false
}

// PendingTimers returns the names of the pending timers, one per timer (a
// name twice when two are pending), sorted; untimed, the environment may
// fire any of them.
func (s *Sim) PendingTimers() []string {
	names := make([]string, 0, len(s.cur.timers))
	for _, t := range s.cur.timers {
		names = append(names, t.Name)
	}
	sort.Strings(names)
	return names
}
