package lower

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/simplify"

	"github.com/setbot/setbot/model/lang"
)

// Arrays and objects are lowered to scalars, so that the executors see
// ints, bools and strings only. A value of a composite type is a vector of
// scalar leaves (Leaves):
//
//   - an array of at most N elements is its length, named NAME.length, and
//     its N elements NAME[0] ... NAME[N-1] (each lowered in turn); an
//     element at or past the length is meaningless;
//   - an object is its fields NAME.f, in the order of their names; an
//     object used as a dictionary (ast.DictType) is its number of entries,
//     NAME.size, and its entries' keys NAME.keys[k] and values
//     NAME.values[k] (dict.go);
//   - a scalar that may be undefined is its value and its tag (AbsentName);
//     so is an object that may be undefined (an Optional field that some
//     objects assigned to a variable lack, ast.WidenObjects): its leaves,
//     meaningless where it is undefined, and its tag.
//
// The names hold '[' and '.', which no identifier does, so they cannot
// collide with a user's names. Reading a[i] becomes a chain of ?: over the
// indexes below the bound, undefined past the length, as ECMAScript reads
// past the end of an array; an assignment of a whole array assigns every
// leaf; for (item, index of array) becomes a loop over a copy of the
// array (SCXML's <foreach> iterates over a shallow copy), which the
// executors unroll up to their loop bound.

// Leaf is one scalar part of a lowered value: Suffix names it below the
// value's name ("" for a scalar, ".length", "[2]", "[2].f", ...), Tag marks
// an undefined tag, and Type is its scalar type.
type Leaf struct {
	Suffix string
	Tag    bool
	Of     ast.Kind // a Mixed value's value of this kind (KindName), or Invalid
	Type   ast.Type
}

// Name returns the name of the leaf of the value called name.
func (f Leaf) Name(name string) string {
	if f.Tag {
		return AbsentName(name + f.Suffix)
	}
	if f.Of != ast.Invalid {
		return ast.KindName(name+f.Suffix, f.Of)
	}
	return name + f.Suffix
}

// Leaves returns the scalar leaves of a value of type t, in a fixed order.
// A type of kind Undef has an int placeholder for its value.
func Leaves(t ast.Type) []Leaf {
	var out []Leaf
	var walk func(prefix string, t ast.Type)
	walk = func(prefix string, t ast.Type) {
		switch t.Kind {
		case ast.Array:
			out = append(out, Leaf{Suffix: prefix + ".length", Type: ast.RangeType(int64(t.Comp.MinLen), int64(t.Comp.Len))})
			for k := 0; k < t.Comp.Len; k++ {
				walk(prefix+"["+strconv.Itoa(k)+"]", t.Comp.Elem)
			}
			if t.Absent {
				out = append(out, Leaf{Suffix: prefix, Tag: true, Type: ast.AbsentType})
			}
		case ast.Object:
			if t.IsDict() {
				out = append(out, Leaf{Suffix: prefix + DictSize, Type: ast.RangeType(0, int64(t.Comp.Len))})
				for k := 0; k < t.Comp.Len; k++ {
					out = append(out, Leaf{Suffix: prefix + dictKey(k), Type: ast.StringType})
					walk(prefix+dictValue(k), t.Comp.Elem)
				}
			}
			for _, f := range t.Comp.Fields {
				walk(prefix+printer.FieldSuffix(f.Name), f.Type)
			}
			if t.Absent {
				out = append(out, Leaf{Suffix: prefix, Tag: true, Type: ast.AbsentType})
			}
		case ast.Mixed:
			for _, k := range t.Kinds.List() {
				out = append(out, Leaf{Suffix: prefix, Of: k, Type: ast.Type{Kind: k}})
			}
			out = append(out, Leaf{Suffix: prefix, Tag: true, Type: ast.MixedTagType(t)})
		default:
			v := t
			v.Absent = false
			switch v.Kind {
			case ast.Undef, ast.Invalid:
				v = ast.IntType
			case ast.EventRef:
				v = ast.RangeType(EventStale, EventCurrent)
			case ast.IOProcessorsRef:
				v = ast.RangeType(IOProcessorsID, IOProcessorsID)
			}
			out = append(out, Leaf{Suffix: prefix, Type: v})
			if t.MayBeAbsent() {
				out = append(out, Leaf{Suffix: prefix, Tag: true, Type: ast.AbsentType})
			}
		}
	}
	walk("", t)
	return out
}

