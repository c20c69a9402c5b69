package scxml

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// stringifyKnown replaces, in all the code of m, JSON.stringify(x), of a variable x that always
// holds an object without fields (declared {} and never undefined, and
// given no other object: an object assigned objects of other fields
// widens to hold them, widenObjects), by its value '{}', which
// ECMAScript's JSON.stringify gives for every such object. Any other
// JSON.stringify stays a call of the host's, a black box (lang's
// hostValues).
func stringifyKnown(m *model.Model, all []code) {
	reassigned := make(map[string]bool)
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			if a, ok := n.(*ast.Assign); ok {
				if o, empty := a.Value.(*ast.ObjectLit); len(a.Path) > 0 || !empty || len(o.Fields) > 0 {
					reassigned[a.Target.Name] = true
				}
			}
			return true
		})
	}
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
		return v != nil && !reassigned[id.Name] && v.Type.Kind == ast.Object && len(v.Type.Comp.Fields) == 0 && !v.Type.MayBeAbsent()
	}
	replaceByString(all, known, "{}")
}
