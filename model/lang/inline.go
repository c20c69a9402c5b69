package lang

import (
	"fmt"
	"slices"
	"sort"

	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// Functions declared in a <script> and the built-ins (Math.max, ...) are
// inlined before type checking: every call becomes an expression over its
// arguments, so that the checker types each call site with the types of
// its arguments (as ECMAScript does) and the three executors (symbolic,
// simulator, reference interpreter) run one and the same code, with no
// notion of a call. A function body is translated into an expression:
// locals and parameters are substituted, if/else becomes ?:, a return
// ends the translation of its path, and loops and recursion are unfolded
// up to Limit. A path that would go deeper meets the bound
// vocab.BoundCall: the inliner puts a Bound statement before the code
// that would, which cuts the path there and reports it (never a silent
// cut). A function body may read machine variables but assign only its
// parameters and locals, and sends or raises nothing: what it computes is
// its return value.

// CallBound is how many times the inliner unfolds a recursive call, and
// a loop inside a function, unless Inliner.Depth says otherwise: the
// readers pass the loop bound (engine.DefaultLoopBound is 10 too), so that
// --loop-bound raises both.
const CallBound = 10

// A Signature is a black-box function's: its parameters' and its result's
// types (setbot:function).
type Signature struct {
	Params []Type
	Result Type
}

// An Inliner inlines the calls of functions and built-ins.
type Inliner struct {
	Funcs     map[string]*FuncDecl  // functions declared in <script>s
	Externals map[string]*Signature // black-box functions (setbot:function)
	// Hosts are the host functions the inlined code calls for their value
	// (see hostValues), filled by the inliner.
	Hosts map[string]*HostFunction
	Fset  *source.FileSet
	Errs  source.ErrorList
	// Depth is how deep calls nest, and how many times a loop inside a
	// function runs, before the bound vocab.BoundCall cuts the path (0:
	// CallBound).
	Depth int

	over   []Expr         // conditions under which the code being inlined meets CallBound
	depth  int            // user calls being inlined
	fn     string         // the function whose body is being translated, "" outside
	copied int            // nodes copied for the expression being inlined (MaxInlined)
	big    bool           // it outgrew MaxInlined (reported)
	iters  map[*While]int // the loops run unfolds, and the iteration each is in
}

// MaxInlined bounds the nodes the inliner copies for one expression: a
// function that uses its parameters several times, nested in itself, grows
// exponentially; past the bound the call is refused rather than let the
// model grow without end.
const MaxInlined = 200000

// dup returns a copy of e, counting its nodes against MaxInlined.
func (in *Inliner) dup(e Expr, pos source.Pos) Expr {
	if in.big {
		return &IntLit{ValuePos: pos}
	}
	n := 0
	Inspect(e, func(Node) bool { n++; return n <= MaxInlined })
	if in.copied += n; in.copied > MaxInlined {
		in.big = true
		in.errorf(pos, "the calls here expand to more than %d nodes when inlined: compute the value in steps, in locals", MaxInlined)
		return &IntLit{ValuePos: pos}
	}
	return RewriteExpr(e, func(e Expr) Expr { return e })
}

// Expr returns e with its calls inlined, and the condition under which
// evaluating it meets CallBound (nil: never).
func (in *Inliner) Expr(e Expr) (Expr, Expr) {
	return in.typed(e, Type{})
}

// Cond is Expr for a condition, whose calls of host functions are read as
// booleans where nothing else gives their type.
func (in *Inliner) Cond(e Expr) (Expr, Expr) {
	return in.typed(e, BoolType)
}

func (in *Inliner) typed(e Expr, want Type) (Expr, Expr) {
	in.over, in.copied, in.big, in.iters = nil, 0, false, nil
	e = in.hostValues(e, want)
	v := in.expr(e, nil, nil)
	if lim := overLimit(v, MaxInlined); lim != nil {
		// A function's body nests in the call's place, and a loop's in
		// itself: the result may be deeper than any text it comes from.
		in.errorf(e.Pos(), "%s once its calls are inlined: compute the value in steps, in locals", lim.msg)
		in.over = nil
		return &IntLit{ValuePos: e.Pos()}, nil
	}
	return v, in.overCond()
}

func (in *Inliner) overCond() Expr {
	var c Expr
	for _, o := range in.over {
		if b, ok := Simplify(o).(*BoolLit); ok && !b.Value {
			continue
		}
		if c == nil {
			c = o
		} else {
			c = or(c, o)
		}
	}
	in.over = nil
	return c
}

// Block returns b with every call inlined; each statement whose
// expressions may meet CallBound is preceded by the Bound statement that
// cuts the path where they do.
func (in *Inliner) Block(b *Block) *Block {
	if b == nil {
		return nil
	}
	out := &Block{Lbrace: b.Lbrace}
	for _, s := range b.Stmts {
		out.Stmts = append(out.Stmts, in.stmt(s)...)
	}
	return out
}

// HasCalls reports whether n holds a call to inline.
func HasCalls(n Node) bool {
	found := false
	Inspect(n, func(n Node) bool {
		if _, ok := n.(*Call); ok {
			found = true
		}
		return !found
	})
	return found
}

func (in *Inliner) bound(pos source.Pos, over Expr) []Stmt {
	if over == nil {
		return nil
	}
	return []Stmt{&Bound{BoundPos: pos, Name: vocab.BoundCall, Limit: int64(in.Limit()), Cond: not(over)}}
}

// Limit is the depth the inliner unfolds calls and loops to: Depth, or
// CallBound.
func (in *Inliner) Limit() int {
	if in.Depth > 0 {
		return in.Depth
	}
	return CallBound
}

// value inlines the calls of e, a part of statement s, and collects the
// bound statement it needs into pre.
func (in *Inliner) value(e Expr, pre *[]Stmt) Expr {
	if e == nil {
		return nil
	}
	v, over := in.Expr(e)
	*pre = append(*pre, in.bound(e.Pos(), over)...)
	return v
}

func (in *Inliner) stmt(s Stmt) []Stmt {
	var pre []Stmt
	var out Stmt
	switch x := s.(type) {
	case *Block:
		out = in.Block(x)
	case *Assign:
		path := make([]*Sel, len(x.Path))
		for i, p := range x.Path {
			path[i] = &Sel{Pos: p.Pos, Name: p.Name, Index: in.value(p.Index, &pre)}
		}
		if x.Path == nil {
			path = nil
		}
		out = &Assign{Target: x.Target, Path: path, OpPos: x.OpPos, Op: x.Op, Value: in.value(x.Value, &pre)}
	case *Decl:
		if h := in.hostFunctionCall(x); h != nil {
			return in.stmt(h)
		}
		out = &Decl{DeclPos: x.DeclPos, Name: x.Name, Type: x.Type, Value: in.value(x.Value, &pre)}
	case *If:
		var els Stmt
		if x.Else != nil {
			els = blockOf(in.stmt(x.Else))
		}
		out = &If{IfPos: x.IfPos, Cond: in.value(x.Cond, &pre), Then: in.Block(x.Then), Else: els}
	case *While:
		var again []Stmt
		c := in.value(x.Cond, &again)
		body := in.Block(x.Body)
		body.Stmts = append(body.Stmts, again...)
		pre = again
		out = &While{WhilePos: x.WhilePos, Cond: c, Body: body}
	case *For:
		var init Stmt
		if x.Init != nil {
			is := in.stmt(x.Init)
			pre, init = is[:len(is)-1], is[len(is)-1]
		}
		var again []Stmt
		c := in.value(x.Cond, &again)
		var post Stmt
		body := in.Block(x.Body)
		if x.Post != nil {
			ps := in.stmt(x.Post)
			body.Stmts = append(body.Stmts, ps[:len(ps)-1]...)
			post = ps[len(ps)-1]
		}
		if len(again) > 0 {
			// The condition is evaluated after the post statement too.
			if post != nil {
				body.Stmts = append(body.Stmts, post)
				post = nil
			}
			body.Stmts = append(body.Stmts, again...)
		}
		pre = append(pre, again...)
		out = &For{ForPos: x.ForPos, Init: init, Cond: c, Post: post, Body: body}
	case *ForEach:
		out = &ForEach{ForPos: x.ForPos, Item: x.Item, Index: x.Index, Array: in.value(x.Array, &pre), Cond: in.value(x.Cond, &pre), Body: in.Block(x.Body)}
	case *Raise:
		out = &Raise{RaisePos: x.RaisePos, Event: x.Event, Args: in.args(x.Args, &pre), ID: x.ID, Platform: x.Platform}
	case *Send:
		out = &Send{SendPos: x.SendPos, Event: x.Event, Args: in.args(x.Args, &pre), Target: x.Target, Delay: in.value(x.Delay, &pre), ID: x.ID, From: x.From}
	case *Assume:
		out = &Assume{AssumePos: x.AssumePos, Cond: in.value(x.Cond, &pre)}
	case *Bound:
		out = &Bound{BoundPos: x.BoundPos, Name: x.Name, Limit: x.Limit, Cond: in.value(x.Cond, &pre)}
	default: // IncDec, Cancel, and the FuncDecl and Return the checker refuses here
		out = s
	}
	return append(pre, out)
}

func blockOf(ss []Stmt) Stmt {
	if len(ss) == 1 {
		return ss[0]
	}
	return &Block{Lbrace: ss[len(ss)-1].Pos(), Stmts: ss}
}

func (in *Inliner) args(args []*Arg, pre *[]Stmt) []*Arg {
	if args == nil {
		return nil
	}
	out := make([]*Arg, len(args))
	for i, a := range args {
		out[i] = &Arg{NamePos: a.NamePos, Name: a.Name, Value: in.value(a.Value, pre)}
	}
	return out
}

// errorf reports an error once: a function's body is translated at every
// call.
func (in *Inliner) errorf(pos source.Pos, format string, args ...any) {
	p, msg := in.Fset.Position(pos), fmt.Sprintf(format, args...)
	for _, e := range in.Errs {
		if e.Pos == p && e.Msg == msg {
			return
		}
	}
	in.Errs.Add(p, "%s", msg)
}

// Declared translates the body of every function once, with its
// parameters as they are, so that the errors of a function no code calls
// are reported too.
func (in *Inliner) Declared() {
	fs := make([]*FuncDecl, 0, len(in.Funcs))
	for _, f := range in.Funcs {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].FuncPos < fs[j].FuncPos })
	for _, f := range fs {
		args := make([]Expr, len(f.Params))
		for i, p := range f.Params {
			args[i] = p
		}
		in.Expr(&Call{FunPos: f.FuncPos, Fun: f.Name.Name, Args: args})
	}
}

