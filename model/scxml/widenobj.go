package scxml

import (
	"slices"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
)

// widenObjects gives each variable without a setbot:type that holds an
// object, or objects in its parts, the type that also holds an object of
// other fields assigned there (docdata.root.foo = maindata.root, where
// foo starts as {bar: 'alpha'}): ECMAScript's variables hold any object,
// and reading a field the object lacks gives undefined. The part then has
// every field of both, a field that one of them lacks Optional and
// undefined where it lacks it (ast.WidenObjects). A field of an object
// given a value of another kind widens as a variable does, to one kind
// and undefined (a field null at first). It reports whether it widened
// any. A field that one object lacks and that is an array or object stays
// an error of the checker: an array or object that may be undefined is
// not modelled.
func (ck *checker) widenObjects(all []code, env func(code) *lang.Env, vars map[string]ast.Type) bool {
	widened := false
	for _, c := range all {
		if !ast.Any(c.body, ck.mayWidenObject) {
			continue
		}
		info, _ := lang.CheckBlock(env(c), ck.fset, c.body)
		ast.Inspect(c.body, func(n ast.Node) bool {
			a, ok := n.(*ast.Assign)
			if !ok || !ck.mayWidenObject(a) {
				return true
			}
			v := ck.m.Var(a.Target.Name)
			vt := info.Types[a.Value]
			if ck.widenKeyed(v, a.Path, vt) {
				vars[v.Name] = v.Type
				widened = true
				return true
			}
			loc, ok := partType(v.Type, a.Path)
			if !ok || vt.Kind == ast.Invalid {
				return true
			}
			w, ok := widenPart(loc, vt, len(a.Path) > 0)
			if !ok || w.String() == loc.String() {
				return true
			}
			v.Type = withPart(v.Type, a.Path, w)
			vars[v.Name] = v.Type
			widened = true
			return true
		})
	}
	return widened
}

// widenKeyed widens every field of the object that path ends in, in v,
// where path selects the field by a key computed when it runs (o[k] = x,
// which writes any of them) and x is of another type than a field, and
// reports whether it did.
func (ck *checker) widenKeyed(v *model.Var, path []*ast.Sel, vt ast.Type) bool {
	if len(path) == 0 || vt.Kind == ast.Invalid {
		return false
	}
	last := path[len(path)-1]
	ot, ok := partType(v.Type, path[:len(path)-1])
	if !ok || ot.Kind != ast.Object || last.Index == nil || (isStrLit(last.Index) && !ot.IsDict()) {
		return false
	}
	if d, ok := dictOf(ot, vt); ok {
		v.Type = withPart(v.Type, path[:len(path)-1], d)
		return true
	}
	if ot.IsDict() {
		return false
	}
	fields := slices.Clone(ot.Comp.Fields)
	changed := false
	for i, f := range fields {
		if w, ok := widenPart(f.Type, vt, true); ok && w.String() != f.Type.String() {
			fields[i].Type, changed = w, true
		}
	}
	if changed {
		w := ast.ObjectType(fields)
		w.Absent = ot.Absent
		v.Type = withPart(v.Type, path[:len(path)-1], w)
	}
	return changed
}

// widenPart returns the type that holds values of loc, a part of a
// variable, and of vt, assigned to it: objects hold the fields of both; a
// field (inPart) of scalars holds a value of one kind or undefined (a
// field null at first and given a string later), not of several.
func widenPart(loc, vt ast.Type, inPart bool) (ast.Type, bool) {
	if loc.Kind == ast.Object && vt.Kind == ast.Object {
		if lang.Assignable(loc, vt) == "" {
			return loc, true
		}
		w, _, ok := ast.WidenObjects(loc, vt)
		return w, ok
	}
	if !inPart || loc.IsComposite() || vt.IsComposite() || loc.Ranged {
		return ast.Type{}, false
	}
	w, ok := ast.Widen(loc, vt)
	return w, ok && w.Kind != ast.Mixed
}

// mayWidenObject reports whether n is an assignment with = to a variable
// without a setbot:type that holds an array or object: one that
// widenObjects may widen.
func (ck *checker) mayWidenObject(n ast.Node) bool {
	a, ok := n.(*ast.Assign)
	if !ok || a.Op != ast.ASSIGN {
		return false
	}
	v := ck.m.Var(a.Target.Name)
	return v != nil && !ck.annotated[v.Name] && v.Type.IsComposite() && !v.Type.MayBeAbsent()
}

// partType returns the type of the part path of a value of type t: a
// field (.f or ['f']) of an object, an element of an array. It reports
// false where path names no part of t.
func partType(t ast.Type, path []*ast.Sel) (ast.Type, bool) {
	for _, s := range path {
		switch {
		case t.MayBeAbsent():
			return ast.Type{}, false
		case s.Index == nil || isStrLit(s.Index):
			f, ok := t.Field(selName(s))
			if !ok {
				return ast.Type{}, false
			}
			t = f
		case t.Kind == ast.Array:
			t = t.Comp.Elem
		default:
			return ast.Type{}, false
		}
	}
	return t, true
}

// withPart returns t with the part path (which partType found) of type w.
func withPart(t ast.Type, path []*ast.Sel, w ast.Type) ast.Type {
	if len(path) == 0 {
		return w
	}
	s := path[0]
	if s.Index == nil || isStrLit(s.Index) {
		fields := append([]ast.Field(nil), t.Comp.Fields...)
		for i, f := range fields {
			if f.Name == selName(s) {
				fields[i].Type = withPart(f.Type, path[1:], w)
			}
		}
		o := ast.ObjectType(fields)
		o.Absent = t.Absent
		return o
	}
	a := ast.ArrayType(withPart(t.Comp.Elem, path[1:], w), t.Comp.MinLen, t.Comp.Len)
	a.Absent = t.Absent
	return a
}

func isStrLit(e ast.Expr) bool {
	_, ok := e.(*ast.StrLit)
	return ok
}

// selName is the field name s selects: .f or ['f'].
func selName(s *ast.Sel) string {
	if x, ok := s.Index.(*ast.StrLit); ok {
		return x.Value
	}
	return s.Name
}

// dictOf returns the type of an object used as a dictionary that ot, the
// type of an object written by a key computed when it runs (o[k] = x),
// becomes where x is of type vt, and reports whether it changed: an
// object with no fields ({} at first) becomes a dictionary of vt (a
// scalar or an object), and a dictionary's values widen to hold vt
// (ast.DictType).
func dictOf(ot, vt ast.Type) (ast.Type, bool) {
	if vt.Kind == ast.Invalid || vt.Kind == ast.Array || vt.IsDict() || vt.Kind.IsRef() {
		return ast.Type{}, false
	}
	var w ast.Type
	switch {
	case ot.IsDict():
		var ok bool
		if w, ok = widenPart(ot.Comp.Elem, vt, true); !ok || w.String() == ot.Comp.Elem.String() {
			return ast.Type{}, false
		}
	case len(ot.Comp.Fields) == 0:
		w = vt
		w.Ranged = false
	default:
		return ast.Type{}, false
	}
	d := ast.DictType(w)
	d.Absent = ot.Absent
	return d, true
}