// Unlower rebuilds the values of parameters (or variables) from their
// leaves, named as Leaf.Name names them, as encoding/json writes
// ECMAScript's values and JSON.stringify would: an array (NAME.length and
// NAME[k]) as a []any of its length, an object (NAME.f) as a
// map[string]any, null as nil, and undefined as nothing (a missing key,
// or nil as an element of an array, where JSON has no undefined). A leaf's
// value is kept as it is given; a tag (AbsentName) and a length are
// int64s. An object none of whose fields has a leaf has no name left to
// find it by, and so is missing; a value with a length but no elements (an
// array of bound 0) reads as an object with the field length.
func Unlower(leaves map[string]any) map[string]any {
	root := &unlowered{}
	for name, v := range leaves {
		of, tag := AbsentOf(name)
		of, kind := ast.KindOf(of)
		n := root
		for _, seg := range splitLeafName(of) {
			n = n.child(seg)
		}
		switch {
		case tag:
			n.tag, _ = v.(int64)
		case kind != ast.Invalid:
			n.kinds = n.kinds.With(kind)
			if n.alts == nil {
				n.alts = map[ast.Kind]any{}
			}
			n.alts[kind] = v
		default:
			n.value, n.hasValue = v, true
		}
	}
	out := make(map[string]any, len(root.fields))
	for name, n := range root.fields {
		if v, ok := n.build(); ok {
			out[name] = v
		}
	}
	return out
}

// EventData returns the data of an event, _event.data, rebuilt from its
// arguments (Unlower): the value of DataParam where a <content> gives the
// event its data, else the object of its parameters. It reports false
// where the event carries no data (no arguments, or an undefined content).
func EventData(args map[string]any) (any, bool) {
	if len(args) == 0 {
		return nil, false
	}
	values := Unlower(args)
	if _, whole := args[ast.DataParam]; whole {
		v, ok := values[ast.DataParam]
		return v, ok
	}
	return values, true
}

// unlowered is a value Unlower rebuilds: a scalar (value, and tag), or an
// array or object (fields, with elems for an array's elements).
type unlowered struct {
	value    any
	hasValue bool
	tag      int64
	fields   map[string]*unlowered
	elems    map[int]*unlowered
	// A Mixed value's values, by kind (KindName).
	kinds ast.KindSet
	alts  map[ast.Kind]any
}

// child returns the part seg (".f" or "[k]") of n, made on first use.
func (n *unlowered) child(seg string) *unlowered {
	if k, err := strconv.Atoi(strings.Trim(seg, "[]")); err == nil && seg[0] == '[' {
		if n.elems == nil {
			n.elems = map[int]*unlowered{}
		}
		if n.elems[k] == nil {
			n.elems[k] = &unlowered{}
		}
		return n.elems[k]
	}
	name := strings.TrimPrefix(seg, ".")
	if n.fields == nil {
		n.fields = map[string]*unlowered{}
	}
	if n.fields[name] == nil {
		n.fields[name] = &unlowered{}
	}
	return n.fields[name]
}

// build returns the value n stands for, and false where it is undefined.
func (n *unlowered) build() (any, bool) {
	switch {
	case n.tag == ast.AbsentUndefined:
		return nil, false
	case n.tag == ast.AbsentNull:
		return nil, true
	case n.elems != nil:
		length, _ := n.fields["length"].value.(int64)
		out := make([]any, length)
		for k := range out {
			if e := n.elems[k]; e != nil {
				out[k], _ = e.build() // an undefined element is JSON's null
			}
		}
		return out, true
	case n.fields != nil:
		out := make(map[string]any, len(n.fields))
		for name, f := range n.fields {
			if v, ok := f.build(); ok {
				out[name] = v
			}
		}
		return out, true
	case n.alts != nil:
		ks := n.kinds.List()
		if i := -n.tag; i >= 0 && i < int64(len(ks)) {
			return n.alts[ks[i]], true
		}
		return nil, false
	}
	return n.value, n.hasValue
}

// splitLeafName splits a leaf's name into its root and its parts:
// "ps[1].f" into "ps", "[1]", ".f".
func splitLeafName(name string) []string {
	var out []string
	start := 0
	for i := 0; i < len(name); i++ {
		if (name[i] == '.' || name[i] == '[') && i > start {
			out = append(out, name[start:i])
			start = i
		}
	}
	return append(out, name[start:])
}

// Value returns the leaves of a constant value of type t (a literal,
// possibly an array or object literal), checked with info, as constants:
// the initial values of a variable's leaves. It returns nil when init is
// not a constant.
func Value(init ast.Expr, info *lang.Info, t ast.Type) []ast.Expr {
	l := lowerer{info: info}
	vec := l.vec(init, t)
	for i, v := range vec {
		v = simplify.Expr(v)
		switch v.(type) {
		case *ast.IntLit, *ast.DecLit, *ast.BoolLit, *ast.StrLit:
		default:
			return nil
		}
		vec[i] = v
	}
	return vec
}

// ZeroLeaves returns the leaves of a value of type t that is undefined (a
// scalar) or empty (an array of no elements, an object of such fields).
func ZeroLeaves(t ast.Type, pos source.Pos) []ast.Expr {
	var out []ast.Expr
	for _, f := range Leaves(t) {
		out = append(out, zeroLeaf(f, pos))
	}
	return out
}

