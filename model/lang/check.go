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

// CheckCond type-checks e used as a condition (a guard): a value of any
// kind, or _event itself. A nil env is an empty one.
func CheckCond(env *Env, fset *source.FileSet, e Expr) (*Info, source.ErrorList) {
	c := newChecker(env, fset)
	c.cond(e)
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
	case *StrLit:
		return StringType
	case *Absent:
		return UndefType
	case *TypeOf:
		c.expr(x.X)
		return StringType
	case *EventField:
		return c.eventField(x)
	case *SysVar:
		return StringType
	case *Method:
		return c.method(x)
	case *Ident:
		return c.ident(x)
	case *EventParam:
		if c.env.Param == nil {
			c.errorf(x, "no event parameters in scope")
			return Type{}
		}
		t, ok := c.env.Param(x.Name)
		if !ok && x.Name == DataParam {
			c.errorf(x, "_event.data as a whole is an object here (the event has named parameters): objects are not supported yet; read one parameter, _event.data.NAME")
		} else if !ok {
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
		return c.join(x.Question, "?: branches", c.expr(x.Then), c.expr(x.Else))
	}
	panic(fmt.Sprintf("lang: unexpected expression %T", e))
}

// eventField returns the type of a field of _event (SCXML §5.10.1): name
// and type are strings; sendid, origin and origintype strings where the
// event has them and undefined otherwise; invokeid is always undefined, as
// setbot has no <invoke>. _event itself is read only as a condition
// (cond).
func (c *checker) eventField(x *EventField) Type {
	switch x.Field {
	case "":
		c.errorf(x, "%s", eventValueMsg)
		return Type{}
	case "name", "type":
		return StringType
	case "sendid", "origin", "origintype":
		return StringType.OrAbsent()
	case "invokeid":
		return UndefType
	}
	c.errorf(x, "%s", memberMsg("_event."+x.Field))
	return Type{}
}

// join returns the type of a value that is either a of t1 or of t2: their
// common kind, with undefined when either may be undefined.
func (c *checker) join(pos source.Pos, what string, t1, t2 Type) Type {
	absent := t1.MayBeAbsent() || t2.MayBeAbsent()
	switch {
	case t1.Kind == Invalid || t2.Kind == Invalid:
		return Type{}
	case t1.Kind == Undef:
		return Type{Kind: t2.Kind, Absent: absent}
	case t2.Kind == Undef || t1.Kind == t2.Kind:
		return Type{Kind: t1.Kind, Absent: absent}
	}
	c.errorAt(pos, "mismatched types %s and %s in %s", t1.Kind, t2.Kind, what)
	return Type{}
}

func (c *checker) ident(x *Ident) Type {
	t, ok := c.lookup(x.Name)
	if !ok {
		c.errorf(x, "%s", undeclaredMsg(x.Name))
	}
	return t
}

// value checks that e, an operand of what, has a value of kind want (or of
// any kind but undefined when want is Invalid), and returns its kind.
func (c *checker) value(e Expr, what string, want Kind) Kind {
	t := c.expr(e)
	switch {
	case t.Kind == Invalid:
	case t.MayBeAbsent():
		c.absent(e, what)
		return Invalid
	case want != Invalid && t.Kind != want:
		c.errorf(e, "%s is %s: %s needs %s", ExprString(e), t.Kind, what, article(want))
		return Invalid
	}
	return t.Kind
}

// absent reports e, which may be undefined or null, where what needs a
// value. ECMAScript would compute NaN or throw; setbot models neither.
func (c *checker) absent(e Expr, what string) {
	c.errorf(e, "%s may be undefined or null, and %s needs a value: give it one first (e.g. an expr on its <data>)", ExprString(e), what)
}

func (c *checker) method(x *Method) Type {
	what := "." + x.Name
	c.value(x.X, what, String)
	if x.Name == "length" {
		return IntType
	}
	lo, hi := StringMethods[x.Name], StringMethods[x.Name]
	if x.Name == "substring" {
		lo = 1
	}
	if len(x.Args) < lo || len(x.Args) > hi {
		c.errorAt(x.DotPos, "%s takes %d argument(s), found %d", what, hi, len(x.Args))
	}
	arg := String
	if x.Name == "substring" || x.Name == "charAt" {
		arg = Int
	}
	for _, a := range x.Args {
		c.value(a, "an argument of "+what, arg)
	}
	switch x.Name {
	case "indexOf":
		return IntType
	case "substring", "charAt":
		return StringType
	}
	return BoolType
}

func (c *checker) unary(x *Unary) Type {
	switch x.Op {
	case NOT:
		c.cond(x.X)
		return BoolType
	}
	if t := c.expr(x.X); t.MayBeAbsent() {
		c.absent(x.X, "operator "+x.Op.String())
	} else if t.Kind != Invalid && t.Kind != Int {
		c.errorAt(x.OpPos, "operator %s needs an int operand, found %s", x.Op, t.Kind)
	}
	return IntType
}

func article(k Kind) string {
	if k == Int {
		return "an int"
	}
	return "a " + k.String()
}

