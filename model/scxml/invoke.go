package scxml

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"
)

// pendingInvoke is an <invoke> whose child is read once the parent's
// variables are known (readInvokes).
type pendingInvoke struct {
	inv     *model.Invoke
	el      *element
	src     attribute // the src attribute, if hasSrc
	hasSrc  bool
	content *element // the <scxml> inside <content>, if any
	// namelist holds the params that come from the namelist.
	namelist []*ast.Arg
	// srcExpr is the srcexpr, read in srcAttr.
	srcExpr ast.Expr
	srcAttr attribute
}

// invocation says how a document is read: as the top model, or as the
// machine an <invoke> of another starts.
type invocation struct {
	// dir is the directory of this document relative to the top model's
	// (src files are read relative to it), topName the top model's name;
	// srcs the files of the chain of invokes that led to this document,
	// which it must not invoke again.
	dir, topName string
	srcs         []string
	// invoked is set while reading an invoked machine (its donedata is
	// its parent's); passed are the variables of it that its parent's
	// <param>s set, with the type of each value.
	invoked bool
	passed  map[string]passedParam
}

// invoker holds what the invoke phase (readInvokes) needs to read the
// child machines of a document: where the document comes from and how
// it is read, and the model the children's events go to.
type invoker struct {
	*diag
	m    *model.Model
	opts Options
	inv  invocation
}

// passedParam is a variable of an invoked machine that a <param> of its
// parent sets, with the type of the value and where the param is.
type passedParam struct {
	typ ast.Type
	pos source.Pos
}

// invokeType refuses an invoke type other than SCXML's.
func (b *builder) invokeType(a attribute) {
	if !slices.Contains(model.InvokeTypes, strings.TrimSpace(a.Value)) {
		b.refusef(a.Offsets0(), "<invoke type=%q> is not supported: setbot invokes SCXML machines only (type=\"scxml\" or "+
			"\"http://www.w3.org/TR/scxml/\"); model another kind of service as the environment, through outputs and input events", a.Value)
	}
}

// targetType reads the targettype of an <invoke> of the early working
// drafts (SCXML 1.0 calls it type): naming SCXML, or nothing, it says
// what an invoke without type means and is ignored with a warning; naming
// another kind of service, it is refused as that type is.
func (b *builder) targetType(el *element) {
	a, ok := el.attr("targettype")
	if !ok {
		return
	}
	if v := strings.TrimSpace(a.Value); v != "" && !slices.Contains(model.InvokeTypes, v) {
		b.invokeType(a)
		return
	}
	b.warnf(a.NameOff, "targettype is the attribute of the early SCXML working drafts (2005 to 2007), ignored here: "+
		"an <invoke> without type invokes an SCXML machine (SCXML 1.0 names the attribute type)")
}

// invoke reads an <invoke> of state s. Only SCXML machines are invoked:
// the child is read from the file src names (relative to the model) or
// from the <scxml> inside <content>, once the parent's variables are
// known.
func (b *builder) invoke(s *model.State, el *element) {
	b.checkAttrs(el, "type", "typeexpr", "src", "srcexpr", "id", "idlocation", "namelist", "autoforward", "targettype")
	b.targetType(el)
	inv := &model.Invoke{State: s, Pos: b.pos(el.Start), Start: &ast.Block{}, Order: len(b.invokes)}
	p := pendingInvoke{inv: inv, el: el}
	if a, ok := el.attr("srcexpr"); ok {
		p.srcExpr, p.srcAttr = b.expr(a), a
	}
	if a, ok := el.attr("typeexpr"); ok {
		b.invokeTypeExpr(inv, a)
	}
	if a, ok := el.attr("type"); ok {
		b.invokeType(a)
	}
	b.invokeID(s, inv, el)
	if a, ok := el.attr("autoforward"); ok {
		b.invokeAutoforward(inv, a)
	}
	if a, ok := el.attr("namelist"); ok {
		b.invokeNamelist(&p, a)
	}
	p.src, p.hasSrc = el.attr("src")
	b.invokeChildren(&p)
	b.invokeSource(&p)
	for _, q := range b.invokes {
		if q.inv.ID == inv.ID {
			b.errorf(el.Start, "duplicate invoke id %q: give each <invoke> its own id", inv.ID)
		}
	}
	s.Invokes = append(s.Invokes, inv)
	b.invokes = append(b.invokes, p)
}

