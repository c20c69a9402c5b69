package modelgen

import "fmt"

// BootEvent is the internal event Options.Start raises while the machine
// starts.
const BootEvent = "boot"

// addStart gives the machine a start sequence, the macrostep that starts
// it: the top-level state it starts in assigns a variable and raises
// BootEvent on entry (and sometimes sets a timer), and a transition of
// that state on BootEvent, first in its priority, runs code (which may
// set timers) and sometimes moves inside the state (type internal), never
// out of it, so that the raise is handled once per entry and the
// macrostep ends.
func (g *gen) addStart() {
	x := g.root.deflt
	if x == nil {
		for _, c := range g.root.children {
			if c.kind != history {
				x = c
				break
			}
		}
	}
	for x != nil && x.depth > 1 {
		x = x.parent
	}
	if x == nil || x.kind == final {
		return
	}
	entry := []*elem{newElem("assign", "location", pick(g, g.vars), "expr", fmt.Sprint(g.between(1, 9))), newElem("raise", "event", BootEvent)}
	if len(g.timers) > 0 && g.chance(0.6) {
		entry = append(entry, g.timer(pick(g, g.timers)))
	}
	x.onentry = append(x.onentry, entry...)
	t := &transition{events: []string{BootEvent}}
	if g.chance(0.5) {
		t.cond = g.cond(ctx{})
	}
	t.body = g.actions(ctx{}, g.between(1, 2))
	inner := g.anyState(func(s *state) bool {
		return (s.kind == atomic || s.kind == compound) && s.descendant(x)
	})
	if x.kind == compound && len(inner) > 0 && g.chance(0.6) {
		t.targets, t.internal = []*state{pick(g, inner)}, true
	}
	x.trans = append([]*transition{t}, x.trans...)
}
