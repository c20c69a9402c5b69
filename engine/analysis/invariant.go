package analysis

import (
	"fmt"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/solver"
)

// ParseInvariant reads a predicate over the machine's variables.
func ParseInvariant(m *mlm.Machine, text string) (Invariant, error) {
	fset := source.NewFileSet()
	file := fset.AddFile("invariant", []byte(text))
	e, errs := lang.ParseExpr(lang.NewSnippet(file, text))
	if len(errs) > 0 {
		return Invariant{}, fmt.Errorf("invariant %q: %v", text, errs[0].Msg)
	}
	vars := make(map[string]lang.Type)
	for _, v := range m.Vars {
		vars[v.Name] = v.Type
	}
	if _, errs := lang.CheckExpr(&lang.Env{Vars: vars}, fset, e, lang.Bool); len(errs) > 0 {
		return Invariant{}, fmt.Errorf("invariant %q: %v", text, errs[0].Msg)
	}
	return Invariant{Text: lang.ExprString(e), Expr: e}, nil
}

// RangeInvariants are the invariants a variable's declared range implies.
func RangeInvariants(m *mlm.Machine) []Invariant {
	var out []Invariant
	for _, v := range m.Vars {
		if !v.Type.Ranged || lang.Reserved(v.Name) {
			continue // a variable the lowering made holds a range by construction
		}
		id := &lang.Ident{Name: v.Name}
		e := &lang.Binary{X: &lang.Binary{X: &lang.IntLit{Value: v.Type.Lo}, Op: lang.LEQ, Y: id},
			Op: lang.LAND, Y: &lang.Binary{X: id, Op: lang.LEQ, Y: &lang.IntLit{Value: v.Type.Hi}}}
		out = append(out, Invariant{Text: lang.ExprString(e), Expr: e, Implied: v.Name + ": " + v.Type.String()})
	}
	return out
}

// invariants checks each invariant in every state of the tree, in
// breadth-first order, so a violation comes with a shortest witness.
func (a *analyzer) invariants(invs []Invariant) ([]InvariantCheck, error) {
	out := make([]InvariantCheck, 0, len(invs))
	for _, inv := range invs {
		c := InvariantCheck{Invariant: inv.Text, Implied: inv.Implied, Holds: true}
		for _, n := range a.set.Nodes {
			t, err := a.set.Eval(n, inv.Expr, nil, nil)
			if err != nil {
				return nil, fmt.Errorf("invariant %s: %w", inv.Text, err)
			}
			bad, err := a.possible(n.PC, a.set.Terms.Not(t))
			if err != nil {
				return nil, err
			}
			if !bad {
				continue
			}
			w, err := a.gen.TestWhere(n, []solver.Term{a.set.Terms.Not(t)})
			if err != nil {
				return nil, err
			}
			c.Holds, c.State, c.Witness = false, n.State.Name, w
			break
		}
		out = append(out, c)
	}
	return out, nil
}

// possible reports whether pc ∧ c is satisfiable; a check the solver
// cannot decide is not reported as a finding.
func (a *analyzer) possible(pc []solver.Term, c solver.Term) (bool, error) {
	tab := a.set.Terms
	if v, ok := tab.BoolValue(c); ok {
		return v, nil
	}
	res, err := a.slv.Check(append(append([]solver.Term(nil), pc...), c))
	return res == solver.Sat, err
}

// nondeterminism looks, in every explored state, for two statechart
// transitions that compete for an input event (one atomic state's
// candidates, inner before outer, in document order) and whose conditions
// can hold together: the first shadows the second there.
func (a *analyzer) nondeterminism(r *Report) error {
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
						if seen[key] {
							continue
						}
						both, err := a.together(n, ev.Name, cands[i], cands[j], params, active, pc)
						if err != nil {
							return err
						}
						if !both {
							continue
						}
						seen[key] = true
						w, err := a.witness(n)
						if err != nil {
							return err
						}
						r.Nondeterminism = append(r.Nondeterminism, Conflict{State: n.State.Name, Event: ev.Name,
							Taken: cands[i].ID, Shadows: cands[j].ID, Line: a.lineOf(cands[j].Pos), Witness: w})
					}
				}
			}
		}
	}
	return nil
}

func (a *analyzer) together(n *engine.Node, ev string, t1, t2 *model.Transition, params map[string]solver.Term,
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
