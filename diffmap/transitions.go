package diffmap

import (
	"fmt"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
)

// transitions compares the transitions of every state present in both
// versions, matching them in rounds: the same everything, where that
// match is unique on both sides (so that reordered transitions which
// share events and targets keep their partners although their ordinal
// identities swap); the same events and targets (an unchanged identity:
// then guard or action may have changed); the same events (retargeted);
// the same targets and condition (trigger changed). What is left was
// removed or added. The transitions of added and removed states are part
// of those changes.
func (c *comparer) transitions() {
	news := proper(c.n)
	for _, o := range c.o.States() {
		if o.Kind == model.Root {
			continue
		}
		n := news[c.mapped(o.ID)]
		if o.Kind == model.History {
			n = c.n.State(c.mapped(o.ID))
		}
		if n == nil {
			continue
		}
		c.pair(o.Transitions, n.Transitions)
	}
}

func (c *comparer) targets(t *model.Transition, old bool) string {
	var ids []string
	for _, x := range t.Targets {
		if old {
			ids = append(ids, c.mapped(x.ID))
		} else {
			ids = append(ids, x.ID)
		}
	}
	return strings.Join(ids, " ")
}

func (c *comparer) pair(olds, news []*model.Transition) {
	usedO := make([]bool, len(olds))
	usedN := make([]bool, len(news))
	match := func(same func(o, n *model.Transition) bool, found func(o, n *model.Transition)) {
		for i, o := range olds {
			if usedO[i] {
				continue
			}
			for j, n := range news {
				if !usedN[j] && same(o, n) {
					usedO[i], usedN[j] = true, true
					c.matched = append(c.matched, match{o, n})
					found(o, n)
					break
				}
			}
		}
	}
	body := func(t *model.Transition, old bool) string { return c.blocks([]*ast.Block{t.Body}, old) }
	contentChanges := func(o, n *model.Transition) {
		if c.cond(guard(o), true) != c.cond(guard(n), false) {
			c.add(GuardChanged, n.ID, o.Pos, n.Pos)
		}
		if body(o, true) != body(n, false) || o.Type != n.Type {
			c.add(ActionChanged, n.ID, o.Pos, n.Pos)
		}
	}
	c.matchUnique(olds, news, usedO, usedN)
	match(func(o, n *model.Transition) bool {
		return c.events(o, true) == c.events(n, false) && c.targets(o, true) == c.targets(n, false)
	}, contentChanges)
	match(func(o, n *model.Transition) bool { return c.events(o, true) == c.events(n, false) }, func(o, n *model.Transition) {
		c.add(TransitionRetargeted, n.ID, o.Pos, n.Pos)
		contentChanges(o, n)
	})
	match(func(o, n *model.Transition) bool {
		return c.targets(o, true) == c.targets(n, false) && c.cond(guard(o), true) == c.cond(guard(n), false)
	}, func(o, n *model.Transition) {
		c.add(TriggerChanged, n.ID, o.Pos, n.Pos)
		if body(o, true) != body(n, false) {
			c.add(ActionChanged, n.ID, o.Pos, n.Pos)
		}
	})
	for i, o := range olds {
		if !usedO[i] {
			c.add(TransitionRemoved, o.ID, o.Pos, source.NoPos)
			c.gone = append(c.gone, o)
		}
	}
	for j, n := range news {
		if !usedN[j] {
			c.add(TransitionAdded, n.ID, source.NoPos, n.Pos)
			c.born = append(c.born, n)
		}
	}
}

// matchUnique pairs the transitions that are equal in everything with
// exactly one transition of the other version, and marks them used.
// Equal transitions that are not unique are left to the later rounds,
// which pair them in document order.
func (c *comparer) matchUnique(olds, news []*model.Transition, usedO, usedN []bool) {
	keysN := make([]string, len(news))
	countN := make(map[string]int)
	for j, n := range news {
		keysN[j] = c.content(n, false)
		countN[keysN[j]]++
	}
	countO := make(map[string]int)
	keysO := make([]string, len(olds))
	for i, o := range olds {
		keysO[i] = c.content(o, true)
		countO[keysO[i]]++
	}
	for i, o := range olds {
		k := keysO[i]
		if countO[k] != 1 || countN[k] != 1 {
			continue
		}
		j := slices.Index(keysN, k)
		usedO[i], usedN[j] = true, true
		c.matched = append(c.matched, match{o, news[j]})
	}
}

// content is everything about a transition but its source, for
// comparison: events, type, condition, targets and code (by ast.Key).
func (c *comparer) content(t *model.Transition, old bool) string {
	return strings.Join([]string{c.events(t, old), fmt.Sprint(t.Type), c.cond(guard(t), old), c.targets(t, old),
		c.blocks([]*ast.Block{t.Body}, old)}, "\x00")
}

func (c *comparer) variables() {
	for _, o := range c.o.Vars {
		n := c.n.Var(o.Name)
		switch {
		case n == nil:
			c.add(VariableRemoved, o.Name, o.Pos, source.NoPos)
		case n.Type != o.Type || !ast.Equal(n.Init, o.Init):
			c.add(InitialValueChanged, o.Name, o.Pos, n.Pos)
		}
	}
	for _, n := range c.n.Vars {
		if c.o.Var(n.Name) == nil {
			c.add(VariableAdded, n.Name, source.NoPos, n.Pos)
		}
	}
}

// params compares the parameters of events both versions have.
func (c *comparer) params() {
	for _, o := range c.o.Events {
		n := c.n.EventByName(o.Name)
		if n == nil {
			continue
		}
		for _, p := range o.Params {
			if q, ok := n.Param(p.Name); !ok || q.Type != p.Type {
				c.add(ParamRemoved, o.Name+"."+p.Name, o.Pos, n.Pos)
			}
		}
		for _, p := range n.Params {
			if q, ok := o.Param(p.Name); !ok || q.Type != p.Type {
				c.add(ParamAdded, n.Name+"."+p.Name, o.Pos, n.Pos)
			}
		}
	}
}