// truth returns c as a bool condition (ECMAScript's truthiness).
func truth(c Expr) Expr {
	switch x := c.(type) {
	case *BoolLit:
		return c
	case *Unary:
		if x.Op == NOT {
			return c
		}
	case *Binary:
		switch x.Op {
		case LAND, LOR, EQL, NEQ, LSS, LEQ, GTR, GEQ:
			return c
		}
	}
	return &Cond{Cond: c, Question: c.Pos(), Then: &BoolLit{ValuePos: c.Pos(), Value: true}, Else: &BoolLit{ValuePos: c.Pos()}}
}

// andPC is pc && c, where a nil pc is true.
func andPC(pc, c Expr) Expr {
	if pc == nil {
		return c
	}
	return and(pc, c)
}

// expr inlines the calls of e. env maps the parameters and locals of the
// function being translated to their values; pc is the condition under
// which e is evaluated (nil: always), which a call that meets CallBound
// records.
func (in *Inliner) expr(e Expr, env map[string]Expr, pc Expr) Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *Ident:
		if v, ok := env[x.Name]; ok {
			return in.dup(v, x.NamePos)
		}
		return x
	case *Cond:
		c := in.expr(x.Cond, env, pc)
		t := truth(c)
		return &Cond{Cond: c, Question: x.Question, Then: in.expr(x.Then, env, andPC(pc, t)), Else: in.expr(x.Else, env, andPC(pc, not(t)))}
	case *Binary:
		if x.Op == LAND || x.Op == LOR {
			l := in.expr(x.X, env, pc)
			t := truth(l)
			if x.Op == LOR {
				t = not(t)
			}
			return &Binary{X: l, OpPos: x.OpPos, Op: x.Op, Y: in.expr(x.Y, env, andPC(pc, t))}
		}
	case *Call:
		args := make([]Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = in.expr(a, env, pc)
		}
		return in.call(x, args, pc)
	}
	return mapExpr(e, func(c Expr) Expr { return in.expr(c, env, pc) })
}

