package scxml

import (
	"sort"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"
)

// Strength of the evidence a use gives of a parameter's kind: a comparison
// with a literal, a string method or an assignment to a variable of a
// known kind says more than a truth test, and a truth test more than
// passing the value on, which tells nothing and leaves setbot to choose
// (forwardKind).
const (
	forwardUse = iota + 1
	truthUse
	kindUse
)

// forwardKind is the kind setbot gives data the model only passes on (a
// <content expr="_event.data"/>, a <param>, SCXML.send's data): a string,
// which holds any payload written out, is what a <content> whose text is
// no literal sends, and is one value (the empty string where nothing
// constrains it) that the report and the generated tests write as it is.
const forwardKind = ast.String

// paramUse is what the uses of one input parameter tell of its kind.
type paramUse struct {
	kind      ast.Kind
	strength  int
	clash     bool       // two uses of the same strength disagree
	forwardAt source.Pos // where the model first passes the parameter on
	// untyped are the globals declared without a value that the code
	// assigns the parameter to: where no use tells its kind, the kind
	// the checker gives them does (untypedParam).
	untyped []string
}

// untypedParam is a parameter of an input event that no use types (or
// that the model only passes on), and the globals declared without a value
// that the code assigns it to: once the checker has given them a kind, and
// where they agree, it is of that kind (checker.typeFromVars); where they
// never get one and the model passes the parameter on at forwardAt, it is
// a forwardKind (checker.forwardUntyped).
type untypedParam struct {
	ev        *model.Event
	name      string
	vars      []string
	forwardAt source.Pos
}

// merge notes in u what the uses v tell.
func (u *paramUse) merge(v *paramUse) {
	u.note(v.kind, v.strength)
	u.clash = u.clash || v.clash
	if u.forwardAt == source.NoPos {
		u.forwardAt = v.forwardAt
	}
	u.untyped = append(u.untyped, v.untyped...)
}

// note records that a use of strength s reads the parameter as kind k. An
// int and a decimal make a decimal (both are ECMAScript numbers).
func (u *paramUse) note(k ast.Kind, s int) {
	switch {
	case s < u.strength:
	case s > u.strength: // where it was first passed on, and the globals it is assigned to, stay
		u.kind, u.strength, u.clash = k, s, false
	case u.kind == k:
	case u.kind.IsNumber() && k.IsNumber():
		u.kind = ast.Decimal
	default:
		u.clash = true
	}
}

// inferInputParams gives the input events that declare no parameters those
// their transitions read, with the kind their uses tell (issue 28, README
// "ECMAScript as people write it"): _event.data.x > 3 makes x a number,
// _event.data.s.startsWith('a'), == 'a' or parseInt(_event.data.s) a
// string, and a parameter only tested for truth a boolean; _event.data
// compared with a literal, or parseInt's argument, is the data as a whole
// (a <content>'s), of that kind, where the event has no named parameter;
// a parameter assigned to a global whose kind the model gives
// (globalKinds) is of that kind; one only passed on is a string (forwardKind), with a
// warning. The environment's choice of x is then one of that kind, as if a
// <setbot:param> declared it; a parameter whose uses disagree, or tell
// nothing, stays undeclared, and the type checker refuses its reads with
// the hint to declare it. It returns the parameters that no use types and
// that the code assigns to globals declared without a value, whose kinds
// only the checker learns.
func (dc *declarer) inferInputParams(all []code) []untypedParam {
	uses := make(map[*model.Event]map[string]*paramUse)
	triggers, unknown := dc.entryTriggers()
	for _, c := range all {
		matches := codeMatcher(c, triggers, unknown)
		if matches == nil {
			continue
		}
		var found map[string]*paramUse
		for _, ev := range dc.m.Events {
			if ev.Kinds != model.Input || ev.Declared || len(ev.Params) > 0 || !matches(ev.Name) {
				continue
			}
			if found == nil {
				found = make(map[string]*paramUse)
				dc.paramUses(c, found)
			}
			m := uses[ev]
			if m == nil {
				m = make(map[string]*paramUse)
				uses[ev] = m
			}
			for name, u := range found {
				if m[name] == nil {
					m[name] = &paramUse{}
				}
				m[name].merge(u)
			}
		}
	}
	var untyped []untypedParam
	for ev, m := range uses {
		if len(m) > 1 {
			// The data as a whole and named parameters of one event are
			// two kinds, which setbot does not model.
			delete(m, ast.DataParam)
		}
		for name, u := range m {
			if u.strength <= forwardUse && len(u.untyped) > 0 {
				// A global the checker types says more than passing it on.
				untyped = append(untyped, untypedParam{ev, name, u.untyped, u.forwardAt})
				continue
			}
			if u.clash || u.strength == 0 {
				continue
			}
			ev.Params = append(ev.Params, model.Param{Name: name, Type: ast.Type{Kind: u.kind}})
			if u.strength == forwardUse {
				dc.warnForwarded(ev, name, u.forwardAt)
			}
		}
		sortParams(ev)
	}
	return untyped
}

