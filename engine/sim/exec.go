package sim

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// ErrAssumeFailed is what Executor.Run returns when an assume statement
// does not hold: the path is cut. Only the flattener emits assume.
var ErrAssumeFailed = errors.New("assume failed")

// BoundError is what Executor.Run returns where a bound statement does
// not hold: the path meets a bound of the model (an array that grows past
// its bound), where the symbolic executor cuts it and reports the hit. A
// concrete run cannot go on there either.
type BoundError struct {
	Bound vocab.Bound // the bound's name, as the symbolic executor reports it
	Limit int64
	Pos   string // where the statement is
	What  string
}

func (e *BoundError) Error() string { return e.Pos + ": " + e.What }

// Route says where an event that code raises or sends goes.
type Route int

// The routes of the SCXML algorithm (README.md, "Models").
const (
	ToInternal Route = iota // raise, or send to #_internal: the internal queue
	ToSelf                  // send without a target: the machine's own external queue
	ToTimer                 // send with a delay to the machine: a new pending timer
	ToOutput                // send to any other target: an output of the machine
)

// Executor runs guards and actions of the action language on concrete
// values. It is the one concrete semantics of the language: the simulator
// runs the flattened machine's code with it and the reference interpreter
// (engine/interp) the statechart's, so the two can differ only in how they
// run the statechart, never in what an expression means.
//
// Values are int64 and bool. Overflow of + - * / or negation is an error;
// division and remainder follow C with x / 0 = 0 and x % 0 = x. &&, || and
// ?: short-circuit, and every branching point evaluated (the left operand
// of && and ||, the condition of ?:, of if, of each loop test and of
// assume) adds a 't' or 'f' to the decision path.
//
// The machine-specific parts are hooks: In answers In('state'), Emit
// receives every raise and send and Cancel every cancel, in the order the
// code executes them.
type Executor struct {
	// Vars are the machine's variables; assignments write them in place.
	Vars map[string]Value
	// Event is the event being processed, which _event.data reads; nil
	// when there is none (while the machine starts).
	Event *Event
	// In reports whether a state is active; its error is reported at the
	// In() expression.
	In func(state string) (bool, error)
	// Emit receives each raised or sent event, with how it arrives (its
	// Meta), with its route, for an output its target, and for a timer its
	// send id ("" when it has none) and, timed, its delay in ms.
	Emit func(r Route, ev Event, target, sendID string, delay int64)
	// Timed makes delayed sends read their delay (a CSS2 duration) for
	// Emit.
	Timed bool
	// Cancel receives the send id of each cancel: every pending timer sent
	// with it (with prefix, with an id that begins with it) is to be
	// removed.
	Cancel func(sendID string, prefix bool)
	// LoopLimit bounds the iterations of one execution of one loop
	// (DefaultLoopLimit when zero or negative).
	LoopLimit int
	// Source resolves positions in errors (nil: none are given).
	Source *model.Model
	// Fallback stands for the position of nodes built without one (code
	// the flattener assembled, say).
	Fallback source.Pos

	scopes []map[string]Value // block-scoped locals, innermost last
	path   []byte             // decision path: 't' or 'f' per evaluated branching point
}

// Path returns the decision path recorded so far.
func (x *Executor) Path() string { return string(x.path) }

// Run executes a block in a new scope. It returns ErrAssumeFailed when an
// assume statement cuts the path.
func (x *Executor) Run(b *ast.Block) error {
	if b == nil {
		return nil
	}
	return x.block(b)
}

func (x *Executor) record(b bool) {
	if b {
		x.path = append(x.path, 't')
	} else {
		x.path = append(x.path, 'f')
	}
}

// pos resolves n's position in the model, falling back on Fallback for
// nodes built without one.
func (x *Executor) pos(n ast.Node) string {
	p := n.Pos()
	if !p.IsValid() {
		p = x.Fallback
	}
	if x.Source == nil || !p.IsValid() {
		return source.Position{}.String()
	}
	return x.Source.Position(p).String()
}

// lookup finds a local (innermost scope first) or a machine variable.
func (x *Executor) lookup(name string) (Value, bool) {
	for i := len(x.scopes) - 1; i >= 0; i-- {
		if v, ok := x.scopes[i][name]; ok {
			return v, true
		}
	}
	v, ok := x.Vars[name]
	return v, ok
}

