// Package pipeline is setbot's one analysis pipeline (docs/architecture.md §Data flow):
// from two commits of a repository to the report of what the change does to
// every model it touches. `setbot analyze` and the webhook server both run
// it; neither has an analysis of its own. `setbot diff` and `bench curve`,
// which compare two versions they loaded themselves, go through Compare,
// with the same request, coverage default and cache keys.
//
// Per changed model file: the two versions are read at their commits and
// flattened; the base tree comes from the cache or is explored (and
// stored); the head tree is built by the strategy the configuration asks
// for (incremental analysis); the head tree, its tests and the analysis
// itself are stored, so the same pair analysed again does no symbolic
// execution at all. The gate rules come from the base commit's
// configuration, everything else from the head's.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/gate"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

// Options configure a run.
type Options struct {
	// Strategy overrides the configuration's strategy when not "".
	Strategy vocab.Strategy
	// Coverage overrides the configuration's coverage criterion when not "".
	Coverage vocab.Coverage
	// Time, when set, overrides the configured time semantics.
	Time vocab.Time
	// Cache stores trees, suites and results; nil means no cache.
	Cache cache.Backend
	// Fresh ignores what the cache holds (every tree is explored again)
	// but still refreshes it: `/setbot full` and scheduled re-analyses.
	Fresh bool
	// Solver creates the decision procedure.
	Solver engine.NewSolver
	// Bounds replace the bounds the head's configuration sets (the
	// command's flags); the gate's configuration still sets the least
	// of each (Options' settings).
	Bounds vocab.Limits
	// Ceilings, when set, are the most the configurations may ask for
	// (the server's): a bound beyond its ceiling gets the ceiling, and the
	// model's report lists it as capped.
	Ceilings *config.Ceilings
	// MaxMemory, when positive, is the heap in bytes the run may add to
	// what the process held when it began: an exploration beyond it stops
	// at the bound memory (engine.Options.MaxMemory). What other runs in
	// the same process add meanwhile counts too.
	MaxMemory int64
	// Jobs is the number of workers of each exploration
	// (engine.Options.Jobs); the results do not depend on it.
	Jobs int
	// Progress receives one line per step of a long run; nil means none.
	Progress io.Writer
	// Logger, when set, receives the same steps as debug records with the
	// model's path under the key "model" (the bot's logs).
	Logger *slog.Logger
	// Repo names the repository in the runs recorded in the cache.
	Repo string
	// Local, for a local repository (Repo ""), is its directory: it names
	// the repository in the runs recorded in the cache, so that `setbot
	// runs --repo DIR` finds them, and the report does not show it.
	Local string
	// GateFrom is the revision whose configuration gives the gate rules;
	// "" means the base. The bot gives the tip of the pull request's target
	// branch, where the base is the merge base.
	GateFrom string
	// RunCommands lets black-box functions' commands grow their tables
	// whatever the configuration says (`analyze --run-commands`). Without
	// it they run only when functions.run_commands is true both at the
	// head and at the gate's revision.
	RunCommands bool
	// RefuseCommands, when set, is asked once, before the first command
	// of a run would run: a non-empty answer is why none may (the bot's:
	// the pull request comes from a fork), and the run goes on with the
	// committed tables, each model's report saying why.
	RefuseCommands func(ctx context.Context) string
}

// ConfigError is a configuration file that does not parse: the run cannot
// know what to analyse or how.
type ConfigError struct {
	Rev string
	Err error
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("reading %s at %.12s:\n%v", config.FileName, e.Rev, e.Err)
}

func (e *ConfigError) Unwrap() error { return e.Err }

// Interrupted is the error of a run whose context ended (Ctrl-C, a newer
// head): what it was doing, and what it had finished. The trees, suites and
// results it finished are in the cache.
type Interrupted struct {
	// Model is the model it was analysing, Doing the step it had begun
	// ("" before the first).
	Model, Doing string
	// Done lists the models analysed before, each with its outcome.
	Done []string
	Err  error // the context's
}

func (e *Interrupted) Error() string {
	msg := "interrupted"
	if e.Model != "" {
		msg += " while analysing " + e.Model
		if e.Doing != "" {
			msg += " (last step: " + e.Doing + ")"
		}
	}
	if len(e.Done) > 0 {
		msg += "; finished before: " + strings.Join(e.Done, ", ")
	}
	return msg
}

