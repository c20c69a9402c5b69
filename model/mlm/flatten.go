package mlm

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/simplify"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// Flatten builds the MLM of a statechart. It fails, with the size reached,
// when the machine outgrows the bounds in opts, and with positions when a
// folded macrostep reads an event parameter the event does not carry: those
// errors are a source.ErrorList. A statechart that invokes other machines is
// flattened with its children into one composed machine (compose).
//
// Flattening stops when ctx is done, within a few thousand macrosteps, and
// returns ctx's error: the model may be fine, only its flattening was not
// wanted any more.
func Flatten(ctx context.Context, m *model.Model, opts Options) (*Machine, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return flatten(&stopper{ctx: ctx}, m, opts, false)
}

// flatten flattens m; invoked, for a machine another invokes, gives its
// states the code its cancel runs (State.stop).
func flatten(stop *stopper, m *model.Model, opts Options, invoked bool) (*Machine, error) {
	if len(m.Invokes()) > 0 {
		return compose(stop, m, opts, invoked)
	}
	return flattenOne(stop, m, opts, invoked)
}

// flattenOne flattens one statechart, ignoring its invokes.
func flattenOne(stop *stopper, m *model.Model, opts Options, invoked bool) (*Machine, error) {
	f := &flattener{m: m, opts: opts.withDefaults(), invoked: invoked, watch: stop}
	mach, err := f.run()
	var pe *posError
	if errors.As(err, &pe) && pe.outgrown {
		f = &flattener{m: m, opts: f.opts, invoked: invoked, watch: stop, prune: true}
		mach, err = f.run()
	}
	if stop.stopped(err) {
		return nil, err
	}
	if err != nil {
		pos := m.Root.Pos
		var pe *posError
		if errors.As(err, &pe) {
			pos = pe.pos
		}
		f.errs = append(f.errs, &source.Error{Pos: m.Position(pos), Msg: err.Error()})
	}
	f.errs.Sort()
	if len(f.errs) > 0 {
		return nil, f.errs
	}
	return mach, nil
}

// checkEvery is how many units of work (macrosteps flattened, composed
// states expanded) pass between two looks at the context: often enough to
// stop within a moment, rarely enough to cost nothing.
const checkEvery = 1024

// stopper tells a flattening, which may run long on a wide parallel state,
// when its context is done.
type stopper struct {
	ctx  context.Context
	work int
}

// checkHook, when set (by tests), runs at every look at the context.
var checkHook func()

// tick counts a unit of work and returns the context's error when it is
// done, looking at it every checkEvery units.
func (s *stopper) tick() error {
	s.work++
	if s.work%checkEvery != 0 {
		return nil
	}
	if checkHook != nil {
		checkHook()
	}
	return s.ctx.Err()
}

// stopped reports whether err is the context's: the flattening was
// stopped, not refused.
func (s *stopper) stopped(err error) bool {
	return err != nil && s.ctx.Err() != nil && errors.Is(err, s.ctx.Err())
}

// posError is an error about one place in the model.
type posError struct {
	pos source.Pos
	msg string
	// outgrown: a macrostep outgrew a bound (settle).
	outgrown bool
}

func (e *posError) Error() string { return e.msg }

type flattener struct {
	m    *model.Model
	opts Options
	lay  *layout
	// byKey holds the states by configuration (config.key); a state gets
	// its name only once the machine is complete (nameAll).
	byKey    map[string]*State
	cfgs     map[*State]*config
	queue    []*State
	trans    []*Transition
	errs     source.ErrorList
	seen     map[source.Pos]bool // event-parameter errors already reported
	triggers *triggers
	// rereaders are the eventless transitions that an event no transition
	// takes can enable or make raise an error (rereadsEvent).
	rereaders []*model.Transition
	offers    *offers // the events each configuration is offered
	// invoked: the machine is a child, whose states need State.stop.
	invoked bool
	watch   *stopper // stops it when the context is done
	// prune drops the ways through a macrostep whose conditions contradict
	// each other (facts), which no input takes. It is set only when a
	// macrostep outgrows a bound without it (an eventless loop over a value
	// the loop does not assign, whose conds contradict each other): the
	// machines that flatten without it keep every transition they had.
	prune bool

	// event is the event whose macrostep is being flattened (nil while
	// the machine starts): _event.name within the macrostep is its name.
	event *model.Event
	// arrivals are the ways each event can reach the machine: a field of
	// _event on which all of them agree is a constant of the macrostep.
	arrivals map[string][]model.Meta

	// readInside holds the history states that a transition from inside
	// their parent can enter without exiting the parent: only for those can
	// a value recorded earlier be read while the parent is active.
	readInside map[*model.State]bool
}

