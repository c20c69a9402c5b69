package lower

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/parser"

	"github.com/setbot/setbot/model/lang/simplify"
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
// cut). A function body that only reads machine variables, assigning
// only its parameters and locals, and sends or raises nothing, is inlined
// so: what it computes is its return value. One with effects is inlined
// as statements (effects.go).

// CallBound is how many times the inliner unfolds a recursive call, and
// a loop inside a function, unless Inliner.Depth says otherwise: the
// readers pass the loop bound (engine.DefaultLoopBound is 10 too), so that
// --loop-bound raises both.
const CallBound = 10

// A Signature is a black-box function's: its parameters' and its result's
// types (setbot:function).
type Signature struct {
	Params []ast.Type
	Result ast.Type
}

// An Inliner inlines the calls of functions and built-ins.
type Inliner struct {
	Funcs     map[string]*ast.FuncDecl // functions declared in <script>s
	Externals map[string]*Signature    // black-box functions (setbot:function)
	// Hosts are the host functions the inlined code calls for their value
	// (see hostValues), filled by the inliner.
	Hosts map[string]*HostFunction
	Fset  *source.FileSet
	Errs  source.ErrorList
	// Depth is how deep calls nest, and how many times a loop inside a
	// function runs, before the bound vocab.BoundCall cuts the path (0:
	// CallBound).
	Depth int

	over   []ast.Expr         // conditions under which the code being inlined meets CallBound
	depth  int                // user calls being inlined
	fn     string             // the function whose body is being translated, "" outside
	copied int                // nodes copied for the expression being inlined (MaxInlined)
	big    bool               // it outgrew MaxInlined (reported)
	iters  map[*ast.While]int // the loops run unfolds, and the iteration each is in

	effectOf map[string]*effect // the functions with effects (effects.go), computed once
	cyclic   map[string]bool    // those of them that reach themselves through calls
	fresh    int                // calls inlined as statements, which number their locals
	loopHead bool               // inlining a for's init or post, where no call is hoisted
	blocks   int                // Block calls under way: the outermost resets emitted
	emitted  int                // statements that calls with effects wrote for the outermost block (grow)
	tooMany  bool               // emitted outgrew MaxInlined (reported)
}

// MaxInlined bounds the nodes the inliner copies for one expression: a
// function that uses its parameters several times, nested in itself, grows
// exponentially; past the bound the call is refused rather than let the
// model grow without end.
const MaxInlined = 200000

// dup returns a copy of e, counting its nodes against MaxInlined.
func (in *Inliner) dup(e ast.Expr, pos source.Pos) ast.Expr {
	if in.big {
		return &ast.IntLit{ValuePos: pos}
	}
	n := 0
	ast.Inspect(e, func(ast.Node) bool { n++; return n <= MaxInlined })
	if in.copied += n; in.copied > MaxInlined {
		in.big = true
		in.errorf(pos, "the calls here expand to more than %d nodes when inlined: compute the value in steps, in locals", MaxInlined)
		return &ast.IntLit{ValuePos: pos}
	}
	return ast.RewriteExpr(e, func(e ast.Expr) ast.Expr { return e })
}

// Expr returns e with its calls inlined, and the condition under which
// evaluating it meets CallBound (nil: never).
func (in *Inliner) Expr(e ast.Expr) (ast.Expr, ast.Expr) {
	return in.typed(e, ast.Type{})
}

// Cond is Expr for a condition, whose calls of host functions are read as
// booleans where nothing else gives their type.
func (in *Inliner) Cond(e ast.Expr) (ast.Expr, ast.Expr) {
	return in.typed(e, ast.BoolType)
}

func (in *Inliner) typed(e ast.Expr, want ast.Type) (ast.Expr, ast.Expr) {
	in.over, in.copied, in.big, in.iters = nil, 0, false, nil
	e = in.hostValues(e, want)
	v := in.expr(e, nil, nil)
	if lim := ast.OverLimit(v, MaxInlined); lim != nil {
		// A function's body nests in the call's place, and a loop's in
		// itself: the result may be deeper than any text it comes from.
		in.errorf(e.Pos(), "%s once its calls are inlined: compute the value in steps, in locals", lim.Msg)
		in.over = nil
		return &ast.IntLit{ValuePos: e.Pos()}, nil
	}
	return v, in.overCond()
}

