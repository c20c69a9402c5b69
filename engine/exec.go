package engine

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/ecma"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// run is one path through an input step under construction: the machine's
// symbolic state plus what the step has done so far.
type run struct {
	state   *mlm.State
	vals    []solver.Term
	pc      []solver.Term
	timers  []Timer
	inner   []queued // internal queue
	self    []queued // the machine's own external queue
	fired   []Fired
	outputs []Output
	trace   []string // (state, event) pairs processed
	micro   int      // queued events processed in this step

	// Per transition being fired.
	args   map[string]solver.Term   // _event.data
	meta   model.Meta               // how the event arrived: _event's other fields
	scopes []map[string]solver.Term // innermost last; a scope's map is made by its first declaration
	dec    []byte
}

// declare declares the local name, of value v, in the innermost scope.
func (r *run) declare(name string, v solver.Term) {
	top := &r.scopes[len(r.scopes)-1]
	if *top == nil {
		*top = make(map[string]solver.Term)
	}
	(*top)[name] = v
}

type queued struct {
	event string
	args  []Arg
	meta  model.Meta
}

func (r *run) clone() *run {
	n := *r
	n.vals = append([]solver.Term(nil), r.vals...)
	n.pc = append([]solver.Term(nil), r.pc...)
	n.timers = append([]Timer(nil), r.timers...)
	n.inner = append([]queued(nil), r.inner...)
	n.self = append([]queued(nil), r.self...)
	n.fired = append([]Fired(nil), r.fired...)
	n.outputs = append([]Output(nil), r.outputs...)
	n.trace = append([]string(nil), r.trace...)
	n.dec = append([]byte(nil), r.dec...)
	n.scopes = make([]map[string]solver.Term, len(r.scopes))
	for i, s := range r.scopes {
		n.scopes[i] = maps.Clone(s) // nil for a scope with no local yet
	}
	return &n
}

// executor runs MLM transitions symbolically.
type executor struct {
	m      *mlm.Machine
	tab    *solver.Table
	or     *oracle
	opts   Options
	varIdx map[string]int
	bounds map[vocab.Bound]int // cuts per bound
	// limits holds the limit of each bound the model sets (a Bound
	// statement's), the largest one that cut a run: the options set the
	// others.
	limits map[vocab.Bound]int64
	err    error // the first runtime error (a flattener invariant broken)

	// lastCut says where and why a bound last cut a run, for an error
	// that names the loop when the machine cannot even start.
	lastCut *StartError
}

// cut records that a bound cut a run, and why, with the position at
// fault.
func (x *executor) cut(bound vocab.Bound, pos source.Pos, format string, args ...any) {
	x.bounds[bound]++
	x.lastCut = &StartError{Pos: x.m.Source.Position(pos), Msg: fmt.Sprintf(format, args...)}
}

func (x *executor) fail(format string, args ...any) {
	if x.err == nil {
		x.err = fmt.Errorf(format, args...)
	}
}

// branch splits r on a boolean term, recording the decision: it returns the
// run where c holds and the one where it does not (nil when infeasible).
func (x *executor) branch(r *run, c solver.Term) (t, f *run) {
	if v, ok := x.tab.BoolValue(c); ok {
		if v {
			r.dec = append(r.dec, 't')
			return r, nil
		}
		r.dec = append(r.dec, 'f')
		return nil, r
	}
	canT := x.or.sat(r.pc, c)
	canF := !canT || x.or.sat(r.pc, x.tab.Not(c))
	if canT && canF && x.or.undecided(r.pc, c) {
		if t, f, ok := x.concolic(r, c); ok {
			if t != nil {
				t.dec = append(t.dec, 't')
			}
			if f != nil {
				f.dec = append(f.dec, 'f')
			}
			return t, f
		}
	}
	switch {
	case canT && canF:
		f = r.clone()
		r.pc = append(r.pc, c)
		r.dec = append(r.dec, 't')
		f.pc = append(f.pc, x.tab.Not(c))
		f.dec = append(f.dec, 'f')
		return r, f
	case canT:
		r.dec = append(r.dec, 't')
		return r, nil
	default:
		r.dec = append(r.dec, 'f')
		return nil, r
	}
}

