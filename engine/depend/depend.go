// Package depend is the dependence analysis of a Mealy-like machine (Khalil
// and Dingel, Incremental symbolic execution, 2015, §2.4): its maximal
// paths, the control and data dependences between its transitions, the
// transitions T_impacted that a change from one version of a machine to
// another impacts (Impacted), and the change impact measures M1 and M2 of
// the same paper, §6.2.1.
//
// The graph has the MLM states as nodes and the MLM transitions
// (Machine.Transitions; Machine.Initial is not an edge) as edges. The
// initial state is the target of Machine.Initial[0].
//
// Definition 1, maximal path from a state s: a sequence of consecutive
// transitions starting at s that visits no state twice. It ends, and is
// maximal, when it reaches an end state — a state with no outgoing
// transitions, or the initial state (which counts as an end state except
// as the start of the path itself) — or when its next transition would
// close a cycle, that is lead to a state already on the path: that closing
// transition is included and the path ends there. Several transitions from
// one state to the same state give different paths. A state with no
// outgoing transitions has one maximal path, the empty one. Paths are
// enumerated depth first, a state's transitions in key order, and the
// enumeration stops at Options.MaxPaths paths or Options.MaxSteps
// transitions in all: models can have exponentially many simple paths.
//
// Definition 2, non-termination sensitive control dependence (NTSCD):
// ti ->CD tj iff ti != tj and
//
//  1. every path after ti contains source(tj) as a visited state (its
//     start included);
//  2. ti has a sibling tk (another transition with the same source) such
//     that some path after tk does not contain source(tj);
//  3. tj has a sibling.
//
// The paths after a transition t are MaximalPaths(target(t)), except when
// t leads to the initial state: then the only path after t is the empty
// one, for reaching the initial state ends the behaviour, which starts
// over (Def. 1). MaximalPaths(initial state) is Paths, which leave the
// initial state; were those the paths after t, the transitions back to the
// initial state of the triangle of Fig. 3 of the paper would control the
// transitions leaving S1_S0 (T4 ->CD T2, T3; T7 ->CD T2, T3, T4; T9 ->CD
// T2, T3, T4), which Example 1 does not list.
//
// Condition 3 is our reading: the paper does not state it, and without it
// the triangle also gives T3 ->CD T10, T6 ->CD T10 and T8 ->CD T10, which
// Example 1 does not list. A transition that is the only one leaving its
// source is taken whenever that source is reached, and decides nothing.
// Condition 2 in the paper reads MaximalPaths(source(tk)); we read the
// paths after tk, as condition 1 reads the paths after ti (both readings
// give Example 1).
//
// Control dependence is computed on the graph, not from enumerated paths,
// so it is exact whatever the bounds, in time proportional to the number
// of states times the number of transitions: some path from s avoids a state v
// (v != s) iff, in the graph without v and without the transitions leaving
// end states, s reaches an end state or a cycle.
//
// Definition 3, data dependence: ti ->DD tk with respect to a variable v
// iff v is defined by ti (lang.Defs of its action), v is used by tk
// (lang.Uses of its guard and action), and there is a path in the graph,
// possibly empty and through any state, from target(ti) to source(tk)
// along which no transition defines v. tk itself may define v, and tk may
// be ti when a loop closes.
//
// A data dependence is reported per pair and per variable.
//
// T_impacted, the transitions that "have an impact on or are impacted by"
// the updated ones T_updated (the paper's §4.2; with T_updated, the
// transitions of interest Alg. 3 explores fully): the paper computes it by
// a dependence analysis of the modified version and does not say which
// dependences carry an impact. We read it as one control or data
// dependence, in either direction, between an updated transition and
// another, restricted to the dependences the change touches, and looked
// for in both versions (a removed transition's dependences, and those a
// change removes, are only in the base):
//
//   - a transition added or removed impacts, and is impacted by, every
//     transition it has a dependence with (in head, or in base);
//   - a changed guard, target or event impacts the transitions control
//     dependent on the transition, and the transition is impacted by those
//     it is data dependent on for a variable the guard reads, before or
//     after the change;
//   - a changed action impacts the transitions data dependent on the
//     transition for a variable the action defines, before or after the
//     change, and the transition is impacted by those it is data dependent
//     on for a variable the action uses, before or after.
//
// T_impacted is the set of head's transitions so reached that are not
// updated themselves. This gives §4.2's example: T2's action changes, no
// other transition defines a variable T2 uses (nor uses one it defines),
// and nothing is impacted.
package depend

import (
	"cmp"
	"slices"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/mlm"
)

// Defaults for Options.
const (
	DefaultMaxPaths = 100000
	DefaultMaxSteps = 10000000
)

// Options bound the enumeration of maximal paths.
type Options struct {
	MaxPaths int // paths enumerated from one state; default DefaultMaxPaths
	MaxSteps int // transitions over all the paths enumerated from one state; default DefaultMaxSteps
}