// branch is one way through a macrostep under construction.
type branch struct {
	cfg     *config
	guard   []ast.Expr
	stmts   []ast.Stmt
	defs    map[string]bool
	origins []string
	// raised lists the transitions whose cond failed only on some values
	// (model.Transition.FailsWhen) and raised error.execution here: the
	// selection splits on them (splitFails), and where nothing takes the
	// error the two sides differ in nothing else, so the key tells them
	// apart by these.
	raised  []string
	entered []string   // statechart states entered so far, in entry order
	last    source.Pos // the first transition of the latest microstep
	halted  bool

	// known holds the variables whose value at this point of the
	// macrostep is a constant: all of them at start-up, then those the
	// action has set to a constant since.
	known map[string]ast.Expr
	// facts are the conditions the branch requires of the values its
	// variables hold at this point, while settle drops contradictory
	// ways; nil otherwise.
	facts *facts
}

func (b *branch) clone() *branch {
	n := &branch{cfg: b.cfg.clone(), halted: b.halted, last: b.last, defs: make(map[string]bool),
		known: make(map[string]ast.Expr, len(b.known))}
	for k, v := range b.known {
		n.known[k] = v
	}
	n.guard = append(n.guard, b.guard...)
	n.stmts = append(n.stmts, b.stmts...)
	n.origins = append(n.origins, b.origins...)
	n.raised = append(n.raised, b.raised...)
	n.entered = append(n.entered, b.entered...)
	for k := range b.defs {
		n.defs[k] = true
	}
	if b.facts != nil {
		n.facts = &facts{list: slices.Clone(b.facts.list)}
	}
	return n
}

func (f *flattener) run() (*Machine, error) {
	f.lay = newLayout(f.m)
	f.byKey = make(map[string]*State)
	f.cfgs = make(map[*State]*config)
	f.seen = make(map[source.Pos]bool)
	f.readInside = historiesReadInside(f.m)
	f.arrivals = f.m.Arrivals()
	f.triggers = newTriggers(f.m, f.lay)
	f.rereaders = rereaders(f.lay)
	start := &branch{cfg: f.lay.newConfig(), defs: make(map[string]bool), known: make(map[string]ast.Expr)}
	passed := make(map[string]bool)
	for _, v := range f.m.Vars {
		if v.Passed {
			passed[v.Name] = true
		}
	}
	for _, v := range f.m.Vars {
		if of, tag := lower.AbsentOf(v.Name); !passed[v.Name] && !(tag && passed[of]) {
			start.known[v.Name] = v.Init
		}
	}
	if f.m.Root.Initial == nil {
		return nil, fmt.Errorf("the machine has no initial state")
	}
	// Initialisation: the root's initial transition (which carries the
	// top-level script) enters the initial states; then the machine settles.
	f.microstep(start, []*model.Transition{f.m.Root.Initial})
	ends, err := f.settle(start)
	if err != nil {
		return nil, err
	}
	var initial []*Transition
	for _, b := range ends {
		t, err := f.emit(nil, nil, b, f.m.Root.Initial.Pos)
		if err != nil {
			return nil, err
		}
		initial = append(initial, t)
	}
	f.offers = newOffers(f.processable())
	for len(f.queue) > 0 {
		src := f.queue[0]
		f.queue = f.queue[1:]
		if src.Final {
			continue
		}
		for _, ev := range f.offered(f.cfgs[src]) {
			if err := f.watch.tick(); err != nil {
				return nil, err
			}
			if err := f.step(src, ev); err != nil {
				return nil, err
			}
		}
	}
	byName, err := f.nameAll(initial)
	if err != nil {
		return nil, err
	}
	return finish(&Machine{Name: f.m.Name, Source: f.m, Vars: f.m.Vars, Events: f.m.Events,
		Initial: initial, Transitions: f.trans, byName: byName})
}