func (e *Interrupted) Unwrap() error { return e.Err }

// Analyze analyses every model file that changed between base and head.
func Analyze(ctx context.Context, repo *vcs.Repo, base, head string, opts Options) (*report.Analysis, error) {
	baseSHA, err := repo.Resolve(base)
	if err != nil {
		return nil, err
	}
	headSHA, err := repo.Resolve(head)
	if err != nil {
		return nil, err
	}
	headCfg, err := ReadConfig(repo, headSHA)
	if err != nil {
		return nil, err
	}
	gateFrom := baseSHA
	if opts.GateFrom != "" {
		if gateFrom, err = repo.Resolve(opts.GateFrom); err != nil {
			return nil, err
		}
	}
	gateCfg, err := gateConfig(repo, gateFrom)
	var ce *ConfigError
	if errors.As(err, &ce) {
		// The gate cannot come from the head in its place: the defaults
		// (which block) stand in, and the user is told.
		msg := fmt.Sprintf("the configuration at the gate's revision %.12s does not parse; the default gate rules apply: %v", gateFrom, ce.Err)
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, "setbot: warning: %s\n", msg)
		}
		if opts.Logger != nil {
			opts.Logger.Warn(msg)
		}
		gateCfg, err = config.Default(), nil
	}
	if err != nil {
		return nil, err
	}
	// A change cannot hide a model from its gate by narrowing the globs:
	// a file is a model if either configuration says so.
	isModel := func(path string) bool { return headCfg.IsModel(path) || gateCfg.IsModel(path) }
	changes, err := repo.Changed(baseSHA, headSHA, isModel)
	if err != nil {
		return nil, err
	}
	// A model whose file did not change changes all the same when a file
	// it reads did: a machine it invokes, its data or scripts.
	through, why, err := throughChanges(repo, baseSHA, headSHA, isModel, changes)
	if err != nil {
		return nil, err
	}
	changes = append(changes, through...)
	r := &runner{ctx: ctx, repo: repo, opts: opts, cfg: headCfg, gate: gateCfg, base: baseSHA, head: headSHA, through: why,
		commands: commandsAllowed(opts, headCfg, gateCfg), limits: commandLimits(headCfg, gateCfg), heap: heapMeter(opts)}
	if opts.Ceilings != nil {
		r.limitsCapped = opts.Ceilings.CapCommands(&r.limits)
	}
	defer r.removeCheckout()
	out := &report.Analysis{Repo: opts.Repo, Base: baseSHA, Head: headSHA, Models: []*report.Model{}}
	judged := make([]gate.Model, 0, len(changes))
	var done []string
	for i, c := range changes {
		if err := ctx.Err(); err != nil {
			return nil, &Interrupted{Done: done, Err: err}
		}
		r.current, r.doing = c.Path(), ""
		r.progress("[%d/%d] %s (%s)", i+1, len(changes), c.Path(), c.Status)
		m, res, err := r.model(c)
		if err != nil && ctx.Err() != nil {
			return nil, &Interrupted{Model: c.Path(), Doing: r.doing, Done: done, Err: ctx.Err()}
		}
		if err != nil {
			return nil, fmt.Errorf("analysing %s: %w", c.Path(), err)
		}
		done = append(done, m.Path+" ("+outcome(m)+")")
		out.Models = append(out.Models, m)
		judged = append(judged, gateModel(m, res, r.expected(c, m.HeadMachine)))
	}
	if err := ctx.Err(); err != nil {
		// Stopped while the last model's analysis was stored.
		return nil, &Interrupted{Done: done, Err: err}
	}
	sort.Slice(out.Models, func(i, j int) bool { return out.Models[i].Path < out.Models[j].Path })
	out.Gate = report.NewVerdict(gate.Evaluate(gateCfg.Rules(), judged))
	return out, nil
}

// outcome says in a few words what came of a model's analysis.
func outcome(m *report.Model) string {
	switch {
	case m.Status == vcs.Deleted:
		return "deleted"
	case len(m.Errors) > 0:
		return "does not load"
	case m.ChangeAnalysis == nil:
		return "not analysed"
	}
	return string(m.Strategy)
}

