package scxml

import (
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
)

// unsupportedElements are SCXML elements setbot does not read, with what
// to write instead.
var unsupportedElements = map[string]string{
	"invoke":   "remove it, or model the invoked machine as a region of a <parallel> state",
	"donedata": "remove it; done.state events carry no data, so assign the values to variables in the <final> state's <onentry>",
	"foreach":  "arrays are not modelled; unroll the loop, one action per element",
	"content":  "pass the values as <param name=\"...\" expr=\"...\"/>",
	"finalize": "remove it; it belongs to <invoke>, which is not supported either",
}

// notSupported is the error for an element of unsupportedElements; those
// setbot plans to read say "yet".
func notSupported(name string) string {
	yet := ""
	if name == "foreach" {
		yet = " yet"
	}
	return "<" + name + "> is not supported" + yet + ": " + unsupportedElements[name]
}

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

func (b *builder) snippet(text string, offsets []int) lang.Snippet {
	return lang.Snippet{File: b.file, Text: text, Offsets: offsets}
}

// expr parses an attribute holding an expression.
func (b *builder) expr(a attribute) lang.Expr {
	if strings.TrimSpace(a.Value) == "" {
		b.errorf(a.Offsets0(), "empty %s expression: write an expression", a.Name.Local)
		return nil
	}
	e, errs := lang.ParseExpr(b.snippet(a.Value, a.Offsets))
	if len(errs) > 0 {
		// Reported here; the checker skips what did not parse.
		b.errs = append(b.errs, errs...)
		return nil
	}
	return e
}

// block converts the executable content inside el into statements, with
// the sends that raise an error lowered (lowerBlock).
func (b *builder) block(el *element) *lang.Block {
	return &lang.Block{Stmts: b.lowerBlock(b.content(el.Children, el.Name.Local))}
}

// content converts a run of executable-content elements.
func (b *builder) content(els []*element, parent string) []lang.Stmt {
	var out []lang.Stmt
	for i := 0; i < len(els); i++ {
		c := els[i]
		if isForeign(c.Name.Space) {
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
				out = append(out, &lang.Raise{RaisePos: b.pos(c.Start), Event: name})
			}
		case "send":
			if s := b.send(c); s != nil {
				out = append(out, s)
			}
		case "script":
			out = append(out, b.script1(c)...)
		case "log":
			b.checkAttrs(c, "label", "expr")
		case "elseif", "else":
			b.errorf(c.Start, "<%s> outside <if>: move it into the <if>", c.Name.Local)
		case "cancel":
			if s := b.cancel(c); s != nil {
				out = append(out, s)
			}
		case "foreach", "invoke", "donedata", "content", "finalize":
			b.errorf(c.Start, "%s", notSupported(c.Name.Local))
		case "param":
			b.errorf(c.Start, "<param> is not allowed in executable content: move it into a <send>")
		case "transition", "state", "parallel", "final", "history", "initial", "onentry", "onexit", "datamodel", "data":
			if parent == "transition" || parent == "onentry" || parent == "onexit" || parent == "if" {
				b.errorf(c.Start, "<%s> is not allowed inside <%s>: move it out", c.Name.Local, parent)
			}
		default:
			b.errorf(c.Start, "unknown element <%s>: remove it, or move it to a namespace of its own", c.Name.Local)
		}
	}
	return out
}

func (b *builder) assign(c *element) lang.Stmt {
	b.checkAttrs(c, "location", "expr")
	loc, ok1 := c.attr("location")
	ex, ok2 := c.attr("expr")
	if !ok1 {
		b.errorf(c.Start, "<assign> needs a location")
		return nil
	}
	if !ok2 {
		if strings.TrimSpace(c.content().Value) != "" || len(c.Children) > 0 {
			b.errorf(c.Start, "<assign> with its value as content is not supported: write the value in expr")
		} else {
			b.errorf(c.Start, "<assign> needs an expr")
		}
		return nil
	}
	name := strings.TrimSpace(loc.Value)
	if !isIdent(name) {
		b.errorf(loc.Offsets0(), "unsupported assign location %q: write a variable name (objects and arrays are not supported yet)", loc.Value)
		return nil
	}
	v := b.expr(ex)
	if v == nil {
		return nil
	}
	off := loc.Offsets0() + strings.Index(loc.Value, name)
	return &lang.Assign{Target: &lang.Ident{NamePos: b.pos(off), Name: name}, OpPos: b.pos(off), Op: lang.ASSIGN, Value: v}
}