// initials compares where the machine and each compound state start.
func (c *comparer) initials() {
	for _, o := range c.o.States() {
		if o.Initial == nil {
			continue
		}
		var n *model.State
		if o.Kind == model.Root {
			n = c.n.Root
		} else {
			n = c.n.State(c.mapped(o.ID))
		}
		if n == nil || n.Initial == nil {
			continue
		}
		if c.targets(o.Initial, true) != c.targets(n.Initial, false) ||
			c.blocks([]*ast.Block{o.Initial.Body}, true) != c.blocks([]*ast.Block{n.Initial.Body}, false) {
			subject := n.ID
			if n.Kind == model.Root {
				subject = "scxml"
			}
			c.add(InitialChanged, subject, o.Initial.Pos, n.Initial.Pos)
		}
	}
}

// mapTransitions computes T_updated on the flattened machines. An old
// transition is compared with the new one of its key renamed (Diff.Key),
// named as the new version names it.
func mapTransitions(d *Diff, o, n *mlm.Machine) {
	olds := make(map[string]*mlm.Transition)
	for _, t := range o.Transitions {
		olds[d.Key(t.Key)] = t
	}
	seen := make(map[string]bool)
	for _, t := range n.Transitions {
		seen[t.Key] = true
		ot, ok := olds[t.Key]
		switch {
		case !ok:
			d.Added = append(d.Added, t.Key)
		case d.content(ot) != content(t):
			d.Changed = append(d.Changed, t.Key)
		}
	}
	for _, t := range o.Transitions {
		if !seen[d.Key(t.Key)] {
			d.Removed = append(d.Removed, t.Key)
		}
	}
	// A transition that calls a black-box function whose signature or
	// table changed is changed too: its summary is another.
	changed := changedFunctions(o, n)
	rootCalls := false
	if len(changed) > 0 {
		for _, t := range n.Transitions {
			if ot, ok := olds[t.Key]; ok && d.content(ot) == content(t) && callsAny(t, changed) {
				d.Changed = append(d.Changed, t.Key)
			}
		}
		for _, t := range n.Initial {
			rootCalls = rootCalls || callsAny(t, changed)
		}
	}
	for _, list := range [][]string{d.Added, d.Removed, d.Changed} {
		for _, k := range list {
			d.Updated[k] = true
		}
	}
	d.RootUpdated = rootCalls || d.rootChanged(o, n)
	if !d.RootUpdated {
		d.updateOnInputs(o, n)
	}
}

// rootChanged says whether the machine's start changed: its initial
// transitions or its variables.
func (d *Diff) rootChanged(o, n *mlm.Machine) bool {
	if len(o.Initial) != len(n.Initial) || len(o.Vars) != len(n.Vars) {
		return true
	}
	inits := make(map[string]*mlm.Transition, len(n.Initial))
	for _, t := range n.Initial {
		inits[t.Key] = t
	}
	for _, ot := range o.Initial {
		if t := inits[d.Key(ot.Key)]; t == nil || content(t) != d.content(ot) {
			return true
		}
	}
	for i, b := range n.Vars {
		if a := o.Vars[i]; a.Name != b.Name || a.Type != b.Type || !ast.Equal(a.Init, b.Init) {
			return true
		}
	}
	return false
}

// updateOnInputs marks as changed the transitions on an event whose
// parameters or kinds changed: an input's parameters change the steps
// that receive it.
func (d *Diff) updateOnInputs(o, n *mlm.Machine) {
	for _, e := range n.Events {
		if oe := o.Event(d.oldEvent(e.Name)); oe != nil && slices.Equal(oe.Params, e.Params) && oe.Kinds == e.Kinds {
			continue
		}
		for _, t := range n.Transitions {
			if t.Event == e.Name && !d.Updated[t.Key] {
				d.Updated[t.Key] = true
				d.Changed = append(d.Changed, t.Key)
			}
		}
	}
}

// changedFunctions returns the black-box functions of n that o declares
// otherwise, or not at all.
func changedFunctions(o, n *mlm.Machine) map[string]bool {
	out := make(map[string]bool)
	if n.Source == nil {
		return out
	}
	for _, f := range n.Source.Functions {
		var of *model.Function
		if o.Source != nil {
			of = o.Source.Function(f.Name)
		}
		if of == nil || mlm.FunctionString(of) != mlm.FunctionString(f) {
			out[f.Name] = true
		}
	}
	return out
}

// callsAny reports whether t's guard or action calls one of the functions.
func callsAny(t *mlm.Transition, fs map[string]bool) bool {
	calls := func(n ast.Node) bool { x, ok := n.(*ast.External); return ok && fs[x.Fun] }
	return t.Guard != nil && ast.Any(t.Guard, calls) || t.Action != nil && ast.Any(t.Action, calls)
}

// content is a transition's event, guard, action and target, the code by
// its identity (ast.Key), for comparison.
func content(t *mlm.Transition) string {
	return t.Event + "\x00" + ast.Key(t.Guard) + "\x00" + ast.Key(t.Action) + "\x00" + t.Target.Name
}

// content is the content of an old transition named as the new version
// names its event and target.
func (d *Diff) content(t *mlm.Transition) string {
	// Entering a final state raises done.state.<id> of its parent.
	action := mlm.RenameRaised(t.Action, d.Event)
	return d.Event(t.Event) + "\x00" + ast.Key(t.Guard) + "\x00" + ast.Key(action) + "\x00" + d.Config(t.Target.Name)
}
