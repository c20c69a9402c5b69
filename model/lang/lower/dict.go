package lower

import (
	"strconv"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/simplify"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// An object used as a dictionary (ast.DictType: m = {} and then m[k] = v
// with keys computed when it runs) is a bounded association: NAME.size
// entries, the k-th its key NAME.keys[k], a string as ECMAScript makes
// every key, and its value NAME.values[k]; entries at or past the size are
// meaningless, and no two entries below it share a key. Reading m[k] is a
// chain of ?: over the entries, undefined where none has the key; writing
// m[k] = v replaces the value of the entry that has it, or adds an entry
// at the size, and where the dictionary is full the path meets the keys
// bound (vocab.BoundKeys). Every executor runs these lowered statements,
// so they all give a dictionary the same meaning.

// DictSize is the suffix of a dictionary's number of entries.
const DictSize = ".size"

func dictKey(k int) string   { return ".keys[" + strconv.Itoa(k) + "]" }
func dictValue(k int) string { return ".values[" + strconv.Itoa(k) + "]" }

// dictKeyString lowers k, a key of a dictionary, to the string ECMAScript
// makes of it.
func (l *lowerer) dictKeyString(k ast.Expr) ast.Expr {
	return simplify.Expr(toString(l.value(k), l.typ(k).Kind, k.Pos()))
}

// has is the condition that the k-th entry of the dictionary whose parts
// are ps has the key key.
func has(ps []part, k int, key ast.Expr, pos source.Pos) ast.Expr {
	size := dup(below(ps, DictSize)[0].x)
	in := &ast.Binary{X: &ast.IntLit{ValuePos: pos, Value: int64(k)}, OpPos: pos, Op: ast.LSS, Y: size}
	return and(in, &ast.Binary{X: dup(below(ps, dictKey(k))[0].x), OpPos: pos, Op: ast.EQL, Y: dup(key)})
}

// dictRead returns the parts of m[key] of a dictionary m of type t whose
// parts are ps: the value of the entry with the key, undefined where none
// has it (et, the read's type, may be undefined).
func (l *lowerer) dictRead(ps []part, t ast.Type, key ast.Expr, et ast.Type) []part {
	pos := key.Pos()
	leaves := Leaves(et)
	out := make([]part, len(leaves))
	for li, f := range leaves {
		chain := zeroLeaf(f, pos)
		for k := t.Comp.Len - 1; k >= 0; k-- {
			v := l.align(below(ps, dictValue(k)), et, pos)[li]
			chain = &ast.Cond{Cond: has(ps, k, key, pos), Question: pos, Then: v, Else: chain}
		}
		out[li] = part{f, simplify.Expr(chain)}
	}
	return out
}

// dictHas lowers k in m, m a dictionary of type t whose parts are ps and
// key its key lowered: whether an entry has the key.
func (l *lowerer) dictHas(ps []part, t ast.Type, key ast.Expr) ast.Expr {
	var out ast.Expr = &ast.BoolLit{ValuePos: key.Pos()}
	for k := t.Comp.Len - 1; k >= 0; k-- {
		out = or(has(ps, k, key, key.Pos()), out)
	}
	return simplify.Expr(out)
}

// dictLit returns the parts of an object literal given to a dictionary of
// type t: its fields, in the order written, as the entries.
func (l *lowerer) dictLit(x *ast.ObjectLit, t ast.Type) []part {
	pos := x.Pos()
	out := []part{{Leaf{Suffix: DictSize, Type: ast.RangeType(0, int64(t.Comp.Len))}, &ast.IntLit{ValuePos: pos, Value: int64(len(x.Fields))}}}
	for k, fi := range x.Fields {
		out = append(out, part{Leaf{Suffix: dictKey(k), Type: ast.StringType}, &ast.StrLit{ValuePos: pos, Value: fi.Name}})
		out = append(out, prefixed(dictValue(k), Leaves(t.Comp.Elem), l.vec(fi.Value, t.Comp.Elem))...)
	}
	return out
}

// dictAssign lowers m[k] = v (or m[k] op= v) of a dictionary m of type t,
// the location x.Path less its last step:
//
//	{ string _key_N = String(k); <v's leaves in _val_N>
//	  if (0 < m.size && m.keys[0] == _key_N) m.values[0] = _val_N
//	  else if ... (every entry)
//	  else if (m.size == 0) { m.keys[0] = _key_N; m.values[0] = _val_N; m.size = 1 }
//	  else if ... (every size below the bound)
//	  else bound keys N (false) }
//
// The key is evaluated once, before the value, as ECMAScript does. For
// m[k] op= v, an entry's value becomes m.values[i] op v, and a new entry's
// undefined op v: NaN for numbers, which cuts the path with the number
// bound as any NaN does, and "undefined" joined to v for strings.
func (l *lowerer) dictAssign(x *ast.Assign, t ast.Type) []ast.Stmt {
	l.keys++
	n := strconv.Itoa(l.keys)
	last := x.Path[len(x.Path)-1]
	pos := last.Pos
	name := pathName(x.Target, x.Path[:len(x.Path)-1])
	ps := named(Leaves(t), func(f Leaf) ast.Expr { return &ast.Ident{NamePos: pos, Name: f.Name(name)} })
	key := "_key_" + n
	keyX := func() ast.Expr { return &ast.Ident{NamePos: pos, Name: key} }
	elem := t.Comp.Elem
	out := []ast.Stmt{&ast.Decl{DeclPos: pos, Name: &ast.Ident{NamePos: pos, Name: key}, Type: ast.StringType, Value: l.dictKeyString(last.Index)}}
	var write func(k int) []ast.Stmt
	var fresh []ast.Expr // a new entry's value
	if x.Op == ast.ASSIGN {
		val := "_val_" + n
		out = append(out, declLeaves(val, elem, l.vec(x.Value, elem), pos)...)
		vals := named(Leaves(elem), func(f Leaf) ast.Expr { return &ast.Ident{NamePos: pos, Name: f.Name(val)} })
		fresh = l.align(vals, elem, pos)
		write = func(k int) []ast.Stmt { return assignLeaves(name+dictValue(k), elem, dupAll(fresh), pos) }
	} else {
		val := "_val_" + n
		out = append(out, &ast.Decl{DeclPos: pos, Name: &ast.Ident{NamePos: pos, Name: val}, Type: ast.Type{Kind: elem.Kind}, Value: simplify.Expr(l.as(x.Value, elem.Kind))})
		v := &ast.Ident{NamePos: pos, Name: val}
		write = func(k int) []ast.Stmt {
			return []ast.Stmt{&ast.Assign{Target: &ast.Ident{NamePos: pos, Name: name + dictValue(k)}, OpPos: x.OpPos, Op: x.Op, Value: ast.CopyIdent(v)}}
		}
		fresh = []ast.Expr{undefinedOp(x.Op, elem.Kind, ast.CopyIdent(v), pos)}
	}
	var chain ast.Stmt = &ast.Bound{BoundPos: pos, Name: vocab.BoundKeys, Limit: int64(t.Comp.Len), Cond: &ast.BoolLit{ValuePos: pos}}
	size := below(ps, DictSize)[0].x
	for k := t.Comp.Len - 1; k >= 0; k-- {
		add := []ast.Stmt{&ast.Assign{Target: &ast.Ident{NamePos: pos, Name: name + dictKey(k)}, OpPos: pos, Op: ast.ASSIGN, Value: keyX()}}
		add = append(add, assignLeaves(name+dictValue(k), elem, dupAll(fresh), pos)...)
		add = append(add, &ast.Assign{Target: &ast.Ident{NamePos: pos, Name: name + DictSize}, OpPos: pos, Op: ast.ASSIGN, Value: &ast.IntLit{ValuePos: pos, Value: int64(k + 1)}})
		at := &ast.Binary{X: dup(size), OpPos: pos, Op: ast.EQL, Y: &ast.IntLit{ValuePos: pos, Value: int64(k)}}
		chain = &ast.If{IfPos: pos, Cond: at, Then: &ast.Block{Stmts: add}, Else: chain}
	}
	for k := t.Comp.Len - 1; k >= 0; k-- {
		chain = &ast.If{IfPos: pos, Cond: has(ps, k, keyX(), pos), Then: &ast.Block{Stmts: write(k)}, Else: chain}
	}
	return []ast.Stmt{&ast.Block{Stmts: append(out, chain)}}
}

// undefinedOp returns undefined op v, v of kind k: "undefined" joined to
// v for a string's +=, else NaN, which converting the word "undefined" to
// a number gives and the executors cut the path at (the number bound).
func undefinedOp(op ast.Token, k ast.Kind, v ast.Expr, pos source.Pos) ast.Expr {
	if k == ast.String && op == ast.ADD_ASSIGN {
		return &ast.Binary{X: &ast.StrLit{ValuePos: pos, Value: "undefined"}, OpPos: pos, Op: ast.ADD, Y: v}
	}
	fun := "parseInt"
	if k == ast.Decimal {
		fun = "Number"
	}
	return &ast.Convert{Start: pos, Fun: fun, X: &ast.StrLit{ValuePos: pos, Value: "undefined"}}
}

func dupAll(xs []ast.Expr) []ast.Expr {
	out := make([]ast.Expr, len(xs))
	for i, x := range xs {
		out[i] = dup(x)
	}
	return out
}

// intoDict lowers a write to target[k].rest, a part of a value of the
// dictionary target, which the SCXML reader has guarded so that an entry
// has the key k: the part of the value of that entry is written, by
// write, given the part's name and type.
//
//	{ string _key_N = String(k); if (0 < m.size && m.keys[0] == _key_N) { m.values[0].rest = ... } else if ... }
func (l *lowerer) intoDict(target *ast.Ident, path []*ast.Sel, write func(name string, t ast.Type) []ast.Stmt) []ast.Stmt {
	l.keys++
	t := l.typ(target)
	pos := path[0].Pos
	key := "_key_" + strconv.Itoa(l.keys)
	ps := named(Leaves(t), func(f Leaf) ast.Expr { return &ast.Ident{NamePos: pos, Name: f.Name(target.Name)} })
	rest := pathName(&ast.Ident{}, path[1:])
	tt := locType(t.Comp.Elem, path[1:])
	var chain ast.Stmt
	for k := t.Comp.Len - 1; k >= 0; k-- {
		is := has(ps, k, &ast.Ident{NamePos: pos, Name: key}, pos)
		var els ast.Stmt
		if chain != nil {
			els = chain
		}
		chain = &ast.If{IfPos: pos, Cond: simplify.Expr(is), Then: &ast.Block{Stmts: write(target.Name+dictValue(k)+rest, tt)}, Else: els}
	}
	decl := &ast.Decl{DeclPos: pos, Name: &ast.Ident{NamePos: pos, Name: key}, Type: ast.StringType, Value: l.dictKeyString(path[0].Index)}
	return []ast.Stmt{&ast.Block{Stmts: []ast.Stmt{decl, chain}}}
}