// require keeps r only where c holds, without recording a decision.
func (x *executor) require(r *run, c solver.Term) *run {
	if v, ok := x.tab.BoolValue(c); ok {
		if v {
			return r
		}
		return nil
	}
	if !x.or.sat(r.pc, c) {
		return nil
	}
	// On a path pinned to concrete values, a condition the solver left
	// unknown is decided with those values, as branch decides one: kept
	// unknown, it could contradict the pins, and no test would reach the
	// path. Elsewhere it is kept: the path may be feasible.
	if x.or.undecided(r.pc, c) && x.pinned(r.pc, c) {
		if t, _, ok := x.concolic(r, c); ok {
			return t
		}
	}
	r.pc = append(r.pc, c)
	return r
}

// pinned reports whether a conjunct of pc that shares variables with c
// pins them to concrete values.
func (x *executor) pinned(pc []solver.Term, c solver.Term) bool {
	for _, p := range x.or.Slice(pc, x.tab.Vars(c)) {
		if x.tab.Concretised(p) {
			return true
		}
	}
	return false
}

type valued struct {
	r *run
	v solver.Term
}

// evalThen evaluates e on r and applies f to each value.
func (x *executor) evalThen(r *run, e ast.Expr, f func(solver.Term) solver.Term) []valued {
	out := x.eval(r, e)
	for i := range out {
		out[i].v = f(out[i].v)
	}
	return out
}

// eval evaluates e on r, forking where && || ?: branch on a symbolic value.
func (x *executor) eval(r *run, e ast.Expr) []valued {
	switch e := e.(type) {
	case *ast.IntLit:
		return []valued{{r, x.tab.Int(e.Value)}}
	case *ast.DecLit:
		return []valued{{r, x.tab.Rat(e.Value)}}
	case *ast.ToDecimal:
		return x.evalThen(r, e.X, x.tab.ToReal)
	case *ast.BoolLit:
		return []valued{{r, x.tab.Bool(e.Value)}}
	case *ast.StrLit:
		return []valued{{r, x.tab.Str(e.Value)}}
	case *ast.Method:
		return x.method(r, e)
	case *ast.External:
		return x.external(r, e)
	case *ast.Floor:
		return x.evalThen(r, e.X, x.tab.Floor)
	case *ast.Digits:
		return x.evalThen(r, e.X, x.tab.Digits)
	case *ast.Convert:
		return x.evalConvert(r, e)
	case *ast.Ident:
		return []valued{{r, x.lookup(r, e.Name)}}
	case *ast.EventField:
		return []valued{{r, x.eventField(r, e)}}
	case *ast.EventParam:
		return []valued{{r, x.eventParam(r, e)}}
	case *ast.InState:
		x.fail("%s: In() left in a flattened machine", x.m.Source.Position(e.Start))
		return []valued{{r, x.tab.Bool(false)}}
	case *ast.Unary:
		return x.evalThen(r, e.X, func(v solver.Term) solver.Term { return x.unary(e.Op, v) })
	case *ast.Binary:
		if e.Op == ast.LAND || e.Op == ast.LOR {
			return x.logical(r, e)
		}
		return x.evalBinary(r, e)
	case *ast.Cond:
		return x.evalCond(r, e)
	}
	x.fail("unexpected expression %T", e)
	return []valued{{r, x.tab.Bool(false)}}
}

