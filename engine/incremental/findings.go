package incremental

import (
	"fmt"
	"sort"
	"strings"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/vocab"
)

// OutputRef is an output the base version sends and the head never does.
type OutputRef struct {
	Output string // "EVENT to TARGET"
	// Within and CutBy qualify the claim as StateRef's do.
	Within int
	CutBy  vocab.Bound
	// BaseWitness is a shortest test after which the base sends it.
	BaseWitness *testgen.Test
}

// Conflict is a pair of transitions that compete for an event in a
// configuration of the head where both conditions can hold: statechart
// priority takes the first, which may not be what the author meant.
type Conflict struct {
	analysis.Conflict
	// AtBase says the base has the same conflict: the change did not make
	// it.
	AtBase bool
}

// analyses runs the analyses of the head the request asks for, on the
// tree each needs: invariants on the whole tree, outputs and
// nondeterminism on the tree the reachability was read on.
func (a *analyzer) analyses(r *Result) error {
	asked := a.req.Analyses
	r.OutputsLost, r.Nondeterminism = []OutputRef{}, []Conflict{}
	if asked&CheckInvariants != 0 {
		if err := a.invariants(r); err != nil {
			return err
		}
	}
	if asked&CheckOutputs != 0 && a.base != nil {
		if err := a.ctx.Err(); err != nil {
			return err
		}
		if err := a.outputs(r); err != nil {
			return err
		}
	}
	if asked&CheckNondeterminism != 0 {
		if err := a.ctx.Err(); err != nil {
			return err
		}
		if err := a.nondeterminism(r); err != nil {
			return err
		}
	}
	return nil
}

// invariants checks the requested invariants and those the declared
// ranges imply on the whole head tree.
func (a *analyzer) invariants(r *Result) error {
	invs := append(append([]analysis.Invariant(nil), a.req.Invariants...), analysis.RangeInvariants(a.head.m)...)
	if len(invs) == 0 {
		return nil
	}
	set := a.whole
	if set == nil {
		var err error
		if set, _, err = a.wholeTree(r); err != nil {
			return fmt.Errorf("exploring the whole head tree for the invariants: %w", err)
		}
	}
	a.progress("checking %d invariants", len(invs))
	an := a.analyzer(set)
	defer an.Close()
	var err error
	if r.Invariants, err = an.Invariants(invs); err != nil {
		return fmt.Errorf("checking invariants: %w", err)
	}
	return nil
}

// outputsLost lists the outputs base sends and head does not, sorted, with
// the node of base that first sends each.
func outputsLost(base, head *engine.SET) map[string]*engine.Node {
	sent := analysis.Sent(head)
	lost := make(map[string]*engine.Node)
	for key, n := range analysis.Sent(base) {
		if sent[key] == nil {
			lost[key] = n
		}
	}
	return lost
}

// outputs finds the outputs the base sends and the head never does, each
// with the base's witness. A tree DSE pruned sends fewer than the whole
// one, so change confirmed them on the whole tree when there were any.
func (a *analyzer) outputs(r *Result) error {
	lost := outputsLost(a.base.set, a.read)
	if len(lost) == 0 {
		return nil
	}
	an := a.analyzer(a.base.set)
	defer an.Close()
	within, cutBy := qualifiers(a.read)
	for key, n := range lost {
		w, err := an.Witness(n)
		if err != nil {
			return fmt.Errorf("a test that sends %s at base: %w", key, err)
		}
		r.OutputsLost = append(r.OutputsLost, OutputRef{Output: key, Within: within, CutBy: cutBy, BaseWitness: w})
	}
	sort.Slice(r.OutputsLost, func(i, j int) bool { return r.OutputsLost[i].Output < r.OutputsLost[j].Output })
	return nil
}

// nondeterminism finds the conflicts of the head and says which the base
// has too. On DSE's partial tree the conflicts found are real but there
// may be more: NondeterminismPartial says so.
func (a *analyzer) nondeterminism(r *Result) error {
	a.progress("looking for nondeterministic choices")
	// The whole tree when there is one (the invariants may have built it
	// after the reachability was read on DSE's partial one).
	set := a.whole
	if set == nil {
		set = a.read
	}
	found, err := a.conflicts(set, nil, true)
	if err != nil || len(found) == 0 {
		return err
	}
	var atBase map[string]bool
	if a.base != nil {
		// Only a head with conflicts needs the base's, to tell the new,
		// and only those.
		asked := make(map[string]bool, len(found))
		for _, c := range found {
			asked[conflictKey(c)] = true
		}
		// The base's transitions are named as at head: a state the change
		// renamed renames them too.
		ren := func(id string) string { return renameTransition(id, a.d.Renamed) }
		old, err := a.conflicts(a.base.set, func(event, taken, shadows string) bool {
			return asked[conflictKey(analysis.Conflict{Event: event, Taken: ren(taken), Shadows: ren(shadows)})]
		}, false)
		if err != nil {
			return err
		}
		atBase = make(map[string]bool, len(old))
		for _, c := range old {
			atBase[conflictKey(analysis.Conflict{Event: c.Event, Taken: ren(c.Taken), Shadows: ren(c.Shadows)})] = true
		}
	}
	for _, c := range found {
		r.Nondeterminism = append(r.Nondeterminism, Conflict{Conflict: c, AtBase: atBase[conflictKey(c)]})
	}
	r.NondeterminismPartial = set != a.whole
	return nil
}

// analyzer starts an analyzer of set that stops when the analysis's
// context ends.
func (a *analyzer) analyzer(set *engine.SET) *analysis.Analyzer {
	an := analysis.New(set, a.req.Solver)
	an.SetCancel(a.ctx.Done())
	return an
}

// conflicts finds the conflicts of set that want accepts (nil: all), with
// a witness each when witnesses is set.
func (a *analyzer) conflicts(set *engine.SET, want func(event, taken, shadows string) bool, witnesses bool) ([]analysis.Conflict, error) {
	an := a.analyzer(set)
	defer an.Close()
	out, err := an.NondeterminismOf(want, witnesses)
	if err != nil {
		return nil, fmt.Errorf("looking for nondeterministic choices: %w", err)
	}
	return out, nil
}

// conflictKey names a conflict by its event and transitions, whose ids
// are stable across versions, not by the flattened state it was found in.
func conflictKey(c analysis.Conflict) string {
	return c.Event + "\x00" + c.Taken + "\x00" + c.Shadows
}

// renameTransition returns a transition's identity (SOURCE:EVENTS>TARGETS,
// maybe with #N; model.Transition.ID) with the states renamed (old id to
// new); an explicit setbot:id, or one that names no renamed state, is
// returned as it is.
func renameTransition(id string, renamed map[string]string) string {
	if len(renamed) == 0 {
		return id
	}
	src, rest, ok := strings.Cut(id, ":")
	if !ok {
		return id
	}
	events, targets, ok := strings.Cut(rest, ">")
	if !ok {
		return id
	}
	suffix := ""
	if i := strings.LastIndex(targets, "#"); i >= 0 {
		targets, suffix = targets[:i], targets[i:]
	}
	state := func(s string) string {
		if to, ok := renamed[s]; ok {
			return to
		}
		return s
	}
	ts := strings.Fields(targets)
	for i, t := range ts {
		ts[i] = state(t)
	}
	return state(src) + ":" + events + ">" + strings.Join(ts, " ") + suffix
}
