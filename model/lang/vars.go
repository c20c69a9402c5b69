package lang

import (
	"maps"
	"slices"
)

// Uses returns the machine variables that n reads: the identifiers read in
// expressions and the targets of compound assignments and ++/--, leaving
// out locals declared inside n. The names are sorted and unique.
func Uses(n Node) []string {
	v := newVarRefs()
	v.node(n)
	return slices.Sorted(maps.Keys(v.uses))
}

// Defs returns the machine variables that n writes: the targets of
// assignments and ++/--, leaving out locals declared inside n. The names
// are sorted and unique.
func Defs(n Node) []string {
	v := newVarRefs()
	v.node(n)
	return slices.Sorted(maps.Keys(v.defs))
}

// varRefs collects variable references, tracking the scopes of locals as
// the checker does: a local is visible from its declaration to the end of
// its block.
type varRefs struct {
	scopes     []map[string]bool
	uses, defs map[string]bool
}

func newVarRefs() *varRefs {
	v := &varRefs{uses: make(map[string]bool), defs: make(map[string]bool)}
	v.push() // n itself is a scope: a lone declaration declares a local of n
	return v
}

func (v *varRefs) isLocal(name string) bool {
	for _, s := range v.scopes {
		if s[name] {
			return true
		}
	}
	return false
}

func (v *varRefs) push() { v.scopes = append(v.scopes, make(map[string]bool)) }
func (v *varRefs) pop()  { v.scopes = v.scopes[:len(v.scopes)-1] }

func (v *varRefs) use(name string) {
	if !v.isLocal(name) {
		v.uses[name] = true
	}
}

func (v *varRefs) def(name string) {
	if !v.isLocal(name) {
		v.defs[name] = true
	}
}

func (v *varRefs) node(n Node) {
	switch x := n.(type) {
	case Expr:
		v.expr(x)
	case Stmt:
		v.stmt(x)
	}
}

func (v *varRefs) expr(e Expr) {
	Inspect(e, func(n Node) bool {
		if id, ok := n.(*Ident); ok {
			v.use(id.Name)
		}
		return true
	})
}

func (v *varRefs) block(b *Block) {
	if b == nil {
		return
	}
	v.push()
	for _, s := range b.Stmts {
		v.stmt(s)
	}
	v.pop()
}

func (v *varRefs) stmt(s Stmt) {
	switch x := s.(type) {
	case *Block:
		v.block(x)
	case *Assign:
		// Writing a part of a variable keeps its other parts: a use.
		if x.Op != ASSIGN || len(x.Path) > 0 {
			v.use(x.Target.Name)
		}
		v.path(x.Path)
		v.expr(x.Value)
		v.def(x.Target.Name)
	case *IncDec:
		v.use(x.Target.Name)
		v.path(x.Path)
		v.def(x.Target.Name)
	case *ForEach:
		v.expr(x.Array)
		if x.Cond != nil {
			v.expr(x.Cond)
		}
		v.def(x.Item.Name)
		if x.Index != nil {
			v.def(x.Index.Name)
		}
		v.block(x.Body)
	case *Decl:
		if x.Value != nil {
			v.expr(x.Value)
		}
		v.scopes[len(v.scopes)-1][x.Name.Name] = true
	case *If:
		v.expr(x.Cond)
		v.block(x.Then)
		if x.Else != nil {
			v.stmt(x.Else)
		}
	case *While:
		v.expr(x.Cond)
		v.block(x.Body)
	case *For:
		v.push()
		if x.Init != nil {
			v.stmt(x.Init)
		}
		if x.Cond != nil {
			v.expr(x.Cond)
		}
		if x.Post != nil {
			v.stmt(x.Post)
		}
		v.block(x.Body)
		v.pop()
	case *Raise:
		v.args(x.Args)
	case *Send:
		v.args(x.Args)
	case *Cancel:
	case *Assume:
		v.expr(x.Cond)
	case *Bound:
		v.expr(x.Cond)
	}
}

func (v *varRefs) path(path []*Sel) {
	for _, s := range path {
		if s.Index != nil {
			v.expr(s.Index)
		}
	}
}

func (v *varRefs) args(args []*Arg) {
	for _, a := range args {
		v.expr(a.Value)
	}
}
