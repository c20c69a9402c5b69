package mlm

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/simplify"
)

// group is one outcome of transition selection: the transitions that fire
// (after conflict removal; empty when none does) and the condition under
// which exactly they fire (nil: always).
type group struct {
	trans []*model.Transition
	guard ast.Expr
	// fails are the transitions whose failing cond (CondFails, or
	// FailsWhen where it holds) the selection evaluated, in order: each
	// raises error.execution.
	fails []*model.Transition
}

// literals is a conjunction of transition conditions, each required true
// or false.
type literals map[*model.Transition]bool

// candidates returns, for each active atomic state with a transition
// that event matches (in document order), those transitions from the
// state outwards in document order, and the condition of each folded with
// what c and known tell.
func (f *flattener) candidates(c *config, event string, known map[string]ast.Expr) ([][]*model.Transition, map[*model.Transition]ast.Expr) {
	from, wild := f.triggers.matching(event), f.triggers.wildcards(event)
	atomic := f.lay.union(c.under(from.sources), c.under(wild.sources))
	cands := make([][]*model.Transition, len(atomic))
	conds := make(map[*model.Transition]ast.Expr)
	for i, a := range atomic {
		for s := a; s != nil; s = s.Parent {
			for _, t := range inOrder(from.bySource[s], wild.bySource[s]) {
				cands[i] = append(cands[i], t)
				if _, ok := conds[t]; !ok {
					conds[t] = f.foldCond(t.Cond, c, known)
				}
			}
		}
	}
	return cands, conds
}

// selection runs SCXML's selectTransitions symbolically on a
// configuration: for event "" the eventless transitions, otherwise those
// matching the event. Every atomic state takes the first transition, from
// itself outwards in document order, whose condition holds; the
// combinations of conditions are enumerated, each resolved by
// removeConflictingTransitions, and grouped by outcome.
//
// Only the atomic states with a candidate transition take part: one
// without any adds nothing to the outcomes, and leaving it out keeps the
// selection as cheap as the event is rare in a wide parallel state.
func (f *flattener) selection(c *config, event string, known map[string]ast.Expr) ([]group, error) {
	cands, conds := f.candidates(c, event, known) // one list per atomic state taking part
	type outcome struct {
		trans []*model.Transition
		fails []*model.Transition
		conjs []literals
	}
	outcomes := make(map[string]*outcome)
	var order []string
	count := 0
	var overflow error
	var enumerate func(i int, lits literals, enabled, fails []*model.Transition)
	enumerate = func(i int, lits literals, enabled, fails []*model.Transition) {
		if overflow != nil {
			return
		}
		if i == len(cands) {
			count++
			if count > f.opts.MaxCombinations {
				overflow = fmt.Errorf("more than %d combinations of transition conditions in configuration %s on %s",
					f.opts.MaxCombinations, c.name(), eventLabel(event))
				return
			}
			sel := f.removeConflicts(dedup(enabled), c)
			key := transKey(sel) + "!" + transKey(fails)
			o, ok := outcomes[key]
			if !ok {
				o = &outcome{trans: sel, fails: fails}
				outcomes[key] = o
				order = append(order, key)
			}
			o.conjs = append(o.conjs, lits)
			return
		}
		// Option k: candidates before k are false, k is true; option
		// len(cands[i]): all are false.
		for k := 0; k <= len(cands[i]); k++ {
			next, ok := lits, true
			copied := false
			require := func(t *model.Transition, v bool) {
				cond := conds[t]
				if lit, isLit := cond.(*ast.BoolLit); isLit || cond == nil {
					if cond == nil && !v || isLit && lit.Value != v {
						ok = false
					}
					return
				}
				if have, set := next[t]; set {
					if have != v {
						ok = false
					}
					return
				}
				if !copied {
					next = copyLits(lits)
					copied = true
				}
				next[t] = v
			}
			for j := 0; j < k && j < len(cands[i]) && ok; j++ {
				require(cands[i][j], false)
			}
			if k < len(cands[i]) && ok {
				require(cands[i][k], true)
			}
			if !ok {
				continue
			}
			en := enabled
			if k < len(cands[i]) {
				en = append(append([]*model.Transition(nil), enabled...), cands[i][k])
			}
			fl := fails
			for _, t := range cands[i][:min(k, len(cands[i]))] {
				if t.CondFails || t.FailsWhen != nil {
					fl = append(slices.Clip(fl), t)
				}
			}
			enumerate(i+1, next, en, fl)
		}
	}
	enumerate(0, literals{}, nil, nil)
	if overflow != nil {
		return nil, overflow
	}
	var out []group
	for _, key := range order {
		o := outcomes[key]
		out = append(out, splitFails(group{trans: o.trans, fails: o.fails, guard: disjunction(minimize(o.conjs), conds)}, 0)...)
	}
	return out, nil
}

