package scxml

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/simplify"
	"github.com/setbot/setbot/model/source"
)

// initValue is where the <data> value of a variable is, and whether it is
// fixed: a constant the variable holds when the machine starts (not one
// computed then, nor bound late).
type initValue struct {
	pos   source.Pos
	fixed bool
}

// dataFacts is what reading the <data> elements (readData) gives the
// checker besides the variables.
type dataFacts struct {
	// dataInfos are what the rules for decimals and sharing take in of
	// the checker's results for the <data> values (modelFacts), with the
	// code's.
	dataInfos []*lang.Info
	// annotated holds the variables whose type a setbot:type gives.
	annotated map[string]bool
	// inits holds the <data> value of every variable whose type that
	// value gives (setbot:type aside); dataReads the variables the <data>
	// values read, each with the first place (dropUnreadInits).
	inits     map[string]initValue
	dataReads map[string]source.Pos
	// hostInits are the variables, in document order, whose <data>
	// value calls the host, assigned when the machine starts (hostInit,
	// hostInitTypes).
	hostInits []string
	// dataHosts are the host functions the <data> values call whose
	// type ECMAScript fixes (Date.now()), which the inliner has made
	// black boxes already (inlineCalls takes them).
	dataHosts map[string]*lower.HostFunction
}

// dataElem is a <data> element and the state whose <datamodel> holds it
// (the root for the <datamodel> of <scxml>).
type dataElem struct {
	el    *element
	state *model.State
}

func (b *builder) varTypes() map[string]ast.Type { return varTypes(b.m) }

// dataType applies a <data>'s setbot:type to its variable v (known: v.Init
// is its value, not a placeholder for one computed later), and reports
// false after an error.
func (b *builder) dataType(d *element, v *model.Var, known bool) bool {
	name := v.Name
	a, ok := b.setbotAttr(d, "type")
	if !ok {
		return true
	}
	b.annotated[name] = true
	typ, err := ast.ParseType(a.Value)
	if err != nil {
		b.errorf(a.Offsets0(), "%v", err)
		return false
	}
	switch {
	case v.Type.Kind == ast.Undef && typ.IsComposite():
		b.errorf(a.Offsets0(), "variable %q of type %s has no initial value, and an array or object that may be undefined is not modelled: give it one, e.g. expr=\"[]\"", name, typ)
		return false
	case v.Type.Kind == ast.Undef:
		typ = typ.OrAbsent()
	case typ.Kind == ast.Decimal && v.Type.Kind == ast.Int:
		// An int initial value of a decimal: the decimal of its value.
		if !known {
			v.Init = lower.ZeroValue(ast.Decimal, v.Init.Pos())
		} else {
			v.Init = simplify.Expr(&ast.ToDecimal{Start: v.Init.Pos(), X: v.Init})
		}
	case typ.Kind == ast.Mixed:
		if msg := lang.Assignable(typ, v.Type); msg != "" {
			b.errorf(a.Offsets0(), "variable %q is declared %s, which cannot hold its initial value: %s", name, typ, msg)
			return false
		}
	case typ.Kind != v.Type.Kind:
		b.errorf(a.Offsets0(), "variable %q is declared %s but its initial value is %s: give it an initial value of type %s, or none (it is then undefined until assigned)", name, typ, v.Type, typ.Kind)
		return false
	case typ.IsComposite():
		if msg := lang.Assignable(typ, v.Type); msg != "" {
			b.errorf(a.Offsets0(), "variable %q is declared %s, which cannot hold its initial value: %s", name, typ, msg)
			return false
		}
	}
	if known && !b.initInRange(a, v, typ) {
		return false
	}
	if v.Type.MayBeAbsent() {
		typ = typ.OrAbsent()
	}
	v.Type = typ
	return true
}

// initInRange reports whether the initial value of v, a constant, is
// within typ, the type its setbot:type a gives; it reports an error where
// it is not.
func (b *builder) initInRange(a attribute, v *model.Var, typ ast.Type) bool {
	if lit, ok := v.Init.(*ast.IntLit); ok && typ.Kind == ast.Int && !typ.Contains(lit.Value) {
		b.errorf(a.Offsets0(), "initial value %d of %q is outside %s", lit.Value, v.Name, typ)
		return false
	}
	if lit, ok := v.Init.(*ast.DecLit); ok && typ.Kind == ast.Decimal && !typ.ContainsDecimal(lit.Value) {
		b.errorf(a.Offsets0(), "initial value %s of %q is outside %s", ast.DecimalText(lit), v.Name, typ)
		return false
	}
	return true
}