// finish lists mach's states and orders its states and transitions by
// name and key, checks that no two transitions share a key, and hashes
// it: the last steps of flattening and of composition alike.
func finish(mach *Machine) (*Machine, error) {
	for _, s := range mach.byName {
		mach.States = append(mach.States, s)
	}
	sort.Slice(mach.States, func(i, j int) bool { return mach.States[i].Name < mach.States[j].Name })
	sort.Slice(mach.Initial, func(i, j int) bool { return mach.Initial[i].Key < mach.Initial[j].Key })
	sort.Slice(mach.Transitions, func(i, j int) bool { return mach.Transitions[i].Key < mach.Transitions[j].Key })
	for i := 1; i < len(mach.Transitions); i++ {
		if mach.Transitions[i].Key == mach.Transitions[i-1].Key {
			return nil, fmt.Errorf("internal error: two MLM transitions share the key %q", mach.Transitions[i].Key)
		}
	}
	mach.Hash = Hash(mach)
	return mach, nil
}

// processable returns the events the machine can receive, from the
// environment or from itself, sorted by name.
func (f *flattener) processable() []*model.Event {
	var out []*model.Event
	for _, e := range f.m.Events {
		if e.Kinds&(model.Input|model.Internal|model.Self|model.Timer|model.Invoked) != 0 {
			out = append(out, e)
		}
	}
	return out
}

// step emits the MLM transitions of src on ev.
func (f *flattener) step(src *State, ev *model.Event) error {
	f.event = ev
	defer func() { f.event = nil }()
	cfg := f.cfgs[src]
	groups, err := f.selection(cfg, ev.Name, nil)
	if err != nil {
		return err
	}
	for _, g := range groups {
		if len(g.trans) == 0 && len(g.fails) == 0 && !f.rereadsEvent(cfg, ev) {
			continue
		}
		b := &branch{cfg: cfg.clone(), defs: make(map[string]bool), known: make(map[string]ast.Expr)}
		if g.guard != nil {
			b.guard = append(b.guard, g.guard)
		}
		raiseFails(b, g.fails)
		pos := src.Pos
		if len(g.trans) > 0 {
			f.microstep(b, g.trans)
			pos = g.trans[0].Pos
		}
		ends, err := f.settle(b)
		if err != nil {
			return err
		}
		for _, e := range ends {
			if len(e.origins) == 0 && len(e.stmts) == 0 {
				continue // nothing took the event and nothing followed: it is discarded
			}
			if _, err := f.emit(src, ev, e, pos); err != nil {
				return err
			}
		}
	}
	return nil
}

// raiseFails places error.execution on the internal queue once for each
// failing cond the selection evaluated (model.Transition.CondFails, or
// FailsWhen where the group's guard says it holds, splitFails), before the
// microstep it selected runs.
func raiseFails(b *branch, fails []*model.Transition) {
	for _, t := range fails {
		b.stmts = append(b.stmts, &ast.Raise{RaisePos: t.Cond.Pos(), Event: model.ErrorExecution})
		if t.FailsWhen != nil {
			b.raised = append(b.raised, t.ID)
		}
	}
}

// rereadsEvent reports whether an event that no transition of c takes can
// still start a macrostep. SCXML sets _event to every event it processes,
// taken or not, and then selects eventless transitions again; in a stable
// configuration they were all disabled, and only a condition that reads
// _event can have changed. A condition that reads a parameter the event
// does not carry is an error, as it is for an event that is taken: the
// action language has no undefined value.
func (f *flattener) rereadsEvent(c *config, ev *model.Event) bool {
	reads := false
	for _, t := range f.rereaders {
		if t.Source.Kind != model.Root && !c.has(t.Source) {
			continue
		}
		if t.CondFails || t.FailsWhen != nil {
			reads = true // evaluating it may raise error.execution again
		}
		if t.Cond == nil {
			continue
		}
		ast.Inspect(t.Cond, func(n ast.Node) bool {
			if _, ok := n.(*ast.EventField); ok {
				reads = true
			}
			p, ok := n.(*ast.EventParam)
			if !ok {
				return true
			}
			reads = true
			if _, has := ev.Param(p.Name); !has && !f.seen[p.Start] {
				f.seen[p.Start] = true
				name := c.name()
				f.errs.Add(f.m.Position(p.Start), "_event.data.%s is read by an eventless condition of %s, which SCXML evaluates "+
					"after every event, also after %q, which no transition of %s takes and which has no parameter %q",
					p.Name, name, ev.Name, name, p.Name)
			}
			return true
		})
	}
	return reads
}