// invokeTypeExpr reads the typeexpr of an <invoke>. The type is known
// when the invoke runs: where it names no SCXML type, the invoke fails.
func (b *builder) invokeTypeExpr(inv *model.Invoke, a attribute) {
	e := b.expr(a)
	if e == nil {
		return
	}
	for _, t := range model.InvokeTypes {
		is := &ast.Binary{X: e, OpPos: e.Pos(), Op: ast.EQL, Y: &ast.StrLit{ValuePos: e.Pos(), Value: t}}
		if inv.OK == nil {
			inv.OK = is
		} else {
			inv.OK = &ast.Binary{X: inv.OK, OpPos: e.Pos(), Op: ast.LOR, Y: is}
		}
	}
}

// invokeID reads the id or idlocation of an <invoke> of state s; without
// an id, the invoke is named after its state and its place among the
// state's invokes.
func (b *builder) invokeID(s *model.State, inv *model.Invoke, el *element) {
	id, hasID := el.attr("id")
	loc, hasLoc := el.attr("idlocation")
	switch {
	case hasID && hasLoc:
		b.errorf(loc.NameOff, "<invoke> has both id and idlocation: keep one (SCXML §6.4.1)")
	case hasID && !isInvokeID(strings.TrimSpace(id.Value)):
		b.errorf(id.Offsets0(), "invoke id %q is no name: write letters, digits, '_', '-' and '.'", id.Value)
	case hasID:
		inv.ID = strings.TrimSpace(id.Value)
	default:
		n := 0
		for _, q := range b.invokes {
			if q.inv.State == s {
				n++
			}
		}
		inv.ID = fmt.Sprintf("%s.%d", s.ID, n)
	}
	if hasLoc {
		b.invokeIDLocation(inv, loc)
	}
}

// invokeIDLocation makes the invoke's start assign its id to the
// location idlocation names.
func (b *builder) invokeIDLocation(inv *model.Invoke, loc attribute) {
	name, off, bad := b.locationOf(loc, "<invoke> idlocation")
	switch {
	case bad != "":
		b.errorf(off, "%s", bad)
	case name != "":
		at := b.pos(off)
		inv.Start.Stmts = append(inv.Start.Stmts, &ast.Assign{Target: &ast.Ident{NamePos: at, Name: name}, OpPos: at,
			Op: ast.ASSIGN, Value: &ast.StrLit{ValuePos: at, Value: inv.ID}})
	}
}

// invokeAutoforward reads the autoforward of an <invoke>: true or false.
func (b *builder) invokeAutoforward(inv *model.Invoke, a attribute) {
	switch strings.TrimSpace(a.Value) {
	case "true":
		inv.Autoforward = true
	case "false":
	default:
		b.errorf(a.Offsets0(), "autoforward=%q: write true or false", a.Value)
	}
}

// invokeNamelist reads the namelist of an <invoke>: each entry passes
// the parent's variable of that name to the child.
func (b *builder) invokeNamelist(p *pendingInvoke, a attribute) {
	inv := p.inv
	for _, f := range fieldsWithOffsets(a) {
		if !isIdent(f.text) {
			// SCXML: the invoke's arguments fail when it runs.
			b.warnf(f.off, "namelist entry %q names no variable of the data model: the invoke raises %s when it runs, "+
				"and starts nothing", f.text, model.ErrorExecution)
			inv.OK = &ast.BoolLit{ValuePos: b.pos(f.off), Value: false}
			continue
		}
		at := b.pos(f.off)
		arg := &ast.Arg{NamePos: at, Name: f.text, Value: &ast.Ident{NamePos: at, Name: f.text}}
		inv.Params = append(inv.Params, arg)
		p.namelist = append(p.namelist, arg)
	}
}

