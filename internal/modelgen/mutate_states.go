package modelgen

import (
	"fmt"
	"regexp"
	"strings"
)

// inRef matches an In() test; group 3 is the state id.
var inRef = regexp.MustCompile(`In\((\s*)(['"])([^'"]*)(['"])(\s*)\)`)

// addState adds an atomic state, after the last child state of <scxml> or
// of a compound state (not a parallel state, where it would be a region).
func (m *mutator) addState() (Edit, bool) {
	parents := []*node{m.root}
	for _, s := range m.states {
		if isCompound(s) {
			parents = append(parents, s)
		}
	}
	p := choose(m, parents)
	id := m.fresh("NewState")
	s := newChild(p, "state", "id", id)
	if kids := childStates(p); len(kids) > 0 {
		p.insertAfter(kids[len(kids)-1], s)
	} else {
		p.appendChild(s)
	}
	return Edit{Change{StateAdded, id}, fmt.Sprintf("state %s added in %s", id, m.label(p))}, true
}

// removeState removes an atomic or final state that no In() names and
// whose code sends nothing to the machine (a handler could lose the only
// source of a parameter), retargeting every transition and initial into it
// to a sibling: the next one, or the previous one when it is the last.
func (m *mutator) removeState() (Edit, bool) {
	inUse := m.inReferences()
	type cand struct{ s, r *node }
	var cands []cand
	for _, s := range m.named(isAtomic) {
		if inUse[m.ids[s]] || generatesOwn(s) || hasChild(s, "datamodel") {
			continue
		}
		r := replacement(s)
		if r == nil || !m.safe(r) || !m.eventlessInto(s, r) {
			continue
		}
		if _, ok := r.attr("id"); !ok {
			continue
		}
		cands = append(cands, cand{s, r})
	}
	if len(cands) == 0 {
		return Edit{}, false
	}
	x := choose(m, cands)
	id, rid := m.ids[x.s], m.ids[x.r]
	p := x.s.parent
	if _, ok := p.attr("initial"); !ok && !hasChild(p, "initial") {
		// The default child of p: keep it the replacement when the state
		// removed was the default.
		if kids := childStates(p); kids[0] == x.s && kids[1] != x.r {
			p.setAttr("initial", rid)
		}
	}
	m.root.walk(func(n *node) {
		switch {
		case n.is("transition"):
			replaceTokens(n, "target", id, rid)
		case n.is("state") || n.is("scxml"):
			replaceTokens(n, "initial", id, rid)
		}
	})
	x.s.remove()
	return Edit{Change{StateRemoved, id}, fmt.Sprintf("state %s removed; what entered it enters %s", id, rid)}, true
}

// replacement returns the sibling that takes over the transitions into a
// removed state: the next enterable one, or the last before it.
func replacement(s *node) *node {
	var before *node
	after := false
	for _, k := range childStates(s.parent) {
		switch {
		case k == s:
			after = true
		case !enterable(k):
		case after:
			return k
		default:
			before = k
		}
	}
	return before
}

// eventlessInto reports whether every eventless transition into s can lead
// to r instead without a loop: its source is a sibling of r that comes
// before it.
func (m *mutator) eventlessInto(s, r *node) bool {
	id := m.ids[s]
	for _, t := range m.trans {
		if _, evented := t.el.attr("event"); evented {
			continue
		}
		for _, x := range targets(t.el) {
			if x != id {
				continue
			}
			if t.source.parent != r.parent || r.parent.index(r) < r.parent.index(t.source) || r == t.source {
				return false
			}
		}
	}
	return true
}

// inReferences returns the state ids that In() tests name.
func (c *chart) inReferences() map[string]bool {
	out := make(map[string]bool)
	scan := func(s string) {
		for _, x := range inRef.FindAllStringSubmatch(s, -1) {
			out[x[3]] = true
		}
	}
	c.root.walk(func(n *node) {
		switch n.kind {
		case elementNode:
			for _, a := range n.attrs {
				scan(a.Value)
			}
		case textNode:
			scan(n.text)
		}
	})
	return out
}

// renameState gives a state (not a history pseudo-state) a new id and
// updates every reference to it: targets, initial attributes, In() tests
// and done.state descriptors.
func (m *mutator) renameState() (Edit, bool) {
	cands := m.named(func(s *node) bool { return !s.is("history") })
	if len(cands) == 0 {
		return Edit{}, false
	}
	s := choose(m, cands)
	old := m.ids[s]
	id := m.fresh(old + "Renamed")
	s.setAttr("id", id)
	done := "done.state." + old
	rename := func(str string) string {
		return inRef.ReplaceAllStringFunc(str, func(x string) string {
			g := inRef.FindStringSubmatch(x)
			if g[3] != old {
				return x
			}
			return "In(" + g[1] + g[2] + id + g[4] + g[5] + ")"
		})
	}
	m.root.walk(func(n *node) {
		switch n.kind {
		case textNode:
			if t := rename(n.text); t != n.text {
				n.setText(t)
			}
			return
		case otherNode:
			return
		}
		for i, a := range n.attrs {
			if v := rename(a.Value); v != a.Value {
				n.attrs[i].Value = v
				n.dirty = true
			}
		}
		switch {
		case n.is("transition"):
			replaceTokens(n, "target", old, id)
			var ds []string
			changed := false
			for _, d := range events(n) {
				if d == done || strings.HasPrefix(d, done+".") {
					d, changed = "done.state."+id+d[len(done):], true
				}
				ds = append(ds, d)
			}
			if changed {
				n.setAttr("event", strings.Join(ds, " "))
			}
		case n.is("state") || n.is("scxml"):
			replaceTokens(n, "initial", old, id)
		}
	})
	return Edit{Change{StateRenamed, old + ">" + id}, fmt.Sprintf("state %s renamed to %s", old, id)}, true
}

// changeInitial points the default entry of <scxml> or of a compound
// state at another of its state children.
func (m *mutator) changeInitial() (Edit, bool) {
	type cand struct{ owner, child *node }
	var cands []cand
	for _, n := range append([]*node{m.root}, m.states...) {
		if n != m.root && !isCompound(n) {
			continue
		}
		cur := m.defaultChild(n)
		for _, k := range proper(n) {
			if _, ok := k.attr("id"); ok && k != cur && m.safe(k) {
				cands = append(cands, cand{n, k})
			}
		}
	}
	if len(cands) == 0 {
		return Edit{}, false
	}
	x := choose(m, cands)
	from, to := m.label(m.defaultChild(x.owner)), m.ids[x.child]
	if v, ok := x.owner.attr("initial"); ok {
		from = v
	}
	set := false
	for _, k := range x.owner.elems() {
		if k.is("initial") {
			for _, t := range k.elems() {
				if t.is("transition") {
					from, _ = t.attr("target")
					t.setAttr("target", to)
					set = true
				}
			}
		}
	}
	if !set {
		x.owner.setAttr("initial", to)
	}
	return Edit{Change{InitialChanged, m.label(x.owner)},
		fmt.Sprintf("the initial state of %s changed from %s to %s", m.label(x.owner), from, to)}, true
}
