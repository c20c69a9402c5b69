// Package printer prints the action language's trees (package lang/ast)
// as canonical text, as go/printer does Go's: the fewest parentheses that
// keep an expression's structure, literals quoted so that a printed line
// says what it holds. Messages, reports and the report page quote code
// through it.
package printer

import (
	"math"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model/lang/ast"
)

// ExprString returns the canonical text of e, with the fewest parentheses
// that keep its structure.
func ExprString(e ast.Expr) string {
	var p printer
	p.expr(e)
	return p.b.String()
}

// BlockString returns the canonical single-line text of a statement list:
// the statements separated by spaces, each simple statement ending with
// ';'. An empty block gives "".
func BlockString(b *ast.Block) string {
	var p printer
	for i, s := range b.Stmts {
		if i > 0 {
			p.b.WriteByte(' ')
		}
		p.stmt(s)
	}
	return p.b.String()
}

// A printer accumulates text.
type printer struct {
	b strings.Builder
}

func (p *printer) str(s string) { p.b.WriteString(s) }

// Precedences of non-binary expressions, around those of Token.Precedence.
const (
	condPrec  = 0
	unaryPrec = 11
	atomPrec  = 12
)

func prec(e ast.Expr) int {
	switch x := e.(type) {
	case *ast.Binary:
		return x.Op.Precedence()
	case *ast.Cond:
		return condPrec
	case *ast.Unary, *ast.TypeOf:
		return unaryPrec
	case *ast.IntLit:
		if x.Value < 0 {
			return unaryPrec
		}
	case *ast.DecLit:
		if x.Value.Sign() < 0 {
			return unaryPrec
		}
	}
	return atomPrec
}

func (p *printer) paren(e ast.Expr, ok bool) {
	if ok {
		p.str("(")
		p.expr(e)
		p.str(")")
		return
	}
	p.expr(e)
}

// expr prints e: a leaf (leaf), a call-like expression (call), an
// operation (operation), or a postfix or composite expression here.
func (p *printer) expr(e ast.Expr) {
	if p.leaf(e) || p.call(e) || p.operation(e) {
		return
	}
	switch x := e.(type) {
	case *ast.Method:
		p.paren(x.X, prec(x.X) < atomPrec || isNegLit(x.X))
		p.str("." + x.Name)
		if x.Call {
			p.str("(")
			p.list(x.Args)
			p.str(")")
		}
	case *ast.ArrayLit:
		p.str("[")
		p.list(x.Elems)
		p.str("]")
	case *ast.ObjectLit:
		p.str("{")
		for i, f := range x.Fields {
			if i > 0 {
				p.str(", ")
			}
			p.str(ast.FieldKey(f.Name) + ": ")
			p.expr(f.Value)
		}
		p.str("}")
	case *ast.Index:
		p.paren(x.X, prec(x.X) < atomPrec || isNegLit(x.X))
		p.str("[")
		p.expr(x.Index)
		p.str("]")
	case *ast.Member:
		p.paren(x.X, prec(x.X) < atomPrec || isNegLit(x.X))
		p.str(FieldSuffix(x.Name))
	}
}

// operation prints e if it is a prefix, infix or conditional operation,
// and reports whether it was.
func (p *printer) operation(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.TypeOf:
		p.str("typeof ")
		p.paren(x.X, prec(x.X) < unaryPrec || isNegLit(x.X))
	case *ast.Unary:
		p.str(x.Op.String())
		// "- -x" rather than "--x" (a decrement) or "-(-x)", which would
		// nest deeper than the source did; a folded negative literal keeps
		// parentheses: -(-5).
		if y, ok := x.X.(*ast.Unary); ok && x.Op == ast.SUB && y.Op == ast.SUB {
			p.str(" ")
		}
		p.paren(x.X, prec(x.X) < unaryPrec || isNegLit(x.X))
	case *ast.Binary:
		pr := x.Op.Precedence()
		p.paren(x.X, prec(x.X) < pr)
		p.str(" " + x.Op.String() + " ")
		p.paren(x.Y, prec(x.Y) <= pr || isNegLit(x.Y) && (x.Op == ast.ADD || x.Op == ast.SUB))
	case *ast.Cond:
		p.paren(x.Cond, prec(x.Cond) == condPrec)
		p.str(" ? ")
		p.expr(x.Then)
		p.str(" : ")
		p.expr(x.Else)
	default:
		return false
	}
	return true
}