// call returns the inlined call x with the inlined arguments args.
func (in *Inliner) call(x *Call, args []Expr, pc Expr) Expr {
	keep := &Call{FunPos: x.FunPos, Fun: x.Fun, Args: args} // for the checker to refuse
	if sig, ok := in.Externals[x.Fun]; ok {
		if len(args) != len(sig.Params) {
			in.errorf(x.FunPos, "call of %s with %d arguments: its setbot:function declares %d parameters", x.Fun, len(args), len(sig.Params))
			return keep
		}
		return &External{FunPos: x.FunPos, Fun: x.Fun, Args: args, Params: sig.Params, Result: sig.Result}
	}
	f, ok := in.Funcs[x.Fun]
	if !ok {
		if v, ok := in.builtin(x, args); ok {
			if v == nil { // reported
				return &IntLit{ValuePos: x.FunPos}
			}
			return v
		}
		return keep
	}
	if len(args) > len(f.Params) {
		in.errorf(x.FunPos, "call of %s with %d arguments: it is declared with %d parameters", x.Fun, len(args), len(f.Params))
		return keep
	}
	env := make(map[string]Expr, len(f.Params))
	for i, p := range f.Params {
		if i < len(args) {
			env[p.Name] = args[i]
		} else {
			env[p.Name] = &Absent{ValuePos: x.FunPos} // a missing argument is undefined
		}
	}
	if in.depth >= in.Limit() {
		// Deeper calls meet the bound: the path is cut here; the value
		// stands in so that the code type-checks, and is never used.
		in.over = append(in.over, truthOr(pc))
		return in.baseCase(f, env, x.FunPos)
	}
	in.depth++
	outer := in.fn
	in.fn = f.Name.Name
	v := in.run(f.Body.Stmts, env, pc)
	in.fn = outer
	in.depth--
	return v
}

