package scxml

import (
	"strings"

	"github.com/setbot/setbot/model/lang"
)

// A <data> whose value is a function expression, <data id="f"
// expr="function (a) { ... }"/> (or the function as its text), binds the
// variable f to that function once and for all when nothing else assigns
// f: setbot reads it as the declaration function f(a) { ... } of a
// <script> (lang.ParseFuncExpr), so that calls of f are inlined as those
// of any script function, and f is no variable of the data model. Code
// that binds f again is refused where it does: a second declaration of f
// (f = function ... in a script), or an assignment to f, whose name is no
// variable.

// funcValue returns the snippet of the value of the <data> el when it is a
// function expression.
func (b *builder) funcValue(el *element) (lang.Snippet, bool) {
	if a, ok := el.attr("expr"); ok {
		return b.snippet(a.Value, a.Offsets), lang.IsFuncExpr(a.Value)
	}
	t := el.content()
	if strings.TrimSpace(t.Value) == "" || len(el.Children) > 0 {
		return lang.Snippet{}, false
	}
	return b.snippet(t.Value, t.Offsets), lang.IsFuncExpr(t.Value)
}

// dataFunction declares the function that the <data> el, whose id is name
// (at the attribute id), is bound to, and reports whether el is one.
func (b *builder) dataFunction(el *element, name string, id attribute) bool {
	src, ok := b.funcValue(el)
	if !ok {
		return false
	}
	f, errs := lang.ParseFuncExpr(src, &lang.Ident{NamePos: b.pos(id.Offsets0()), Name: name})
	b.errs = append(b.errs, errs...)
	if f == nil {
		return true
	}
	if prev, dup := b.funcs[name]; dup {
		b.errorf(id.Offsets0(), "function %s declared twice (first at %s): setbot reads a variable bound once to a function as that function; rename one", name, b.fset.Position(prev.FuncPos))
		return true
	}
	if b.funcs == nil {
		b.funcs = make(map[string]*lang.FuncDecl)
	}
	b.funcs[name] = f
	return true
}
