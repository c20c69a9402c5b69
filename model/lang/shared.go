package lang

import (
	"strings"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"
)

// ECMAScript shares an object or an array between the places that hold
// it: after b = a, a write to a.x is seen through b.x. setbot's values are
// copies (a variable holds its leaves, docs/architecture.md §The action
// language), which agrees with ECMAScript as long as no part of a shared
// value is written: a whole assignment gives its place a new value in
// both. The checker records the assignments that would share a value
// (Info.Shares) and the writes below a place (Info.PartWrites);
// CheckShared refuses a share where some write goes below a place that
// holds the shared value, rather than letting every executor copy where
// ECMAScript shares.

// A Share is an assignment (=, var, or a <foreach> item) to the place
// Target of an object or array read from the place Source, not computed
// anew. A place is a variable and the fields and elements below it, as
// path: "a", ".f", "[]" (any element or computed key).
type Share struct {
	Target, Source []string
	Pos            source.Pos
}

// A PartWrite is a write to the place Path (a field, an element, or the
// array itself for push), at Pos.
type PartWrite struct {
	Path []string
	Pos  source.Pos
}

// place returns the path of the place e reads (a, a.f, a[i].f), or nil
// where e computes a new value.
func place(e ast.Expr) []string {
	var rev []string
	for {
		switch x := e.(type) {
		case *ast.Ident:
			rev = append(rev, x.Name)
			out := make([]string, len(rev))
			for i, s := range rev {
				out[len(rev)-1-i] = s
			}
			return out
		case *ast.Member:
			rev, e = append(rev, "."+x.Name), x.X
		case *ast.Index:
			rev, e = append(rev, "[]"), x.X
		default:
			return nil
		}
	}
}

// targetPlace is the path of the place x.Target and x.Path name.
func targetPlace(target *ast.Ident, path []*ast.Sel) []string {
	out := []string{target.Name}
	for _, s := range path {
		if s.Index != nil {
			out = append(out, "[]")
		} else {
			out = append(out, "."+s.Name)
		}
	}
	return out
}

// share records that the place target is given a value of type vt read
// from the place src (nil: computed anew), where it is an object or an
// array.
func (c *checker) share(target, src []string, vt ast.Type, pos source.Pos) {
	if vt.IsComposite() && src != nil {
		c.info.Shares = append(c.info.Shares, Share{Target: target, Source: src, Pos: pos})
	}
}

// partWrite records the write of x below a place: to a field or an
// element, and a = a.concat([x]), as the parser reads a.push(x), which
// ECMAScript does to the array every place sharing it sees (a concat
// written so is taken the same way, to be safe).
func (c *checker) partWrite(x *ast.Assign) {
	p := targetPlace(x.Target, x.Path)
	if m, ok := x.Value.(*ast.Method); ok && m.Name == "concat" && m.Call && x.Op == ast.ASSIGN && samePlace(place(m.X), p) {
		p = append(p, "[]")
	}
	if len(p) > 1 {
		c.info.PartWrites = append(c.info.PartWrites, PartWrite{Path: p, Pos: x.Target.NamePos})
	}
}

// samePlace reports whether a and b may be one place: equal, with "[]"
// matching any step.
func samePlace(a, b []string) bool {
	return len(a) == len(b) && len(a) > 0 && covers(a, b)
}

// covers reports whether the place p lies at or below the place q, "[]"
// matching any step.
func covers(p, q []string) bool {
	if len(p) < len(q) {
		return false
	}
	for i := range q {
		if p[i] != q[i] && p[i] != "[]" && q[i] != "[]" {
			return false
		}
	}
	return true
}

// CheckShared refuses, over every piece of a model's code, each Share
// such that some PartWrite writes strictly below the place of its target
// or its source, or of a place shared with them through any chain of
// shares: ECMAScript would show that write through all of them, setbot's
// copies would not.
func CheckShared(fset *source.FileSet, infos []*Info) source.ErrorList {
	var shares []Share
	var writes []PartWrite
	for _, info := range infos {
		if info != nil {
			shares = append(shares, info.Shares...)
			writes = append(writes, info.PartWrites...)
		}
	}
	if len(shares) == 0 || len(writes) == 0 {
		return nil
	}
	// Union the shares that hold one value: two shares are joined where a
	// place of one may be a place of the other.
	parent := make([]int, len(shares))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for i := range shares {
		for j := range i {
			if linked(shares[i], shares[j]) {
				parent[find(i)] = find(j)
			}
		}
	}
	written := make(map[int]PartWrite) // by the root of a group of shares
	for i, s := range shares {
		for _, w := range writes {
			if _, seen := written[find(i)]; !seen && (under(w.Path, s.Target) || under(w.Path, s.Source)) {
				written[find(i)] = w
			}
		}
	}
	var errs source.ErrorList
	for i, s := range shares {
		w, ok := written[find(i)]
		if !ok {
			continue
		}
		at := fset.Position(w.Pos)
		t, src := strings.Join(s.Target, ""), strings.Join(s.Source, "")
		errs.Add(fset.Position(s.Pos), "%s = %s makes them one object or array in ECMAScript, which shares objects and arrays rather than copying them, "+
			"and %s is written at %d:%d, which ECMAScript shows through both; setbot copies values, so it would not: "+
			"give %s a new value (an object or array literal of %s's parts, or %s.concat([]) for an array), or assign whole values only",
			t, src, strings.Join(w.Path, ""), at.Line, at.Column, t, src, src)
	}
	return errs
}

// linked reports whether the shares a and b may hold one value: a place
// of one is a place of the other.
func linked(a, b Share) bool {
	for _, p := range [][]string{a.Target, a.Source} {
		for _, q := range [][]string{b.Target, b.Source} {
			if samePlace(p, q) {
				return true
			}
		}
	}
	return false
}

// under reports whether the place w lies strictly below the place p.
func under(w, p []string) bool { return len(w) > len(p) && covers(w, p) }

// ShareInit records, in info (the checker's results for init, the
// initial value of the variable name), that name is given an object or
// array another variable holds: <data id="b" expr="a"/> shares a's
// object as b = a does.
func (info *Info) ShareInit(name string, init ast.Expr, pos source.Pos) {
	if src := place(init); src != nil && info.Types[init].IsComposite() {
		info.Shares = append(info.Shares, Share{Target: []string{name}, Source: src, Pos: pos})
	}
}
