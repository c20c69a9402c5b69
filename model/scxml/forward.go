package scxml

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
)

// expandForwards replaces each send of the event being processed,
// SCXML.send({event: _event}) (lang.ForwardEvent), by a chain over the
// events the code may be processing: if (_event.name == "e") send e with
// e's data, as scxmlrun sends the _event object it is given (its name and
// data). A transition's code processes the events it matches; other code,
// and an eventless transition's, which run in the macrostep of the last
// event processed, any event of the model. Where no event has been
// processed yet (the start), nothing is sent. It runs once the events and the parameters of the
// inputs are known, and marks each forwarded event an output.
func (b *builder) expandForwards(all []code) {
	var passed map[string][]string
	for _, c := range all {
		if !anyNode(c.body, func(n lang.Node) bool { s, ok := n.(*lang.Send); return ok && s.Event == lang.ForwardEvent }) {
			continue
		}
		var events []*model.Event
		for _, ev := range b.m.Events {
			if c.trans == nil || c.trans.Eventless() || c.trans.Matches(ev.Name) {
				events = append(events, ev)
			}
		}
		if passed == nil {
			passed = passedParams(all)
		}
		c.body.Stmts = b.forwardList(c.body.Stmts, events, passed)
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
		lang.Inspect(c.body, func(n lang.Node) bool {
			name, args, _ := raiseOrSend(n)
			if _, seen := passed[name]; name == "" || name == lang.ForwardEvent || seen {
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

func (b *builder) forwardList(stmts []lang.Stmt, events []*model.Event, passed map[string][]string) []lang.Stmt {
	var out []lang.Stmt
	for _, s := range stmts {
		switch x := s.(type) {
		case *lang.Send:
			if x.Event == lang.ForwardEvent {
				out = append(out, b.forwardSend(x, events, passed)...)
				continue
			}
		case *lang.If:
			y := *x
			y.Then = &lang.Block{Lbrace: x.Then.Lbrace, Stmts: b.forwardList(x.Then.Stmts, events, passed)}
			if x.Else != nil {
				y.Else = b.forwardList([]lang.Stmt{x.Else}, events, passed)[0]
			}
			out = append(out, &y)
			continue
		case *lang.Block:
			out = append(out, &lang.Block{Lbrace: x.Lbrace, Stmts: b.forwardList(x.Stmts, events, passed)})
			continue
		}
		out = append(out, s)
	}
	return out
}

// forwardSend is the chain that stands for the forwarding send s.
func (b *builder) forwardSend(s *lang.Send, events []*model.Event, passed map[string][]string) []lang.Stmt {
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
		var args []*lang.Arg
		for _, p := range names {
			args = append(args, &lang.Arg{NamePos: pos, Name: p, Value: &lang.EventParam{Start: pos, Name: p}})
		}
		y := *s
		y.Event, y.Args = ev.Name, args
		if s.Target != "" {
			ev.Kinds |= model.Output
		}
		name := &lang.EventField{Start: pos, Field: "name"}
		arms = append(arms, arm{cond: &lang.Binary{X: name, OpPos: pos, Op: lang.EQL, Y: &lang.StrLit{ValuePos: pos, Value: ev.Name}}, then: []lang.Stmt{&y}})
	}
	return chain(pos, arms)
}