func (in *Inliner) overCond() ast.Expr {
	var c ast.Expr
	for _, o := range in.over {
		if b, ok := simplify.Expr(o).(*ast.BoolLit); ok && !b.Value {
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
func (in *Inliner) Block(b *ast.Block) *ast.Block {
	if b == nil {
		return nil
	}
	if in.blocks == 0 {
		in.emitted, in.tooMany = 0, false
	}
	in.blocks++
	defer func() { in.blocks-- }()
	out := &ast.Block{Lbrace: b.Lbrace}
	for i, s := range b.Stmts {
		if ss, all := in.hoist(s, b.Stmts[i+1:]); ss != nil {
			out.Stmts = append(out.Stmts, ss...)
			if all {
				break
			}
			continue
		}
		out.Stmts = append(out.Stmts, in.stmt(s)...)
	}
	return out
}

// HasCalls reports whether n holds a call to inline.
func HasCalls(n ast.Node) bool {
	return ast.Any(n, func(n ast.Node) bool { _, ok := n.(*ast.Call); return ok })
}

func (in *Inliner) bound(pos source.Pos, over ast.Expr) []ast.Stmt {
	if over == nil {
		return nil
	}
	return []ast.Stmt{&ast.Bound{BoundPos: pos, Name: vocab.BoundCall, Limit: int64(in.Limit()), Cond: not(over)}}
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
func (in *Inliner) value(e ast.Expr, pre *[]ast.Stmt) ast.Expr {
	if e == nil {
		return nil
	}
	v, over := in.Expr(e)
	*pre = append(*pre, in.bound(e.Pos(), over)...)
	return v
}

func (in *Inliner) stmt(s ast.Stmt) []ast.Stmt {
	if !in.loopHead {
		if ss, _ := in.hoist(s, nil); ss != nil {
			return ss
		}
	}
	var pre []ast.Stmt
	var out ast.Stmt
	switch x := s.(type) {
	case *ast.Block:
		out = in.Block(x)
	case *ast.Assign:
		path := make([]*ast.Sel, len(x.Path))
		for i, p := range x.Path {
			path[i] = &ast.Sel{Pos: p.Pos, Name: p.Name, Index: in.value(p.Index, &pre)}
		}
		if x.Path == nil {
			path = nil
		}
		out = &ast.Assign{Target: x.Target, Path: path, OpPos: x.OpPos, Op: x.Op, Value: in.value(x.Value, &pre)}
	case *ast.Decl:
		if h := in.hostFunctionCall(x); h != nil {
			return in.stmt(h)
		}
		out = &ast.Decl{DeclPos: x.DeclPos, Name: x.Name, Type: x.Type, Value: in.value(x.Value, &pre)}
	case *ast.If:
		var els ast.Stmt
		if x.Else != nil {
			els = blockOf(in.stmt(x.Else))
		}
		out = &ast.If{IfPos: x.IfPos, Cond: in.value(x.Cond, &pre), Then: in.Block(x.Then), Else: els}
	case *ast.While:
		var again []ast.Stmt
		c := in.value(x.Cond, &again)
		body := in.Block(x.Body)
		body.Stmts = append(body.Stmts, again...)
		pre = again
		out = &ast.While{WhilePos: x.WhilePos, Cond: c, Body: body}
	case *ast.For:
		var init ast.Stmt
		in.loopHead = true
		if x.Init != nil {
			is := in.stmt(x.Init)
			pre, init = is[:len(is)-1], is[len(is)-1]
		}
		in.loopHead = false
		var again []ast.Stmt
		c := in.value(x.Cond, &again)
		var post ast.Stmt
		body := in.Block(x.Body)
		if x.Post != nil {
			in.loopHead = true
			ps := in.stmt(x.Post)
			in.loopHead = false
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
		out = &ast.For{ForPos: x.ForPos, Init: init, Cond: c, Post: post, Body: body}
	case *ast.ForEach:
		out = &ast.ForEach{ForPos: x.ForPos, Item: x.Item, Index: x.Index, Array: in.value(x.Array, &pre), Cond: in.value(x.Cond, &pre), Body: in.Block(x.Body), Local: x.Local}
	case *ast.Raise:
		out = &ast.Raise{RaisePos: x.RaisePos, Event: x.Event, Args: in.args(x.Args, &pre), ID: x.ID, Platform: x.Platform}
	case *ast.Send:
		out = &ast.Send{SendPos: x.SendPos, Event: x.Event, Args: in.args(x.Args, &pre), Target: x.Target, Delay: in.value(x.Delay, &pre), ID: x.ID, From: x.From}
	case *ast.Assume:
		out = &ast.Assume{AssumePos: x.AssumePos, Cond: in.value(x.Cond, &pre)}
	case *ast.Bound:
		out = &ast.Bound{BoundPos: x.BoundPos, Name: x.Name, Limit: x.Limit, Cond: in.value(x.Cond, &pre)}
	default: // IncDec, Cancel, and the FuncDecl and Return the checker refuses here
		out = s
	}
	return append(pre, out)
}

func blockOf(ss []ast.Stmt) ast.Stmt {
	if len(ss) == 1 {
		return ss[0]
	}
	return &ast.Block{Lbrace: ss[len(ss)-1].Pos(), Stmts: ss}
}

func (in *Inliner) args(args []*ast.Arg, pre *[]ast.Stmt) []*ast.Arg {
	if args == nil {
		return nil
	}
	out := make([]*ast.Arg, len(args))
	for i, a := range args {
		out[i] = &ast.Arg{NamePos: a.NamePos, Name: a.Name, Value: in.value(a.Value, pre)}
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
	fs := make([]*ast.FuncDecl, 0, len(in.Funcs))
	for _, f := range in.Funcs {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].FuncPos < fs[j].FuncPos })
	for _, f := range fs {
		args := make([]ast.Expr, len(f.Params))
		for i, p := range f.Params {
			args[i] = p
		}
		call := &ast.Call{FunPos: f.FuncPos, Fun: f.Name.Name, Args: args}
		if in.effectOfCall(call) != nil {
			// Inlined as statements, as a call statement is.
			in.hoist(&ast.Decl{DeclPos: f.FuncPos, Name: &ast.Ident{NamePos: f.FuncPos, Name: parser.CallStmtPrefix}, Value: call}, nil)
			continue
		}
		in.Expr(call)
	}
}

// truth returns c as a bool condition (ECMAScript's truthiness).
func truth(c ast.Expr) ast.Expr {
	switch x := c.(type) {
	case *ast.BoolLit:
		return c
	case *ast.Unary:
		if x.Op == ast.NOT {
			return c
		}
	case *ast.Binary:
		switch x.Op {
		case ast.LAND, ast.LOR, ast.EQL, ast.NEQ, ast.LSS, ast.LEQ, ast.GTR, ast.GEQ:
			return c
		}
	}
	return &ast.Cond{Cond: c, Question: c.Pos(), Then: &ast.BoolLit{ValuePos: c.Pos(), Value: true}, Else: &ast.BoolLit{ValuePos: c.Pos()}}
}

// andPC is pc && c, where a nil pc is true.
func andPC(pc, c ast.Expr) ast.Expr {
	if pc == nil {
		return c
	}
	return and(pc, c)
}

// expr inlines the calls of e. env maps the parameters and locals of the
// function being translated to their values; pc is the condition under
// which e is evaluated (nil: always), which a call that meets CallBound
// records.
func (in *Inliner) expr(e ast.Expr, env map[string]ast.Expr, pc ast.Expr) ast.Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *ast.Ident:
		if v, ok := env[x.Name]; ok {
			return in.dup(v, x.NamePos)
		}
		return x
	case *ast.Cond:
		c := in.expr(x.Cond, env, pc)
		t := truth(c)
		return &ast.Cond{Cond: c, Question: x.Question, Then: in.expr(x.Then, env, andPC(pc, t)), Else: in.expr(x.Else, env, andPC(pc, not(t)))}
	case *ast.Binary:
		if x.Op == ast.LAND || x.Op == ast.LOR {
			l := in.expr(x.X, env, pc)
			t := truth(l)
			if x.Op == ast.LOR {
				t = not(t)
			}
			return &ast.Binary{X: l, OpPos: x.OpPos, Op: x.Op, Y: in.expr(x.Y, env, andPC(pc, t))}
		}
	case *ast.Call:
		args := make([]ast.Expr, len(x.Args))
		for i, a := range x.Args {
			args[i] = in.expr(a, env, pc)
		}
		return in.call(x, args, pc)
	}
	return ast.MapExpr(e, func(c ast.Expr) ast.Expr { return in.expr(c, env, pc) })
}

// call returns the inlined call x with the inlined arguments args.
func (in *Inliner) call(x *ast.Call, args []ast.Expr, pc ast.Expr) ast.Expr {
	keep := &ast.Call{FunPos: x.FunPos, Fun: x.Fun, Args: args} // for the checker to refuse
	if sig, ok := in.Externals[x.Fun]; ok {
		if len(args) != len(sig.Params) {
			in.errorf(x.FunPos, "call of %s with %d arguments: its setbot:function declares %d parameters", x.Fun, len(args), len(sig.Params))
			return keep
		}
		return &ast.External{FunPos: x.FunPos, Fun: x.Fun, Args: args, Params: sig.Params, Result: sig.Result}
	}
	f, ok := in.Funcs[x.Fun]
	if !ok {
		if v, ok := in.builtin(x, args); ok {
			if v == nil { // reported
				return &ast.IntLit{ValuePos: x.FunPos}
			}
			return v
		}
		return keep
	}
	if e := in.effectOfCall(x); e != nil {
		in.unhoisted(x, e)
		return &ast.IntLit{ValuePos: x.FunPos}
	}
	if len(args) > len(f.Params) {
		in.errorf(x.FunPos, "call of %s with %d arguments: it is declared with %d parameters", x.Fun, len(args), len(f.Params))
		return keep
	}
	env := make(map[string]ast.Expr, len(f.Params))
	for i, p := range f.Params {
		if i < len(args) {
			env[p.Name] = args[i]
		} else {
			env[p.Name] = &ast.Absent{ValuePos: x.FunPos} // a missing argument is undefined
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

func truthOr(pc ast.Expr) ast.Expr {
	if pc == nil {
		return &ast.BoolLit{Value: true}
	}
	return pc
}

// baseCase returns the value of f's first return that calls no function,
// with the parameters bound by env: a value of f's type that stands for a
// call nested too deep.
func (in *Inliner) baseCase(f *ast.FuncDecl, env map[string]ast.Expr, pos source.Pos) ast.Expr {
	var v ast.Expr
	ast.Inspect(f.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.Return); ok && v == nil && r.Value != nil {
			v = callFree(r.Value)
		}
		return v == nil
	})
	if v == nil {
		in.errorf(f.FuncPos, "function %s never returns without calling a function: setbot inlines calls %d deep; give it a base case", f.Name.Name, in.Limit())
		return &ast.IntLit{ValuePos: pos}
	}
	return ast.RewriteExpr(v, func(e ast.Expr) ast.Expr {
		if id, ok := e.(*ast.Ident); ok {
			if a, ok := env[id.Name]; ok {
				return a
			}
		}
		return e
	})
}

// callFree returns e when it calls no function, or a branch of e's ?:
// that calls none, or nil.
func callFree(e ast.Expr) ast.Expr {
	if !HasCalls(e) {
		return e
	}
	if c, ok := e.(*ast.Cond); ok {
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
func hasReturnOrLoop(s ast.Stmt) bool {
	return ast.Any(s, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.Return, *ast.While, *ast.For:
			return true
		}
		return false
	})
}

// copyEnv returns a copy of env that is never nil (a branch writes to it).
func copyEnv(env map[string]ast.Expr) map[string]ast.Expr {
	c := make(map[string]ast.Expr, len(env))
	maps.Copy(c, env)
	return c
}

// merge returns the values after an if that assigns without returning:
// cond ? then's : else's.
func merge(cond ast.Expr, then, els map[string]ast.Expr, pos source.Pos) map[string]ast.Expr {
	out := make(map[string]ast.Expr, len(then))
	for k, tv := range then {
		ev, ok := els[k]
		if !ok {
			ev = &ast.Absent{ValuePos: pos}
		}
		if ast.Equal(tv, ev) {
			out[k] = tv
			continue
		}
		out[k] = &ast.Cond{Cond: cond, Question: pos, Then: tv, Else: ev}
	}
	for k, ev := range els {
		if _, ok := then[k]; !ok {
			out[k] = &ast.Cond{Cond: cond, Question: pos, Then: &ast.Absent{ValuePos: pos}, Else: ev}
		}
	}
	return out
}

func bodyOf(s ast.Stmt) []ast.Stmt {
	switch x := s.(type) {
	case nil:
		return nil
	case *ast.Block:
		return x.Stmts
	}
	return []ast.Stmt{s}
}

// run translates stmts, the rest of a function body, into the value the
// function returns (undefined when it ends without a return).
func (in *Inliner) run(stmts []ast.Stmt, env map[string]ast.Expr, pc ast.Expr) ast.Expr {
	for i, s := range stmts {
		rest := stmts[i+1:]
		// Every path through the body is translated on its own: count
		// the statements against MaxInlined too.
		if in.copied++; in.copied > MaxInlined && !in.big {
			in.big = true
			in.errorf(s.Pos(), "function %s has too many paths to inline (more than %d statements translated): split it, or compute in steps", in.fn, MaxInlined)
		}
		if in.big {
			return &ast.IntLit{ValuePos: s.Pos()}
		}
		if !hasReturnOrLoop(s) {
			in.exec(s, env, pc)
			continue
		}
		switch x := s.(type) {
		case *ast.Return:
			if x.Value == nil {
				return &ast.Absent{ValuePos: x.ReturnPos}
			}
			return in.expr(x.Value, env, pc)
		case *ast.Block:
			return in.run(append(slices.Clone(x.Stmts), rest...), env, pc)
		case *ast.If:
			c := in.expr(x.Cond, env, pc)
			t := truth(c)
			then := in.run(append(slices.Clone(x.Then.Stmts), rest...), copyEnv(env), andPC(pc, t))
			els := in.run(append(slices.Clone(bodyOf(x.Else)), rest...), copyEnv(env), andPC(pc, not(t)))
			return &ast.Cond{Cond: c, Question: x.IfPos, Then: then, Else: els}
		case *ast.While:
			if _, ok := in.iters[x]; ok {
				return in.unfold(x, rest, env, pc)
			}
			return in.run(append([]ast.Stmt{in.loop(x.WhilePos, x.Cond, x.Body, 0)}, rest...), env, pc)
		case *ast.For:
			if x.Init != nil {
				in.exec(x.Init, env, pc)
			}
			// for (init; cond; post) body is init; while (cond) { body; post }.
			body := &ast.Block{Lbrace: x.Body.Lbrace, Stmts: append(slices.Clone(x.Body.Stmts), bodyOf(x.Post)...)}
			return in.run(append([]ast.Stmt{in.loop(x.ForPos, x.Cond, body, 0)}, rest...), env, pc)
		default:
			in.errorf(s.Pos(), "a return is allowed in a function only in its body, if, else, while and for")
			return &ast.Absent{ValuePos: s.Pos()}
		}
	}
	pos := source.NoPos
	if len(stmts) > 0 {
		pos = stmts[len(stmts)-1].Pos()
	}
	return &ast.Absent{ValuePos: pos}
}

// loop is a loop of a function body as run unfolds it: while (cond) body
// in its iter-th iteration.
func (in *Inliner) loop(pos source.Pos, cond ast.Expr, body *ast.Block, iter int) *ast.While {
	if in.iters == nil {
		in.iters = make(map[*ast.While]int)
	}
	w := &ast.While{WhilePos: pos, Cond: cond, Body: body}
	in.iters[w] = iter
	return w
}

// unfold translates a loop of run's in its iteration in.iters[x],
// followed by rest: while (cond) body is if (cond) { body; while (cond)
// body }, the inner loop in the next iteration, until the bound.
func (in *Inliner) unfold(x *ast.While, rest []ast.Stmt, env map[string]ast.Expr, pc ast.Expr) ast.Expr {
	c := ast.Expr(&ast.BoolLit{ValuePos: x.WhilePos, Value: true})
	if x.Cond != nil {
		c = truth(in.expr(x.Cond, env, pc))
	}
	if b, ok := simplify.Expr(c).(*ast.BoolLit); ok && !b.Value {
		return in.run(rest, env, pc)
	}
	if in.iters[x] >= in.Limit() {
		in.over = append(in.over, andPC(pc, c))
		return in.run(rest, env, pc)
	}
	next := in.loop(x.WhilePos, x.Cond, x.Body, in.iters[x]+1)
	then := in.run(append(append(slices.Clone(x.Body.Stmts), next), rest...), copyEnv(env), andPC(pc, c))
	els := in.run(rest, copyEnv(env), andPC(pc, not(c)))
	return &ast.Cond{Cond: c, Question: x.WhilePos, Then: then, Else: els}
}

// exec translates s, a statement of a function body without return or
// loop, into its effect on env.
func (in *Inliner) exec(s ast.Stmt, env map[string]ast.Expr, pc ast.Expr) {
	switch x := s.(type) {
	case *ast.Block:
		for _, t := range x.Stmts {
			in.exec(t, env, pc)
		}
	case *ast.Decl:
		switch {
		case x.Value != nil:
			env[x.Name.Name] = in.expr(x.Value, env, pc)
		case x.Type.Kind != ast.Invalid:
			env[x.Name.Name] = ZeroValue(x.Type.Kind, x.DeclPos)
		default:
			env[x.Name.Name] = &ast.Absent{ValuePos: x.DeclPos}
		}
	case *ast.Assign:
		name := x.Target.Name
		if !in.writable(x.Target, x.Path, env, "assigns") {
			return
		}
		v := in.expr(x.Value, env, pc)
		if op, ok := assignOps[x.Op]; ok {
			v = &ast.Binary{X: env[name], OpPos: x.OpPos, Op: op, Y: v}
		}
		env[name] = v
	case *ast.IncDec:
		name := x.Target.Name
		if !in.writable(x.Target, x.Path, env, "changes") {
			return
		}
		op := ast.ADD
		if x.Op == ast.DEC {
			op = ast.SUB
		}
		env[name] = &ast.Binary{X: env[name], OpPos: x.OpPos, Op: op, Y: &ast.IntLit{ValuePos: x.OpPos, Value: 1}}
	case *ast.If:
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

// writable reports whether the function may write target (with path
// below it), which it does (verb) with env holding its parameters and
// locals, and refuses it otherwise: a name of the caller's (a function
// returns what it computes), or a part of a parameter or local (o.x = 2,
// o.n++: the inlined function computes its values as wholes, and a
// parameter's object is the caller's in ECMAScript, which such a write
// would change).
func (in *Inliner) writable(target *ast.Ident, path []*ast.Sel, env map[string]ast.Expr, verb string) bool {
	_, local := env[target.Name]
	switch {
	case !local:
		in.errorf(target.NamePos, "function %s %s %s, which is not one of its parameters or locals: a function returns what it computes; return the value and assign it where %s is called",
			in.fn, verb, target.Name, in.fn)
	case path != nil:
		in.errorf(target.NamePos, "function %s writes %s, a part of its parameter or local %s: setbot inlines a function as values computed whole, "+
			"and ECMAScript would change the caller's object where %s holds one; assign %s a whole new value, or return the value and assign it where %s is called",
			in.fn, printer.LocString(target, path), target.Name, target.Name, target.Name, in.fn)
	default:
		return true
	}
	return false
}

var assignOps = map[ast.Token]ast.Token{ast.ADD_ASSIGN: ast.ADD, ast.SUB_ASSIGN: ast.SUB, ast.MUL_ASSIGN: ast.MUL, ast.QUO_ASSIGN: ast.QUO, ast.REM_ASSIGN: ast.REM}

func stmtWord(s ast.Stmt) string {
	switch s.(type) {
	case *ast.Raise:
		return "raise"
	case *ast.Send:
		return "send"
	case *ast.Cancel:
		return "cancel"
	case *ast.ForEach:
		return "foreach"
	case *ast.FuncDecl:
		return "a nested function declaration"
	}
	return fmt.Sprintf("%T", s)
}

// builtin returns the expression that computes the built-in call x with
// the arguments args, and whether x is one the inliner expands.
func (in *Inliner) builtin(x *ast.Call, args []ast.Expr) (ast.Expr, bool) {
	pos := x.FunPos
	dup := func(e ast.Expr) ast.Expr { return in.dup(e, pos) }
	arity := func(n int) bool {
		if len(args) != n {
			in.errorf(pos, "call of %s with %d arguments: setbot models it with %d", x.Fun, len(args), n)
			return false
		}
		return true
	}
	lit := func(v int64) ast.Expr { return &ast.IntLit{ValuePos: pos, Value: v} }
	cmp := func(a ast.Expr, op ast.Token, b ast.Expr) ast.Expr {
		return &ast.Binary{X: a, OpPos: pos, Op: op, Y: b}
	}
	cond := func(c, t, e ast.Expr) ast.Expr { return &ast.Cond{Cond: c, Question: pos, Then: t, Else: e} }
	switch x.Fun {
	case "Math.abs":
		if !arity(1) {
			return nil, true
		}
		a := args[0]
		return cond(cmp(a, ast.LSS, lit(0)), &ast.Unary{OpPos: pos, Op: ast.SUB, X: dup(a)}, dup(a)), true
	case "Math.min", "Math.max":
		if len(args) == 0 {
			in.errorf(pos, "call of %s without arguments: its value is an infinity, which setbot does not model; pass at least one number", x.Fun)
			return nil, true
		}
		op := ast.LSS
		if x.Fun == "Math.max" {
			op = ast.GTR
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
		return cond(cmp(a, ast.GTR, lit(0)), lit(1), cond(cmp(dup(a), ast.LSS, lit(0)), lit(-1), lit(0))), true
	case "Math.pow":
		if !arity(2) {
			return nil, true
		}
		n, ok := simplify.Expr(args[1]).(*ast.IntLit)
		if !ok || n.Value < 0 || n.Value > 64 {
			in.errorf(pos, "call of Math.pow with exponent %s: setbot models Math.pow with a constant exponent from 0 to 64; multiply it out otherwise", printer.ExprString(args[1]))
			return nil, true
		}
		if n.Value == 0 {
			return lit(1), true
		}
		p := args[0]
		for i := int64(1); i < n.Value; i++ {
			p = cmp(p, ast.MUL, dup(args[0]))
		}
		return p, true
	case "Boolean":
		if !arity(1) {
			return nil, true
		}
		return cond(args[0], &ast.BoolLit{ValuePos: pos, Value: true}, &ast.BoolLit{ValuePos: pos}), true
	}
	return nil, false
}

// hostFunctionCall returns the output that the call statement d makes when
// it calls a function the inliner does not know (a plain name, not a
// built-in), or nil.
func (in *Inliner) hostFunctionCall(d *ast.Decl) ast.Stmt {
	c, ok := d.Value.(*ast.Call)
	if !ok || !strings.HasPrefix(d.Name.Name, parser.CallStmtPrefix) || !in.isHost(c.Fun) {
		return nil
	}
	if _, err := strconv.Atoi(strings.TrimPrefix(d.Name.Name, parser.CallStmtPrefix)); err != nil {
		return nil
	}
	args := make([]*ast.Arg, len(c.Args))
	for i, a := range c.Args {
		args[i] = &ast.Arg{NamePos: a.Pos(), Name: "arg" + strconv.Itoa(i), Value: a}
	}
	return &ast.Send{SendPos: c.FunPos, Event: c.Fun, Args: args, Target: parser.HostTarget}
}
