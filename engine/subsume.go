package engine

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// Subsumption (docs/architecture.md §Subsumption): a new symbolic state is subsumed by
// an earlier one with the same MLM state, timers and valuation (compared
// on canonical forms, so the same canonical key) whose path condition the
// new one's implies; it is then not explored further. The new state is
// checked against the earlier ones of its key in order, and the first
// that it implies subsumes it, so that the tree does not depend on how the
// check is made.
//
// Most candidates are refuted by interval reasoning: the new path
// condition bounds a variable, and nothing else constrains it, to values
// some of which the candidate's condition excludes. So the new state's
// condition is prepared once (a premise: its conjuncts, and per variable
// its interval and whether only bounds constrain it), every candidate's
// bounds once when it joins the index, and a candidate the premise's intervals
// refute costs a few comparisons; only the others go to the full check,
// where the solver may be asked. The candidates of a key are indexed by
// their bounds in a trie, so that a whole group of candidates with a bound
// the premise refutes is passed over at once: the check costs what the
// candidates that survive cost, not what all of them do.

// candidate is a state that was not subsumed, under its canonical key,
// with its canonical path condition.
type candidate struct {
	n  *Node
	pc []solver.Term
}

// varBound is the interval a conjunction of bounds allows variable v.
type varBound struct {
	v  solver.Term
	iv interval
}

// premise is a new state's canonical path condition, prepared for the
// implications asked of it. Canonical conditions are short (the conjuncts
// connected to the valuation), so it holds slices, searched in order.
type premise struct {
	pc []solver.Term
	// vars holds every variable of pc with its interval (from the bound
	// conjuncts on it alone), its component (the variables connected to it
	// through conjuncts) and whether only bounds constrain the component
	// (it is pure): then pc's models, projected on the component, are
	// exactly the box of its intervals.
	vars []premiseVar
	// comps holds the component of each conjunct of pc, and sat, by
	// counterexample slot, the components (at most 64) the counterexample
	// satisfies, once asked (satisfied).
	comps []int
	sat   [maxCounterexamples]uint64
	satID [maxCounterexamples]uint64 // the id of the counterexample sat[slot] is of; 0 for none
	// in[x] == gen marks the terms x that follow from pc: its conjuncts,
	// and those implies proved while this premise was asked; neg[x] == gen
	// those that pc refutes: the negations of its conjuncts that the
	// table holds (Negated), and those implies refuted (or could not
	// prove). Each is one load: they are asked for every conjunct of every
	// candidate. The stamps outlive the premise (prepare reuses them with
	// the next gen).
	in, neg []uint32
	gen     uint32
}

type premiseVar struct {
	v    solver.Term
	iv   interval
	comp int
	pure bool
}

// holds reports whether x follows from the premise, as far as is known:
// it is a conjunct, or implies proved it.
func (p *premise) holds(x solver.Term) bool { return int(x) < len(p.in) && p.in[x] == p.gen }

// refutes reports whether the premise is known not to imply x: x is the
// negation of a conjunct (every model of the premise falsifies it;
// negation is an involution on terms, Table.Not, so that is whether the
// premise holds x's negation), or implies refuted it or could not prove it.
func (p *premise) refutes(x solver.Term) bool { return int(x) < len(p.neg) && p.neg[x] == p.gen }

// prove records that the premise implies x.
func (p *premise) prove(x solver.Term) { stamp(&p.in, x, p.gen) }

// refute records that the premise is not known to imply x.
func (p *premise) refute(x solver.Term) { stamp(&p.neg, x, p.gen) }

// mark records the conjuncts of p.pc for holds, and their negations that
// tab holds (Negated, which creates none) for refutes.
func (p *premise) mark(tab *solver.Table) {
	p.gen++
	if p.gen == 0 { // wrapped: old stamps could pass for new ones
		clear(p.in)
		clear(p.neg)
		p.gen = 1
	}
	for _, x := range p.pc {
		stamp(&p.in, x, p.gen)
		if n, ok := tab.Negated(x); ok {
			stamp(&p.neg, n, p.gen)
		}
	}
}

// stamp sets (*s)[x] to gen, growing *s to hold x.
func stamp(s *[]uint32, x solver.Term, gen uint32) {
	if int(x) >= len(*s) {
		*s = slices.Grow(*s, int(x)+1-len(*s))[:int(x)+1]
	}
	(*s)[x] = gen
}

// variable returns what the premise says of v, and whether it mentions v.
func (p *premise) variable(v solver.Term) (premiseVar, bool) {
	for _, pv := range p.vars {
		if pv.v == v {
			return pv, true
		}
	}
	return premiseVar{}, false
}

