package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/internal/jsondiff"
	"github.com/setbot/setbot/internal/modelgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

var (
	asFullPairs = flag.Int("asfull-pairs", 0, "how many (model, change) pairs TestStrategiesAsFull runs (0: 1,000, or 100 under -short)")
	asFullEvery = flag.Int("asfull-pipeline-every", 25, "TestStrategiesAsFull runs every Nth pair through the whole pipeline too, over a git repository with a SQLite cache")
	asFullFrom  = flag.Int("asfull-from", 0, "the first pair TestStrategiesAsFull runs (to run one again: -asfull-from N -asfull-pairs 1)")
	asFullDir   = flag.String("asfull-dir", "", "where TestStrategiesAsFull writes a pair that disagrees (default: os.TempDir()/setbot-differential-N)")
)

// The engine bounds of TestStrategiesAsFull, small enough for a thousand
// pairs and deep enough for the changes to matter; the commands it prints
// pass them as flags.
const (
	asFullDepth     = 3
	asFullMaxStates = 300
)

// TestStrategiesAsFull is the differential check of the incremental core
// (issue 26): on random (model, change) pairs from internal/modelgen, every
// strategy and every cache hit gives the report a full analysis gives.
//
// The pairs take every change class (modelgen.Kinds and priority changes),
// changes of the start sequence (modelgen.MutateStart: the entry code of
// the states the machine starts in, a transition fired while starting by
// an event raised there, a timer set there), edits of an <invoke> (its
// param, finalize, autoforward, child machine, id: modelgen.MutateInvoke)
// and of a black-box function's table (modelgen.MutateTable), and edits
// that leave the flattened machine equal (modelgen.Reshape: reformatting,
// a shadowed duplicate transition), on which auto reuses the base tree
// whole; the models set and re-set timers, raise internal events, send to
// themselves, nest and run regions in parallel.
//
// For each pair, the report (report.ChangeAnalysis, as `setbot diff
// --format json` writes it) of --strategy dse, mse and auto is compared
// with that of --strategy full: for every other pair without a cache, for
// the others with a cache (the pipeline's cacheTrees over a SQLite store)
// that holds the base's tree and suite as the analysis of the base commit
// leaves them, and then auto again with both trees in the cache, as a full
// run leaves them. Auto runs the analysis of the strategy it picks, so it
// is run only where it picks reuse: its mse and full are those run anyway.
// Every asFullEvery-th pair also goes through the whole pipeline (git
// repository, configuration, result cache, gate): dse, mse and auto from
// a cache the base commit's analysis warmed, and auto again (served from
// the result cache), against a full run without a cache, the gate's
// conclusion and findings included (the gate is compared when the model's
// report agrees).
//
// What is compared is the whole report but what says how it was computed
// (strategyStatFields: strategy, strategy_reason, reused_states,
// new_states, solver_calls, ms, confirmed_by, the *_cached flags), with
// one restriction for DSE, whose tree is partial by design (README,
// "Strategies"; docs/architecture.md §DSE and candidates) and which promises only this:
//   - its changes, impact, base tree, invariants, outputs lost, newly
//     unreachable and newly transient states are exactly full's (a state
//     it does not reach, an output it does not send, is confirmed on the
//     whole tree before it is reported);
//   - its head tree's size is its own (head.states, head.paths);
//   - when tests_partial, its tests are those of its partial tree: the
//     count of obsolete tests is an upper bound of full's, and neither the
//     other counts nor the tests are compared;
//   - when nondeterminism_partial, every conflict it reports is one full
//     reports, but for where it was found (state) and its witness: a
//     conflict is reported once, in the first state of the tree that has
//     it, and the partial tree may not hold the whole tree's first;
//   - unless confirmed_by says the whole tree was built, its newly
//     reachable states are some of full's;
//   - the bounds it hit (by bound and limit) are some of full's, and the
//     number of paths each cut is not compared.
//
// A pair that disagrees is written as base.scxml and head.scxml to a
// directory (-asfull-dir, or os.TempDir()/setbot-differential-N), and the
// failure gives the `setbot diff` command that shows the disagreement.
// Pairs that a known issue explains (knownDisagreements, each naming its
// issue item) are counted and logged, not failed.
func TestStrategiesAsFull(t *testing.T) {
	n := *asFullPairs
	if n == 0 {
		n = 1000
		if testing.Short() {
			n = 100
		}
	}
	store, err := cache.Open(filepath.Join(t.TempDir(), "c.db"), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	rig := newPipelineRig(t, store)
	edits := asFullEdits()
	ctx := context.Background()
	eopts := engine.Options{MaxDepth: asFullDepth, MaxStates: asFullMaxStates}.WithDefaults()
	direct := &runner{ctx: ctx, opts: Options{Cache: store, Solver: newZ3}}
	runs, failed := 0, 0
	known := make(map[string]map[int]bool) // issue item -> pairs
	byEdit := make(map[string]int)
	for i := *asFullFrom; runs < n && i < *asFullFrom+4*n; i++ {
		p, ok := makePair(i, edits)
		if !ok {
			continue
		}
		runs++
		byEdit[p.edit]++
		base, head, ok := p.load(t)
		if !ok {
			continue
		}
		var ds []disagreement
		ds = append(ds, p.direct(t, base, head, eopts, direct)...)
		if *asFullEvery > 0 && runs%*asFullEvery == 0 {
			ds = append(ds, p.pipeline(t, rig)...)
		}
		for _, d := range ds {
			if k := knownIssue(p, d); k != nil {
				if known[k.item] == nil {
					known[k.item] = make(map[int]bool)
				}
				known[k.item][p.n] = true
				t.Logf("pair %d (%s): known issue (%s): %s: %s", p.n, p.what, k.item, d.run, d.diff)
				continue
			}
			failed++
			if failed <= 10 {
				t.Errorf("pair %d (%s: %s): %s reports otherwise than full: %s\n%s", p.n, p.edit, p.what, d.run, d.diff, p.save(t, d))
			}
		}
	}
	if failed > 10 {
		t.Errorf("%d disagreements in all (the first 10 shown)", failed)
	}
	if runs < n {
		t.Errorf("only %d pairs could be generated", runs)
	}
	for _, e := range edits {
		if byEdit[e.name] == 0 && n >= 2*len(edits) {
			t.Errorf("no pair of edit %s", e.name)
		}
	}
	t.Logf("%d (model, change) pairs, %d through the pipeline; per edit %v", runs, rig.pairs, byEdit)
	for _, k := range knownDisagreements {
		t.Logf("%d pairs disagree as %s", len(known[k.item]), k.item)
	}
}

// asFullEdit is a way to make the head version of a pair from its base.
type asFullEdit struct {
	name string
	// needs says what the base must have for the edit to apply.
	needs func(o *modelgen.Options)
	apply func(v version, seed int64) (out version, what string, ok bool)
}

// version is one version of a pair's model: the document and, when it
// declares the black-box function, its table.
type version struct {
	src, table []byte
}

// onSource makes an edit of the document an edit of a version.
func onSource(edit func(src []byte, seed int64) ([]byte, string, bool)) func(version, int64) (version, string, bool) {
	return func(v version, seed int64) (version, string, bool) {
		out, what, ok := edit(v.src, seed)
		return version{src: out, table: v.table}, what, ok
	}
}

// asFullEdits are every change class, start-sequence changes (three times
// as often: they are what the other classes rarely hit), edits of an
// <invoke> and of a table, and edits that leave the machine equal.
func asFullEdits() []asFullEdit {
	var out []asFullEdit
	for _, k := range append(slices.Clone(modelgen.Kinds), modelgen.PriorityChanged) {
		out = append(out, asFullEdit{name: string(k), apply: onSource(func(src []byte, seed int64) ([]byte, string, bool) {
			o, e, ok := modelgen.MutateEdit(src, k, seed)
			return o, e.Description, ok
		})})
	}
	start := asFullEdit{name: "start", needs: func(o *modelgen.Options) { o.Start = true },
		apply: onSource(func(src []byte, seed int64) ([]byte, string, bool) {
			o, e, ok := modelgen.MutateStart(src, seed)
			return o, e.Description, ok
		})}
	invoke := asFullEdit{name: "invoke", needs: func(o *modelgen.Options) { o.Invoke = true }, apply: onSource(modelgen.MutateInvoke)}
	table := asFullEdit{name: "table", needs: func(o *modelgen.Options) { o.Functions = true },
		apply: func(v version, seed int64) (version, string, bool) {
			out, what, ok := modelgen.MutateTable(v.table, seed)
			return version{src: v.src, table: out}, what, ok
		}}
	reshape := asFullEdit{name: "reshape", apply: onSource(modelgen.Reshape)}
	return append(out, start, start, start, invoke, invoke, table, table, reshape, reshape)
}

// asFullPair is one (model, change) pair.
type asFullPair struct {
	n          int
	seed       int64
	edit, what string
	base, head version
}

// makePair makes the ith pair; ok is false when the edit has no place in
// the model.
func makePair(i int, edits []asFullEdit) (asFullPair, bool) {
	seed := int64(i/len(edits) + 1)
	e := edits[i%len(edits)]
	// Small models, for a thousand pairs in about a minute: regions
	// multiply the configurations, and history and sessions multiply them
	// again, so a parallel model has neither.
	parallel := seed%3 == 0
	opts := modelgen.Options{States: 4, Events: 3, Parallel: parallel, History: seed%4 == 1 && !parallel, Internal: seed%2 == 0,
		Timers: seed%5 == 0 || seed%5 == 3, Loops: seed%3 == 1, Unused: int(seed % 2),
		SelfSends: seed%7 == 2, Start: seed%3 == 2, Invoke: seed%4 == 3 && !parallel, Functions: seed%5 == 1, MixedKinds: seed%3 == 1}
	if e.needs != nil {
		e.needs(&opts)
	}
	if opts.Invoke {
		opts.Parallel = false
	}
	base := version{src: modelgen.Generate(seed, opts)}
	if opts.Functions {
		base.table = modelgen.Table(seed)
	}
	head, what, ok := e.apply(base, seed+int64(i))
	return asFullPair{n: i, seed: seed, edit: e.name, what: what, base: base, head: head}, ok
}

// files are the files of a version, by their names in the repository
// under dir.
func (v version) files(dir string) map[string]string {
	out := map[string]string{dir + "/m.scxml": string(v.src)}
	if v.table != nil {
		out[dir+"/"+modelgen.TableFile] = string(v.table)
	}
	return out
}

// loadVersion reads and flattens a version, its table read from memory.
func loadVersion(name string, v version) (*mlm.Machine, error) {
	m, err := load.Bytes(context.Background(), name, v.src, load.Options{Read: scxml.Options{ReadFile: func(rel string) ([]byte, error) {
		if rel == modelgen.TableFile && v.table != nil {
			return v.table, nil
		}
		return nil, os.ErrNotExist
	}}})
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (p asFullPair) load(t *testing.T) (base, head *mlm.Machine, ok bool) {
	t.Helper()
	base, err := loadVersion("base.scxml", p.base)
	if err != nil {
		t.Errorf("pair %d: the base does not load: %v", p.n, err)
		return nil, nil, false
	}
	head, err = loadVersion("head.scxml", p.head)
	if err != nil {
		t.Errorf("pair %d (%s): the head does not load: %v", p.n, p.what, err)
		return nil, nil, false
	}
	return base, head, true
}

// disagreement is a run whose report differs from full's.
type disagreement struct {
	run      string         // what was run, as it is shown
	strategy vocab.Strategy // the strategy asked for, for `setbot diff`
	cached   bool           // the run had trees from the cache
	equal    bool           // the two machines are equal: auto reuses the base's tree
	diff     string         // the first difference
	field    string         // the top-level field it is in
}

// direct runs the pair as `setbot diff` does, without a cache and with
// one, and returns the runs that disagree with full.
func (p asFullPair) direct(t *testing.T, base, head *mlm.Machine, eopts engine.Options, r *runner) []disagreement {
	t.Helper()
	ctx := context.Background()
	analyze := func(b *mlm.Machine, s vocab.Strategy, trees incremental.Trees) (*incremental.Result, error) {
		return incremental.Analyze(ctx, b, head, incremental.Request{Strategy: s, Engine: eopts, Solver: newZ3, Trees: trees,
			Analyses: incremental.CheckOutputs | incremental.CheckNondeterminism})
	}
	full, err := analyze(base, vocab.StrategyFull, nil)
	var se *incremental.StartError
	if errors.As(err, &se) {
		return nil // a model that cannot start is no pair (every strategy says so)
	}
	if err != nil {
		t.Fatalf("pair %d: full: %v", p.n, err)
	}
	want := reportJSON(t, report.NewChangeAnalysis(full))
	var out []disagreement
	check := func(run string, s vocab.Strategy, cached bool, res *incremental.Result, err error) {
		if err != nil {
			out = append(out, disagreement{run: run, strategy: s, cached: cached, diff: "error: " + err.Error()})
			return
		}
		if d := compareReports(want, reportJSON(t, report.NewChangeAnalysis(res)), s == vocab.StrategyDSE); d.diff != "" {
			d.run, d.strategy, d.cached, d.equal = run, s, cached, base.Hash == head.Hash
			out = append(out, d)
		}
	}
	// Auto runs what it chooses: the analysis of mse or full, which are
	// run anyway, or reuse.
	auto, _, err := incremental.Choose(vocab.StrategyAuto, full.Diff, base, head, full.BaseSet)
	if err != nil {
		t.Fatal(err)
	}
	// Every other pair runs them with a cache that holds what the analysis
	// of the base commit leaves in it: the base's tree and suite, which are
	// full's (the suite of a tree without a base). The keys are the
	// machines': a tree an earlier pair shared is there already.
	trees := &cacheTrees{r: r, eopts: eopts, coverage: vocab.CoveragePath}
	var with incremental.Trees
	where := ""
	cached := p.n%2 == 1
	if cached {
		trees.KeepTree(base, full.BaseSet, full.BaseTests)
		with, where = trees, ", the base tree from the cache"
	}
	// DSE first: a whole tree MSE keeps would make DSE's head cached.
	for _, s := range []vocab.Strategy{vocab.StrategyDSE, vocab.StrategyMSE, vocab.StrategyAuto} {
		if s == vocab.StrategyAuto && auto != vocab.StrategyReuse {
			continue
		}
		res, err := analyze(base, s, with)
		check("diff --strategy "+string(s)+where, s, cached, res, err)
	}
	if cached {
		// Then both trees from the cache, as a full run leaves them.
		trees.KeepTree(head, full.HeadSet, full.HeadTests)
		res, err := analyze(base, vocab.StrategyAuto, trees)
		check("diff --strategy auto, both trees from the cache", vocab.StrategyAuto, true, res, err)
	}
	return out
}

// pipelineRig is a git repository and a cache for the pairs that go
// through the whole pipeline: each pair adds its base in one commit and
// changes it to its head in the next.
type pipelineRig struct {
	repo   *vcs.Repo
	commit func(files map[string]string) string
	store  *cache.Store
	last   string // the last commit
	pairs  int
}

func newPipelineRig(t *testing.T, store *cache.Store) *pipelineRig {
	dir, commit := newGitRepo(t)
	last := commit(map[string]string{".setbot.yml": fmt.Sprintf("bounds: {depth: %d, max_states: %d}\n", asFullDepth, asFullMaxStates)})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &pipelineRig{repo: repo, commit: commit, store: store, last: last}
}

// pipeline runs the pair through the pipeline and returns the runs whose
// report of the model, or whose gate, differs from a full run's without a
// cache.
func (p asFullPair) pipeline(t *testing.T, rig *pipelineRig) []disagreement {
	t.Helper()
	rig.pairs++
	ctx := context.Background()
	dir := fmt.Sprintf("p%d", p.n)
	prev := rig.last
	base := rig.commit(p.base.files(dir))
	head := rig.commit(p.head.files(dir))
	rig.last = head
	b, _ := loadVersion("base.scxml", p.base)
	h, _ := loadVersion("head.scxml", p.head)
	equal := b != nil && h != nil && b.Hash == h.Hash
	run := func(from, to string, s vocab.Strategy, c cache.Backend) any {
		a, err := Analyze(ctx, rig.repo, from, to, Options{Strategy: s, Cache: c, Solver: newZ3})
		if err != nil {
			t.Fatalf("pair %d: analyze --strategy %s: %v", p.n, s, err)
		}
		return reportJSON(t, a)
	}
	want := run(base, head, vocab.StrategyFull, nil)
	run(prev, base, vocab.StrategyAuto, rig.store) // the base commit warms the cache
	var out []disagreement
	for _, x := range []struct {
		s   vocab.Strategy
		run string
	}{
		{vocab.StrategyDSE, "analyze --strategy dse, the base tree from the cache"},
		{vocab.StrategyMSE, "analyze --strategy mse, the base tree from the cache"},
		{vocab.StrategyAuto, "analyze (auto), from the cache"},
		{vocab.StrategyAuto, "analyze (auto) again, the result from the cache"},
	} {
		if d := compareAnalyses(want, run(base, head, x.s, rig.store), x.s == vocab.StrategyDSE); d.diff != "" {
			d.run, d.strategy, d.cached, d.equal = x.run, x.s, true, equal
			out = append(out, d)
		}
	}
	return out
}

// compareAnalyses compares two `setbot analyze` documents of one model:
// the model's report as compareReports does, the rest exactly.
func compareAnalyses(want, got any, dse bool) disagreement {
	w, g := want.(map[string]any), got.(map[string]any)
	wm, gm := w["models"].([]any), g["models"].([]any)
	if len(wm) != 1 || len(gm) != 1 {
		return disagreement{diff: fmt.Sprintf("%d and %d models", len(wm), len(gm)), field: "models"}
	}
	if d := compareReports(wm[0], gm[0], dse); d.diff != "" {
		return d
	}
	return disagreement{diff: jsondiff.First(withoutFields(w, "models"), withoutFields(g, "models")), field: "gate"}
}

// strategyStatFields are what a report says of how it was computed, which
// differs between strategies and runs by design.
var strategyStatFields = map[string]bool{"strategy": true, "strategy_reason": true, "reused_states": true, "new_states": true,
	"solver_calls": true, "ms": true, "confirmed_by": true, "base_cached": true, "head_cached": true, "result_cached": true,
	"elapsed_ms": true}

// reportJSON is v as JSON decodes it.
func reportJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// compareReports compares a report with full's, strategy statistics
// aside, for DSE as much as DSE promises (see TestStrategiesAsFull).
func compareReports(full, got any, dse bool) disagreement {
	f, g := full.(map[string]any), got.(map[string]any)
	confirmed := g["confirmed_by"] != nil
	f, g = jsondiff.Without(f, strategyStatFields).(map[string]any), jsondiff.Without(g, strategyStatFields).(map[string]any)
	if dse {
		var drop []string
		if g["tests_partial"] == true {
			if obsolete(g) < obsolete(f) {
				return disagreement{diff: fmt.Sprintf("tests.obsolete: %v, fewer than full's %v: not an upper bound", obsolete(g), obsolete(f)), field: "tests"}
			}
			drop = append(drop, "tests", "test_delta", "tests_partial")
		}
		if g["nondeterminism_partial"] == true {
			if c := notIn(g["nondeterminism"], f["nondeterminism"], "witness", "state"); c != nil {
				return disagreement{diff: fmt.Sprintf("nondeterminism: %v, which full does not report", c), field: "nondeterminism"}
			}
			drop = append(drop, "nondeterminism", "nondeterminism_partial")
		}
		if !confirmed {
			if s := notIn(g["newly_reachable"], f["newly_reachable"]); s != nil {
				return disagreement{diff: fmt.Sprintf("newly_reachable: %v, which full does not report", s), field: "newly_reachable"}
			}
			drop = append(drop, "newly_reachable")
		}
		if b := notIn(g["bounds_hit"], f["bounds_hit"], "count"); b != nil {
			return disagreement{diff: fmt.Sprintf("bounds_hit: %v, which full does not hit", b), field: "bounds_hit"}
		}
		drop = append(drop, "head", "bounds_hit")
		f, g = withoutFields(f, drop...), withoutFields(g, drop...)
	}
	d := jsondiff.First(f, g)
	field, _, _ := strings.Cut(d, ".")
	field, _, _ = strings.Cut(field, "[")
	field, _, _ = strings.Cut(field, ":")
	return disagreement{diff: d, field: field}
}

func obsolete(r map[string]any) float64 {
	n, _ := r["tests"].(map[string]any)["obsolete"].(float64)
	return n
}

// notIn returns the first element of the list some that is not in the
// list all, both without the fields ignore, or nil.
func notIn(some, all any, ignore ...string) any {
	xs, _ := some.([]any)
	ys, _ := all.([]any)
	for _, x := range xs {
		x = without(x, ignore...)
		if !slices.ContainsFunc(ys, func(y any) bool { return reflect.DeepEqual(x, without(y, ignore...)) }) {
			return x
		}
	}
	return nil
}

func without(v any, fields ...string) any {
	if m, ok := v.(map[string]any); ok {
		return withoutFields(m, fields...)
	}
	return v
}

// withoutFields returns a copy of m without the fields.
func withoutFields(m map[string]any, fields ...string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if !slices.Contains(fields, k) {
			out[k] = v
		}
	}
	return out
}

// save writes the pair where -asfull-dir says and returns what to run to
// see the disagreement.
func (p asFullPair) save(t *testing.T, d disagreement) string {
	dir := *asFullDir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), fmt.Sprintf("setbot-differential-%d", p.n))
	} else {
		dir = filepath.Join(dir, fmt.Sprint(p.n))
	}
	b, h := filepath.Join(dir, "base.scxml"), filepath.Join(dir, "head.scxml")
	files := map[string][]byte{b: p.base.src, h: p.head.src}
	if p.base.table != nil {
		// Each version reads its table next to it.
		b, h = filepath.Join(dir, "base", "m.scxml"), filepath.Join(dir, "head", "m.scxml")
		files = map[string][]byte{b: p.base.src, h: p.head.src,
			filepath.Join(dir, "base", modelgen.TableFile): p.base.table, filepath.Join(dir, "head", modelgen.TableFile): p.head.table}
	}
	for path, data := range files {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Sprintf("(the pair could not be written: %v)", err)
		}
	}
	flags := fmt.Sprintf("--depth %d --max-states %d", asFullDepth, asFullMaxStates)
	cmd := fmt.Sprintf("setbot diff --format json %s --strategy %s %s %s\nsetbot diff --format json %s --strategy full %s %s", flags, d.strategy, b, h, flags, b, h)
	if d.cached {
		cmd += "\n(with a cache: commit base, then head, to a repository whose .setbot.yml sets these bounds, and run setbot analyze --cache FILE for the base commit, then for the pair)"
	}
	return "the pair is in " + dir + "; compare\n" + cmd
}

