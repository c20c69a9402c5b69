package lang

import (
	"fmt"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"
)

// Env is what the checker knows about the names around a snippet.
type Env struct {
	Vars  map[string]ast.Type                           // machine variables
	Param func(name string) (ast.Type, bool)            // type of _event.data.name; nil = no parameters in scope
	State func(id string) bool                          // In('id') validity; nil = accept any
	Event func(name string) (map[string]ast.Type, bool) // declared parameters of an event for raise/send args; ok=false: unknown, do not check args
	// AllowAssume allows assume(...) and bound, which only lowered code
	// and flattened machines hold.
	AllowAssume bool
	// FailingReads allows a read of a field of an object that may be
	// undefined (ast.WidenObjects) where evaluation always reaches it:
	// ECMAScript throws a TypeError there when it is undefined, which
	// makes a transition's cond false and raises error.execution (SCXML
	// §5.9). Info.Fails lists the objects read so; FailsWhen lowers them.
	FailingReads bool
	// InRange tells the reads a[i] of an array or object element at an
	// index that may lie past the end which the code guards: it raises
	// error.execution before the statement where i lies outside a, as
	// ECMAScript's TypeError on reading into undefined would. Such a read
	// is of the element's type; any other is refused and listed in
	// Info.PastEnd. nil: none is guarded.
	InRange func(*ast.Index) bool
}

// Info records the results of checking.
type Info struct {
	Types map[ast.Expr]ast.Type // type of every expression checked
	Args  map[*ast.Arg]ast.Type // type of the parameter each argument of a known event passes
	// Inexact lists the decimal literals whose written value no double
	// holds exactly (0.1, which ECMAScript rounds), and DecimalArith where arithmetic on decimals happens (+, -,
	// *, / with a decimal operand or result, ++, --, += ...): CheckDecimals
	// refuses the latter in a model that has the former.
	Inexact      []*ast.DecLit
	DecimalArith []source.Pos
	// PastEnd lists the reads of an array or object element at an index
	// that may lie past the end that were refused (Env.InRange).
	PastEnd []*ast.Index
	// Fails lists the reads of fields of objects that may be undefined
	// (Env.FailingReads), in the order evaluation reaches them: where one
	// is reached and its object is undefined, evaluation throws.
	Fails []FailingRead
	// Shares and PartWrites are what CheckShared takes in: the
	// assignments that give a place an object or array another place
	// holds, and the writes below a place.
	Shares     []Share
	PartWrites []PartWrite
}

// FailingRead is a read of a field of Obj, an object that may be
// undefined, which evaluation reaches where each of Guards holds.
type FailingRead struct {
	Obj    ast.Expr
	Guards []Guard
}

// Guard is an operand whose truth evaluation tested to reach a part of an
// expression: X of X && Y (Want true), of X || Y (false), the condition
// of ?: (true for its first branch).
type Guard struct {
	X    ast.Expr
	Want bool
}

// CheckExpr type-checks e. want is the kind e must have, or Invalid for
// any. A nil env is an empty one.
func CheckExpr(env *Env, fset *source.FileSet, e ast.Expr, want ast.Kind) (*Info, source.ErrorList) {
	c := newChecker(env, fset, e)
	if t := c.expr(e); want != ast.Invalid && t.Kind != ast.Invalid && t.Kind != want {
		c.errorf(e, "expression must be %s, found %s", want, t.Kind)
	}
	return c.info, c.errs
}

// CheckCond type-checks e used as a condition (a guard): a value of any
// kind, or _event itself. A nil env is an empty one.
func CheckCond(env *Env, fset *source.FileSet, e ast.Expr) (*Info, source.ErrorList) {
	c := newChecker(env, fset, e)
	c.cond(e)
	return c.info, c.errs
}

// CheckBlock type-checks a statement list; b is a scope of its own. A nil
// env is an empty one.
func CheckBlock(env *Env, fset *source.FileSet, b *ast.Block) (*Info, source.ErrorList) {
	c := newChecker(env, fset, b)
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
	// valued holds the variables and locals that may be undefined by
	// their type but hold a value here: those assigned one earlier in the
	// same straight-line code (a <foreach> item in its body, say).
	valued map[string]bool
	// guards are what evaluation tested to reach the operand being
	// checked (the right of && and ||, the branches of ?:).
	guards []Guard
	// keyed says that the location loc checked last ends in a field
	// selected by a key computed when it runs (keyedLoc).
	keyed bool
	// dictKeyed says that it ends in a value of an object used as a
	// dictionary (dictLoc), which op= may write.
	dictKeyed bool
}

