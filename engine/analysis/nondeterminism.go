package analysis

import (
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
)

// Nondeterminism looks, in every explored state, for two statechart
// transitions that compete for an input event (one atomic state's
// candidates, inner before outer, in document order) and whose conditions
// can hold together: the first shadows the second there.
func (a *Analyzer) Nondeterminism() ([]Conflict, error) { return a.NondeterminismOf(nil, true) }

// NondeterminismOf looks only for the conflicts want accepts (by event,
// the transition taken and the one shadowed; nil accepts all): the
// analysis of a change asks the base only about the head's conflicts.
// Without witnesses, the conflicts come without a test that reaches them
// (the base's are only told apart from the new ones).
func (a *Analyzer) NondeterminismOf(want func(event, taken, shadows string) bool, witnesses bool) ([]Conflict, error) {
	var out []Conflict
	var at []*engine.Node // the node each conflict was found in
	seen := make(map[string]bool)
	tab := a.set.Terms
	// An input's next parameters and their domain are the same in every
	// node, and so are a flattened state's competing pairs.
	var inputs []nextInput
	for _, ev := range a.m.InputEvents() {
		in := nextInput{ev: ev, params: make(map[string]solver.Term)}
		for _, p := range ev.Params {
			v := tab.Var(p.Name+"@next", engine.SortOf(p.Type))
			in.params[p.Name] = v
			in.pc = append(in.pc, engine.InputDomain(tab, p.Type, v)...)
		}
		inputs = append(inputs, in)
	}
	byState := make(map[string]*competition)
	var pc []solver.Term // scratch
	for _, n := range a.set.Nodes {
		if n.Subsumed != nil {
			continue
		}
		if err := a.canceled(); err != nil {
			return nil, err
		}
		cs := byState[n.State.Name]
		if cs == nil {
			cs = a.competition(n.State, inputs)
			byState[n.State.Name] = cs
		}
		for i, in := range inputs {
			for _, p := range cs.pairs[i] {
				key := p.key
				if seen[key] || want != nil && !want(in.ev.Name, p.taken.ID, p.shadows.ID) {
					continue
				}
				pc = append(append(pc[:0], n.PC...), in.pc...)
				both, err := a.together(n, in.ev.Name, p.taken, p.shadows, in.params, cs.active, pc)
				if err != nil {
					return nil, err
				}
				if !both {
					continue
				}
				seen[key] = true
				out = append(out, Conflict{State: n.State.Name, Event: in.ev.Name,
					Taken: p.taken.ID, Shadows: p.shadows.ID, Line: a.lineOf(p.shadows.Pos)})
				at = append(at, n)
			}
		}
	}
	if witnesses {
		if err := a.witnesses(out, at); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// witnesses gives each conflict a witness, a test that reaches the node it
// was found in (at, in the same order). They are made once every check is
// done, and the checking solver is closed first: a test generator has a
// solver of its own, and a Z3 context created while another is open
// cannot reuse its memory (solver/z3's newContext). The generator's
// solver asks what it would have asked between the checks, in the same
// order, so the tests are the same.
func (a *Analyzer) witnesses(out []Conflict, at []*engine.Node) error {
	if len(out) == 0 {
		return nil
	}
	if a.slv != nil {
		a.slv.Close()
		a.slv = nil // a later check starts another
	}
	for i, n := range at {
		w, err := a.Witness(n)
		if err != nil {
			return err
		}
		out[i].Witness = w
	}
	return nil
}

// nextInput is an input event with fresh parameters and their domain.
type nextInput struct {
	ev     *model.Event
	params map[string]solver.Term
	pc     []solver.Term
}

// competition is what competes for each input in one flattened state.
type competition struct {
	active map[string]bool // the statechart states active there
	pairs  [][]rivals      // by input: transitions of one atomic state, the first shadowing the second
}

// rivals are two transitions competing for an input; key names them and
// the input, for the conflicts already found.
type rivals struct {
	taken, shadows *model.Transition
	key            string
}

// competition finds, for each input, the pairs of candidates of one
// atomic state of st (inner before outer, in document order).
func (a *Analyzer) competition(st *mlm.State, inputs []nextInput) *competition {
	c := &competition{active: make(map[string]bool), pairs: make([][]rivals, len(inputs))}
	for _, id := range st.Atomic {
		for s := a.src.State(id); s != nil; s = s.Parent {
			c.active[s.ID] = true
		}
	}
	for i, in := range inputs {
		for _, id := range st.Atomic {
			var cands []*model.Transition
			for s := a.src.State(id); s != nil; s = s.Parent {
				for _, t := range s.Transitions {
					if !t.Eventless() && t.Matches(in.ev.Name) {
						cands = append(cands, t)
					}
				}
			}
			for j := range cands {
				for k := j + 1; k < len(cands); k++ {
					key := cands[j].ID + "\x00" + cands[k].ID + "\x00" + in.ev.Name
					c.pairs[i] = append(c.pairs[i], rivals{cands[j], cands[k], key})
				}
			}
		}
	}
	return c
}

func (a *Analyzer) together(n *engine.Node, ev string, t1, t2 *model.Transition, params map[string]solver.Term,
	active map[string]bool, pc []solver.Term) (bool, error) {
	tab := a.set.Terms
	cond := func(t *model.Transition) (solver.Term, error) {
		if t.Cond == nil {
			return tab.Bool(true), nil
		}
		return a.set.Eval(n, ast.WithEventName(t.Cond, ev), params, active)
	}
	c1, err := cond(t1)
	if err != nil {
		return false, err
	}
	c2, err := cond(t2)
	if err != nil {
		return false, err
	}
	return a.possible(append([]solver.Term(nil), pc...), tab.And(c1, c2)) // pc holds n's path condition
}
