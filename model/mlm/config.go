package mlm

import (
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
)

// config is an active configuration (root excluded) with the values the
// history states have recorded.
type config struct {
	active map[*model.State]bool
	hist   map[*model.State][]*model.State
}

func newConfig() *config {
	return &config{active: make(map[*model.State]bool), hist: make(map[*model.State][]*model.State)}
}

func (c *config) clone() *config {
	n := newConfig()
	for s := range c.active {
		n.active[s] = true
	}
	for h, v := range c.hist {
		n.hist[h] = v
	}
	return n
}

// states returns the active states in document order.
func (c *config) states() []*model.State {
	out := make([]*model.State, 0, len(c.active))
	for s := range c.active {
		out = append(out, s)
	}
	byOrder(out)
	return out
}

// atomic returns the active atomic states in document order.
func (c *config) atomic() []*model.State {
	var out []*model.State
	for _, s := range c.states() {
		if s.IsAtomic() {
			out = append(out, s)
		}
	}
	return out
}

func byOrder(list []*model.State) {
	sort.Slice(list, func(i, j int) bool { return list[i].Order < list[j].Order })
}

func ids(list []*model.State) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.ID
	}
	sort.Strings(out)
	return out
}

// name is the MLM state name: the active atomic states, then what each
// history state recorded. Names are sorted, so they do not depend on the
// order of states in the file.
func (c *config) name() string {
	var b strings.Builder
	b.WriteString(strings.Join(ids(c.atomic()), ","))
	for _, h := range c.histories() {
		b.WriteString("|" + h.History + "=" + strings.Join(h.States, ","))
	}
	return b.String()
}

func (c *config) histories() []HistoryValue {
	var out []HistoryValue
	for h, v := range c.hist {
		out = append(out, HistoryValue{History: h.ID, States: ids(v)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].History < out[j].History })
	return out
}

// inFinal reports whether s is in a final configuration (SCXML
// isInFinalState).
func (c *config) inFinal(s *model.State) bool {
	switch {
	case s.IsCompound():
		for _, k := range s.ChildStates() {
			if k.Kind == model.Final && c.active[k] {
				return true
			}
		}
	case s.Kind == model.Parallel:
		for _, k := range s.ChildStates() {
			if !c.inFinal(k) {
				return false
			}
		}
		return true
	}
	return false
}
