// Package incremental analyses a change of a model (docs/architecture.md
// §Changes and impact):
// the classified changes and T_updated (package diffmap), their impact
// (package engine/depend), the head version's tree by the cheapest
// strategy that gives the right answer (reuse, MSE, DSE or full), the
// test-suite delta and the change in reachability.
package incremental

import (
	"fmt"
	"sort"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/depend"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// Result is what a change does. Whatever strategy built the head tree, and
// whether it or the whole Result came from a cache, every field but the
// strategy's own statistics (Strategy, StrategyReason, ReusedStates,
// NewStates, SolverCalls, ConfirmedBy, Base.Ms, Head.Ms, the *Cached flags)
// is what a full analysis of the two versions gives. What each may take
// from the base, and why that is sound:
//
//   - full takes nothing: every field is read on the head tree, explored
//     from the head machine.
//   - mse copies subtrees of the base tree, never a field of the Result. A
//     step is copied only where every (state, event) pair it processed,
//     the start's run-to-completion included, has the same candidate
//     transitions, unchanged, in both machines (engine.ExploreMSE), so the
//     copy is what executing the step computes; subsumption is decided
//     afresh. The tree is full's node for node, and every field is then
//     read on it with the head machine: lines, witnesses, outputs,
//     conflicts, invariants, transient states, tests.
//   - dse explores a partial tree. What it reaches is reachable; what it
//     does not (an unreachable or never-stable state, a lost output) is
//     only a candidate, confirmed on the whole tree built as auto would
//     (ConfirmedBy), on which invariants and conflicts are read too
//     (NondeterminismPartial otherwise). TestsPartial says that the suite
//     was generated on the partial tree.
//   - reuse (the machines have one hash: the same variables, events,
//     tables, states and transitions with their keys, guards and actions)
//     takes the base tree bound to the head machine (engine.SET.Rebind), so
//     lines, statechart transitions (a conflict with a transition document
//     order shadows) and table rows are the head's; its tests are the
//     base's, all retained without replaying (unchanged), since a test is a
//     run of the machine and the machines are equal.
//   - cached: a tree is keyed by the canonical machine, the bounds, the
//     semantics version and the build, and decoded against the head
//     machine; a whole Result is keyed by the paths and bytes of both files
//     and of every file they read, so it is the Result of exactly those
//     files.
type Result struct {
	Strategy       vocab.Strategy
	StrategyReason string
	Changes        []diffmap.Change
	Impact         Impact
	Base           Size
	Head           Size
	ReusedStates   int
	NewStates      int
	SolverCalls    int
	// SolverUnknown counts the head tree's queries the solver could not
	// decide within its time limit: the paths they could not rule out are
	// kept, so what is reached only through them is not proven reachable.
	SolverUnknown    int
	Tests            Counts
	TestsPartial     bool // DSE: obsolete is an upper bound
	TestDelta        *testgen.Delta
	NewlyUnreachable []StateRef
	NewlyReachable   []StateRef
	// NewlyTransient lists the states the head enters but never rests in
	// (a macrostep always leaves them again) where the base rested in them
	// or did not enter them: the gate's transient_state rule.
	NewlyTransient []StateRef
	// NoBase says the model has no base version (the change adds it, or
	// the base does not load): its unreachable states are unreachable in a
	// new model, not newly so.
	NoBase      bool
	ConfirmedBy string // the strategy that confirmed DSE's candidates
	BoundsHit   []engine.BoundHit

	// Invariants are the requested invariants and those the declared
	// ranges imply, checked on the whole head tree.
	Invariants []analysis.InvariantCheck
	// OutputsLost lists the outputs the base sends and the head never does.
	OutputsLost []OutputRef
	// Nondeterminism lists the head's conflicts, those the change made
	// and those the base has too (AtBase).
	Nondeterminism []Conflict
	// NondeterminismPartial: the conflicts were looked for on DSE's
	// partial tree, so there may be more.
	NondeterminismPartial bool

	// BaseCached and HeadCached say the trees came from Request.Trees.
	BaseCached, HeadCached bool

	Diff      *diffmap.Diff
	BaseSet   *engine.SET
	HeadSet   *engine.SET
	BaseTests []*testgen.Test // the suites of BaseSet and HeadSet
	HeadTests []*testgen.Test
	// WholeSet is the whole head tree DSE's unreachable candidates were
	// confirmed on (HeadSet is DSE's partial one); nil otherwise.
	WholeSet *engine.SET
}

// Impact is the change impact of
// Khalil and Dingel, Incremental symbolic execution, 2015: the updated and the impacted MLM
// transitions, and the measures M1 and M2 (§6.2.1).
type Impact struct {
	Changed  []string
	Impacted []string
	M1       float64
	M2       float64
}

// Size is a tree's size and the time it took.
type Size struct {
	States int
	Paths  int
	Ms     int64
}

// Counts counts the test delta.
type Counts struct {
	Retained int
	Changed  int
	Obsolete int
	New      int
}

// StateRef names a statechart state.
type StateRef struct {
	State string
	Line  int
	// Within is the depth bound the claim is qualified by (0: proven).
	Within int
	// CutBy names a bound other than depth (states, time, loop, microsteps,
	// array) that cut the head tree: the state was not reached before
	// it did, which does not show that it cannot be.
	CutBy vocab.Bound
}

// qualifiers returns what qualifies an unreachability claim on a tree: the
// depth bound when it cut the tree, and the first other bound that did.
func qualifiers(set *engine.SET) (within int, cutBy vocab.Bound) {
	for _, bh := range set.Bounds {
		if bh.Bound == vocab.BoundDepth {
			within = int(bh.Limit)
		} else if cutBy == "" {
			cutBy = bh.Bound
		}
	}
	return within, cutBy
}

// MinSurvival is the share of the base tree that must survive a change
// for auto to prefer MSE to a full run. Copying a state costs a fair part
// of executing it where states are cheap (0.3 to 0.7 of it on the
// benchmark models), so below about 30% MSE no longer wins; the value
// is calibrated on the versions in testdata/versions.
const MinSurvival = 0.30

// Choose picks the strategy for the asked one (auto, or one of those a
// user may ask for) and says why (docs/architecture.md §Strategy choice).
func Choose(asked vocab.Strategy, d *diffmap.Diff, base, head *mlm.Machine, baseSet *engine.SET) (vocab.Strategy, string, error) {
	switch asked {
	case vocab.StrategyMSE, vocab.StrategyDSE, vocab.StrategyFull:
		return asked, "requested", nil
	case vocab.StrategyAuto:
	default:
		return "", "", fmt.Errorf("unknown strategy %q (want auto, mse, dse or full)", asked)
	}
	switch {
	case base.Hash == head.Hash:
		return vocab.StrategyReuse, "the head machine is identical to the base (hash " + head.Hash[:12] + "): its tree is reused whole", nil
	case d.RootUpdated:
		return vocab.StrategyFull, "the machine starts differently (variables, initial values or initial configuration changed): nothing of the base tree can be reused", nil
	}
	if key := startUpdated(baseSet, d); key != "" {
		return vocab.StrategyFull, "the machine's start fires a changed transition (" + key + "): nothing of the base tree can be reused", nil
	}
	share := survival(baseSet, d)
	// Updated counts transitions of both versions (a removed one is only
	// in the base), so it is measured against both.
	all := make(map[string]bool, len(base.Transitions)+len(head.Transitions))
	for _, t := range base.Transitions {
		all[d.Key(t.Key)] = true
	}
	for _, t := range head.Transitions {
		all[t.Key] = true
	}
	updated := fmt.Sprintf("%d of the %d flattened transitions of the two versions are updated", len(d.Updated), len(all))
	if share < MinSurvival {
		return vocab.StrategyFull, fmt.Sprintf("%s and only %.0f%% of what the base tree keeps avoids them: a full run is cheaper than reuse",
			updated, 100*share), nil
	}
	return vocab.StrategyMSE, fmt.Sprintf("%s and %.0f%% of what the base tree keeps avoids them: reuse it", updated, 100*share), nil
}

// startUpdated returns the key of an updated transition the base's start
// fires (run-to-completion after the initial transitions: events raised or
// sent on entry, eventless transitions), or "". A change there changes the
// root, as a changed initial value does (engine.ExploreMSE then pairs
// nothing).
func startUpdated(set *engine.SET, d *diffmap.Diff) string {
	if set.Start == nil {
		return ""
	}
	for _, f := range set.Start.Fired {
		if k := d.Key(f.T.Key); d.Updated[k] {
			return k
		}
	}
	return ""
}

// survival estimates the share of the head tree MSE can copy: of the base
// tree's states, those whose path fires no updated transition are copied
// and those below an updated one are recomputed, except that when the
// change only removes transitions, the states below them simply vanish and
// count for neither. (Where transitions are also added, as when an event is
// renamed, the new subtrees are about as large as the ones that vanish.)
func survival(set *engine.SET, d *diffmap.Diff) float64 {
	removed := make(map[string]bool, len(d.Removed))
	if len(d.Added) == 0 {
		for _, k := range d.Removed {
			removed[k] = true
		}
	}
	const (
		clean = iota
		recompute
		vanish
	)
	state := make(map[*engine.Node]int, len(set.Nodes))
	var kept, redone int
	for _, x := range set.Nodes {
		s := clean
		if x.Parent != nil {
			s = state[x.Parent]
		}
		if s == clean && x.In != nil {
			for _, f := range x.In.Fired {
				if d.Updated[d.Key(f.T.Key)] {
					s = recompute
					if removed[f.T.Key] {
						s = vanish
					}
					break
				}
			}
		}
		state[x] = s
		switch s {
		case clean:
			kept++
		case recompute:
			redone++
		}
	}
	if kept+redone == 0 {
		return 0
	}
	return float64(kept) / float64(kept+redone)
}

// Build explores m by strategy: Reuse returns base whole (bound to m), MSE reuses it
// for what d does not update, DSE explores the transitions of interest
// fully (see ChangeImpact) and Full (any other) explores from scratch.
func Build(strategy vocab.Strategy, m *mlm.Machine, base *engine.SET, d *diffmap.Diff, interest map[string]bool, req Request) (*engine.SET, error) {
	switch strategy {
	case vocab.StrategyReuse:
		// The base tree, bound to the head machine: what is read on it
		// (lines, the statechart transitions that compete) is the head's.
		return base.Rebind(m)
	case vocab.StrategyMSE:
		return engine.ExploreMSE(m, base, d.Updated, renames(d, base.Machine), req.Engine, req.Solver)
	case vocab.StrategyDSE:
		return engine.ExploreDSE(m, interest, req.Engine, req.Solver)
	}
	return engine.Explore(m, req.Engine, req.Solver)
}

// renames names the base machine's states, transitions and events as the
// head names them (Diff.Configs, Diff.Keys, Diff.Event).
func renames(d *diffmap.Diff, base *mlm.Machine) engine.Renames {
	ren := engine.Renames{States: d.Configs, Keys: d.Keys, Events: make(map[string]string)}
	for _, e := range base.Events {
		if to := d.Event(e.Name); to != e.Name {
			ren.Events[e.Name] = to
		}
	}
	return ren
}

// ChangeImpact computes the change impact of
// Khalil and Dingel, Incremental symbolic execution, 2015, of d from base to head:
// T_updated, T_impacted (depend.Impacted) and M1, M2 on head's maximal
// paths; it returns with them the transitions DSE explores fully
// (engine.DSEInterest).
func ChangeImpact(d *diffmap.Diff, base, head *mlm.Machine) (Impact, map[string]bool) {
	// The head's paths are walked for M1 and M2, not kept; Impacted and
	// DSEInterest read only dependences.
	ha, m1, m2 := depend.Measures(head, d.Updated)
	ba := depend.Dependences(base)
	impacted := depend.Impacted(ba, ha, d.Updated, d.Key)
	im := Impact{Changed: sortedSet(d.Updated), Impacted: []string{}}
	for _, t := range impacted {
		im.Impacted = append(im.Impacted, t.Key)
	}
	im.M1, im.M2 = round(m1), round(m2)
	return im, engine.DSEInterest(ha, d.Updated, impacted)
}

// sortedSet returns the keys of m, sorted; never nil.
func sortedSet(m map[string]bool) []string {
	out := []string{}
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func round(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// reachability compares which statechart states the trees enter, and
// which of them they rest in, through renames: a state entered at base and
// never at head is newly unreachable; one the head enters but never rests
// in, where the base did rest in it (or never entered it), is newly
// transient.
func (r *Result) reachability(base, head *engine.SET) {
	b, h := base.Reachability(), head.Reachability()
	within, cutBy := qualifiers(head)
	renamed := r.Diff.Renamed
	src := head.Machine.Source
	line := func(id string) int {
		if s := src.Lookup(id); s != nil {
			return src.Line(s.Pos)
		}
		return 0
	}
	back := make(map[string]string)
	for from, to := range renamed {
		back[to] = from
	}
	for id := range b.Entered {
		nid := id
		if to, ok := renamed[id]; ok {
			nid = to
		}
		if src.Lookup(nid) != nil && h.Entered[nid] == nil {
			r.NewlyUnreachable = append(r.NewlyUnreachable, StateRef{State: nid, Line: line(nid), Within: within, CutBy: cutBy})
		}
	}
	for id := range h.Entered {
		oid := id
		if from, ok := back[id]; ok {
			oid = from
		}
		if b.Entered[oid] == nil {
			r.NewlyReachable = append(r.NewlyReachable, StateRef{State: id, Line: line(id)})
		}
		if h.Stable[id] == nil && (b.Entered[oid] == nil || b.Stable[oid] != nil) {
			r.NewlyTransient = append(r.NewlyTransient, StateRef{State: id, Line: line(id), Within: within, CutBy: cutBy})
		}
	}
	sortRefs(r.NewlyUnreachable, r.NewlyReachable, r.NewlyTransient)
}

func sortRefs(lists ...[]StateRef) {
	for _, l := range lists {
		sort.Slice(l, func(i, j int) bool { return l[i].State < l[j].State })
	}
}