func zeroLeaf(f Leaf, pos source.Pos) ast.Expr {
	if f.Tag && !f.Type.Contains(ast.AbsentUndefined) {
		return &ast.IntLit{ValuePos: pos, Value: f.Type.Hi} // a Mixed value of its first kind
	}
	if f.Tag {
		return &ast.IntLit{ValuePos: pos, Value: ast.AbsentUndefined}
	}
	if f.Type.Kind == ast.Int && f.Type.Ranged && !f.Type.Contains(0) {
		return &ast.IntLit{ValuePos: pos, Value: f.Type.Lo}
	}
	return ZeroValue(f.Type.Kind, pos)
}

// part is one leaf of a lowered value and its expression.
type part struct {
	leaf Leaf
	x    ast.Expr
}

// parts lowers e to the leaves of its own type.
func (l *lowerer) parts(e ast.Expr) []part {
	e = l.fold(e)
	t := l.typ(e)
	pos := e.Pos()
	leaves := Leaves(t)
	byName := func(name func(string) ast.Expr, root string) []part {
		out := make([]part, len(leaves))
		for i, f := range leaves {
			out[i] = part{f, name(f.Name(root))}
		}
		return out
	}
	if t.Kind == ast.Mixed {
		switch x := e.(type) {
		case *ast.Ident:
			return byName(func(n string) ast.Expr { return &ast.Ident{NamePos: pos, Name: n} }, x.Name)
		case *ast.EventParam:
			return byName(func(n string) ast.Expr { return &ast.EventParam{Start: pos, Name: n} }, x.Name)
		}
		xs := l.mixedLeaves(e, t)
		out := make([]part, len(leaves))
		for i, f := range leaves {
			out[i] = part{f, xs[i]}
		}
		return out
	}
	if !t.IsComposite() {
		if t.MayBeAbsent() {
			v, tag := l.pair(e)
			if t.Kind == ast.Undef {
				v = ZeroValue(ast.Int, pos)
			}
			return []part{{leaves[0], v}, {leaves[1], tag}}
		}
		return []part{{leaves[0], l.value(e)}}
	}
	switch x := e.(type) {
	case *ast.Ident:
		return byName(func(n string) ast.Expr { return &ast.Ident{NamePos: pos, Name: n} }, x.Name)
	case *ast.EventParam:
		return byName(func(n string) ast.Expr { return &ast.EventParam{Start: pos, Name: n} }, x.Name)
	case *ast.ArrayLit:
		elem := t.Comp.Elem
		out := []part{{leaves[0], &ast.IntLit{ValuePos: pos, Value: int64(len(x.Elems))}}}
		for k, el := range x.Elems {
			out = append(out, prefixed("["+strconv.Itoa(k)+"]", Leaves(elem), l.vec(el, elem))...)
		}
		return out
	case *ast.ObjectLit:
		var out []part
		for _, f := range t.Comp.Fields {
			for _, fi := range x.Fields {
				if fi.Name == f.Name {
					out = append(out, prefixed(printer.FieldSuffix(f.Name), Leaves(f.Type), l.vec(fi.Value, f.Type))...)
				}
			}
		}
		return out
	case *ast.Cond:
		c := simplify.Expr(l.cond(x.Cond))
		a, b := l.vec(x.Then, t), l.vec(x.Else, t)
		out := make([]part, len(leaves))
		for i, f := range leaves {
			out[i] = part{f, &ast.Cond{Cond: c, Question: x.Question, Then: a[i], Else: b[i]}}
		}
		return out
	case *ast.Member:
		return below(l.parts(x.X), printer.FieldSuffix(x.Name))
	case *ast.Method:
		if x.Call { // concat: the one method whose value is composite
			return l.concat(x, t)
		}
		return below(l.parts(x.X), ".length") // an object's field called length
	case *ast.Index:
		if xt := l.typ(x.X); xt.IsDict() {
			return l.dictRead(l.parts(x.X), xt, l.dictKeyString(x.Index), t)
		}
		if s, ok := x.Index.(*ast.StrLit); ok {
			return below(l.parts(x.X), printer.FieldSuffix(s.Value))
		}
		// The checker allows a composite element at a constant index
		// within the array for certain, or at one the code guards
		// (Env.InRange): within the array where the read runs.
		if _, ok := x.Index.(*ast.IntLit); !ok {
			return l.element(l.parts(x.X), l.typ(x.X), simplify.Expr(l.value(x.Index)), true)
		}
		return below(l.parts(x.X), "["+printer.ExprString(x.Index)+"]")
	}
	panic(fmt.Sprintf("lang: lowering a composite value of unexpected form %s", printer.ExprString(e)))
}

// prefixed pairs leaves, put below prefix, with their expressions.
func prefixed(prefix string, leaves []Leaf, xs []ast.Expr) []part {
	out := make([]part, len(leaves))
	for i, f := range leaves {
		f.Suffix = prefix + f.Suffix
		out[i] = part{f, xs[i]}
	}
	return out
}

