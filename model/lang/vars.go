package lang

import (
	"maps"
	"slices"

	"github.com/setbot/setbot/model/lang/ast"
)

// Uses returns the machine variables that n reads: the identifiers read in
// expressions and the targets of compound assignments and ++/--, leaving
// out locals declared inside n. The names are sorted and unique.
func Uses(n ast.Node) []string {
	v := newVarRefs()
	v.node(n)
	return slices.Sorted(maps.Keys(v.uses))
}

// Defs returns the machine variables that n writes: the targets of
// assignments and ++/--, leaving out locals declared inside n. The names
// are sorted and unique.
func Defs(n ast.Node) []string {
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

func (v *varRefs) node(n ast.Node) {
	switch x := n.(type) {
	case ast.Expr:
		v.expr(x)
	case ast.Stmt:
		v.stmt(x)
	}
}

func (v *varRefs) expr(e ast.Expr) {
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			v.use(id.Name)
		}
		return true
	})
}

func (v *varRefs) block(b *ast.Block) {
	if b == nil {
		return
	}
	v.push()
	for _, s := range b.Stmts {
		v.stmt(s)
	}
	v.pop()
}

func (v *varRefs) stmt(s ast.Stmt) {
	switch x := s.(type) {
	case *ast.Block:
		v.block(x)
	case *ast.Assign:
		// Writing a part of a variable keeps its other parts: a use.
		if x.Op != ast.ASSIGN || len(x.Path) > 0 {
			v.use(x.Target.Name)
		}
		v.path(x.Path)
		v.expr(x.Value)
		v.def(x.Target.Name)
	case *ast.IncDec:
		v.use(x.Target.Name)
		v.path(x.Path)
		v.def(x.Target.Name)
	case *ast.ForEach:
		v.expr(x.Array)
		if x.Cond != nil {
			v.expr(x.Cond)
		}
		v.def(x.Item.Name)
		if x.Index != nil {
			v.def(x.Index.Name)
		}
		v.block(x.Body)
	case *ast.Decl:
		if x.Value != nil {
			v.expr(x.Value)
		}
		v.scopes[len(v.scopes)-1][x.Name.Name] = true
	case *ast.If:
		v.expr(x.Cond)
		v.block(x.Then)
		if x.Else != nil {
			v.stmt(x.Else)
		}
	case *ast.While:
		v.expr(x.Cond)
		v.block(x.Body)
	case *ast.For:
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
	case *ast.Raise:
		v.args(x.Args)
	case *ast.Send:
		v.args(x.Args)
	case *ast.Cancel:
	case *ast.Assume:
		v.expr(x.Cond)
	case *ast.Bound:
		v.expr(x.Cond)
	}
}

func (v *varRefs) path(path []*ast.Sel) {
	for _, s := range path {
		if s.Index != nil {
			v.expr(s.Index)
		}
	}
}

func (v *varRefs) args(args []*ast.Arg) {
	for _, a := range args {
		v.expr(a.Value)
	}
}