// gateModel is what the gate judges of a model: what the report says of
// it, the analysis of its change (nil when there is none), and the states
// meant to be unreachable.
func gateModel(m *report.Model, res *incremental.Result, expected map[string]string) gate.Model {
	diags := func(ds []report.Diagnostic, own ...string) []gate.Diagnostic {
		out := make([]gate.Diagnostic, len(ds))
		for i, d := range ds {
			out[i] = gate.Diagnostic{Line: d.Line, Column: d.Column, Message: d.Message, Refused: d.Refused}
			if !slices.Contains(own, d.Path) {
				out[i].Path = d.Path // a machine the model invokes
			}
		}
		return out
	}
	// The base's diagnostics in the model's own file are in it under
	// either name.
	base := []string{m.Path, m.OldPath}
	return gate.Model{Path: m.Path, Errors: diags(m.Errors, m.Path), Warnings: diags(m.Warnings, m.Path), New: m.Status == report.Added,
		BaseErrors: diags(m.BaseErrors, base...), BaseWarnings: diags(m.BaseWarnings, base...), Result: res, Head: m.HeadMachine, Expected: expected}
}

// expected maps the head's states that no execution is meant to enter to
// what says so: the model's own setbot:expect annotations, read at head
// (they are part of the change reviewers see), and the expect_unreachable
// globs of the gate's configuration, under the file's old and new names
// (a change cannot declare its own regressions expected there).
func (r *runner) expected(c vcs.Change, head *mlm.Machine) map[string]string {
	if head == nil {
		return nil
	}
	var globs config.ModelConfig
	for _, path := range []string{c.OldPath, c.NewPath} {
		if path != "" {
			globs.ExpectUnreachable = append(globs.ExpectUnreachable, r.gate.For(path).ExpectUnreachable...)
		}
	}
	src := head.Source
	out := make(map[string]string)
	for _, s := range src.ScopedStates() {
		if s.ExpectUnreachable {
			out[s.ID] = fmt.Sprintf("setbot:expect=%q at line %d", scxml.ExpectUnreachable, src.Line(s.Pos))
		} else if g, ok := globs.ExpectedBy(s.ID); ok {
			out[s.ID] = fmt.Sprintf("expect_unreachable %q in the gate's %s", g, config.FileName)
		}
	}
	return out
}

// ReadConfig reads the configuration at a commit; a repository without one
// gets the defaults.
func ReadConfig(repo *vcs.Repo, rev string) (*config.Config, error) {
	data, err := repo.ReadFile(rev, config.FileName)
	if errors.Is(err, vcs.ErrPathNotFound) {
		return config.Default(), nil
	}
	if err != nil {
		return nil, err
	}
	cfg, err := config.Parse(config.FileName, data)
	if err != nil {
		return nil, &ConfigError{Rev: rev, Err: err}
	}
	return cfg, nil
}

// gateConfig reads the configuration the gate comes from (the base's),
// so that a change cannot loosen its own gate.
func gateConfig(repo *vcs.Repo, rev string) (*config.Config, error) {
	return ReadConfig(repo, rev)
}

type runner struct {
	ctx        context.Context
	repo       *vcs.Repo
	opts       Options
	cfg        *config.Config // the head's: what and how to analyse
	gate       *config.Config // the base's: the gate, and invariants a change cannot drop
	base, head string
	current    string // the model being analysed, for logs
	doing      string // the last step of its analysis begun, for Interrupted
	// through holds, for a model analysed because files it reads changed
	// (and not the model's file), those files.
	through map[string][]string
	// commands says whether black-box functions' commands may run;
	// checkoutDir holds the head's files for them once written.
	commands     bool
	limits       config.Functions // how long and how many rounds they may run
	limitsCapped []config.Capped  // what of limits the ceilings lowered
	refused      *string          // Options.RefuseCommands's answer, once asked
	checkoutDir  string
	heap         func() int64 // what the run added to the heap (heapMeter); nil without a budget
}

// heapMeter reads the heap the run adds to what the process held when it
// began, for Options.MaxMemory; nil when there is no budget.
func heapMeter(opts Options) func() int64 {
	if opts.MaxMemory <= 0 {
		return nil
	}
	start := engine.HeapInUse()
	return func() int64 { return engine.HeapInUse() - start }
}

