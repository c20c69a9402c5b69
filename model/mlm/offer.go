package mlm

import (
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
)

// offers finds, for a configuration, the events worth flattening a
// macrostep for. An event that no transition of the configuration takes
// starts no macrostep (flattener.step discards it), unless an eventless
// condition reads _event or fails (rereadsEvent): so a state is offered
// only the events its transitions and its ancestors' take, and the work is
// the transitions', not states × events (a ring of 9,000 states with
// 9,000 events that one state takes was 81 million empty macrosteps).
type offers struct {
	events  []*model.Event
	byToken map[string][]int // indices into events, by the event name's first token
	memo    map[*model.State][]int
	all     map[*model.State]bool // the states with a transition on "*"
}

func newOffers(events []*model.Event) *offers {
	o := &offers{events: events, byToken: make(map[string][]int), memo: make(map[*model.State][]int),
		all: make(map[*model.State]bool)}
	for i, e := range events {
		tok, _, _ := strings.Cut(e.Name, ".")
		o.byToken[tok] = append(o.byToken[tok], i)
	}
	return o
}

// taken returns the events (indices, ascending) that one of s's own
// transitions takes, and whether one takes every event ("*"), in which
// case the list is empty.
func (o *offers) taken(s *model.State) (idx []int, all bool) {
	if idx, ok := o.memo[s]; ok {
		return idx, o.all[s]
	}
	for _, t := range s.Transitions {
		for _, d := range t.Events {
			if d == "*" {
				o.all[s] = true
				continue
			}
			tok, _, _ := strings.Cut(d, ".")
			for _, i := range o.byToken[tok] {
				if t.Matches(o.events[i].Name) {
					idx = append(idx, i)
				}
			}
		}
	}
	if o.all[s] {
		idx = nil
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	o.memo[s] = idx
	return idx, o.all[s]
}

// offered returns the events to flatten c's macrosteps for, in the order
// of events.
func (f *flattener) offered(c *config) []*model.Event {
	if f.rereadsAny(c) {
		return f.offers.events
	}
	var idx []int
	for _, s := range c.states() {
		taken, all := f.offers.taken(s)
		if all {
			return f.offers.events
		}
		idx = append(idx, taken...)
	}
	slices.Sort(idx)
	idx = slices.Compact(idx)
	out := make([]*model.Event, len(idx))
	for k, i := range idx {
		out[k] = f.offers.events[i]
	}
	return out
}

// rereadsAny reports whether an eventless transition of c reads _event or
// fails (rereadsEvent would hold for some event).
func (f *flattener) rereadsAny(c *config) bool {
	for _, t := range f.rereaders {
		if t.Source.Kind == model.Root || c.has(t.Source) {
			return true
		}
	}
	return false
}