// dataSrc reads the value of a <data src> (nil after an error): the file
// holds it, read as an expression, as the content of a <data> is.
func (b *builder) dataSrc(d *element, a attribute) ast.Expr {
	if _, has := d.attr("expr"); has || strings.TrimSpace(d.content().Value) != "" {
		b.errorf(a.NameOff, "<data> with src and a value: keep one")
		return nil
	}
	f, text := b.src(a, "<data src>")
	if f == nil {
		return nil
	}
	e, errs := b.dataContent(parser.NewSnippet(f, text))
	b.errs = append(b.errs, errs...)
	if len(errs) > 0 {
		return nil
	}
	return e
}

// noExpr warns of a <data> expr that is no expression (word is what it
// begins with; an empty expr is no expression either, SCXML §5.3) and
// returns what stands for its value: the variable stays undefined, and
// error.execution is raised where it would have been given its value.
func (b *builder) noExpr(a attribute, word, name string, bindLate bool) ast.Stmt {
	when := "when the machine starts"
	if bindLate {
		when = "when its state is first entered"
	}
	what := fmt.Sprintf("(it begins with %s)", word)
	if strings.TrimSpace(a.Value) == "" {
		what = "(it is empty; omit expr for a variable that starts undefined)"
	}
	b.warnf(a.Offsets0(), "<data> expr %q is no ECMAScript expression %s: setbot leaves %s undefined and raises %s "+
		"%s, as the SCXML specification requires", strings.TrimSpace(a.Value), what, name, model.ErrorExecution, when)
	return &ast.Raise{RaisePos: b.pos(a.Offsets0()), Event: model.ErrorExecution, Platform: true}
}

// readData reads every <data> element. Binding is early by default: every
// variable is initialised before the machine starts, in document order. A
// <data> without a value holds undefined until assigned; one whose value is
// a constant starts with it, and any other value (one that reads a
// variable set at run time, or a system variable, say) is computed by an
// assignment that runs first when the machine starts, before the top-level
// <script>.
//
// With binding="late" the <data> of a state other than <scxml> holds
// undefined until that state is first entered, when its value is assigned,
// before the state's <onentry> and in document order (SCXML §5.3); later
// entries assign nothing (bindLate). A <data> without a value is then
// assigned undefined.
func (b *builder) readData() {
	db := &dataBinds{late: make(map[*model.State][]ast.Stmt), runtime: make(map[string]bool)}
	for _, de := range b.data {
		b.readDatum(db, de)
	}
	if len(db.inits) > 0 && b.m.Root.Initial != nil {
		init := b.m.Root.Initial
		init.Body = &ast.Block{Lbrace: init.Body.Lbrace, Stmts: append(db.inits, init.Body.Stmts...)}
	}
	for _, s := range db.lateStates {
		b.bindLate(s, db.late[s])
	}
}

// dataBinds collects the bindings of the <data> elements as readData
// reads them.
type dataBinds struct {
	inits      []ast.Stmt                  // run first when the machine starts
	late       map[*model.State][]ast.Stmt // the bindings of each state's <data>, with binding="late"
	lateStates []*model.State              // document order
	runtime    map[string]bool             // variables whose initial value is computed
}

// bind adds s to the bindings of de: when the machine starts, or when
// its state is first entered if it is bound late.
func (db *dataBinds) bind(de dataElem, bindLate bool, s ast.Stmt) {
	if !bindLate {
		db.inits = append(db.inits, s)
		return
	}
	if db.late[de.state] == nil {
		db.lateStates = append(db.lateStates, de.state)
	}
	db.late[de.state] = append(db.late[de.state], s)
}

