package analysis

import (
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/solver"
)

// Nondeterminism looks, in every explored state, for two statechart
// transitions that compete for an input event (one atomic state's
// candidates, inner before outer, in document order) and whose conditions
// can hold together: the first shadows the second there.
func (a *Analyzer) Nondeterminism() ([]Conflict, error) { return a.NondeterminismOf(nil) }

// NondeterminismOf looks only for the conflicts want accepts (by event,
// the transition taken and the one shadowed; nil accepts all): the
// analysis of a change asks the base only about the head's conflicts.
func (a *Analyzer) NondeterminismOf(want func(event, taken, shadows string) bool) ([]Conflict, error) {
	var out []Conflict
	seen := make(map[string]bool)
	tab := a.set.Terms
	for _, n := range a.set.Nodes {
		if n.Subsumed != nil {
			continue
		}
		active := make(map[string]bool)
		for _, id := range n.State.Atomic {
			for s := a.src.State(id); s != nil; s = s.Parent {
				active[s.ID] = true
			}
		}
		for _, ev := range a.m.InputEvents() {
			params := make(map[string]solver.Term)
			var pc []solver.Term
			for _, p := range ev.Params {
				v := tab.Var(p.Name+"@next", engine.SortOf(p.Type))
				params[p.Name] = v
				pc = append(pc, engine.InputDomain(tab, p.Type, v)...)
			}
			for _, id := range n.State.Atomic {
				var cands []*model.Transition
				for s := a.src.State(id); s != nil; s = s.Parent {
					for _, t := range s.Transitions {
						if !t.Eventless() && t.Matches(ev.Name) {
							cands = append(cands, t)
						}
					}
				}
				for i := 0; i < len(cands); i++ {
					for j := i + 1; j < len(cands); j++ {
						key := cands[i].ID + "\x00" + cands[j].ID + "\x00" + ev.Name
						if seen[key] || want != nil && !want(ev.Name, cands[i].ID, cands[j].ID) {
							continue
						}
						both, err := a.together(n, ev.Name, cands[i], cands[j], params, active, pc)
						if err != nil {
							return nil, err
						}
						if !both {
							continue
						}
						seen[key] = true
						w, err := a.Witness(n)
						if err != nil {
							return nil, err
						}
						out = append(out, Conflict{State: n.State.Name, Event: ev.Name,
							Taken: cands[i].ID, Shadows: cands[j].ID, Line: a.lineOf(cands[j].Pos), Witness: w})
					}
				}
			}
		}
	}
	return out, nil
}

func (a *Analyzer) together(n *engine.Node, ev string, t1, t2 *model.Transition, params map[string]solver.Term,
	active map[string]bool, pc []solver.Term) (bool, error) {
	tab := a.set.Terms
	cond := func(t *model.Transition) (solver.Term, error) {
		if t.Cond == nil {
			return tab.Bool(true), nil
		}
		return a.set.Eval(n, lang.WithEventName(t.Cond, ev), params, active)
	}
	c1, err := cond(t1)
	if err != nil {
		return false, err
	}
	c2, err := cond(t2)
	if err != nil {
		return false, err
	}
	return a.possible(append(append([]solver.Term(nil), n.PC...), pc...), tab.And(c1, c2))
}
