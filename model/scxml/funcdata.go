package scxml

import (
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
)

// A <data> whose value is a function expression, <data id="f"
// expr="function (a) { ... }"/> (or the function as its text), binds the
// variable f to that function once and for all when nothing else assigns
// f: setbot reads it as the declaration function f(a) { ... } of a
// <script> (parser.ParseFuncExpr), so that calls of f are inlined as those
// of any script function, and f is no variable of the data model. Code
// that binds f again is refused where it does: a second declaration of f
// (f = function ... in a script), or an assignment to f, whose name is no
// variable.

// funcValue returns the snippet of the value of the <data> el when it is a
// function expression.
func (b *builder) funcValue(el *element) (parser.Snippet, bool) {
	if a, ok := el.attr("expr"); ok {
		return b.snippet(a.Value, a.Offsets), parser.IsFuncExpr(a.Value)
	}
	t := el.content()
	if strings.TrimSpace(t.Value) == "" || len(el.Children) > 0 {
		return parser.Snippet{}, false
	}
	return b.snippet(t.Value, t.Offsets), parser.IsFuncExpr(t.Value)
}

// dataFunction declares the function that the <data> el, whose id is name
// (at the attribute id), is bound to, and reports whether el is one.
func (b *builder) dataFunction(el *element, name string, id attribute) bool {
	src, ok := b.funcValue(el)
	if !ok {
		return b.dataAlias(name, src.Text, id)
	}
	f, errs := parser.ParseFuncExpr(src, &ast.Ident{NamePos: b.pos(id.Offsets0()), Name: name})
	b.errs = append(b.errs, errs...)
	if f == nil {
		return true
	}
	if prev, dup := b.funcs[name]; dup {
		if !printer.SameFunction(prev, f) {
			b.errorf(id.Offsets0(), "function %s declared twice (first at %s), as two different functions: setbot reads a variable bound to one function (bound again to the same code, as often as it likes) as that function; rename one", name, b.fset.Position(prev.FuncPos))
		}
		return true
	}
	if b.funcs == nil {
		b.funcs = make(map[string]*ast.FuncDecl)
	}
	b.funcs[name] = f
	return true
}

// dataAlias binds name, a <data> whose value (text) is the name of a
// function bound before, to that function, as ECMAScript's g = f makes g
// the same function object; it reports whether it did.
func (b *builder) dataAlias(name, text string, id attribute) bool {
	f, ok := b.funcs[strings.TrimSpace(text)]
	if !ok || b.funcs[name] != nil {
		return false
	}
	g := *f
	g.Name = &ast.Ident{NamePos: b.pos(id.Offsets0()), Name: name}
	b.funcs[name] = &g
	return true
}

// rebind reads <assign location="f" expr="function ..."/>: it changes
// nothing where f is bound to the same function (checkRebinds checks that
// once every function is known), so it makes no statement.
func (b *builder) rebind(loc, ex attribute) ast.Stmt {
	name := strings.TrimSpace(loc.Value)
	f, errs := parser.ParseFuncExpr(b.snippet(ex.Value, ex.Offsets), &ast.Ident{NamePos: b.pos(loc.Offsets0()), Name: name})
	b.errs = append(b.errs, errs...)
	if f != nil {
		b.rebinds = append(b.rebinds, f)
	}
	return nil
}

// checkRebinds refuses each <assign> of a function expression that does
// not bind its location again to the function it is bound to.
func (b *builder) checkRebinds() {
	for _, f := range b.rebinds {
		prev := b.funcs[f.Name.Name]
		switch {
		case prev == nil:
			b.errs.Add(b.fset.Position(f.Name.NamePos), "function expression assigned to %s, which is bound to no function: a function is a value in setbot only as the one "+
				"a name is bound to; declare it by name at the top of a <script>: function %s(a) { ... }", f.Name.Name, f.Name.Name)
		case !printer.SameFunction(prev, f):
			b.errs.Add(b.fset.Position(f.Name.NamePos), "%s is bound to another function here than at %s: setbot reads a name bound to one function (bound again to "+
				"the same code, as often as it likes) as that function; use one name per function", f.Name.Name, b.fset.Position(prev.FuncPos))
		}
	}
	b.rebinds = nil
}

// functionTypes replaces, in all the code of m, typeof f, of a name f
// bound to a function (funcs) and to no variable, by its value,
// "function": f is no variable of the data model, so the checker would
// not know the name.
func functionTypes(m *model.Model, funcs map[string]*ast.FuncDecl, all []code) {
	isFunc := func(n ast.Node) bool {
		t, ok := n.(*ast.TypeOf)
		if !ok {
			return false
		}
		id, ok := t.X.(*ast.Ident)
		return ok && funcs[id.Name] != nil && m.Var(id.Name) == nil
	}
	replaceByString(all, isFunc, "function")
}

// replaceByString replaces, in every guard and action of all, each
// expression match holds of by the string value.
func replaceByString(all []code, match func(ast.Node) bool, value string) {
	rw := func(e ast.Expr) ast.Expr {
		if match(e) {
			return &ast.StrLit{ValuePos: e.Pos(), Value: value}
		}
		return e
	}
	for _, c := range all {
		if !ast.Any(c.body, match) && (c.cond == nil || !ast.Any(c.cond, match)) {
			continue
		}
		cond := c.cond
		if cond != nil {
			cond = ast.RewriteExpr(cond, rw)
		}
		c.set(cond, ast.RewriteBlock(c.body, rw))
	}
}