// readDatum reads one <data> element (see readData) and declares its
// variable.
func (b *builder) readDatum(db *dataBinds, de dataElem) {
	d := de.el
	bindLate := b.late && de.state.Kind != model.Root
	b.checkAttrs(d, "id", "expr", "src", "setbot:type")
	id, ok := d.attr("id")
	if !ok || !isIdent(strings.TrimSpace(id.Value)) {
		b.errorf(d.Start, "<data> needs an id that is an identifier")
		return
	}
	name := strings.TrimSpace(id.Value)
	if b.m.Var(name) != nil {
		b.errorf(id.Offsets0(), "variable %q declared twice", name)
		return
	}
	if b.dataFunction(d, name, id) {
		return
	}
	init, ok := b.dataInit(db, de, name, bindLate)
	if !ok {
		return
	}
	v := &model.Var{Name: name, Pos: b.pos(id.Offsets0()), Type: ast.UndefType, Init: &ast.Absent{ValuePos: b.pos(d.Start)}}
	known := true // v.Init is the value, not a placeholder for one computed later
	if init != nil && b.callsHost(init) {
		// A host's value (new Date(), d.getFullYear()): computed when
		// the machine starts, by an assignment, whose value the phases
		// after reading type (dateVars, inlineCalls), as they do the
		// code's; until then the variable is one without a value.
		known = false
		b.hostInit(db, v, init, bindLate)
	} else if init != nil {
		if known, ok = b.dataValue(db, v, init, bindLate); !ok {
			return
		}
	}
	if !b.dataType(d, v, known) {
		return
	}
	if bindLate && !b.dataBindLate(db, de, v, init) {
		return
	}
	b.m.Vars = append(b.m.Vars, v)
}

// dataInit reads the value of a <data> named name, from its src, its
// expr or its content, with the calls in it inlined: nil for none; false
// where it is wrong.
func (b *builder) dataInit(db *dataBinds, de dataElem, name string, bindLate bool) (ast.Expr, bool) {
	d := de.el
	var init ast.Expr
	if a, ok := d.attr("src"); ok {
		if init = b.dataSrc(d, a); init == nil {
			return nil, false
		}
	} else if a, ok := d.attr("expr"); ok {
		if word, bad := parser.IllegalExpr(a.Value); bad || strings.TrimSpace(a.Value) == "" {
			db.bind(de, bindLate, b.noExpr(a, word, name, bindLate))
		} else if init = b.expr(a); init == nil {
			return nil, false
		}
	} else if t := d.content(); strings.TrimSpace(t.Value) != "" {
		e, errs := b.dataContent(b.snippet(t.Value, t.Offsets))
		b.errs = append(b.errs, errs...)
		if len(errs) > 0 {
			return nil, false
		}
		init = e
	}
	if init != nil && lower.HasCalls(init) {
		// Script functions and built-ins are inlined as everywhere;
		// a black box's call is left for the checker to refuse (an
		// initial value is computed before any input).
		in := &lower.Inliner{Funcs: b.funcs, Fset: b.fset, Depth: b.opts.CallDepth}
		e, over := in.Expr(init)
		b.errs = append(b.errs, in.Errs...)
		for name, h := range in.Hosts { // whose type ECMAScript fixes (Date.now())
			if b.dataHosts == nil {
				b.dataHosts = make(map[string]*lower.HostFunction)
			}
			if b.dataHosts[name] == nil {
				b.dataHosts[name] = h
			}
		}
		if over != nil {
			b.errorf(d.Start, "<data id=%q> calls functions nested deeper than %d: compute the value in a <script>", name, in.Limit())
			return nil, false
		}
		init = e
	}
	return init, true
}

// dataValue type-checks the value init of variable v and gives v its
// type and initial value: the value itself where it is a constant, else
// a placeholder, the value being assigned when the machine starts (or
// its state is entered, if bound late). known reports that v.Init is the
// value; false where init is wrong.
func (b *builder) dataValue(db *dataBinds, v *model.Var, init ast.Expr, bindLate bool) (known, ok bool) {
	name := v.Name
	info, errs := lang.CheckExpr(&lang.Env{Vars: b.varTypes()}, b.fset, init, ast.Invalid)
	b.errs = append(b.errs, errs...)
	vet(b.diag, b.jexl, init, info, false)
	info.ShareInit(name, init, init.Pos())
	b.dataInfos = append(b.dataInfos, modelFacts(info))
	if len(errs) > 0 {
		return false, false
	}
	v.Type = info.Types[init]
	b.inits[name] = initValue{pos: init.Pos(), fixed: !bindLate}
	ast.Inspect(init, func(n ast.Node) bool {
		if x, ok := n.(*ast.Ident); ok && !b.dataReads[x.Name].IsValid() {
			b.dataReads[x.Name] = x.NamePos
		}
		return true
	})
	known = true
	if bindLate {
		// Assigned when the state is entered, from the values
		// of that moment: no other <data> folds it. Init is
		// the value only for the checks of setbot:type below.
		db.runtime[name] = true
		v.Init, known = lower.ZeroValue(v.Type.Kind, init.Pos()), false
		if len(lang.Uses(init)) == 0 {
			if c := simplify.Expr(init); isConstant(c) {
				v.Init, known = c, true
			}
		}
	} else if c := b.constant(init, db.runtime); c != nil {
		v.Init = c
	} else {
		db.runtime[name], known = true, false
		b.inits[name] = initValue{pos: init.Pos()}
		if !v.Type.MayBeAbsent() && !v.Type.IsComposite() {
			v.Init = lower.ZeroValue(v.Type.Kind, init.Pos())
		}
		db.inits = append(db.inits, &ast.Assign{Target: &ast.Ident{NamePos: v.Pos, Name: name}, OpPos: v.Pos, Op: ast.ASSIGN, Value: init})
	}
	return known, true
}

