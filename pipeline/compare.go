package pipeline

import (
	"context"
	"io"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// CompareOptions configure Compare.
type CompareOptions struct {
	// Strategy is the strategy asked for; "" means auto.
	Strategy vocab.Strategy
	// Coverage is the tests' criterion; "" means the configuration's
	// default, as for Analyze.
	Coverage vocab.Coverage
	// Engine are the bounds and workers of the explorations.
	Engine engine.Options
	// Solver creates the decision procedure.
	Solver engine.NewSolver
	// Analyses are the analyses of the head asked for beyond reachability
	// and tests.
	Analyses incremental.Analyses
	// Cache, when set, gives the trees and suites it holds for these
	// options and keeps those the comparison builds, under the keys
	// Analyze uses: a tree either command built is the other's too.
	Cache cache.Backend
	// Fresh ignores what the cache holds but still refreshes it.
	Fresh bool
	// Trees, when set, stands in for Cache: trees held some other way (a
	// benchmark keeps the base's in memory).
	Trees incremental.Trees
	// Progress receives one line per step of a long comparison; nil means
	// none.
	Progress io.Writer
}

// Compare analyses the change from base to head, two versions of a model
// the caller has loaded (`setbot diff` reads two files, `bench curve` its
// benchmark models), as Analyze analyses each model a range of commits
// changes: the same strategies, coverage default and cache keys.
func Compare(ctx context.Context, base, head *mlm.Machine, opts CompareOptions) (*incremental.Result, error) {
	coverage := opts.Coverage
	if coverage == "" {
		coverage = config.Default().Coverage
	}
	req := incremental.Request{Strategy: opts.Strategy, Coverage: coverage, Engine: opts.Engine, Solver: opts.Solver,
		Trees: opts.Trees, Analyses: opts.Analyses}
	r := &runner{ctx: ctx, opts: Options{Cache: opts.Cache, Fresh: opts.Fresh, Progress: opts.Progress}}
	if req.Trees == nil && opts.Cache != nil {
		req.Trees = &cacheTrees{r: r, eopts: opts.Engine.WithDefaults(), coverage: coverage}
	}
	if opts.Progress != nil {
		req.Progress = func(format string, args ...any) { r.progress(format, args...) }
	}
	return incremental.Analyze(ctx, base, head, req)
}
