package mlm

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
)

// layout numbers the states of a model in document order, so that a
// configuration is a set of bits: a few words per hundred states, copied
// and compared in time proportional to that however wide the parallel
// states are, and the active descendants of a state are one run of bits
// (a subtree is contiguous in document order).
type layout struct {
	states []*model.State // document order, the root first
	index  map[*model.State]int
	end    []int // end[i] is one past the last descendant of states[i]
	parent []int // parent[i] is the number of states[i]'s parent; -1 for the root
	byID   []int // the states' numbers in the order of their ids
	rank   []int // rank[i] is the place of states[i] in byID
	finals []int // the top-level final states
}

func newLayout(m *model.Model) *layout {
	l := &layout{states: m.States(), index: make(map[*model.State]int)}
	for i, s := range l.states {
		l.index[s] = i
		if s.Kind == model.Final && s.Parent != nil && s.Parent.Kind == model.Root {
			l.finals = append(l.finals, i)
		}
	}
	l.end, l.parent = make([]int, len(l.states)), make([]int, len(l.states))
	for i := len(l.states) - 1; i >= 0; i-- {
		l.end[i], l.parent[i] = i+1, -1
		for _, c := range l.states[i].Children {
			l.end[i] = max(l.end[i], l.end[l.index[c]])
			l.parent[l.index[c]] = i
		}
	}
	l.byID = make([]int, len(l.states))
	for i := range l.byID {
		l.byID[i] = i
	}
	sort.Slice(l.byID, func(i, j int) bool { return l.states[l.byID[i]].ID < l.states[l.byID[j]].ID })
	l.rank = make([]int, len(l.states))
	for r, i := range l.byID {
		l.rank[i] = r
	}
	return l
}

// config is an active configuration (root excluded) with the values the
// history states have recorded.
type config struct {
	lay    *layout
	active []uint64 // bit i: lay.states[i] is active
	hist   map[*model.State][]*model.State
}

func (l *layout) newConfig() *config {
	return &config{lay: l, active: make([]uint64, (len(l.states)+63)/64), hist: make(map[*model.State][]*model.State)}
}

func (c *config) clone() *config {
	n := &config{lay: c.lay, active: slices.Clone(c.active), hist: make(map[*model.State][]*model.State, len(c.hist))}
	for h, v := range c.hist {
		n.hist[h] = v
	}
	return n
}

// has reports whether s is active (false for nil and for states of
// another model).
func (c *config) has(s *model.State) bool {
	i, ok := c.lay.index[s]
	return ok && c.active[i/64]&(1<<(i%64)) != 0
}

// set makes s active or not.
func (c *config) set(s *model.State, active bool) {
	i := c.lay.index[s]
	if active {
		c.active[i/64] |= 1 << (i % 64)
	} else {
		c.active[i/64] &^= 1 << (i % 64)
	}
}

// within appends to out the active states numbered lo to hi-1, in
// document order.
func (c *config) within(out []*model.State, lo, hi int) []*model.State {
	for w := lo / 64; w < len(c.active) && w*64 < hi; w++ {
		word := c.active[w]
		for word != 0 {
			i := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if i >= lo && i < hi {
				out = append(out, c.lay.states[i])
			}
		}
	}
	return out
}

// descendants returns the active proper descendants of s in document
// order.
func (c *config) descendants(s *model.State) []*model.State {
	i := c.lay.index[s]
	return c.within(nil, i+1, c.lay.end[i])
}

// states returns the active states in document order.
func (c *config) states() []*model.State {
	return c.within(nil, 0, len(c.lay.states))
}

// atomic returns the active atomic states in document order.
func (c *config) atomic() []*model.State {
	return slices.DeleteFunc(c.states(), func(s *model.State) bool { return !s.IsAtomic() })
}

// under returns the active atomic states at or below the given states
// (numbers in the layout, ascending), in document order. The root, which
// no configuration lists, counts as active. It walks whichever is shorter,
// the sources or the active states: an event that a long chain of states
// takes has thousands of sources of which one is active, and a wide
// parallel state thousands of active states of which an event touches few.
func (c *config) under(sources []int) []*model.State {
	active := 0
	for _, w := range c.active {
		active += bits.OnesCount64(w)
	}
	if active < len(sources) {
		return c.activeUnder(sources)
	}
	return c.sourcesUnder(sources)
}

