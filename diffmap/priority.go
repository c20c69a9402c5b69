package diffmap

import (
	"strings"

	"github.com/setbot/setbot/model"
)

// match is a transition of the old version and its counterpart in the new.
type match struct{ o, n *model.Transition }

// moves pairs a removed transition with an added one that is the same in
// everything but its source, when that pairing is unique on both sides: a
// transition moved to another state. It stays a removal and an addition
// (what it applies to changed); the pairing only lets priorities compare
// it with the transitions it competes with before and after the move.
func (c *comparer) moves() {
	count := make(map[string]int)
	born := make(map[string]*model.Transition)
	for _, n := range c.born {
		k := c.content(n, false)
		count[k]++
		born[k] = n
	}
	gone := make(map[string]int)
	for _, o := range c.gone {
		gone[c.content(o, true)]++
	}
	for _, o := range c.gone {
		if k := c.content(o, true); gone[k] == 1 && count[k] == 1 {
			c.matched = append(c.matched, match{o, born[k]})
		}
	}
}

// priorities reports every two transitions that compete for an event in
// both versions and of which the other one is tried first in the new
// version: SCXML tries the transitions of an atomic state, then of its
// ancestors outwards, each state's in document order, and takes the first
// whose condition holds. Competing means that one source is the other or
// its ancestor and that one event can match both (or both are eventless).
func (c *comparer) priorities() {
	for i, a := range c.matched {
		for _, b := range c.matched[i+1:] {
			if !competes(a.o, b.o) || !competes(a.n, b.n) || before(a.o, b.o) == before(a.n, b.n) {
				continue
			}
			// Swapping two transitions that are the same in everything
			// changes nothing.
			if a.o.Source == b.o.Source && c.content(a.o, true) == c.content(b.o, true) ||
				a.n.Source == b.n.Source && c.content(a.n, false) == c.content(b.n, false) {
				continue
			}
			first, second := a, b
			if before(b.n, a.n) {
				first, second = b, a
			}
			ch := Change{Kind: PriorityChanged, Subject: first.n.ID + " before " + second.n.ID,
				Old: pos(c.o, first.o.Pos), New: pos(c.n, first.n.Pos)}
			for _, m := range []match{first, second} {
				ch.Transitions = append(ch.Transitions, TransitionPlace{ID: m.n.ID, Old: pos(c.o, m.o.Pos), New: pos(c.n, m.n.Pos)})
			}
			c.d.Changes = append(c.d.Changes, ch)
		}
	}
}

// before reports whether a is tried before b in a configuration where both
// can be taken: a's source is b's and a comes first in the document, or
// a's source lies within b's.
func before(a, b *model.Transition) bool {
	if a.Source == b.Source {
		return a.Order < b.Order
	}
	return a.Source.IsDescendant(b.Source)
}

// competes reports whether a and b, of one version, can both be candidates
// for one step of one atomic state: their sources are one state or an
// ancestor and its descendant, and they are both eventless or one event
// matches both. A history state's default transition takes no event.
func competes(a, b *model.Transition) bool {
	if a.Source.Kind == model.History || b.Source.Kind == model.History {
		return false
	}
	if a.Source != b.Source && !a.Source.IsDescendant(b.Source) && !b.Source.IsDescendant(a.Source) {
		return false
	}
	if a.Eventless() || b.Eventless() {
		return a.Eventless() && b.Eventless()
	}
	for _, x := range a.Events {
		for _, y := range b.Events {
			if overlap(x, y) {
				return true
			}
		}
	}
	return false
}

// overlap reports whether one event name matches both descriptors: "*"
// matches everything, and otherwise one descriptor (without a trailing
// ".*" or ".") is a prefix of the other by whole tokens.
func overlap(x, y string) bool {
	if x == "*" || y == "*" {
		return true
	}
	trim := func(d string) string { return strings.TrimSuffix(strings.TrimSuffix(d, ".*"), ".") }
	x, y = trim(x), trim(y)
	return model.DescriptorMatches(x, y) || model.DescriptorMatches(y, x)
}
