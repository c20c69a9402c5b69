package scxml

import (
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// entryTriggers returns, for each state, the transitions with events whose
// taking may enter it (a target, an ancestor of one, or a state its
// default entry reaches; a history target may enter any state of its
// parent), so that its <onentry> code runs while one of their events is
// processed. A state that the start or an eventless transition may enter
// is in unknown: its entry code may run with no event, or after any.
// Only the states whose entry code reads _event.data are looked at.
func (dc *declarer) entryTriggers() (triggers map[*model.State][]*model.Transition, unknown map[*model.State]bool) {
	triggers, unknown = make(map[*model.State][]*model.Transition), make(map[*model.State]bool)
	wanted := make(map[*model.State]bool)
	for _, s := range dc.m.States() {
		for _, blk := range s.OnEntry {
			if ast.Any(blk, func(n ast.Node) bool { _, ok := n.(*ast.EventParam); return ok }) {
				wanted[s] = true
			}
		}
	}
	if len(wanted) == 0 {
		return triggers, unknown
	}
	enter := func(t *model.Transition, start bool) {
		for _, s := range entered(t) {
			if !wanted[s] {
				continue
			}
			if start || t.Eventless() {
				unknown[s] = true
			} else {
				triggers[s] = append(triggers[s], t)
			}
		}
	}
	if t := dc.m.Root.Initial; t != nil {
		enter(t, true)
	}
	for _, s := range dc.m.States() {
		for _, t := range s.Transitions {
			enter(t, false)
		}
	}
	return triggers, unknown
}

// entered returns the states taking t may enter, or more.
func entered(t *model.Transition) []*model.State {
	var out []*model.State
	seen := make(map[*model.State]bool)
	var add func(s *model.State)
	add = func(s *model.State) {
		if s == nil || seen[s] || s.Kind == model.Root {
			return
		}
		seen[s] = true
		out = append(out, s)
		switch {
		case s.Kind == model.History:
			for _, d := range descendants(s.Parent) {
				add(d)
			}
		case s.Kind == model.Parallel:
			for _, c := range s.Children {
				add(c)
			}
		case s.Initial != nil:
			for _, u := range s.Initial.Targets {
				for a := u; a != nil && a != s; a = a.Parent {
					add(a)
				}
			}
		}
	}
	for _, target := range t.Targets {
		for a := target; a != nil; a = a.Parent {
			add(a)
		}
	}
	return out
}

// descendants returns s's descendants.
func descendants(s *model.State) []*model.State {
	var out []*model.State
	for _, c := range s.Children {
		out = append(out, c)
		out = append(out, descendants(c)...)
	}
	return out
}

// codeMatcher returns whether an event called name may be the one being
// processed when c runs, as far as the transitions and the entries tell
// (an <onentry> runs on the events of the transitions that enter its
// state: entryTriggers), or nil where c's events are not known (eventless
// code, the start, exit code).
func codeMatcher(c code, triggers map[*model.State][]*model.Transition, unknown map[*model.State]bool) func(name string) bool {
	if t := c.trans; t != nil {
		if t.Eventless() || t == t.Source.Initial {
			return nil
		}
		return t.Matches
	}
	if c.entry == nil || unknown[c.entry] || len(triggers[c.entry]) == 0 {
		return nil
	}
	ts := triggers[c.entry]
	return func(name string) bool {
		for _, t := range ts {
			if t.Matches(name) {
				return true
			}
		}
		return false
	}
}

// namedEverywhere reports, for each event, whether every raise and send
// of it in the model passes named parameters (an object as its data).
func namedEverywhere(all []code) map[string]bool {
	named := make(map[string]bool)
	other := make(map[string]bool)
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			name, args, _ := raiseOrSend(n)
			if name == "" {
				return true
			}
			whole := len(args) == 0
			for _, a := range args {
				whole = whole || a.Name == ast.DataParam
			}
			if whole {
				other[name] = true
			} else {
				named[name] = true
			}
			return true
		})
	}
	for name := range other {
		delete(named, name)
	}
	return named
}