func isIdent(s string) bool {
	if s == "" || lang.IsKeyword(s) {
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
func (b *builder) ifElement(c *element) lang.Stmt {
	b.checkAttrs(c, "cond")
	type arm struct {
		el   *element
		cond lang.Expr
		body []*element
	}
	a, ok := c.attr("cond")
	if !ok {
		b.errorf(c.Start, "<if> needs a cond")
		return nil
	}
	arms := []*arm{{el: c, cond: b.expr(a)}}
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
			arms = append(arms, &arm{el: k, cond: b.expr(ka)})
			continue
		}
		cur := arms[len(arms)-1]
		if elseArm != nil {
			cur = elseArm
		}
		cur.body = append(cur.body, k)
	}
	var tail lang.Stmt
	if elseArm != nil {
		tail = &lang.Block{Lbrace: b.pos(elseArm.el.Start), Stmts: b.content(elseArm.body, "if")}
	}
	for i := len(arms) - 1; i >= 0; i-- {
		ar := arms[i]
		body := &lang.Block{Lbrace: b.pos(ar.el.Start), Stmts: b.content(ar.body, "if")}
		if ar.cond == nil {
			continue
		}
		tail = &lang.If{IfPos: b.pos(ar.el.Start), Cond: ar.cond, Then: body, Else: tail}
	}
	return tail
}

// eventName reads and validates the event attribute of raise or send.
func (b *builder) eventName(c *element) (string, bool) {
	a, ok := c.attr("event")
	if !ok {
		if _, dyn := c.attr("eventexpr"); dyn {
			b.errorf(c.Start, "eventexpr on <%s> is not supported: name the event in event=\"...\" (one <%s> per event, under <if> where it varies)", c.Name.Local, c.Name.Local)
		} else {
			b.errorf(c.Start, "<%s> needs an event: add event=\"...\"", c.Name.Local)
		}
		return "", false
	}
	name := strings.TrimSpace(a.Value)
	if name == "" || strings.ContainsAny(name, " \t\n*") {
		b.errorf(a.Offsets0(), "invalid event name %q: write one name of dot-separated words, without spaces or *", a.Value)
		return "", false
	}
	return name, true
}

func (b *builder) send(c *element) lang.Stmt {
	b.checkAttrs(c, "event", "eventexpr", "target", "targetexpr", "type", "typeexpr", "id", "idlocation", "delay", "delayexpr", "namelist")
	for _, dyn := range []struct{ attr, hint string }{
		{"targetexpr", "write a fixed target=\"...\" (one <send> per target, under <if> where it varies)"},
		{"typeexpr", "remove it (the SCXML event processor is the only one)"},
		{"idlocation", "remove it, or give the <send> a fixed id"},
	} {
		if a, ok := c.attr(dyn.attr); ok {
			b.errorf(a.NameOff, "%s on <send> is not supported: %s", dyn.attr, dyn.hint)
		}
	}
	if a, ok := c.attr("type"); ok && !lang.IsSCXMLProcessor(a.Value) {
		b.errorf(a.Offsets0(), "send type %q is not supported: omit type (only the SCXML event processor is)", a.Value)
	}
	name, ok := b.eventName(c)
	if !ok {
		return nil
	}
	pos := b.pos(c.Start)
	var target, delay, id string
	if a, ok := c.attr("target"); ok {
		target = strings.TrimSpace(a.Value)
	}
	if target == model.SessionLocation {
		// The machine's own session: its external queue, as with no target.
		target = ""
	}
	if a, ok := c.attr("delay"); ok {
		delay = strings.TrimSpace(a.Value)
	}
	if a, ok := c.attr("delayexpr"); ok {
		if delay != "" {
			b.errorf(a.NameOff, "<send> has both delay and delayexpr: keep one")
		}
		// The delay's value never matters to the analysis (a timer may fire
		// at any point once set), so its expression is kept as text.
		delay = strings.TrimSpace(a.Value)
		if delay == "" {
			b.errorf(a.Offsets0(), "empty delayexpr: write a delay, or omit it")
		}
	}
	if a, ok := c.attr("id"); ok {
		id = strings.TrimSpace(a.Value)
	}
	args := b.sendArgs(c)
	switch {
	case target == "#_internal":
		if delay != "" {
			b.errorf(c.Start, "a delayed <send> cannot target #_internal: remove the delay or the target")
		}
		return &lang.Raise{RaisePos: pos, Event: name, Args: args, ID: id}
	case delay != "" && sendError(target) == errorExecution:
		// The target is refused when the send executes, delay or not.
	case target != "" && delay != "":
		b.errorf(c.Start, "a delayed <send> to external target %q is not supported: delay an event to the machine itself, and send to %q when it arrives", target, target)
		return nil
	}
	if target != "" && sendError(target) == "" {
		// An output's send id is nothing the machine can observe. Otherwise
		// it names a pending timer for <cancel>, and it is the sendid of
		// the event the machine receives: the one it sent itself, or the
		// error that a failed send raises.
		id = ""
	}
	return &lang.Send{SendPos: pos, Event: name, Args: args, Target: target, Delay: delay, ID: id}
}