func truthOr(pc Expr) Expr {
	if pc == nil {
		return &BoolLit{Value: true}
	}
	return pc
}

// baseCase returns the value of f's first return that calls no function,
// with the parameters bound by env: a value of f's type that stands for a
// call nested too deep.
func (in *Inliner) baseCase(f *FuncDecl, env map[string]Expr, pos source.Pos) Expr {
	var v Expr
	Inspect(f.Body, func(n Node) bool {
		if r, ok := n.(*Return); ok && v == nil && r.Value != nil {
			v = callFree(r.Value)
		}
		return v == nil
	})
	if v == nil {
		in.errorf(f.FuncPos, "function %s never returns without calling a function: setbot inlines calls %d deep; give it a base case", f.Name.Name, in.Limit())
		return &IntLit{ValuePos: pos}
	}
	return RewriteExpr(v, func(e Expr) Expr {
		if id, ok := e.(*Ident); ok {
			if a, ok := env[id.Name]; ok {
				return a
			}
		}
		return e
	})
}

// callFree returns e when it calls no function, or a branch of e's ?:
// that calls none, or nil.
func callFree(e Expr) Expr {
	if !HasCalls(e) {
		return e
	}
	if c, ok := e.(*Cond); ok {
		if v := callFree(c.Then); v != nil {
			return v
		}
		return callFree(c.Else)
	}
	return nil
}