// engineOptions are the engine's options for a model of the run: its
// bounds, and the run's memory budget, cancellation and workers.
func (r *runner) engineOptions(mc config.ModelConfig) engine.Options {
	eopts := engineOptions(mc)
	eopts.Cancel, eopts.Jobs = r.ctx.Done(), r.opts.Jobs
	eopts.MaxMemory, eopts.Heap = r.opts.MaxMemory, r.heap
	return eopts
}

func (r *runner) progress(format string, args ...any) {
	if r.opts.Progress != nil {
		fmt.Fprintf(r.opts.Progress, "setbot: "+format+"\n", args...)
	}
	if r.opts.Logger != nil {
		r.opts.Logger.Debug(fmt.Sprintf(format, args...), "model", r.current)
	}
}

// model analyses one changed file: what the report says of it, and the
// analysis of the change when there is one.
func (r *runner) model(c vcs.Change) (*report.Model, *incremental.Result, error) {
	start := time.Now()
	out := &report.Model{Path: c.Path(), Status: c.Status, Through: r.through[c.Path()]}
	if c.Status == vcs.Renamed {
		out.OldPath = c.OldPath
	}
	if c.Status == vcs.Deleted {
		return out, nil, nil
	}
	mc, capped := r.settings(c)
	out.Capped = reportCapped(capped)
	strategy := mc.Strategy
	if r.opts.Strategy != "" {
		strategy = r.opts.Strategy
	}
	eopts := r.engineOptions(mc)
	lopts := load.Bounded(mc.Bounds)

	head, headSrc, diags, err := r.load(c.NewPath, r.head, lopts)
	if err != nil {
		return nil, nil, err
	}
	out.Lines = lineCounts(c.NewPath, headSrc)
	base, baseSrc, err := r.loadBase(c, lopts, out)
	if err != nil {
		return nil, nil, err
	}
	if len(diags) > 0 {
		out.Errors = diags
		return out, nil, nil
	}
	if len(out.BaseErrors) > 0 {
		r.progress("%s: the base version could not be read (%s); the head is compared with nothing", c.OldPath, out.BaseErrors[0].Message)
	}
	out.HeadMachine, out.BaseMachine, out.Time = head, base, mc.Time
	out.Warnings = diagnostics(c.NewPath, head.Source.Warnings)
	if r.commands && hasCommands(head) {
		if why := r.refusal(); why != "" {
			r.progress("%s: the black-box functions' commands do not run: %s", c.NewPath, why)
			out.TableGrowth = &report.TableGrowth{Rows: []report.GrownRow{}, Errors: []string{}, Refused: why}
		} else if out.TableGrowth, err = r.growTables(c.NewPath, head, base, eopts, r.limits); err != nil {
			return nil, nil, err
		} else {
			out.Capped = append(out.Capped, reportCapped(r.limitsCapped)...)
		}
	}
	invariants, diags := invariantsFor(head, mc.Invariants)
	if len(diags) > 0 {
		out.Errors = diags
		return out, nil, nil
	}

	trees := &cacheTrees{r: r, eopts: eopts, coverage: mc.Coverage}
	baseKey := ""
	if base != nil {
		baseKey = trees.key(base)
	}
	// The trees are keyed by the canonical machines, but a result also
	// speaks of source lines and names files (a table row's origin): it is
	// keyed by the files' paths and bytes too.
	rkey := resultKey(baseKey, trees.key(head), digest(append([]string{c.OldPath}, baseSrc...)...),
		digest(append([]string{c.NewPath}, headSrc...)...), strategy, mc.Coverage, mc.Invariants,
		growthKey(out.TableGrowth, r.limits))
	if stored, ok := r.storedResult(rkey); ok {
		r.served(c, out, stored, base != nil)
		r.record(out, start)
		return out, stored, nil
	}

	req := incremental.Request{
		Strategy: strategy, Coverage: mc.Coverage, Engine: eopts, Solver: r.opts.Solver, Trees: trees,
		Analyses: incremental.AllAnalyses, Invariants: invariants,
		Progress: func(format string, args ...any) {
			r.doing = fmt.Sprintf(format, args...)
			r.progress(c.Path()+": "+format, args...)
		},
	}
	res, err := r.analyze(c, out, base, head, req)
	if err != nil || res == nil {
		return out, nil, err
	}
	out.ChangeAnalysis = report.NewChangeAnalysis(res)
	out.BaseCached, out.HeadCached = res.BaseCached, res.HeadCached
	r.storeResult(rkey, res)
	r.progress("%s: %s, head %d states (%d reused, %d new), %s", c.Path(), res.Strategy,
		res.Head.States, res.ReusedStates, res.NewStates, time.Since(start).Round(time.Millisecond))
	r.record(out, start)
	return out, res, nil
}

