package lower

import (
	"strings"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/simplify"
)

// FoldString returns the value of m, a string method that gives a string
// (substring, slice, substr, replace), when its receiver and its arguments
// are literals: the lowering's, folded.
func FoldString(m *ast.Method) (string, bool) {
	if ast.StringMethods[m.Name] == 0 || m.Name == "replace" && len(m.Args) != 2 || len(m.Args) == 0 {
		return "", false
	}
	c := *m
	c.Args = nil
	for _, a := range m.Args {
		c.Args = append(c.Args, simplify.Expr(a)) // -1 is a literal
	}
	m = &c
	for _, a := range append([]ast.Expr{m.X}, m.Args...) {
		if !simplify.Literal(a) {
			return "", false
		}
	}
	if _, ok := m.Args[len(m.Args)-1].(*ast.StrLit); m.Name == "replace" && !ok {
		return "", false
	}
	v, ok := simplify.Expr(stringMethod(m)).(*ast.StrLit)
	if !ok {
		return "", false
	}
	return v.Value, true
}

// stringMethod lowers m, a string method whose parts are lowered: slice,
// substr, replace and lastIndexOf with a position are written with the
// others.
func stringMethod(m *ast.Method) ast.Expr {
	switch m.Name {
	case "slice":
		return sliceOf(m)
	case "substr":
		return substrOf(m)
	case "replace":
		return replaceOf(m)
	case "lastIndexOf":
		if len(m.Args) == 2 {
			return lastIndexOfFrom(m)
		}
	}
	return m
}

// lastIndexOfFrom lowers s.lastIndexOf(t, from) of strings (m, its parts
// lowered) to the lastIndexOf of a prefix of s, as ECMAScript computes it:
// the last occurrence of t that starts at or before from (taken as 0 when
// negative) is the last one in the prefix that ends t's length after
// from, and substring clamps that end to the string.
func lastIndexOfFrom(m *ast.Method) ast.Expr {
	pos := m.DotPos
	s, t, from := m.X, m.Args[0], m.Args[1]
	zero := &ast.IntLit{ValuePos: pos}
	start := &ast.Cond{Cond: &ast.Binary{X: from, OpPos: pos, Op: ast.LSS, Y: zero}, Question: pos, Then: zero, Else: from}
	end := &ast.Binary{X: start, OpPos: pos, Op: ast.ADD, Y: &ast.Method{X: t, DotPos: pos, Name: "length"}}
	prefix := &ast.Method{X: s, DotPos: pos, Name: "substring", Call: true, Args: []ast.Expr{zero, end}}
	return simplify.Expr(&ast.Method{X: prefix, DotPos: pos, Name: "lastIndexOf", Call: true, Args: []ast.Expr{t}})
}

// sliceOf lowers s.slice(start, end) of a string (m, its parts lowered) to
// the substring it is, as ECMAScript computes it: a negative index counts
// from the end (fromEnd), end defaults to the length, and an end before
// the start gives the empty string (where substring would swap them). The
// string and the indexes are read more than once: lowered expressions have
// no side effects.
func sliceOf(m *ast.Method) ast.Expr {
	pos := m.DotPos
	length := &ast.Method{X: m.X, DotPos: pos, Name: "length"}
	start := fromEnd(m.Args[0], length, pos)
	var end ast.Expr = length
	if len(m.Args) > 1 {
		end = fromEnd(m.Args[1], length, pos)
	}
	end = &ast.Cond{Cond: &ast.Binary{X: end, OpPos: pos, Op: ast.LSS, Y: start}, Question: pos, Then: start, Else: end}
	return simplify.Expr(&ast.Method{X: m.X, DotPos: pos, Name: "substring", Call: true, Args: []ast.Expr{start, end}})
}

