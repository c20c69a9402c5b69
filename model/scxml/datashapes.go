package scxml

import (
	"maps"
	"slices"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
)

// dataShapes are the raises and sends of one undeclared event that pass
// its data as a whole (a <content>) and those that pass named parameters
// (<param>s, an object).
type dataShapes struct {
	content, named []*[]*ast.Arg
}

func (d *dataShapes) add(args *[]*ast.Arg) {
	switch {
	case len(*args) == 1 && (*args)[0].Name == ast.DataParam:
		d.content = append(d.content, args)
	case len(*args) > 0:
		d.named = append(d.named, args)
	}
}

// twoShapes gives an undeclared event that some sends pass a <content>
// and others <param>s both: ECMAScript's _event.data is then the content's
// value or an object of the parameters. A content's value is a string, a
// number or a boolean, whose properties the parameters name are
// undefined, so the content's sends pass each parameter undefined; the
// parameters' sends pass the data as a whole undefined, which equals what
// an object equals where _event.data is compared with a literal, the one
// read of it that twoShapes lets through. Where the content may be
// anything else, a parameter has the name of a property such a value has
// (length, toString, ...), or _event.data is read otherwise, the event is
// refused.
func (dc *declarer) twoShapes(all []code, shapes map[string]*dataShapes) {
	for _, name := range slices.Sorted(maps.Keys(shapes)) {
		d := shapes[name]
		if len(d.content) == 0 || len(d.named) == 0 {
			continue
		}
		if !dc.twoShapesOK(all, name, d) {
			continue
		}
		params := make(map[string]bool)
		for _, args := range d.named {
			for _, a := range *args {
				params[a.Name] = true
			}
		}
		for _, args := range d.content {
			for _, p := range slices.Sorted(maps.Keys(params)) {
				*args = append(*args, &ast.Arg{NamePos: (*args)[0].NamePos, Name: p, Value: &ast.Absent{ValuePos: (*args)[0].NamePos}})
			}
		}
		for _, args := range d.named {
			*args = append(*args, &ast.Arg{NamePos: (*args)[0].NamePos, Name: ast.DataParam, Value: &ast.Absent{ValuePos: (*args)[0].NamePos}})
		}
	}
}

// twoShapesOK reports, refusing it where it is not, whether the event
// called name, whose sends d pass a content and parameters, reads as
// twoShapes models it.
func (dc *declarer) twoShapesOK(all []code, name string, d *dataShapes) bool {
	why := func(pos ast.Node, format string, args ...any) bool {
		dc.refusef(dc.file.Offset(pos.Pos()), "event %s carries a <content> in some sends and <param>s in others, and "+format, append([]any{name}, args...)...)
		return false
	}
	for _, args := range d.content {
		if v := (*args)[0].Value; !primitive(v) {
			return why(v, "this content may be other than a string, a number or a boolean, whose properties the parameters would name: give the event one shape")
		}
	}
	for _, args := range d.named {
		for _, a := range *args {
			if _, method := ast.StringMethods[a.Name]; method || primitiveProps[a.Name] {
				return why(&ast.Ident{NamePos: a.NamePos, Name: a.Name}, "a string, number or boolean content has a property %s of its own, which the parameter of that name would read: rename the parameter", a.Name)
			}
		}
	}
	for _, c := range all {
		if c.trans != nil && !c.trans.Eventless() && c.trans != c.trans.Source.Initial && !c.trans.Matches(name) {
			continue
		}
		for _, n := range c.nodes() {
			if bad := wholeDataRead(n); bad != nil {
				return why(bad, "here _event.data is read as a whole other than compared with a literal (_event.data === 'x'), which the two shapes answer differently: give the event one shape")
			}
		}
	}
	return true
}

// primitiveProps are the properties a string, number or boolean has
// besides the string methods of the language (ECMAScript's prototypes).
var primitiveProps = map[string]bool{
	"length": true, "constructor": true, "toString": true, "valueOf": true, "toLocaleString": true,
	"hasOwnProperty": true, "isPrototypeOf": true, "propertyIsEnumerable": true, "__proto__": true,
	"split": true, "trim": true, "toUpperCase": true, "toLowerCase": true, "match": true,
	"search": true, "concat": true, "repeat": true, "padStart": true, "padEnd": true, "localeCompare": true,
	"normalize": true, "codePointAt": true, "charCodeAt": true, "trimStart": true, "trimEnd": true,
	"toFixed": true, "toExponential": true, "toPrecision": true,
}

// wholeDataRead returns a read of _event.data as a whole in n other than a
// comparison with a literal, or nil.
func wholeDataRead(n ast.Node) ast.Node {
	compared := make(map[ast.Node]bool)
	var bad ast.Node
	ast.Inspect(n, func(x ast.Node) bool {
		if bad != nil {
			return false
		}
		switch x := x.(type) {
		case *ast.Binary:
			if x.Op == ast.EQL || x.Op == ast.NEQ || x.Op == ast.SEQL || x.Op == ast.SNEQ {
				if isWholeData(x.X) && objectUnequal(x.Y) {
					compared[x.X] = true
				}
				if isWholeData(x.Y) && objectUnequal(x.X) {
					compared[x.Y] = true
				}
			}
		case *ast.EventParam:
			if x.Name == ast.DataParam && !compared[x] {
				bad = x
			}
		}
		return true
	})
	return bad
}

// objectUnequal reports whether e is a literal that neither an object of
// parameters nor undefined equals: any primitive literal but the string
// an object converts to.
func objectUnequal(e ast.Expr) bool {
	if s, ok := e.(*ast.StrLit); ok && s.Value == "[object Object]" {
		return false
	}
	return primitive(e)
}

func isWholeData(e ast.Expr) bool {
	p, ok := e.(*ast.EventParam)
	return ok && p.Name == ast.DataParam
}

// primitive reports whether e is a string, number or boolean literal, or a
// ?: that gives one.
func primitive(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.StrLit, *ast.IntLit, *ast.DecLit, *ast.BoolLit:
		return true
	case *ast.Cond:
		if then, ok := lang.ConstCond(x); ok {
			return primitive(map[bool]ast.Expr{true: x.Then, false: x.Else}[then])
		}
		return primitive(x.Then) && primitive(x.Else)
	}
	return false
}