func (c *checker) binary(x *Binary) Type {
	switch x.Op {
	case LAND, LOR:
		c.cond(x.X)
		c.cond(x.Y)
		return BoolType
	case EQL, NEQ, SEQL, SNEQ:
		t1, t2 := c.expr(x.X), c.expr(x.Y)
		k1, k2 := t1.Kind, t2.Kind
		if k1 != Invalid && k2 != Invalid && k1 != k2 && k1 != Undef && k2 != Undef {
			c.errorAt(x.OpPos, "mismatched types %s and %s for %s: compare values of one type", k1, k2, x.Op)
		}
		return BoolType
	}
	what := "operator " + x.Op.String()
	k1, k2 := c.value(x.X, what, Invalid), c.value(x.Y, what, Invalid)
	switch x.Op {
	case ADD:
		if k1 == String && k2 == String {
			return StringType
		}
		if c.operands(x.OpPos, x.Op, Int, k1, k2) {
			return IntType
		}
		return Type{}
	case SUB, MUL, QUO, REM, AND, OR, XOR, SHL, SHR, USHR:
		c.operands(x.OpPos, x.Op, Int, k1, k2)
		return IntType
	case LSS, GTR, LEQ, GEQ:
		if k1 != String || k2 != String {
			c.operands(x.OpPos, x.Op, Int, k1, k2)
		}
		return BoolType
	}
	c.errorAt(x.OpPos, "unknown binary operator %s", x.Op)
	return Type{}
}

// operands checks that the operands of op, of kinds k1 and k2, both have
// kind want, and reports whether they do (or one is already in error).
func (c *checker) operands(pos source.Pos, op Token, want, k1, k2 Kind) bool {
	if k1 != Invalid && k2 != Invalid && (k1 != want || k2 != want) {
		c.errorAt(pos, "operator %s needs %s operands, found %s and %s", op, want, k1, k2)
		return false
	}
	return true
}

// cond checks a condition. As in ECMAScript, a value of any kind is a
// condition: false, 0, "" and undefined and null are false, every other
// value true.
func (c *checker) cond(e Expr) {
	if x, ok := e.(*EventField); ok && x.Field == "" {
		// _event is an object once an event has been processed, and
		// undefined before: as a condition, whether there is one.
		c.info.Types[e] = BoolType
		return
	}
	c.expr(e)
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
		if c.systemVariable(x.Target) {
			return
		}
		if t := c.expr(x.Target); t.MayBeAbsent() {
			c.absent(x.Target, "operator "+x.Op.String())
		} else if t.Kind != Invalid && t.Kind != Int {
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

// systemVariable reports an assignment to a system variable, which SCXML
// forbids, and reports whether target is one.
func (c *checker) systemVariable(target *Ident) bool {
	if _, local := c.lookup(target.Name); local || !IsSystemVariable(target.Name) {
		return false
	}
	c.errorf(target, "%s", readOnlyMsg(target.Name))
	return true
}

func (c *checker) assign(x *Assign) {
	if c.systemVariable(x.Target) {
		c.expr(x.Value)
		return
	}
	if x.Op != ASSIGN {
		what := "operator " + x.Op.String()
		k1, k2 := c.value(x.Target, what, Invalid), c.value(x.Value, what, Invalid)
		if x.Op == ADD_ASSIGN && k1 == String && k2 == String {
			return
		}
		c.operands(x.OpPos, x.Op, Int, k1, k2)
		return
	}
	tt, vt := c.expr(x.Target), c.expr(x.Value)
	if tt.Kind == Invalid || vt.Kind == Invalid {
		return
	}
	switch {
	case vt.Kind == Undef && !tt.MayBeAbsent():
		c.errorf(x.Value, "%s is %s and cannot hold %s: give %s the type %s (a <data> without expr has it)", x.Target.Name, tt, ExprString(x.Value), x.Target.Name, tt.OrAbsent())
	case vt.MayBeAbsent() && !tt.MayBeAbsent():
		c.errorf(x.Value, "%s may be undefined or null, and %s cannot be: give %s the type %s (a <data> without expr has it)", ExprString(x.Value), x.Target.Name, x.Target.Name, tt.OrAbsent())
	case vt.Kind != Undef && tt.Kind != vt.Kind:
		c.errorf(x.Value, "cannot use %s value as %s in assignment to %s", vt.Kind, tt.Kind, x.Target.Name)
	}
}

func (c *checker) decl(x *Decl) {
	t := Type{Kind: x.Type.Kind}
	if x.Value != nil {
		vt := c.expr(x.Value)
		switch {
		case t.Kind == Invalid:
			t = Type{Kind: vt.Kind, Absent: vt.MayBeAbsent()}
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
		case t.Kind != Invalid && t.MayBeAbsent() && !pt.MayBeAbsent():
			c.errorf(a.Value, "%s may be undefined or null, and parameter %s of event %s cannot be: give it a value first", ExprString(a.Value), a.Name, event)
		case t.Kind != Invalid && t.Kind != Undef && t.Kind != pt.Kind:
			c.errorf(a.Value, "cannot use %s value as %s in argument %s of event %s", t.Kind, pt.Kind, a.Name, event)
		}
	}
}
