package depend

import (
	"slices"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
)

// Impacted returns T_impacted of a change from the base version to the
// head one (see the package doc): the transitions of head, not updated
// themselves, that impact or are impacted by an updated one through a
// dependence the change touches in either version. updated holds the keys
// of T_updated: transitions added (only in head), removed (only in base)
// or changed (in both). The result is in key order.
//
// rekey names base's transitions as head names them (a change that renamed
// states re-keys the transitions through them); nil names them alike.
func Impacted(base, head *Analysis, updated map[string]bool, rekey func(string) string) []*mlm.Transition {
	if rekey == nil {
		rekey = func(k string) string { return k }
	}
	oldT, newT := make(map[string]*mlm.Transition, len(base.Machine.Transitions)), byKey(head.Machine)
	for _, t := range base.Machine.Transitions {
		oldT[rekey(t.Key)] = t
	}
	touched := make(map[string]touch, len(updated))
	for key := range updated {
		o, n := oldT[key], newT[key]
		if o == nil || n == nil {
			touched[key] = touch{all: true}
		} else {
			touched[key] = touchedBy(o, n, o.Key != key)
		}
	}
	// A transition added (removed) is only in head's (base's) dependences,
	// so one table serves both versions.
	impacted := make(map[string]bool)
	for _, a := range []*Analysis{head, base} {
		key := func(t *mlm.Transition) string { return t.Key }
		if a == base {
			key = func(t *mlm.Transition) string { return rekey(t.Key) }
		}
		for _, d := range a.Control {
			if t, ok := touched[key(d.From)]; ok && (t.all || t.control) {
				impacted[key(d.To)] = true
			}
			if t, ok := touched[key(d.To)]; ok && t.all {
				impacted[key(d.From)] = true
			}
		}
		for _, d := range a.Data {
			if t, ok := touched[key(d.From)]; ok && (t.all || t.defs[d.Var]) {
				impacted[key(d.To)] = true
			}
			if t, ok := touched[key(d.To)]; ok && (t.all || t.uses[d.Var]) {
				impacted[key(d.From)] = true
			}
		}
	}
	var out []*mlm.Transition
	for _, t := range head.Machine.Transitions {
		if impacted[t.Key] && !updated[t.Key] {
			out = append(out, t)
		}
	}
	return out
}

// touch is what a change touched of one updated transition: its
// dependences through the control it exerts, the variables it defines and
// those it uses, or (all) every dependence it has.
type touch struct {
	all, control bool
	defs, uses   map[string]bool
}

// touchedBy compares a transition in base (o) and in head (n). A changed
// guard, target or event changes what the transition decides (its control
// dependents) and what the guard reads, before and after; a changed action
// changes what it defines and what it uses, before and after. A transition
// renamed (its key renamed to n's) has n's target and event under their
// new names: the key names them.
func touchedBy(o, n *mlm.Transition, renamed bool) touch {
	t := touch{defs: make(map[string]bool), uses: make(map[string]bool)}
	guardChanged := (o.Guard == nil) != (n.Guard == nil) || o.Guard != nil && !ast.Equal(o.Guard, n.Guard)
	if guardChanged || !renamed && (o.Target.Name != n.Target.Name || o.Event != n.Event) {
		t.control = true
		for _, g := range []ast.Expr{o.Guard, n.Guard} {
			if g != nil {
				for _, v := range lang.Uses(g) {
					t.uses[v] = true
				}
			}
		}
	}
	if !ast.Equal(o.Action, n.Action) {
		for _, a := range []*ast.Block{o.Action, n.Action} {
			for _, v := range lang.Defs(a) {
				t.defs[v] = true
			}
			for _, v := range lang.Uses(a) {
				t.uses[v] = true
			}
		}
	}
	return t
}

func byKey(m *mlm.Machine) map[string]*mlm.Transition {
	out := make(map[string]*mlm.Transition, len(m.Transitions))
	for _, t := range m.Transitions {
		out[t.Key] = t
	}
	return out
}

// M1 is the percentage (0-100) of Paths that contain no changed transition
// (changed holds transition keys); 100 when there is no path.
func (a *Analysis) M1(changed map[string]bool) float64 {
	var ms measures
	for _, p := range a.Paths {
		ms.add(p, changed)
	}
	return ms.m1()
}

// M2 is the mean, over the Paths that contain a changed transition
// (changed holds transition keys), of the position of the first changed
// transition on the path (1-based) divided by the path's length, times
// 100; 100 when no path contains a changed transition.
func (a *Analysis) M2(changed map[string]bool) float64 {
	var ms measures
	for _, p := range a.Paths {
		ms.add(p, changed)
	}
	return ms.m2()
}

// Measures is M1 and M2 of a change (changed holds transition keys) on
// m's maximal paths, as Analyze(m, Options{}) gives them, and m's
// dependences (Dependences): the paths are walked, not kept, which is
// most of Analyze's cost on models with many (67,302 on the bench's ACCS).
func Measures(m *mlm.Machine, changed map[string]bool) (deps *Analysis, m1, m2 float64) {
	a := Dependences(m)
	var ms measures
	if a.g.initial >= 0 {
		a.walk(a.g.initial, func(p []*mlm.Transition) { ms.add(p, changed) })
	}
	return a, ms.m1(), ms.m2()
}

// measures accumulates M1 and M2 over paths, in their order.
type measures struct {
	paths, unchanged, hit int
	sum                   float64
}

func (ms *measures) add(p []*mlm.Transition, changed map[string]bool) {
	ms.paths++
	i := firstChanged(p, changed)
	if i < 0 {
		ms.unchanged++
		return
	}
	ms.sum += 100 * float64(i+1) / float64(len(p))
	ms.hit++
}

func (ms *measures) m1() float64 {
	if ms.paths == 0 {
		return 100
	}
	return 100 * float64(ms.unchanged) / float64(ms.paths)
}

func (ms *measures) m2() float64 {
	if ms.hit == 0 {
		return 100
	}
	return ms.sum / float64(ms.hit)
}

// firstChanged is the index of the first changed transition on p, or -1.
func firstChanged(p []*mlm.Transition, changed map[string]bool) int {
	return slices.IndexFunc(p, func(t *mlm.Transition) bool { return changed[t.Key] })
}
