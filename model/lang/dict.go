package lang

import (
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
)

// Objects used as dictionaries (ast.DictType): m[k] reads the value of
// the entry with key k, undefined where there is none, and m[k] = v
// writes it, adding the entry where there is none (the lowering's
// dict.go). A key is a string, or a number or boolean, which ECMAScript
// turns into the string of its digits or words.

// dictKey checks k, a key of the dictionary what.
func (c *checker) dictKey(k ast.Expr, what string) bool {
	switch c.value(k, "a key of "+what, ast.Invalid) {
	case ast.Invalid:
		return false
	case ast.String, ast.Int, ast.Bool:
		return true
	}
	c.refusef(k, "%s as a key of %s is not modelled: a key is a string, an int or a boolean", printer.ExprString(k), what)
	return false
}

// dictRead types x, m[k] of a dictionary m of type t: a value, or
// undefined where no entry has the key.
func (c *checker) dictRead(x *ast.Index, t ast.Type) ast.Type {
	if !c.dictKey(x.Index, printer.ExprString(x.X)) {
		return ast.Type{}
	}
	if t.Comp.Elem.IsComposite() {
		c.refuseAt(x.Lbrack, "%s is an array or object that may be undefined (no entry may have the key), which is not modelled: keep scalars in a dictionary, one dictionary per field",
			printer.ExprString(x))
		return ast.Type{}
	}
	return t.Comp.Elem.OrAbsent()
}

// dictLoc checks so[k], an entry of so, a dictionary of type t, written
// by an assignment, and returns its values' type. The key ends the
// location (last).
func (c *checker) dictLoc(so string, s *ast.Sel, t ast.Type, last bool) ast.Type {
	what := so + "[" + printer.ExprString(s.Index) + "]"
	c.keyed, c.dictKeyed = true, true
	if !c.dictKey(s.Index, so) {
		return ast.Type{}
	}
	if !last {
		c.refuseAt(s.Pos, "assignment to a part of %s, a value of a dictionary (its keys are computed when it runs): assign the value whole, %s = ...", what, what)
		return ast.Type{}
	}
	return t.Comp.Elem
}