// knownDisagreement is a disagreement an open issue explains: the check
// counts it, and says so, instead of failing.
type knownDisagreement struct {
	item  string // the issue and item
	match func(p asFullPair, d disagreement) bool
}

// knownDisagreements are the disagreements the check found that are not
// fixed yet.
var knownDisagreements = []knownDisagreement{
	// testdata/full/suite_rows_*.scxml: found by this check, not yet in
	// issue 26's list. The suite of a tree keeps a base test's values only
	// where they satisfy its path (engine/testgen, Generator's kept values:
	// holds), and holds cannot evaluate a path condition that reads a
	// black-box call's result, so on a model with a table the head's suite
	// has other values than the base's for the same tree. A run that takes
	// a suite from the cache (stored by an analysis with another base)
	// then reports other test values than a full run.
	{"issue 26, found by TestStrategiesAsFull: test values of a model with a table follow the cache's history (testgen keeps no base value through a black-box call)",
		func(p asFullPair, d disagreement) bool {
			return d.cached && p.base.table != nil && d.field == "test_delta"
		}},
}

func knownIssue(p asFullPair, d disagreement) *knownDisagreement {
	for i, k := range knownDisagreements {
		if k.match(p, d) {
			return &knownDisagreements[i]
		}
	}
	return nil
}
