package lower

import (
	"slices"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"
)

// A function with effects (one that assigns a global, a variable that is
// neither its parameter nor its local, whole or in part, or raises, sends
// or cancels, or calls a function that does) is inlined as statements,
// not as an expression: where a statement calls it, the statement is
// preceded by the function's body, its parameters and locals renamed to
// fresh locals bound to the arguments, and each return of the body
// continues with the statement, the call replaced by a fresh local that
// holds the returned value. A return in a branch ends the body there: the
// rest of the body follows in the other branch only, and the statement
// after the call follows every return, as ECMAScript runs it. The call
// taken first is the first that ECMAScript evaluates; what the statement
// evaluates before it is evaluated after the body runs, so the inliner
// refuses a statement that reads before the call a name the call assigns.
// A call on the right of && or ||, in a branch of ?:, in a transition's
// cond or in a loop's condition is refused with its position, and so is
// recursion through a function with effects: the inliner unfolds no such
// call. The statement form runs the same in every executor, since they all
// run the inlined statements (docs/architecture.md §The action language).

// An effect is the first effect a function has: what it does (for
// messages) and where.
type effect struct {
	what string
	pos  source.Pos
}

// effects computes, once, the functions with effects and those that reach
// themselves through calls (in.cyclic).
func (in *Inliner) effects() map[string]*effect {
	if in.effectOf != nil {
		return in.effectOf
	}
	in.effectOf = make(map[string]*effect)
	calls := make(map[string][]string)
	for name, f := range in.Funcs {
		locals := f.Locals()
		ast.Inspect(f.Body, func(n ast.Node) bool {
			var e *effect
			switch x := n.(type) {
			case *ast.Assign:
				if !locals[x.Target.Name] {
					e = &effect{"assigns " + x.Target.Name, x.Target.NamePos}
				}
			case *ast.IncDec:
				if !locals[x.Target.Name] {
					e = &effect{"changes " + x.Target.Name, x.Target.NamePos}
				}
			case *ast.Raise:
				e = &effect{"raises " + x.Event, x.RaisePos}
			case *ast.Send:
				e = &effect{"sends " + x.Event, x.SendPos}
			case *ast.Cancel:
				e = &effect{"cancels a send", x.CancelPos}
			case *ast.Call:
				if _, ok := in.Funcs[x.Fun]; ok {
					calls[name] = append(calls[name], x.Fun)
				}
			}
			if e != nil && in.effectOf[name] == nil {
				in.effectOf[name] = e
			}
			return true
		})
	}
	for changed := true; changed; {
		changed = false
		for name, cs := range calls {
			for _, c := range cs {
				if e := in.effectOf[c]; e != nil && in.effectOf[name] == nil {
					in.effectOf[name] = e
					changed = true
				}
			}
		}
	}
	in.cyclic = make(map[string]bool)
	for name := range in.effectOf {
		in.cyclic[name] = reaches(calls, name, name)
	}
	return in.effectOf
}

// reaches reports whether a call of from leads to a call of to.
func reaches(calls map[string][]string, from, to string) bool {
	seen := map[string]bool{}
	stack := slices.Clone(calls[from])
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f == to {
			return true
		}
		if !seen[f] {
			seen[f] = true
			stack = append(stack, calls[f]...)
		}
	}
	return false
}

// effectOfCall returns the effect of the function x calls, or nil.
func (in *Inliner) effectOfCall(x *ast.Call) *effect {
	if _, ok := in.Funcs[x.Fun]; !ok {
		return nil
	}
	return in.effects()[x.Fun]
}

// unhoisted reports the call x of a function with effects where the
// inliner cannot run it as statements.
func (in *Inliner) unhoisted(x *ast.Call, e *effect) {
	in.errorf(x.FunPos, "call of %s, which %s (at %s), where setbot cannot run it before the code that uses its value: in a transition's cond, a loop's condition, "+
		"the right of && or ||, or a branch of ?:; call it in a statement of its own, var v = %s(...), and use v here",
		x.Fun, e.what, in.Fset.Position(e.pos), x.Fun)
}