// subsumed decides whether an earlier state subsumes n (see above);
// otherwise n becomes a candidate.
func (e *explorer) subsumed(n *Node) {
	var canon []solver.Term
	if n.Reused {
		canon = e.strat.canonOf(e.strat.counterpart(n))
	}
	if canon == nil {
		canon = e.canonicalForm(n)
	}
	e.subsumedAs(n, canon)
}

// canonicalForm is n's canonical form as a node keeps it: canonical's
// terms, then its path condition.
func (e *explorer) canonicalForm(n *Node) []solver.Term {
	terms, pc := e.canonical(n)
	return append(slices.Grow(terms[:len(terms):len(terms)], len(pc)), pc...)
}

// subsumedAs is subsumed for n of the canonical form given (as
// canonicalForm returns it).
func (e *explorer) subsumedAs(n *Node, canon []solver.Term) {
	n.canon = canon
	k := canonicalTerms(n)
	key, pc := canonicalKey(n, canon[:k]), canon[k:len(canon):len(canon)]
	if s, decided := e.strat.subsumer(n, key, pc); decided {
		if s != nil {
			n.Subsumed = s
			return
		}
		e.index(key, n, pc)
		return
	}
	p := e.x.or.prepare(pc)
	for _, c := range e.byKey[key].survivors(p) {
		if e.x.or.implies(p, c.pc) {
			n.Subsumed = c.n
			return
		}
	}
	e.index(key, n, pc)
}

// index makes n a candidate under key.
func (e *explorer) index(key string, n *Node, pc []solver.Term) {
	cs := e.byKey[key]
	if cs == nil {
		cs = &keyIndex{tab: e.x.tab}
		e.byKey[key] = cs
	}
	cs.add(&candidate{n: n, pc: pc})
	if e.strat.indexed(n, key) {
		cs.fresh++
	}
}

// canonical renames n's variables in order of first occurrence (valuation,
// then timers, then the path condition) and keeps only the conjuncts
// connected to the valuation: loops that keep receiving inputs then close.
// It returns the renamed valuation and timer arguments and dues, in that order (the
// terms of n's canonical key, see canonicalKey), and the renamed
// conjuncts. It reads of n only its state, valuation, timers and path
// condition.
func (e *explorer) canonical(n *Node) (terms, pc []solver.Term) {
	tab := e.x.tab
	if e.seen == nil {
		e.seen, e.ren = make(map[solver.Term]bool), make(map[solver.Term]solver.Term)
	}
	seen, ren := e.seen, e.ren // scratch, cleared for each state
	clear(seen)
	clear(ren)
	order := e.order[:0]
	defer func() { e.order = order[:0] }()
	for _, v := range n.Vals {
		order = tab.VarsInOrder(v, seen, order)
	}
	for _, t := range n.Timers {
		for _, a := range t.Args {
			order = tab.VarsInOrder(a.Value, seen, order)
		}
		if t.Due != 0 {
			order = tab.VarsInOrder(t.Due, seen, order)
		}
	}
	rel := e.x.or.Slice(e.present(n), order)
	for _, c := range rel {
		order = tab.VarsInOrder(c, seen, order)
	}
	for i, v := range order {
		ren[v] = e.canonicalVar(i, tab.Sort(v))
	}
	var sub *solver.Substitution // e.sub, reset for this state on first use
	apply := func(x solver.Term) solver.Term {
		// Most terms have a variable or two, renamed as in many other
		// states: the renamed term is looked up before it is built.
		vs := tab.Vars(x)
		if len(vs) == 0 {
			return x
		}
		k := renamedKey{x: x}
		switch len(vs) {
		case 2:
			k.r1 = ren[vs[1]]
			fallthrough
		case 1:
			k.r0 = ren[vs[0]]
		default:
			if sub == nil {
				sub = e.substitution(ren)
			}
			return sub.Apply(x)
		}
		r, ok := e.renamed[k]
		if !ok {
			if sub == nil {
				sub = e.substitution(ren)
			}
			r = sub.Apply(x)
			e.renamed[k] = r
		}
		return r
	}
	terms = make([]solver.Term, 0, len(n.Vals))
	for _, v := range n.Vals {
		terms = append(terms, apply(v))
	}
	for _, t := range n.Timers {
		for _, a := range t.Args {
			terms = append(terms, apply(a.Value))
		}
		if t.Due != 0 {
			terms = append(terms, apply(t.Due))
		}
	}
	pc = make([]solver.Term, len(rel))
	for i, c := range rel {
		pc[i] = apply(c)
	}
	return terms, pc
}

