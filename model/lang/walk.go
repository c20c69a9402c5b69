package lang

import "fmt"

// Inspect traverses the tree rooted at n in depth-first order, as
// go/ast.Inspect does: it calls f(n); if that returns true, it inspects
// each child (argument values included) and then calls f(nil).
func Inspect(n Node, f func(Node) bool) {
	var visit func(Node)
	visit = func(n Node) {
		if n == nil || !f(n) {
			return
		}
		eachChild(n, visit)
		f(nil)
	}
	visit(n)
}

// eachChild calls visit for each child of n, in order, skipping absent
// ones (argument values included).
func eachChild(n Node, visit func(Node)) {
	if !exprChildren(n, visit) {
		stmtChildren(n, visit)
	}
}

// exprChildren calls visit for each operand of the expression n and
// reports whether n is an expression.
func exprChildren(n Node, visit func(Node)) bool {
	switch x := n.(type) {
	case *IntLit, *DecLit, *BoolLit, *StrLit, *Absent, *EventField, *SysVar, *Ident, *EventParam, *InState:
	case *TypeOf:
		visit(x.X)
	case *ToDecimal:
		visit(x.X)
	case *Method:
		visit(x.X)
		visitExprs(x.Args, visit)
	case *Unary:
		visit(x.X)
	case *Binary:
		visit(x.X)
		visit(x.Y)
	case *Cond:
		visit(x.Cond)
		visit(x.Then)
		visit(x.Else)
	case *ArrayLit:
		visitExprs(x.Elems, visit)
	case *ObjectLit:
		for _, fi := range x.Fields {
			visit(fi.Value)
		}
	case *Index:
		visit(x.X)
		visit(x.Index)
	case *Member:
		visit(x.X)
	case *Floor:
		visit(x.X)
	case *Digits:
		visit(x.X)
	case *Convert:
		visit(x.X)
	case *Call:
		visitExprs(x.Args, visit)
	case *External:
		visitExprs(x.Args, visit)
	default:
		return false
	}
	return true
}

// stmtChildren calls visit for each child of the statement or block n.
func stmtChildren(n Node, visit func(Node)) {
	switch x := n.(type) {
	case *Block:
		for _, s := range x.Stmts {
			visit(s)
		}
	case *Assign:
		visit(x.Target)
		inspectPath(x.Path, visit)
		visit(x.Value)
	case *IncDec:
		visit(x.Target)
		inspectPath(x.Path, visit)
	case *ForEach:
		visit(x.Item)
		if x.Index != nil {
			visit(x.Index)
		}
		visit(x.Array)
		if x.Cond != nil {
			visit(x.Cond)
		}
		inspectBlock(x.Body, visit)
	case *Decl:
		visit(x.Name)
		if x.Value != nil {
			visit(x.Value)
		}
	case *If:
		visit(x.Cond)
		inspectBlock(x.Then, visit)
		if x.Else != nil {
			visit(x.Else)
		}
	case *While:
		visit(x.Cond)
		inspectBlock(x.Body, visit)
	case *For:
		if x.Init != nil {
			visit(x.Init)
		}
		if x.Cond != nil {
			visit(x.Cond)
		}
		if x.Post != nil {
			visit(x.Post)
		}
		inspectBlock(x.Body, visit)
	case *Raise:
		inspectArgs(x.Args, visit)
	case *Send:
		inspectArgs(x.Args, visit)
		if x.Delay != nil {
			visit(x.Delay)
		}
	case *Cancel:
	case *Assume:
		visit(x.Cond)
	case *Bound:
		visit(x.Cond)
	case *FuncDecl:
		visit(x.Name)
		for _, p := range x.Params {
			visit(p)
		}
		inspectBlock(x.Body, visit)
	case *Return:
		if x.Value != nil {
			visit(x.Value)
		}
	default:
		panic(fmt.Sprintf("lang: unexpected node %T", n))
	}
}

func visitExprs(es []Expr, visit func(Node)) {
	for _, e := range es {
		visit(e)
	}
}

func inspectBlock(b *Block, visit func(Node)) {
	if b != nil {
		visit(b)
	}
}

func inspectPath(path []*Sel, visit func(Node)) {
	for _, s := range path {
		if s.Index != nil {
			visit(s.Index)
		}
	}
}

func inspectArgs(args []*Arg, visit func(Node)) {
	for _, a := range args {
		visit(a.Value)
	}
}