// evalConvert evaluates a conversion to a number on each value of its
// operand, keeping the paths where it is exact.
func (x *executor) evalConvert(r *run, e *ast.Convert) []valued {
	var out []valued
	for _, a := range x.eval(r, e.X) {
		v, exact := x.convert(e, a.v)
		// Not a decision: the simulator stops where the value is not
		// exact, as the path is cut here.
		if c, known := x.tab.BoolValue(exact); !known && x.or.sat(a.r.pc, x.tab.Not(exact)) || known && !c {
			x.limits[vocab.BoundNumber] = ecma.MaxDigits
			x.cut(vocab.BoundNumber, e.Start, "%s", convertWhat(e))
		}
		if t := x.require(a.r, exact); t != nil {
			out = append(out, valued{t, v})
		}
	}
	return out
}

// eventParam reads _event.data.name of the event r handles.
func (x *executor) eventParam(r *run, e *ast.EventParam) solver.Term {
	v, ok := r.args[e.Name]
	if !ok {
		x.fail("%s: _event.data.%s read on an event without it", x.m.Source.Position(e.Start), e.Name)
		v = x.tab.Int(0)
	}
	return v
}

// evalBinary evaluates a binary operator but && and || on each pair of
// its operands' values.
func (x *executor) evalBinary(r *run, e *ast.Binary) []valued {
	var out []valued
	for _, a := range x.eval(r, e.X) {
		for _, b := range x.eval(a.r, e.Y) {
			out = append(out, valued{b.r, x.binary(e.Op, a.v, b.v)})
		}
	}
	return out
}

// evalCond evaluates c ? a : b, forking on c.
func (x *executor) evalCond(r *run, e *ast.Cond) []valued {
	var out []valued
	for _, c := range x.eval(r, e.Cond) {
		t, f := x.branch(c.r, c.v)
		if t != nil {
			out = append(out, x.eval(t, e.Then)...)
		}
		if f != nil {
			out = append(out, x.eval(f, e.Else)...)
		}
	}
	return out
}

// convert computes the conversion e of the value a, and the condition
// under which it is ECMAScript's.
func (x *executor) convert(e *ast.Convert, a solver.Term) (v, exact solver.Term) {
	str := x.tab.Sort(a) == solver.StringSort
	switch {
	case e.Fun == "parseInt" && str:
		return x.tab.ParseInt(a, e.Radix10)
	case e.Fun == "parseInt":
		return x.tab.ParseIntReal(a)
	case e.Fun == "Number":
		return x.tab.Number(a)
	}
	return x.tab.NumberString(a)
}

// convertWhat says why a conversion cuts a path, as the simulator's
// error does.
func convertWhat(e *ast.Convert) string {
	return fmt.Sprintf("%s is NaN or beyond the range setbot computes exactly (the number bound)", printer.ExprString(e))
}

// logical evaluates && and || with C's short circuit: the left operand is
// a branching point.
func (x *executor) logical(r *run, e *ast.Binary) []valued {
	var out []valued
	for _, a := range x.eval(r, e.X) {
		t, f := x.branch(a.r, a.v)
		if e.Op == ast.LAND {
			if t != nil {
				out = append(out, x.eval(t, e.Y)...)
			}
			if f != nil {
				out = append(out, valued{f, x.tab.Bool(false)})
			}
			continue
		}
		if t != nil {
			out = append(out, valued{t, x.tab.Bool(true)})
		}
		if f != nil {
			out = append(out, x.eval(f, e.Y)...)
		}
	}
	return out
}

// method evaluates a string property or method (ast.StringMethods).
func (x *executor) method(r *run, e *ast.Method) []valued {
	var out []valued
	for _, recv := range x.eval(r, e.X) {
		parts := []valued{recv}
		args := make([][]solver.Term, 1)
		for _, a := range e.Args {
			var next []valued
			var nargs [][]solver.Term
			for i, p := range parts {
				for _, v := range x.eval(p.r, a) {
					next = append(next, valued{v.r, p.v})
					nargs = append(nargs, append(slices.Clip(args[i]), v.v))
				}
			}
			parts, args = next, nargs
		}
		for i, p := range parts {
			out = append(out, valued{p.r, x.stringOp(e, p.v, args[i])})
		}
	}
	return out
}