// exprSlots returns a shallow copy of s and pointers to the expressions
// of the copy that s evaluates itself (not those of its nested blocks),
// in ECMAScript's order, or nil for a statement whose calls with effects
// are not hoisted (loops: their conditions are evaluated more than once).
func exprSlots(s ast.Stmt) (ast.Stmt, []*ast.Expr) {
	var slots []*ast.Expr
	path := func(p []*ast.Sel) []*ast.Sel {
		if p == nil {
			return nil
		}
		out := make([]*ast.Sel, len(p))
		for i, sel := range p {
			c := *sel
			out[i] = &c
			if c.Index != nil {
				slots = append(slots, &out[i].Index)
			}
		}
		return out
	}
	args := func(as []*ast.Arg) []*ast.Arg {
		if as == nil {
			return nil
		}
		out := make([]*ast.Arg, len(as))
		for i, a := range as {
			c := *a
			out[i] = &c
			slots = append(slots, &out[i].Value)
		}
		return out
	}
	switch x := s.(type) {
	case *ast.Assign:
		c := *x
		c.Path = path(x.Path)
		slots = append(slots, &c.Value)
		return &c, slots
	case *ast.IncDec:
		c := *x
		c.Path = path(x.Path)
		return &c, slots
	case *ast.Decl:
		c := *x
		return &c, append(slots, &c.Value)
	case *ast.If:
		c := *x
		return &c, append(slots, &c.Cond)
	case *ast.Raise:
		c := *x
		c.Args = args(x.Args)
		return &c, slots
	case *ast.Send:
		c := *x
		c.Args = args(x.Args)
		return &c, append(slots, &c.Delay)
	}
	return nil, nil
}

// hoistable returns the call with effects that e evaluates first, outside
// the right of && and || and the branches of ?: (where the call is
// refused when the code is inlined as an expression), or nil.
func (in *Inliner) hoistable(e ast.Expr) *ast.Call {
	var found *ast.Call
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch x := n.(type) {
		case *ast.Binary:
			if x.Op == ast.LAND || x.Op == ast.LOR {
				ast.Inspect(x.X, visit)
				return false
			}
		case *ast.Cond:
			ast.Inspect(x.Cond, visit)
			return false
		case *ast.Call:
			// Its arguments are evaluated before it.
			for _, a := range x.Args {
				if ast.Inspect(a, visit); found != nil {
					return false
				}
			}
			if in.effectOfCall(x) != nil {
				found = x
			}
			return false
		}
		return true
	}
	if e != nil {
		ast.Inspect(e, visit)
	}
	return found
}

// replaceCall returns e with the call x replaced by v.
func replaceCall(e ast.Expr, x *ast.Call, v ast.Expr) ast.Expr {
	if e == ast.Expr(x) {
		return v
	}
	return ast.MapExpr(e, func(c ast.Expr) ast.Expr { return replaceCall(c, x, v) })
}

// reads are the names that evaluating e reads, with those the functions
// it calls read.
func (in *Inliner) reads(e ast.Node, into map[string]bool, seen map[string]bool) {
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			into[x.Name] = true
		case *ast.Call:
			if f, ok := in.Funcs[x.Fun]; ok && !seen[x.Fun] {
				seen[x.Fun] = true
				in.reads(f.Body, into, seen)
			}
		}
		return true
	})
}

// writes are the names that a call of f assigns (whole or in part) that
// are not f's, with those of the functions it calls.
func (in *Inliner) writes(f *ast.FuncDecl, into map[string]bool, seen map[string]bool) {
	if seen[f.Name.Name] {
		return
	}
	seen[f.Name.Name] = true
	locals := f.Locals()
	ast.Inspect(f.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Assign:
			if !locals[x.Target.Name] {
				into[x.Target.Name] = true
			}
		case *ast.IncDec:
			if !locals[x.Target.Name] {
				into[x.Target.Name] = true
			}
		case *ast.Call:
			if g, ok := in.Funcs[x.Fun]; ok {
				in.writes(g, into, seen)
			}
		}
		return true
	})
}

