package scxml

import (
	"sort"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// Strength of the evidence a use gives of a parameter's kind: a comparison
// with a literal or a string method says more than a truth test.
const (
	truthUse = iota + 1
	kindUse
)

// paramUse is what the uses of one input parameter tell of its kind.
type paramUse struct {
	kind     ast.Kind
	strength int
	clash    bool // two uses of the same strength disagree
}

// note records that a use of strength s reads the parameter as kind k. An
// int and a decimal make a decimal (both are ECMAScript numbers).
func (u *paramUse) note(k ast.Kind, s int) {
	switch {
	case s < u.strength:
	case s > u.strength:
		*u = paramUse{kind: k, strength: s}
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
// (a <content>'s), of that kind, where the event has no named parameter. The environment's choice of x is then one of
// that kind, as if a <setbot:param> declared it; a parameter whose uses
// disagree, or tell nothing, stays undeclared, and the type checker refuses
// its reads with the hint to declare it.
func (dc *declarer) inferInputParams(all []code) {
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
				paramUses(c, found)
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
				m[name].note(u.kind, u.strength)
				m[name].clash = m[name].clash || u.clash
			}
		}
	}
	for ev, m := range uses {
		if len(m) > 1 {
			// The data as a whole and named parameters of one event are
			// two kinds, which setbot does not model.
			delete(m, ast.DataParam)
		}
		for name, u := range m {
			if !u.clash && u.strength > 0 {
				ev.Params = append(ev.Params, model.Param{Name: name, Type: ast.Type{Kind: u.kind}})
			}
		}
		sort.Slice(ev.Params, func(i, j int) bool { return ev.Params[i].Name < ev.Params[j].Name })
	}
}

// paramUses records in found the kind each use of an event parameter in c
// tells.
func paramUses(c code, found map[string]*paramUse) {
	aliases := paramAliases(c)
	note := func(e ast.Expr, k ast.Kind, s int) {
		if id, ok := e.(*ast.Ident); ok && aliases[id.Name] != nil {
			e = aliases[id.Name]
		}
		p, ok := e.(*ast.EventParam)
		if !ok || p.Name == ast.DataParam && s == truthUse {
			return // _event.data && _event.data.x tells nothing of the data
		}
		if found[p.Name] == nil {
			found[p.Name] = &paramUse{}
		}
		found[p.Name].note(k, s)
	}
	if c.cond != nil {
		note(c.cond, ast.Bool, truthUse)
	}
	for _, n := range c.nodes() {
		ast.Inspect(n, func(n ast.Node) bool {
			nodeUses(n, note)
			return true
		})
	}
}

// nodeUses notes the kind that node n tells of the operands it reads.
func nodeUses(n ast.Node, note func(ast.Expr, ast.Kind, int)) {
	switch x := n.(type) {
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