// stringOp applies the string method of e to recv and its arguments.
func (x *executor) stringOp(e *ast.Method, recv solver.Term, args []solver.Term) solver.Term {
	t := x.tab
	switch e.Name {
	case "length":
		return t.Length(recv)
	case "indexOf":
		return t.IndexOf(recv, args[0])
	case "lastIndexOf":
		if len(args) == 1 { // the lowering writes lastIndexOf(t, from) with substring
			return t.LastIndexOf(recv, args[0])
		}
	case "startsWith":
		return t.StartsWith(recv, args[0])
	case "endsWith":
		return t.EndsWith(recv, args[0])
	case "includes":
		return t.Includes(recv, args[0])
	case "charAt":
		return t.CharAt(recv, args[0])
	case "substring":
		if len(args) == 1 {
			return t.Substring(recv, args[0], t.Length(recv))
		}
		return t.Substring(recv, args[0], args[1])
	}
	x.fail("%s: unexpected string method %s", x.m.Source.Position(e.DotPos), e.Name)
	return recv
}

func (x *executor) unary(op ast.Token, a solver.Term) solver.Term {
	switch op {
	case ast.NOT:
		return x.tab.Not(a)
	case ast.TILD:
		return x.tab.BitNot(a)
	}
	return x.tab.Neg(a)
}

func (x *executor) binary(op ast.Token, a, b solver.Term) solver.Term {
	t := x.tab
	// Lowered code converts an int that meets a decimal; an invariant,
	// which is not lowered, may leave it to here.
	if sa, sb := t.Sort(a), t.Sort(b); sa != sb && (sa == solver.RealSort || sb == solver.RealSort) {
		if sa == solver.IntSort {
			a = t.ToReal(a)
		}
		if sb == solver.IntSort {
			b = t.ToReal(b)
		}
	}
	switch op {
	case ast.ADD:
		if t.Sort(a) == solver.StringSort {
			return t.Concat(a, b)
		}
		return t.Add(a, b)
	case ast.AND:
		return t.BitAnd(a, b)
	case ast.OR:
		return t.BitOr(a, b)
	case ast.XOR:
		return t.BitXor(a, b)
	case ast.SHL:
		return t.Shl(a, b)
	case ast.SHR:
		return t.Shr(a, b)
	case ast.USHR:
		return t.UShr(a, b)
	case ast.SUB:
		return t.Sub(a, b)
	case ast.MUL:
		return t.Mul(a, b)
	case ast.QUO:
		return t.Div(a, b)
	case ast.REM:
		return t.Rem(a, b)
	case ast.EQL:
		return t.Eq(a, b)
	case ast.NEQ:
		return t.Ne(a, b)
	case ast.LSS:
		return t.Lt(a, b)
	case ast.GTR:
		return t.Gt(a, b)
	case ast.LEQ:
		return t.Le(a, b)
	case ast.GEQ:
		return t.Ge(a, b)
	}
	x.fail("unexpected operator %s", op)
	return a
}

// eventField reads a field of _event that the flattener left, one that
// differs between the ways the event arrives, or its tag (lower.AbsentOf):
// the run knows how the event it processes arrived, so the value is a
// constant.
func (x *executor) eventField(r *run, e *ast.EventField) solver.Term {
	field, tag := lower.AbsentOf(e.Field)
	v, has := r.meta.Field(field)
	switch {
	case e.Field == "" || field == "name" || !ast.EventFields[field]:
		x.fail("%s: _event.%s left in a flattened machine", x.m.Source.Position(e.Start), e.Field)
		return x.tab.Int(0)
	case !tag:
		return x.tab.Str(v)
	}
	if has {
		return x.tab.Int(ast.AbsentValue)
	}
	return x.tab.Int(ast.AbsentUndefined)
}

