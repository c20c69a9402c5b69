package jexl

import (
	"strings"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/lang/simplify"
	"github.com/setbot/setbot/model/source"
)

// Vet refuses, in n (an expression or a block the checker typed into
// info), what JEXL means otherwise than the action language: conditions
// that are not booleans, + of a string and a value JEXL writes or adds
// otherwise, empty(x) and size(x) of the kinds where they differ. cond
// says that n is itself a condition (a transition's cond).
func (d *Dialect) Vet(fset *source.FileSet, n ast.Node, info *lang.Info, cond bool) source.ErrorList {
	if n == nil || info == nil {
		return nil
	}
	v := &vetter{d: d, fset: fset, info: info}
	if e, ok := n.(ast.Expr); ok && cond {
		v.cond(e)
	}
	ast.Inspect(n, v.node)
	return v.errs
}

type vetter struct {
	d    *Dialect
	fset *source.FileSet
	info *lang.Info
	errs source.ErrorList
}

func (v *vetter) refuse(pos source.Pos, format string, args ...any) {
	v.errs.Refuse(v.fset.Position(pos), format, args...)
}

// typeOf returns the type the checker gave e, and whether it gave one.
func (v *vetter) typeOf(e ast.Expr) (ast.Type, bool) {
	t, ok := v.info.Types[e]
	return t, ok && t.Kind != ast.Invalid
}

func (v *vetter) node(n ast.Node) bool {
	switch x := n.(type) {
	case *ast.Binary:
		v.binary(x)
	case *ast.Unary:
		if v.d.marks[x.OpPos] == markEmpty {
			v.empty(x)
		} else if x.Op == ast.NOT {
			v.cond(x.X)
		}
	case *ast.Cond:
		v.cond(x.Cond)
	case *ast.If:
		v.cond(x.Cond)
	case *ast.While:
		v.cond(x.Cond)
	case *ast.For:
		v.cond(x.Cond)
	case *ast.Method:
		v.length(x)
	}
	return true
}

// cond refuses a condition that is not a boolean: JEXL's truth of a
// string (where 'false' is false), of null and of an object is not
// ECMAScript's, and Commons SCXML takes a cond that is no boolean for an
// error.
func (v *vetter) cond(e ast.Expr) {
	t, ok := v.typeOf(e)
	if e == nil || !ok || t.Kind == ast.Bool && !t.MayBeAbsent() {
		return
	}
	if x, isUnary := e.(*ast.Unary); isUnary && v.d.marks[x.OpPos] == markEmpty {
		return
	}
	v.refuse(e.Pos(), "JEXL condition %s is %s, not a boolean: JEXL's truth of other values is not ECMAScript's (the string 'false' is false, null an error); compare it (x != 0, x == 'yes', x != null)", printer.ExprString(e), t)
}

func (v *vetter) binary(x *ast.Binary) {
	switch x.Op {
	case ast.LAND, ast.LOR:
		v.cond(x.X)
		v.cond(x.Y)
	case ast.ADD:
		v.add(x)
	case ast.QUO, ast.REM:
		if !nonzero(x.Y) {
			v.refuse(x.OpPos, "JEXL's %s by %s, which may be 0: JEXL fails on a division by 0 (error.execution in Commons SCXML), where setbot's %s gives a value; divide by a constant, or test the divisor in a condition and write it there as a constant", x.Op, printer.ExprString(x.Y), x.Op)
		}
	case ast.SEQL, ast.SNEQ:
		t1, ok1 := v.typeOf(x.X)
		t2, ok2 := v.typeOf(x.Y)
		if ok1 && ok2 && t1.Kind != t2.Kind {
			v.refuse(x.OpPos, "JEXL's %s of %s and %s compares their Java classes (1 === 1.0 is false): write %s", x.Op, t1.Kind, t2.Kind, strings.TrimSuffix(x.Op.String(), "="))
		}
	}
}

// add refuses + where an operand is a string, unless one operand is a
// string that cannot read as a number and the other is a string, an int
// or a boolean that is never null: JEXL adds strings that read as numbers
// ('1' + '2' is 3 in lenient arithmetic), writes a double as Java does
// (2.0), and fails on null in strict arithmetic.
func (v *vetter) add(x *ast.Binary) {
	t1, ok1 := v.typeOf(x.X)
	t2, ok2 := v.typeOf(x.Y)
	if !ok1 || !ok2 || t1.Kind != ast.String && t2.Kind != ast.String {
		return
	}
	for _, t := range []ast.Type{t1, t2} {
		switch {
		case t.MayBeAbsent():
			v.refuse(x.OpPos, "JEXL's + of a string and %s: JEXL fails on null where ECMAScript writes \"undefined\"; give it a value first", t)
			return
		case t.Kind == ast.Decimal:
			v.refuse(x.OpPos, "JEXL's + of a string and a decimal writes the number as Java does (2.0, 1.0E10), not as ECMAScript does; setbot refuses it")
			return
		}
	}
	if !textual(x.X) && !textual(x.Y) {
		v.refuse(x.OpPos, "JEXL's + of %s and %s adds them as numbers where both strings read as numbers ('1' + '2' is 3): setbot accepts + of strings where one is a literal that is not a number ('id: ' + s)", t1.Kind, t2.Kind)
	}
}

// textual reports whether e is a string that cannot read as a number:
// a literal with a character no Java number has, or a + with one.
func textual(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.StrLit:
		return strings.ContainsFunc(x.Value, func(r rune) bool { return !strings.ContainsRune(numberChars, r) })
	case *ast.Binary:
		return x.Op == ast.ADD && (textual(x.X) || textual(x.Y))
	}
	return false
}

// numberChars are the characters of the strings Java reads as numbers
// (digits, signs, points, exponents, hexadecimal digits, type suffixes,
// NaN and Infinity, spaces).
const numberChars = "0123456789+-. \t\n\rabcdefABCDEFxXpPlLINnity"

// empty refuses empty(x) of a boolean (empty(false) is false in JEXL, and
// !false true), an array or an object (empty([]) is true, ![] false).
func (v *vetter) empty(x *ast.Unary) {
	t, ok := v.typeOf(x.X)
	if !ok {
		return
	}
	switch t.Kind {
	case ast.Int, ast.Decimal, ast.String, ast.Undef:
		return
	}
	v.refuse(x.OpPos, "JEXL's empty() of %s: JEXL's emptiness of a boolean, an array or an object is not ECMAScript's falsity; compare it instead (x == null, size(x) == 0)", t)
}

// length refuses the .length that x.length(), x.size() and size(x) became
// on a value of another kind than the method's.
func (v *vetter) length(x *ast.Method) {
	m := v.d.marks[x.DotPos]
	if m == 0 || x.Name != "length" {
		return
	}
	t, ok := v.typeOf(x.X)
	if !ok {
		return
	}
	switch {
	case m == markStringLength && t.Kind != ast.String:
		v.refuse(x.DotPos, "JEXL's .length() of %s: only a string has it; write size(x)", t)
	case m == markListLength && t.Kind != ast.Array:
		v.refuse(x.DotPos, "JEXL's .size() of %s: only a list has it; write size(x)", t)
	case m == markSize && t.Kind != ast.String && t.Kind != ast.Array:
		v.refuse(x.DotPos, "JEXL's size() of %s: setbot reads the size of a string or an array (JEXL counts a map's keys)", t)
	}
}

// nonzero reports whether e is a constant other than 0.
func nonzero(e ast.Expr) bool {
	switch x := simplify.Expr(e).(type) {
	case *ast.IntLit:
		return x.Value != 0
	case *ast.DecLit:
		return x.Value.Sign() != 0
	}
	return false
}
