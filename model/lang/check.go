package lang

import (
	"fmt"

	"github.com/setbot/setbot/model/source"
)

// Env is what the checker knows about the names around a snippet.
type Env struct {
	Vars  map[string]Type                           // machine variables
	Param func(name string) (Type, bool)            // type of _event.data.name; nil = no parameters in scope
	State func(id string) bool                      // In('id') validity; nil = accept any
	Event func(name string) (map[string]Type, bool) // declared parameters of an event for raise/send args; ok=false: unknown, do not check args
	// AllowAssume allows assume(...), which only flattened machines use.
	AllowAssume bool
}

// Info records the results of checking.
type Info struct {
	Types map[Expr]Type // type of every expression checked
}

// CheckExpr type-checks e. want is the kind e must have, or Invalid for
// any. A nil env is an empty one.
func CheckExpr(env *Env, fset *source.FileSet, e Expr, want Kind) (*Info, source.ErrorList) {
	c := newChecker(env, fset)
	if t := c.expr(e); want != Invalid && t.Kind != Invalid && t.Kind != want {
		c.errorf(e, "expression must be %s, found %s", want, t.Kind)
	}
	return c.info, c.errs
}

// CheckBlock type-checks a statement list; b is a scope of its own. A nil
// env is an empty one.
func CheckBlock(env *Env, fset *source.FileSet, b *Block) (*Info, source.ErrorList) {
	c := newChecker(env, fset)
	c.block(b)
	return c.info, c.errs
}

// A checker walks the tree once, keeping the scopes of locals.
type checker struct {
	env   *Env
	fset  *source.FileSet
	info  *Info
	errs  source.ErrorList
	scope *scope
}

// A scope holds the locals of one block.
type scope struct {
	parent *scope
	names  map[string]Type
}

func newChecker(env *Env, fset *source.FileSet) *checker {
	if env == nil {
		env = &Env{}
	}
	return &checker{env: env, fset: fset, info: &Info{Types: make(map[Expr]Type)}}
}

func (c *checker) errorAt(pos source.Pos, format string, args ...any) {
	c.errs.Add(c.fset.Position(pos), format, args...)
}

func (c *checker) errorf(n Node, format string, args ...any) {
	c.errorAt(n.Pos(), format, args...)
}

func (c *checker) push() { c.scope = &scope{parent: c.scope, names: make(map[string]Type)} }
func (c *checker) pop()  { c.scope = c.scope.parent }

// lookup finds a name among the locals in scope, then the machine
// variables.
func (c *checker) lookup(name string) (Type, bool) {
	for s := c.scope; s != nil; s = s.parent {
		if t, ok := s.names[name]; ok {
			return t, true
		}
	}
	t, ok := c.env.Vars[name]
	return t, ok
}

// ---- Expressions

// expr returns the type of e, recording it; the type is Invalid after an
// error, and errors are not repeated for enclosing expressions.
func (c *checker) expr(e Expr) Type {
	t := c.exprType(e)
	c.info.Types[e] = t
	return t
}

func (c *checker) exprType(e Expr) Type {
	switch x := e.(type) {
	case *IntLit:
		return IntType
	case *BoolLit:
		return BoolType
	case *Ident:
		return c.ident(x)
	case *EventParam:
		if c.env.Param == nil {
			c.errorf(x, "no event parameters in scope")
			return Type{}
		}
		t, ok := c.env.Param(x.Name)
		if !ok {
			c.errorf(x, "event parameter %s is not declared: declare it with a <setbot:param> of the event, or pass it in every send", x.Name)
		}
		return t
	case *InState:
		if c.env.State != nil && !c.env.State(x.State) {
			c.errorf(x, "unknown state '%s' in In()", x.State)
		}
		return BoolType
	case *Unary:
		return c.unary(x)
	case *Binary:
		return c.binary(x)
	case *Cond:
		c.cond(x.Cond)
		t1, t2 := c.expr(x.Then), c.expr(x.Else)
		switch {
		case t1.Kind == Invalid:
			return Type{Kind: t2.Kind}
		case t2.Kind != Invalid && t1.Kind != t2.Kind:
			c.errorAt(x.Question, "mismatched types %s and %s in ?: branches", t1.Kind, t2.Kind)
		}
		return Type{Kind: t1.Kind}
	}
	panic(fmt.Sprintf("lang: unexpected expression %T", e))
}

func (c *checker) ident(x *Ident) Type {
	t, ok := c.lookup(x.Name)
	if !ok {
		c.errorf(x, "%s", undeclaredMsg(x.Name))
	}
	return t
}

func (c *checker) unary(x *Unary) Type {
	t := c.expr(x.X)
	want := IntType
	if x.Op == NOT {
		want = BoolType
	}
	if t.Kind != Invalid && t.Kind != want.Kind {
		c.errorAt(x.OpPos, "operator %s needs %s operand, found %s", x.Op, article(want.Kind), t.Kind)
	}
	return want
}

func article(k Kind) string {
	if k == Int {
		return "an int"
	}
	return "a " + k.String()
}