// timerMeta is how a timer's event arrives: sent by the machine to
// itself, with the timer's send id.
func timerMeta(t Timer) model.Meta { return model.Meta{SendID: t.ID, Self: true} }

func (x *executor) lookup(r *run, name string) solver.Term {
	for i := len(r.scopes) - 1; i >= 0; i-- {
		if v, ok := r.scopes[i][name]; ok {
			return v
		}
	}
	if i, ok := x.varIdx[name]; ok {
		return r.vals[i]
	}
	x.fail("undeclared name %s in a flattened machine", name)
	return x.tab.Int(0)
}

func (x *executor) store(r *run, name string, v solver.Term) {
	for i := len(r.scopes) - 1; i >= 0; i-- {
		if _, ok := r.scopes[i][name]; ok {
			r.scopes[i][name] = v
			return
		}
	}
	if i, ok := x.varIdx[name]; ok {
		r.vals[i] = v
		return
	}
	x.fail("assignment to undeclared %s in a flattened machine", name)
}

// execList runs statements on every run in turn.
func (x *executor) execList(rs []*run, stmts []ast.Stmt) []*run {
	for _, s := range stmts {
		var next []*run
		for _, r := range rs {
			next = append(next, x.exec(r, s)...)
		}
		rs = next
	}
	return rs
}

func (x *executor) block(rs []*run, b *ast.Block) []*run {
	for _, r := range rs {
		r.scopes = append(r.scopes, nil)
	}
	rs = x.execList(rs, b.Stmts)
	for _, r := range rs {
		r.scopes = r.scopes[:len(r.scopes)-1]
	}
	return rs
}

// assignment executes an assignment, plain or compound. A value past
// the term bound cuts the run (kept).
func (x *executor) assignment(r *run, s *ast.Assign) []*run {
	var out []*run
	for _, v := range x.eval(r, s.Value) {
		val := v.v
		if s.Op != ast.ASSIGN {
			val = x.binary(compoundOp[s.Op], x.lookup(v.r, s.Target.Name), val)
		}
		if x.kept(val, s.Pos()) {
			x.store(v.r, s.Target.Name, val)
			out = append(out, v.r)
		}
	}
	return out
}

// incDec executes ++ or --. A value past the term bound cuts the run
// (kept).
func (x *executor) incDec(r *run, s *ast.IncDec) []*run {
	delta := x.tab.Int(1)
	if s.Op == ast.DEC {
		delta = x.tab.Int(-1)
	}
	if x.tab.Sort(x.lookup(r, s.Target.Name)) == solver.RealSort {
		delta = x.tab.ToReal(delta)
	}
	val := x.tab.Add(x.lookup(r, s.Target.Name), delta)
	if !x.kept(val, s.Pos()) {
		return nil
	}
	x.store(r, s.Target.Name, val)
	return []*run{r}
}

// declare executes a declaration, with its value or the zero of its
// type. A value past the term bound cuts the run (kept).
func (x *executor) declare(r *run, s *ast.Decl) []*run {
	if s.Value == nil {
		zero := x.tab.Int(0)
		switch s.Type.Kind {
		case ast.Bool:
			zero = x.tab.Bool(false)
		case ast.String:
			zero = x.tab.Str("")
		case ast.Decimal:
			zero = x.tab.ToReal(zero)
		}
		r.declare(s.Name.Name, zero)
		return []*run{r}
	}
	var out []*run
	for _, v := range x.eval(r, s.Value) {
		if x.kept(v.v, s.Pos()) {
			v.r.declare(s.Name.Name, v.v)
			out = append(out, v.r)
		}
	}
	return out
}

