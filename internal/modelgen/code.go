package modelgen

import "fmt"

// ctx is what a piece of generated code may use.
type ctx struct {
	params []param // event parameters it may read
	raise  bool    // whether it may raise internal events and send events to the machine itself
	top    bool    // a script at the top of its block (no <if> around it)
	guard  bool    // a transition's cond, where a read that throws is error.execution
}

// intParams returns the int parameters c may read.
func (c ctx) intParams() []param { return c.paramsWhere(param.isInt) }

// boolParams returns the bool parameters c may read.
func (c ctx) boolParams() []param { return c.paramsWhere(param.isBool) }

// strParams returns the string parameters c may read.
func (c ctx) strParams() []param {
	return c.paramsWhere(func(p param) bool { return !p.isInt() && !p.isBool() })
}

func (c ctx) paramsWhere(keep func(param) bool) []param {
	var out []param
	for _, p := range c.params {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// paramRef returns the expression that reads p.
func paramRef(p param) string { return "_event.data." + p.name }

// comparisons are the comparison operators of the action language.
var comparisons = []string{"<", "<=", ">", ">=", "==", "!="}

// cond returns a condition: one comparison, or two joined by && or ||, or
// a negated one.
func (g *gen) cond(c ctx) string {
	a := g.atom(c)
	switch g.intn(6) {
	case 0:
		return a + " && " + g.atom(c)
	case 1:
		return a + " || " + g.atom(c)
	case 2:
		return "!(" + a + ")"
	}
	return a
}

// atom returns a comparison over variables and event parameters, a bool
// parameter, or an In() test.
func (g *gen) atom(c ctx) string {
	if g.opts.EventFields && g.intn(5) == 0 {
		return g.eventAtom()
	}
	if g.opts.Values && g.chance(0.4) {
		return g.valueAtom(c)
	}
	if g.opts.MixedKinds && g.chance(0.3) {
		return g.mixedAtom()
	}
	if g.opts.Loose && g.chance(0.2) {
		return g.looseAtom(c)
	}
	if g.opts.HostCalls && len(c.intParams()) > 0 && g.chance(0.15) {
		// A host function the model calls for its value: a black box, in
		// the guards of input events only (one the machine's start reads
		// would give it two ways to start, which the explorer refuses).
		return fmt.Sprintf("sensor() %s %d", pick(g, comparisons), g.intn(10))
	}
	ints, bools := c.intParams(), c.boolParams()
	for {
		switch g.intn(7) {
		case 0, 1:
			return fmt.Sprintf("%s %s %d", pick(g, g.vars), pick(g, comparisons), g.intn(10))
		case 2:
			if len(g.vars) >= 2 {
				return fmt.Sprintf("%s %s %s", g.vars[0], pick(g, comparisons), g.vars[1])
			}
		case 3:
			if len(ints) > 0 {
				return fmt.Sprintf("%s %s %d", paramRef(pick(g, ints)), pick(g, comparisons), g.intn(10))
			}
		case 4:
			if len(ints) > 0 {
				return fmt.Sprintf("%s + %s >= %d", pick(g, g.vars), paramRef(pick(g, ints)), g.between(3, 15))
			}
		case 5:
			if len(bools) > 0 {
				if g.chance(0.5) {
					return "!" + paramRef(pick(g, bools))
				}
				return paramRef(pick(g, bools))
			}
		case 6:
			leaves := g.anyState(func(s *state) bool { return s.kind == atomic })
			return fmt.Sprintf("In('%s')", pick(g, leaves).id)
		}
	}
}

// eventAtom returns a test of how the event being processed arrived,
// which reads nothing while the machine starts (_event is false then).
func (g *gen) eventAtom() string {
	return "(_event && " + pick(g, []string{
		"_event.sendid == undefined",
		"_event.sendid !== undefined",
		"typeof _event.origin === 'undefined'",
		"_event.origintype != null",
	}) + ")"
}

// sendID gives a send to the machine an id at random, with EventFields.
func (g *gen) sendID(s *elem) *elem {
	if g.opts.EventFields && g.chance(0.5) {
		s.set("id", pick(g, []string{"a", "b"}))
	}
	return s
}

// strLits are the string literals of generated code.
var strLits = []string{"''", "'a'", "'ab'", "'b'", "'é'"}

// valueAtom returns a condition on the string variable s, the variable w
// that may be undefined, a string parameter, or bits of an int variable.
func (g *gen) valueAtom(c ctx) string {
	strs := c.strParams()
	for {
		switch g.intn(8) {
		case 0:
			return fmt.Sprintf("s %s %s", pick(g, []string{"==", "!=", "<", ">="}), pick(g, strLits))
		case 1:
			return fmt.Sprintf("s.length %s %d", pick(g, comparisons), g.intn(4))
		case 2:
			return fmt.Sprintf("s.%s(%s)", pick(g, []string{"startsWith", "endsWith", "includes"}), pick(g, strLits))
		case 3:
			return pick(g, []string{"w === undefined", "w == null", "w !== undefined", "typeof w == 'number'", "w"})
		case 4:
			return fmt.Sprintf("(%s & %d) %s %d", pick(g, g.vars), g.between(1, 7), pick(g, []string{"==", "!="}), g.intn(4))
		case 5, 6:
			if len(strs) > 0 {
				p := paramRef(pick(g, strs))
				return pick(g, []string{p + " == " + pick(g, strLits), p + ".startsWith(" + pick(g, strLits) + ")",
					p + ".length > " + fmt.Sprint(g.intn(3)), p + ".indexOf('b') == " + fmt.Sprint(g.intn(3)-1), "!" + p,
					p + ".lastIndexOf('b') > " + p + ".indexOf('a')"})
			}
		case 7:
			return "s"
		}
	}
}

// valueAction returns an assignment of s, w or an int variable through a
// string or bit operation.
func (g *gen) valueAction(c ctx) *elem {
	strs := c.strParams()
	for {
		switch g.intn(5) {
		case 0:
			return newElem("assign", "location", "s", "expr", "(s + "+pick(g, strLits)+").substring(0, 3)")
		case 1:
			if len(strs) > 0 {
				return newElem("assign", "location", "s", "expr", paramRef(pick(g, strs))+".substring(0, 2)")
			}
		case 2:
			return newElem("assign", "location", "w", "expr", pick(g, []string{"undefined", "null", g.value(c)}))
		case 3:
			v := pick(g, g.vars)
			return newElem("assign", "location", v, "expr", fmt.Sprintf("(%s ^ %d) %% 10", v, g.between(1, 7)))
		case 4:
			return newElem("assign", "location", "s", "expr", "s.charAt("+fmt.Sprint(g.intn(2))+") + "+pick(g, strLits))
		}
	}
}

// value returns an int expression whose value is in [0, 9] when the
// variables are.
func (g *gen) value(c ctx) string {
	ints := c.intParams()
	for {
		switch g.intn(5) {
		case 0:
			return fmt.Sprint(g.intn(10))
		case 1:
			if len(ints) > 0 {
				return paramRef(pick(g, ints))
			}
		case 2:
			return fmt.Sprintf("(%s + %s) %% 10", pick(g, g.vars), g.operand(c))
		case 3:
			return fmt.Sprintf("(%s * 3 + %s) %% 10", pick(g, g.vars), pick(g, g.vars))
		case 4:
			return pick(g, g.vars)
		}
	}
}

// operand returns a non-negative term in [0, 9].
func (g *gen) operand(c ctx) string {
	ints := c.intParams()
	switch x := g.intn(3); {
	case x == 0 && len(ints) > 0:
		return paramRef(pick(g, ints))
	case x == 1:
		return pick(g, g.vars)
	}
	return fmt.Sprint(g.between(1, 9))
}

// actions returns n pieces of executable content.
func (g *gen) actions(c ctx, n int) []*elem {
	var out []*elem
	for range n {
		out = append(out, g.action(c, 0))
	}
	return out
}

// action returns one piece of executable content; depth bounds the
// nesting of <if>.
func (g *gen) action(c ctx, depth int) *elem {
	if g.opts.Values && g.chance(0.3) {
		return g.valueAction(c)
	}
	if g.opts.MixedKinds && g.chance(0.25) {
		return newElem("assign", "location", "m", "expr", g.mixedValue())
	}
	for {
		switch g.intn(9) {
		case 0, 1:
			return newElem("assign", "location", pick(g, g.vars), "expr", g.value(c))
		case 2:
			if depth < 2 {
				return g.ifElem(c, depth)
			}
		case 3:
			if c.raise && len(g.selfs) > 0 && (len(g.internals) == 0 || g.chance(0.5)) {
				return g.selfSend(pick(g, g.selfs))
			}
			if c.raise && len(g.internals) > 0 {
				return g.raise(pick(g, g.internals))
			}
		case 4:
			return g.output()
		case 5:
			if len(g.timers) > 0 {
				return g.timer(pick(g, g.timers))
			}
		case 6, 7:
			sc := c
			sc.top = depth == 0
			return &elem{name: "script", lines: g.script(sc)}
		case 8:
			return newElem("log", "label", "trace", "expr", pick(g, g.vars))
		}
	}
}

// ifElem returns <if> with an optional <elseif> and <else>.
func (g *gen) ifElem(c ctx, depth int) *elem {
	e := newElem("if", "cond", g.cond(c))
	e.add(g.action(c, depth+1))
	if g.chance(0.3) {
		e.add(newElem("elseif", "cond", g.cond(c)), g.action(c, depth+1))
	}
	if g.chance(0.6) {
		e.add(newElem("else"), g.action(c, depth+1))
	}
	return e
}

// raise returns a raise of e: <raise> for an event without parameters,
// a send to #_internal for one with.
func (g *gen) raise(e *event) *elem {
	if len(e.params) == 0 {
		return newElem("raise", "event", e.name)
	}
	s := g.sendID(newElem("send", "event", e.name, "target", "#_internal"))
	for _, p := range e.params {
		s.add(newElem("param", "name", p.name, "expr", pick(g, g.vars)))
	}
	return s
}

// selfSend returns a send of e to the machine's own external queue (no
// target, no delay).
func (g *gen) selfSend(e *event) *elem {
	s := g.sendID(newElem("send", "event", e.name))
	for _, p := range e.params {
		s.add(newElem("param", "name", p.name, "expr", pick(g, g.vars)))
	}
	return s
}

// output returns a send to the parent session: out0 carries val, out1
// nothing, out2 the first variable by namelist. Every send of one event
// passes the same parameters.
func (g *gen) output() *elem {
	switch g.intn(3) {
	case 0:
		return newElem("send", "event", "out0", "target", "#_parent").
			add(newElem("param", "name", "val", "expr", pick(g, g.vars)))
	case 1:
		return newElem("send", "event", "out1", "target", "#_parent")
	}
	return newElem("send", "event", "out2", "target", "#_parent", "namelist", g.vars[0])
}

// timer returns a delayed send of the named timer event to the machine.
func (g *gen) timer(name string) *elem {
	return g.sendID(newElem("send", "event", name, "delay", pick(g, []string{"100ms", "1s", "5s"})))
}

// script returns the lines of a <script> body.
func (g *gen) script(c ctx) []string {
	var lines []string
	for range g.between(1, 3) {
		lines = append(lines, g.statement(c, 0)...)
	}
	return lines
}

// statement returns one statement of the action language, as lines; depth
// bounds the nesting of if.
func (g *gen) statement(c ctx, depth int) []string {
	v := pick(g, g.vars)
	for {
		switch g.intn(9) {
		case 0:
			if g.opts.Loops {
				return []string{
					fmt.Sprintf("for (int i = 0; i < %d; i++) {", g.between(2, 4)),
					fmt.Sprintf("  %s = (%s + i) %% 10;", v, v),
					"}",
				}
			}
		case 1:
			return []string{fmt.Sprintf("if (%s < 9) {", v), "  " + v + "++;", "} else {", "  " + v + " = 0;", "}"}
		case 2:
			if g.opts.Loose && g.chance(0.3) {
				return g.looseStatement(c, depth)
			}
			if lines := g.hostStatement(c, v, 2); lines != nil {
				return lines
			}
			return []string{fmt.Sprintf("%s += %s;", v, g.operand(c)), v + " %= 10;"}
		case 3:
			if lines := g.hostStatement(c, v, 3); lines != nil {
				return lines
			}
			return []string{fmt.Sprintf("%s = %s;", v, g.value(c))}
		case 4:
			if depth < 1 {
				lines := []string{"if (" + g.cond(c) + ") {"}
				lines = append(lines, indent(g.statement(c, depth+1))...)
				if g.chance(0.6) {
					lines = append(lines, "} else {")
					lines = append(lines, indent(g.statement(c, depth+1))...)
				}
				return append(lines, "}")
			}
		case 5:
			g.nextLocal++
			k := fmt.Sprintf("k%d", g.nextLocal)
			decl := pick(g, []string{"int", "var", "let"})
			return []string{fmt.Sprintf("%s %s = %s;", decl, k, g.value(c)), fmt.Sprintf("%s = %s;", v, k)}
		case 6:
			if c.raise && len(g.selfs) > 0 && (len(g.internals) == 0 || g.chance(0.5)) {
				e := pick(g, g.selfs)
				if len(e.params) == 0 {
					return []string{"send " + e.name + "();"}
				}
				return []string{fmt.Sprintf("send %s(v: %s);", e.name, pick(g, g.vars))}
			}
			if c.raise && len(g.internals) > 0 {
				return g.raiseStatement(pick(g, g.internals))
			}
		case 7:
			if lines := g.hostStatement(c, v, 7); lines != nil {
				return lines
			}
			return []string{fmt.Sprintf("send out0(val: %s) to \"#_parent\";", g.value(c))}
		case 8:
			if len(g.timers) > 0 {
				return []string{fmt.Sprintf("send %s() after \"2s\";", pick(g, g.timers))}
			}
		}
	}
}

// raiseStatement returns a raise of the internal event e, as a statement
// or, with HostCalls, at times as SCXML.raise.
func (g *gen) raiseStatement(e *event) []string {
	host := g.opts.HostCalls && g.chance(0.5)
	switch {
	case len(e.params) == 0 && host:
		return []string{fmt.Sprintf("SCXML.raise({name: %q});", e.name)}
	case len(e.params) == 0:
		return []string{"raise " + e.name + "();"}
	case host:
		return []string{fmt.Sprintf("SCXML.raise({name: %q, data: {v: %s}});", e.name, pick(g, g.vars))}
	}
	return []string{fmt.Sprintf("raise %s(v: %s);", e.name, pick(g, g.vars))}
}

// hostStatement returns, with HostCalls and at times, the statement of kind
// k (of statement's) written with what JavaScript engines give scripts:
// the object rec's field 'n.0' (2), the <data> function bump or a log (3),
// an output by SCXML.send or by a call of a function the model does not
// define (7). It returns nil otherwise.
func (g *gen) hostStatement(c ctx, v string, k int) []string {
	if !g.opts.HostCalls {
		return nil
	}
	switch k {
	case 2:
		if g.chance(0.3) {
			return []string{fmt.Sprintf("rec['n.0'] = (rec['n.0'] + %s) %% 10;", g.operand(c)), fmt.Sprintf("%s = rec['n.0'];", v)}
		}
	case 3:
		if !g.chance(0.4) {
			return nil
		}
		if g.chance(0.5) {
			return []string{fmt.Sprintf("%s = bump(%s);", v, g.value(c))}
		}
		return []string{fmt.Sprintf("console.log('%s', %s);", v, v), fmt.Sprintf("%s = %s;", v, g.value(c))}
	case 7:
		switch g.intn(3) {
		case 0: // scxmlrun's send without a type or target: an output to the host
			return []string{fmt.Sprintf("SCXML.send({event: {name: \"out0\", data: {val: %s}}});", g.value(c))}
		case 1: // a call of a function the model does not define: an output to the host
			return []string{fmt.Sprintf("notify(%s);", g.value(c))}
		}
	}
	return nil
}

// indent indents lines by one level.
func indent(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = "  " + l
	}
	return out
}

// mixedStrs are the strings the variable m holds: Number() of each is a
// number (ECMAScript's == and < meet a number and a string so), the empty
// string and a leading zero included.
var mixedStrs = []string{"''", "'1'", "'02'", "'3'"}

// mixedAtom returns a condition on m, which holds an int or a string, or
// on a ?: of an int and a string.
func (g *gen) mixedAtom() string {
	switch g.intn(8) {
	case 0:
		return fmt.Sprintf("m %s %d", pick(g, []string{"==", "!=", "===", "!=="}), g.intn(4))
	case 1:
		return fmt.Sprintf("m %s %s", pick(g, []string{"==", "!=", "===", "!=="}), pick(g, mixedStrs))
	case 2:
		return pick(g, []string{"typeof m == 'string'", "typeof m === 'number'", "m", "!m"})
	case 3:
		return fmt.Sprintf("(m + %s).length %s %d", pick(g, mixedStrs), pick(g, comparisons), g.intn(4))
	case 4:
		return fmt.Sprintf("m %s %s", pick(g, []string{"<", ">=", "<=", ">"}), pick(g, append([]string{"2", "0"}, mixedStrs...)))
	case 5:
		return fmt.Sprintf("String(m) == %s", pick(g, mixedStrs))
	case 6:
		return fmt.Sprintf("(%s > 4 ? %s : %s) == m", pick(g, g.vars), pick(g, g.vars), pick(g, mixedStrs))
	}
	return fmt.Sprintf("m + %d %s %s", g.intn(3), pick(g, []string{"==", "==="}), pick(g, append([]string{"1", "2"}, mixedStrs...)))
}

// mixedValue returns a value for m: an int, a string, or a ?: or + that
// gives either.
func (g *gen) mixedValue() string {
	v := pick(g, g.vars)
	switch g.intn(6) {
	case 0:
		return v
	case 1:
		return pick(g, mixedStrs)
	case 2:
		return fmt.Sprintf("%s > 4 ? %s : %s", v, v, pick(g, mixedStrs))
	case 3:
		return "String(m)"
	case 4:
		return fmt.Sprintf("typeof m == 'string' ? %d : %s", g.intn(4), pick(g, mixedStrs))
	}
	return fmt.Sprintf("(m + %s).length", pick(g, mixedStrs))
}