func (c *checker) binary(x *Binary) Type {
	t1, t2 := c.expr(x.X), c.expr(x.Y)
	k1, k2 := t1.Kind, t2.Kind
	switch x.Op {
	case ADD, SUB, MUL, QUO, REM:
		c.operands(x.OpPos, x.Op, Int, k1, k2)
		return IntType
	case LSS, GTR, LEQ, GEQ:
		c.operands(x.OpPos, x.Op, Int, k1, k2)
	case LAND, LOR:
		c.operands(x.OpPos, x.Op, Bool, k1, k2)
	case EQL, NEQ:
		if k1 != Invalid && k2 != Invalid && k1 != k2 {
			c.errorAt(x.OpPos, "mismatched types %s and %s for %s", k1, k2, x.Op)
		}
	default:
		c.errorAt(x.OpPos, "unknown binary operator %s", x.Op)
		return Type{}
	}
	return BoolType
}

// operands checks that the operands of op, of kinds k1 and k2, both have
// kind want.
func (c *checker) operands(pos source.Pos, op Token, want, k1, k2 Kind) {
	if k1 != Invalid && k2 != Invalid && (k1 != want || k2 != want) {
		c.errorAt(pos, "operator %s needs %s operands, found %s and %s", op, want, k1, k2)
	}
}

// cond checks a condition, which must be bool.
func (c *checker) cond(e Expr) {
	if t := c.expr(e); t.Kind != Invalid && t.Kind != Bool {
		c.errorf(e, "condition must be bool, found %s", t.Kind)
	}
}

// ---- Statements

func (c *checker) block(b *Block) {
	c.push()
	for _, s := range b.Stmts {
		c.stmt(s)
	}
	c.pop()
}

func (c *checker) stmt(s Stmt) {
	switch x := s.(type) {
	case *Block:
		c.block(x)
	case *Assign:
		c.assign(x)
	case *IncDec:
		if t := c.expr(x.Target); t.Kind != Invalid && t.Kind != Int {
			c.errorAt(x.OpPos, "operator %s needs an int variable, found %s", x.Op, t.Kind)
		}
	case *Decl:
		c.decl(x)
	case *If:
		c.cond(x.Cond)
		c.block(x.Then)
		if x.Else != nil {
			c.stmt(x.Else)
		}
	case *While:
		c.cond(x.Cond)
		c.block(x.Body)
	case *For:
		c.push()
		if x.Init != nil {
			c.stmt(x.Init)
		}
		if x.Cond != nil {
			c.cond(x.Cond)
		}
		if x.Post != nil {
			c.stmt(x.Post)
		}
		c.block(x.Body)
		c.pop()
	case *Raise:
		c.args(x.Event, x.Args)
	case *Send:
		c.args(x.Event, x.Args)
	case *Cancel:
	case *Assume:
		if !c.env.AllowAssume {
			c.errorf(x, "assume is not allowed in models: remove it")
		}
		c.cond(x.Cond)
	default:
		panic(fmt.Sprintf("lang: unexpected statement %T", s))
	}
}

func (c *checker) assign(x *Assign) {
	tt, vt := c.expr(x.Target), c.expr(x.Value)
	if tt.Kind == Invalid || vt.Kind == Invalid {
		return
	}
	if x.Op == ASSIGN {
		if tt.Kind != vt.Kind {
			c.errorf(x.Value, "cannot use %s value as %s in assignment to %s", vt.Kind, tt.Kind, x.Target.Name)
		}
		return
	}
	c.operands(x.OpPos, x.Op, Int, tt.Kind, vt.Kind)
}

func (c *checker) decl(x *Decl) {
	t := Type{Kind: x.Type.Kind}
	if x.Value != nil {
		vt := c.expr(x.Value)
		switch {
		case t.Kind == Invalid:
			t.Kind = vt.Kind
		case vt.Kind != Invalid && vt.Kind != t.Kind:
			c.errorf(x.Value, "cannot use %s value as %s in declaration of %s", vt.Kind, t.Kind, x.Name.Name)
		}
	}
	c.info.Types[x.Name] = t
	if _, global := c.env.Vars[x.Name.Name]; global {
		// In an SCXML script "var x" would assign the datamodel's x; a
		// local of the same name would silently mean something else.
		c.errorf(x.Name, "local %s shadows the machine variable %s: drop the declaration to assign the variable, or rename the local", x.Name.Name, x.Name.Name)
		return
	}
	if _, dup := c.scope.names[x.Name.Name]; dup {
		c.errorf(x.Name, "%s redeclared in this block", x.Name.Name)
		return
	}
	c.scope.names[x.Name.Name] = t
}

// args checks the arguments of a raised or sent event against its
// declared parameters, when the event is known.
func (c *checker) args(event string, args []*Arg) {
	params, known := map[string]Type(nil), false
	if c.env.Event != nil {
		params, known = c.env.Event(event)
	}
	seen := make(map[string]bool)
	for _, a := range args {
		t := c.expr(a.Value)
		if seen[a.Name] {
			c.errorAt(a.NamePos, "duplicate argument %s: pass each parameter once", a.Name)
			continue
		}
		seen[a.Name] = true
		if !known {
			continue
		}
		pt, ok := params[a.Name]
		switch {
		case !ok:
			c.errorAt(a.NamePos, "event %s has no parameter %s", event, a.Name)
		case t.Kind != Invalid && t.Kind != pt.Kind:
			c.errorf(a.Value, "cannot use %s value as %s in argument %s of event %s", t.Kind, pt.Kind, a.Name, event)
		}
	}
}
