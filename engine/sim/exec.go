package sim

import (
	"errors"
	"fmt"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
)

// errAssumeFailed cuts a candidate transition whose assume statement does
// not hold; the caller tries the next candidate.
var errAssumeFailed = errors.New("assume failed")

// A frame runs one candidate transition's guard and action on a copy of
// the machine's variables, collecting what the action would do. Nothing
// reaches the machine unless the candidate completes (commit).
type frame struct {
	s      *Sim
	tr     *mlm.Transition // nil while evaluating initial values
	ev     *Event          // nil for the initial transitions
	vars   map[string]Value
	scopes []map[string]Value // block-scoped locals, innermost last

	raised   []Event // to the internal queue
	selfSent []Event // to the self queue
	timers   []Event // delayed sends to the machine, in the order they were made
	outputs  []Output
	path     []byte // decision path: 't' or 'f' per evaluated branching point
}

func newFrame(s *Sim, tr *mlm.Transition, ev *Event, vars map[string]Value) *frame {
	cp := make(map[string]Value, len(vars))
	for k, v := range vars {
		cp[k] = v
	}
	return &frame{s: s, tr: tr, ev: ev, vars: cp}
}

func (f *frame) record(b bool) {
	if b {
		f.path = append(f.path, 't')
	} else {
		f.path = append(f.path, 'f')
	}
}

// pos resolves n's position in the model, falling back on the transition's
// own position for nodes the flattener built without one.
func (f *frame) pos(n lang.Node) string {
	p := n.Pos()
	if !p.IsValid() && f.tr != nil {
		p = f.tr.Pos
	}
	if f.s.m.Source == nil || !p.IsValid() {
		return source.Position{}.String()
	}
	return f.s.m.Source.Position(p).String()
}

// lookup finds a local (innermost scope first) or a machine variable.
func (f *frame) lookup(name string) (Value, bool) {
	for i := len(f.scopes) - 1; i >= 0; i-- {
		if v, ok := f.scopes[i][name]; ok {
			return v, true
		}
	}
	v, ok := f.vars[name]
	return v, ok
}

// store writes the innermost local or machine variable called name.
func (f *frame) store(id *lang.Ident, v Value) error {
	for i := len(f.scopes) - 1; i >= 0; i-- {
		if _, ok := f.scopes[i][id.Name]; ok {
			f.scopes[i][id.Name] = v
			return nil
		}
	}
	if _, ok := f.vars[id.Name]; ok {
		f.vars[id.Name] = v
		return nil
	}
	return f.errorf(id, "unknown variable %s", id.Name)
}

func (f *frame) push() { f.scopes = append(f.scopes, map[string]Value{}) }
func (f *frame) pop()  { f.scopes = f.scopes[:len(f.scopes)-1] }

// block runs b in a new scope.
func (f *frame) block(b *lang.Block) error {
	f.push()
	defer f.pop()
	for _, st := range b.Stmts {
		if err := f.stmt(st); err != nil {
			return err
		}
	}
	return nil
}

func (f *frame) stmt(st lang.Stmt) error {
	switch x := st.(type) {
	case *lang.Block:
		return f.block(x)
	case *lang.Assign:
		return f.assign(x)
	case *lang.IncDec:
		old, err := f.eval(x.Target)
		if err != nil {
			return err
		}
		if old.Kind != lang.Int {
			return f.errorf(x, "%s%s needs an int", x.Target.Name, x.Op)
		}
		op := lang.ADD
		if x.Op == lang.DEC {
			op = lang.SUB
		}
		n, ok, _ := arith(op, old.Int, 1)
		if !ok {
			return f.overflow(x, x.Target.Name+x.Op.String())
		}
		return f.store(x.Target, IntValue(n))
	case *lang.Decl:
		return f.decl(x)
	case *lang.If:
		c, err := f.cond(x.Cond)
		switch {
		case err != nil:
			return err
		case c:
			return f.block(x.Then)
		case x.Else != nil:
			return f.stmt(x.Else)
		}
		return nil
	case *lang.While:
		return f.loop(x, x.Cond, x.Body, nil)
	case *lang.For:
		f.push()
		defer f.pop()
		if x.Init != nil {
			if err := f.stmt(x.Init); err != nil {
				return err
			}
		}
		return f.loop(x, x.Cond, x.Body, x.Post)
	case *lang.Raise:
		args, err := f.args(x.Args)
		if err != nil {
			return err
		}
		f.raised = append(f.raised, Event{Name: x.Event, Args: args})
		return nil
	case *lang.Send:
		return f.send(x)
	case *lang.Assume:
		c, err := f.cond(x.Cond)
		if err != nil {
			return err
		}
		if !c {
			return errAssumeFailed
		}
		return nil
	}
	return f.errorf(st, "unsupported statement %T", st)
}

