package scxml

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
)

// expandForwards replaces each send of the event being processed,
// SCXML.send({event: _event}) (parser.ForwardEvent), by a chain over the
// events the code may be processing: if (_event.name == "e") send e with
// e's data, as scxmlrun sends the _event object it is given (its name and
// data). A transition's code processes the events it matches; other code,
// and an eventless transition's, which run in the macrostep of the last
// event processed, any event of the model. Where no event has been
// processed yet (the start), nothing is sent. It runs once the events and the parameters of the
// inputs are known, and marks each forwarded event an output.
func (dc *declarer) expandForwards(all []code) {
	var passed map[string][]string
	for _, c := range all {
		if !ast.Any(c.body, func(n ast.Node) bool { s, ok := n.(*ast.Send); return ok && s.Event == parser.ForwardEvent }) {
			continue
		}
		var events []*model.Event
		for _, ev := range dc.m.Events {
			if c.trans == nil || c.trans.Eventless() || c.trans.Matches(ev.Name) {
				events = append(events, ev)
			}
		}
		if passed == nil {
			passed = passedParams(all)
		}
		c.body.Stmts = dc.forwardList(c.body.Stmts, events, passed)
	}
}

// passedParams returns the names of the parameters the first raise or send
// of each event passes: the parameters of an event that no <setbot:param>
// declares are learnt from its raises and sends as the code is checked,
// after the forwards are expanded, and a forward passes the same names
// (the checker then holds every raise and send of the event to them).
func passedParams(all []code) map[string][]string {
	passed := make(map[string][]string)
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			name, args, _ := raiseOrSend(n)
			if _, seen := passed[name]; name == "" || name == parser.ForwardEvent || seen {
				return true
			}
			names := make([]string, len(args))
			for i, a := range args {
				names[i] = a.Name
			}
			passed[name] = names
			return true
		})
	}
	return passed
}

func (dc *declarer) forwardList(stmts []ast.Stmt, events []*model.Event, passed map[string][]string) []ast.Stmt {
	var out []ast.Stmt
	for _, s := range stmts {
		switch x := s.(type) {
		case *ast.Send:
			if x.Event == parser.ForwardEvent {
				out = append(out, dc.forwardSend(x, events, passed)...)
				continue
			}
		case *ast.If:
			y := *x
			y.Then = &ast.Block{Lbrace: x.Then.Lbrace, Stmts: dc.forwardList(x.Then.Stmts, events, passed)}
			if x.Else != nil {
				y.Else = dc.forwardList([]ast.Stmt{x.Else}, events, passed)[0]
			}
			out = append(out, &y)
			continue
		case *ast.Block:
			out = append(out, &ast.Block{Lbrace: x.Lbrace, Stmts: dc.forwardList(x.Stmts, events, passed)})
			continue
		}
		out = append(out, s)
	}
	return out
}

// forwardSend is the chain that stands for the forwarding send s.
func (dc *declarer) forwardSend(s *ast.Send, events []*model.Event, passed map[string][]string) []ast.Stmt {
	pos := s.SendPos
	var arms []arm
	for _, ev := range events {
		names := passed[ev.Name]
		if len(ev.Params) > 0 || ev.Declared {
			names = nil
			for _, p := range ev.Params {
				names = append(names, p.Name)
			}
		}
		var args []*ast.Arg
		for _, p := range names {
			args = append(args, &ast.Arg{NamePos: pos, Name: p, Value: &ast.EventParam{Start: pos, Name: p}})
		}
		y := *s
		y.Event, y.Args = ev.Name, args
		if s.Target != "" {
			ev.Kinds |= model.Output
		}
		name := &ast.EventField{Start: pos, Field: "name"}
		arms = append(arms, arm{cond: &ast.Binary{X: name, OpPos: pos, Op: ast.EQL, Y: &ast.StrLit{ValuePos: pos, Value: ev.Name}}, then: []ast.Stmt{&y}})
	}
	return chain(pos, arms)
}