// analyze analyses the change c from base to head. A machine that cannot
// finish starting is a finding at its loop, like a model that does not
// load: the head's (in out's Errors, and no result), or else the base's,
// whose head is then compared with nothing.
func (r *runner) analyze(c vcs.Change, out *report.Model, base, head *mlm.Machine, req incremental.Request) (*incremental.Result, error) {
	res, err := incremental.Analyze(r.ctx, base, head, req)
	var se *incremental.StartError
	if errors.As(err, &se) && !se.Head {
		r.progress("%s: the base version does not finish starting (%s); the head is compared with nothing", c.OldPath, se.Err.Msg)
		out.BaseErrors = []report.Diagnostic{{Path: c.OldPath, Line: se.Err.Pos.Line, Column: se.Err.Pos.Column, Message: se.Err.Msg}}
		res, err = incremental.Analyze(r.ctx, nil, head, req)
	}
	if errors.As(err, &se) {
		out.Errors = []report.Diagnostic{{Path: c.NewPath, Line: se.Err.Pos.Line, Column: se.Err.Pos.Column, Message: se.Err.Msg}}
		return nil, nil
	}
	if err == nil {
		err = r.ctx.Err() // stopped while the trees were kept: no report
	}
	return res, err
}

// served fills out with a result the cache held for the change c;
// hasBase says the base version loads.
func (r *runner) served(c vcs.Change, out *report.Model, stored *incremental.Result, hasBase bool) {
	if stored.NoBase && hasBase {
		// The base loads but did not finish starting when the result was
		// computed.
		out.BaseErrors = []report.Diagnostic{{Path: c.OldPath, Message: "the base version does not finish starting"}}
	}
	out.ChangeAnalysis = report.NewChangeAnalysis(stored)
	out.BaseCached, out.HeadCached, out.ResultCached = hasBase, true, true
	out.Computed.BaseCached, out.Computed.HeadCached = stored.BaseCached, stored.HeadCached
	r.progress("%s: served from the cache (%s)", c.Path(), out.Strategy)
}

// loadBase reads the base version of a changed model, whether the head
// loads or not: what the head shows is compared with it, errors included.
// A base that does not load is no machine, and its errors go to out's
// BaseErrors; its run-time errors go to BaseWarnings. It also returns the
// texts a result depends on (load).
func (r *runner) loadBase(c vcs.Change, opts load.Options, out *report.Model) (*mlm.Machine, []string, error) {
	if c.OldPath == "" {
		return nil, nil, nil
	}
	b, src, diags, err := r.load(c.OldPath, r.base, opts)
	if err != nil || len(diags) > 0 {
		out.BaseErrors = diags
		return nil, src, err
	}
	out.BaseWarnings = diagnostics(c.OldPath, b.Source.Warnings)
	return b, src, nil
}

// load reads and flattens a model at a commit. A model that does not load
// gives diagnostics (a finding); a file that cannot be read, or a
// flattening the run's context stopped, is an error.
// The files its src attributes name (machines it invokes, data, scripts)
// are read at the same commit. It also returns what a result about the
// model depends on: the model's text, then each file it read, by name and
// text in the order read.
func (r *runner) load(path, rev string, opts load.Options) (*mlm.Machine, []string, []report.Diagnostic, error) {
	data, err := r.repo.ReadFile(rev, path)
	if err != nil {
		return nil, nil, nil, err
	}
	texts := []string{string(data)}
	var read []string
	readFile := readAt(r.repo, rev, path, &read)
	opts.Read.ReadFile = func(rel string) ([]byte, error) {
		n := len(read)
		b, err := readFile(rel)
		if len(read) > n {
			texts = append(texts, read[n], string(b))
		}
		return b, err
	}
	if !utf8.Valid(data) {
		return nil, texts, []report.Diagnostic{{Path: path, Message: "not UTF-8 text: is it a model?"}}, nil
	}
	m, err := load.Bytes(r.ctx, path, data, opts)
	var errs source.ErrorList
	switch {
	case err == nil:
		return m, texts, nil, nil
	case errors.As(err, &errs):
		return nil, texts, diagnostics(path, errs), nil
	}
	return nil, texts, nil, err // stopped: the job's context is done
}

