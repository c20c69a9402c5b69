package modelgen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// MutateStart applies one change to the start sequence of a document (the
// macrostep that starts the machine; see Options.Start): it edits the
// entry code of a state the machine starts in (a constant it assigns, an
// output, the delay of a timer it sets), or the guard or code of a
// transition on BootEvent. It returns ok=false when the document has no
// such element.
func MutateStart(src []byte, seed int64) (out []byte, e Edit, ok bool) {
	c := newChart(src)
	if c == nil {
		return nil, Edit{}, false
	}
	m := &mutator{chart: c, r: rand.New(rand.NewPCG(uint64(seed), 0x57a27))}
	var edits []func() Edit
	for _, s := range c.startStates() {
		for _, b := range s.elems() {
			if !b.is("onentry") {
				continue
			}
			edits = append(edits, func() Edit {
				return Edit{Change{EntryChanged, c.ids[s]}, m.editCode(b, "the onentry of "+c.ids[s])}
			})
			b.walk(func(n *node) {
				if d, ok := n.attr("delay"); ok && n.is("send") {
					edits = append(edits, func() Edit {
						nd := map[bool]string{true: "2s", false: "1s"}[d == "1s"]
						n.setAttr("delay", nd)
						return Edit{Change{EntryChanged, c.ids[s]}, fmt.Sprintf("a timer set on entry to %s: delay %s instead of %s", c.ids[s], nd, d)}
					})
				}
			})
		}
	}
	for _, t := range c.trans {
		if !slices.Contains(events(t.el), BootEvent) {
			continue
		}
		edits = append(edits, func() Edit {
			return Edit{Change{ActionChanged, t.id}, m.editCode(t.el, "the action of transition "+t.id)}
		}, func() Edit {
			old, has := t.el.attr("cond")
			cond := "!(" + old + ")"
			switch {
			case !has:
				cond = m.newCondition()
			case len(literals(old)) > 0:
				cond = m.flipLiteral(old)
			}
			t.el.setAttr("cond", cond)
			return Edit{Change{GuardChanged, t.id}, fmt.Sprintf("the guard of transition %s changed from %q to %q", t.id, old, cond)}
		})
	}
	if len(edits) == 0 {
		return nil, Edit{}, false
	}
	e = choose(m, edits)()
	return c.doc.bytes(), e, true
}

// startStates returns the states the machine enters when it starts by
// default entry: the root's default child, its default child, and so on,
// every region of a parallel state.
func (c *chart) startStates() []*node {
	var out []*node
	var enter func(n *node)
	enter = func(n *node) {
		if n.is("parallel") {
			for _, k := range childStates(n) {
				out = append(out, k)
				enter(k)
			}
			return
		}
		if len(childStates(n)) == 0 {
			return
		}
		if k := c.defaultChild(n); k != nil && !k.is("history") {
			out = append(out, k)
			enter(k)
		}
	}
	enter(c.root)
	return out
}

// Reshape applies one edit that leaves the flattened machine as it was,
// as a user's tidying does: it reindents the document and adds a comment,
// or adds after a transition a copy of it with another target, which the
// first shadows (document order gives the first priority, and their
// conditions hold together). It returns a description of the edit, or
// ok=false when the document has no place for it.
func Reshape(src []byte, seed int64) (out []byte, what string, ok bool) {
	c := newChart(src)
	if c == nil {
		return nil, "", false
	}
	m := &mutator{chart: c, r: rand.New(rand.NewPCG(uint64(seed), 0x7e5a9e))}
	if m.chance(0.5) {
		if t := m.shadow(); t != "" {
			return c.doc.bytes(), t, true
		}
	}
	s := m.named(func(n *node) bool { return !n.is("history") })
	if len(s) == 0 {
		return nil, "", false
	}
	at := choose(m, s)
	at.parent.insertBefore(at, &node{kind: otherNode, raw: "<!-- " + c.ids[at] + " comes next -->"})
	out = []byte(strings.ReplaceAll(string(c.doc.bytes()), "\n  ", "\n    "))
	return out, "reindented, with a comment before " + c.ids[at], true
}

// shadow adds a shadowed copy of a transition (with another target) right
// after it and says so, or returns "" when there is no candidate: one with
// an event and a target and no condition (the flattener cannot always show
// that a copied condition and its negation never hold together), not of
// type internal, without a setbot:id.
func (m *mutator) shadow() string {
	var cands []*trans
	for _, t := range m.trans {
		_, id := t.el.setbotAttr("id")
		_, evented := t.el.attr("event")
		_, cond := t.el.attr("cond")
		typ, _ := t.el.attr("type")
		if evented && !cond && len(targets(t.el)) == 1 && !id && typ != "internal" && m.safe(t.source) {
			cands = append(cands, t)
		}
	}
	dests := m.named(enterable)
	if len(cands) == 0 || len(dests) == 0 {
		return ""
	}
	t := choose(m, cands)
	d := choose(m, dests)
	if !m.safe(d) {
		return ""
	}
	cp := t.el.clone()
	cp.setAttr("target", m.ids[d])
	t.source.insertAfter(t.el, cp)
	return fmt.Sprintf("a copy of transition %s to %s added after it, which it shadows", t.id, m.ids[d])
}
