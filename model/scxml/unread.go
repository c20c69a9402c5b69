package scxml

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"
)

// A <data> value gives a variable its kind, but where nothing can ever
// read that value (the code assigns the variable before every read of it),
// its kind does not count: W3C tests start a variable at 27 and assign it
// a string before the one send that reads it. Such a variable is read as
// one declared without a value (undefined, which nothing reads, until
// assigned), and its kind is the kind the code assigns (inferVarTypes).
// Where the reader cannot prove that the value is never read, the variable
// holds both kinds (lang.Mixed, inferVarTypes), and where one of them is
// an array or an object, that is an error that names both places
// (reportMixedKinds).

// mixed is an assignment of a value of another kind than the kind of the
// variable's <data> value.
type mixed struct {
	v     *model.Var
	value ast.Expr
	kind  ast.Kind
}

// mixedKinds returns the assignments, in document order, of a whole
// variable whose type its <data> value gives (without setbot:type) of a
// value of another kind; an int and a decimal are one kind (numbers).
func (ck *checker) mixedKinds(all []code, env func(code) *lang.Env) []mixed {
	if len(ck.inits) == 0 {
		return nil
	}
	var out []mixed
	for _, c := range all {
		if !ast.Any(c.body, ck.assignsInitialised) {
			continue
		}
		info, _ := lang.CheckBlock(env(c), ck.fset, c.body)
		locals := make(map[string]bool) // an assignment to a local of the same name is the local's
		ast.Inspect(c.body, func(n ast.Node) bool {
			if d, ok := n.(*ast.Decl); ok {
				locals[d.Name.Name] = true
			}
			return true
		})
		ast.Inspect(c.body, func(n ast.Node) bool {
			a, ok := n.(*ast.Assign)
			if !ok || a.Op != ast.ASSIGN || len(a.Path) > 0 || locals[a.Target.Name] || ck.annotated[a.Target.Name] {
				return true
			}
			v := ck.m.Var(a.Target.Name)
			if _, ok := ck.inits[a.Target.Name]; !ok || v == nil {
				return true
			}
			k, vk := info.Types[a.Value].Kind, v.Type.Kind
			if k == ast.Invalid || k == ast.Undef || k == vk || k.IsNumber() && vk.IsNumber() || vk == ast.Mixed && lang.Assignable(v.Type, ast.Type{Kind: k}) == "" {
				return true
			}
			out = append(out, mixed{v, a.Value, k})
			return true
		})
	}
	return out
}

// assignsInitialised reports whether n assigns a whole variable whose
// type its <data> value gives: an assignment mixedKinds looks at.
func (ck *checker) assignsInitialised(n ast.Node) bool {
	a, ok := n.(*ast.Assign)
	if !ok || a.Op != ast.ASSIGN || len(a.Path) > 0 || ck.annotated[a.Target.Name] {
		return false
	}
	_, ok = ck.inits[a.Target.Name]
	return ok && ck.m.Var(a.Target.Name) != nil
}

// dropUnreadInits makes every variable that the code assigns a value of
// another kind than its <data> value's, where that value is a constant
// that nothing can read (initRead), a variable declared without a value:
// undefined, of the kind the code gives it. It reports whether it changed
// any.
func (ck *checker) dropUnreadInits(all []code, env func(code) *lang.Env, vars map[string]ast.Type) bool {
	changed := false
	for _, x := range ck.mixedKinds(all, env) {
		init, ok := ck.inits[x.v.Name]
		if !ok || !init.fixed || ck.initRead(all, x.v.Name).IsValid() {
			continue
		}
		delete(ck.inits, x.v.Name)
		x.v.Type = ast.UndefType
		x.v.Init = &ast.Absent{ValuePos: init.pos}
		vars[x.v.Name] = x.v.Type
		changed = true
	}
	return changed
}