// invokeChildren reads the children of an <invoke>: its <param>s, its
// <finalize> and the <content> holding the child machine.
func (b *builder) invokeChildren(p *pendingInvoke) {
	inv := p.inv
	for _, c := range p.el.Children {
		if isForeign(c.Name.Space) {
			continue
		}
		switch c.Name.Local {
		case "param":
			if arg, off, bad := b.param(c); bad != "" {
				b.errorf(off, "%s", bad)
			} else if arg != nil {
				inv.Params = append(inv.Params, arg)
			}
		case "finalize":
			b.checkAttrs(c)
			if inv.Finalize != nil {
				b.errorf(c.Start, "a second <finalize>: an <invoke> has at most one")
				continue
			}
			inv.Finalize = b.block(c)
		case "content":
			b.invokeContent(p, c)
		default:
			b.errorf(c.Start, "unexpected <%s> in <invoke>: an <invoke> holds <param>, <finalize> and <content>", c.Name.Local)
		}
	}
}

// invokeContent reads a <content> of an <invoke>: it holds the child
// <scxml>, which is read later (readInvokes).
func (b *builder) invokeContent(p *pendingInvoke, c *element) {
	b.checkAttrs(c, "expr")
	if a, ok := c.attr("expr"); ok {
		b.refusef(a.NameOff, "<content expr> in <invoke> is not supported: write the child <scxml> inside <content>, or name its file in src")
		return
	}
	for _, k := range c.Children {
		if isSCXML(k.Name.Space) && k.Name.Local == "scxml" && p.content == nil {
			p.content = k
		} else if !isForeign(k.Name.Space) {
			b.errorf(k.Start, "<content> of an <invoke> holds one <scxml> element: the child machine")
		}
	}
	if p.content == nil {
		b.errorf(c.Start, "empty <content> in <invoke>: write the child <scxml> inside it")
	}
}

// invokeSource checks that an <invoke> names its machine once: by src,
// srcexpr or <content>.
func (b *builder) invokeSource(p *pendingInvoke) {
	switch {
	case p.hasSrc && p.content != nil:
		b.errorf(p.src.NameOff, "<invoke> has both src and <content>: keep one")
	case p.srcExpr != nil && (p.hasSrc || p.content != nil):
		b.errorf(p.srcAttr.NameOff, "<invoke> has srcexpr and also src or <content>: keep one")
	case !p.hasSrc && p.content == nil && p.srcExpr == nil && len(b.errs) == 0:
		b.errorf(p.el.Start, "<invoke> names no machine: write src=\"file:NAME.scxml\" or the child <scxml> inside <content>")
	}
}

