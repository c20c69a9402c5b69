package incremental

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// Request says what to analyse and how.
type Request struct {
	Strategy vocab.Strategy // "" means auto
	Coverage vocab.Coverage // the test suites' criterion (testgen); "" means path coverage
	Engine   engine.Options
	Solver   engine.NewSolver
	// Trees gives the versions' trees and suites where they are at hand
	// and keeps the whole trees the analysis builds; nil means nothing is
	// at hand and nothing is kept.
	Trees Trees
	// Analyses are the analyses of the head asked for beyond reachability
	// and tests, which every analysis gives.
	Analyses Analyses
	// Invariants are checked, with those the declared ranges imply, when
	// Analyses holds CheckInvariants.
	Invariants []analysis.Invariant
	// Progress, when set, hears of each long step, as a line of text.
	Progress func(format string, args ...any)
}

// Trees is where the trees and suites of machines are kept between runs
// (the cache). A tree is that of a machine under the request's engine
// options, a suite that of a tree under the request's coverage.
type Trees interface {
	// Tree returns m's tree and its suite when they are at hand: a nil set
	// when the tree is not, nil tests when only the suite is not.
	Tree(m *mlm.Machine) (*engine.SET, []*testgen.Test)
	// KeepTree keeps a whole tree of m with its suite.
	KeepTree(m *mlm.Machine, set *engine.SET, tests []*testgen.Test)
	// KeepSuite keeps the suite of m's tree, which Tree gave without one.
	KeepSuite(m *mlm.Machine, tests []*testgen.Test)
}

// Analyses is a set of the analyses of the head a request may ask for.
type Analyses uint

// The analyses.
const (
	// CheckInvariants checks the invariants in every state of the whole
	// head tree.
	CheckInvariants Analyses = 1 << iota
	// CheckOutputs finds the outputs the base sends and the head never
	// does (Result.OutputsLost).
	CheckOutputs
	// CheckNondeterminism finds the pairs of transitions that compete for
	// an event where both conditions can hold (Result.Nondeterminism).
	CheckNondeterminism

	// AllAnalyses is every analysis.
	AllAnalyses = CheckInvariants | CheckOutputs | CheckNondeterminism
)

// StartError is the error of an analysis whose base or head machine cannot
// finish starting (engine.StartError): Head says which.
type StartError struct {
	Head bool
	Err  *engine.StartError
}

func (e *StartError) Error() string {
	if e.Head {
		return "the head version does not finish starting: " + e.Err.Error()
	}
	return "the base version does not finish starting: " + e.Err.Error()
}

func (e *StartError) Unwrap() error { return e.Err }

// Analyze analyses the change from base to head: the changes and their
// impact, the head tree by the strategy the request asks for (auto chooses
// the cheapest that gives the right answer; a state DSE does not reach is
// confirmed on the whole tree before it is reported), the test delta, the
// change in reachability and the analyses the request asks for. A nil base
// analyses head as a new model: everything in it is new.
func Analyze(ctx context.Context, base, head *mlm.Machine, req Request) (*Result, error) {
	if req.Strategy == "" {
		req.Strategy = vocab.StrategyAuto
	}
	if req.Engine.Cancel == nil {
		req.Engine.Cancel = ctx.Done()
	}
	if done, newSolver := ctx.Done(), req.Solver; done != nil {
		// Every solver of the analysis (the trees', the tests', the
		// analyses') stops its check when the context ends.
		req.Solver = func(tab *solver.Table) (solver.Solver, error) {
			slv, err := newSolver(tab)
			if err == nil {
				slv.SetCancel(done)
			}
			return slv, err
		}
	}
	a := &analyzer{ctx: ctx, req: req}
	a.head = a.version(head)
	var r *Result
	var err error
	if base == nil {
		r, err = a.fresh()
	} else {
		a.base = a.version(base)
		r, err = a.change()
	}
	var se *engine.StartError
	var started *StartError
	if errors.As(err, &se) && !errors.As(err, &started) {
		// Only the base's exploration runs the base machine: any other
		// start that fails is the head's.
		err = &StartError{Head: true, Err: se}
	}
	if err == nil {
		err = a.analyses(r)
	}
	if ctx.Err() != nil {
		// What failed, or was decided by checks that were stopped (ended
		// Unknown), is what the end of the context stopped: no result.
		return nil, fmt.Errorf("analysis stopped: %w", ctx.Err())
	}
	if err != nil {
		return nil, err
	}
	a.keep(r)
	return r, nil
}

