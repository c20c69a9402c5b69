package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/pipeline"
	"github.com/setbot/setbot/report"
	htmlreport "github.com/setbot/setbot/report/html"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

// analyzeFlags are the flags of analyze (and of demo, which runs it).
type analyzeFlags struct {
	repo, base, head string
	format           string
	cacheFile        string
	noCache, fresh   bool
	cloneDir         string
	strategy         string
	coverage         vocab.Coverage
	time             string
	junit, sarif     string
	codeQuality      string
	jsonFile         string
	// html is the directory analyze writes the report page into.
	html  string
	quiet bool
	jobs  int
	// runCommands lets black-box functions' commands grow their tables
	// whatever .setbot.yml says.
	runCommands bool
	// maxMemory is the heap budget (a size; "0" for none), ceilings
	// whether the server's default ceilings apply to .setbot.yml.
	maxMemory string
	ceilings  bool
	// bounds are the bound flags; set says which were given, and only
	// those replace .setbot.yml's.
	bounds vocab.Limits
	set    func(name string) bool
}

var analyzeFormats = []string{"markdown", "json", "sarif"}

// analysisSolver creates the solvers of analyze and demo (a variable so
// that tests can count them).
var analysisSolver engine.NewSolver = newZ3

func newAnalyzeCmd() *cobra.Command {
	var f analyzeFlags
	cmd := &cobra.Command{
		Use:   "analyze --base REV [--head REV] [--repo DIR|URL]",
		Short: "Analyse every model a range of commits changes, as the bot would",
		Long: `analyze compares two commits of a git repository: every model file that
changed between them (by the globs of .setbot.yml, default **/*.scxml; renames
followed) is read at both commits, flattened and analysed incrementally (see
setbot diff), and the report is printed: the pull-request comment in markdown
(the default), the JSON document described in docs/report-json.md, or SARIF
2.1.0 (--format sarif): one result per gate finding at its model line, for
code scanning. --junit, --sarif, --json and --codequality (GitLab's Code
Quality report: one issue per gate finding) write those formats to files as
well. --html DIR writes the report page there (docs/report-page.md): one
self-contained HTML file per analysis that needs no network to view, with the
head statechart drawn (nested boxes for compound states and parallel regions;
laid out by Graphviz's dot where it is installed), the change overlaid
(changed, added and impacted transitions; newly unreachable states in red,
newly transient and newly reached ones), each finding with a player that steps
through its witness event by event (active states, the transitions of each
microstep, variables and outputs, from the reference interpreter), the test
delta with every test playable, the tests' coverage as a heat map, and the
strategy and impact measures in plain words.

Revisions are SHAs (full or abbreviated), branches, tags, HEAD, and suffixes
~n and ^. --repo is a local repository (default: the current directory) or a
URL, cloned bare into --clone-dir and fetched on later runs.

The cache (--cache, default in the user cache directory) keeps every tree and
its tests, keyed by the canonical machine, the bounds and the semantics version,
and every analysis, keyed by the two files' contents too: a base tree analysed
before is not explored again, and the same pair analysed twice does no symbolic
execution. A file at --cache that is not a setbot cache (a model, say) is
refused and left alone (exit 2); a damaged setbot cache is moved aside and
rebuilt; one that cannot be opened is done without. --fresh recomputes everything and refreshes the cache.

Configuration comes from .setbot.yml at the head commit, except the gate rules,
which come from the base commit, so that a change cannot loosen its own gate
(docs/config.md).

Black-box functions (setbot:function) are read through their tables. When
functions.run_commands is true in .setbot.yml at both the head and the base
(or with --run-commands), their commands compute the rows the head's tables
lack first (SolveTab, Boudhiba et al., TAP 2017: at most functions.grow_rounds
rounds, each run with the call's arguments, no shell, a time limit, in a
checkout of the head with none of setbot's environment but PATH); the head
is analysed with those rows, and the report lists them as CSV lines to
append to the tables, which do not hold them yet. A command that fails is
reported and the analysis goes on with the rows it has. Exit status: 0 when the gate passes (success or neutral),
1 when a blocking rule trips (for example unreachable_state: block and a
change makes a state that some execution entered at base entered by none at
head; transient_state, off by default, concerns states entered but never
rested in), 2 on usage, configuration or repository errors, 130 when Ctrl-C
stops it: at any step, within a moment, saying the model and the step it
stopped in and the models it finished (what was finished is cached). Progress
goes to stderr (--quiet silences it).

--max-memory bounds the heap the analysis may add (default: half the machine's
memory on Linux, none elsewhere; 0 for none): an exploration beyond it stops at
the bound memory, which qualifies every claim as the other bounds do, and a tree
it cut is not cached. --ceilings applies the server's default ceilings
(docs/server.md) to the bounds .setbot.yml and the flags ask for, as the bot
does: for CI that analyses pull requests from forks, whose .setbot.yml is
theirs.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			a, err := f.run(cmd.Context(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			if err := f.write(cmd.OutOrStdout(), a); err != nil {
				return err
			}
			if a.Gate.Conclusion == report.Failure {
				return exitError{code: exitFindings}
			}
			return nil
		},
	}
	f.register(cmd, true)
	return cmd
}

func (f *analyzeFlags) register(cmd *cobra.Command, revisions bool) {
	fl := cmd.Flags()
	if revisions {
		fl.StringVar(&f.repo, "repo", ".", "the repository: a local directory or a URL to clone")
		fl.StringVar(&f.base, "base", "", "the base revision (required)")
		fl.StringVar(&f.head, "head", "HEAD", "the head revision")
		_ = cmd.MarkFlagRequired("base")
		fl.StringVar(&f.cloneDir, "clone-dir", defaultPath("repos"), "where URLs are cloned")
		fl.BoolVar(&f.runCommands, "run-commands", false, "run black-box functions' commands to grow their tables, whatever .setbot.yml's functions.run_commands says (the commands are the head's code)")
	}
	fl.StringVar(&f.format, "format", "markdown", "report format: markdown, json or sarif (SARIF 2.1.0, for code scanning)")
	fl.StringVar(&f.cacheFile, "cache", defaultPath("cache.db"), "the SQLite cache file")
	fl.BoolVar(&f.noCache, "no-cache", false, "use no cache at all")
	fl.BoolVar(&f.fresh, "fresh", false, "ignore what the cache holds, recompute everything, refresh the cache")
	fl.StringVar(&f.strategy, "strategy", "", "auto, mse, dse or full (default: .setbot.yml's strategy, else auto)")
	fl.StringVar(&f.time, "time", "", timeUsage+" (default: .setbot.yml's, else timed)")
	fl.Var((*coverageValue)(&f.coverage), "coverage", coverageUsage+" (default: .setbot.yml's, else transition)")
	fl.StringVar(&f.junit, "junit", "", "also write the tests and the gate as JUnit XML to this file")
	fl.StringVar(&f.sarif, "sarif", "", "also write the gate's findings as SARIF 2.1.0 to this file (for code scanning)")
	fl.StringVar(&f.jsonFile, "json", "", "also write the JSON document (docs/report-json.md) to this file")
	fl.StringVar(&f.codeQuality, "codequality", "", "also write the gate's findings as a GitLab Code Quality report to this file")
	fl.StringVar(&f.html, "html", "", "also write the report page (docs/report-page.md) into this directory: one self-contained HTML file per analysis")
	fl.BoolVarP(&f.quiet, "quiet", "q", false, "no progress on stderr")
	jobsFlag(cmd, &f.jobs)
	f.bounds = vocab.Limits{}
	limitFlags(fl, f.bounds, asConfigured, vocab.StageTree, vocab.StageBudget)
	if revisions {
		fl.StringVar(&f.maxMemory, "max-memory", defaultMaxMemory(), "stop exploring when the analysis holds this much more heap, such as 4GiB (0: no limit); the default is half the machine's memory")
		fl.BoolVar(&f.ceilings, "ceilings", false, "cap the bounds .setbot.yml and the flags ask for at the server's default ceilings (docs/server.md), as the bot does")
	}
	f.set = fl.Changed
}

// asConfigured ends the help of analyze's bound flags: a flag not given
// leaves the bound to .setbot.yml.
func asConfigured(s vocab.Setting) string {
	least := "less"
	if s.Unit == vocab.UnitDuration {
		least = "shorter"
	}
	return "; without it .setbot.yml's bounds." + s.Key + ", and never " + least + " than the base's"
}

// boundsOverride is what the bound flags given replace in .setbot.yml's
// bounds.
func (f *analyzeFlags) boundsOverride() vocab.Limits {
	o := vocab.Limits{}
	for b, v := range f.bounds {
		if s, _ := b.Settable(); f.set != nil && f.set(s.Flag) {
			o[b] = v
		}
	}
	return o
}

// defaultMaxMemory is --max-memory's default: half the machine's memory,
// which leaves the rest to Z3, the garbage collector's slack and the
// machine's other work; "0" (none) where the machine's memory is not known.
func defaultMaxMemory() string {
	return vocab.FormatBytes(physicalMemory() / 2 &^ (1<<20 - 1)) // in whole MiB, as it reads
}

// defaultPath is a file in setbot's user cache directory.
func defaultPath(name string) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "setbot", name)
}

func (f *analyzeFlags) check() error {
	if !contains(analyzeFormats, f.format) {
		return fmt.Errorf("unknown --format %q (want %s)", f.format, strings.Join(analyzeFormats, ", "))
	}
	if _, ok := vocab.ParseStrategy(f.strategy); f.strategy != "" && !ok {
		return fmt.Errorf("unknown --strategy %q (want %s)", f.strategy, strings.Join(vocab.Names(vocab.Strategies), ", "))
	}
	if _, err := f.memoryBudget(); err != nil {
		return err
	}
	return nil
}

// memoryBudget is --max-memory in bytes; 0 for none.
func (f *analyzeFlags) memoryBudget() (int64, error) {
	if f.maxMemory == "" {
		return 0, nil
	}
	n, err := config.ParseSize(f.maxMemory)
	if err != nil {
		return 0, fmt.Errorf("invalid --max-memory %q: %v", f.maxMemory, err)
	}
	return n, nil
}

// run opens the repository and the cache and runs the pipeline.
func (f *analyzeFlags) run(ctx context.Context, stderr io.Writer) (*report.Analysis, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	go func() { <-ctx.Done(); stop() }() // the first Ctrl-C stops the analysis; the next one, setbot
	progress := stderr
	if f.quiet {
		progress = nil
	}
	opts := pipeline.Options{Strategy: vocab.Strategy(f.strategy), Coverage: f.coverage, Time: vocab.Time(f.time), Fresh: f.fresh, Solver: analysisSolver, Repo: vcs.DisplayName(f.repo),
		Jobs: explorationJobs(f.jobs), RunCommands: f.runCommands, Bounds: f.boundsOverride()}
	opts.MaxMemory, _ = f.memoryBudget() // checked above
	if f.ceilings {
		c := config.DefaultCeilings()
		opts.Ceilings = &c
	}
	if progress != nil {
		opts.Progress = progress
	}
	// The cache is opened first, so that a mistyped --cache is refused
	// before a clone or any analysis.
	if !f.noCache {
		store, err := openCache(f.cacheFile, stderr)
		if err != nil {
			return nil, err
		}
		if store != nil {
			defer store.Close()
			opts.Cache = store
		}
	}
	repo, err := vcs.OpenOrClone(ctx, f.repo, f.cloneDir, vcs.CloneOptions{})
	if err != nil {
		return nil, err
	}
	defer repo.Close()
	if opts.Repo == "" {
		opts.Local = repo.Dir()
	}
	a, err := pipeline.Analyze(ctx, repo, f.base, f.head, opts)
	var ce *pipeline.ConfigError
	switch {
	case errors.As(err, &ce):
		fmt.Fprintf(stderr, "setbot: %v\n", err)
		return nil, exitError{code: exitUsage}
	case err != nil && ctx.Err() != nil:
		// Ctrl-C: the trees and results finished before it are in the
		// cache, so running the command again goes on from there.
		msg := "interrupted"
		var in *pipeline.Interrupted
		if errors.As(err, &in) {
			msg = in.Error()
		}
		fmt.Fprintf(stderr, "setbot: %s; what was finished is cached, and running the command again goes on from there\n", msg)
		return nil, exitError{code: exitInterrupted}
	}
	return a, err
}

// openCache opens the cache file at path for analyze and diff. A file
// that is not a setbot cache, or a newer setbot's, is an error; a cache
// that cannot be opened is said on stderr and done without (nil).
func openCache(path string, stderr io.Writer) (*cache.Store, error) {
	// The cache's own warnings repeat what Rebuilt says below; its
	// errors (a damaged entry, dropped) are worth seeing.
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	store, err := cache.Open(path, cache.Options{Logger: logger})
	switch {
	case errors.Is(err, cache.ErrNewerSchema), errors.Is(err, cache.ErrNotStore):
		// A newer setbot's cache, or no cache at all (a model file,
		// say): not ours to ignore, rebuild or overwrite.
		return nil, err
	case err != nil:
		// The cache only saves time: the analysis goes on without it.
		fmt.Fprintf(stderr, "setbot: warning: %v; analysing without a cache\n", err)
		return nil, nil
	}
	if why := store.Rebuilt(); why != "" {
		fmt.Fprintf(stderr, "setbot: warning: %s\n", why)
	}
	return store, nil
}

// write prints the report and writes the JUnit, SARIF, JSON and Code
// Quality files if asked.
func (f *analyzeFlags) write(w io.Writer, a *report.Analysis) error {
	for _, file := range []struct {
		path  string
		write func(io.Writer, *report.Analysis) error
	}{{f.junit, report.WriteJUnit}, {f.sarif, report.WriteSARIF}, {f.jsonFile, report.WriteJSON}, {f.codeQuality, report.WriteCodeQuality}} {
		if file.path == "" {
			continue
		}
		if err := writeFile(file.path, func(out io.Writer) error { return file.write(out, a) }); err != nil {
			return err
		}
	}
	if f.html != "" {
		if _, err := f.writePage(a); err != nil {
			return err
		}
	}
	switch f.format {
	case "json":
		return report.WriteJSON(w, a)
	case "sarif":
		return report.WriteSARIF(w, a)
	}
	_, err := io.WriteString(w, report.Markdown(a, report.Options{}))
	return err
}

// writePage writes the report page of a into the --html directory, named
// after the two commits, and returns its path.
func (f *analyzeFlags) writePage(a *report.Analysis) (string, error) {
	if err := os.MkdirAll(f.html, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(f.html, htmlreport.FileName(a))
	return path, writeFile(path, func(out io.Writer) error { return htmlreport.Write(context.Background(), out, a, htmlreport.Options{}) })
}

// writeFile creates path and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(out); err != nil {
		out.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