// rereaders returns the eventless transitions whose condition fails or
// reads _event, in document order: those rereadsEvent looks at.
func rereaders(lay *layout) []*model.Transition {
	var out []*model.Transition
	for _, s := range lay.states {
		for _, t := range s.Transitions {
			if t.Eventless() && (t.CondFails || t.FailsWhen != nil || t.Cond != nil && readsEventOrParam(t.Cond)) {
				out = append(out, t)
			}
		}
	}
	return out
}

// readsEventOrParam reports whether e reads _event, one of its fields or
// a parameter.
func readsEventOrParam(e ast.Expr) bool {
	return ast.Any(e, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.EventField, *ast.EventParam:
			return true
		}
		return false
	})
}

// settle folds the eventless transitions that follow a microstep, until
// the configuration is stable on every branch. Where f.prune is set, it
// drops the ways whose conditions contradict each other (facts).
func (f *flattener) settle(b *branch) ([]*branch, error) {
	if f.prune {
		b.facts = &facts{}
		for _, g := range b.guard {
			if !usesAny(g, b.defs) {
				b.facts.add(g)
			}
		}
	}
	todo := []*branch{b}
	var done []*branch
	for steps := 0; len(todo) > 0; steps++ {
		if steps > f.opts.MaxEventlessSteps {
			b := todo[0]
			return nil, &posError{pos: b.last, outgrown: true, msg: fmt.Sprintf("eventless transitions do not settle within %d steps (through %s); "+
				"setbot folds them statically and cannot bound a loop whose exit depends on values it cannot compute "+
				"(give the loop an event, or compute the value in one action)",
				f.opts.MaxEventlessSteps, strings.Join(b.origins[max(0, len(b.origins)-3):], " ; "))}
		}
		var next []*branch
		for _, cur := range todo {
			if cur.halted {
				done = append(done, cur)
				continue
			}
			groups, err := f.selection(cur.cfg, "", cur.known)
			if err != nil {
				return nil, err
			}
			for _, g := range groups {
				nb := cur
				if len(groups) > 1 {
					nb = cur.clone()
				}
				f.condition(nb, g.guard)
				if f.prune && nb.facts.add(g.guard) {
					continue // no input takes this way
				}
				raiseFails(nb, g.fails)
				if len(g.trans) == 0 {
					done = append(done, nb)
					continue
				}
				f.microstep(nb, g.trans)
				next = append(next, nb)
			}
			if len(next)+len(done) > f.opts.MaxCombinations {
				return nil, &posError{pos: cur.last, outgrown: true, msg: fmt.Sprintf("more than %d ways through one macrostep "+
					"(eventless transitions branch at every step, through %s)", f.opts.MaxCombinations,
					strings.Join(cur.origins[max(0, len(cur.origins)-3):], " ; "))}
			}
		}
		todo = next
	}
	return done, nil
}

// condition adds a condition evaluated mid-macrostep: to the guard when
// nothing executed so far wrote what it reads, otherwise as an assume at
// this point of the action.
func (f *flattener) condition(b *branch, g ast.Expr) {
	if g == nil {
		return
	}
	if usesAny(g, b.defs) {
		b.stmts = append(b.stmts, &ast.Assume{AssumePos: g.Pos(), Cond: g})
		return
	}
	b.guard = append(b.guard, g)
}

// usesAny reports whether g reads one of vars.
func usesAny(g ast.Expr, vars map[string]bool) bool {
	for _, v := range lang.Uses(g) {
		if vars[v] {
			return true
		}
	}
	return false
}

// emit turns a finished branch into an MLM transition.
func (f *flattener) emit(src *State, ev *model.Event, b *branch, pos source.Pos) (*Transition, error) {
	dst, err := f.intern(b.cfg)
	if err != nil {
		return nil, err
	}
	stmts := b.stmts
	if src != nil {
		stmts = append(slices.Clip(stmts), f.staleEvents()...)
	}
	t := &Transition{Source: src, Target: dst, Guard: f.eventFields(conj(b.guard)), Action: f.eventFieldsBlock(&ast.Block{Stmts: stmts}),
		Origins: b.origins, Entered: b.entered, Pos: pos, raised: b.raised}
	if src != nil {
		t.Event = ev.Name
	}
	f.checkParams(t, ev)
	if src != nil {
		if len(f.trans) >= f.opts.MaxTransitions {
			return nil, fmt.Errorf("flattening exceeds %d MLM transitions (at %d states; parallel regions multiply); "+
				"raise the bound (%s) or split the model", f.opts.MaxTransitions, len(f.byKey), vocab.BoundMLMTransitions.Setting())
		}
		f.trans = append(f.trans, t)
	}
	return t, nil
}