func (o Options) withDefaults() Options {
	if o.MaxPaths <= 0 {
		o.MaxPaths = DefaultMaxPaths
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	return o
}

// Analysis is the dependence analysis of one machine. It is not modified
// once Analyze returns it, so its methods are safe for concurrent use.
type Analysis struct {
	Machine   *mlm.Machine
	Paths     [][]*mlm.Transition // the maximal paths from the initial state (Def. 1), depth first in key order
	Truncated bool                // the enumeration of Paths hit a bound of Options
	Control   []Dep               // NTSCD (Def. 2), sorted
	Data      []Dep               // data dependence (Def. 3), sorted; Var set

	opts Options
	g    *graph
}

// Dep is a dependence From -> To: To is control or data dependent on From.
// Var is the variable of a data dependence, "" for a control dependence.
type Dep struct {
	From, To *mlm.Transition
	Var      string
}

// pathSlab is how many transitions of the enumerated paths one allocation
// holds.
const pathSlab = 1 << 14

// pathSet is the result of one enumeration.
type pathSet struct {
	paths     [][]*mlm.Transition
	truncated bool
}

// Analyze computes the maximal paths from the initial state and the
// control and data dependences of m.
func Analyze(m *mlm.Machine, opts Options) *Analysis {
	a := &Analysis{Machine: m, opts: opts.withDefaults(), g: newGraph(m)}
	if a.g.initial >= 0 {
		ps := a.enumerate(a.g.initial)
		a.Paths, a.Truncated = ps.paths, ps.truncated
	}
	a.Control = a.g.control()
	a.Data = a.g.data()
	return a
}

// Dependences is Analyze without the maximal paths (Paths nil): the
// control and data dependences alone, which is all Impacted reads of
// the base version. Enumerating the paths is most of Analyze's cost on
// models with many (67,302 on the bench's ACCS).
func Dependences(m *mlm.Machine) *Analysis {
	a := &Analysis{Machine: m, opts: Options{}.withDefaults(), g: newGraph(m)}
	a.Control = a.g.control()
	a.Data = a.g.data()
	return a
}

// enumerate lists the maximal paths from state s depth first.
func (a *Analysis) enumerate(s int) pathSet {
	var (
		ps   pathSet
		slab []*mlm.Transition // the paths' transitions, many paths to an allocation
	)
	ps.truncated = a.walk(s, func(path []*mlm.Transition) {
		if len(slab)+len(path) > cap(slab) {
			slab = make([]*mlm.Transition, 0, max(pathSlab, len(path)))
		}
		if len(path) == 0 {
			ps.paths = append(ps.paths, []*mlm.Transition{})
			return
		}
		start := len(slab)
		slab = append(slab, path...)
		ps.paths = append(ps.paths, slab[start:len(slab):len(slab)])
	})
	return ps
}

// walk passes each maximal path from state s to emit, depth first, within
// the bounds of Options, and reports whether a bound stopped it. emit
// must not keep the path, whose array the walk reuses.
func (a *Analysis) walk(s int, emit func(path []*mlm.Transition)) (truncated bool) {
	g := a.g
	if len(g.out[s]) == 0 {
		emit([]*mlm.Transition{})
		return false
	}
	var (
		paths, steps int
		stack        []*mlm.Transition
		onPath       = make([]bool, len(g.states))
	)
	// bounded passes on the path on the stack, or reports false at a bound.
	bounded := func() bool {
		if paths == a.opts.MaxPaths || steps+len(stack) > a.opts.MaxSteps {
			truncated = true
			return false
		}
		paths++
		steps += len(stack)
		emit(stack)
		return true
	}
	var visit func(u int) bool
	visit = func(u int) bool {
		for _, t := range g.out[u] {
			stack = append(stack, t)
			w := g.index[t.Target]
			ok := true
			if onPath[w] || g.end(w) {
				ok = bounded()
			} else {
				onPath[w] = true
				ok = visit(w)
				onPath[w] = false
			}
			stack = stack[:len(stack)-1]
			if !ok {
				return false
			}
		}
		return true
	}
	onPath[s] = true
	visit(s)
	return truncated
}

// graph is the machine's state graph, states by index.
type graph struct {
	states  []*mlm.State
	index   map[*mlm.State]int
	out     [][]*mlm.Transition // by source, in key order
	in      [][]*mlm.Transition // by target, in key order
	initial int                 // -1 without an initial transition
}

func newGraph(m *mlm.Machine) *graph {
	g := &graph{index: make(map[*mlm.State]int), initial: -1}
	add := func(s *mlm.State) int {
		i, ok := g.index[s]
		if !ok {
			i = len(g.states)
			g.index[s] = i
			g.states = append(g.states, s)
		}
		return i
	}
	for _, s := range m.States {
		add(s)
	}
	for _, t := range m.Transitions {
		if t.Source != nil {
			add(t.Source)
			add(t.Target)
		}
	}
	if len(m.Initial) > 0 && m.Initial[0].Target != nil {
		g.initial = add(m.Initial[0].Target)
	}
	g.out = make([][]*mlm.Transition, len(g.states))
	g.in = make([][]*mlm.Transition, len(g.states))
	for _, t := range m.Transitions {
		if t.Source != nil {
			g.out[g.index[t.Source]] = append(g.out[g.index[t.Source]], t)
			g.in[g.index[t.Target]] = append(g.in[g.index[t.Target]], t)
		}
	}
	return g
}

// end tells whether a path that reaches state u ends there.
func (g *graph) end(u int) bool { return len(g.out[u]) == 0 || u == g.initial }

// unavoidable returns, for each state s, whether every path after a
// transition into s (Def. 2) visits v. These are the paths from s where
// the initial state is an end state even at the start, so the initial
// state needs no exception here. For s != v that holds iff, in the graph
// without v and without the transitions leaving end states, s reaches no
// end state and no cycle: every walk from s dies in a state whose
// transitions all lead to v. Those states are the least fixpoint of "not
// an end state, and every successor is in it", computed backwards from the
// dead ends.
func (g *graph) unavoidable(v int) []bool {
	n := len(g.states)
	bad := make([]bool, n)
	live := make([]int, n) // transitions of u not yet known to lead into bad or v
	var queue []int
	for u := range n {
		if u == v || g.end(u) {
			continue
		}
		for _, t := range g.out[u] {
			if g.index[t.Target] != v {
				live[u]++
			}
		}
		if live[u] == 0 {
			bad[u] = true
			queue = append(queue, u)
		}
	}
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		for _, t := range g.in[w] {
			u := g.index[t.Source]
			if u == v || g.end(u) || bad[u] {
				continue
			}
			live[u]--
			if live[u] == 0 {
				bad[u] = true
				queue = append(queue, u)
			}
		}
	}
	bad[v] = true
	return bad
}