// store writes the innermost local or machine variable called name.
func (x *Executor) store(id *ast.Ident, v Value) error {
	for i := len(x.scopes) - 1; i >= 0; i-- {
		if _, ok := x.scopes[i][id.Name]; ok {
			x.scopes[i][id.Name] = v
			return nil
		}
	}
	if _, ok := x.Vars[id.Name]; ok {
		x.Vars[id.Name] = v
		return nil
	}
	return x.errorf(id, "unknown variable %s", id.Name)
}

func (x *Executor) push() { x.scopes = append(x.scopes, map[string]Value{}) }
func (x *Executor) pop()  { x.scopes = x.scopes[:len(x.scopes)-1] }

// block runs b in a new scope.
func (x *Executor) block(b *ast.Block) error {
	x.push()
	defer x.pop()
	for _, st := range b.Stmts {
		if err := x.stmt(st); err != nil {
			return err
		}
	}
	return nil
}

func (x *Executor) stmt(st ast.Stmt) error {
	switch s := st.(type) {
	case *ast.Block:
		return x.block(s)
	case *ast.Assign:
		return x.assign(s)
	case *ast.IncDec:
		return x.incDec(s)
	case *ast.Decl:
		return x.decl(s)
	case *ast.If:
		c, err := x.cond(s.Cond)
		switch {
		case err != nil:
			return err
		case c:
			return x.block(s.Then)
		case s.Else != nil:
			return x.stmt(s.Else)
		}
		return nil
	case *ast.While:
		return x.loop(s, s.Cond, s.Body, nil)
	case *ast.For:
		return x.forStmt(s)
	case *ast.Raise:
		meta := model.Meta{Type: model.TypeInternal, SendID: s.ID}
		if s.Platform {
			meta.Type = model.TypePlatform
		}
		return x.emit(s, ToInternal, Event{Name: s.Event, Meta: meta}, s.Args, "", 0)
	case *ast.Send:
		return x.send(s)
	case *ast.Cancel:
		if x.Cancel == nil {
			return x.errorf(s, "cancel %q where no timers are kept", s.SendID)
		}
		x.Cancel(s.SendID, s.Prefix)
		return nil
	case *ast.Assume, *ast.Bound:
		return x.check(s)
	}
	return x.errorf(st, "unsupported statement %T", st)
}

// incDec executes x++ and x--.
func (x *Executor) incDec(s *ast.IncDec) error {
	old, err := x.Eval(s.Target)
	if err != nil {
		return err
	}
	op := ast.ADD
	if s.Op == ast.DEC {
		op = ast.SUB
	}
	if old.Kind == ast.Decimal {
		v, err := x.decimalBinary(&ast.Binary{X: s.Target, OpPos: s.OpPos, Op: op, Y: &ast.DecLit{Value: big.NewRat(1, 1)}}, old.Rat)
		if err != nil {
			return err
		}
		return x.store(s.Target, v)
	}
	if old.Kind != ast.Int {
		return x.errorf(s, "%s%s needs an int", s.Target.Name, s.Op)
	}
	n, ok, _ := arith(op, old.Int, 1)
	if !ok {
		return x.overflow(s, s.Target.Name+s.Op.String())
	}
	return x.store(s.Target, IntValue(n))
}

// forStmt executes a for loop, its initialisation in a scope of its own.
func (x *Executor) forStmt(s *ast.For) error {
	x.push()
	defer x.pop()
	if s.Init != nil {
		if err := x.stmt(s.Init); err != nil {
			return err
		}
	}
	return x.loop(s, s.Cond, s.Body, s.Post)
}

// send executes a send. The reader refuses a delayed send to another
// target than the machine itself, but for #_parent: a timer with that
// target, which the executor's owner relays to the parent (or makes an
// output of, in a machine nobody invokes).
func (x *Executor) send(s *ast.Send) error {
	ev := Event{Name: s.Event, Meta: model.SendMeta(s)}
	switch {
	case s.Delay != nil:
		var delay int64
		if x.Timed {
			d, err := x.Eval(s.Delay)
			if err != nil {
				return err
			}
			if d.Kind != ast.String {
				return x.errorf(s, "the delay is %s, not a duration", d)
			}
			if delay, err = model.ParseDelay(d.Str); err != nil {
				return x.errorf(s, "%v", err)
			}
		}
		return x.emit(s, ToTimer, ev, s.Args, s.Target, delay)
	case s.Target != "":
		return x.emit(s, ToOutput, Event{Name: s.Event, Meta: model.Meta{SendID: s.ID}}, s.Args, s.Target, 0)
	}
	return x.emit(s, ToSelf, ev, s.Args, "", 0)
}