// staleEvents returns the assignments that end the processing of an event
// for the _event objects stored in variables: each becomes an earlier
// event's (model.Var.EventRef).
func (f *flattener) staleEvents() []ast.Stmt {
	var out []ast.Stmt
	for _, v := range f.m.Vars {
		if v.EventRef {
			out = append(out, &ast.Assign{Target: &ast.Ident{NamePos: v.Pos, Name: v.Name}, OpPos: v.Pos, Op: ast.ASSIGN,
				Value: &ast.IntLit{ValuePos: v.Pos, Value: lower.EventStale}})
		}
	}
	return out
}

// intern returns the MLM state of a configuration, queueing new ones.
func (f *flattener) intern(c *config) (*State, error) {
	// While its parent is active, a history value is overwritten before
	// anything can read it (the parent exits first), unless it can be
	// entered from inside: dropping it keeps equal behaviour in one state.
	for h := range c.hist {
		if c.has(h.Parent) && !f.readInside[h] {
			delete(c.hist, h)
		}
	}
	key := c.key()
	if s, ok := f.byKey[key]; ok {
		return s, nil
	}
	if len(f.byKey) >= f.opts.MaxStates {
		return nil, fmt.Errorf("flattening exceeds %d MLM states (parallel regions multiply); "+
			"raise the bound (%s) or split the model", f.opts.MaxStates, vocab.BoundMLMStates.Setting())
	}
	s := &State{Final: c.final()}
	if f.invoked {
		s.stop = f.stopCode(c)
	}
	f.byKey[key] = s
	f.cfgs[s] = c
	f.queue = append(f.queue, s)
	return s, nil
}

// nameAll gives every state its name, atomic states, history and
// position, and every transition its key, once the machine is complete:
// a wide machine that outgrows its bounds spends no time or memory on
// names, which grow with its width. It returns the states by name.
func (f *flattener) nameAll(initial []*Transition) (map[string]*State, error) {
	byName := make(map[string]*State, len(f.cfgs))
	for s, c := range f.cfgs {
		if err := f.watch.tick(); err != nil {
			return nil, err
		}
		atomic := c.atomic()
		s.Name, s.Atomic, s.History = c.name(), c.ids(atomic), c.histories()
		if len(atomic) > 0 {
			s.Pos = atomic[0].Pos
		}
		byName[s.Name] = s
	}
	for _, t := range initial {
		t.Key = transitionKey(t, "", t.Target.Name)
	}
	for _, t := range f.trans {
		t.Key = transitionKey(t, t.Source.Name, t.Target.Name)
	}
	return byName, nil
}

// transitionKey is the key of t, from a source and a target named src and
// dst: what it does (the statechart transitions of each microstep, and
// the conds that failed on some values only, after a "!") from where, on
// which event, to where.
func transitionKey(t *Transition, src, dst string) string {
	does := strings.Join(t.Origins, " ; ")
	if len(t.raised) > 0 {
		does += " !" + strings.Join(t.raised, ",")
	}
	if t.Source == nil {
		return fmt.Sprintf("initial [%s] %s", does, dst)
	}
	return fmt.Sprintf("%s %s [%s] %s", src, t.Event, does, dst)
}

// key is t's key before the states have names (nameAll), for messages.
func (f *flattener) key(t *Transition) string {
	src := ""
	if t.Source != nil {
		src = f.cfgs[t.Source].name()
	}
	return transitionKey(t, src, f.cfgs[t.Target].name())
}

// eventFields replaces the reads of _event in e that the macrostep being
// flattened decides: _event itself (true, or false while the machine
// starts), its name, and every other field on which all the arrivals of
// the event agree (model.Model.Arrivals). The others stay for the
// executors, which know how the event they process arrived. A read of a
// field while the machine starts, when there is no event, is an error.
func (f *flattener) eventFields(e ast.Expr) ast.Expr {
	if e == nil || !readsEvent(e) {
		return e
	}
	return simplify.Expr(ast.RewriteExpr(e, f.eventField))
}

// eventFieldsBlock is eventFields for every expression of b.
func (f *flattener) eventFieldsBlock(b *ast.Block) *ast.Block {
	if !readsEvent(b) {
		return ast.RewriteBlock(b, f.eventField) // a copy
	}
	return simplify.Block(ast.RewriteBlock(b, f.eventField))
}