// hasReturnOrLoop reports whether s holds a return or a loop: run
// translates those by continuing each path with the rest of the body,
// which keeps a loop's unfolding linear in the iterations (exec's merging
// of the values after an if would double them at each iteration).
func hasReturnOrLoop(s Stmt) bool {
	found := false
	Inspect(s, func(n Node) bool {
		switch n.(type) {
		case *Return, *While, *For:
			found = true
		}
		return !found
	})
	return found
}

func copyEnv(env map[string]Expr) map[string]Expr {
	c := make(map[string]Expr, len(env))
	for k, v := range env {
		c[k] = v
	}
	return c
}

// merge returns the values after an if that assigns without returning:
// cond ? then's : else's.
func merge(cond Expr, then, els map[string]Expr, pos source.Pos) map[string]Expr {
	out := make(map[string]Expr, len(then))
	for k, tv := range then {
		ev, ok := els[k]
		if !ok {
			ev = &Absent{ValuePos: pos}
		}
		if Equal(tv, ev) {
			out[k] = tv
			continue
		}
		out[k] = &Cond{Cond: cond, Question: pos, Then: tv, Else: ev}
	}
	for k, ev := range els {
		if _, ok := then[k]; !ok {
			out[k] = &Cond{Cond: cond, Question: pos, Then: &Absent{ValuePos: pos}, Else: ev}
		}
	}
	return out
}

func bodyOf(s Stmt) []Stmt {
	switch x := s.(type) {
	case nil:
		return nil
	case *Block:
		return x.Stmts
	}
	return []Stmt{s}
}

// run translates stmts, the rest of a function body, into the value the
// function returns (undefined when it ends without a return).
func (in *Inliner) run(stmts []Stmt, env map[string]Expr, pc Expr) Expr {
	for i, s := range stmts {
		rest := stmts[i+1:]
		// Every path through the body is translated on its own: count
		// the statements against MaxInlined too.
		if in.copied++; in.copied > MaxInlined && !in.big {
			in.big = true
			in.errorf(s.Pos(), "function %s has too many paths to inline (more than %d statements translated): split it, or compute in steps", in.fn, MaxInlined)
		}
		if in.big {
			return &IntLit{ValuePos: s.Pos()}
		}
		if !hasReturnOrLoop(s) {
			in.exec(s, env, pc)
			continue
		}
		switch x := s.(type) {
		case *Return:
			if x.Value == nil {
				return &Absent{ValuePos: x.ReturnPos}
			}
			return in.expr(x.Value, env, pc)
		case *Block:
			return in.run(append(slices.Clone(x.Stmts), rest...), env, pc)
		case *If:
			c := in.expr(x.Cond, env, pc)
			t := truth(c)
			then := in.run(append(slices.Clone(x.Then.Stmts), rest...), copyEnv(env), andPC(pc, t))
			els := in.run(append(slices.Clone(bodyOf(x.Else)), rest...), copyEnv(env), andPC(pc, not(t)))
			return &Cond{Cond: c, Question: x.IfPos, Then: then, Else: els}
		case *While:
			if _, ok := in.iters[x]; ok {
				return in.unfold(x, rest, env, pc)
			}
			return in.run(append([]Stmt{in.loop(x.WhilePos, x.Cond, x.Body, 0)}, rest...), env, pc)
		case *For:
			if x.Init != nil {
				in.exec(x.Init, env, pc)
			}
			// for (init; cond; post) body is init; while (cond) { body; post }.
			body := &Block{Lbrace: x.Body.Lbrace, Stmts: append(slices.Clone(x.Body.Stmts), bodyOf(x.Post)...)}
			return in.run(append([]Stmt{in.loop(x.ForPos, x.Cond, body, 0)}, rest...), env, pc)
		default:
			in.errorf(s.Pos(), "a return is allowed in a function only in its body, if, else, while and for")
			return &Absent{ValuePos: s.Pos()}
		}
	}
	pos := source.NoPos
	if len(stmts) > 0 {
		pos = stmts[len(stmts)-1].Pos()
	}
	return &Absent{ValuePos: pos}
}