// callsHost reports whether e calls a function of the host's: one the
// model neither declares in a <script> nor with setbot:function.
func (b *builder) callsHost(e ast.Expr) bool {
	return ast.Any(e, func(n ast.Node) bool {
		switch c := n.(type) {
		case *ast.Call:
			return b.funcs[c.Fun] == nil && b.externals[c.Fun] == nil && parser.IsHostFunction(c.Fun)
		case *ast.External:
			return b.dataHosts[c.Fun] != nil
		}
		return false
	})
}

// hostInit makes init, a value that calls the host, the value of v's
// <data>: assigned when the machine starts, first of all (or when its
// state is first entered, bound late: dataBindLate assigns it).
func (b *builder) hostInit(db *dataBinds, v *model.Var, init ast.Expr, bindLate bool) {
	ast.Inspect(init, func(n ast.Node) bool {
		if x, ok := n.(*ast.Ident); ok && !b.dataReads[x.Name].IsValid() {
			b.dataReads[x.Name] = x.NamePos
		}
		return true
	})
	if bindLate {
		return
	}
	db.runtime[v.Name] = true
	b.hostInits = append(b.hostInits, v.Name)
	db.inits = append(db.inits, &ast.Assign{Target: &ast.Ident{NamePos: v.Pos, Name: v.Name}, OpPos: v.Pos, Op: ast.ASSIGN, Value: init})
}

// hostInitTypes is the phase after inlineCalls that gives each variable
// of vars (hostInits) the type of its <data> value, now that its calls of
// the host are typed: until the assignment that computes it, first when
// the machine starts, the variable holds a placeholder of that type, as
// one whose value is computed at start does (dataValue), not undefined,
// which nothing can read. A value of no scalar type leaves the variable
// one without a value, which the assignment types.
func hostInitTypes(d *diag, m *model.Model, vars []string) {
	if len(vars) == 0 || m.Root.Initial == nil {
		return
	}
	env := &lang.Env{Vars: varTypes(m)}
	for _, name := range vars {
		v := m.Var(name)
		for _, s := range m.Root.Initial.Body.Stmts {
			a, ok := s.(*ast.Assign)
			if !ok || a.Target.Name != name || len(a.Path) > 0 {
				continue
			}
			info, errs := lang.CheckExpr(env, d.fset, a.Value, ast.Invalid)
			if t := info.Types[a.Value]; len(errs) == 0 && (t.Kind == ast.Int || t.Kind == ast.Decimal || t.Kind == ast.Bool || t.Kind == ast.String) {
				v.Type, v.Init = t, lower.ZeroValue(t.Kind, v.Init.Pos())
				env.Vars[name] = t
			}
			break
		}
	}
}

// dataBindLate makes variable v of a <data> bound late undefined until
// its state is first entered, when init (nil for none) is assigned to it;
// false where v cannot be bound late.
func (b *builder) dataBindLate(db *dataBinds, de dataElem, v *model.Var, init ast.Expr) bool {
	d := de.el
	if v.Type.IsComposite() {
		b.errorf(d.Start, "%s is bound late, so it is undefined until its state is entered, and an array or object that may be undefined is not modelled: "+
			"move its <data> into the <datamodel> of <scxml>, which is bound when the machine starts", v.Name)
		return false
	}
	if v.Type.Kind != ast.Undef {
		v.Type = v.Type.OrAbsent()
	}
	v.Init = &ast.Absent{ValuePos: b.pos(d.Start)}
	if init == nil {
		init = &ast.Absent{ValuePos: b.pos(d.Start)} // no value: undefined
	}
	db.bind(de, true, &ast.Assign{Target: &ast.Ident{NamePos: v.Pos, Name: v.Name}, OpPos: v.Pos, Op: ast.ASSIGN, Value: init})
	return true
}

