package report

import (
	"slices"

	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
)

// NewChangeAnalysis returns the report's object for r, the analysis core's
// result. Lists r leaves nil are empty, never null. The object shares with
// r what is plain data (strings, lists of strings, argument maps), so r
// must not be changed after; the tests' steps, outputs and fired
// transitions, which a test delta can hold hundreds of thousands of, are
// carved out of three allocations.
func NewChangeAnalysis(r *incremental.Result) *ChangeAnalysis {
	c := newTestPool(r)
	a := &ChangeAnalysis{
		Strategy:       r.Strategy,
		StrategyReason: r.StrategyReason,
		Changes:        r.Changes,
		Impact: Impact{Changed: nonNil(r.Impact.Changed), Impacted: nonNil(r.Impact.Impacted),
			M1: r.Impact.M1, M2: r.Impact.M2},
		Base:                  Size{States: r.Base.States, Paths: r.Base.Paths, Ms: r.Base.Ms},
		Head:                  Size{States: r.Head.States, Paths: r.Head.Paths, Ms: r.Head.Ms},
		ReusedStates:          r.ReusedStates,
		NewStates:             r.NewStates,
		SolverCalls:           r.SolverCalls,
		SolverUnknown:         r.SolverUnknown,
		Tests:                 Counts{Retained: r.Tests.Retained, Changed: r.Tests.Changed, Obsolete: r.Tests.Obsolete, New: r.Tests.New},
		TestsPartial:          r.TestsPartial,
		NewlyUnreachable:      stateRefs(r.NewlyUnreachable),
		NewlyReachable:        stateRefs(r.NewlyReachable),
		NewlyTransient:        stateRefs(r.NewlyTransient),
		NoBase:                r.NoBase,
		ConfirmedBy:           r.ConfirmedBy,
		BoundsHit:             make([]BoundHit, len(r.BoundsHit)),
		OutputsLost:           make([]OutputRef, len(r.OutputsLost)),
		Nondeterminism:        make([]Conflict, len(r.Nondeterminism)),
		NondeterminismPartial: r.NondeterminismPartial,
	}
	if a.Changes == nil {
		a.Changes = []Change{}
	}
	if d := r.TestDelta; d != nil {
		a.TestDelta = &TestDelta{Retained: c.tests(d.Retained), Changed: c.tests(d.Changed),
			Obsolete: c.tests(d.Obsolete), New: c.tests(d.New)}
	}
	for i, b := range r.BoundsHit {
		a.BoundsHit[i] = BoundHit{Bound: b.Bound, Limit: b.Limit, Count: b.Count}
	}
	if len(r.Invariants) > 0 {
		a.Invariants = make([]InvariantCheck, len(r.Invariants))
		for i, inv := range r.Invariants {
			a.Invariants[i] = InvariantCheck{Invariant: inv.Invariant, Implied: inv.Implied, Holds: inv.Holds,
				State: inv.State, Witness: c.witness(inv.Witness), CutBy: inv.CutBy}
		}
	}
	for i, o := range r.OutputsLost {
		a.OutputsLost[i] = OutputRef{Output: o.Output, Within: o.Within, CutBy: o.CutBy, BaseWitness: c.witness(o.BaseWitness)}
	}
	for i, x := range r.Nondeterminism {
		a.Nondeterminism[i] = Conflict{State: x.State, Event: x.Event, Taken: x.Taken, Shadows: x.Shadows, Line: x.Line,
			Witness: c.witness(x.Witness), AtBase: x.AtBase}
	}
	return a
}

func stateRefs(refs []incremental.StateRef) []StateRef {
	out := make([]StateRef, len(refs))
	for i, s := range refs {
		out[i] = StateRef{State: s.State, Line: s.Line, Within: s.Within, CutBy: s.CutBy}
	}
	return out
}

// nonNil returns l, or an empty list for nil.
func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// argMap returns m, or an empty map for nil.
func argMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// testPool holds the steps of the tests of a result whose lists or maps
// must be filled in (the document writes empty ones, never null),
// allocated at once and handed out in turn. Generated and decoded tests
// leave none nil, so the pool is mostly empty and the report shares the
// core's steps.
type testPool struct {
	steps []Step
}

// newTestPool sizes the pool for the tests of r: its test delta and
// witnesses.
func newTestPool(r *incremental.Result) *testPool {
	var steps int
	count := func(t *testgen.Test) {
		if t != nil && slices.ContainsFunc(t.Steps, unfilled) {
			steps += len(t.Steps)
		}
	}
	if d := r.TestDelta; d != nil {
		for _, ts := range [][]*testgen.Test{d.Retained, d.Changed, d.Obsolete, d.New} {
			for _, t := range ts {
				count(t)
			}
		}
	}
	for _, inv := range r.Invariants {
		count(inv.Witness)
	}
	for _, o := range r.OutputsLost {
		count(o.BaseWitness)
	}
	for _, x := range r.Nondeterminism {
		count(x.Witness)
	}
	return &testPool{steps: make([]Step, steps)}
}

// unfilled says whether a step leaves a list or a map nil.
func unfilled(s testgen.Step) bool {
	return s.Args == nil || s.Config == nil || s.Outputs == nil || s.Fired == nil ||
		slices.ContainsFunc(s.Outputs, func(o testgen.Output) bool { return o.Args == nil })
}

func (c *testPool) tests(ts []*testgen.Test) []Test {
	out := make([]Test, len(ts))
	for i, t := range ts {
		out[i] = c.test(t)
	}
	return out
}

func (c *testPool) witness(t *testgen.Test) *Test {
	if t == nil {
		return nil
	}
	w := c.test(t)
	return &w
}

func (c *testPool) test(t *testgen.Test) Test {
	return Test{ID: t.ID, Identity: nonNil(t.Identity), Steps: c.filled(t.Steps), Final: nonNil(t.Final), Rows: t.Rows}
}

// filled returns steps, or a copy of them with an empty list or map
// wherever one was nil.
func (c *testPool) filled(steps []testgen.Step) []Step {
	if !slices.ContainsFunc(steps, unfilled) {
		if steps == nil {
			return []Step{}
		}
		return steps
	}
	out := c.steps[:len(steps):len(steps)]
	if len(steps) > len(c.steps) { // the pool was sized for other tests
		out = make([]Step, len(steps))
	} else {
		c.steps = c.steps[len(steps):]
	}
	for i, s := range steps {
		s.Args, s.Config = argMap(s.Args), nonNil(s.Config)
		if s.Outputs == nil {
			s.Outputs = []Output{}
		} else if slices.ContainsFunc(s.Outputs, func(o testgen.Output) bool { return o.Args == nil }) {
			outputs := make([]Output, len(s.Outputs))
			for j, o := range s.Outputs {
				outputs[j] = Output{Event: o.Event, Target: o.Target, Args: argMap(o.Args)}
			}
			s.Outputs = outputs
		}
		if s.Fired == nil {
			s.Fired = []Fired{}
		}
		out[i] = s
	}
	return out
}
