package modelgen

import "fmt"

// addLooseStrings gives Loose models the event uc, which the machine sends
// itself with a <content> in one state's entry and with a <param> in
// another's (two shapes of its data), transitions that read both shapes,
// and one that sends, by an eventexpr computed from _event.name with
// replace and substr, the event uz.c, which other transitions take, one
// of them by what follows the last dot of its name (lastIndexOf).
func (g *gen) addLooseStrings() {
	leaves := g.anyState(func(s *state) bool { return s.kind == atomic })
	a, b := pick(g, leaves), pick(g, leaves)
	a.onentry = append(a.onentry, newElem("send", "event", "uc").add(newElem("content", "expr", "'a'")))
	b.onentry = append(b.onentry, newElem("send", "event", "uc").add(newElem("param", "name", "q", "expr", pick(g, g.vars))))
	assign := func() []*elem {
		return []*elem{newElem("assign", "location", pick(g, g.vars), "expr", fmt.Sprint(g.intn(10)))}
	}
	on := pick(g, leaves)
	on.trans = append(on.trans,
		&transition{events: []string{"uc"}, cond: "_event.data === 'a'",
			body: []*elem{newElem("send", "eventexpr", "'uz.' + _event.name.replace('u', '').substr(-1)")}},
		&transition{events: []string{"uc"}, cond: fmt.Sprintf("_event.data.q == %d", g.intn(10)), body: assign()})
	at := pick(g, leaves)
	at.trans = append(at.trans,
		&transition{events: []string{"uz"}, cond: "_event.name.substring(_event.name.lastIndexOf('.') + 1) == 'c' && _event.name.lastIndexOf('z', 0) == -1 && " + g.vars[0] + " > 4",
			body: []*elem{newElem("assign", "location", g.vars[0], "expr", "3")}},
		&transition{events: []string{"uz"}, cond: "_event.name == 'uz.c'", body: assign()})
}