// bindLate makes the first entry of s run binds, the assignments of its
// <data> with binding="late", before its <onentry>: a hidden bool variable
// (SCXML reserves names that start with an underscore for the platform)
// records that s has been entered, and the flattener, the simulator and
// the interpreter all run the one block
//
//	if (!_bound_s) { _bound_s = true; x = 1; ... }
//
// The flag is set first, so that an error in a value, which skips the rest
// of the block, does not bind the state's data again on the next entry.
func (b *builder) bindLate(s *model.State, binds []ast.Stmt) {
	base := "_bound_" + s.ID
	if !isIdent(base) {
		base = "_bound_" + strings.Map(func(r rune) rune {
			if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, s.ID)
	}
	name := base
	for i := 2; b.m.Var(name) != nil || b.declared[name]; i++ {
		name = base + "_" + strconv.Itoa(i)
	}
	b.m.Vars = append(b.m.Vars, &model.Var{Name: name, Pos: s.Pos, Type: ast.BoolType, Init: &ast.BoolLit{ValuePos: s.Pos}})
	flag := func() *ast.Ident { return &ast.Ident{NamePos: s.Pos, Name: name} }
	set := &ast.Assign{Target: flag(), OpPos: s.Pos, Op: ast.ASSIGN, Value: &ast.BoolLit{ValuePos: s.Pos, Value: true}}
	first := &ast.If{IfPos: s.Pos, Cond: &ast.Unary{OpPos: s.Pos, Op: ast.NOT, X: flag()},
		Then: &ast.Block{Lbrace: s.Pos, Stmts: append([]ast.Stmt{set}, binds...)}}
	s.OnEntry = append([]*ast.Block{{Lbrace: s.Pos, Stmts: []ast.Stmt{first}}}, s.OnEntry...)
}

// constant folds e, with earlier variables replaced by their initial values,
// to a literal; nil when it does not fold, or reads a variable whose
// initial value is computed when the machine starts.
func (b *builder) constant(e ast.Expr, runtime map[string]bool) ast.Expr {
	folds := true
	e = ast.RewriteExpr(e, func(x ast.Expr) ast.Expr {
		switch x := x.(type) {
		case *ast.Ident:
			if v := b.m.Var(x.Name); v != nil && !runtime[x.Name] {
				return v.Init
			}
			folds = false
		case *ast.SysVar, *ast.EventField, *ast.EventParam:
			folds = false
		}
		return x
	})
	if !folds {
		return nil
	}
	if x := simplify.Expr(e); isConstant(x) {
		return x
	}
	return nil
}

// isConstant reports whether e is a literal, or an array or object literal
// of such.
func isConstant(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.IntLit, *ast.DecLit, *ast.BoolLit, *ast.StrLit, *ast.Absent:
		return true
	case *ast.ArrayLit:
		for _, el := range x.Elems {
			if !isConstant(el) {
				return false
			}
		}
		return true
	case *ast.ObjectLit:
		for _, f := range x.Fields {
			if !isConstant(f.Value) {
				return false
			}
		}
		return true
	}
	return false
}

// scriptVars (which runs before readData, whose start-up code comes first)
// makes each top-level "var x = e" (or let) of the top-level
// <script> that names no <data> a variable of the data model, as
// ECMAScript's global scope does: it is undefined until the script assigns
// it, when the machine starts.
func (b *builder) scriptVars() {
	if b.script == nil {
		return
	}
	for i, s := range b.script.Stmts {
		d, ok := s.(*ast.Decl)
		if !ok || d.Type.Kind != ast.Invalid || d.Value == nil || b.declared[d.Name.Name] {
			continue
		}
		b.declared[d.Name.Name] = true
		b.m.Vars = append(b.m.Vars, &model.Var{Name: d.Name.Name, Pos: d.Name.NamePos, Type: ast.UndefType, Init: &ast.Absent{ValuePos: d.DeclPos}})
		b.script.Stmts[i] = &ast.Assign{Target: d.Name, OpPos: d.DeclPos, Op: ast.ASSIGN, Value: d.Value}
	}
}

// declare records the id of every <data> in the document, before any code
// is read: whether a location names something of the data model does not
// depend on where the code sits.
func (b *builder) declare(el *element) {
	for _, c := range el.Children {
		if !isSCXML(c.Name.Space) || c.Name.Local == "invoke" {
			continue // an invoked machine has a data model of its own
		}
		if c.Name.Local == "data" {
			if _, fn := b.funcValue(c); fn {
				continue // a function (dataFunction), not a variable
			}
			if a, ok := c.attr("id"); ok {
				b.declared[strings.TrimSpace(a.Value)] = true
			}
		}
		b.declare(c)
	}
}
