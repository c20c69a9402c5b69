package scxml

import (
	"slices"
	"strconv"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// maxExactInt is the greatest int a double holds exactly (2^53 - 1): the
// values analysis (values) follows the ints within it, where ECMAScript's
// numbers are ints.
const maxExactInt = 1<<53 - 1

// value is one value an expression may take (values.into): a string, or
// an int (num), which ECMAScript writes in decimal where + meets a
// string ('eat.' + 0 is "eat.0"), and adds where it meets a number
// (1 + 2 + 'a' is "3a").
type value struct {
	str string
	n   int64
	num bool
}

func intValue(n int64) value { return value{n: n, num: true} }

// text is v as a string: String(v).
func (v value) text() string {
	if v.num {
		return strconv.FormatInt(v.n, 10)
	}
	return v.str
}

// plus is a + b: the sum of two numbers, else the concatenation of their
// strings. ok is false where the sum is an int a double does not hold
// exactly.
func plus(a, b value) (value, bool) {
	if a.num && b.num {
		s := a.n + b.n // no overflow: both are exact ints (into)
		return intValue(s), -maxExactInt <= s && s <= maxExactInt
	}
	return value{str: a.text() + b.text()}, true
}

// intLit adds the value of x to set, where it is an exact int.
func intLit(x *ast.IntLit, set map[value]bool) bool {
	set[intValue(x.Value)] = true
	return -maxExactInt <= x.Value && x.Value <= maxExactInt
}

// negated adds to set the values of -x.X, where those of x.X are known
// numbers (-'1' converts a string: not followed).
func (vs *values) negated(x *ast.Unary, set map[value]bool, seen map[string]bool) bool {
	if x.Op != ast.SUB {
		return false
	}
	vals, ok := vs.part(x.X, seen)
	if !ok {
		return false
	}
	for _, v := range vals {
		if !v.num {
			return false
		}
		set[intValue(-v.n)] = true
	}
	return true
}

// element adds to set the values of x, an element of a constant array
// (constArrays): those of every element it may read (elementsAt), at
// most maxComputedValues of them.
func (vs *values) element(x *ast.Index, set map[value]bool, undef *bool, seen map[string]bool) bool {
	root, chain := indexChain(x)
	id, ok := root.(*ast.Ident)
	if !ok || vs.consts[id.Name] == nil {
		return false
	}
	elems, ok := elementsAt(vs.consts[id.Name], chain)
	if !ok || len(elems) > maxComputedValues {
		return false
	}
	for _, e := range elems {
		if !vs.into(e, set, undef, seen) {
			return false
		}
	}
	return true
}

// indexChain returns what x reads an element of, t for t[i][j], and the
// indexes from it out to x (t[i], t[i][j]).
func indexChain(x *ast.Index) (ast.Expr, []*ast.Index) {
	var chain []*ast.Index
	var e ast.Expr = x
	for ix, ok := e.(*ast.Index); ok; ix, ok = e.(*ast.Index) {
		chain = append(chain, ix)
		e = ix.X
	}
	slices.Reverse(chain)
	return e, chain
}

// elementsAt returns the elements of lit that chain, a chain of indexes
// into it (t[i][0]), may read: at an int literal, that element of each
// array; at any other index, every element (t[i][0] reads t[0][0],
// t[1][0], ...). An index past the end reads none: the read fails there,
// as guardPastEnd writes. ok is false where a level above the elements
// read is no array literal.
func elementsAt(lit *ast.ArrayLit, chain []*ast.Index) (elems []ast.Expr, ok bool) {
	elems = []ast.Expr{lit}
	for _, ix := range chain {
		var next []ast.Expr
		for _, e := range elems {
			a, ok := e.(*ast.ArrayLit)
			if !ok {
				return nil, false
			}
			next = append(next, pick(a.Elems, ix.Index)...)
		}
		elems = next
	}
	return elems, true
}

// pick returns the elements of elems that index may read.
func pick(elems []ast.Expr, index ast.Expr) []ast.Expr {
	lit, ok := index.(*ast.IntLit)
	switch {
	case !ok:
		return elems
	case lit.Value >= 0 && lit.Value < int64(len(elems)):
		return elems[lit.Value : lit.Value+1]
	}
	return nil
}

// constArrays returns the variables of m whose value is their initial
// array literal throughout, as the code nodes show: no code assigns them
// or an element of them (t[i][0] = x), and every read of one reads an
// element that is no array or object (t[i][0]), so that no other name
// holds it or a row of it (ECMAScript's arrays are shared, not copied).
// Variables an invoking machine passes are not among them.
func constArrays(m *model.Model, nodes []ast.Node) map[string]*ast.ArrayLit {
	consts := make(map[string]*ast.ArrayLit)
	for _, v := range m.Vars {
		if lit, ok := v.Init.(*ast.ArrayLit); ok && !v.Passed {
			consts[v.Name] = lit
		}
	}
	inner := make(map[*ast.Index]bool) // the indexes that others index into
	scalar := make(map[*ast.Ident]bool)
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Index:
				if !inner[x] {
					markChain(x, inner, scalar, consts)
				}
			case *ast.Ident:
				if !scalar[x] {
					delete(consts, x.Name)
				}
			}
			return true
		})
	}
	return consts
}

// markChain marks the indexes that x, an index no other indexes into,
// holds inner, and the variable it reads an element of scalar where that
// variable is one of consts and the element no array or object.
func markChain(x *ast.Index, inner map[*ast.Index]bool, scalar map[*ast.Ident]bool, consts map[string]*ast.ArrayLit) {
	root, chain := indexChain(x)
	for _, ix := range chain[:len(chain)-1] {
		inner[ix] = true
	}
	id, ok := root.(*ast.Ident)
	if !ok || consts[id.Name] == nil {
		return
	}
	elems, ok := elementsAt(consts[id.Name], chain)
	for _, el := range elems {
		switch el.(type) {
		case *ast.ArrayLit, *ast.ObjectLit:
			ok = false
		}
	}
	scalar[id] = ok
}
