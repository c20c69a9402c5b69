package pipeline

import (
	"sync"
	"time"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/vocab"
)

// The cache is an optimisation: a read that fails is a miss and a write
// that fails is skipped, each said on the progress stream, and the
// analysis goes on with what it computes itself.

// cacheTrees gives the analysis the trees and suites the cache holds for
// the run's engine options and coverage, and keeps those it builds.
type cacheTrees struct {
	r        *runner
	eopts    engine.Options
	coverage vocab.Coverage
	read     bool // read the cache even when the run is fresh
	// whole holds the keys of the trees stored whole (read, written, or
	// read as a delta and rewritten whole) in this run: a tree MSE builds
	// from one of them is stored as a delta against it
	// (engine.SET.MarshalDelta); a delta against a delta is not written.
	mu    sync.Mutex
	whole map[*engine.SET]string
}

func (t *cacheTrees) key(m *mlm.Machine) string { return setKey(m, t.eopts) }

// Tree returns m's tree with its suite when the cache holds them (and the
// run is not fresh).
func (t *cacheTrees) Tree(m *mlm.Machine) (*engine.SET, []*testgen.Test) {
	r := t.r
	if r.opts.Cache == nil || r.opts.Fresh && !t.read {
		return nil, nil
	}
	key := t.key(m)
	data, ok, err := r.opts.Cache.Get(r.ctx, kindSET, key)
	if err != nil {
		r.progress("cache: reading a tree: %v", err)
	}
	if !ok {
		return nil, nil
	}
	set, err := t.decode(m, key, data)
	if err != nil {
		r.progress("cache: ignoring a stored tree: %v", err)
		return nil, nil
	}
	if set == nil {
		return nil, nil
	}
	data, ok, _ = r.opts.Cache.Get(r.ctx, kindSuite, suiteKey(key, t.coverage, rowsOrigin(m)))
	if !ok {
		return set, nil
	}
	tests, err := testgen.DecodeSuite(r.ctx, set, data)
	if err != nil {
		r.progress("cache: ignoring a stored test suite: %v", err)
	}
	return set, tests
}

// KeepTree keeps a tree and its suite. A tree a budget of the run (time,
// memory) cut, or with queries the solver left undecided, is not kept:
// another run could get further.
func (t *cacheTrees) KeepTree(m *mlm.Machine, set *engine.SET, tests []*testgen.Test) {
	r := t.r
	if r.opts.Cache == nil || set.Stats.Unknown > 0 || r.ctx.Err() != nil {
		return
	}
	for _, b := range set.Bounds {
		if b.Bound.Budget() {
			return
		}
	}
	key := t.key(m)
	data, err := t.encode(set, key)
	if err == nil {
		err = r.opts.Cache.Put(r.ctx, kindSET, key, data)
	}
	if err != nil {
		r.progress("cache: storing a tree: %v", err)
		return
	}
	t.KeepSuite(m, tests)
}

// decode decodes a stored tree of m, stored under key: a whole one, or a
// delta against a base tree the cache must hold too. A delta whose base is
// gone (evicted, say) is a miss: nil and no error. A delta read is stored
// whole in its place: reading a delta costs about twice a whole tree's
// decoding, and a tree read once is often read again (the default
// branch's, as the base of every change proposed to it).
func (t *cacheTrees) decode(m *mlm.Machine, key string, data []byte) (*engine.SET, error) {
	baseKey, ok := engine.DeltaOf(data)
	if !ok {
		set, err := engine.DecodeSET(m, data)
		if err == nil {
			t.remember(set, key)
		}
		return set, err
	}
	r := t.r
	base, ok, err := r.opts.Cache.Get(r.ctx, kindSET, baseKey)
	if err != nil {
		r.progress("cache: reading the tree a stored tree is a delta against: %v", err)
	}
	if !ok {
		return nil, nil // evicted, say: a miss
	}
	set, err := engine.DecodeDelta(m, data, base)
	if err != nil {
		return nil, err
	}
	whole, err := set.MarshalBinary()
	if err == nil {
		err = r.opts.Cache.Put(r.ctx, kindSET, key, whole)
	}
	if err != nil {
		r.progress("cache: storing a tree whole: %v", err)
	} else {
		t.remember(set, key)
	}
	return set, nil
}

