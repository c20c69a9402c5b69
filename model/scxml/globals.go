package scxml

import (
	"sort"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"
)

// ECMAScript creates a global on assignment to a name that nothing
// declares, and a var at the top of a <script> declares a global, which
// other code of the model reads (SCXML §B.2 runs every script in the
// data model's global scope). declareGlobals makes each such name a
// variable of the data model that starts undefined, as <data id="z"/>
// does: reads after the first assignment are ECMAScript's; a read before
// it is undefined here where ECMAScript raises a ReferenceError (README,
// "Assignment to an undeclared name").

// pieceNames are the names one piece of code declares as locals and those
// it reads or assigns.
type pieceNames struct {
	locals, used map[string]bool
	assigned     map[string]source.Pos // the first assignment's position
}

func namesOf(c code) pieceNames {
	p := pieceNames{locals: map[string]bool{}, used: map[string]bool{}, assigned: map[string]source.Pos{}}
	assign := func(x *ast.Ident) {
		if _, ok := p.assigned[x.Name]; !ok {
			p.assigned[x.Name] = x.NamePos
		}
	}
	visit := func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.Ident:
			p.used[s.Name] = true
		case *ast.Assign:
			// z.f = 1, z += 1 and z++ read z first: a ReferenceError
			// where nothing binds z, never a global.
			if len(s.Path) == 0 && s.Op == ast.ASSIGN {
				assign(s.Target)
			}
		case *ast.Decl:
			p.locals[s.Name.Name] = true
		case *ast.ForEach:
			p.locals[s.Item.Name] = true
			if s.Index != nil {
				p.locals[s.Index.Name] = true
			}
		}
		return true
	}
	if c.cond != nil {
		ast.Inspect(c.cond, visit)
	}
	if c.body != nil {
		ast.Inspect(c.body, visit)
	}
	return p
}

// declareGlobals declares the globals of names assigned where nothing
// declares them, and turns a top-level "var x = e" of a piece whose x
// other code reads or assigns without declaring it into an assignment to
// the global x.
func (dc *declarer) declareGlobals(all []code) {
	known := func(name string) bool {
		_, fn := dc.funcs[name]
		_, ext := dc.externals[name]
		return dc.m.Var(name) != nil || fn || ext || ecmaGlobals[name] || name == "_"
	}
	names := make([]pieceNames, len(all))
	for i, c := range all {
		names[i] = namesOf(c)
	}
	// freeIn[x]: some piece reads or assigns x without declaring it.
	freeIn := make(map[string]bool)
	for _, p := range names {
		for x := range p.used {
			freeIn[x] = freeIn[x] || !p.locals[x]
		}
	}
	globals := make(map[string]source.Pos)
	for i, c := range all {
		for x, pos := range names[i].assigned {
			if _, ok := globals[x]; !ok && !names[i].locals[x] && !known(x) {
				globals[x] = pos
			}
		}
		if c.body != nil {
			globalVars(c.body, func(name string) bool { return !known(name) && freeIn[name] }, globals)
		}
	}
	order := make([]string, 0, len(globals))
	for x := range globals {
		order = append(order, x)
	}
	sort.Strings(order)
	for _, x := range order {
		pos := globals[x]
		dc.m.Vars = append(dc.m.Vars, &model.Var{Name: x, Pos: pos, Type: ast.UndefType, Init: &ast.Absent{ValuePos: pos}})
		// Not a claim setbot can back: a read before the first assignment
		// is a ReferenceError in ECMAScript (error.execution in SCXML),
		// and here it reads undefined. The user is told, not left to trust it.
		dc.warns.Add(dc.fset.Position(pos), "%s is assigned but declared nowhere: setbot makes it a global that starts undefined, as <data id=%q/> does; "+
			"ECMAScript raises error.execution where it is read before its first assignment, which setbot does not model: declare it to say what you mean", x, x)
	}
}

// globalVars turns each top-level "var x = e" of body whose x global says
// is a global into an assignment to it, and records in globals where the
// first of each is.
func globalVars(body *ast.Block, global func(name string) bool, globals map[string]source.Pos) {
	for j, s := range body.Stmts {
		d, ok := s.(*ast.Decl)
		if !ok || d.Type.Kind != ast.Invalid || d.Value == nil || !global(d.Name.Name) {
			continue
		}
		body.Stmts[j] = &ast.Assign{Target: d.Name, OpPos: d.DeclPos, Op: ast.ASSIGN, Value: d.Value}
		if _, ok := globals[d.Name.Name]; !ok {
			globals[d.Name.Name] = d.Name.NamePos
		}
	}
}