// analyzer is one analysis under way.
type analyzer struct {
	ctx        context.Context
	req        Request
	base, head *version
	// whole is the whole head tree, once one is at hand: DSE's is partial.
	whole *engine.SET
	// read is the head tree the reachability was read on.
	read *engine.SET
	d    *diffmap.Diff
}

// version is one version of the model, with what the analysis has of it.
type version struct {
	m      *mlm.Machine
	set    *engine.SET
	tests  []*testgen.Test
	cached bool // set came from Trees
	// suiteCached: tests came from Trees (with set).
	suiteCached bool
	// built: set is a whole tree this analysis built, to keep.
	built bool
}

func (a *analyzer) version(m *mlm.Machine) *version {
	v := &version{m: m}
	if a.req.Trees != nil {
		v.set, v.tests = a.req.Trees.Tree(m)
		v.cached, v.suiteCached = v.set != nil, v.set != nil && v.tests != nil
		if v.set == nil {
			v.tests = nil
		}
	}
	return v
}

func (a *analyzer) progress(format string, args ...any) {
	if a.req.Progress != nil {
		a.req.Progress(format, args...)
	}
}

// explore builds the whole tree of v from scratch.
func (a *analyzer) explore(v *version, what string) error {
	a.progress("exploring %s", what)
	set, err := engine.Explore(v.m, a.req.Engine, a.req.Solver)
	var se *engine.StartError
	if errors.As(err, &se) {
		return &StartError{Head: v == a.head, Err: se}
	}
	if err != nil {
		return fmt.Errorf("exploring %s: %w", what, err)
	}
	v.set, v.built = set, true
	return nil
}

// change analyses a change of a model that has a base version.
func (a *analyzer) change() (*Result, error) {
	base, head := a.base, a.head
	r := &Result{NewlyUnreachable: []StateRef{}, NewlyReachable: []StateRef{}, NewlyTransient: []StateRef{}, BoundsHit: []engine.BoundHit{}}
	r.BaseCached, r.HeadCached = base.cached, head.cached
	d := diffmap.Compute(base.m.Source, head.m.Source, base.m, head.m)
	a.d, r.Diff, r.Changes = d, d, d.Changes
	if r.Changes == nil {
		r.Changes = []diffmap.Change{}
	}
	if base.set == nil {
		start := time.Now()
		if err := a.explore(base, "the base version"); err != nil {
			return nil, err
		}
		r.Base.Ms = time.Since(start).Milliseconds()
	}
	baseSet := base.set
	r.BaseSet = baseSet
	r.Base.States, r.Base.Paths = baseSet.Stats.States, baseSet.Stats.Paths

	var interest map[string]bool
	r.Impact, interest = ChangeImpact(d, base.m, head.m)
	strategy, reason, err := Choose(a.req.Strategy, d, base.m, head.m, baseSet)
	if err != nil {
		return nil, err
	}
	if head.set != nil && strategy != vocab.StrategyReuse {
		strategy, reason = vocab.StrategyCached, "the head tree (machine "+head.m.Hash[:12]+") was built before with these options: it came from the cache"
	}
	r.Strategy, r.StrategyReason = strategy, reason
	start := time.Now()
	if head.set == nil {
		a.progress("exploring the head version (strategy %s)", strategy)
		set, err := Build(strategy, head.m, baseSet, d, interest, a.req)
		if err != nil {
			return nil, fmt.Errorf("exploring the head version (%s): %w", strategy, err)
		}
		head.set, head.built = set, strategy != vocab.StrategyDSE && strategy != vocab.StrategyReuse
	}
	headSet := head.set
	if strategy != vocab.StrategyDSE {
		a.whole = headSet
	}
	r.Head = Size{States: headSet.Stats.States, Paths: headSet.Stats.Paths, Ms: time.Since(start).Milliseconds()}
	r.ReusedStates, r.NewStates, r.SolverCalls = headSet.Stats.Reused, headSet.Stats.New, headSet.Stats.SolverCalls
	r.SolverUnknown = headSet.Stats.Unknown
	if strategy == vocab.StrategyReuse || strategy == vocab.StrategyCached {
		r.ReusedStates, r.NewStates, r.SolverCalls = headSet.Stats.States, 0, 0
	}
	r.HeadSet = headSet

	r.reachability(baseSet, headSet)
	lost := a.req.Analyses&CheckOutputs != 0 && len(outputsLost(baseSet, headSet)) > 0
	if strategy == vocab.StrategyDSE && (len(r.NewlyUnreachable)+len(r.NewlyTransient) > 0 || lost) {
		// A state DSE does not reach (or does not rest in), an output it
		// does not send, is only a candidate: confirm on the whole tree
		// before saying it.
		full, why, err := a.wholeTree(r)
		if err != nil {
			return nil, fmt.Errorf("confirming what DSE did not reach: %w", err)
		}
		r.ConfirmedBy = why
		r.NewlyUnreachable, r.NewlyReachable, r.NewlyTransient = []StateRef{}, []StateRef{}, []StateRef{}
		r.reachability(baseSet, full)
		headSet = full
	}
	r.TestsPartial = a.whole == nil
	a.read = headSet
	if err := a.tests(r, headSet); err != nil {
		return nil, err
	}
	r.addBounds(headSet)
	return r, nil
}