// guarded checks f with the guard x, want added.
func (c *checker) guarded(x ast.Expr, want bool, f func()) {
	c.guards = append(c.guards, Guard{X: x, Want: want})
	f()
	c.guards = c.guards[:len(c.guards)-1]
}

// A scope holds the locals of one block.
type scope struct {
	parent *scope
	names  map[string]ast.Type
}

// newChecker returns a checker of the tree n. Info.Types is made as large
// as n has expressions: growing it would allocate about as much again.
func newChecker(env *Env, fset *source.FileSet, n ast.Node) *checker {
	if env == nil {
		env = &Env{}
	}
	exprs := 0
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(ast.Expr); ok {
			exprs++
		}
		return true
	})
	return &checker{env: env, fset: fset, info: &Info{Types: make(map[ast.Expr]ast.Type, exprs), Args: make(map[*ast.Arg]ast.Type)}, valued: make(map[string]bool)}
}

// errorAt reports an error at pos, naming inlined locals as the source
// does (ast.SourceNames).
func (c *checker) errorAt(pos source.Pos, format string, args ...any) {
	c.errs.Add(c.fset.Position(pos), "%s", ast.SourceNames(fmt.Sprintf(format, args...)))
}

func (c *checker) errorf(n ast.Node, format string, args ...any) {
	c.errorAt(n.Pos(), format, args...)
}

// refuseAt reports a construct outside the language (source.Error.Refused).
func (c *checker) refuseAt(pos source.Pos, format string, args ...any) {
	c.errs.Refuse(c.fset.Position(pos), "%s", ast.SourceNames(fmt.Sprintf(format, args...)))
}

func (c *checker) refusef(n ast.Node, format string, args ...any) {
	c.refuseAt(n.Pos(), format, args...)
}

func (c *checker) push() { c.scope = &scope{parent: c.scope, names: make(map[string]ast.Type)} }
func (c *checker) pop()  { c.scope = c.scope.parent }

// lookup finds a name among the locals in scope, then the machine
// variables.
func (c *checker) lookup(name string) (ast.Type, bool) {
	for s := c.scope; s != nil; s = s.parent {
		if t, ok := s.names[name]; ok {
			return t, true
		}
	}
	t, ok := c.env.Vars[name]
	return t, ok
}

// TestedFirst reports whether a guard of f says the object f reads is
// defined: its truth (o.a && o.a.b), or a comparison with undefined or
// null by == or != (o.a == undefined || o.a.b, o.a != null && o.a.b),
// which holds of both (typeof o.a != 'undefined' does not say o.a is no
// null), also as an operand of a guard that holds only where its operands
// do (k && o.a && o.a.b, whose guard is k && o.a): where it holds, the
// object is defined.
func TestedFirst(f FailingRead) bool {
	obj := printer.ExprString(f.Obj)
	for _, g := range f.Guards {
		if testsDefined(g.X, g.Want, obj) {
			return true
		}
	}
	return false
}

// testsDefined reports whether x having the truth want says obj is
// defined.
func testsDefined(x ast.Expr, want bool, obj string) bool {
	b, ok := x.(*ast.Binary)
	if ok && (b.Op == ast.LAND && want || b.Op == ast.LOR && !want) {
		return testsDefined(b.X, want, obj) || testsDefined(b.Y, want, obj)
	}
	if want && printer.ExprString(x) == obj {
		return true
	}
	return ok && (b.Op == ast.EQL && !want || b.Op == ast.NEQ && want) && comparesAbsent(b, obj)
}

// comparesAbsent reports whether x compares obj with undefined or null.
func comparesAbsent(x *ast.Binary, obj string) bool {
	for _, p := range [][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
		if _, ok := p[1].(*ast.Absent); ok && printer.ExprString(p[0]) == obj {
			return true
		}
	}
	return false
}