func (x *executor) exec(r *run, s ast.Stmt) []*run {
	switch s := s.(type) {
	case *ast.Block:
		return x.block([]*run{r}, s)
	case *ast.Assign:
		return x.assignment(r, s)
	case *ast.IncDec:
		return x.incDec(r, s)
	case *ast.Decl:
		return x.declare(r, s)
	case *ast.If:
		var out []*run
		for _, c := range x.eval(r, s.Cond) {
			t, f := x.branch(c.r, c.v)
			if t != nil {
				out = append(out, x.block([]*run{t}, s.Then)...)
			}
			if f != nil {
				if s.Else != nil {
					out = append(out, x.exec(f, s.Else)...)
				} else {
					out = append(out, f)
				}
			}
		}
		return out
	case *ast.While:
		return x.loop(s.Pos(), []*run{r}, s.Cond, s.Body, nil)
	case *ast.For:
		r.scopes = append(r.scopes, nil)
		rs := []*run{r}
		if s.Init != nil {
			rs = x.exec(r, s.Init)
		}
		rs = x.loop(s.Pos(), rs, s.Cond, s.Body, s.Post)
		for _, r := range rs {
			r.scopes = r.scopes[:len(r.scopes)-1]
		}
		return rs
	case *ast.Raise:
		meta := model.Meta{Type: model.TypeInternal, SendID: s.ID}
		if s.Platform {
			meta.Type = model.TypePlatform
		}
		return x.withArgs(r, s.Args, func(r *run, args []Arg) {
			r.inner = append(r.inner, queued{event: s.Event, args: args, meta: meta})
		})
	case *ast.Send:
		if s.Delay != nil && s.Target == "" && x.opts.Time != vocab.TimeUntimed {
			return x.setTimed(r, s)
		}
		return x.withArgs(r, s.Args, func(r *run, args []Arg) {
			switch {
			case s.Target != "":
				r.outputs = append(r.outputs, Output{Event: s.Event, Target: s.Target, Args: args})
			case s.Delay != nil:
				// A timer's meta is its ID's (timerMeta).
				r.timers = setTimer(r.timers, Timer{Event: s.Event, Args: args, ID: s.ID})
			default:
				r.self = append(r.self, queued{event: s.Event, args: args, meta: model.SendMeta(s)})
			}
		})
	case *ast.Cancel:
		r.timers = cancelTimers(r.timers, s.SendID, s.Prefix)
		return []*run{r}
	case *ast.Assume:
		var out []*run
		for _, c := range x.eval(r, s.Cond) {
			if t, _ := x.branch(c.r, c.v); t != nil {
				out = append(out, t)
			}
		}
		return out
	case *ast.Bound:
		var out []*run
		for _, c := range x.eval(r, s.Cond) {
			t, f := x.branch(c.r, c.v)
			if f != nil {
				x.limits[s.Name] = max(x.limits[s.Name], s.Limit)
				x.cut(s.Name, s.BoundPos, "%s", s.What())
			}
			if t != nil {
				out = append(out, t)
			}
		}
		return out
	}
	x.fail("unexpected statement %T", s)
	return nil
}

// kept reports whether a run may store v in a variable: a value larger
// than vocab.MaxTermSize cuts the run at the statement at (the term
// bound), so that the terms a path keeps, and every walk of them, stay
// within it however many statements, loop iterations and steps build
// them.
func (x *executor) kept(v solver.Term, at source.Pos) bool {
	if x.tab.Size(v) <= vocab.MaxTermSize {
		return true
	}
	x.limits[vocab.BoundTerm] = vocab.MaxTermSize
	x.cut(vocab.BoundTerm, at, "a value grows beyond %d operators and operands (the term bound): setbot does not follow it", vocab.MaxTermSize)
	return false
}

var compoundOp = map[ast.Token]ast.Token{
	ast.ADD_ASSIGN: ast.ADD, ast.SUB_ASSIGN: ast.SUB, ast.MUL_ASSIGN: ast.MUL,
	ast.QUO_ASSIGN: ast.QUO, ast.REM_ASSIGN: ast.REM,
}