// callName returns the name that the call-like expression e prints with,
// and false when e is not one. Its arguments are its children, slot by
// slot: Number(X) for a ToDecimal, Math.floor(X) for a Floor, String(X)
// for Digits.
func callName(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.ToDecimal:
		return "Number", true
	case *ast.Floor:
		return "Math.floor", true
	case *ast.Digits:
		return "String", true
	case *ast.Convert:
		return x.Fun, true
	case *ast.Call:
		return x.Fun, true
	case *ast.External:
		return x.Fun, true
	}
	return "", false
}

// call prints e if it is call-like (callName), with its children as the
// arguments, and reports whether it was. A parseInt that gave the radix
// 10 prints it.
func (p *printer) call(e ast.Expr) bool {
	fun, ok := callName(e)
	if !ok {
		return false
	}
	p.str(fun + "(")
	first := true
	ast.EachChild(e, func(c ast.Node) {
		if !first {
			p.str(", ")
		}
		first = false
		p.expr(c.(ast.Expr))
	})
	if x, ok := e.(*ast.Convert); ok && x.Radix10 {
		p.str(", 10")
	}
	p.str(")")
	return true
}

// leaf prints e if it is a literal or a name, and reports whether it was.
func (p *printer) leaf(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.IntLit:
		if x.Value == math.MinInt64 {
			// The literal 9223372036854775808 does not fit int64.
			p.str("(-9223372036854775807 - 1)")
			return true
		}
		p.str(strconv.FormatInt(x.Value, 10))
	case *ast.DecLit:
		p.str(ast.DecimalText(x))
	case *ast.BoolLit:
		p.str(strconv.FormatBool(x.Value))
	case *ast.Ident:
		p.str(x.Name)
	case *ast.EventParam:
		if x.Name == ast.DataParam {
			p.str("_event.data")
			break
		}
		p.str("_event.data." + x.Name)
	case *ast.StrLit:
		p.str(ast.Quote(x.Value, '\''))
	case *ast.Absent:
		if x.Null {
			p.str("null")
		} else {
			p.str("undefined")
		}
	case *ast.EventField:
		if x.Field == "" {
			p.str("_event")
		} else {
			p.str("_event." + x.Field)
		}
	case *ast.SysVar:
		p.str(x.Name)
		if x.Processor != "" {
			p.str("[" + ast.Quote(x.Processor, '\'') + "].location")
		}
	case *ast.InState:
		p.str("In(" + ast.Quote(x.State, '\'') + ")")
	default:
		return false
	}
	return true
}

// list prints expressions separated by commas.
func (p *printer) list(es []ast.Expr) {
	for i, e := range es {
		if i > 0 {
			p.str(", ")
		}
		p.expr(e)
	}
}

// location prints an assignment's target and path.
func (p *printer) location(target *ast.Ident, path []*ast.Sel) {
	p.str(target.Name)
	for _, s := range path {
		if s.Index == nil {
			p.str(FieldSuffix(s.Name))
			continue
		}
		p.str("[")
		p.expr(s.Index)
		p.str("]")
	}
}

// isNegLit reports whether e is a negative literal that prints without its
// own parentheses.
func isNegLit(e ast.Expr) bool {
	if d, ok := e.(*ast.DecLit); ok {
		return d.Value.Sign() < 0
	}
	x, ok := e.(*ast.IntLit)
	return ok && x.Value < 0 && x.Value != math.MinInt64
}

// eventName returns an event name as written in raise and send: bare when
// it is a dotted name, quoted otherwise.
func eventName(name string) string {
	for _, seg := range strings.Split(name, ".") {
		if !ast.IsIdent(seg) {
			return ast.Quote(name, '"')
		}
	}
	return name
}

// stmt prints s.
func (p *printer) stmt(s ast.Stmt) {
	switch x := s.(type) {
	case *ast.Block:
		p.block(x)
	case *ast.If:
		p.str("if (")
		p.expr(x.Cond)
		p.str(") ")
		p.block(x.Then)
		if x.Else != nil {
			p.str(" else ")
			p.stmt(x.Else)
		}
	case *ast.While:
		p.str("while (")
		p.expr(x.Cond)
		p.str(") ")
		p.block(x.Body)
	case *ast.ForEach:
		p.str("for (")
		if x.Local {
			p.str("let ")
		}
		p.str(x.Item.Name)
		if x.Index != nil {
			p.str(", " + x.Index.Name)
		}
		p.str(" of ")
		p.expr(x.Array)
		if x.Cond != nil {
			p.str("; ")
			p.expr(x.Cond)
		}
		p.str(") ")
		p.block(x.Body)
	case *ast.For:
		p.str("for (")
		if x.Init != nil {
			p.simple(x.Init)
		}
		p.str(";")
		if x.Cond != nil {
			p.str(" ")
			p.expr(x.Cond)
		}
		p.str(";")
		if x.Post != nil {
			p.str(" ")
			p.simple(x.Post)
		}
		p.str(") ")
		p.block(x.Body)
	case *ast.FuncDecl:
		p.str("function " + x.Name.Name + "(")
		for i, a := range x.Params {
			if i > 0 {
				p.str(", ")
			}
			p.str(a.Name)
		}
		p.str(") ")
		p.block(x.Body)
	default:
		p.simple(s)
		p.str(";")
	}
}

