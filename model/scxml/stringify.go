package scxml

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// stringifyKnown replaces, in all the code of m, JSON.stringify(x), of a variable x that always
// holds an object without fields (declared {} and never undefined: an
// object keeps the fields of its initial value), by its value '{}', which
// ECMAScript's JSON.stringify gives for every such object. Any other
// JSON.stringify stays a call of the host's, a black box (lang's
// hostValues).
func stringifyKnown(m *model.Model, all []code) {
	known := func(n ast.Node) bool {
		c, ok := n.(*ast.Call)
		if !ok || c.Fun != "JSON.stringify" || len(c.Args) != 1 {
			return false
		}
		id, ok := c.Args[0].(*ast.Ident)
		if !ok {
			return false
		}
		v := m.Var(id.Name)
		return v != nil && v.Type.Kind == ast.Object && len(v.Type.Comp.Fields) == 0 && !v.Type.MayBeAbsent()
	}
	replaceByString(all, known, "{}")
}