// splitFails splits g on each of its fails from the i-th on whose cond
// fails only where FailsWhen holds: one group where it holds, which
// raises error.execution, and one where it does not, which does not. So
// a selection in which no cond fails has no action of its own, as one
// without failing conds has none.
func splitFails(g group, i int) []group {
	for ; i < len(g.fails); i++ {
		t := g.fails[i]
		if t.FailsWhen == nil {
			continue
		}
		fails, holds := g, g
		holds.guard = andGuard(g.guard, t.FailsWhen)
		fails.guard = andGuard(g.guard, &ast.Unary{OpPos: t.FailsWhen.Pos(), Op: ast.NOT, X: t.FailsWhen})
		fails.fails = slices.Delete(slices.Clone(g.fails), i, i+1)
		return append(splitFails(holds, i+1), splitFails(fails, i)...)
	}
	return []group{g}
}

// andGuard is g && x, where a nil g is always true.
func andGuard(g, x ast.Expr) ast.Expr {
	if g == nil {
		return x
	}
	return &ast.Binary{X: g, OpPos: g.Pos(), Op: ast.LAND, Y: x}
}

// triggers finds the transitions an event can take without matching
// every transition of the model against it: a model with thousands of
// events in thousands of parallel regions would pay that at every step.
// The transitions that take every event ("*") are kept apart (wild): the
// memo of each event would otherwise hold all of them again.
type triggers struct {
	lay     *layout
	byToken map[string][]*model.Transition // by the first token of a descriptor other than "*"
	wild    *matches                       // the transitions with the descriptor "*"
	memo    map[string]*matches
}

// matches are the transitions that match one event (for "": the
// eventless ones), by source state in document order.
type matches struct {
	bySource map[*model.State][]*model.Transition
	sources  []int // the sources' numbers in the layout, ascending
}

func newTriggers(m *model.Model, lay *layout) *triggers {
	tr := &triggers{lay: lay, byToken: make(map[string][]*model.Transition), memo: make(map[string]*matches)}
	var wild []*model.Transition
	for _, s := range lay.states {
		for _, t := range s.Transitions {
			if slices.Contains(t.Events, "*") {
				wild = append(wild, t)
				continue
			}
			var tokens []string
			for _, d := range t.Events {
				tok, _, _ := strings.Cut(d, ".")
				if !slices.Contains(tokens, tok) {
					tokens = append(tokens, tok)
				}
			}
			if t.Eventless() {
				tokens = []string{"\x00"} // no event's first token
			}
			for _, tok := range tokens {
				tr.byToken[tok] = append(tr.byToken[tok], t)
			}
		}
	}
	tr.wild = tr.bySource(wild)
	return tr
}

// matching returns the transitions that event matches but those of
// wildcards, "" the eventless ones. A descriptor matches an event whose
// first token is its own (model.DescriptorMatches).
func (tr *triggers) matching(event string) *matches {
	if m, ok := tr.memo[event]; ok {
		return m
	}
	var cands []*model.Transition
	if event == "" {
		cands = tr.byToken["\x00"]
	} else {
		tok, _, _ := strings.Cut(event, ".")
		for _, t := range tr.byToken[tok] {
			if t.Matches(event) {
				cands = append(cands, t)
			}
		}
	}
	m := tr.bySource(cands)
	tr.memo[event] = m
	return m
}

// wildcards returns the transitions that take event because it is one:
// those with the descriptor "*", none for "" (no event).
func (tr *triggers) wildcards(event string) *matches {
	if event == "" {
		return &matches{}
	}
	return tr.wild
}