// sourcesUnder is under by the sources: the active atomic states within
// each source that is active.
func (c *config) sourcesUnder(sources []int) []*model.State {
	var out []*model.State
	end := 0
	for _, i := range sources {
		if i < end {
			continue // within a source already taken
		}
		// The bit of i, not has(s): an event that many states take makes
		// this loop run once per source at every step.
		if !c.activeAt(i) {
			continue
		}
		start := len(out)
		out = c.within(out, i, c.lay.end[i])
		out = append(out[:start], slices.DeleteFunc(out[start:], func(s *model.State) bool { return !s.IsAtomic() })...)
		end = c.lay.end[i]
	}
	return out
}

// activeUnder is under by the active states: each active atomic state
// whose own number or an ancestor's is a source that is active.
func (c *config) activeUnder(sources []int) []*model.State {
	var out []*model.State
	for _, s := range c.within(nil, 0, len(c.lay.states)) {
		if !s.IsAtomic() {
			continue
		}
		for i := c.lay.index[s]; i >= 0; i = c.lay.parent[i] {
			if _, ok := slices.BinarySearch(sources, i); ok && c.activeAt(i) {
				out = append(out, s)
				break
			}
		}
	}
	return out
}

// activeAt reports whether state number i is active; the root, which no
// configuration lists, is.
func (c *config) activeAt(i int) bool {
	return c.active[i/64]&(1<<(i%64)) != 0 || c.lay.states[i].Kind == model.Root
}

// union merges two lists of states in document order, each state once.
func (l *layout) union(a, b []*model.State) []*model.State {
	return mergeBy(a, b, func(s *model.State) int { return l.index[s] })
}

// mergeBy merges two lists ascending by key into one, each key once.
func mergeBy[T any](a, b []T, key func(T) int) []T {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]T, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		i, j := key(a[0]), key(b[0])
		switch {
		case i < j:
			out, a = append(out, a[0]), a[1:]
		case j < i:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// final reports whether the machine has stopped in c: a top-level final
// state is active (and then it is the only active state).
func (c *config) final() bool {
	return slices.ContainsFunc(c.lay.finals, func(i int) bool { return c.active[i/64]&(1<<(i%64)) != 0 })
}

// key identifies c among the configurations of its model: the active
// states, then what each history state recorded. Equal keys are equal
// names. The active states are the words of bits that hold one, each
// after its place: a key costs a word per active region, not a bit per
// state of the model, which a long chain of states would make a kilobyte
// to hash at every step.
func (c *config) key() string {
	words := 0
	for _, w := range c.active {
		if w != 0 {
			words++
		}
	}
	b := make([]byte, 0, 12*words+8*len(c.hist)+2)
	b = binary.AppendUvarint(b, uint64(words))
	for i, w := range c.active {
		if w != 0 {
			b = binary.AppendUvarint(b, uint64(i))
			b = binary.LittleEndian.AppendUint64(b, w)
		}
	}
	hs := make([]int, 0, len(c.hist))
	for h := range c.hist {
		hs = append(hs, c.lay.index[h])
	}
	slices.Sort(hs)
	for _, h := range hs {
		b = binary.AppendUvarint(b, uint64(h))
		rec := c.hist[c.lay.states[h]]
		b = binary.AppendUvarint(b, uint64(len(rec)))
		for _, s := range rec {
			b = binary.AppendUvarint(b, uint64(c.lay.index[s]))
		}
	}
	return string(b)
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

// ids is ids for states of c's model, sorted by their ranks rather than
// by comparing the strings.
func (c *config) ids(list []*model.State) []string {
	ranks := make([]int, len(list))
	for i, s := range list {
		ranks[i] = c.lay.rank[c.lay.index[s]]
	}
	slices.Sort(ranks)
	out := make([]string, len(list))
	for i, r := range ranks {
		out[i] = c.lay.states[c.lay.byID[r]].ID
	}
	return out
}

// name is the MLM state name: the active atomic states, then what each
// history state recorded. Names are sorted, so they do not depend on the
// order of states in the file.
func (c *config) name() string {
	var b strings.Builder
	b.WriteString(strings.Join(c.ids(c.atomic()), ","))
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
			if k.Kind == model.Final && c.has(k) {
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