// wholeTree returns the whole head tree, built the first time it is asked
// for (DSE's is partial) by the strategy auto would choose, and says how
// it was built.
func (a *analyzer) wholeTree(r *Result) (*engine.SET, string, error) {
	if a.whole != nil {
		return a.whole, "", nil
	}
	// Only DSE leaves the whole tree to build, and DSE has a base.
	base, head := a.base, a.head
	strategy, reason, _ := Choose(vocab.StrategyAuto, a.d, base.m, head.m, base.set)
	a.progress("exploring the whole head tree (%s)", strategy)
	set, err := Build(strategy, head.m, base.set, a.d, nil, a.req)
	if err != nil {
		return nil, "", fmt.Errorf("exploring the whole head tree (%s): %w", strategy, err)
	}
	a.whole, r.WholeSet = set, set
	// Its bounds qualify what is read on it (and keep a time-cut result
	// out of the cache).
	r.addBounds(set)
	return set, string(strategy) + ": " + reason, nil
}

// addBounds adds the bounds that cut set to those hit, once each.
func (r *Result) addBounds(set *engine.SET) {
	for _, b := range set.Bounds {
		if !slices.ContainsFunc(r.BoundsHit, func(h engine.BoundHit) bool { return h.Bound == b.Bound }) {
			r.BoundsHit = append(r.BoundsHit, b)
		}
	}
}

// fresh analyses a model that has no base version (a file added by the
// change, or one whose base does not load): everything in it is new. Its
// tests are all new, the states it enters newly reachable, the states it
// declares but never enters are listed in NewlyUnreachable (the change
// introduces states no execution can enter; NoBase tells a report to call
// them unreachable in a new model, since nothing was reachable before),
// and those it enters but never rests in in NewlyTransient.
func (a *analyzer) fresh() (*Result, error) {
	head := a.head
	r := &Result{
		Strategy: vocab.StrategyFull, StrategyReason: "the model has no base version: its tree is built from scratch",
		Changes: []diffmap.Change{}, Impact: Impact{Changed: []string{}, Impacted: []string{}},
		NewlyUnreachable: []StateRef{}, NewlyReachable: []StateRef{}, NewlyTransient: []StateRef{}, BoundsHit: []engine.BoundHit{},
		NoBase: true, HeadCached: head.cached,
	}
	start := time.Now()
	if head.set != nil {
		r.Strategy, r.StrategyReason = vocab.StrategyCached, "the model has no base version; its tree (machine "+head.m.Hash[:12]+") came from the cache"
	} else if err := a.explore(head, "the model (no base version)"); err != nil {
		return nil, err
	}
	set := head.set
	a.whole, a.read, r.HeadSet = set, set, set
	r.Head = Size{States: set.Stats.States, Paths: set.Stats.Paths, Ms: time.Since(start).Milliseconds()}
	r.NewStates, r.SolverCalls = set.Stats.New, set.Stats.SolverCalls
	r.SolverUnknown = set.Stats.Unknown
	if r.Strategy == vocab.StrategyCached {
		r.ReusedStates, r.NewStates, r.SolverCalls = set.Stats.States, 0, 0
	}
	for _, t := range head.m.Transitions {
		r.Impact.Changed = append(r.Impact.Changed, t.Key)
	}
	src := head.m.Source
	h := set.Reachability()
	within, cutBy := qualifiers(set)
	for _, s := range src.ScopedStates() {
		if s.Kind == model.Root || s.Kind == model.History {
			continue
		}
		ref := StateRef{State: s.ID, Line: src.Line(s.Pos)}
		qualified := StateRef{State: s.ID, Line: ref.Line, Within: within, CutBy: cutBy}
		switch {
		case h.Entered[s.ID] == nil:
			r.NewlyUnreachable = append(r.NewlyUnreachable, qualified)
		case h.Stable[s.ID] == nil:
			r.NewlyReachable = append(r.NewlyReachable, ref)
			r.NewlyTransient = append(r.NewlyTransient, qualified)
		default:
			r.NewlyReachable = append(r.NewlyReachable, ref)
		}
	}
	sortRefs(r.NewlyUnreachable, r.NewlyReachable, r.NewlyTransient)
	if err := a.suite(head, nil); err != nil {
		return nil, fmt.Errorf("tests of the model: %w", err)
	}
	r.HeadTests = head.tests
	r.TestDelta = &testgen.Delta{Retained: []*testgen.Test{}, Changed: []*testgen.Test{}, Obsolete: []*testgen.Test{}, New: head.tests}
	r.Tests = Counts{New: len(head.tests)}
	r.addBounds(set)
	return r, nil
}