// encode encodes a tree to store under key: as a delta against the tree
// MSE built it from when that is stored whole, else whole.
func (t *cacheTrees) encode(set *engine.SET, key string) ([]byte, error) {
	t.mu.Lock()
	baseKey, ok := t.whole[set.DeltaBase()]
	t.mu.Unlock()
	if ok && set.DeltaBase() != nil {
		return set.MarshalDelta(baseKey)
	}
	data, err := set.MarshalBinary()
	if err == nil {
		t.remember(set, key)
	}
	return data, err
}

// remember notes that set is stored whole under key.
func (t *cacheTrees) remember(set *engine.SET, key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.whole == nil {
		t.whole = make(map[*engine.SET]string)
	}
	t.whole[set] = key
}

// KeepSuite keeps the suite of a stored tree (one whose suite was missing,
// say after a new build changed the suites' key).
func (t *cacheTrees) KeepSuite(m *mlm.Machine, tests []*testgen.Test) {
	r := t.r
	if r.opts.Cache == nil || tests == nil {
		return
	}
	suite, err := testgen.EncodeSuite(r.ctx, tests)
	if err == nil {
		err = r.opts.Cache.Put(r.ctx, kindSuite, suiteKey(t.key(m), t.coverage, rowsOrigin(m)), suite)
	}
	if err != nil {
		r.progress("cache: storing a test suite: %v", err)
	}
}

// storedResult returns the analysis the cache holds under key (in the run
// that computed it: its BaseCached and HeadCached are that run's).
func (r *runner) storedResult(key string) (*incremental.Result, bool) {
	if r.opts.Cache == nil || r.opts.Fresh {
		return nil, false
	}
	data, ok, err := r.opts.Cache.Get(r.ctx, kindResult, key)
	if err != nil {
		r.progress("cache: reading a result: %v", err)
	}
	if !ok {
		return nil, false
	}
	res, err := incremental.DecodeResult(data)
	if err != nil {
		r.progress("cache: ignoring a stored result: %v", err)
		return nil, false
	}
	return res, true
}

// storeResult keeps an analysis, in the core's own encoding. One a budget
// of the run (time, memory) cut is not kept: another run could get further.
func (r *runner) storeResult(key string, res *incremental.Result) {
	if r.opts.Cache == nil || r.ctx.Err() != nil {
		return // nothing to keep it in, or no one waiting for it
	}
	for _, set := range []*engine.SET{res.BaseSet, res.HeadSet, res.WholeSet} {
		if set != nil && set.Stats.Unknown > 0 {
			return // another run could decide what this one's solver could not
		}
	}
	for _, b := range res.BoundsHit {
		if b.Bound.Budget() {
			return
		}
	}
	data, err := incremental.EncodeResult(res)
	if err == nil {
		err = r.opts.Cache.Put(r.ctx, kindResult, key, data)
	}
	if err != nil {
		r.progress("cache: storing a result: %v", err)
	}
}

// record logs the run of one model in the cache.
func (r *runner) record(m *report.Model, start time.Time) {
	if r.opts.Cache == nil || m.ChangeAnalysis == nil {
		return
	}
	repo := r.opts.Repo
	if repo == "" {
		repo = r.opts.Local
	}
	_, err := r.opts.Cache.RecordRun(r.ctx, cache.Run{
		Repo: repo, Base: r.base, Head: r.head, Path: m.Path, Strategy: string(m.Strategy),
		BaseCached: m.BaseCached, HeadCached: m.HeadCached,
		BaseStates: m.Base.States, HeadStates: m.Head.States, ReusedStates: m.ReusedStates, SolverCalls: m.SolverCalls,
		Ms: time.Since(start).Milliseconds(),
	})
	if err != nil {
		r.progress("cache: recording the run: %v", err)
	}
}