// RewriteExpr returns a copy of e in which f has been applied bottom-up to
// every sub-expression: each node is copied, its children are rewritten,
// and f receives the copy and returns its replacement. e is not modified.
func RewriteExpr(e Expr, f func(Expr) Expr) Expr {
	var c Expr
	switch x := e.(type) {
	case nil:
		return nil
	case *IntLit:
		y := *x
		c = &y
	case *DecLit:
		y := *x
		c = &y
	case *BoolLit:
		y := *x
		c = &y
	case *Ident:
		y := *x
		c = &y
	case *EventParam:
		y := *x
		c = &y
	case *InState:
		y := *x
		c = &y
	case *StrLit:
		y := *x
		c = &y
	case *Absent:
		y := *x
		c = &y
	case *EventField:
		y := *x
		c = &y
	case *SysVar:
		y := *x
		c = &y
	case *TypeOf:
		c = &TypeOf{OpPos: x.OpPos, X: RewriteExpr(x.X, f)}
	case *ToDecimal:
		c = &ToDecimal{Start: x.Start, X: RewriteExpr(x.X, f)}
	case *Method:
		m := &Method{X: RewriteExpr(x.X, f), DotPos: x.DotPos, Name: x.Name, Call: x.Call}
		for _, a := range x.Args {
			m.Args = append(m.Args, RewriteExpr(a, f))
		}
		c = m
	case *Unary:
		c = &Unary{OpPos: x.OpPos, Op: x.Op, X: RewriteExpr(x.X, f)}
	case *Binary:
		c = &Binary{X: RewriteExpr(x.X, f), OpPos: x.OpPos, Op: x.Op, Y: RewriteExpr(x.Y, f)}
	case *Cond:
		c = &Cond{Cond: RewriteExpr(x.Cond, f), Question: x.Question, Then: RewriteExpr(x.Then, f), Else: RewriteExpr(x.Else, f)}
	case *ArrayLit:
		a := &ArrayLit{Lbrack: x.Lbrack}
		for _, e := range x.Elems {
			a.Elems = append(a.Elems, RewriteExpr(e, f))
		}
		c = a
	case *ObjectLit:
		o := &ObjectLit{Lbrace: x.Lbrace}
		for _, fi := range x.Fields {
			o.Fields = append(o.Fields, &FieldInit{NamePos: fi.NamePos, Name: fi.Name, Value: RewriteExpr(fi.Value, f)})
		}
		c = o
	case *Index:
		c = &Index{X: RewriteExpr(x.X, f), Lbrack: x.Lbrack, Index: RewriteExpr(x.Index, f)}
	case *Member:
		c = &Member{X: RewriteExpr(x.X, f), DotPos: x.DotPos, Name: x.Name}
	case *Floor:
		c = &Floor{Start: x.Start, X: RewriteExpr(x.X, f)}
	case *Digits:
		c = &Digits{Start: x.Start, X: RewriteExpr(x.X, f)}
	case *Convert:
		c = &Convert{Start: x.Start, Fun: x.Fun, X: RewriteExpr(x.X, f), Radix10: x.Radix10}
	case *Call:
		c = &Call{FunPos: x.FunPos, Fun: x.Fun, Args: rewriteExprs(x.Args, f)}
	case *External:
		c = &External{FunPos: x.FunPos, Fun: x.Fun, Args: rewriteExprs(x.Args, f), Params: x.Params, Result: x.Result}
	default:
		panic(fmt.Sprintf("lang: unexpected expression %T", e))
	}
	return f(c)
}

// RewriteBlock returns a copy of b in which every expression of every
// statement has been rewritten with RewriteExpr(…, f). Assignment targets
// and declared names are names, not expressions read: they are copied
// without passing them to f. b is not modified.
func RewriteBlock(b *Block, f func(Expr) Expr) *Block {
	if b == nil {
		return nil
	}
	c := &Block{Lbrace: b.Lbrace}
	if b.Stmts != nil {
		c.Stmts = make([]Stmt, len(b.Stmts))
	}
	for i, s := range b.Stmts {
		c.Stmts[i] = rewriteStmt(s, f)
	}
	return c
}