// suite computes the suite of v's tree unless it came with it; the tests
// of base, the suite of the version before, keep their values where they
// still satisfy their paths.
func (a *analyzer) suite(v *version, base []*testgen.Test) error {
	if v.tests != nil {
		return nil
	}
	coverage := a.req.Coverage
	if coverage == "" {
		coverage = vocab.CoveragePath
	}
	tests, err := testgen.SuiteFrom(v.set, coverage, a.req.Solver, base)
	v.tests = tests
	return err
}

// tests computes the suites (unless they came with their trees) and the
// delta between them; head is the head tree the delta is read on.
func (a *analyzer) tests(r *Result, head *engine.SET) error {
	bv, hv := a.base, a.head
	if err := a.suite(bv, nil); err != nil {
		return fmt.Errorf("tests of the base version: %w", err)
	}
	// The base tests named as at head: a test through a renamed state
	// keeps its identity (and its values).
	base := testgen.Renamed(bv.tests, a.d.Key, a.d.State)
	switch {
	case head == bv.set:
		hv.tests = bv.tests
	case hv.set != head:
		// The whole tree DSE's candidates were confirmed on.
		hv = &version{m: hv.m, set: head}
		if err := a.suite(hv, base); err != nil {
			return fmt.Errorf("tests of the head version: %w", err)
		}
	default:
		if err := a.suite(hv, base); err != nil {
			return fmt.Errorf("tests of the head version: %w", err)
		}
	}
	delta, err := testgen.Compare(base, hv.tests, head)
	if err != nil {
		return err
	}
	// An obsolete test is reported as the base has it.
	asAtBase := make(map[*testgen.Test]*testgen.Test)
	for i, t := range base {
		if t != bv.tests[i] {
			asAtBase[t] = bv.tests[i]
		}
	}
	for i, t := range delta.Obsolete {
		if b := asAtBase[t]; b != nil {
			delta.Obsolete[i] = b
		}
	}
	r.BaseTests, r.HeadTests, r.TestDelta = bv.tests, hv.tests, delta
	r.Tests = Counts{Retained: len(delta.Retained), Changed: len(delta.Changed), Obsolete: len(delta.Obsolete), New: len(delta.New)}
	return nil
}

// keep gives Trees the whole trees the analysis built, and the suites of
// the trees that came without one. A partial (DSE) tree is never kept.
func (a *analyzer) keep(r *Result) {
	t := a.req.Trees
	if t == nil {
		return
	}
	if v := a.base; v != nil {
		switch {
		case v.built:
			t.KeepTree(v.m, v.set, r.BaseTests)
		case v.cached && !v.suiteCached:
			t.KeepSuite(v.m, r.BaseTests)
		}
	}
	v := a.head
	switch {
	case v.built:
		t.KeepTree(v.m, v.set, r.HeadTests)
	case v.cached && !v.suiteCached && v.set == a.whole:
		t.KeepSuite(v.m, r.HeadTests)
	case !v.cached && r.WholeSet != nil:
		// DSE's partial tree is not kept, but the whole one its
		// candidates were confirmed on (or the analyses read) is.
		var tests []*testgen.Test // the suite of the partial tree is not its
		if !r.TestsPartial {
			tests = r.HeadTests
		}
		t.KeepTree(v.m, r.WholeSet, tests)
	}
}