// canonicalKey is n's canonical key: its state, its renamed valuation and
// its timers with their renamed arguments and dues (terms, as canonical
// returns them).
func canonicalKey(n *Node, terms []solver.Term) string {
	b := make([]byte, 0, 64)
	b = append(b, n.State.Name...)
	for _, v := range terms[:len(n.Vals)] {
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(v), 10)
	}
	terms = terms[len(n.Vals):]
	for _, t := range n.Timers { // "|event#"id"", ",name=term" per argument, "@due"
		b = append(append(append(b, '|'), t.Event...), '#')
		b = strconv.AppendQuote(b, t.ID)
		for _, a := range t.Args {
			b = append(append(append(b, ','), a.Name...), '=')
			b = strconv.AppendInt(b, int64(terms[0]), 10)
			terms = terms[1:]
		}
		if t.Due != 0 {
			b = strconv.AppendInt(append(b, '@'), int64(terms[0]), 10)
			terms = terms[1:]
		}
	}
	return string(b)
}

// canonicalTerms is the number of terms of n's canonical key.
func canonicalTerms(n *Node) int {
	k := len(n.Vals)
	for _, t := range n.Timers {
		k += len(t.Args)
		if t.Due != 0 {
			k++
		}
	}
	return k
}

// present returns n's path condition without the conjuncts that tie its
// timers' dues to the past (those on an elapsed time, elapse's "dt@N"):
// the zone conjuncts on the dues say all the future depends on, so states
// reached at different times compare alike.
func (e *explorer) present(n *Node) []solver.Term {
	if len(n.Timers) == 0 || e.x.opts.Time == vocab.TimeUntimed {
		return n.PC // with no timer pending the ties touch nothing the state holds
	}
	tab := e.x.tab
	out := make([]solver.Term, 0, len(n.PC))
	for _, c := range n.PC {
		tie := false
		for _, v := range tab.Vars(c) {
			if strings.HasPrefix(tab.Name(v), elapsedPrefix) {
				tie = true
				break
			}
		}
		if !tie {
			out = append(out, c)
		}
	}
	return out
}

// renamedKey is a term with the canonical variables its one or two
// variables are renamed to (in the order of Table.Vars).
type renamedKey struct{ x, r0, r1 solver.Term }

// substitution returns the explorer's substitution, reset to ren.
func (e *explorer) substitution(ren map[solver.Term]solver.Term) *solver.Substitution {
	if e.sub == nil {
		e.sub = e.x.tab.Substitution(ren)
	} else {
		e.sub.Reset(ren)
	}
	return e.sub
}

// canonicalVar is the i-th variable of a canonical form, of sort s.
func (e *explorer) canonicalVar(i int, s solver.Sort) solver.Term {
	k := canonKey{i, s}
	v, ok := e.canonVars[k]
	if !ok {
		v = e.x.tab.Var(fmt.Sprintf("#%d", i), s)
		e.canonVars[k] = v
	}
	return v
}

type canonKey struct {
	i int
	s solver.Sort
}

// bounds returns, per variable that a bound conjunct of pc constrains, the
// intersection of those bounds, sorted by variable.
func bounds(tab *solver.Table, pc []solver.Term) []varBound {
	var out []varBound
	for _, x := range pc {
		v, iv, ok := bound(tab, x)
		if !ok {
			continue
		}
		i := 0
		for i < len(out) && out[i].v != v {
			i++
		}
		if i == len(out) {
			out = append(out, varBound{v: v, iv: iv})
			continue
		}
		out[i].iv.lo, out[i].iv.hi = max(out[i].iv.lo, iv.lo), min(out[i].iv.hi, iv.hi)
	}
	slices.SortFunc(out, func(a, b varBound) int { return cmp.Compare(a.v, b.v) })
	return out
}