// loop is a loop of a function body as run unfolds it: while (cond) body
// in its iter-th iteration.
func (in *Inliner) loop(pos source.Pos, cond Expr, body *Block, iter int) *While {
	if in.iters == nil {
		in.iters = make(map[*While]int)
	}
	w := &While{WhilePos: pos, Cond: cond, Body: body}
	in.iters[w] = iter
	return w
}

// unfold translates a loop of run's in its iteration in.iters[x],
// followed by rest: while (cond) body is if (cond) { body; while (cond)
// body }, the inner loop in the next iteration, until the bound.
func (in *Inliner) unfold(x *While, rest []Stmt, env map[string]Expr, pc Expr) Expr {
	c := Expr(&BoolLit{ValuePos: x.WhilePos, Value: true})
	if x.Cond != nil {
		c = truth(in.expr(x.Cond, env, pc))
	}
	if b, ok := Simplify(c).(*BoolLit); ok && !b.Value {
		return in.run(rest, env, pc)
	}
	if in.iters[x] >= in.Limit() {
		in.over = append(in.over, andPC(pc, c))
		return in.run(rest, env, pc)
	}
	next := in.loop(x.WhilePos, x.Cond, x.Body, in.iters[x]+1)
	then := in.run(append(append(slices.Clone(x.Body.Stmts), next), rest...), copyEnv(env), andPC(pc, c))
	els := in.run(rest, copyEnv(env), andPC(pc, not(c)))
	return &Cond{Cond: c, Question: x.WhilePos, Then: then, Else: els}
}

// exec translates s, a statement of a function body without return or
// loop, into its effect on env.
func (in *Inliner) exec(s Stmt, env map[string]Expr, pc Expr) {
	switch x := s.(type) {
	case *Block:
		for _, t := range x.Stmts {
			in.exec(t, env, pc)
		}
	case *Decl:
		switch {
		case x.Value != nil:
			env[x.Name.Name] = in.expr(x.Value, env, pc)
		case x.Type.Kind != Invalid:
			env[x.Name.Name] = ZeroValue(x.Type.Kind, x.DeclPos)
		default:
			env[x.Name.Name] = &Absent{ValuePos: x.DeclPos}
		}
	case *Assign:
		name := x.Target.Name
		if _, local := env[name]; !local || x.Path != nil {
			in.errorf(x.Target.NamePos, "function %s assigns %s, which is not one of its parameters or locals: a function returns what it computes; return the value and assign it where %s is called", in.fn, ExprString(&Ident{Name: name}), in.fn)
			return
		}
		v := in.expr(x.Value, env, pc)
		if op, ok := assignOps[x.Op]; ok {
			v = &Binary{X: env[name], OpPos: x.OpPos, Op: op, Y: v}
		}
		env[name] = v
	case *IncDec:
		name := x.Target.Name
		if _, local := env[name]; !local || x.Path != nil {
			in.errorf(x.Target.NamePos, "function %s changes %s, which is not one of its parameters or locals: a function returns what it computes; return the value and assign it where %s is called", in.fn, name, in.fn)
			return
		}
		op := ADD
		if x.Op == DEC {
			op = SUB
		}
		env[name] = &Binary{X: env[name], OpPos: x.OpPos, Op: op, Y: &IntLit{ValuePos: x.OpPos, Value: 1}}
	case *If:
		c := in.expr(x.Cond, env, pc)
		t := truth(c)
		then, els := copyEnv(env), copyEnv(env)
		in.exec(x.Then, then, andPC(pc, t))
		if x.Else != nil {
			in.exec(x.Else, els, andPC(pc, not(t)))
		}
		for k := range env {
			delete(env, k)
		}
		for k, v := range merge(c, then, els, x.IfPos) {
			env[k] = v
		}
	default:
		in.errorf(s.Pos(), "%s is not allowed in function %s: a function computes its return value from its arguments and the variables it reads, and does nothing else", stmtWord(s), in.fn)
	}
}

