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
	if !t.Comp.Elem.IsComposite() {
		return t.Comp.Elem.OrAbsent()
	}
	if c.env.InRange != nil && c.env.InRange(x) {
		return t.Comp.Elem
	}
	// Reading into it where no entry has the key throws a TypeError: the
	// SCXML reader guards such reads (Env.InRange).
	c.info.PastEnd = append(c.info.PastEnd, x)
	if t.Comp.Elem.Kind == ast.Array {
		c.refuseAt(x.Lbrack, "%s is an array that may be undefined (no entry may have the key), which is not modelled: read into it (%s[0], %s.length) where the statement always reads it, "+
			"at the top of a script or of an if's branch there", printer.ExprString(x), printer.ExprString(x), printer.ExprString(x))
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
		c.refuseAt(s.Pos, "assignment to a part of %s, a value of a dictionary (its keys are computed when it runs), which is modelled only as a statement of its own at the top of a script or of an if's branch there, "+
			"and below the key only by names (%s.f): assign the value whole, %s = ...", what, what, what)
		return ast.Type{}
	}
	return t.Comp.Elem
}

// dictGuarded reports whether target[k].rest, a part of a value of the
// dictionary target (whose step s has the key k), is written where the
// SCXML reader has guarded the write (Env.InRange): ECMAScript throws a
// TypeError where no entry has the key, and the guard raises
// error.execution there before the statement. A write not yet guarded
// is listed in Info.PastEnd, for the reader to guard, where the rest of
// the location names fields only.
func (c *checker) dictGuarded(target *ast.Ident, s *ast.Sel, rest []*ast.Sel) bool {
	for _, r := range rest {
		if _, lit := r.Index.(*ast.StrLit); r.Index != nil && !lit {
			return false
		}
	}
	x := &ast.Index{X: target, Lbrack: s.Pos, Index: s.Index}
	if c.env.InRange == nil || !c.env.InRange(x) {
		c.info.PastEnd = append(c.info.PastEnd, x)
		return false
	}
	c.keyed, c.dictKeyed = false, false
	return c.dictKey(s.Index, target.Name)
}