// loop unrolls while and for loops up to the loop bound; runs that would
// iterate further are cut and counted.
func (x *executor) loop(at source.Pos, rs []*run, cond ast.Expr, body *ast.Block, post ast.Stmt) []*run {
	var done []*run
	for iter := 0; len(rs) > 0; iter++ {
		var again []*run
		for _, r := range rs {
			var cs []valued
			if cond == nil {
				cs = []valued{{r, x.tab.Bool(true)}}
			} else {
				cs = x.eval(r, cond)
			}
			for _, c := range cs {
				t, f := x.branch(c.r, c.v)
				if f != nil {
					done = append(done, f)
				}
				if t == nil {
					continue
				}
				if iter >= x.opts.LoopBound {
					x.cut(vocab.BoundLoop, at, "a loop runs more than %d iterations (the loop bound; raise it with --loop-bound or bounds.loop_bound if the loop ends)", x.opts.LoopBound)
					continue
				}
				again = append(again, t)
			}
		}
		again = x.block(again, body)
		if post != nil {
			var next []*run
			for _, r := range again {
				next = append(next, x.exec(r, post)...)
			}
			again = next
		}
		rs = again
	}
	return done
}

// withArgs evaluates event arguments (which may fork) and hands each run
// its values, sorted by name.
func (x *executor) withArgs(r *run, args []*ast.Arg, use func(*run, []Arg)) []*run {
	type partial struct {
		r    *run
		vals []Arg
	}
	ps := []partial{{r: r}}
	for _, a := range args {
		var next []partial
		for _, p := range ps {
			for _, v := range x.eval(p.r, a.Value) {
				next = append(next, partial{v.r, append(append([]Arg(nil), p.vals...), Arg{Name: a.Name, Value: v.v})})
			}
		}
		ps = next
	}
	out := make([]*run, len(ps))
	for i, p := range ps {
		sortArgs(p.vals)
		use(p.r, p.vals)
		out[i] = p.r
	}
	return out
}

// setTimed executes a delayed send under timed semantics: the delay is
// evaluated when the send executes (after its arguments, as SCXML does),
// and the timer joins the pending ones after those set before it.
func (x *executor) setTimed(r *run, s *ast.Send) []*run {
	type sent struct {
		r    *run
		args []Arg
	}
	var sends []sent
	x.withArgs(r, s.Args, func(r *run, args []Arg) { sends = append(sends, sent{r, args}) })
	var out []*run
	for _, sn := range sends {
		args := sn.args
		for _, d := range x.eval(sn.r, s.Delay) {
			text, ok := x.tab.StringValue(d.v)
			if !ok {
				x.fail("%s: the delay %s depends on the inputs: setbot needs a delay it can compute (or --time untimed)",
					x.m.Source.Position(s.SendPos), printer.ExprString(s.Delay))
				continue
			}
			ms, err := model.ParseDelay(text)
			if err != nil {
				x.fail("%s: %v", x.m.Source.Position(s.SendPos), err)
				continue
			}
			d.r.timers = append(slices.Clip(d.r.timers), Timer{Event: s.Event, Args: args, ID: s.ID, Due: x.tab.Int(ms)})
			out = append(out, d.r)
		}
	}
	return out
}

// setTimer adds a pending timer: every delayed send is its own event, so
// an earlier timer of the same name stays. Timers are kept sorted by event,
// and those of one event in the order they were set (the oldest fires
// first).
func setTimer(ts []Timer, t Timer) []Timer {
	i := sort.Search(len(ts), func(i int) bool { return ts[i].Event > t.Event })
	return slices.Insert(slices.Clip(ts), i, t)
}

// cancelTimers removes every pending timer sent with the id (or, with
// prefix, with an id that begins with it); an id with nothing pending
// changes nothing.
func cancelTimers(ts []Timer, id string, prefix bool) []Timer {
	return slices.DeleteFunc(slices.Clone(ts), func(t Timer) bool { return t.ID == id || prefix && strings.HasPrefix(t.ID, id) })
}