// cancel converts <cancel sendid="...">.
func (b *builder) cancel(c *element) lang.Stmt {
	b.checkAttrs(c, "sendid", "sendidexpr")
	if a, ok := c.attr("sendidexpr"); ok {
		b.errorf(a.NameOff, "sendidexpr on <cancel> is not supported: write a fixed sendid=\"...\" (one <cancel> per id, under <if> where it varies)")
		return nil
	}
	a, ok := c.attr("sendid")
	if !ok {
		b.errorf(c.Start, "<cancel> needs a sendid: add sendid=\"...\", the id of the <send> to cancel")
		return nil
	}
	id := strings.TrimSpace(a.Value)
	if id == "" {
		b.errorf(a.Offsets0(), "empty sendid: write the id of the <send> to cancel")
		return nil
	}
	return &lang.Cancel{CancelPos: b.pos(c.Start), SendID: id}
}

// sendArgs reads namelist and <param> children.
func (b *builder) sendArgs(c *element) []*lang.Arg {
	var args []*lang.Arg
	if a, ok := c.attr("namelist"); ok {
		for _, f := range fieldsWithOffsets(a) {
			if !isIdent(f.text) {
				b.errorf(f.off, "invalid name %q in namelist: list variable names, separated by spaces", f.text)
				continue
			}
			p := b.pos(f.off)
			args = append(args, &lang.Arg{NamePos: p, Name: f.text, Value: &lang.Ident{NamePos: p, Name: f.text}})
		}
	}
	for _, k := range c.Children {
		if isForeign(k.Name.Space) {
			continue
		}
		switch {
		case k.Name.Local == "content":
			b.errorf(k.Start, "<content> in <send> is not supported: %s", unsupportedElements["content"])
			continue
		case k.Name.Local != "param":
			b.errorf(k.Start, "unexpected <%s> in <send>: a <send> holds only <param>", k.Name.Local)
			continue
		}
		b.checkAttrs(k, "name", "expr", "location")
		n, ok := k.attr("name")
		if !ok || !isIdent(strings.TrimSpace(n.Value)) {
			b.errorf(k.Start, "<param> needs a name that is an identifier")
			continue
		}
		var v lang.Expr
		if e, ok := k.attr("expr"); ok {
			v = b.expr(e)
		} else if l, ok := k.attr("location"); ok {
			name := strings.TrimSpace(l.Value)
			if !isIdent(name) {
				b.errorf(l.Offsets0(), "unsupported param location %q: write a variable name (objects and arrays are not supported yet)", l.Value)
				continue
			}
			v = &lang.Ident{NamePos: b.pos(l.Offsets0()), Name: name}
		} else {
			b.errorf(k.Start, "<param> needs expr or location")
			continue
		}
		if v == nil {
			continue
		}
		args = append(args, &lang.Arg{NamePos: b.pos(k.Start), Name: strings.TrimSpace(n.Value), Value: v})
	}
	return args
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
func (b *builder) script1(c *element) []lang.Stmt {
	b.checkAttrs(c, "src")
	if a, ok := c.attr("src"); ok {
		b.errorf(a.NameOff, "<script src> is not supported: put the code inline")
		return nil
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
	blk, errs := lang.ParseStmts(b.snippet(t.Value, t.Offsets))
	if len(errs) > 0 {
		b.errs = append(b.errs, errs...)
		return nil
	}
	return blk.Stmts
}