func sortParams(ev *model.Event) {
	sort.Slice(ev.Params, func(i, j int) bool { return ev.Params[i].Name < ev.Params[j].Name })
}

// typeFromVars declares each parameter of ck.untyped whose globals the
// checker has given a kind, where they agree, of that kind (an int and a
// decimal make a decimal), as if a <setbot:param> declared it, and
// reports whether it declared any. The others wait for the next round.
func (ck *checker) typeFromVars() bool {
	learnt := false
	rest := ck.untyped[:0]
	for _, p := range ck.untyped {
		u, known := ck.varsKind(p.vars)
		switch {
		case !known:
			rest = append(rest, p)
		case !u.clash:
			p.ev.Params = append(p.ev.Params, model.Param{Name: p.name, Type: ast.Type{Kind: u.kind}})
			sortParams(p.ev)
			learnt = true
		}
	}
	ck.untyped = rest
	return learnt
}

// forwardUntyped declares each parameter of ck.untyped that the model
// passes on, and whose globals the checker gave no kind, a forwardKind,
// with the warning a parameter only passed on gets, and reports whether it
// declared any. It runs once nothing else is learnt.
func (ck *checker) forwardUntyped() bool {
	learnt := false
	rest := ck.untyped[:0]
	for _, p := range ck.untyped {
		if p.forwardAt == source.NoPos {
			rest = append(rest, p)
			continue
		}
		p.ev.Params = append(p.ev.Params, model.Param{Name: p.name, Type: ast.Type{Kind: forwardKind}})
		sortParams(p.ev)
		ck.warnForwarded(p.ev, p.name, p.forwardAt)
		learnt = true
	}
	ck.untyped = rest
	return learnt
}

// varsKind notes the kinds the checker has given the variables vars as
// uses that tell them (paramUse.note), where it has given each a scalar
// kind (known).
func (ck *checker) varsKind(vars []string) (u paramUse, known bool) {
	for _, name := range vars {
		k := ck.m.Var(name).Type.Kind
		if !k.IsScalar() {
			return u, false
		}
		u.note(k, kindUse)
	}
	return u, true
}

// warnForwarded says that setbot takes the parameter name of ev, which
// the model only passes on at pos, to be a forwardKind.
func (d *diag) warnForwarded(ev *model.Event, name string, pos source.Pos) {
	what := "_event.data." + name
	if name == ast.DataParam {
		what = "the data"
	}
	d.warns.Add(d.fset.Position(pos), "setbot takes %s of event %q to be a %s, as the model only passes it on: "+
		"to have the environment send another kind, declare it in <setbot:event name=%q> with <setbot:param name=%q type=\"...\"/>",
		what, ev.Name, forwardKind, ev.Name, name)
}

// paramUses records in found the kind each use of an event parameter in c
// tells.
func (dc *declarer) paramUses(c code, found map[string]*paramUse) {
	aliases := paramAliases(c)
	use := func(e ast.Expr, s int) *paramUse {
		if id, ok := e.(*ast.Ident); ok && aliases[id.Name] != nil {
			e = aliases[id.Name]
		}
		p, ok := e.(*ast.EventParam)
		if !ok || p.Name == ast.DataParam && s == truthUse {
			return nil // _event.data && _event.data.x tells nothing of the data
		}
		if found[p.Name] == nil {
			found[p.Name] = &paramUse{}
		}
		return found[p.Name]
	}
	note := func(e ast.Expr, k ast.Kind, s int) {
		u := use(e, s)
		if u == nil {
			return
		}
		u.note(k, s)
		if s == forwardUse && u.forwardAt == source.NoPos {
			u.forwardAt = e.Pos()
		}
	}
	if c.cond != nil {
		note(c.cond, ast.Bool, truthUse)
	}
	globals := dc.globalKinds(c)
	for _, n := range c.nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			if a, ok := n.(*ast.Assign); ok && a.Op == ast.ASSIGN && len(a.Path) == 0 {
				assignUse(a, globals, use, note)
			}
			nodeUses(n, note)
			return true
		})
	}
}

// assignUse notes what the assignment a tells of the parameter it may
// assign: the kind of a global that has one (globals), or the name of one
// declared without a value, whose kind the checker learns
// (paramUse.untyped).
func assignUse(a *ast.Assign, globals func(string) (ast.Kind, bool), use func(ast.Expr, int) *paramUse, note func(ast.Expr, ast.Kind, int)) {
	k, global := globals(a.Target.Name)
	switch {
	case !global:
	case k == ast.Undef:
		if u := use(a.Value, kindUse); u != nil {
			u.untyped = append(u.untyped, a.Target.Name)
		}
	case k.IsScalar():
		note(a.Value, k, kindUse)
	}
}