// below returns the parts of ps under prefix, with the prefix removed.
func below(ps []part, prefix string) []part {
	var out []part
	for _, p := range ps {
		if rest, ok := cutPrefix(p.leaf.Suffix, prefix); ok {
			p.leaf.Suffix = rest
			out = append(out, p)
		}
	}
	return out
}

// cutPrefix cuts prefix from s where it ends a step of the path: "[1]" is
// below "[1]" but not "[1" of "[12]", ".f" not of ".fg".
func cutPrefix(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || s[:len(prefix)] != prefix {
		return "", false
	}
	rest := s[len(prefix):]
	if rest == "" || rest[0] == '.' || rest[0] == '[' {
		return rest, true
	}
	return "", false
}

// vec lowers e to the leaves of type t, which its value is assignable to:
// an array with a smaller bound is padded, a value without a tag gets one
// that says it is a value.
func (l *lowerer) vec(e ast.Expr, t ast.Type) []ast.Expr {
	if t.Kind == ast.Mixed {
		return l.encode(e, t)
	}
	if o, ok := e.(*ast.ObjectLit); ok && t.IsDict() && !l.typ(e).IsDict() {
		return l.align(l.dictLit(o, t), t, e.Pos())
	}
	return l.align(l.parts(e), t, e.Pos())
}

// align arranges ps as the leaves of type t.
func (l *lowerer) align(ps []part, t ast.Type, pos source.Pos) []ast.Expr {
	type key = leafKey
	have := make(map[key]part, len(ps))
	for _, p := range ps {
		have[key{p.leaf.Suffix, p.leaf.Tag}] = p
	}
	var out []ast.Expr
	for _, f := range Leaves(t) {
		p, ok := have[key{f.Suffix, f.Tag}]
		switch {
		case ok && (p.leaf.Type.Kind == f.Type.Kind || f.Tag):
			out = append(out, p.x)
		case ok && f.Type.Kind == ast.Decimal && p.leaf.Type.Kind == ast.Int:
			out = append(out, &ast.ToDecimal{Start: p.x.Pos(), X: p.x})
		case f.Tag:
			if hasValue(have, f.Suffix) {
				out = append(out, &ast.IntLit{ValuePos: pos, Value: ast.AbsentValue})
				continue
			}
			out = append(out, zeroLeaf(f, pos))
		default:
			// Past the value's bound, or the placeholder of undefined.
			out = append(out, zeroLeaf(f, pos))
		}
	}
	return out
}

// leafKey finds a leaf among the parts of a value: its suffix, and
// whether it is the tag there.
type leafKey struct {
	suffix string
	tag    bool
}

// hasValue reports whether have, the parts of a value, hold a value at
// suffix: a scalar leaf there, or one below it (an object or array, which
// is a value wherever it is given).
func hasValue(have map[leafKey]part, suffix string) bool {
	if _, ok := have[leafKey{suffix, false}]; ok {
		return true
	}
	for k := range have {
		if _, below := cutPrefix(k.suffix, suffix); below && !k.tag {
			return true
		}
	}
	return false
}

// element returns the parts of the element at index i of the array whose
// parts are ps, of type t. Past the array's length the element is
// undefined, unless inRange says i lies within it.
func (l *lowerer) element(ps []part, t ast.Type, i ast.Expr, inRange bool) []part {
	pos := i.Pos()
	elem := t.Comp.Elem
	length := lengthOf(ps)
	// The element's leaves: an undefined element needs a tag even where
	// the elements have none.
	et := elem
	if !inRange {
		et = elem.OrAbsent()
	}
	leaves := Leaves(et)
	out := make([]part, len(leaves))
	for li, f := range leaves {
		var chain ast.Expr = zeroLeaf(f, pos)
		if inRange && t.Comp.Len > 0 {
			chain = nil
		}
		for k := t.Comp.Len - 1; k >= 0; k-- {
			idx := "[" + strconv.Itoa(k) + "]"
			kth := l.align(below(ps, idx), et, pos)[li]
			if !inRange && f.Tag {
				// Within the length the element's own tag, past it undefined.
				in := &ast.Binary{X: &ast.IntLit{ValuePos: pos, Value: int64(k)}, OpPos: pos, Op: ast.LSS, Y: length}
				kth = &ast.Cond{Cond: in, Question: pos, Then: kth, Else: &ast.IntLit{ValuePos: pos, Value: ast.AbsentUndefined}}
			}
			if chain == nil {
				chain = kth // the last index: no test needed
				continue
			}
			is := &ast.Binary{X: i, OpPos: pos, Op: ast.EQL, Y: &ast.IntLit{ValuePos: pos, Value: int64(k)}}
			chain = &ast.Cond{Cond: is, Question: pos, Then: kth, Else: chain}
		}
		out[li] = part{f, simplify.Expr(chain)}
	}
	return out
}