// bySource groups transitions by their source.
func (tr *triggers) bySource(list []*model.Transition) *matches {
	list = slices.Clone(list)
	sort.SliceStable(list, func(i, j int) bool { return list[i].Order < list[j].Order })
	m := &matches{bySource: make(map[*model.State][]*model.Transition)}
	for _, t := range list {
		if len(m.bySource[t.Source]) == 0 {
			m.sources = append(m.sources, tr.lay.index[t.Source])
		}
		m.bySource[t.Source] = append(m.bySource[t.Source], t)
	}
	slices.Sort(m.sources)
	return m
}

// inOrder merges two lists of transitions in document order.
func inOrder(a, b []*model.Transition) []*model.Transition {
	return mergeBy(a, b, func(t *model.Transition) int { return t.Order })
}

func eventLabel(event string) string {
	if event == "" {
		return "eventless transitions"
	}
	return "event " + event
}

func copyLits(l literals) literals {
	n := make(literals, len(l)+1)
	for k, v := range l {
		n[k] = v
	}
	return n
}

func dedup(list []*model.Transition) []*model.Transition {
	seen := make(map[*model.Transition]bool)
	var out []*model.Transition
	for _, t := range list {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

func transKey(list []*model.Transition) string {
	parts := make([]string, len(list))
	for i, t := range list {
		parts[i] = t.ID
	}
	return strings.Join(parts, "+")
}

// foldCond resolves In() against the configuration, replaces variables
// whose value the macrostep knows by that value, and folds constants; nil
// stands for true.
func (f *flattener) foldCond(e ast.Expr, c *config, known map[string]ast.Expr) ast.Expr {
	if e == nil {
		return nil
	}
	e = simplify.Expr(ast.RewriteExpr(e, func(x ast.Expr) ast.Expr {
		switch x := x.(type) {
		case *ast.InState:
			return &ast.BoolLit{ValuePos: x.Start, Value: c.has(f.m.State(x.State))}
		case *ast.Ident:
			if v, ok := known[x.Name]; ok {
				return v
			}
		case *ast.EventField:
			return f.eventField(x)
		}
		return x
	}))
	if lit, ok := e.(*ast.BoolLit); ok && lit.Value {
		return nil
	}
	return e
}

// minimize merges conjunctions that differ in one literal (c && x, !c && x
// give x) and drops those another one absorbs, until neither applies. This
// removes the redundancy of conditions whose value did not matter to the
// outcome (a transition preempted anyway).
func minimize(conjs []literals) []literals {
	for changed := true; changed; {
		changed = false
	merge:
		for i := 0; i < len(conjs); i++ {
			for j := i + 1; j < len(conjs); j++ {
				if m, ok := adjacent(conjs[i], conjs[j]); ok {
					conjs = append(append(append([]literals{}, conjs[:i]...), m), without(conjs[i+1:], j-i-1)...)
					changed = true
					break merge
				}
				if subsumes(conjs[i], conjs[j]) {
					conjs = append(conjs[:j:j], conjs[j+1:]...)
					changed = true
					break merge
				}
				if subsumes(conjs[j], conjs[i]) {
					conjs = append(conjs[:i:i], conjs[i+1:]...)
					changed = true
					break merge
				}
			}
		}
	}
	return conjs
}

func without(list []literals, i int) []literals {
	return append(append([]literals{}, list[:i]...), list[i+1:]...)
}

// adjacent merges a and b when they have the same transitions and differ in
// exactly one value.
func adjacent(a, b literals) (literals, bool) {
	if len(a) != len(b) {
		return nil, false
	}
	var diff *model.Transition
	for t, v := range a {
		w, ok := b[t]
		if !ok {
			return nil, false
		}
		if v != w {
			if diff != nil {
				return nil, false
			}
			diff = t
		}
	}
	if diff == nil {
		return nil, false
	}
	m := copyLits(a)
	delete(m, diff)
	return m, true
}

// subsumes reports whether a is implied by b (a's literals are all in b).
func subsumes(a, b literals) bool {
	if len(a) > len(b) {
		return false
	}
	for t, v := range a {
		if w, ok := b[t]; !ok || w != v {
			return false
		}
	}
	return true
}

// disjunction builds (l1 && l2 ...) || ...; nil when one conjunction is
// empty (the outcome is unconditional).
func disjunction(conjs []literals, conds map[*model.Transition]ast.Expr) ast.Expr {
	var terms []ast.Expr
	for _, c := range conjs {
		ts := make([]*model.Transition, 0, len(c))
		for t := range c {
			ts = append(ts, t)
		}
		sort.Slice(ts, func(i, j int) bool { return ts[i].Order < ts[j].Order })
		var parts []ast.Expr
		for _, t := range ts {
			e := conds[t]
			if !c[t] {
				if complementedBy(e, c, conds) {
					continue
				}
				e = &ast.Unary{OpPos: e.Pos(), Op: ast.NOT, X: e}
			}
			parts = append(parts, e)
		}
		if len(parts) == 0 {
			return nil
		}
		terms = append(terms, conj(parts))
	}
	var out ast.Expr
	for _, t := range terms {
		if out == nil {
			out = t
			continue
		}
		out = &ast.Binary{X: out, OpPos: t.Pos(), Op: ast.LOR, Y: t}
	}
	return out
}

// removeConflicts is SCXML's removeConflictingTransitions: of two
// transitions whose exit sets intersect, the one from the descendant source
// wins, otherwise the one selected first.
func (f *flattener) removeConflicts(enabled []*model.Transition, c *config) []*model.Transition {
	var filtered []*model.Transition
	for _, t1 := range enabled {
		preempted := false
		var remove []*model.Transition
		x1 := f.exitSet([]*model.Transition{t1}, c)
		for _, t2 := range filtered {
			if intersects(x1, f.exitSet([]*model.Transition{t2}, c)) {
				if t1.Source.IsDescendant(t2.Source) {
					remove = append(remove, t2)
				} else {
					preempted = true
					break
				}
			}
		}
		if preempted {
			continue
		}
		var kept []*model.Transition
		for _, t := range filtered {
			if !containsT(remove, t) {
				kept = append(kept, t)
			}
		}
		filtered = append(kept, t1)
	}
	return filtered
}

func intersects(a, b map[*model.State]bool) bool {
	for s := range a {
		if b[s] {
			return true
		}
	}
	return false
}

func containsT(list []*model.Transition, t *model.Transition) bool {
	for _, x := range list {
		if x == t {
			return true
		}
	}
	return false
}

// complementedBy reports whether a condition required false is the exact
// negation of one required true in the same conjunction (if/else guards
// written out, as T2 and T3 of the triangle): the negative literal then
// adds nothing.
func complementedBy(e ast.Expr, c literals, conds map[*model.Transition]ast.Expr) bool {
	neg := negate(e)
	for t, v := range c {
		if v && conds[t] != nil && ast.Equal(neg, conds[t]) {
			return true
		}
	}
	return false
}

// negate pushes a negation inward (De Morgan, flipped comparisons), so
// that !(a > 0 && b > 0) becomes a <= 0 || b <= 0.
func negate(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.BoolLit:
		return &ast.BoolLit{ValuePos: x.ValuePos, Value: !x.Value}
	case *ast.Unary:
		if x.Op == ast.NOT {
			return x.X
		}
	case *ast.Binary:
		flip := map[ast.Token]ast.Token{ast.EQL: ast.NEQ, ast.NEQ: ast.EQL, ast.LSS: ast.GEQ,
			ast.GEQ: ast.LSS, ast.GTR: ast.LEQ, ast.LEQ: ast.GTR}
		switch {
		case x.Op == ast.LAND:
			return &ast.Binary{X: negate(x.X), OpPos: x.OpPos, Op: ast.LOR, Y: negate(x.Y)}
		case x.Op == ast.LOR:
			return &ast.Binary{X: negate(x.X), OpPos: x.OpPos, Op: ast.LAND, Y: negate(x.Y)}
		case flip[x.Op] != 0:
			return &ast.Binary{X: x.X, OpPos: x.OpPos, Op: flip[x.Op], Y: x.Y}
		}
	}
	return &ast.Unary{OpPos: e.Pos(), Op: ast.NOT, X: e}
}
