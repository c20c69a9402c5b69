package scxml

import (
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"
)

// basicHTTP are the names of the Basic HTTP event I/O processor, which
// SCXML defines but setbot does not model: a model that names it means it,
// so it is refused rather than read as a type no processor supports.
var basicHTTP = map[string]bool{"http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor": true, "basichttp": true}

// misplaced says where an SCXML element found in the wrong place belongs.
func misplaced(name string) string {
	switch name {
	case "assign", "raise", "send", "log", "if", "elseif", "else", "foreach", "cancel":
		return "move it into an <onentry>, <onexit> or <transition>"
	case "data":
		return "move it into a <datamodel>"
	case "param":
		return "move it into a <send>"
	}
	return "remove it, or move it to a namespace of its own"
}

func (b *builder) snippet(text string, offsets []int) parser.Snippet {
	return parser.Snippet{File: b.file, Text: text, Offsets: offsets}
}

// expr parses an attribute holding an expression.
func (b *builder) expr(a attribute) ast.Expr {
	if strings.TrimSpace(a.Value) == "" {
		b.errorf(a.Offsets0(), "empty %s expression: write an expression", a.Name.Local)
		return nil
	}
	e, errs := b.parseExpr(b.snippet(a.Value, a.Offsets))
	if len(errs) > 0 {
		// Reported here; the checker skips what did not parse.
		b.errs = append(b.errs, errs...)
		return nil
	}
	return e
}

// block converts the executable content inside el into statements; the
// sends with computed attributes are expanded and those that raise an
// error lowered once the whole model is read (expandDynamic).
func (b *builder) block(el *element) *ast.Block {
	return b.ph.deferBlock(b.content(el.Children, el.Name.Local))
}

// content converts a run of executable-content elements.
func (b *builder) content(els []*element, parent string) []ast.Stmt {
	var out []ast.Stmt
	for i := 0; i < len(els); i++ {
		c := els[i]
		if isForeign(c.Name.Space) {
			if s := b.commonsVar(c); s != nil {
				out = append(out, s)
			}
			continue
		}
		if isSetbot(c.Name.Space) {
			b.errorf(c.Start, "unknown setbot element <%s> in executable content: remove it", c.Name.Local)
			continue
		}
		switch c.Name.Local {
		case "assign":
			if s := b.assign(c); s != nil {
				out = append(out, s)
			}
		case "if":
			if s := b.ifElement(c); s != nil {
				out = append(out, s)
			}
		case "raise":
			b.checkAttrs(c, "event")
			if name, ok := b.eventName(c); ok {
				out = append(out, &ast.Raise{RaisePos: b.pos(c.Start), Event: name})
			}
		case "send":
			out = append(out, b.send(c)...)
		case "script":
			out = append(out, b.script1(c)...)
		case "log":
			b.checkAttrs(c, "label", "expr")
		case "cancel":
			if s := b.cancel(c); s != nil {
				out = append(out, s)
			}
		case "foreach":
			if s := b.forEach(c); s != nil {
				out = append(out, s)
			}
		default:
			b.notContent(c, parent)
		}
	}
	return out
}

// notContent reports an element c that is no executable content, found
// in the executable content of parent: where it belongs, or that it is
// unknown.
func (b *builder) notContent(c *element, parent string) {
	switch c.Name.Local {
	case "elseif", "else":
		b.errorf(c.Start, "<%s> outside <if>: move it into the <if>", c.Name.Local)
	case "invoke":
		b.errorf(c.Start, "<invoke> is not executable content: move it into the <state> or <parallel> whose child session it is")
	case "finalize":
		b.errorf(c.Start, "<finalize> belongs in an <invoke>: move it there")
	case "donedata":
		b.errorf(c.Start, "<donedata> is not allowed in executable content: move it into a <final>")
	case "content":
		b.errorf(c.Start, "<content> is not allowed in executable content: move it into a <send> or a <donedata>")
	case "param":
		b.errorf(c.Start, "<param> is not allowed in executable content: move it into a <send>")
	case "transition", "state", "parallel", "final", "history", "initial", "onentry", "onexit", "datamodel", "data":
		b.errorf(c.Start, "<%s> is not allowed inside <%s>: move it out", c.Name.Local, parent)
	case "exit":
		// The working drafts of 2005 to 2007 end the session with <exit
		// expr namelist>, which SCXML 1.0 does not have.
		b.errorf(c.Start, "<exit> is of the early SCXML working drafts (2005 to 2007), where it ends the session: "+
			"make the transition target a <final> child of <scxml> instead (with a <donedata> for what the exit returns)")
	default:
		b.errorf(c.Start, "unknown element <%s>: remove it, or move it to a namespace of its own", c.Name.Local)
	}
}