func (f *frame) assign(x *lang.Assign) error {
	v, err := f.eval(x.Value)
	if err != nil {
		return err
	}
	if x.Op == lang.ASSIGN {
		return f.store(x.Target, v)
	}
	op, ok := assignOps[x.Op]
	if !ok {
		return f.errorf(x, "unsupported assignment %s", x.Op)
	}
	old, err := f.eval(x.Target)
	if err != nil {
		return err
	}
	if old.Kind != lang.Int || v.Kind != lang.Int {
		return f.errorf(x, "%s needs int operands", x.Op)
	}
	n, ok, _ := arith(op, old.Int, v.Int)
	if !ok {
		return f.overflow(x, fmt.Sprintf("%s %s %s", x.Target.Name, x.Op, lang.ExprString(x.Value)))
	}
	return f.store(x.Target, IntValue(n))
}

// decl declares a local in the innermost scope; a typed declaration
// without a value starts at 0 or false.
func (f *frame) decl(x *lang.Decl) error {
	var v Value
	switch {
	case x.Value != nil:
		var err error
		if v, err = f.eval(x.Value); err != nil {
			return err
		}
	case x.Type.Kind == lang.Int:
		v = IntValue(0)
	case x.Type.Kind == lang.Bool:
		v = BoolValue(false)
	default:
		return f.errorf(x, "declaration of %s has neither a type nor a value", x.Name.Name)
	}
	f.scopes[len(f.scopes)-1][x.Name.Name] = v
	return nil
}

// loop runs a while or for loop, at most Options.LoopLimit iterations. A
// missing for condition is true, and records 't' like any loop test.
func (f *frame) loop(n lang.Node, cond lang.Expr, body *lang.Block, post lang.Stmt) error {
	for i := 0; ; i++ {
		if cond == nil {
			f.record(true)
		} else {
			c, err := f.cond(cond)
			if err != nil {
				return err
			}
			if !c {
				return nil
			}
		}
		if i == f.s.opts.LoopLimit {
			return fmt.Errorf("loop at %s ran more than %d iterations", f.pos(n), f.s.opts.LoopLimit)
		}
		if err := f.block(body); err != nil {
			return err
		}
		if post != nil {
			if err := f.stmt(post); err != nil {
				return err
			}
		}
	}
}

// send routes a send statement: to another target an output; to the
// machine itself with a delay a new pending timer (every delayed send is
// its own event: an earlier one of the same name stays pending); without
// one the self queue.
func (f *frame) send(x *lang.Send) error {
	args, err := f.args(x.Args)
	if err != nil {
		return err
	}
	switch {
	case x.Target != "":
		f.outputs = append(f.outputs, Output{Event: x.Event, Target: x.Target, Args: args})
	case x.Delay != "":
		f.timers = append(f.timers, Event{Name: x.Event, Args: args})
	default:
		f.selfSent = append(f.selfSent, Event{Name: x.Event, Args: args})
	}
	return nil
}

func (f *frame) args(list []*lang.Arg) (map[string]Value, error) {
	out := make(map[string]Value, len(list))
	for _, a := range list {
		v, err := f.eval(a.Value)
		if err != nil {
			return nil, err
		}
		out[a.Name] = v
	}
	return out, nil
}

// run evaluates the transition's guard and, when it holds, its action. It
// reports whether the transition completes: false when the guard is false
// or an assume statement cuts it.
func (f *frame) run() (bool, error) {
	if f.tr.Guard != nil {
		g, err := f.evalBool(f.tr.Guard)
		if err != nil || !g {
			return false, err
		}
	}
	if f.tr.Action == nil {
		return true, nil
	}
	switch err := f.block(f.tr.Action); {
	case errors.Is(err, errAssumeFailed):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}