func rewriteStmt(s Stmt, f func(Expr) Expr) Stmt {
	switch x := s.(type) {
	case nil:
		return nil
	case *Block:
		return RewriteBlock(x, f)
	case *Assign:
		return &Assign{Target: copyIdent(x.Target), Path: rewritePath(x.Path, f), OpPos: x.OpPos, Op: x.Op, Value: RewriteExpr(x.Value, f)}
	case *IncDec:
		return &IncDec{Target: copyIdent(x.Target), Path: rewritePath(x.Path, f), OpPos: x.OpPos, Op: x.Op}
	case *ForEach:
		var index *Ident
		if x.Index != nil {
			index = copyIdent(x.Index)
		}
		return &ForEach{ForPos: x.ForPos, Item: copyIdent(x.Item), Index: index, Array: RewriteExpr(x.Array, f), Cond: RewriteExpr(x.Cond, f), Body: RewriteBlock(x.Body, f)}
	case *Decl:
		return &Decl{DeclPos: x.DeclPos, Name: copyIdent(x.Name), Type: x.Type, Value: RewriteExpr(x.Value, f)}
	case *If:
		return &If{IfPos: x.IfPos, Cond: RewriteExpr(x.Cond, f), Then: RewriteBlock(x.Then, f), Else: rewriteStmt(x.Else, f)}
	case *While:
		return &While{WhilePos: x.WhilePos, Cond: RewriteExpr(x.Cond, f), Body: RewriteBlock(x.Body, f)}
	case *For:
		return &For{ForPos: x.ForPos, Init: rewriteStmt(x.Init, f), Cond: RewriteExpr(x.Cond, f),
			Post: rewriteStmt(x.Post, f), Body: RewriteBlock(x.Body, f)}
	case *Raise:
		return &Raise{RaisePos: x.RaisePos, Event: x.Event, Args: rewriteArgs(x.Args, f), ID: x.ID, Platform: x.Platform}
	case *Send:
		return &Send{SendPos: x.SendPos, Event: x.Event, Args: rewriteArgs(x.Args, f), Target: x.Target, Delay: RewriteExpr(x.Delay, f), ID: x.ID, From: x.From}
	case *Cancel:
		return &Cancel{CancelPos: x.CancelPos, SendID: x.SendID, Prefix: x.Prefix}
	case *Assume:
		return &Assume{AssumePos: x.AssumePos, Cond: RewriteExpr(x.Cond, f)}
	case *Bound:
		return &Bound{BoundPos: x.BoundPos, Name: x.Name, Limit: x.Limit, Cond: RewriteExpr(x.Cond, f)}
	case *FuncDecl:
		params := make([]*Ident, len(x.Params))
		for i, p := range x.Params {
			params[i] = copyIdent(p)
		}
		return &FuncDecl{FuncPos: x.FuncPos, Name: copyIdent(x.Name), Params: params, Body: RewriteBlock(x.Body, f)}
	case *Return:
		return &Return{ReturnPos: x.ReturnPos, Value: RewriteExpr(x.Value, f)}
	}
	panic(fmt.Sprintf("lang: unexpected statement %T", s))
}

func rewriteExprs(es []Expr, f func(Expr) Expr) []Expr {
	if es == nil {
		return nil
	}
	c := make([]Expr, len(es))
	for i, e := range es {
		c[i] = RewriteExpr(e, f)
	}
	return c
}

func copyIdent(x *Ident) *Ident {
	y := *x
	return &y
}

// rewritePath rewrites the index expressions of an assignment's path.
func rewritePath(path []*Sel, f func(Expr) Expr) []*Sel {
	if path == nil {
		return nil
	}
	c := make([]*Sel, len(path))
	for i, s := range path {
		c[i] = &Sel{Pos: s.Pos, Name: s.Name, Index: RewriteExpr(s.Index, f)}
	}
	return c
}

func rewriteArgs(args []*Arg, f func(Expr) Expr) []*Arg {
	if args == nil {
		return nil
	}
	c := make([]*Arg, len(args))
	for i, a := range args {
		c[i] = &Arg{NamePos: a.NamePos, Name: a.Name, Value: RewriteExpr(a.Value, f)}
	}
	return c
}

// WithEventName returns e with _event.name replaced by the name of the
// event being processed.
func WithEventName(e Expr, name string) Expr {
	return RewriteExpr(e, func(x Expr) Expr {
		if f, ok := x.(*EventField); ok && f.Field == "name" {
			return &StrLit{ValuePos: f.Start, Value: name}
		}
		return x
	})
}