func (b *builder) assign(c *element) ast.Stmt {
	b.checkAttrs(c, "location", "expr")
	loc, ok1 := c.attr("location")
	ex, ok2 := c.attr("expr")
	if !ok1 {
		b.errorf(c.Start, "<assign> needs a location")
		return nil
	}
	t := c.content()
	hasContent := strings.TrimSpace(t.Value) != ""
	for _, k := range c.Children {
		if !isForeign(k.Name.Space) || !hasContent {
			b.refusef(k.Start, "<assign> holding markup is not supported: write the value in expr or as text")
			return nil
		}
	}
	switch {
	case ok2 && hasContent:
		b.errorf(c.Start, "<assign> with both expr and content: keep one")
		return nil
	case !ok2 && !hasContent:
		b.errorf(c.Start, "<assign> needs an expr")
		return nil
	case !ok2 && b.jexl != nil:
		b.refusef(c.Start, "<assign> with content in a jexl model: Commons SCXML reads it as JSON or text, not as JEXL; write the value in expr")
		return nil
	case !ok2:
		// The value written as the element's content, as for <data>.
		ex = attribute{Name: xml.Name{Local: "content"}, NameOff: c.Start, Value: t.Value, Offsets: t.Offsets}
	}
	if parser.IsFuncExpr(ex.Value) {
		return b.rebind(loc, ex)
	}
	name, off, fail := b.location(loc, "<assign>")
	switch {
	case fail != nil:
		return fail
	case name == "":
		return nil
	}
	if word, bad := parser.IllegalExpr(ex.Value); bad {
		return b.low.fail(ex.Offsets0(), fmt.Sprintf("<assign> %s %q is no ECMAScript expression (it begins with %s)", ex.Name.Local, strings.TrimSpace(ex.Value), word))
	}
	v := b.expr(ex)
	if v == nil {
		return nil
	}
	if isIdent(name) {
		return &ast.Assign{Target: &ast.Ident{NamePos: b.pos(off), Name: name}, OpPos: b.pos(off), Op: ast.ASSIGN, Value: v}
	}
	target, path, errs := b.parseLocation(b.snippet(loc.Value, loc.Offsets))
	b.errs = append(b.errs, errs...)
	if target == nil {
		return nil
	}
	return &ast.Assign{Target: target, Path: path, OpPos: target.NamePos, Op: ast.ASSIGN, Value: v}
}

// locationValue is the value read at a location attribute a that
// locationOf accepted as name at off: a variable, or a part of one.
func (b *builder) locationValue(a attribute, name string, off int) ast.Expr {
	if isIdent(name) {
		return &ast.Ident{NamePos: b.pos(off), Name: name}
	}
	return b.expr(a)
}

// systemVariables are SCXML's system variables, which no location names.
var systemVariables = map[string]bool{"_sessionid": true, "_name": true, "_event": true, "_ioprocessors": true, "_x": true}

// param reads a <param> of a <send> or a <donedata>: its argument, or nil
// after an error already reported (or for a location that names nothing to
// read); bad says why the element fails at run time (SCXML makes a param
// whose expr or location is illegal an error.execution), at off.
func (b *builder) param(k *element) (arg *ast.Arg, off int, bad string) {
	b.checkAttrs(k, "name", "expr", "location")
	n, ok := k.attr("name")
	if !ok || !isIdent(strings.TrimSpace(n.Value)) {
		b.errorf(k.Start, "<param> needs a name that is an identifier")
		return nil, 0, ""
	}
	var v ast.Expr
	if e, ok := k.attr("expr"); ok {
		if word, illegal := parser.IllegalExpr(e.Value); illegal {
			return nil, e.Offsets0(), fmt.Sprintf("<param> expr %q is no ECMAScript expression (it begins with %s)", strings.TrimSpace(e.Value), word)
		}
		v = b.expr(e)
	} else if l, ok := k.attr("location"); ok {
		name, off, bad := b.locationOf(l, "<param>")
		if bad != "" || name == "" {
			return nil, off, bad
		}
		v = b.locationValue(l, name, off)
	} else {
		b.errorf(k.Start, "<param> needs expr or location")
		return nil, 0, ""
	}
	if v == nil {
		return nil, 0, ""
	}
	return &ast.Arg{NamePos: b.pos(k.Start), Name: strings.TrimSpace(n.Value), Value: v}, 0, ""
}