// keyed lowers o[k] of an object o of type t, read by a key k computed
// when it runs, to a chain over the fields: the field whose name k is,
// undefined where k names none (et, the read's type, may be undefined).
func (l *lowerer) keyed(ps []part, t ast.Type, k ast.Expr, et ast.Type) []part {
	pos := k.Pos()
	leaves := Leaves(et)
	out := make([]part, len(leaves))
	for li, f := range leaves {
		chain := zeroLeaf(f, pos)
		for fi := len(t.Comp.Fields) - 1; fi >= 0; fi-- {
			name := t.Comp.Fields[fi].Name
			is := &ast.Binary{X: k, OpPos: pos, Op: ast.EQL, Y: &ast.StrLit{ValuePos: pos, Value: name}} // both strings
			chain = &ast.Cond{Cond: is, Question: pos, Then: l.align(below(ps, printer.FieldSuffix(name)), et, pos)[li], Else: chain}
		}
		out[li] = part{f, simplify.Expr(chain)}
	}
	return out
}

// assignLeaves assigns the leaves of the location called name, of type t,
// their values vs. Where a value reads a leaf assigned before it (a = [a[1],
// a[0]]), the values go through locals first, as ECMAScript evaluates the
// whole right-hand side before it assigns.
func assignLeaves(name string, t ast.Type, vs []ast.Expr, pos source.Pos) []ast.Stmt {
	leaves := Leaves(t)
	written := make(map[string]bool, len(leaves))
	clash := false
	for i, f := range leaves {
		for _, u := range lang.Uses(vs[i]) {
			if written[u] {
				clash = true
			}
		}
		written[f.Name(name)] = true
	}
	var out []ast.Stmt
	if !clash {
		for i, f := range leaves {
			out = append(out, &ast.Assign{Target: &ast.Ident{NamePos: pos, Name: f.Name(name)}, OpPos: pos, Op: ast.ASSIGN, Value: simplify.Expr(vs[i])})
		}
		return out
	}
	for i, f := range leaves {
		out = append(out, &ast.Decl{DeclPos: pos, Name: &ast.Ident{NamePos: pos, Name: "_new_" + f.Name(name)}, Type: f.Type, Value: simplify.Expr(vs[i])})
	}
	for _, f := range leaves {
		out = append(out, &ast.Assign{Target: &ast.Ident{NamePos: pos, Name: f.Name(name)}, OpPos: pos, Op: ast.ASSIGN, Value: &ast.Ident{NamePos: pos, Name: "_new_" + f.Name(name)}})
	}
	return []ast.Stmt{&ast.Block{Stmts: out}}
}

// declLeaves declares a local of type t per leaf, with the values vs.
func declLeaves(name string, t ast.Type, vs []ast.Expr, pos source.Pos) []ast.Stmt {
	var out []ast.Stmt
	for i, f := range Leaves(t) {
		out = append(out, &ast.Decl{DeclPos: pos, Name: &ast.Ident{NamePos: pos, Name: f.Name(name)}, Type: f.Type, Value: simplify.Expr(vs[i])})
	}
	return out
}

// pathName returns the name of the location target.path, whose indexes the
// checker proved constant.
func pathName(target *ast.Ident, path []*ast.Sel) string {
	name := target.Name
	for _, s := range path {
		switch x := s.Index.(type) {
		case nil:
			name += printer.FieldSuffix(s.Name)
		case *ast.StrLit:
			name += printer.FieldSuffix(x.Value)
		default:
			name += "[" + printer.ExprString(s.Index) + "]"
		}
	}
	return name
}

// forEach lowers for (item, index of array; cond) body to
//
//	{ var copy = array; var i = 0; while (i < copy.length && cond) { item = copy[i]; index = i; body; i = i + 1 } }
//
// where the copy is left out when the body writes nothing the array
// expression reads.
func (l *lowerer) forEach(x *ast.ForEach) []ast.Stmt {
	l.loops++
	n := strconv.Itoa(l.loops)
	pos := x.ForPos
	at := l.typ(x.Array)
	var out []ast.Stmt
	ps := l.parts(x.Array)
	written := make(map[string]bool)
	for _, d := range lang.Defs(x.Body) {
		written[d] = true
	}
	written[x.Item.Name] = true
	if x.Index != nil {
		written[x.Index.Name] = true
	}
	copied := false
	for _, u := range lang.Uses(x.Array) {
		copied = copied || written[u]
	}
	if copied {
		name := "_foreach_array_" + n
		out = append(out, declLeaves(name, at, l.align(ps, at, pos), pos)...)
		ps = named(Leaves(at), func(f Leaf) ast.Expr { return &ast.Ident{NamePos: pos, Name: f.Name(name)} })
	}
	length := lengthOf(ps)
	i := &ast.Ident{NamePos: pos, Name: "_foreach_index_" + n}
	out = append(out, &ast.Decl{DeclPos: pos, Name: i, Type: ast.RangeType(0, int64(at.Comp.Len)), Value: &ast.IntLit{ValuePos: pos}})
	body := &ast.Block{Lbrace: x.Body.Lbrace}
	elem := l.element(ps, at, i, true)
	itemType := l.typ(x.Item)
	set := assignLeaves
	if x.Local {
		set = declLeaves // the body's own, declared each time round
	}
	body.Stmts = append(body.Stmts, set(x.Item.Name, itemType, l.align(elem, itemType, pos), pos)...)
	if x.Index != nil {
		idxType := l.typ(x.Index)
		body.Stmts = append(body.Stmts, set(x.Index.Name, idxType, l.align([]part{{Leaf{Type: ast.IntType}, i}}, idxType, pos), pos)...)
	}
	body.Stmts = append(body.Stmts, l.block(x.Body).Stmts...)
	body.Stmts = append(body.Stmts, &ast.Assign{Target: ast.CopyIdent(i), OpPos: pos, Op: ast.ASSIGN,
		Value: &ast.Binary{X: i, OpPos: pos, Op: ast.ADD, Y: &ast.IntLit{ValuePos: pos, Value: 1}}})
	var cond ast.Expr = &ast.Binary{X: i, OpPos: pos, Op: ast.LSS, Y: length}
	if x.Cond != nil {
		cond = &ast.Binary{X: cond, OpPos: pos, Op: ast.LAND, Y: l.cond(x.Cond)}
	}
	out = append(out, &ast.While{WhilePos: pos, Cond: simplify.Expr(cond), Body: body})
	return []ast.Stmt{&ast.Block{Stmts: out}}
}