// prepare makes pc a premise: its variables with their intervals and
// components. The premise is the oracle's, overwritten by the next call:
// it serves one state's subsumption.
func (o *oracle) prepare(pc []solver.Term) *premise {
	tab := o.tab
	p := &o.premise
	*p = premise{pc: pc, vars: p.vars[:0], comps: p.comps[:0], in: p.in, neg: p.neg, gen: p.gen}
	p.mark(tab)
	// Union-find over the variables (by index in p.vars): a conjunct joins
	// those it mentions.
	parent, impure := o.parent[:0], o.impure[:0] // impure by variable; resolved to the roots below
	defer func() { o.parent, o.impure = parent, impure }()
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	at := func(v solver.Term) int {
		for i := range p.vars {
			if p.vars[i].v == v {
				return i
			}
		}
		p.vars = append(p.vars, premiseVar{v: v, iv: interval{math.MinInt64, math.MaxInt64}})
		parent = append(parent, len(parent))
		impure = append(impure, false)
		return len(p.vars) - 1
	}
	for _, x := range pc {
		vs := tab.Vars(x)
		first := -1
		for _, v := range vs {
			i := at(v)
			if first < 0 {
				first = i
			} else if a, b := find(first), find(i); a != b {
				parent[b] = a
			}
		}
		v, iv, ok := bound(tab, x)
		if !ok {
			for _, w := range vs {
				impure[at(w)] = true
			}
			continue
		}
		pv := &p.vars[at(v)]
		pv.iv.lo, pv.iv.hi = max(pv.iv.lo, iv.lo), min(pv.iv.hi, iv.hi)
	}
	// A root's component number, and whether it is impure, are kept in
	// the slices by root index: comp[r] is 1 + the number, 0 for none yet.
	comp := o.comp[:0]
	for range p.vars {
		comp = append(comp, 0)
	}
	o.comp = comp
	for i, bad := range impure {
		if bad {
			impure[find(i)] = true
		}
	}
	n := 0
	for i := range p.vars {
		r := find(i)
		if comp[r] == 0 {
			n++
			comp[r] = n
		}
		p.vars[i].comp, p.vars[i].pure = comp[r]-1, !impure[r]
	}
	for _, x := range pc {
		k := -1 // a conjunct without variables is true: pc is satisfiable
		if vs := tab.Vars(x); len(vs) > 0 {
			k = comp[find(at(vs[0]))] - 1
		}
		p.comps = append(p.comps, k)
	}
	return p
}

// keyIndex holds the candidates of one key, in order, and a trie of their
// bounds (sorted by variable): a candidate sits at the node its last bound
// leads to. Candidates join the trie when it is next searched: under MSE,
// most keys never are (the reuser's subsumer decides their nodes as the base did).
type keyIndex struct {
	tab   *solver.Table
	all   []*candidate
	tried int // candidates all[:tried] are in the trie
	root  trieNode
	fresh int // candidates without a base counterpart (MSE), all of them otherwise
}

type trieNode struct {
	edges []*trieEdge
	next  map[varBound]*trieEdge // the same edges, to find one on insertion, once they are many
	here  []int                  // indexes in all of the candidates whose bounds end here
}

// manyEdges is the number of edges beyond which a trie node finds one by a
// map rather than by a walk.
const manyEdges = 8

// edge returns t's edge of bound b, nil for none.
func (t *trieNode) edge(b varBound) *trieEdge {
	if t.next != nil {
		return t.next[b]
	}
	for _, e := range t.edges {
		if e.b == b {
			return e
		}
	}
	return nil
}

// add adds an edge of bound b to t.
func (t *trieNode) add(b varBound) *trieEdge {
	e := &trieEdge{b: b}
	t.edges = append(t.edges, e)
	switch {
	case t.next != nil:
		t.next[b] = e
	case len(t.edges) > manyEdges:
		t.next = make(map[varBound]*trieEdge, 2*len(t.edges))
		for _, e := range t.edges {
			t.next[e.b] = e
		}
	}
	return e
}

type trieEdge struct {
	b    varBound
	node trieNode
}

func (cs *keyIndex) add(c *candidate) { cs.all = append(cs.all, c) }

// try puts the candidate at index i, the next, in the trie.
func (cs *keyIndex) try(i int) {
	t := &cs.root
	for _, b := range bounds(cs.tab, cs.all[i].pc) {
		e := t.edge(b)
		if e == nil {
			e = t.add(b)
		}
		t = &e.node
	}
	t.here = append(t.here, i)
}

// survivors returns, in order, the candidates whose bounds the premise's
// intervals do not refute: a candidate that bounds a variable the premise
// does not mention is refuted (feasible conditions are never valid), and
// so is one that bounds a variable whose component in the premise is pure
// to an interval that does not contain the premise's (a value of the
// premise's interval outside it extends to a model of the premise, the
// other components being independent). The others may follow from the
// premise; implies decides.
func (cs *keyIndex) survivors(p *premise) []*candidate {
	if cs == nil {
		return nil
	}
	for ; cs.tried < len(cs.all); cs.tried++ {
		cs.try(cs.tried)
	}
	var idx []int
	var walk func(t *trieNode)
	walk = func(t *trieNode) {
		idx = append(idx, t.here...)
		for _, e := range t.edges {
			pv, ok := p.variable(e.b.v)
			if !ok || pv.pure && (pv.iv.lo < e.b.iv.lo || pv.iv.hi > e.b.iv.hi) {
				continue
			}
			walk(&e.node)
		}
	}
	walk(&cs.root)
	slices.Sort(idx)
	out := make([]*candidate, len(idx))
	for i, j := range idx {
		out[i] = cs.all[j]
	}
	return out
}