// readsEvent reports whether n reads _event or one of its fields other
// than data.
func readsEvent(n ast.Node) bool {
	return ast.Any(n, func(n ast.Node) bool { _, ok := n.(*ast.EventField); return ok })
}

func (f *flattener) eventField(x ast.Expr) ast.Expr {
	n, ok := x.(*ast.EventField)
	if !ok {
		return x
	}
	if n.Field == "" {
		return &ast.BoolLit{ValuePos: n.Start, Value: f.event != nil}
	}
	if f.event == nil {
		return x // checkParams reports it, unless it is dead code
	}
	field, tag := lower.AbsentOf(n.Field)
	if field == "name" {
		return &ast.StrLit{ValuePos: n.Start, Value: f.event.Name}
	}
	arrivals := f.arrivals[f.event.Name]
	if len(arrivals) == 0 {
		return x // an event that never arrives: the transition never fires
	}
	v, has := arrivals[0].Field(field)
	for _, a := range arrivals[1:] {
		if w, h := a.Field(field); w != v || h != has {
			return x
		}
	}
	if tag {
		t := int64(ast.AbsentUndefined)
		if has {
			t = ast.AbsentValue
		}
		return &ast.IntLit{ValuePos: n.Start, Value: t}
	}
	return &ast.StrLit{ValuePos: n.Start, Value: v}
}

// checkParams reports _event.data reads that the transition's event does
// not carry (an eventless or entry action reached by another event, say),
// and reads of _event's fields while the machine starts, where they are
// not in code that the folded _event (false then) makes dead.
func (f *flattener) checkParams(t *Transition, ev *model.Event) {
	visit := func(n ast.Node) bool {
		if x, ok := n.(*ast.EventField); ok && ev == nil && !f.seen[x.Start] {
			f.seen[x.Start] = true
			field, _ := lower.AbsentOf(x.Field)
			f.errs.Add(f.m.Position(x.Start), "_event.%s is read while the machine starts, when there is no event", field)
		}
		p, ok := n.(*ast.EventParam)
		if !ok || f.seen[p.Start] {
			return true
		}
		if ev == nil {
			f.seen[p.Start] = true
			f.errs.Add(f.m.Position(p.Start), "_event.data.%s is read while the machine starts, when there is no event", p.Name)
			return true
		}
		if _, has := ev.Param(p.Name); !has {
			f.seen[p.Start] = true
			f.errs.Add(f.m.Position(p.Start), "_event.data.%s is read on event %q, which has no parameter %q (MLM transition %s)",
				p.Name, ev.Name, p.Name, f.key(t))
		}
		return true
	}
	if t.Guard != nil {
		ast.Inspect(t.Guard, visit)
	}
	inspectLive(t.Action, visit)
}

// inspectLive is ast.Inspect without the branches of an if whose
// condition is a constant that rules them out.
func inspectLive(n ast.Node, visit func(ast.Node) bool) {
	ast.Inspect(n, func(n ast.Node) bool {
		x, ok := n.(*ast.If)
		if !ok {
			return visit(n)
		}
		c, ok := x.Cond.(*ast.BoolLit)
		switch {
		case !ok:
			return visit(n)
		case c.Value:
			inspectLive(x.Then, visit)
		case x.Else != nil:
			inspectLive(x.Else, visit)
		}
		return false
	})
}

// conj joins conditions with &&; nil when there are none.
func conj(list []ast.Expr) ast.Expr {
	var out ast.Expr
	for _, e := range list {
		if out == nil {
			out = e
			continue
		}
		out = &ast.Binary{X: out, OpPos: e.Pos(), Op: ast.LAND, Y: e}
	}
	if out == nil {
		return nil
	}
	out = simplify.Expr(out)
	if lit, ok := out.(*ast.BoolLit); ok && lit.Value {
		return nil
	}
	return out
}

// historiesReadInside finds the history states targeted by a transition
// whose source lies inside the history's parent, or that is the parent
// itself with type internal.
func historiesReadInside(m *model.Model) map[*model.State]bool {
	out := make(map[*model.State]bool)
	for _, s := range m.States() {
		for _, t := range s.Transitions {
			for _, h := range t.Targets {
				if h.Kind != model.History {
					continue
				}
				p := h.Parent
				if t.Source.IsDescendant(p) || t.Source == p && t.Type == model.TransitionInternal {
					out[h] = true
				}
			}
		}
	}
	return out
}