// substrOf lowers s.substr(start, length) of a string (m, its parts
// lowered) to the substring it is, as ECMAScript's Annex B computes it: a
// negative start counts from the end (length + start, at least 0), the
// length defaults to the rest of the string, and a negative length gives
// the empty string. substring clamps both ends to the string.
func substrOf(m *ast.Method) ast.Expr {
	pos := m.DotPos
	length := &ast.Method{X: m.X, DotPos: pos, Name: "length"}
	zero := &ast.IntLit{ValuePos: pos}
	start := fromEnd(m.Args[0], length, pos)
	var end ast.Expr = length
	if len(m.Args) > 1 {
		n := &ast.Cond{Cond: &ast.Binary{X: m.Args[1], OpPos: pos, Op: ast.LSS, Y: zero}, Question: pos, Then: zero, Else: m.Args[1]}
		end = &ast.Binary{X: start, OpPos: pos, Op: ast.ADD, Y: n}
	}
	return simplify.Expr(&ast.Method{X: m.X, DotPos: pos, Name: "substring", Call: true, Args: []ast.Expr{start, end}})
}

// fromEnd is the index i of a string of the given length, counted from
// its end when negative (length + i, at least 0), as slice and substr read
// it.
func fromEnd(i, length ast.Expr, pos source.Pos) ast.Expr {
	zero := &ast.IntLit{ValuePos: pos}
	back := &ast.Binary{X: length, OpPos: pos, Op: ast.ADD, Y: i}
	clamped := &ast.Cond{Cond: &ast.Binary{X: back, OpPos: pos, Op: ast.LSS, Y: zero}, Question: pos, Then: zero, Else: back}
	return &ast.Cond{Cond: &ast.Binary{X: i, OpPos: pos, Op: ast.LSS, Y: zero}, Question: pos, Then: clamped, Else: i}
}

// replaceOf lowers s.replace(p, r) of strings (m, its parts lowered; r a
// literal, as the checker requires) to what ECMAScript computes for a
// string pattern: s itself where p does not occur, and otherwise s with
// the first occurrence of p replaced by r, whose $ patterns are
// GetSubstitution's: $$ a dollar sign, $& the match (p), $` what precedes
// it and $' what follows it; any other $ stands for itself.
func replaceOf(m *ast.Method) ast.Expr {
	pos := m.DotPos
	s, p := m.X, m.Args[0]
	at := &ast.Method{X: s, DotPos: pos, Name: "indexOf", Call: true, Args: []ast.Expr{p}}
	after := &ast.Binary{X: at, OpPos: pos, Op: ast.ADD, Y: &ast.Method{X: p, DotPos: pos, Name: "length"}}
	before := &ast.Method{X: s, DotPos: pos, Name: "substring", Call: true, Args: []ast.Expr{&ast.IntLit{ValuePos: pos}, at}}
	rest := &ast.Method{X: s, DotPos: pos, Name: "substring", Call: true, Args: []ast.Expr{after}}
	var out ast.Expr = before
	add := func(e ast.Expr) { out = &ast.Binary{X: out, OpPos: pos, Op: ast.ADD, Y: e} }
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			add(&ast.StrLit{ValuePos: pos, Value: text.String()})
			text.Reset()
		}
	}
	r := m.Args[1].(*ast.StrLit).Value
	for i := 0; i < len(r); i++ {
		if r[i] != '$' || i+1 == len(r) {
			text.WriteByte(r[i])
			continue
		}
		switch r[i+1] {
		case '$':
			text.WriteByte('$')
		case '&':
			flush()
			add(p)
		case '`':
			flush()
			add(before)
		case '\'':
			flush()
			add(rest)
		default:
			text.WriteByte('$')
			continue
		}
		i++
	}
	flush()
	add(rest)
	found := &ast.Binary{X: at, OpPos: pos, Op: ast.LSS, Y: &ast.IntLit{ValuePos: pos}}
	return simplify.Expr(&ast.Cond{Cond: found, Question: pos, Then: s, Else: out})
}
