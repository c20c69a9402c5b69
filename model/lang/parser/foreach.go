package parser

import (
	"fmt"
	"slices"

	"github.com/setbot/setbot/model/lang/ast"
)

// ECMAScript's array.forEach(function (item, index) { body }) calls the
// function once for each element, in order, with the element and its
// index (ES5.1 §15.4.4.18). As a statement of its own it is the loop
// for (let item, index of array) body: item and index are the function's
// parameters, locals of the body, as the loop's let makes them (a
// ForEach with Local set). The loop iterates over a shallow copy, and
// forEach reads each element when it comes to it: the checker refuses a
// body that assigns what the array expression reads, where the two
// differ. A forEach whose function is used otherwise (its value read,
// the function given by name) is refused.

// callback is a function expression given to forEach, and the offset of
// the call.
type callback struct {
	fn  *ast.FuncDecl
	off int
}

// parseForEachCall parses the call .forEach(function (...) {...}) of x,
// from its '('; dot is the offset of the '.'. It returns the call, whose
// function forEachStmt makes the loop, or nil.
func (p *parser) parseForEachCall(x ast.Expr, dot int) ast.Expr {
	p.next()
	fn, _ := p.parseFuncExpr(&ast.Ident{NamePos: p.pos(p.off), Name: "forEach"}).(*ast.FuncDecl)
	p.closeParen()
	if fn == nil {
		return nil
	}
	m := &ast.Method{X: x, DotPos: p.pos(dot), Name: "forEach", Call: true}
	if p.callbacks == nil {
		p.callbacks = make(map[*ast.Method]callback)
	}
	p.callbacks[m] = callback{fn, dot}
	return m
}

// forEachStmt returns the loop that the statement m, a call of forEach
// with a function, is; start is the statement's offset.
func (p *parser) forEachStmt(m *ast.Method, start int) ast.Stmt {
	cb := p.callbacks[m]
	delete(p.callbacks, m)
	fn := cb.fn
	if n := len(fn.Params); n < 1 || n > 2 {
		p.refuseAt(cb.off, fmt.Sprintf("forEach of a function of %d parameters: setbot reads function (item) and function (item, index); the array itself is the one the loop reads", n))
		return nil
	}
	if len(fn.Params) == 2 && fn.Params[0].Name == fn.Params[1].Name {
		p.errorAt(cb.off, "forEach of a function whose two parameters are both "+fn.Params[0].Name+": name them apart")
		return nil
	}
	var ret *ast.Return
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if r, ok := n.(*ast.Return); ok && ret == nil {
			ret = r
		}
		return ret == nil
	})
	if ret != nil {
		p.refuseAt(cb.off, "return in the function given to forEach: it ends one call, which setbot's loop does not model; write the rest of the body under an if instead")
		return nil
	}
	s := &ast.ForEach{ForPos: p.pos(start), Item: fn.Params[0], Array: m.X, Body: fn.Body, Local: true}
	if len(fn.Params) == 2 {
		s.Index = fn.Params[1]
	}
	return s
}

// strayCallbacks refuses the forEach calls of the statement just parsed
// that are not the statement itself.
func (p *parser) strayCallbacks() {
	offs := make([]int, 0, len(p.callbacks))
	for _, cb := range p.callbacks {
		offs = append(offs, cb.off)
	}
	slices.Sort(offs)
	for _, off := range offs {
		p.refuseAt(off, "forEach with a function is read as a statement of its own, array.forEach(function (item, index) { ... }): its value (undefined) is not read")
	}
	clear(p.callbacks)
}