// check executes an assume or a bound: a false condition ends the run.
func (x *Executor) check(st ast.Stmt) error {
	switch s := st.(type) {
	case *ast.Assume:
		c, err := x.cond(s.Cond)
		if err != nil {
			return err
		}
		if !c {
			return ErrAssumeFailed
		}
	case *ast.Bound:
		c, err := x.cond(s.Cond)
		if err != nil {
			return err
		}
		if !c {
			return &BoundError{Bound: s.Name, Limit: s.Limit, Pos: x.pos(s), What: s.What()}
		}
	}
	return nil
}

func (x *Executor) assign(s *ast.Assign) error {
	v, err := x.Eval(s.Value)
	if err != nil {
		return err
	}
	if s.Op == ast.ASSIGN {
		return x.store(s.Target, v)
	}
	op, ok := assignOps[s.Op]
	if !ok {
		return x.errorf(s, "unsupported assignment %s", s.Op)
	}
	old, err := x.Eval(s.Target)
	if err != nil {
		return err
	}
	if op == ast.ADD && old.Kind == ast.String && v.Kind == ast.String {
		v, err := x.concat(s, old.Str, v.Str)
		if err != nil {
			return err
		}
		return x.store(s.Target, v)
	}
	if old.Kind == ast.Decimal && v.Kind == ast.Decimal {
		r, err := x.decimalBinary(&ast.Binary{X: s.Target, OpPos: s.OpPos, Op: op, Y: &ast.DecLit{ValuePos: s.Value.Pos(), Value: v.Rat}}, old.Rat)
		if err != nil {
			return err
		}
		return x.store(s.Target, r)
	}
	if old.Kind != ast.Int || v.Kind != ast.Int {
		return x.errorf(s, "%s needs int operands", s.Op)
	}
	n, ok, _ := arith(op, old.Int, v.Int)
	if !ok {
		return x.overflow(s, fmt.Sprintf("%s %s %s", s.Target.Name, s.Op, printer.ExprString(s.Value)))
	}
	return x.store(s.Target, IntValue(n))
}

// decl declares a local in the innermost scope; a typed declaration
// without a value starts at 0 or false.
func (x *Executor) decl(s *ast.Decl) error {
	var v Value
	switch {
	case s.Value != nil:
		var err error
		if v, err = x.Eval(s.Value); err != nil {
			return err
		}
	case s.Type.Kind == ast.Int:
		v = IntValue(0)
	case s.Type.Kind == ast.Bool:
		v = BoolValue(false)
	case s.Type.Kind == ast.String:
		v = StringValue("")
	case s.Type.Kind == ast.Decimal:
		v = DecimalValue(new(big.Rat))
	default:
		return x.errorf(s, "declaration of %s has neither a type nor a value", s.Name.Name)
	}
	x.scopes[len(x.scopes)-1][s.Name.Name] = v
	return nil
}

// loop runs a while or for loop, at most LoopLimit iterations. A missing
// for condition is true, and records 't' like any loop test.
func (x *Executor) loop(n ast.Node, cond ast.Expr, body *ast.Block, post ast.Stmt) error {
	limit := x.LoopLimit
	if limit <= 0 {
		limit = DefaultLoopLimit
	}
	for i := 0; ; i++ {
		if cond == nil {
			x.record(true)
		} else {
			c, err := x.cond(cond)
			if err != nil {
				return err
			}
			if !c {
				return nil
			}
		}
		if i == limit {
			return fmt.Errorf("loop at %s ran more than %d iterations", x.pos(n), limit)
		}
		if err := x.block(body); err != nil {
			return err
		}
		if post != nil {
			if err := x.stmt(post); err != nil {
				return err
			}
		}
	}
}

// emit evaluates a raise's or send's arguments and hands ev, with them, to
// Emit. Every delayed send is its own event: an earlier one of the same
// name stays pending.
func (x *Executor) emit(n ast.Node, r Route, ev Event, list []*ast.Arg, target string, delay int64) error {
	ev.Args = make(map[string]Value, len(list))
	for _, a := range list {
		v, err := x.Eval(a.Value)
		if err != nil {
			return err
		}
		ev.Args[a.Name] = v
	}
	if x.Emit == nil {
		return x.errorf(n, "event %s is sent where no queue receives it", ev.Name)
	}
	x.Emit(r, ev, target, ev.Meta.SendID, delay)
	return nil
}