// location reads a location attribute of elem: the variable it names and
// the offset of the name. A location that names no place of the data model
// is an error at run time in SCXML: an undeclared object (foo in
// foo.bar.baz) or a system variable, which is read-only (§5.10, §B.2.2).
// For those, location returns the raise of error.execution that stands
// for the element (fail). Other locations setbot cannot write are refused,
// and location returns "".
func (b *builder) location(a attribute, elem string) (string, int, *ast.Raise) {
	name, off, bad := b.locationOf(a, elem)
	if bad != "" {
		return "", off, b.low.fail(off, bad)
	}
	return name, off, nil
}

// locationOf is location, which says what is wrong with a location that
// fails instead of failing the element.
func (b *builder) locationOf(a attribute, elem string) (name string, off int, bad string) {
	name = strings.TrimSpace(a.Value)
	off = a.Offsets0()
	if i := strings.Index(a.Value, name); i >= 0 && i < len(a.Offsets) {
		off = a.Offsets[i]
	}
	root := name
	if i := strings.IndexAny(name, ".["); i >= 0 {
		root = strings.TrimSpace(name[:i])
	}
	switch {
	case systemVariables[root]:
		return "", off, fmt.Sprintf("%s to the system variable %s, which is read-only", elem, root)
	case isIdent(name):
		return name, off, ""
	case isIdent(root) && !b.declared[root]:
		return "", off, fmt.Sprintf("%s location %q names no place of the data model (no <data> declares %s)", elem, name, root)
	case isIdent(root):
		return name, off, "" // a part of an array or object, which the checker resolves
	}
	b.errorf(a.Offsets0(), "unsupported %s location %q: write a variable name, or a field or element of one (o.f, a[0])", strings.Trim(elem, "<>"), a.Value)
	return "", off, ""
}

// forEach converts <foreach array item index>: its content runs once per
// element of a shallow copy of the array (SCXML 2015, §4.6). An item or
// index that is no variable name is an error of the element when it runs.
func (b *builder) forEach(c *element) ast.Stmt {
	b.checkAttrs(c, "array", "item", "index")
	arr, ok1 := c.attr("array")
	item, ok2 := c.attr("item")
	if !ok1 || !ok2 {
		b.errorf(c.Start, "<foreach> needs an array and an item: add array=\"...\" and item=\"...\"")
		return nil
	}
	s := &ast.ForEach{ForPos: b.pos(c.Start)}
	loopVar := func(a attribute) (*ast.Ident, *ast.Raise) {
		name := strings.TrimSpace(a.Value)
		off := a.Offsets0()
		if i := strings.Index(a.Value, name); name != "" && i < len(a.Offsets) {
			off = a.Offsets[i]
		}
		if !isIdent(name) || systemVariables[name] {
			return nil, b.low.fail(off, fmt.Sprintf("<foreach> %s %q is no variable name", a.Name.Local, a.Value))
		}
		return &ast.Ident{NamePos: b.pos(off), Name: name}, nil
	}
	var fail *ast.Raise
	if s.Item, fail = loopVar(item); fail != nil {
		return fail
	}
	if a, ok := c.attr("index"); ok {
		if s.Index, fail = loopVar(a); fail != nil {
			return fail
		}
	}
	if s.Array = b.expr(arr); s.Array == nil {
		return nil
	}
	s.Body = &ast.Block{Lbrace: s.ForPos, Stmts: b.content(c.Children, "foreach")}
	return s
}