// reportMixedKinds reports every assignment that gives a variable a value
// of another kind than its <data> value's, naming both places. The
// checker's own error at the assignment is then not reported again.
func (ck *checker) reportMixedKinds(all []code, env func(code) *lang.Env) {
	seen := make(map[source.Pos]bool)
	for _, x := range ck.mixedKinds(all, env) {
		if seen[x.value.Pos()] {
			continue
		}
		seen[x.value.Pos()] = true
		name, init := x.v.Name, ck.inits[x.v.Name]
		hint := "use one variable per kind"
		if init.fixed {
			hint += ", or assign " + name + " before every read of it in the same block, so that no read can see its initial value"
			if p := ck.initRead(all, name); p.IsValid() {
				hint += " (the read at " + ck.fset.Position(p).String() + " may see it)"
			}
		}
		ck.errs.Add(ck.fset.Position(x.value.Pos()), "%s is given a value of kind %s here, and its initial value at %s is %s: a variable may hold values of several kinds, but not arrays or objects among them; %s",
			name, x.kind, ck.fset.Position(init.pos), x.v.Type.Kind, hint)
	}
}

// initRead returns the first place where the initial value of variable
// name may be read, or NoPos when none can be: no <data> value and no
// guard reads it, and in every block a read follows an assignment of the
// whole variable (whose value does not read it) in the same block or an
// enclosing one, before the read. A read inside a loop other than a
// <foreach> (whose body is a block of its own), or a local of the same
// name, counts as one that may see it.
func (ck *checker) initRead(all []code, name string) source.Pos {
	if p := ck.dataReads[name]; p.IsValid() {
		return p
	}
	for _, c := range all {
		if c.cond != nil {
			if p := readPos(c.cond, name); p.IsValid() {
				return p
			}
		}
		if p := firstRead(c.body.Stmts, name); p.IsValid() {
			return p
		}
	}
	return source.NoPos
}

// firstRead returns the first read of name in stmts that no assignment of
// the whole variable in stmts precedes, or NoPos.
func firstRead(stmts []ast.Stmt, name string) source.Pos {
	for _, s := range stmts {
		var p source.Pos
		switch x := s.(type) {
		case *ast.Assign:
			if x.Op == ast.ASSIGN && len(x.Path) == 0 && x.Target.Name == name {
				// What follows reads the value assigned here.
				return readPos(x.Value, name)
			}
			p = readPos(x, name)
		case *ast.If:
			if p = readPos(x.Cond, name); !p.IsValid() {
				p = firstRead(x.Then.Stmts, name)
			}
			if !p.IsValid() && x.Else != nil {
				p = firstRead([]ast.Stmt{x.Else}, name)
			}
		case *ast.Block:
			p = firstRead(x.Stmts, name)
		case *ast.ForEach:
			if p = readPos(x.Array, name); !p.IsValid() && x.Cond != nil {
				p = readPos(x.Cond, name)
			}
			if !p.IsValid() {
				p = firstRead(x.Body.Stmts, name)
			}
		default:
			p = readPos(s, name)
		}
		if p.IsValid() {
			return p
		}
	}
	return source.NoPos
}

// readPos returns the first place in n that reads name, or declares a
// local of that name, or NoPos. Assigning the whole variable, or the item
// or index of a <foreach>, is no read.
func readPos(n ast.Node, name string) source.Pos {
	p := source.NoPos
	var visit func(ast.Node) bool
	visit = func(n ast.Node) bool {
		if p.IsValid() {
			return false
		}
		switch x := n.(type) {
		case *ast.Ident:
			if x.Name == name {
				p = x.NamePos
			}
		case *ast.Decl:
			if x.Name.Name == name {
				p = x.DeclPos
				return false
			}
		case *ast.Assign:
			if x.Op == ast.ASSIGN && len(x.Path) == 0 && x.Target.Name == name {
				ast.Inspect(x.Value, visit)
				return false
			}
		case *ast.ForEach:
			ast.Inspect(x.Array, visit)
			if x.Cond != nil {
				ast.Inspect(x.Cond, visit)
			}
			ast.Inspect(x.Body, visit)
			return false
		}
		return true
	}
	ast.Inspect(n, visit)
	return p
}