var assignOps = map[Token]Token{ADD_ASSIGN: ADD, SUB_ASSIGN: SUB, MUL_ASSIGN: MUL, QUO_ASSIGN: QUO, REM_ASSIGN: REM}

func stmtWord(s Stmt) string {
	switch s.(type) {
	case *Raise:
		return "raise"
	case *Send:
		return "send"
	case *Cancel:
		return "cancel"
	case *ForEach:
		return "foreach"
	case *FuncDecl:
		return "a nested function declaration"
	}
	return fmt.Sprintf("%T", s)
}

// Rounding are the built-ins that round a number to an integer. On an int
// they are the int itself; the checker refuses them on a decimal.
var Rounding = map[string]bool{"Math.floor": true, "Math.ceil": true, "Math.round": true, "Math.trunc": true}

// builtin returns the expression that computes the built-in call x with
// the arguments args, and whether x is one the inliner expands.
func (in *Inliner) builtin(x *Call, args []Expr) (Expr, bool) {
	pos := x.FunPos
	dup := func(e Expr) Expr { return in.dup(e, pos) }
	arity := func(n int) bool {
		if len(args) != n {
			in.errorf(pos, "call of %s with %d arguments: setbot models it with %d", x.Fun, len(args), n)
			return false
		}
		return true
	}
	lit := func(v int64) Expr { return &IntLit{ValuePos: pos, Value: v} }
	cmp := func(a Expr, op Token, b Expr) Expr { return &Binary{X: a, OpPos: pos, Op: op, Y: b} }
	cond := func(c, t, e Expr) Expr { return &Cond{Cond: c, Question: pos, Then: t, Else: e} }
	switch x.Fun {
	case "Math.abs":
		if !arity(1) {
			return nil, true
		}
		a := args[0]
		return cond(cmp(a, LSS, lit(0)), &Unary{OpPos: pos, Op: SUB, X: dup(a)}, dup(a)), true
	case "Math.min", "Math.max":
		if len(args) == 0 {
			in.errorf(pos, "call of %s without arguments: its value is an infinity, which setbot does not model; pass at least one number", x.Fun)
			return nil, true
		}
		op := LSS
		if x.Fun == "Math.max" {
			op = GTR
		}
		m := args[0]
		for _, b := range args[1:] {
			m = cond(cmp(b, op, m), dup(b), dup(m))
		}
		return m, true
	case "Math.sign":
		if !arity(1) {
			return nil, true
		}
		a := args[0]
		return cond(cmp(a, GTR, lit(0)), lit(1), cond(cmp(dup(a), LSS, lit(0)), lit(-1), lit(0))), true
	case "Math.pow":
		if !arity(2) {
			return nil, true
		}
		n, ok := Simplify(args[1]).(*IntLit)
		if !ok || n.Value < 0 || n.Value > 64 {
			in.errorf(pos, "call of Math.pow with exponent %s: setbot models Math.pow with a constant exponent from 0 to 64; multiply it out otherwise", ExprString(args[1]))
			return nil, true
		}
		if n.Value == 0 {
			return lit(1), true
		}
		p := args[0]
		for i := int64(1); i < n.Value; i++ {
			p = cmp(p, MUL, dup(args[0]))
		}
		return p, true
	case "Boolean":
		if !arity(1) {
			return nil, true
		}
		return cond(args[0], &BoolLit{ValuePos: pos, Value: true}, &BoolLit{ValuePos: pos}), true
	}
	return nil, false
}
