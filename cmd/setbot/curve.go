package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/pipeline"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

// curvePairs are the bundled benchmark models with a one-guard change each,
// as testdata/bench and testdata/versions hold them.
var curvePairs = []string{
	"testdata/bench/aqs.scxml:testdata/versions/aqs/k_guard_changed.scxml",
	"testdata/bench/accs.scxml:testdata/versions/accs/k_guard_changed.scxml",
}

func newCurveCmd() *cobra.Command {
	var fe frontEndFlags
	var depths string
	var analyzeDepth int
	cmd := &cobra.Command{
		Use:   "curve [MODEL:CHANGED...]",
		Short: "Print how exploration and analysis scale with depth",
		Long: `curve measures, in one run, how setbot's cost grows with the depth bound, for
each MODEL and a CHANGED version of it (by default the bundled AQS and ACCS
models with a one-guard change, from the repository's root):

  - per depth (--depths, default 10-13): the states of MODEL's tree, the CPU
    time of its exploration (the process's, so the garbage collector's
    too; after one exploration not timed, which the process's first are
    slower than), states per CPU-second, and that rate as a share of the
    first depth's: 1 means exploration cost grows linearly with the tree;
  - at --analyze-depth (default 12): the CPU time of the analysis of the
    change (tree, tests under analyze's default coverage, reachability,
    outputs, nondeterminism) with MSE
    (memoized symbolic execution: the head tree built from the base tree)
    over the same with a full exploration, cold and with the base's tree
    and tests cached (as the bot has them once a push warmed its cache;
    the medians of five runs each), in this process; the same ratio as
    users meet it: setbot analyze run as a command (--jobs 1) on a git
    repository holding the two versions, with the base tree in its cache,
    the CPU time of that child process (its start, the cache's reading and
    writing and the report included); the peak memory (Go heap and Z3) of
    the full analysis per head state; and the CPU time of a fully cached
    re-run of setbot analyze over that of its first (cold) run;
  - at the deepest depth: the wall-clock time of the exploration with two
    workers (--jobs 2) and with one, the best of three runs of each taken
    in turn, and the speed-up, their ratio (the two trees must be the same
    tree, byte for byte); and, as the bound on that speed-up this machine
    sets, the time of two 1-worker explorations run at once, as a
    throughput relative to one's (2 on a machine where they do not slow
    each other down).

Every figure but the speed-up's and the cached analyses' is the median of
three runs, the two strategies' runs taken in turn. Every other measurement
explores with one worker.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			ds, err := parseDepths(depths)
			if err != nil {
				return err
			}
			if len(args) == 0 {
				args = curvePairs
			}
			w := cmd.OutOrStdout()
			for _, pair := range args {
				basePath, headPath, ok := strings.Cut(pair, ":")
				if !ok {
					return fmt.Errorf("%q: want MODEL:CHANGED", pair)
				}
				var ms [2]*mlm.Machine
				for i, path := range []string{basePath, headPath} {
					m, err := fe.load(cmd.Context(), path, 0)
					if err != nil {
						return modelErrors(cmd.ErrOrStderr(), err)
					}
					ms[i] = m
				}
				if err := curve(w, ms[0], ms[1], basePath, headPath, ds, analyzeDepth); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&depths, "depths", "10-13", "the depth bounds, as FIRST-LAST or a comma-separated list")
	cmd.Flags().IntVar(&analyzeDepth, "analyze-depth", 12, "the depth bound of the analysis measurements")
	fe.register(cmd)
	return cmd
}

func parseDepths(s string) ([]int, error) {
	var out []int
	if lo, hi, ok := strings.Cut(s, "-"); ok {
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 1 || b < a {
			return nil, fmt.Errorf("--depths %q: want FIRST-LAST with 1 <= FIRST <= LAST", s)
		}
		for d := a; d <= b; d++ {
			out = append(out, d)
		}
		return out, nil
	}
	for _, f := range strings.Split(s, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || d < 1 {
			return nil, fmt.Errorf("--depths %q: %q is not a depth", s, f)
		}
		out = append(out, d)
	}
	return out, nil
}

// curve measures one model and its change, and prints the table.
func curve(w io.Writer, base, head *mlm.Machine, basePath, headPath string, depths []int, analyzeDepth int) error {
	fmt.Fprintf(w, "%s (%s, changed: %s)\n", strings.TrimSuffix(base.Name, ".scxml"), basePath, headPath)
	if err := depthRates(w, base, basePath, depths); err != nil {
		return err
	}
	deepest := slices.Max(depths)
	t, states, err := speedUp(base, deepest, speedUpRuns)
	if err != nil {
		return fmt.Errorf("exploring %s at depth %d: %w", basePath, deepest, err)
	}
	fmt.Fprintf(w, "2 workers at depth %d: %d ms, 1 worker %d ms (wall clock, best of %d): speed-up %.2f, the same tree (%d states); "+
		"two 1-worker explorations at once: %d ms, %.2f times one's throughput\n",
		deepest, t.two.Milliseconds(), t.one.Milliseconds(), speedUpRuns, t.one.Seconds()/t.two.Seconds(), states,
		t.pair.Milliseconds(), 2*t.one.Seconds()/t.pair.Seconds())

	return analysisCosts(w, base, head, basePath, headPath, analyzeDepth)
}

// depthRates prints a row per depth: the states of base's tree and the
// median CPU time of curveRuns explorations.
func depthRates(w io.Writer, base *mlm.Machine, basePath string, depths []int) error {
	// One exploration first, not timed: the process's first ones run
	// slower per state, even three of them, which made the first depth's
	// rate 0.85 of what it is after another depth's.
	if _, err := engine.Explore(base, engine.Options{MaxDepth: depths[0]}, newZ3); err != nil {
		return fmt.Errorf("exploring %s at depth %d: %w", basePath, depths[0], err)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "depth\tstates\tCPU ms (median of %d)\tstates/CPU-s\tshare of first rate\t\n", curveRuns)
	var first float64
	for _, d := range depths {
		var states int
		cpu, err := medianOf(curveRuns, func() (time.Duration, error) {
			runtime.GC()
			start := cpuTime()
			set, err := engine.Explore(base, engine.Options{MaxDepth: d}, newZ3)
			if err != nil {
				return 0, fmt.Errorf("exploring %s at depth %d: %w", basePath, d, err)
			}
			states = set.Stats.States
			return cpuTime() - start, nil
		})
		if err != nil {
			return err
		}
		rate := float64(states) / cpu.Seconds()
		if first == 0 {
			first = rate
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%.0f\t%.2f\t\n", d, states, cpu.Milliseconds(), rate, rate/first)
	}
	return tw.Flush()
}

// analysisCosts prints the costs of the analysis of the change at depth:
// in this process cold and with the base cached, and as users run
// setbot analyze, in a child process.
func analysisCosts(w io.Writer, base, head *mlm.Machine, basePath, headPath string, depth int) error {
	opts := engine.Options{MaxDepth: depth}
	analyze := func(s vocab.Strategy, trees incremental.Trees) (time.Duration, *incremental.Result, uint64, error) {
		runtime.GC()
		peak := watchMemory()
		start := cpuTime()
		r, err := pipeline.Compare(context.Background(), base, head, pipeline.CompareOptions{Strategy: s, Engine: opts, Solver: newZ3,
			Analyses: incremental.CheckOutputs | incremental.CheckNondeterminism, Trees: trees})
		cpu := cpuTime() - start
		return cpu, r, peak(), err
	}
	// Each figure is the median of a few runs, taken in turn: one analysis
	// of a tree this size takes a few hundred milliseconds, which another
	// process or a garbage collection shifts by a tenth.
	var r *incremental.Result
	var peaks []uint64
	cold := func(s vocab.Strategy) func() (time.Duration, error) {
		return func() (time.Duration, error) {
			cpu, res, peak, err := analyze(s, nil)
			if s == vocab.StrategyFull {
				peaks = append(peaks, peak)
			}
			r = res
			return cpu, err
		}
	}
	mse, full, err := medianPair(curveRuns, cold(vocab.StrategyMSE), cold(vocab.StrategyFull))
	if err != nil {
		return err
	}
	// The bot's usual case: the base's tree and tests are cached (a push
	// to the default branch warmed them).
	warm := &baseTrees{m: base, set: r.BaseSet, tests: r.BaseTests}
	warmed := func(s vocab.Strategy) func() (time.Duration, error) {
		return func() (time.Duration, error) {
			cpu, _, _, err := analyze(s, warm)
			return cpu, err
		}
	}
	warmMSE, warmFull, err := medianPair(warmRuns, warmed(vocab.StrategyMSE), warmed(vocab.StrategyFull))
	if err != nil {
		return err
	}
	cmdMSE, cmdFull, err := commandCosts(basePath, headPath, depth, curveRuns)
	if err != nil {
		return err
	}
	var colds, reruns []time.Duration
	for range curveRuns {
		c, r, err := cachedRerun(basePath, headPath, depth)
		if err != nil {
			return err
		}
		colds, reruns = append(colds, c), append(reruns, r)
	}
	coldRun, cached := median(colds), median(reruns)
	fmt.Fprintf(w, "analysis at depth %d (medians of %d runs): MSE %d CPU ms, full %d CPU ms, MSE/full %.2f; with the base cached (medians of %d runs): MSE %d, full %d, MSE/full %.2f; "+
		"as a command (setbot analyze --jobs 1, base tree cached, the child's CPU): MSE %d, full %d, MSE/full %.2f; "+
		"peak memory %.1f KB per head state (%d states); setbot analyze cold %d CPU ms, fully cached %d CPU ms, cached/cold %.2f\n\n",
		depth, curveRuns, mse.Milliseconds(), full.Milliseconds(), mse.Seconds()/full.Seconds(),
		warmRuns, warmMSE.Milliseconds(), warmFull.Milliseconds(), warmMSE.Seconds()/warmFull.Seconds(),
		cmdMSE.Milliseconds(), cmdFull.Milliseconds(), cmdMSE.Seconds()/cmdFull.Seconds(),
		float64(median(peaks))/1024/float64(max(1, r.Head.States)), r.Head.States,
		coldRun.Milliseconds(), cached.Milliseconds(), cached.Seconds()/coldRun.Seconds())
	return nil
}

// curveRuns is how many times the curve measures each figure but the
// analyses with the base cached and the speed-up; it prints their medians.
const curveRuns = 3

// medianOf runs f runs times and returns the median of what it measured.
func medianOf(runs int, f func() (time.Duration, error)) (time.Duration, error) {
	var ds []time.Duration
	for range runs {
		d, err := f()
		if err != nil {
			return 0, err
		}
		ds = append(ds, d)
	}
	return median(ds), nil
}

// medianPair runs a and b in turn, runs times each, so that whatever else
// the machine does falls on both alike, and returns their medians.
func medianPair(runs int, a, b func() (time.Duration, error)) (time.Duration, time.Duration, error) {
	var as, bs []time.Duration
	for range runs {
		for _, m := range []struct {
			f   func() (time.Duration, error)
			out *[]time.Duration
		}{{a, &as}, {b, &bs}} {
			d, err := m.f()
			if err != nil {
				return 0, 0, err
			}
			*m.out = append(*m.out, d)
		}
	}
	return median(as), median(bs), nil
}

// warmRuns is how many times the analyses with the base cached run each
// way; the curve reports their medians.
const warmRuns = 5

// speedUpRuns is how many times speedUp explores each way.
const speedUpRuns = 3

// speedUpTimes are the shortest wall-clock times of one exploration (the
// least disturbed by whatever else the machine runs).
type speedUpTimes struct {
	one  time.Duration // one worker
	two  time.Duration // two workers
	pair time.Duration // two explorations with one worker each, at once
}

// speedUp explores m to depth d with one worker, with two, and twice at
// once with one worker each, in turn, runs times each way, and returns the
// shortest times and the number of states. The pair bounds what two
// workers can gain on this machine: two explorations that share nothing
// but the machine (its caches, its memory, the garbage collector) do not
// run twice as fast as one. The trees of one and two workers must be the
// same, but for the time they took.
func speedUp(m *mlm.Machine, d, runs int) (speedUpTimes, int, error) {
	var best speedUpTimes
	keep := func(b *time.Duration, took time.Duration) {
		if *b == 0 || took < *b {
			*b = took
		}
	}
	var trees [2][]byte
	states := 0
	for i := 0; i < runs; i++ {
		for j, jobs := range []int{1, 2} {
			runtime.GC()
			start := time.Now()
			set, err := engine.Explore(m, engine.Options{MaxDepth: d, Jobs: jobs}, newZ3)
			if err != nil {
				return best, 0, err
			}
			keep([]*time.Duration{&best.one, &best.two}[j], time.Since(start))
			set.Stats.Ms = 0
			if trees[j], err = set.MarshalBinary(); err != nil {
				return best, 0, err
			}
			states = set.Stats.States
		}
		runtime.GC()
		start := time.Now()
		var wg sync.WaitGroup
		var errs [2]error
		for k := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[k] = engine.Explore(m, engine.Options{MaxDepth: d, Jobs: 1}, newZ3)
			}()
		}
		wg.Wait()
		if err := errors.Join(errs[:]...); err != nil {
			return best, 0, err
		}
		keep(&best.pair, time.Since(start))
		if !bytes.Equal(trees[0], trees[1]) {
			return best, 0, errors.New("two workers built another tree than one")
		}
	}
	return best, states, nil
}

// baseTrees holds the base version's tree and tests, as a warm cache
// does, and keeps nothing.
type baseTrees struct {
	m     *mlm.Machine
	set   *engine.SET
	tests []*testgen.Test
}

func (b *baseTrees) Tree(m *mlm.Machine) (*engine.SET, []*testgen.Test) {
	if m.Hash == b.m.Hash {
		return b.set, b.tests
	}
	return nil, nil
}

func (b *baseTrees) KeepTree(*mlm.Machine, *engine.SET, []*testgen.Test) {}

func (b *baseTrees) KeepSuite(*mlm.Machine, []*testgen.Test) {}

// watchMemory samples the live Go heap and Z3's memory until the returned
// function is called, which returns the peak of their sum.
func watchMemory() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64() + z3.Allocated()
	}
	var mu sync.Mutex
	peak := read()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				v := read()
				mu.Lock()
				peak = max(peak, v)
				mu.Unlock()
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return max(peak, read())
	}
}

// cachedRerun runs setbot analyze twice on a repository whose two commits
// hold the two versions, with a cache: the CPU time of the cold run and of
// the fully cached one.
func cachedRerun(basePath, headPath string, depth int) (cold, cached time.Duration, err error) {
	dir, err := os.MkdirTemp("", "setbot-curve-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	repoDir := filepath.Join(dir, "repo")
	shas, err := commitVersions(repoDir, depth, basePath, headPath)
	if err != nil {
		return 0, 0, err
	}
	repo, err := vcs.Open(repoDir)
	if err != nil {
		return 0, 0, err
	}
	defer repo.Close()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := cache.Open(filepath.Join(dir, "cache.db"), cache.Options{Logger: quiet})
	if err != nil {
		return 0, 0, err
	}
	defer store.Close()
	var times [2]time.Duration
	for i := range times {
		runtime.GC()
		start := cpuTime()
		if _, err := pipeline.Analyze(context.Background(), repo, shas[0], shas[1], pipeline.Options{Cache: store, Solver: newZ3}); err != nil {
			return 0, 0, err
		}
		times[i] = cpuTime() - start
	}
	return times[0], times[1], nil
}

// commitVersions makes a repository in dir whose commits hold, as
// model.scxml, each file in turn ("": no model), with a configuration
// setting the depth.
func commitVersions(dir string, depth int, files ...string) ([]string, error) {
	cfg := fmt.Sprintf("models: [\"*.scxml\"]\nbounds:\n  depth: %d\n", depth)
	var history []vcs.Commit
	for i, f := range files {
		tree := map[string][]byte{".setbot.yml": []byte(cfg)}
		if f != "" {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			tree["model.scxml"] = data
		}
		history = append(history, vcs.Commit{Files: tree, Message: cmp.Or(f, "no model"),
			Name: "setbot curve", Email: "curve@setbot.invalid", When: time.Date(2026, 1, 1, i, 0, 0, 0, time.UTC)})
	}
	return vcs.Create(dir, history)
}

// commandCosts runs setbot analyze as users run it, a command in a
// process of its own, on a repository whose commits hold the two versions,
// with --jobs 1 and the base version's tree cached (as the bot has it once
// a push warmed its cache), with MSE and with a full exploration in turn,
// runs times each: the medians of the child's CPU time, which counts what
// the in-process figures leave out (the process's start, opening and
// writing the cache, decoding the cached tree, the report).
func commandCosts(basePath, headPath string, depth, runs int) (mse, full time.Duration, err error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, 0, err
	}
	dir, err := os.MkdirTemp("", "setbot-curve-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	repo := filepath.Join(dir, "repo")
	// The first commit has no model: analysing the second against it
	// caches the base version's tree, and only that.
	shas, err := commitVersions(repo, depth, "", basePath, headPath)
	if err != nil {
		return 0, 0, err
	}
	warm, run := filepath.Join(dir, "warm.db"), filepath.Join(dir, "run.db")
	analyze := func(cacheFile, base, head string, s vocab.Strategy) (time.Duration, []byte, error) {
		args := []string{"analyze", "--repo", repo, "--base", base, "--head", head, "--cache", cacheFile, "--jobs", "1", "--quiet", "--format", "json"}
		if s != "" {
			args = append(args, "--strategy", string(s))
		}
		return childCPU(exe, args)
	}
	if _, _, err := analyze(warm, shas[0], shas[1], ""); err != nil {
		return 0, 0, err
	}
	warmed, err := os.ReadFile(warm)
	if err != nil {
		return 0, 0, err
	}
	strategy := func(s vocab.Strategy) func() (time.Duration, error) {
		return func() (time.Duration, error) {
			if err := os.WriteFile(run, warmed, 0o600); err != nil {
				return 0, err
			}
			cpu, doc, err := analyze(run, shas[1], shas[2], s)
			if err != nil {
				return 0, err
			}
			if !bytes.Contains(doc, []byte(`"base_cached": true`)) || bytes.Contains(doc, []byte(`"head_cached": true`)) {
				return 0, fmt.Errorf("setbot analyze --strategy %s: the base tree was not taken from the cache, or the head tree was", s)
			}
			return cpu, nil
		}
	}
	return medianPair(runs, strategy(vocab.StrategyMSE), strategy(vocab.StrategyFull))
}

// childCPU runs exe with args and returns its CPU time, user and system,
// and its standard output; exit status 1 (a gate that fails) is a run like
// another.
func childCPU(exe string, args []string) (time.Duration, []byte, error) {
	cmd := exec.Command(exe, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && (!errors.As(err, &exit) || exit.ExitCode() != exitFindings) {
		return 0, nil, fmt.Errorf("running setbot %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), stdout.Bytes(), nil
}