// isInvokeID reports whether s can be an invoke id: a name that prefixes
// the child's states and events in reports.
func isInvokeID(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// readInvokes is the invoke phase. It takes the model m of a document
// read as "as" says, with its variables read, the <invoke>s read (pending)
// and what gives the values of its variables (valuesOf, asked only for a
// srcexpr); it reads the child machine of every <invoke> (the values of
// params are typed in the parent) and makes the events each child sends
// its parent, and its done.invoke event, events of the parent.
func readInvokes(d *diag, m *model.Model, opts Options, as invocation, pending []pendingInvoke, valuesOf func() *values) {
	iv := &invoker{diag: d, m: m, opts: opts, inv: as}
	vars := varTypes(m)
	var vs *values
	for _, p := range pending {
		inv := p.inv
		if p.srcExpr != nil {
			if vs == nil {
				vs = valuesOf()
			}
			if !iv.srcFromExpr(&p, vs) {
				continue
			}
		}
		passed := make(map[string]passedParam)
		inv.Params = slices.DeleteFunc(inv.Params, func(a *ast.Arg) bool {
			if !slices.Contains(p.namelist, a) || iv.m.Var(a.Name) != nil {
				return false
			}
			iv.warnf(iv.file.Offset(a.NamePos), "namelist entry %q names no variable of the data model: the invoke raises %s "+
				"when it runs, and starts nothing", a.Name, model.ErrorExecution)
			inv.OK = &ast.BoolLit{ValuePos: a.NamePos, Value: false}
			return true
		})
		for _, a := range inv.Params {
			info, errs := lang.CheckExpr(&lang.Env{Vars: vars}, iv.fset, a.Value, ast.Invalid)
			if len(errs) > 0 {
				iv.errs = append(iv.errs, errs...)
				continue
			}
			t := info.Types[a.Value]
			switch t.Kind {
			case ast.Int, ast.Bool, ast.String, ast.Decimal:
			default:
				iv.errorf(iv.file.Offset(a.NamePos), "the value of %s passed to the invoked machine is %s: setbot passes numbers, "+
					"strings and booleans whose type the parent's <data> gives", a.Name, t.Kind)
				continue
			}
			a.Value = lang.LowerExpr(a.Value, info, false)
			passed[a.Name] = passedParam{typ: t, pos: a.NamePos}
		}
		var child *model.Model
		switch {
		case p.content != nil:
			var cd *diag
			child, cd = readMachine(iv.fset, iv.file, iv.opts, invocation{dir: iv.inv.dir, topName: iv.inv.topName, srcs: iv.inv.srcs, invoked: true, passed: passed}, p.content)
			iv.errs = append(iv.errs, cd.errs...)
			iv.warns = append(iv.warns, cd.warns...)
		case p.hasSrc:
			child = iv.readChild(p, passed)
		}
		if child == nil {
			continue
		}
		child.Name, child.Invoked = inv.ID, true
		inv.Child = child
		iv.parentEvents(inv)
	}
}

// srcFromExpr reads an <invoke srcexpr> as the src it can name: setbot
// composes the machines a model invokes before it runs, so it reads the
// values the expression can take (the string constants assigned to a
// variable, say); of those, exactly one must name a file that can be read.
// The invoke then starts that file's machine where the expression has that
// value when the invoke runs, and fails (error.execution) otherwise.
func (iv *invoker) srcFromExpr(p *pendingInvoke, vs *values) bool {
	vals, _, ok := vs.of(p.srcExpr)
	if !ok {
		iv.refusef(p.srcAttr.Offsets0(), "<invoke srcexpr> %q: setbot cannot tell which files it names (the value is computed at run time); "+
			"write src=\"file:NAME.scxml\", or assign the variable only string constants", p.srcAttr.Value)
		return false
	}
	var readable []string
	for _, v := range vals {
		rel := strings.TrimPrefix(v, "file:")
		if rel == "" || strings.Contains(rel, "://") || path.IsAbs(rel) || iv.opts.ReadFile == nil {
			continue
		}
		if _, err := iv.opts.ReadFile(rel); err == nil {
			readable = append(readable, v)
		}
	}
	switch len(readable) {
	case 0:
		iv.errorf(p.srcAttr.Offsets0(), "<invoke srcexpr> %q names no file setbot can read (its values: %s)", p.srcAttr.Value, quoteAll(vals))
		return false
	case 1:
	default:
		iv.errorf(p.srcAttr.Offsets0(), "<invoke srcexpr> %q may name %d machines (%s): setbot composes one machine per invoke; "+
			"write one <invoke src> per machine, in states that tell them apart", p.srcAttr.Value, len(readable), quoteAll(readable))
		return false
	}
	p.src, p.hasSrc = p.srcAttr, true
	p.src.Value = readable[0]
	is := &ast.Binary{X: p.srcExpr, OpPos: p.srcExpr.Pos(), Op: ast.EQL, Y: &ast.StrLit{ValuePos: p.srcExpr.Pos(), Value: readable[0]}}
	if p.inv.OK == nil {
		p.inv.OK = is
	} else {
		p.inv.OK = &ast.Binary{X: p.inv.OK, OpPos: is.OpPos, Op: ast.LAND, Y: is}
	}
	return true
}

func quoteAll(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// readChild reads the machine of an <invoke src>: a file relative to the
// invoking document, read as the model's other src files are (the caller's
// ReadFile: at the same commit, in a repository).
func (iv *invoker) readChild(p pendingInvoke, passed map[string]passedParam) *model.Model {
	rel := strings.TrimPrefix(strings.TrimSpace(p.src.Value), "file:")
	if rel == "" || strings.Contains(rel, "://") || path.IsAbs(rel) {
		iv.refusef(p.src.Offsets0(), "<invoke> src %q is not supported: name a file relative to the model (src=\"file:NAME.scxml\"), "+
			"or write the child <scxml> inside <content>", p.src.Value)
		return nil
	}
	key := path.Join(iv.inv.dir, rel) // relative to the top model
	top := path.Base(iv.inv.topName)
	if key == top || slices.Contains(iv.inv.srcs, key) {
		iv.errorf(p.src.Offsets0(), "<invoke> src %q invokes a machine that is already running in this chain of invokes "+
			"(%s): setbot composes a fixed set of machines, so a machine cannot invoke itself", p.src.Value,
			strings.Join(append(append([]string{top}, iv.inv.srcs...), key), " -> "))
		return nil
	}
	file, data := readSrc(iv.diag, iv.opts, p.src, "<invoke> src")
	if file == nil {
		return nil
	}
	root, perr := parseDOM(file, []byte(data), iv.opts.MaxNesting)
	if perr != nil {
		iv.errs = append(iv.errs, perr)
		return nil
	}
	opts := iv.opts
	opts.ReadFile = func(name string) ([]byte, error) { return iv.opts.ReadFile(path.Join(path.Dir(rel), name)) }
	p.inv.Src = key
	child, cd := readMachine(iv.fset, file, opts, invocation{dir: path.Dir(key), topName: iv.inv.topName, srcs: append(slices.Clip(iv.inv.srcs), key), invoked: true, passed: passed}, root)
	iv.errs = append(iv.errs, cd.errs...)
	iv.warns = append(iv.warns, cd.warns...)
	return child
}

// parentEvents registers in the parent the events the child of inv sends
// it (with the child's parameter types) and its done.invoke event.
func (iv *invoker) parentEvents(inv *model.Invoke) {
	add := func(name string, params []model.Param, pos source.Pos) {
		ev := iv.m.EventByName(name)
		if ev == nil {
			ev = &model.Event{Name: name, Declared: true, Params: params, Pos: pos}
			iv.m.AddEvent(ev)
		}
		ev.Kinds |= model.Invoked
	}
	for _, s := range inv.ToParent() {
		var params []model.Param
		if ev := inv.Child.EventByName(s.Event); ev != nil {
			params = ev.Params
		}
		add(s.Event, params, s.SendPos)
	}
	var data []model.Param
	if ev := inv.Child.EventByName(model.DoneData); ev != nil {
		data = ev.Params
	}
	add(model.DoneInvoke(inv.ID), data, inv.Pos)
}

// passedCode is the code that stands, for the type checker, for the
// values the parent's <param>s give the variables of the invoked machine
// m (passed): an assignment of a value of each param's type. It marks
// those variables Passed.
func passedCode(m *model.Model, passed map[string]passedParam) []code {
	var out []code
	names := make([]string, 0, len(passed))
	for name := range passed {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := passed[name]
		v := m.Var(name)
		if v == nil {
			continue // SCXML: a param that names no <data> of the child sets nothing
		}
		v.Passed = true
		blk := &ast.Block{Stmts: []ast.Stmt{&ast.Assign{Target: &ast.Ident{NamePos: p.pos, Name: name}, OpPos: p.pos,
			Op: ast.ASSIGN, Value: lang.ZeroValue(p.typ.Kind, p.pos)}}}
		out = append(out, code{body: blk, set: func(ast.Expr, *ast.Block) {}})
	}
	return out
}
