package scxml

import (
	"fmt"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
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
			Op: ast.ASSIGN, Value: lower.ZeroValue(p.typ.Kind, p.pos)}}}
		out = append(out, code{body: blk, set: func(ast.Expr, *ast.Block) {}})
	}
	return out
}