// lineCounts are the line counts of a model's files, from what load
// returns of them: the model's text, then each file it read, by name and
// text.
func lineCounts(path string, texts []string) map[string]int {
	out := map[string]int{}
	if len(texts) > 0 {
		out[path] = report.LineCount([]byte(texts[0]))
	}
	for i := 1; i+1 < len(texts); i += 2 {
		out[texts[i]] = report.LineCount([]byte(texts[i+1]))
	}
	return out
}

// settings are a model's effective settings: the head's configuration as
// the run's options (bounds, coverage, time) override it, with what the
// gate's (the base's) sets that a change may not weaken:
// its invariants, under the file's old name too, and bounds at least as
// deep as the base's, so that a change cannot hide a finding by exploring
// less; then the ceilings (Options.Ceilings) over all of it. It also
// returns the bounds the ceilings lowered.
func (r *runner) settings(c vcs.Change) (config.ModelConfig, []config.Capped) {
	mc := r.uncapped(c)
	if r.opts.Ceilings == nil {
		return mc, nil
	}
	return mc, r.opts.Ceilings.Cap(mc.Bounds)
}

// uncapped is settings without the ceilings.
func (r *runner) uncapped(c vcs.Change) config.ModelConfig {
	mc := r.cfg.For(c.NewPath)
	maps.Copy(mc.Bounds, r.opts.Bounds)
	if r.opts.Coverage != "" {
		mc.Coverage = r.opts.Coverage
	}
	if r.opts.Time != "" {
		mc.Time = r.opts.Time
	}
	if r.gate == nil {
		return mc
	}
	for _, path := range []string{c.OldPath, c.NewPath} {
		if path == "" {
			continue
		}
		g := r.gate.For(path)
		for _, inv := range g.Invariants {
			if !slices.Contains(mc.Invariants, inv) {
				mc.Invariants = append(mc.Invariants, inv)
			}
		}
		for _, s := range vocab.Settings(vocab.StageTree) {
			mc.Bounds[s.Bound] = max(mc.Bounds[s.Bound], g.Bounds[s.Bound])
		}
		head, base := mc.Bounds[vocab.BoundTime], g.Bounds[vocab.BoundTime]
		if head > 0 && (base == 0 || base > head) {
			mc.Bounds[vocab.BoundTime] = base
		}
	}
	return mc
}

// reportCapped is the report's list of the settings the ceilings lowered.
func reportCapped(cs []config.Capped) []report.Capped {
	var out []report.Capped
	for _, c := range cs {
		out = append(out, report.Capped{Setting: c.Setting, Asked: c.Asked, Ceiling: c.Ceiling})
	}
	return out
}

// diagnostics are a model's errors, each in the file it is in: the model's,
// or a file it reads (a machine it invokes through src).
func diagnostics(path string, errs source.ErrorList) []report.Diagnostic {
	var out []report.Diagnostic
	for _, e := range errs {
		file := path
		if e.Pos.Filename != "" {
			file = e.Pos.Filename
		}
		out = append(out, report.Diagnostic{Path: file, Line: e.Pos.Line, Column: e.Pos.Column, Message: e.Msg, Refused: e.Refused})
	}
	return out
}

// invariantsFor parses the configured invariants against a model and adds
// those its declared ranges imply.
func invariantsFor(m *mlm.Machine, texts []string) ([]analysis.Invariant, []report.Diagnostic) {
	var out []analysis.Invariant
	var diags []report.Diagnostic
	for _, text := range texts {
		inv, err := analysis.ParseInvariant(m, text)
		if err != nil {
			diags = append(diags, report.Diagnostic{Path: config.FileName, Message: fmt.Sprintf("invariant %q does not apply to %s: %v", text, m.Name, err)})
			continue
		}
		out = append(out, inv)
	}
	return out, diags // the analysis adds those the declared ranges imply
}

// engineOptions turns configured bounds into engine options, with the
// engine's defaults for what is unset, so equal trees get equal keys.
func engineOptions(mc config.ModelConfig) engine.Options {
	return engine.Options{Time: mc.Time}.Bounded(mc.Bounds).WithDefaults()
}