// nodeUses notes the kind that node n tells of the operands it reads; the
// arguments of a raise or send it passes on.
func nodeUses(n ast.Node, note func(ast.Expr, ast.Kind, int)) {
	switch x := n.(type) {
	case *ast.Raise, *ast.Send:
		_, args, _ := raiseOrSend(x)
		for _, a := range args {
			note(a.Value, forwardKind, forwardUse)
		}
	case *ast.Binary:
		binaryUses(x, note)
	case *ast.Unary:
		if x.Op == ast.NOT {
			note(x.X, ast.Bool, truthUse)
		}
	case *ast.If:
		note(x.Cond, ast.Bool, truthUse)
	case *ast.Cond:
		note(x.Cond, ast.Bool, truthUse)
	case *ast.Call:
		if x.Fun == "parseInt" && len(x.Args) > 0 {
			note(x.Args[0], ast.String, kindUse)
		}
	case *ast.Method:
		if _, ok := ast.StringMethods[x.Name]; ok || x.Name == "length" && !x.Call {
			note(x.X, ast.String, kindUse)
		}
	}
}

// globalKinds returns the kind of each global variable as the model
// gives it before the checker infers more (the literal of its <data>
// value, or its setbot:type; ast.Undef for one declared without a value),
// and whether the name is a global in c (no local of c hides it).
func (dc *declarer) globalKinds(c code) func(string) (ast.Kind, bool) {
	locals := make(map[string]bool)
	for _, n := range c.nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			if d, ok := n.(*ast.Decl); ok {
				locals[d.Name.Name] = true
			}
			return true
		})
	}
	return func(name string) (ast.Kind, bool) {
		v := dc.m.Var(name)
		if v == nil || locals[name] {
			return ast.Invalid, false
		}
		return v.Type.Kind, true
	}
}

// paramAliases returns the locals of c that hold an event parameter, var n
// = _event.data.count, and nothing else (no other declaration or
// assignment of the name in c): a use of n tells of count's kind as a use
// of _event.data.count does.
func paramAliases(c code) map[string]*ast.EventParam {
	aliases := make(map[string]*ast.EventParam)
	other := make(map[string]bool)
	for _, n := range c.nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.Decl:
				p, ok := x.Value.(*ast.EventParam)
				if !ok || aliases[x.Name.Name] != nil {
					other[x.Name.Name] = true
				} else {
					aliases[x.Name.Name] = p
				}
			case *ast.Assign:
				other[x.Target.Name] = true
			}
			return true
		})
	}
	for name := range other {
		delete(aliases, name)
	}
	return aliases
}

// binaryUses notes the kinds the operands of x tell: a truth test for && and
// ||, the kind of the literal a parameter is compared with.
func binaryUses(x *ast.Binary, note func(ast.Expr, ast.Kind, int)) {
	switch x.Op {
	case ast.LAND, ast.LOR:
		note(x.X, ast.Bool, truthUse)
		note(x.Y, ast.Bool, truthUse)
	case ast.EQL, ast.NEQ, ast.SEQL, ast.SNEQ, ast.LSS, ast.GTR, ast.LEQ, ast.GEQ:
		if k := ast.LiteralKind(x.Y); k != ast.Invalid {
			note(x.X, k, kindUse)
		}
		if k := ast.LiteralKind(x.X); k != ast.Invalid {
			note(x.Y, k, kindUse)
		}
	}
}

// dataTruths reads _event.data tested for truth (_event.data &&
// _event.data.x, <if cond="_event.data">) as true in the code of
// transitions whose events all carry named parameters whose kinds are
// known: _event.data is then an object, and every object is truthy in
// ECMAScript. Other reads of _event.data as a whole stay as they are.
func (dc *declarer) dataTruths(all []code) {
	triggers, unknown := dc.entryTriggers()
	named := namedEverywhere(all)
	for i, c := range all {
		if !dc.carriesParams(codeMatcher(c, triggers, unknown), named) {
			continue
		}
		truth := func(e ast.Expr) ast.Expr {
			if p, ok := e.(*ast.EventParam); ok && p.Name == ast.DataParam {
				return &ast.BoolLit{ValuePos: p.Start, Value: true}
			}
			return e
		}
		if c.cond != nil {
			if e := truth(c.cond); e != c.cond {
				all[i].cond = e
				c.set(e, c.body)
			}
		}
		for _, n := range all[i].nodes() {
			ast.Inspect(n, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.Binary:
					if x.Op == ast.LAND || x.Op == ast.LOR {
						x.X, x.Y = truth(x.X), truth(x.Y)
					}
				case *ast.Unary:
					if x.Op == ast.NOT {
						x.X = truth(x.X)
					}
				case *ast.If:
					x.Cond = truth(x.Cond)
				case *ast.Cond:
					x.Cond = truth(x.Cond)
				}
				return true
			})
		}
	}
}

// carriesParams reports whether the code whose events matches tells
// (codeMatcher) runs on events and every one of them has named
// parameters: of kinds known before inference (declared, or an input's),
// or passed by every raise and send of it (named, namedEverywhere).
func (dc *declarer) carriesParams(matches func(string) bool, named map[string]bool) bool {
	if matches == nil {
		return false
	}
	n := 0
	for _, ev := range dc.m.Events {
		if !matches(ev.Name) {
			continue
		}
		if named[ev.Name] {
			n++
			continue
		}
		if _, whole := ev.Param(ast.DataParam); whole || len(ev.Params) == 0 || !ev.Declared && ev.Kinds != model.Input {
			return false
		}
		n++
	}
	return n > 0
}