// readBefore returns a name that s reads before it calls x and that the
// call assigns, or "": ECMAScript reads it before the call's effects, and
// the inlined call's body runs before the statement.
func (in *Inliner) readBefore(s ast.Stmt, slots []*ast.Expr, x *ast.Call) string {
	w := make(map[string]bool)
	in.writes(in.Funcs[x.Fun], w, map[string]bool{})
	r := make(map[string]bool)
	switch a := s.(type) {
	case *ast.Assign:
		// A part's object, and a compound assignment's old value, are
		// read before the value.
		if a.Path != nil || a.Op != ast.ASSIGN {
			r[a.Target.Name] = true
		}
	case *ast.IncDec:
		r[a.Target.Name] = true
	}
	seen := map[string]bool{}
	for _, sl := range slots {
		done := false
		ast.Inspect(*sl, func(n ast.Node) bool {
			if n == ast.Node(x) {
				done = true
			}
			if done || n == nil {
				return false
			}
			switch y := n.(type) {
			case *ast.Ident:
				r[y.Name] = true
			case *ast.Call:
				in.reads(y, r, seen)
				return false
			}
			return true
		})
		if done {
			break
		}
	}
	names := make([]string, 0, len(r))
	for n := range r {
		if w[n] {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// hoist inlines as statements the first call with effects that s
// evaluates itself, and gives the statements that replace s, or nil when
// s evaluates none. rest are the statements after s in its block: a
// declaration's continuation takes them in (its local is in scope there),
// and then all is true.
func (in *Inliner) hoist(s ast.Stmt, rest []ast.Stmt) (out []ast.Stmt, all bool) {
	c, slots := exprSlots(s)
	var x *ast.Call
	var slot *ast.Expr
	for _, sl := range slots {
		if x = in.hoistable(*sl); x != nil {
			slot = sl
			break
		}
	}
	if x == nil {
		return nil, false
	}
	f := in.Funcs[x.Fun]
	if in.cyclic[x.Fun] {
		in.errorf(x.FunPos, "function %s calls itself and %s (at %s): setbot runs such a function's effects by inlining its body, which recursion would make endless; "+
			"write it with a loop", x.Fun, in.effects()[x.Fun].what, in.Fset.Position(in.effects()[x.Fun].pos))
		return []ast.Stmt{}, false
	}
	if len(x.Args) > len(f.Params) {
		in.errorf(x.FunPos, "call of %s with %d arguments: it is declared with %d parameters", x.Fun, len(x.Args), len(f.Params))
		return []ast.Stmt{}, false
	}
	if name := in.readBefore(c, slots, x); name != "" {
		in.errorf(x.FunPos, "%s is read before the call of %s, which assigns it: ECMAScript reads it before the call, and setbot runs the call's body before the statement; "+
			"call %s in a statement of its own before this one, var v = %s(...), and use v here", name, x.Fun, x.Fun, x.Fun)
		return []ast.Stmt{}, false
	}
	in.fresh++
	n := in.fresh
	result := &ast.Ident{NamePos: x.FunPos, Name: ast.InlinedName(x.Fun, n)}
	decl, isDecl := s.(*ast.Decl)
	callStmt := isDecl && strings.HasPrefix(decl.Name.Name, parser.CallStmtPrefix) && decl.Value == ast.Expr(x)
	*slot = replaceCall(*slot, x, result)
	keepRest := isDecl && !callStmt
	k := func(v ast.Expr) []ast.Stmt {
		if !in.grow(x.FunPos, 2+len(rest)) {
			return nil
		}
		if callStmt {
			if _, ok := v.(*ast.Absent); ok {
				return nil
			}
			return []ast.Stmt{&ast.Decl{DeclPos: x.FunPos, Name: &ast.Ident{NamePos: x.FunPos, Name: decl.Name.Name}, Value: v}}
		}
		out := []ast.Stmt{&ast.Decl{DeclPos: x.FunPos, Name: ast.CopyIdent(result), Value: v}, ast.RewriteStmt(c, func(e ast.Expr) ast.Expr { return e })}
		if keepRest {
			for _, r := range rest {
				out = append(out, ast.RewriteStmt(r, func(e ast.Expr) ast.Expr { return e }))
			}
		}
		return out
	}
	body := in.bind(f, x, n)
	body = append(body, in.runStmts(f, in.renamed(f, n), k)...)
	return in.Block(&ast.Block{Lbrace: x.FunPos, Stmts: body}).Stmts, keepRest
}

// bind declares f's parameters, renamed for the call x (the n-th
// inlined), with the arguments' values (undefined for a missing one).
func (in *Inliner) bind(f *ast.FuncDecl, x *ast.Call, n int) []ast.Stmt {
	var out []ast.Stmt
	for i, p := range f.Params {
		var v ast.Expr = &ast.Absent{ValuePos: x.FunPos}
		if i < len(x.Args) {
			v = x.Args[i]
		}
		out = append(out, &ast.Decl{DeclPos: x.FunPos, Name: &ast.Ident{NamePos: p.NamePos, Name: ast.InlinedName(p.Name, n)}, Value: v})
	}
	return out
}

// renamed returns f's body with its parameters and locals renamed for the
// n-th inlined call, and refuses a write to a part of a parameter:
// ECMAScript would change the caller's object. A call statement's local
// is renamed as the parser names one (CallStmtPrefix and a number, by
// which the inliner knows a call of the host's), with a negative number,
// which no offset is.
func (in *Inliner) renamed(f *ast.FuncDecl, n int) []ast.Stmt {
	locals := f.Locals()
	params := make(map[string]bool, len(f.Params))
	for _, p := range f.Params {
		params[p.Name] = true
	}
	calls := make(map[string]string)
	newName := func(name string) (string, bool) {
		if !locals[name] {
			return "", false
		}
		if !strings.HasPrefix(name, parser.CallStmtPrefix) {
			return ast.InlinedName(name, n), true
		}
		if c, ok := calls[name]; ok {
			return c, true
		}
		in.fresh++
		calls[name] = parser.CallStmtPrefix + strconv.Itoa(-in.fresh)
		return calls[name], true
	}
	b := ast.RewriteBlock(f.Body, func(e ast.Expr) ast.Expr {
		if id, ok := e.(*ast.Ident); ok {
			if to, ok := newName(id.Name); ok {
				return &ast.Ident{NamePos: id.NamePos, Name: to}
			}
		}
		return e
	})
	rename := func(id *ast.Ident) {
		if id == nil {
			return
		}
		if to, ok := newName(id.Name); ok {
			id.Name = to
		}
	}
	ast.Inspect(b, func(nd ast.Node) bool {
		switch x := nd.(type) {
		case *ast.Assign:
			in.partOfParam(f, x.Target, x.Path, params)
			rename(x.Target)
		case *ast.IncDec:
			in.partOfParam(f, x.Target, x.Path, params)
			rename(x.Target)
		case *ast.Decl:
			rename(x.Name)
		case *ast.ForEach:
			rename(x.Item)
			rename(x.Index)
		}
		return true
	})
	return b.Stmts
}

// partOfParam refuses a write to a part of f's parameter (target, with
// path below it).
func (in *Inliner) partOfParam(f *ast.FuncDecl, target *ast.Ident, path []*ast.Sel, params map[string]bool) {
	if path != nil && params[target.Name] {
		in.errorf(target.NamePos, "function %s writes %s, a part of its parameter %s: ECMAScript would change the caller's object where %s holds one, "+
			"which setbot does not model; assign %s a whole new value, or return the value and assign it where %s is called",
			f.Name.Name, printer.LocString(target, path), target.Name, target.Name, target.Name, f.Name.Name)
	}
}

// runStmts translates stmts, the rest of f's renamed body, into
// statements that end with k of the value returned, on every path.
func (in *Inliner) runStmts(f *ast.FuncDecl, stmts []ast.Stmt, k func(ast.Expr) []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for i, s := range stmts {
		if !in.grow(s.Pos(), 1) {
			return out
		}
		rest := stmts[i+1:]
		if _, ok := s.(*ast.FuncDecl); ok {
			in.errorf(s.Pos(), "a nested function declaration is not allowed in function %s: declare it in a <script> of its own", f.Name.Name)
			continue
		}
		if !ast.Any(s, func(n ast.Node) bool { _, ok := n.(*ast.Return); return ok }) {
			out = append(out, s)
			continue
		}
		switch x := s.(type) {
		case *ast.Return:
			var v ast.Expr = x.Value
			if v == nil {
				v = &ast.Absent{ValuePos: x.ReturnPos}
			}
			return append(out, k(v)...)
		case *ast.Block:
			return append(out, in.runStmts(f, append(slices.Clone(x.Stmts), rest...), k)...)
		case *ast.If:
			then := in.runStmts(f, append(slices.Clone(x.Then.Stmts), rest...), k)
			els := in.runStmts(f, append(slices.Clone(bodyOf(x.Else)), rest...), k)
			return append(out, &ast.If{IfPos: x.IfPos, Cond: x.Cond, Then: &ast.Block{Lbrace: x.Then.Lbrace, Stmts: then}, Else: &ast.Block{Lbrace: x.IfPos, Stmts: els}})
		default:
			in.errorf(s.Pos(), "a return inside a loop of function %s, which %s: setbot inlines such a function as statements, where a return is allowed only in its body, if and else; "+
				"end the loop with its condition and return after it", f.Name.Name, in.effects()[f.Name.Name].what)
			return out
		}
	}
	pos := source.NoPos
	if len(stmts) > 0 {
		pos = stmts[len(stmts)-1].Pos()
	}
	return append(out, k(&ast.Absent{ValuePos: pos})...)
}

// grow counts n statements more that the inlining of calls with effects
// writes for the block being inlined, and reports whether they stay
// within MaxInlined: each return of such a function copies the statement
// after the call (and a declaration's block after it), so calls in a row
// would grow exponentially; past the bound the block is refused.
func (in *Inliner) grow(pos source.Pos, n int) bool {
	if in.emitted += n; in.emitted <= MaxInlined {
		return true
	}
	if !in.tooMany {
		in.tooMany = true
		in.errorf(pos, "the calls of functions with effects here expand to more than %d statements when inlined: "+
			"give each function fewer returns, or call them in blocks of their own", MaxInlined)
	}
	return false
}