// arrayBound returns the check that the array v, assigned to a location of
// type tt whose bound it may exceed, fits: where it does not, the path
// meets the array bound.
func (l *lowerer) arrayBound(v ast.Expr, tt ast.Type, pos source.Pos) ast.Stmt {
	limit := int64(tt.Comp.Len)
	fits := &ast.Binary{X: lengthOf(l.parts(v)), OpPos: pos, Op: ast.LEQ, Y: &ast.IntLit{ValuePos: pos, Value: limit}}
	return &ast.Bound{BoundPos: pos, Name: vocab.BoundArray, Limit: limit, Cond: simplify.Expr(fits)}
}

// lengthOf returns the length among the parts of an array.
func lengthOf(ps []part) ast.Expr {
	for _, p := range ps {
		if p.leaf.Suffix == ".length" {
			return p.x
		}
	}
	panic("lang: an array without a length")
}

// keyedWrite reports whether path, a location in a value of type t, ends
// in a field of an object selected by a key computed when it runs, and
// returns the object's type.
func keyedWrite(t ast.Type, path []*ast.Sel) (ast.Type, bool) {
	if len(path) == 0 {
		return ast.Type{}, false
	}
	last := path[len(path)-1]
	ot := locType(t, path[:len(path)-1])
	if _, lit := last.Index.(*ast.StrLit); last.Index == nil || (lit && !ot.IsDict()) || ot.Kind != ast.Object {
		return ast.Type{}, false
	}
	return ot, true
}

// keyedAssign lowers o[k] = v, o an object of type t and k a key computed
// when it runs, to a chain over o's fields: the field k names is
// assigned; where k names none, ECMAScript adds the key to o, which o's
// type does not hold, and the path meets the keys bound. The key is
// evaluated once, before the value, as ECMAScript does.
func (l *lowerer) keyedAssign(x *ast.Assign, t ast.Type) []ast.Stmt {
	l.keys++
	last := x.Path[len(x.Path)-1]
	pos := last.Pos
	key := "_key_" + strconv.Itoa(l.keys)
	decl := &ast.Decl{DeclPos: pos, Name: &ast.Ident{NamePos: pos, Name: key}, Type: ast.StringType, Value: simplify.Expr(l.value(last.Index))}
	fields := t.Comp.Fields
	var chain ast.Stmt = &ast.Bound{BoundPos: pos, Name: vocab.BoundKeys, Limit: int64(len(fields)), Cond: &ast.BoolLit{ValuePos: pos}}
	for i := len(fields) - 1; i >= 0; i-- {
		path := append(slices.Clone(x.Path[:len(x.Path)-1]), &ast.Sel{Pos: pos, Name: fields[i].Name})
		assign := l.stmt(&ast.Assign{Target: x.Target, Path: path, OpPos: x.OpPos, Op: x.Op, Value: x.Value})
		is := &ast.Binary{X: &ast.Ident{NamePos: pos, Name: key}, OpPos: pos, Op: ast.EQL, Y: &ast.StrLit{ValuePos: pos, Value: fields[i].Name}}
		chain = &ast.If{IfPos: pos, Cond: is, Then: &ast.Block{Stmts: assign}, Else: chain}
	}
	return []ast.Stmt{&ast.Block{Stmts: []ast.Stmt{decl, chain}}}
}

// named pairs leaves with the expressions name gives them.
func named(leaves []Leaf, name func(Leaf) ast.Expr) []part {
	out := make([]part, len(leaves))
	for i, f := range leaves {
		out[i] = part{f, name(f)}
	}
	return out
}