func isIdent(s string) bool {
	if s == "" || ast.IsKeyword(s) {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

// ifElement converts <if cond><elseif cond/>...<else/>...</if>.
func (b *builder) ifElement(c *element) ast.Stmt {
	b.checkAttrs(c, "cond")
	type arm struct {
		el   *element
		cond ast.Expr
		body []*element
	}
	a, ok := c.attr("cond")
	if !ok {
		b.errorf(c.Start, "<if> needs a cond")
		return nil
	}
	arms := []*arm{{el: c, cond: b.ifCond(a)}}
	var elseArm *arm
	for _, k := range c.Children {
		if isSCXML(k.Name.Space) && (k.Name.Local == "elseif" || k.Name.Local == "else") {
			if elseArm != nil {
				b.errorf(k.Start, "<%s> after <else>: the <else> comes last", k.Name.Local)
				continue
			}
			if k.Name.Local == "else" {
				b.checkAttrs(k)
				elseArm = &arm{el: k}
				continue
			}
			b.checkAttrs(k, "cond")
			ka, ok := k.attr("cond")
			if !ok {
				b.errorf(k.Start, "<elseif> needs a cond")
				continue
			}
			arms = append(arms, &arm{el: k, cond: b.ifCond(ka)})
			continue
		}
		cur := arms[len(arms)-1]
		if elseArm != nil {
			cur = elseArm
		}
		cur.body = append(cur.body, k)
	}
	var tail ast.Stmt
	if elseArm != nil {
		tail = &ast.Block{Lbrace: b.pos(elseArm.el.Start), Stmts: b.content(elseArm.body, "if")}
	}
	for i := len(arms) - 1; i >= 0; i-- {
		ar := arms[i]
		body := &ast.Block{Lbrace: b.pos(ar.el.Start), Stmts: b.content(ar.body, "if")}
		if r, ok := ar.cond.(*failingCond); ok {
			// False, with error.execution raised where it is evaluated;
			// the <if> goes on with its next branch.
			stmts := []ast.Stmt{&ast.Raise{RaisePos: r.pos, Event: model.ErrorExecution}}
			if tail != nil {
				stmts = append(stmts, tail)
			}
			tail = &ast.Block{Lbrace: r.pos, Stmts: stmts}
			continue
		}
		if ar.cond == nil {
			continue
		}
		tail = &ast.If{IfPos: b.pos(ar.el.Start), Cond: ar.cond, Then: body, Else: tail}
	}
	return tail
}

// failingCond stands, while an <if> is read, for a cond whose evaluation
// is an error.
type failingCond struct {
	ast.BoolLit
	pos source.Pos
}

// ifCond reads the cond of an <if> or <elseif>. One that is no ECMAScript
// is false, and evaluating it raises error.execution (SCXML §5.9): it is
// returned as a failingCond, with a warning.
func (b *builder) ifCond(a attribute) ast.Expr {
	if word, bad := parser.IllegalExpr(a.Value); bad {
		b.warnf(a.Offsets0(), "cond %q is no ECMAScript expression (it begins with %s): setbot takes it as false and raises %s where it is evaluated, "+
			"as the SCXML specification requires", strings.TrimSpace(a.Value), word, model.ErrorExecution)
		return &failingCond{pos: b.pos(a.Offsets0())}
	}
	return b.expr(a)
}

// eventName reads and validates the event attribute of raise or send.
func (b *builder) eventName(c *element) (string, bool) {
	a, ok := c.attr("event")
	if !ok {
		b.errorf(c.Start, "<%s> needs an event: add event=\"...\"", c.Name.Local)
		return "", false
	}
	name := strings.TrimSpace(a.Value)
	if name == "" || strings.ContainsAny(name, " \t\n*") {
		b.errorf(a.Offsets0(), "invalid event name %q: write one name of dot-separated words, without spaces or *", a.Value)
		return "", false
	}
	return name, true
}

func (b *builder) send(c *element) []ast.Stmt {
	b.checkAttrs(c, "event", "eventexpr", "target", "targetexpr", "type", "typeexpr", "id", "idlocation", "delay", "delayexpr", "namelist")
	d := &dynSend{pos: b.pos(c.Start)}
	typ, typeAttr, ok := b.sendAttrs(d, c)
	if !ok {
		return nil
	}
	if d.eventExpr == nil {
		name, ok := b.eventName(c)
		if !ok {
			return nil
		}
		d.event = name
	}
	if a, ok := c.attr("idlocation"); ok {
		if stmts, stop := b.sendIDLocation(d, a); stop {
			return stmts
		}
	}
	if stmts, stop := b.sendType(d, c, typ, typeAttr); stop {
		return stmts
	}
	if d.target == model.SessionLocation {
		// The machine's own session: its external queue, as with no target.
		d.target = ""
	}
	b.sendDelay(d, c)
	args, fail := b.sendArgs(c)
	if fail != nil {
		fail.ID = d.id // the error reports the send that failed
		return d.stored(fail)
	}
	d.args = args
	if d.eventExpr != nil || d.targetExpr != nil || d.typeExpr != nil || d.location != "" {
		// Expanded once the whole model is read (expandDynamic).
		return []ast.Stmt{b.ph.send(d)}
	}
	return b.staticSend(c, d)
}

// sendPair reads one of the attribute pairs of a <send> that is written
// either fixed or as an expression (event and eventexpr, ...): the fixed
// value, or the expression, with the attribute read; false where the
// pair is wrong.
func (b *builder) sendPair(c *element, fixed, dyn string) (string, ast.Expr, attribute, bool) {
	a, okF := c.attr(fixed)
	x, okD := c.attr(dyn)
	switch {
	case okF && okD:
		b.errorf(x.NameOff, "<send> has both %s and %s: keep one", fixed, dyn)
		return "", nil, x, false
	case okD:
		if e := b.expr(x); e != nil {
			return "", e, x, true
		}
		return "", nil, x, false
	}
	return strings.TrimSpace(a.Value), nil, a, true
}

// sendAttrs reads the event, target, type and id of a <send> into d,
// each fixed or as an expression, and returns the fixed type and its
// attribute; false where one of them is wrong.
func (b *builder) sendAttrs(d *dynSend, c *element) (typ string, typeAttr attribute, ok bool) {
	var ok1, ok2, ok3, ok4 bool
	d.event, d.eventExpr, d.eventAttr, ok1 = b.sendPair(c, "event", "eventexpr")
	d.target, d.targetExpr, _, ok2 = b.sendPair(c, "target", "targetexpr")
	typ, d.typeExpr, typeAttr, ok3 = b.sendPair(c, "type", "typeexpr")
	d.id, _, _, ok4 = b.sendPair(c, "id", "idlocation")
	return typ, typeAttr, ok1 && ok2 && ok3 && ok4
}

// sendIDLocation reads the idlocation of a <send>: the send gets an id
// setbot generates, stored in that location. Where the location is
// wrong, it returns what the send becomes, and true.
func (b *builder) sendIDLocation(d *dynSend, a attribute) ([]ast.Stmt, bool) {
	name, _, fail := b.location(a, "<send> idlocation")
	switch {
	case fail != nil:
		return []ast.Stmt{fail}, true
	case name == "":
		return nil, true
	}
	d.location, d.id = name, b.ph.nextID(name)
	return nil, false
}

// stored prepends the storing of a generated id, which comes first even
// when the send fails.
func (d *dynSend) stored(stmts ...ast.Stmt) []ast.Stmt {
	if d.location == "" {
		return stmts
	}
	return append([]ast.Stmt{&ast.Assign{Target: &ast.Ident{NamePos: d.pos, Name: d.location}, OpPos: d.pos, Op: ast.ASSIGN,
		Value: &ast.StrLit{ValuePos: d.pos, Value: d.id}}}, stmts...)
}

// sendType checks the fixed type of a <send>: the Basic HTTP event
// processor is refused, and a type SCXML does not define makes the send
// fail. It returns what the send becomes then, and true.
func (b *builder) sendType(d *dynSend, c *element, typ string, typeAttr attribute) ([]ast.Stmt, bool) {
	if basicHTTP[typ] {
		b.refusef(typeAttr.Offsets0(), "send type %q (the Basic HTTP event processor) is not supported: omit type, and send to \"#_parent\" or \"#_name\" for an output", typeAttr.Value)
		return nil, true
	} else if _, has := c.attr("type"); has && !parser.IsSCXMLProcessor(typeAttr.Value) {
		// A type SCXML does not define: the processor supports none such.
		return d.stored(b.low.failSend(typeAttr.Offsets0(), fmt.Sprintf("send type %q is not supported (the SCXML event processor, the only one setbot has, is %q)", typeAttr.Value, parser.SCXMLProcessor), d.id)), true
	}
	return nil, false
}

// sendDelay reads the delay or delayexpr of a <send> into d.
func (b *builder) sendDelay(d *dynSend, c *element) {
	if a, ok := c.attr("delay"); ok {
		// A CSS2 duration, read now so that a wrong one is an error here.
		if _, err := model.ParseDelay(a.Value); err != nil {
			b.errorf(a.Offsets0(), "%v", err)
		} else {
			d.delay = &ast.StrLit{ValuePos: b.pos(a.Offsets0()), Value: strings.TrimSpace(a.Value)}
		}
	}
	if a, ok := c.attr("delayexpr"); ok {
		if d.delay != nil {
			b.errorf(a.NameOff, "<send> has both delay and delayexpr: keep one")
		}
		// A string expression, evaluated when the send executes.
		d.delay = b.expr(a)
		if lit, ok := d.delay.(*ast.StrLit); ok {
			if _, err := model.ParseDelay(lit.Value); err != nil {
				b.errorf(a.Offsets0(), "%v", err)
			}
		}
	}
}

// staticSend converts a <send> whose attributes are all fixed: a raise
// for #_internal, else a send to its target.
func (b *builder) staticSend(c *element, d *dynSend) []ast.Stmt {
	target, delay, id, name, pos, args := d.target, d.delay, d.id, d.event, d.pos, d.args
	switch {
	case target == model.TargetInternal:
		if delay != nil {
			b.errorf(c.Start, "a delayed <send> cannot target #_internal: remove the delay or the target")
		}
		return []ast.Stmt{&ast.Raise{RaisePos: pos, Event: name, Args: args, ID: id}}
	case delay != nil && sendError(target) == model.ErrorExecution:
		// The target is refused when the send executes, delay or not.
	case target != "" && delay != nil && target != model.TargetParent:
		b.refusef(c.Start, "a delayed <send> to external target %q is not supported: delay an event to the machine itself, and send to %q when it arrives", target, target)
		return nil
	}
	if target != "" && sendError(target) == "" {
		// An output's send id is nothing the machine can observe. Otherwise
		// it names a pending timer for <cancel>, and it is the sendid of
		// the event the machine receives: the one it sent itself, or the
		// error that a failed send raises.
		id = ""
	}
	return []ast.Stmt{&ast.Send{SendPos: pos, Event: name, Args: args, Target: target, Delay: delay, ID: id}}
}

// cancel converts <cancel sendid="..."> and <cancel sendidexpr="...">,
// whose placeholder is expanded once the whole model is read
// (expandDynamic).
func (b *builder) cancel(c *element) ast.Stmt {
	b.checkAttrs(c, "sendid", "sendidexpr")
	a, ok := c.attr("sendid")
	if x, dyn := c.attr("sendidexpr"); dyn {
		if ok {
			b.errorf(x.NameOff, "<cancel> has both sendid and sendidexpr: keep one")
			return nil
		}
		e := b.expr(x)
		if e == nil {
			return nil
		}
		return b.ph.cancel(b.pos(c.Start), e)
	}
	if !ok {
		b.errorf(c.Start, "<cancel> needs a sendid: add sendid=\"...\", the id of the <send> to cancel")
		return nil
	}
	id := strings.TrimSpace(a.Value)
	if id == "" {
		b.errorf(a.Offsets0(), "empty sendid: write the id of the <send> to cancel")
		return nil
	}
	return &ast.Cancel{CancelPos: b.pos(c.Start), SendID: id}
}

// sendArgs reads namelist and <param> children. An argument that SCXML
// makes an error when the send runs fails the send: the message is not
// sent (§6.2), and sendArgs returns the raise of error.execution that
// stands for the send.
func (b *builder) sendArgs(c *element) ([]*ast.Arg, *ast.Raise) {
	var args []*ast.Arg
	if a, ok := c.attr("namelist"); ok {
		for _, f := range fieldsWithOffsets(a) {
			if !isIdent(f.text) {
				if strings.ContainsAny(f.text, ".[") {
					b.errorf(f.off, "invalid name %q in namelist: list variable names, separated by spaces", f.text)
					continue
				}
				// Not even a location: no data model has it.
				return nil, b.low.fail(f.off, fmt.Sprintf("namelist entry %s is no location of the data model", f.text))
			}
			p := b.pos(f.off)
			args = append(args, &ast.Arg{NamePos: p, Name: f.text, Value: &ast.Ident{NamePos: p, Name: f.text}})
		}
	}
	for _, k := range c.Children {
		if isForeign(k.Name.Space) {
			continue
		}
		switch {
		case k.Name.Local == "content":
			if _, ok := c.attr("namelist"); ok || len(c.Children) > 1 {
				b.errorf(k.Start, "<content> in a <send> with namelist or <param>: keep one, the <content> or the named values")
				return nil, nil
			}
			v, illegal, off := b.contentValue(k)
			if illegal != "" {
				return nil, b.low.fail(off, fmt.Sprintf("<content> expr is no ECMAScript expression (it begins with %s)", illegal))
			}
			if v == nil {
				return nil, nil
			}
			return []*ast.Arg{{NamePos: b.pos(k.Start), Name: ast.DataParam, Value: v}}, nil
		case k.Name.Local != "param":
			b.errorf(k.Start, "unexpected <%s> in <send>: a <send> holds only <param> or one <content>", k.Name.Local)
			continue
		}
		arg, off, bad := b.param(k)
		if bad != "" {
			return nil, b.low.fail(off, bad)
		}
		if arg != nil {
			args = append(args, arg)
		}
	}
	return args, nil
}

// contentValue reads a <content> element: the value of its expr, or of its
// text. Text that is a literal of the language (a number, true or false, a
// quoted string) is that value, as ECMAScript reads it; other text is a
// string of the text, with its white space normalised, as SCXML says of a
// <data> whose content is no expression (§B.2.2). An expr that is no
// ECMAScript is returned as the word it begins with, at off; other errors
// are reported, and contentValue returns nil.
func (b *builder) contentValue(k *element) (v ast.Expr, illegal string, off int) {
	b.checkAttrs(k, "expr")
	t := k.content()
	text := strings.TrimSpace(t.Value)
	for _, c := range k.Children {
		if !isForeign(c.Name.Space) || text == "" {
			b.refusef(c.Start, "<content> holding markup is not supported: write the value in expr or as text")
			return nil, "", 0
		}
	}
	if a, ok := k.attr("expr"); ok {
		if text != "" {
			b.errorf(k.Start, "<content> with both expr and text: keep one")
			return nil, "", 0
		}
		if word, bad := parser.IllegalExpr(a.Value); bad {
			return nil, word, a.Offsets0()
		}
		return b.expr(a), "", 0
	}
	if text == "" {
		b.errorf(k.Start, "empty <content>: write its value in expr or as text")
		return nil, "", 0
	}
	start := k.Start
	if i := strings.Index(t.Value, text); i >= 0 && i < len(t.Offsets) {
		start = t.Offsets[i]
	}
	if e, errs := b.parseExpr(b.snippet(t.Value, t.Offsets)); len(errs) == 0 && b.jexl == nil { // Commons SCXML reads no literal (dataContent)
		switch x := e.(type) {
		case *ast.IntLit, *ast.DecLit, *ast.BoolLit, *ast.StrLit:
			return e, "", 0
		case *ast.Unary:
			switch x.X.(type) {
			case *ast.IntLit, *ast.DecLit:
				if x.Op == ast.SUB {
					return e, "", 0
				}
			}
		}
	}
	if text[0] == '{' || text[0] == '[' {
		b.refusef(start, "<content> holding an object or array is not supported yet: send the values as <param name=\"...\" expr=\"...\"/>")
		return nil, "", 0
	}
	return &ast.StrLit{ValuePos: b.pos(start), Value: strings.Join(strings.Fields(text), " ")}, "", 0
}

// doneData reads the <donedata> of a final state s: its <param>s or its
// <content>, the data of the done.state event that entering s raises. A
// value that SCXML makes an error when it is evaluated leaves the
// parameter out (§5.7) or the data empty, and raises error.execution
// before the done.state event, with a warning.
func (b *builder) doneData(s *model.State, el *element) {
	b.checkAttrs(el)
	if s.DoneData != nil {
		b.errorf(el.Start, "<final> %q has more than one <donedata>: keep one", s.ID)
		return
	}
	s.DoneData = []*ast.Arg{}
	fail := func(off int, what string) {
		b.warnf(off, "%s: setbot raises %s and leaves it out of the data of done.state.%s, as the SCXML specification requires", what, model.ErrorExecution, s.Parent.ID)
		s.OnEntry = append(s.OnEntry, &ast.Block{Stmts: []ast.Stmt{&ast.Raise{RaisePos: b.pos(off), Event: model.ErrorExecution, Platform: true}}})
	}
	var content, params bool
	for _, k := range el.Children {
		if isForeign(k.Name.Space) {
			continue
		}
		switch k.Name.Local {
		case "content":
			if content || params {
				b.errorf(k.Start, "<donedata> holds one <content> or <param>s: keep one kind")
				continue
			}
			content = true
			v, illegal, off := b.contentValue(k)
			if illegal != "" {
				fail(off, fmt.Sprintf("<content> expr is no ECMAScript expression (it begins with %s)", illegal))
			} else if v != nil {
				s.DoneData = append(s.DoneData, &ast.Arg{NamePos: b.pos(k.Start), Name: ast.DataParam, Value: v})
			}
		case "param":
			if content {
				b.errorf(k.Start, "<donedata> holds one <content> or <param>s: keep one kind")
				continue
			}
			params = true
			arg, off, bad := b.param(k)
			if bad != "" {
				fail(off, bad)
				continue
			}
			if arg != nil {
				s.DoneData = append(s.DoneData, arg)
			}
		default:
			b.errorf(k.Start, "unexpected <%s> in <donedata>: a <donedata> holds <param>s or one <content>", k.Name.Local)
		}
	}
}

type field struct {
	text string
	off  int
}

func fieldsWithOffsets(a attribute) []field {
	var out []field
	start := -1
	for i := 0; i <= len(a.Value); i++ {
		space := i == len(a.Value) || strings.ContainsRune(" \t\n", rune(a.Value[i]))
		switch {
		case !space && start < 0:
			start = i
		case space && start >= 0:
			out = append(out, field{text: a.Value[start:i], off: a.Offsets[start]})
			start = -1
		}
	}
	return out
}

// script1 parses the statements of a <script> element.
func (b *builder) script1(c *element) []ast.Stmt {
	b.checkAttrs(c, "src")
	if a, ok := c.attr("src"); ok {
		if strings.TrimSpace(c.content().Value) != "" {
			b.errorf(a.NameOff, "<script> with src and code: keep one")
			return nil
		}
		f, text := b.src(a, "<script src>")
		if f == nil {
			return nil
		}
		blk, errs := b.parseStmts(parser.NewSnippet(f, text))
		if len(errs) > 0 {
			b.errs = append(b.errs, errs...)
			return nil
		}
		return b.global(blk).Stmts
	}
	for _, k := range c.Children {
		if !isForeign(k.Name.Space) {
			b.errorf(k.Start, "unexpected <%s> in <script>: a <script> holds only code", k.Name.Local)
		}
	}
	t := c.content()
	if strings.TrimSpace(t.Value) == "" {
		return nil
	}
	blk, errs := b.parseStmts(b.snippet(t.Value, t.Offsets))
	if len(errs) > 0 {
		b.errs = append(b.errs, errs...)
		return nil
	}
	return b.global(blk).Stmts
}

// global makes the top-level declarations of a script's variables of the
// data model assignments: a script runs in the global scope
// (parser.GlobalDecls).
func (b *builder) global(blk *ast.Block) *ast.Block {
	b.throws(blk.Stmts, "")
	return parser.GlobalDecls(b.functions(blk), func(name string) bool { return b.declared[name] })
}

// throws marks the throw statements of a script's code (the raises of
// error.execution by the platform that the parser makes of them) as
// failing elements, with a warning: SCXML raises error.execution when a
// script throws (§B.2), and the lowering skips the rest of the block
// (lowerSends), also after an if whose branch throws. A throw in a loop, a
// nested block or a function (within, the reason it is not read) is
// refused: the lowering skips what follows a failing element only through
// ifs.
func (b *builder) throws(stmts []ast.Stmt, within string) {
	for _, st := range stmts {
		switch x := st.(type) {
		case *ast.Raise:
			if !x.Platform || x.Event != model.ErrorExecution {
				continue
			}
			if within != "" {
				b.refusef(b.file.Offset(x.RaisePos), "throw %s is not supported: it raises %s, which skips the rest of the block; throw at the top of the script or in an if", within, model.ErrorExecution)
				continue
			}
			b.warnf(b.file.Offset(x.RaisePos), "the script throws: setbot raises %s here and skips the rest of the block, as the SCXML specification requires", model.ErrorExecution)
			b.low.failed[x] = true
		case *ast.If:
			b.throws(x.Then.Stmts, within)
			if x.Else != nil {
				b.throws([]ast.Stmt{x.Else}, within)
			}
		case *ast.Block:
			b.throws(x.Stmts, or(within, "in a nested block"))
		case *ast.While:
			b.throws(x.Body.Stmts, or(within, "in a loop"))
		case *ast.For:
			b.throws(x.Body.Stmts, or(within, "in a loop"))
		case *ast.FuncDecl:
			b.throws(x.Body.Stmts, "in a function")
		}
	}
}

// or returns a, or b where a is empty.
func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// functions takes the function declarations out of the top level of a
// script's code: ECMAScript declares them in the global scope, and setbot
// inlines their calls everywhere (inlineCalls).
//
// A function declared twice in one script is its last declaration, as
// ECMAScript binds every declaration of a script before the script runs,
// in order; a name bound again to the same function is that function.
func (b *builder) functions(blk *ast.Block) *ast.Block {
	out := &ast.Block{Lbrace: blk.Lbrace}
	declared := make(map[string]bool) // by a declaration of this script
	for _, s := range blk.Stmts {
		f, ok := s.(*ast.FuncDecl)
		if !ok {
			out.Stmts = append(out.Stmts, s)
			continue
		}
		// function f (...) names f after the keyword; f = function (...)
		// before it.
		decl := f.Name.NamePos > f.FuncPos
		if prev, dup := b.funcs[f.Name.Name]; dup {
			if decl && declared[f.Name.Name] && !printer.SameFunction(prev, f) {
				b.warnf(b.file.Offset(f.FuncPos), "function %s declared twice in one script (first at %s): the last declaration is the function, as ECMAScript binds them in order before the script runs; remove the first",
					f.Name.Name, b.fset.Position(prev.FuncPos))
				b.funcs[f.Name.Name] = f
				continue
			}
			if !printer.SameFunction(prev, f) {
				b.errs.Add(b.fset.Position(f.FuncPos), "function %s declared twice (first at %s), as two different functions: rename one", f.Name.Name, b.fset.Position(prev.FuncPos))
			}
			continue // bound again to the same function: nothing changes
		}
		if b.funcs == nil {
			b.funcs = make(map[string]*ast.FuncDecl)
		}
		b.funcs[f.Name.Name] = f
		declared[f.Name.Name] = decl
	}
	return out
}
