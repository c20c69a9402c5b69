package modelgen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/setbot/setbot/diffmap"
)

// PriorityChanged is the change class of swapPriority. Mutate applies it;
// it is not among Kinds, so the tests and versions made for every kind of
// Kinds leave it out.
const PriorityChanged = diffmap.PriorityChanged

// swapPriority swaps two transitions of one state on input events that
// one event can match, with none between them that competes with either,
// so that the later one is tried first: the change is the relative
// priority of these two only. The earlier one may stop preempting what it
// preempted (see unpreempt). The subject names both, as diffmap does:
// "FIRST before SECOND", FIRST the one now tried first, each by its
// identity after the swap.
func (m *mutator) swapPriority() (Edit, bool) {
	type pair struct{ a, b *trans }
	var cands []pair
	for i, a := range m.trans {
		if !m.inputOnly(a.el) || !m.unpreempt(a) {
			continue
		}
		var between []*trans
		for _, b := range m.trans[i+1:] {
			if b.source != a.source {
				continue
			}
			if !overlap(events(a.el), events(b.el)) {
				between = append(between, b)
				continue
			}
			if m.inputOnly(b.el) && text(a.el) != text(b.el) &&
				!slices.ContainsFunc(between, func(x *trans) bool { return overlap(events(x.el), events(b.el)) }) {
				cands = append(cands, pair{a, b})
			}
			break // later ones have b between them and a
		}
	}
	if len(cands) == 0 {
		return Edit{}, false
	}
	p := choose(m, cands)
	kids := p.a.source.kids
	i, j := p.a.source.index(p.a.el), p.a.source.index(p.b.el)
	kids[i], kids[j] = kids[j], kids[i]
	first, second := m.identity(p.b.el), m.identity(p.a.el)
	return Edit{Change{PriorityChanged, first + " before " + second},
		fmt.Sprintf("transitions %s and %s of %s swapped: %s is tried first", p.a.id, p.b.id, m.ids[p.a.source], first)}, true
}

// text prints an element as it is written.
func text(n *node) string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}