// locType returns the type of the part path of a value of type t.
func locType(t ast.Type, path []*ast.Sel) ast.Type {
	for _, s := range path {
		switch x := s.Index.(type) {
		case nil:
			t, _ = t.Field(s.Name)
		case *ast.StrLit:
			t, _ = t.Field(x.Value)
		default:
			t = t.Comp.Elem
		}
	}
	return t
}

// scalar lowers an index, member or array length read whose type is a
// scalar: its value and, when the type may be undefined, its tag.
func (l *lowerer) scalar(e ast.Expr) (val, tag ast.Expr, ok bool) {
	var ps []part
	switch x := e.(type) {
	case *ast.Index:
		xt := l.typ(x.X)
		if s, isStr := x.Index.(*ast.StrLit); isStr && xt.Kind == ast.Object && !xt.IsDict() {
			ps = below(l.parts(x.X), printer.FieldSuffix(s.Value))
			break
		}
		if xt.IsDict() {
			ps = l.dictRead(l.parts(x.X), xt, l.dictKeyString(x.Index), l.typ(e))
			break
		}
		if xt.Kind == ast.Object {
			ps = l.keyed(l.parts(x.X), xt, simplify.Expr(l.value(x.Index)), l.typ(e))
			break
		}
		ps = l.element(l.parts(x.X), xt, simplify.Expr(l.value(x.Index)), !l.typ(e).MayBeAbsent())
	case *ast.Member:
		ps = below(l.parts(x.X), printer.FieldSuffix(x.Name))
	case *ast.Method:
		if x.Call || !l.typ(x.X).IsComposite() {
			return nil, nil, false
		}
		ps = below(l.parts(x.X), ".length")
	default:
		return nil, nil, false
	}
	val = ps[0].x
	if len(ps) > 1 {
		tag = ps[1].x
	} else {
		tag = &ast.IntLit{ValuePos: e.Pos(), Value: ast.AbsentValue}
	}
	return val, tag, true
}

// arrayMethod lowers a.indexOf(v) and a.includes(v) to a chain over the
// array's bound: the first index below the length whose element is v, as
// === compares (-1 for none), or whether there is one.
func (l *lowerer) arrayMethod(x *ast.Method) ast.Expr {
	pos := x.DotPos
	at := l.typ(x.X)
	ps := l.parts(x.X)
	length := lengthOf(ps)
	vt := l.typ(x.Args[0])
	v, g := l.pair(x.Args[0])
	if vt.Kind == ast.Undef {
		v = ZeroValue(ast.Int, pos)
	}
	elem := at.Comp.Elem
	var out ast.Expr = &ast.BoolLit{ValuePos: pos}
	if x.Name == "indexOf" {
		out = &ast.IntLit{ValuePos: pos, Value: -1}
	}
	for k := at.Comp.Len - 1; k >= 0; k-- {
		leaves := l.align(below(ps, "["+strconv.Itoa(k)+"]"), elem, pos)
		var gk ast.Expr = &ast.IntLit{ValuePos: pos, Value: ast.AbsentValue}
		if len(leaves) > 1 {
			gk = leaves[1]
		}
		in := &ast.Binary{X: &ast.IntLit{ValuePos: pos, Value: int64(k)}, OpPos: pos, Op: ast.LSS, Y: length}
		hit := and(in, strictEqual(pos, leaves[0], gk, elem.Kind, v, g, vt.Kind))
		if x.Name == "indexOf" {
			out = &ast.Cond{Cond: hit, Question: pos, Then: &ast.IntLit{ValuePos: pos, Value: int64(k)}, Else: out}
		} else {
			out = or(hit, out)
		}
	}
	return simplify.Expr(out)
}

