package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

// ModelCheck is what a whole-branch pass did with one model file.
type ModelCheck struct {
	Path     string `json:"path"`
	Error    string `json:"error,omitempty"` // the model does not load
	Cached   bool   `json:"cached"`          // the cache held its tree before the pass
	Explored bool   `json:"explored"`        // its tree was computed in this pass
	// Differs says that the tree or tests computed afresh are not those the
	// cache held (Verify only): the cache was serving a wrong answer.
	Differs bool   `json:"differs,omitempty"`
	Detail  string `json:"detail,omitempty"` // the first difference, or why it is inconclusive
	// Inconclusive: a budget of the run (time, memory) cut the fresh tree,
	// so it cannot be compared with the cached one (nor stored).
	Inconclusive bool `json:"inconclusive,omitempty"`
	States       int  `json:"states"`
}

// Warm makes sure the cache holds the tree and tests of every model at
// rev, exploring those it lacks: run on every push to the default branch,
// so that a pull request finds its base trees cached.
func Warm(ctx context.Context, repo *vcs.Repo, rev string, opts Options) ([]ModelCheck, error) {
	return branchPass(ctx, repo, rev, opts, false)
}

// Verify recomputes every model at rev from scratch, ignoring the cache,
// compares the trees and tests with those the cache holds, and refreshes
// the cache: the scheduled full re-analysis. Any difference is reported.
func Verify(ctx context.Context, repo *vcs.Repo, rev string, opts Options) ([]ModelCheck, error) {
	return branchPass(ctx, repo, rev, opts, true)
}

func branchPass(ctx context.Context, repo *vcs.Repo, rev string, opts Options, verify bool) ([]ModelCheck, error) {
	sha, err := repo.Resolve(rev)
	if err != nil {
		return nil, err
	}
	cfg, err := ReadConfig(repo, sha)
	if err != nil {
		return nil, err
	}
	paths, err := repo.Files(sha, cfg.IsModel)
	if err != nil {
		return nil, err
	}
	r := &runner{ctx: ctx, repo: repo, opts: opts, cfg: cfg, head: sha, heap: heapMeter(opts)}
	out := []ModelCheck{}
	for i, path := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r.current = path
		r.progress("[%d/%d] %s", i+1, len(paths), path)
		mc, capped := r.settings(vcs.Change{NewPath: path})
		for _, c := range capped {
			r.progress("%s: %s asks for %s; the ceiling, %s, applies", path, c.Setting, c.Asked, c.Ceiling)
		}
		eopts := r.engineOptions(mc)
		m, _, diags, err := r.load(path, sha, load.Bounded(mc.Bounds))
		if err != nil {
			return nil, err
		}
		check := ModelCheck{Path: path}
		if len(diags) > 0 {
			check.Error = fmt.Sprintf("%d:%d: %s", diags[0].Line, diags[0].Column, diags[0].Message)
			out = append(out, check)
			continue
		}
		// The pass reads what the cache holds even when fresh (Verify
		// compares with it).
		trees := &cacheTrees{r: r, eopts: eopts, coverage: mc.Coverage, read: true}
		var cached storedTree
		cached.set, cached.tests = trees.Tree(m)
		check.Cached = cached.set != nil
		if check.Cached && !verify {
			check.States = cached.set.Stats.States
			if cached.tests == nil {
				// The tree is there but not its suite (a new build changes
				// the suites' key): make it, which needs no exploration.
				tests, err := testgen.Suite(cached.set, coverageOr(mc.Coverage), opts.Solver)
				if err != nil {
					return nil, fmt.Errorf("tests of %s: %w", path, err)
				}
				trees.KeepSuite(m, tests)
			}
			out = append(out, check)
			continue
		}
		set, err := engine.Explore(m, eopts, opts.Solver)
		if err != nil {
			return nil, fmt.Errorf("exploring %s: %w", path, err)
		}
		tests, err := testgen.Suite(set, coverageOr(mc.Coverage), opts.Solver)
		if err != nil {
			return nil, fmt.Errorf("tests of %s: %w", path, err)
		}
		check.Explored, check.States = true, set.Stats.States
		for _, b := range set.Bounds {
			if b.Bound.Budget() {
				check.Inconclusive, check.Detail = true, fmt.Sprintf("the %s bound (%s) cut the fresh tree", b.Bound, b.Bound.FormatLimit(b.Limit))
			}
		}
		if verify && check.Cached && !check.Inconclusive {
			check.Detail = compareTrees(ctx, cached.set, set, cached.tests, tests)
			if err := ctx.Err(); err != nil {
				return nil, err // the comparison was stopped, not different
			}
			check.Differs = check.Detail != ""
		}
		trees.KeepTree(m, set, tests)
		out = append(out, check)
	}
	if opts.Cache != nil {
		for _, c := range out {
			if c.Differs {
				// Results computed from a tree found wrong must not be served
				// again; which results used it is not recorded, so all go
				// (they are recomputed from the cached trees on demand).
				n, err := opts.Cache.DeleteKind(ctx, kindResult)
				if err != nil {
					return nil, err
				}
				r.progress("cache: %d stored results dropped: a cached tree differed from a fresh one", n)
				break
			}
		}
	}
	return out, nil
}

// storedTree is a tree with its suite, as the cache held them.
type storedTree struct {
	set   *engine.SET
	tests []*testgen.Test
}

func coverageOr(c vocab.Coverage) vocab.Coverage {
	if c == "" {
		return vocab.CoveragePath
	}
	return c
}

// compareTrees returns the first difference between a stored tree and
// suite and fresh ones, or "".
func compareTrees(ctx context.Context, old, fresh *engine.SET, oldTests, freshTests []*testgen.Test) string {
	if a, b := old.Dump(), fresh.Dump(); a != b {
		al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
		for i := 0; i < len(al) && i < len(bl); i++ {
			if al[i] != bl[i] {
				return fmt.Sprintf("tree differs at node line %d: cached %q, fresh %q", i+1, al[i], bl[i])
			}
		}
		return fmt.Sprintf("tree differs: cached %d nodes, fresh %d", len(old.Nodes), len(fresh.Nodes))
	}
	if oldTests == nil {
		return ""
	}
	// A suite may keep the values of an earlier version's tests where they
	// still drive the same path (testgen.SuiteFrom), so its values need not
	// be a fresh suite's: it agrees when it holds the same tests (by
	// identity) and each still meets its own oracle on the machine.
	d, err := testgen.Compare(ctx, oldTests, freshTests, fresh)
	switch {
	case err != nil:
		return fmt.Sprintf("tests differ: a cached test does not replay: %v", err)
	case len(d.Changed)+len(d.Obsolete) > 0:
		return fmt.Sprintf("tests differ: %d cached tests no longer meet their oracle, %d no longer follow their path", len(d.Changed), len(d.Obsolete))
	case len(d.New) > 0 || len(oldTests) != len(freshTests):
		return fmt.Sprintf("tests differ: cached %d tests, fresh %d, %d of them not cached", len(oldTests), len(freshTests), len(d.New))
	}
	return ""
}
