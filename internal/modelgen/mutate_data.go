package modelgen

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model"
)

// addVariable adds an int variable that nothing uses to the datamodel of
// <scxml> (adding the datamodel when there is none).
func (m *mutator) addVariable() (Edit, bool) {
	var dm *node
	for _, k := range m.root.elems() {
		if k.is("datamodel") && dm == nil {
			dm = k
		}
	}
	if dm == nil {
		dm = newChild(m.root, "datamodel")
		if kids := childStates(m.root); len(kids) > 0 {
			m.root.insertBefore(kids[0], dm)
		} else {
			m.root.appendChild(dm)
		}
	}
	name := m.fresh("newVar")
	dm.appendChild(newChild(dm, "data", "id", name, "expr", "0"))
	return Edit{Change{VariableAdded, name}, fmt.Sprintf("variable %s added; nothing uses it", name)}, true
}

// removeVariable removes a <data> whose id occurs nowhere else in the
// document's attributes and text.
func (m *mutator) removeVariable() (Edit, bool) {
	var cands []*node
	m.root.walk(func(n *node) {
		if !n.is("data") {
			return
		}
		if id, ok := n.attr("id"); ok && m.uses(strings.TrimSpace(id)) == 1 {
			cands = append(cands, n)
		}
	})
	if len(cands) == 0 {
		return Edit{}, false
	}
	d := choose(m, cands)
	id, _ := d.attr("id")
	d.remove()
	return Edit{Change{VariableRemoved, strings.TrimSpace(id)}, fmt.Sprintf("variable %s removed; nothing used it", id)}, true
}

// uses counts the attribute values and texts that contain the word name.
func (c *chart) uses(name string) int {
	word := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	n := 0
	c.root.walk(func(x *node) {
		switch x.kind {
		case elementNode:
			for _, a := range x.attrs {
				if word.MatchString(a.Value) {
					n++
				}
			}
		case textNode:
			if word.MatchString(x.text) {
				n++
			}
		}
	})
	return n
}

// changeInitialValue gives a variable with a constant initial value
// another value of its type (within its setbot:type range).
func (m *mutator) changeInitialValue() (Edit, bool) {
	var cands []*node
	m.root.walk(func(n *node) {
		expr, _ := n.attr("expr")
		if !n.is("data") || !boolLiteral.MatchString(expr) && !intLiteral.MatchString(expr) {
			return
		}
		typ, _ := n.setbotAttr("type")
		if lo, hi, ok := rangeOf(typ); ok && hi <= lo {
			return
		}
		cands = append(cands, n)
	})
	if len(cands) == 0 {
		return Edit{}, false
	}
	d := choose(m, cands)
	id, _ := d.attr("id")
	old, _ := d.attr("expr")
	var v string
	switch strings.TrimSpace(old) {
	case "true":
		v = "false"
	case "false":
		v = "true"
	default:
		cur, _ := strconv.Atoi(strings.TrimSpace(old))
		typ, _ := d.setbotAttr("type")
		next := cur + 1
		if lo, hi, ok := rangeOf(typ); ok {
			// Any other value of the range, but never very far.
			hi = min(hi, lo+20)
			next = lo + m.r.IntN(hi-lo)
			if next >= cur {
				next++
			}
		}
		v = strconv.Itoa(next)
	}
	d.setAttr("expr", v)
	return Edit{Change{InitialValueChanged, strings.TrimSpace(id)},
		fmt.Sprintf("the initial value of %s changed from %s to %s", id, old, v)}, true
}

// rangeOf returns the bounds of a ranged int type.
func rangeOf(typ string) (lo, hi int, ok bool) {
	g := intRange.FindStringSubmatch(typ)
	if g == nil {
		return 0, 0, false
	}
	lo, err1 := strconv.Atoi(g[1])
	hi, err2 := strconv.Atoi(g[2])
	return lo, hi, err1 == nil && err2 == nil
}

// decls returns the <setbot:event> declarations of events the machine
// never raises or sends: their parameters come from the environment only.
func (c *chart) decls() []*node {
	sent := c.sent()
	var out []*node
	for _, k := range c.root.elems() {
		if name, ok := k.attr("name"); ok && k.isSetbot("event") && !sent[strings.TrimSpace(name)] {
			out = append(out, k)
		}
	}
	return out
}

// params returns the <setbot:param> children of a declaration.
func params(decl *node) []*node {
	var out []*node
	for _, k := range decl.elems() {
		if k.isSetbot("param") {
			out = append(out, k)
		}
	}
	return out
}

// addParam adds a parameter, which nothing reads, to the declaration of an
// input event.
func (m *mutator) addParam() (Edit, bool) {
	decls := m.decls()
	if len(decls) == 0 {
		return Edit{}, false
	}
	d := choose(m, decls)
	ev, _ := d.attr("name")
	ev = strings.TrimSpace(ev)
	taken := make(map[string]bool)
	for _, p := range params(d) {
		name, _ := p.attr("name")
		taken[strings.TrimSpace(name)] = true
	}
	name := "extra"
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("extra%d", i)
	}
	typ := choose(m, []string{"int[0..9]", "int", "bool"})
	d.appendChild(newChild(d, "param", "name", name, "type", typ))
	return Edit{Change{ParamAdded, ev + "." + name}, fmt.Sprintf("parameter %s (%s) added to event %s", name, typ, ev)}, true
}

// removeParam removes a parameter of an input event that no code which
// can run on the event reads.
func (m *mutator) removeParam() (Edit, bool) {
	type cand struct {
		ev string
		p  *node
	}
	var cands []cand
	for _, d := range m.decls() {
		ev, _ := d.attr("name")
		ev = strings.TrimSpace(ev)
		for _, p := range params(d) {
			if name, _ := p.attr("name"); !m.paramRead(ev, strings.TrimSpace(name)) {
				cands = append(cands, cand{ev, p})
			}
		}
	}
	if len(cands) == 0 {
		return Edit{}, false
	}
	x := choose(m, cands)
	name, _ := x.p.attr("name")
	x.p.remove()
	return Edit{Change{ParamRemoved, x.ev + "." + strings.TrimSpace(name)},
		fmt.Sprintf("parameter %s removed from event %s; no code read it", name, x.ev)}, true
}

// paramRead reports whether code that can run on event ev reads its
// parameter p: a transition whose descriptors match ev, or any code that
// runs on whatever event comes (entry, exit, eventless transitions).
func (c *chart) paramRead(ev, p string) bool {
	read := regexp.MustCompile(`_event\s*\.\s*data\s*\.\s*` + regexp.QuoteMeta(p) + `\b`)
	found := false
	c.root.walk(func(x *node) {
		hit := false
		switch x.kind {
		case elementNode:
			for _, a := range x.attrs {
				hit = hit || read.MatchString(a.Value)
			}
		case textNode:
			hit = read.MatchString(x.text)
		}
		if hit && c.canSee(x, ev) {
			found = true
		}
	})
	return found
}

// canSee reports whether the code at node x may run on event ev: unless it
// belongs to an evented transition whose descriptors do not match ev, it
// may.
func (c *chart) canSee(x *node, ev string) bool {
	for n := x; n != nil; n = n.parent {
		if n.kind != elementNode {
			continue
		}
		switch {
		case n.is("transition"):
			ds := events(n)
			if len(ds) == 0 || n.parent == nil || n.parent.is("history") || n.parent.is("initial") {
				return true
			}
			for _, d := range ds {
				if model.DescriptorMatches(d, ev) {
					return true
				}
			}
			return false
		case n.is("onentry"), n.is("onexit"), n.is("scxml"):
			return true
		}
	}
	return true
}