// concat lowers a.concat(b, ...), of type t, to its parts: the sum of the
// lengths, and at each index k below t's bound the element of the last
// piece (a, or an argument) that starts at or before k, which is k's piece
// wherever k lies within the result. An argument that is no array is one
// element. The offsets are symbolic where a piece's length is, so each
// element is a ?: chain over the pieces that can hold it.
func (l *lowerer) concat(x *ast.Method, t ast.Type) []part {
	pos := x.DotPos
	elem := t.Comp.Elem
	type piece struct {
		off            ast.Expr // where the piece starts in the result
		minOff, maxOff int
		typ            ast.Type
		ps             []part   // an array's parts
		one            ast.Expr // a value that is one element
	}
	var pieces []piece
	var length ast.Expr = &ast.IntLit{ValuePos: pos}
	plus := func(n ast.Expr) {
		if z, ok := length.(*ast.IntLit); ok && z.Value == 0 {
			length = n
			return
		}
		length = simplify.Expr(&ast.Binary{X: length, OpPos: pos, Op: ast.ADD, Y: n})
	}
	minOff, maxOff := 0, 0
	for _, e := range append([]ast.Expr{x.X}, x.Args...) {
		p := piece{off: length, minOff: minOff, maxOff: maxOff, typ: l.typ(e)}
		if p.typ.Kind == ast.Array {
			p.ps = l.parts(e)
			plus(lengthOf(p.ps))
			minOff, maxOff = minOff+p.typ.Comp.MinLen, maxOff+p.typ.Comp.Len
		} else {
			p.one = e
			plus(&ast.IntLit{ValuePos: pos, Value: 1})
			minOff, maxOff = minOff+1, maxOff+1
		}
		pieces = append(pieces, p)
	}
	leaves := Leaves(elem)
	out := []part{{Leaves(t)[0], length}}
	for k := 0; k < t.Comp.Len; k++ {
		var chain []ast.Expr
		for _, p := range pieces {
			n := 1
			if p.one == nil {
				n = p.typ.Comp.Len
			}
			if n == 0 || p.minOff > k || p.maxOff+n <= k {
				continue // the piece never holds index k
			}
			var vs []ast.Expr
			if p.one != nil {
				vs = l.vec(p.one, elem)
			} else {
				i := simplify.Expr(&ast.Binary{X: &ast.IntLit{ValuePos: pos, Value: int64(k)}, OpPos: pos, Op: ast.SUB, Y: p.off})
				vs = l.align(l.element(p.ps, p.typ, i, true), elem, pos)
			}
			if chain == nil {
				chain = vs
				continue
			}
			starts := &ast.Binary{X: p.off, OpPos: pos, Op: ast.LEQ, Y: &ast.IntLit{ValuePos: pos, Value: int64(k)}}
			for li := range chain {
				chain[li] = simplify.Expr(&ast.Cond{Cond: starts, Question: pos, Then: vs[li], Else: chain[li]})
			}
		}
		if chain == nil { // past every piece's reach: never within the length
			chain = make([]ast.Expr, len(leaves))
			for li, f := range leaves {
				chain[li] = zeroLeaf(f, pos)
			}
		}
		out = append(out, prefixed("["+strconv.Itoa(k)+"]", leaves, chain)...)
	}
	return out
}

// elementWrite lowers a[i] = v (ElementWrite): each element k of a
// becomes v where i is k, and the length grows by one where i is the
// length. Checks come first: a path on which i lies below 0 or past the
// length meets the index bound, and one on which the element would lie
// past a's bound the array bound.
func (l *lowerer) elementWrite(x *ast.Assign) []ast.Stmt {
	pos := x.OpPos
	at := l.typ(x.Target)
	elem := at.Comp.Elem
	i := simplify.Expr(l.value(x.Path[0].Index))
	cur := l.align(l.parts(x.Target), at, pos)
	length := cur[0] // Leaves puts an array's length first
	vals := l.vec(x.Value, elem)
	type key struct {
		suffix string
		tag    bool
		of     ast.Kind
	}
	elemLeaf := make(map[key]int)
	for j, f := range Leaves(elem) {
		elemLeaf[key{f.Suffix, f.Tag, f.Of}] = j
	}
	eq := func(a, b ast.Expr) ast.Expr { return &ast.Binary{X: a, OpPos: pos, Op: ast.EQL, Y: b} }
	leaves := Leaves(at)
	out := make([]ast.Expr, len(leaves))
	for n, f := range leaves {
		if n == 0 {
			grown := &ast.Binary{X: length, OpPos: pos, Op: ast.ADD, Y: &ast.IntLit{ValuePos: pos, Value: 1}}
			out[n] = &ast.Cond{Cond: eq(i, length), Question: pos, Then: grown, Else: length}
			continue
		}
		k, inner, _ := strings.Cut(strings.TrimPrefix(f.Suffix, "["), "]")
		kv, _ := strconv.ParseInt(k, 10, 64)
		v := vals[elemLeaf[key{inner, f.Tag, f.Of}]]
		out[n] = &ast.Cond{Cond: eq(i, &ast.IntLit{ValuePos: pos, Value: kv}), Question: pos, Then: v, Else: cur[n]}
	}
	limit := int64(at.Comp.Len)
	within := &ast.Binary{X: &ast.Binary{X: &ast.IntLit{ValuePos: pos}, OpPos: pos, Op: ast.LEQ, Y: i}, OpPos: pos, Op: ast.LAND,
		Y: &ast.Binary{X: i, OpPos: pos, Op: ast.LEQ, Y: length}}
	fits := &ast.Binary{X: i, OpPos: pos, Op: ast.LSS, Y: &ast.IntLit{ValuePos: pos, Value: limit}}
	return append([]ast.Stmt{
		&ast.Bound{BoundPos: pos, Name: vocab.BoundIndex, Limit: limit, Cond: simplify.Expr(within)},
		&ast.Bound{BoundPos: pos, Name: vocab.BoundArray, Limit: limit, Cond: simplify.Expr(fits)},
	}, assignLeaves(x.Target.Name, at, out, pos)...)
}