// control computes the control dependences (Def. 2), sorted.
func (g *graph) control() []Dep {
	var deps []Dep
	for v, tjs := range g.out {
		if len(tjs) < 2 { // condition 3
			continue
		}
		always := g.unavoidable(v)
		for _, tis := range g.out {
			if len(tis) < 2 { // condition 2: ti needs a sibling
				continue
			}
			// Condition 2 holds for a ti that meets condition 1 iff some
			// transition leaving its source fails condition 1.
			avoiding := slices.ContainsFunc(tis, func(t *mlm.Transition) bool {
				return !always[g.index[t.Target]]
			})
			if !avoiding {
				continue
			}
			for _, ti := range tis {
				if !always[g.index[ti.Target]] {
					continue
				}
				for _, tj := range tjs {
					if tj != ti {
						deps = append(deps, Dep{From: ti, To: tj})
					}
				}
			}
		}
	}
	sortDeps(deps)
	return deps
}

// data computes the data dependences (Def. 3), sorted.
func (g *graph) data() []Dep {
	defs := make(map[string][]*mlm.Transition)
	uses := make(map[string][]*mlm.Transition)
	definesVar := make(map[*mlm.Transition]map[string]bool)
	for _, ts := range g.out {
		for _, t := range ts {
			definesVar[t] = make(map[string]bool)
			for _, v := range lang.Defs(t.Action) {
				defs[v] = append(defs[v], t)
				definesVar[t][v] = true
			}
			used := lang.Uses(t.Action)
			if t.Guard != nil {
				used = append(used, lang.Uses(t.Guard)...)
			}
			slices.Sort(used)
			for _, v := range slices.Compact(used) {
				uses[v] = append(uses[v], t)
			}
		}
	}
	var deps []Dep
	for v, tis := range defs {
		if len(uses[v]) == 0 {
			continue
		}
		// reach[s] lists the states reached from s without defining v,
		// computed once per distinct target.
		reach := make(map[int][]bool)
		for _, ti := range tis {
			s := g.index[ti.Target]
			r, ok := reach[s]
			if !ok {
				r = g.reachWithout(s, func(t *mlm.Transition) bool { return definesVar[t][v] })
				reach[s] = r
			}
			for _, tk := range uses[v] {
				if r[g.index[tk.Source]] {
					deps = append(deps, Dep{From: ti, To: tk, Var: v})
				}
			}
		}
	}
	sortDeps(deps)
	return deps
}

// reachWithout returns the states reachable from s through transitions
// that are not blocked, s included.
func (g *graph) reachWithout(s int, blocked func(*mlm.Transition) bool) []bool {
	seen := make([]bool, len(g.states))
	seen[s] = true
	stack := []int{s}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range g.out[u] {
			w := g.index[t.Target]
			if !seen[w] && !blocked(t) {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
	return seen
}

// sortDeps sorts by From key, To key and variable.
func sortDeps(deps []Dep) {
	slices.SortFunc(deps, func(x, y Dep) int {
		return cmp.Or(
			cmp.Compare(x.From.Key, y.From.Key),
			cmp.Compare(x.To.Key, y.To.Key),
			cmp.Compare(x.Var, y.Var))
	})
}