// simple prints a statement that ends with ';', without the ';'.
func (p *printer) simple(s ast.Stmt) {
	switch x := s.(type) {
	case *ast.Assign:
		p.location(x.Target, x.Path)
		p.str(" " + x.Op.String() + " ")
		p.expr(x.Value)
	case *ast.IncDec:
		p.location(x.Target, x.Path)
		p.str(x.Op.String())
	case *ast.Decl:
		// Ranges have no syntax in the language: int[0..5] prints as int.
		if x.Type.Kind == ast.Invalid {
			p.str("var ")
		} else {
			p.str(x.Type.Kind.String() + " ")
		}
		p.str(x.Name.Name)
		if x.Value != nil {
			p.str(" = ")
			p.expr(x.Value)
		}
	case *ast.Raise:
		p.str("raise ")
		if x.Platform {
			p.str("platform ")
		}
		p.str(eventName(x.Event))
		p.args(x.Args)
		if x.ID != "" {
			p.str(" id " + ast.Quote(x.ID, '"'))
		}
	case *ast.Send:
		p.str("send " + eventName(x.Event))
		p.args(x.Args)
		if x.Target != "" {
			p.str(" to " + ast.Quote(x.Target, '"'))
		}
		if x.Delay != nil {
			p.str(" after ")
			p.expr(x.Delay)
		}
		if x.ID != "" {
			p.str(" id " + ast.Quote(x.ID, '"'))
		}
	case *ast.Cancel:
		p.str("cancel " + ast.Quote(x.SendID, '"'))
		if x.Prefix {
			p.str(" prefix")
		}
	case *ast.Assume:
		p.str("assume(")
		p.expr(x.Cond)
		p.str(")")
	case *ast.Bound:
		p.str("bound " + string(x.Name) + " " + strconv.FormatInt(x.Limit, 10) + " (")
		p.expr(x.Cond)
		p.str(")")
	case *ast.Return:
		p.str("return")
		if x.Value != nil {
			p.str(" ")
			p.expr(x.Value)
		}
	}
}

func (p *printer) args(args []*ast.Arg) {
	p.str("(")
	for i, a := range args {
		if i > 0 {
			p.str(", ")
		}
		p.str(a.Name + ": ")
		p.expr(a.Value)
	}
	p.str(")")
}

// block prints { ... }; a nil or empty block prints as {}.
func (p *printer) block(b *ast.Block) {
	if b == nil || len(b.Stmts) == 0 {
		p.str("{}")
		return
	}
	p.str("{")
	for _, s := range b.Stmts {
		p.str(" ")
		p.stmt(s)
	}
	p.str(" }")
}

// FieldSuffix is how the field name of an object is written after the
// object: .name for an identifier, ['name'] for any other key ({"take.1":
// 1}, whose part is o['take.1'], never o.take.1, which names field 1 of
// o.take).
func FieldSuffix(name string) string {
	if ast.IsIdent(name) {
		return "." + name
	}
	return "[" + ast.Quote(name, '\'') + "]"
}

// SameFunction reports whether f and g are the same function apart from
// their names and positions: the same parameters and the same body. Binding
// a name again to the same function changes nothing a program can observe
// but the function object's identity, which setbot does not model.
func SameFunction(f, g *ast.FuncDecl) bool {
	if len(f.Params) != len(g.Params) {
		return false
	}
	for i, p := range f.Params {
		if p.Name != g.Params[i].Name {
			return false
		}
	}
	return ast.Equal(f.Body, g.Body)
}

// LocString returns the text of target.path.
func LocString(target *ast.Ident, path []*ast.Sel) string {
	var p printer
	p.location(target, path)
	return p.b.String()
}
