package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/internal/demo"
	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

func TestKeys(t *testing.T) {
	m, err := load.File(context.Background(), "../examples/triangle.scxml", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := engineOptions(config.ModelConfig{})
	k := setKey(m, o)
	if k != setKey(m, engineOptions(config.ModelConfig{Bounds: vocab.Limits{vocab.BoundDepth: vocab.BoundDepth.Default()}, Time: vocab.TimeTimed})) {
		t.Error("an unset depth and time and the defaults give different keys")
	}
	untimed := o
	untimed.Time = vocab.TimeUntimed
	if k == setKey(m, untimed) {
		t.Error("the time semantics is not part of the key")
	}
	deeper := o
	deeper.MaxDepth++
	if k == setKey(m, deeper) {
		t.Error("the depth is not part of the key")
	}
	timed := o
	timed.Timeout = time.Minute
	if k != setKey(m, timed) {
		t.Error("the wall-clock budget changes the key")
	}
	if resultKey("a", "b", "fa", "fb", "auto", "path", []string{"x > 0", "y > 0"}, "") != resultKey("a", "b", "fa", "fb", "auto", "path", []string{"y > 0", "x > 0"}, "") {
		t.Error("the order of invariants changes the result key")
	}
	if resultKey("a", "b", "fa", "fb", "auto", "path", nil, "") == resultKey("a", "b", "fa", "fb", "mse", "path", nil, "") {
		t.Error("the strategy is not part of the result key")
	}
	if resultKey("a", "b", "fa", "fb", "auto", "path", nil, "") == resultKey("a", "b", "fa", "fc", "auto", "path", nil, "") {
		t.Error("the head file's bytes are not part of the result key (a result names source lines)")
	}
}

func openDemo(t *testing.T) (*vcs.Repo, []demo.Commit, *cache.Store) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	commits, err := demo.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	store, err := cache.Open(filepath.Join(t.TempDir(), "c.db"), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return repo, commits, store
}

// TestFreshRecomputes checks that a fresh run executes everything again
// although the cache holds the answer, and refreshes the cache.
func TestFreshRecomputes(t *testing.T) {
	repo, commits, store := openDemo(t)
	ctx := context.Background()
	opts := Options{Cache: store, Solver: newZ3}
	if _, err := Analyze(ctx, repo, commits[2].SHA, commits[3].SHA, opts); err != nil {
		t.Fatal(err)
	}
	opts.Fresh = true
	a, err := Analyze(ctx, repo, commits[2].SHA, commits[3].SHA, opts)
	if err != nil {
		t.Fatal(err)
	}
	m := a.Models[0]
	if m.BaseCached || m.HeadCached || m.ResultCached || m.NewStates == 0 {
		t.Errorf("fresh run: base_cached %v head_cached %v result_cached %v, %d new states", m.BaseCached, m.HeadCached, m.ResultCached, m.NewStates)
	}
	runs, err := store.Runs(ctx, "", 0)
	if err != nil || len(runs) != 2 {
		t.Errorf("%d runs recorded (err %v), want 2", len(runs), err)
	}
}

// TestBaseTreeFromCache checks the bot's warm cache: a tree stored by the
// analysis of one pair serves as the base of the next.
func TestBaseTreeFromCache(t *testing.T) {
	repo, commits, store := openDemo(t)
	ctx := context.Background()
	opts := Options{Cache: store, Solver: newZ3}
	if _, err := Analyze(ctx, repo, commits[1].SHA, commits[2].SHA, opts); err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(ctx, repo, commits[2].SHA, commits[3].SHA, opts)
	if err != nil {
		t.Fatal(err)
	}
	if m := a.Models[0]; !m.BaseCached || m.HeadCached || m.ResultCached || m.Strategy != "mse" {
		t.Errorf("base_cached %v head_cached %v result_cached %v strategy %s; want the base tree from the cache and MSE", m.BaseCached, m.HeadCached, m.ResultCached, m.Strategy)
	}
}

// TestTimeCutTreesNotStored checks that a tree the wall-clock budget cut
// is not cached: a later run with more time could get further.
func TestTimeCutTreesNotStored(t *testing.T) {
	_, _, store := openDemo(t)
	m, err := load.File(context.Background(), "../examples/triangle.scxml", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := engine.Explore(m, engine.Options{}, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{ctx: context.Background(), opts: Options{Cache: store}}
	trees := &cacheTrees{r: r}
	for _, b := range []vocab.Bound{vocab.BoundTime, vocab.BoundMemory} {
		set.Bounds = []engine.BoundHit{{Bound: b, Limit: 1, Count: 1}}
		trees.KeepTree(m, set, nil)
		if _, ok, _ := store.Get(r.ctx, kindSET, trees.key(m)); ok {
			t.Errorf("a tree the %s bound cut was stored", b)
		}
	}
	set.Bounds = nil
	set.Stats.Unknown = 1
	trees.KeepTree(m, set, nil)
	if _, ok, _ := store.Get(r.ctx, kindSET, trees.key(m)); ok {
		t.Error("a tree with an undecided query was stored")
	}
	set.Stats.Unknown = 0
	trees.KeepTree(m, set, nil)
	if _, ok, _ := store.Get(r.ctx, kindSET, trees.key(m)); !ok {
		t.Error("a whole tree was not stored")
	}
}

// TestConfigErrorAtHead checks that a head configuration that does not
// parse is a ConfigError naming the line.
func TestConfigErrorAtHead(t *testing.T) {
	dir, commit := newGitRepo(t)
	commit(map[string]string{".setbot.yml": "bounds:\n  depht: 3\n"})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Analyze(context.Background(), repo, "HEAD", "HEAD", Options{Solver: newZ3})
	var ce *ConfigError
	if err == nil || !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a ConfigError", err)
	}
	if got := err.Error(); !strings.Contains(got, ".setbot.yml:2:3") {
		t.Errorf("error %q does not name the line", got)
	}
}

// TestWarmAndVerify checks the branch passes: Warm explores only what the
// cache lacks; Verify recomputes everything, finds the cache in agreement,
// and reports a stored suite that differs from a fresh one.
func TestWarmAndVerify(t *testing.T) {
	repo, commits, store := openDemo(t)
	ctx := context.Background()
	head := commits[len(commits)-1].SHA
	opts := Options{Cache: store, Solver: newZ3}
	checks, err := Warm(ctx, repo, head, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(checks) != 1 || checks[0].Path != demo.ModelPath || checks[0].Cached || !checks[0].Explored || checks[0].States == 0 {
		t.Fatalf("first warm: %+v", checks)
	}
	if checks, err = Warm(ctx, repo, head, opts); err != nil || !checks[0].Cached || checks[0].Explored {
		t.Fatalf("second warm: %+v, %v", checks, err)
	}
	if checks, err = Verify(ctx, repo, head, opts); err != nil || !checks[0].Cached || !checks[0].Explored || checks[0].Differs {
		t.Fatalf("verify: %+v, %v", checks, err)
	}

	// Damage the stored suite: Verify must notice and put it right.
	m, err := load.Bytes(context.Background(), demo.ModelPath, mustRead(t, repo, head), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	key := setKey(m, engineOptions(config.ModelConfig{Bounds: vocab.Limits{vocab.BoundDepth: 8}}))
	skey := suiteKey(key, vocab.CoverageTransition, rowsOrigin(m))
	data, ok, err := store.Get(ctx, kindSuite, skey)
	if err != nil || !ok {
		t.Fatalf("the suite is not stored under the expected key (err %v)", err)
	}
	tree, _, _ := store.Get(ctx, kindSET, key)
	set, err := engine.DecodeSET(m, tree)
	if err != nil {
		t.Fatal(err)
	}
	tests, err := testgen.DecodeSuite(context.Background(), set, data)
	if err != nil {
		t.Fatal(err)
	}
	short, _ := testgen.EncodeSuite(context.Background(), tests[1:])
	if err := store.Put(ctx, kindSuite, skey, short); err != nil {
		t.Fatal(err)
	}
	if err := store.Put(ctx, kindResult, "some result", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	checks, err = Verify(ctx, repo, head, opts)
	if err != nil || !checks[0].Differs || !strings.Contains(checks[0].Detail, "tests differ") {
		t.Fatalf("verify of a damaged suite: %+v, %v", checks, err)
	}
	if _, ok, _ := store.Get(ctx, kindResult, "some result"); ok {
		t.Error("stored results survived a difference")
	}
	if checks, err = Verify(ctx, repo, head, opts); err != nil || checks[0].Differs {
		t.Fatalf("verify did not refresh the cache: %+v, %v", checks, err)
	}
}

func mustRead(t *testing.T, repo *vcs.Repo, rev string) []byte {
	t.Helper()
	b, err := repo.ReadFile(rev, demo.ModelPath)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGateFrom checks that the gate rules come from the revision named by
// GateFrom (the bot's target branch tip), not from the merge base.
func TestGateFrom(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	commits, err := demo.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	relaxed := committer(t, dir)(map[string]string{".setbot.yml": "models: [\"models/**/*.scxml\"]\nbounds: {depth: 8}\ngate:\n  unreachable_state: warn\n"})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := Analyze(ctx, repo, commits[2].SHA, commits[3].SHA, Options{Solver: newZ3})
	if err != nil || a.Gate.Conclusion != "failure" {
		t.Fatalf("gate from the base: %v, %v; want failure", a.Gate.Conclusion, err)
	}
	a, err = Analyze(ctx, repo, commits[2].SHA, commits[3].SHA, Options{Solver: newZ3, GateFrom: relaxed})
	if err != nil || a.Gate.Conclusion != "neutral" {
		t.Fatalf("gate from the target branch's tip: %v, %v; want neutral (unreachable_state: warn)", a.Gate.Conclusion, err)
	}
}

// TestCanceled checks that a canceled context stops the analysis.
func TestCanceled(t *testing.T) {
	repo, commits, _ := openDemo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, repo, commits[2].SHA, commits[3].SHA, Options{Solver: newZ3}); !errors.Is(err, context.Canceled) && !errors.Is(err, engine.ErrCanceled) {
		t.Errorf("a canceled analysis: err = %v", err)
	}
}

// TestChangeCannotDodgeItsGate: a change that narrows the model globs and
// deletes the base's invariants is still analysed against them.
func TestChangeCannotDodgeItsGate(t *testing.T) {
	tri, err := os.ReadFile("../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	dir, commit := newGitRepo(t)
	base := commit(map[string]string{"m/t.scxml": string(tri), ".setbot.yml": "models: [\"m/*.scxml\"]\ninvariants: [\"a >= 0\"]\n"})
	head := commit(map[string]string{
		"m/t.scxml":   strings.Replace(string(tri), "<!-- T2 -->", "<!-- T2, reworded -->", 1) + "\n",
		".setbot.yml": "models: [\"elsewhere/*.scxml\"]\n",
	})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(context.Background(), repo, base, head, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Models) != 1 || a.Models[0].Path != "m/t.scxml" {
		t.Fatalf("models %+v: the base's globs must still select m/t.scxml", a.Models)
	}
	var violated bool
	for _, c := range a.Models[0].Invariants {
		if c.Invariant == "a >= 0" && !c.Holds {
			violated = true
		}
	}
	if !violated || a.Gate.Conclusion != "failure" {
		t.Errorf("the base's invariant a >= 0 was not checked (invariants %+v, gate %s)", a.Models[0].Invariants, a.Gate.Conclusion)
	}
}

// newGitRepo makes an empty repository and a function that commits files
// and returns the commit's SHA.
func newGitRepo(t *testing.T) (string, func(files map[string]string) string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := git.PlainInit(dir, false); err != nil {
		t.Fatal(err)
	}
	return dir, committer(t, dir)
}

// committer returns a function that writes files into the work tree of the
// repository in dir, commits them and returns the commit's SHA.
func committer(t *testing.T, dir string) func(files map[string]string) string {
	t.Helper()
	r, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	return func(files map[string]string) string {
		t.Helper()
		for name, data := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			wt.Add(name)
		}
		n++
		sig := &object.Signature{Name: "t", Email: "t@example.com", When: time.Date(2026, 3, 1, n, 0, 0, 0, time.UTC)}
		h, err := wt.Commit(fmt.Sprint("c", n), &git.CommitOptions{Author: sig})
		if err != nil {
			t.Fatal(err)
		}
		return h.String()
	}
}

// TestResultKeyedBySource: the same machines from other file bytes reuse
// the trees but not the result, whose lines would be stale.
func TestResultKeyedBySource(t *testing.T) {
	tri, _ := os.ReadFile("../examples/triangle.scxml")
	off, _ := os.ReadFile("../engine/incremental/testdata/triangle_s2_off.scxml")
	dir, commit := newGitRepo(t)
	c0 := commit(map[string]string{"t.scxml": string(tri)})
	c1 := commit(map[string]string{"t.scxml": string(off)})
	shifted := strings.Replace(string(off), "<scxml", strings.Repeat("<!-- pad -->\n", 20)+"<scxml", 1)
	c2 := commit(map[string]string{"t.scxml": shifted})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	store, err := cache.Open(filepath.Join(t.TempDir(), "c.db"), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	first, err := Analyze(ctx, repo, c0, c1, Options{Cache: store, Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Analyze(ctx, repo, c0, c2, Options{Cache: store, Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	m1, m2 := first.Models[0], second.Models[0]
	if m2.ResultCached || !m2.HeadCached || !m2.BaseCached {
		t.Errorf("shifted file: result_cached %v head_cached %v base_cached %v; want the trees reused and the result recomputed", m2.ResultCached, m2.HeadCached, m2.BaseCached)
	}
	if len(m1.NewlyUnreachable) != 1 || len(m2.NewlyUnreachable) != 1 || m2.NewlyUnreachable[0].Line != m1.NewlyUnreachable[0].Line+20 {
		t.Errorf("lines: %+v then %+v; want the second 20 lines further down", m1.NewlyUnreachable, m2.NewlyUnreachable)
	}
}

// TestResultKeyedByPath: the same change of the same bytes in another file
// is analysed again: a result names its file (a table row's origin, say).
func TestResultKeyedByPath(t *testing.T) {
	tri, _ := os.ReadFile("../examples/triangle.scxml")
	off, _ := os.ReadFile("../engine/incremental/testdata/triangle_s2_off.scxml")
	dir, commit := newGitRepo(t)
	c0 := commit(map[string]string{"a.scxml": string(tri)})
	c1 := commit(map[string]string{"a.scxml": string(off)})
	c2 := commit(map[string]string{"b.scxml": string(tri)})
	c3 := commit(map[string]string{"b.scxml": string(off)})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	store, err := cache.Open(filepath.Join(t.TempDir(), "c.db"), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	if _, err := Analyze(ctx, repo, c0, c1, Options{Cache: store, Solver: newZ3}); err != nil {
		t.Fatal(err)
	}
	second, err := Analyze(ctx, repo, c2, c3, Options{Cache: store, Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if m := second.Models[0]; m.Path != "b.scxml" || m.ResultCached || !m.BaseCached || !m.HeadCached {
		t.Errorf("%s: result_cached %v, trees cached %v %v; want the trees reused and the result recomputed", m.Path, m.ResultCached, m.BaseCached, m.HeadCached)
	}
}

// TestGateSettingsSurviveTheChange: a rename keeps the base's per-file
// invariants, a head that lowers the depth is explored at the base's, and
// DSE (asked by the head) still checks invariants on the whole tree.
func TestGateSettingsSurviveTheChange(t *testing.T) {
	radio, _ := os.ReadFile("../examples/radio.scxml")
	cfg := "models: [\"m/*.scxml\"]\nbounds: {depth: 6}\nmodels_config:\n  - match: \"m/radio.scxml\"\n    invariants: [\"volume != 7\"]\n"
	dir, commit := newGitRepo(t)
	base := commit(map[string]string{"m/radio.scxml": string(radio), ".setbot.yml": cfg})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	edited := strings.Replace(string(radio), "</scxml>", "<!-- edited -->\n</scxml>", 1)
	for name, files := range map[string]map[string]string{
		"rename":      {"m/radio2.scxml": edited},
		"lower depth": {"m/radio.scxml": edited, ".setbot.yml": strings.Replace(cfg, "depth: 6", "depth: 1", 1)},
		"dse":         {"m/radio.scxml": edited, ".setbot.yml": cfg + "strategy: dse\n"},
	} {
		t.Run(name, func(t *testing.T) {
			if name == "rename" {
				os.Remove(filepath.Join(dir, "m/radio.scxml"))
				r, _ := git.PlainOpen(dir)
				wt, _ := r.Worktree()
				wt.Remove("m/radio.scxml")
			}
			head := commit(files)
			a, err := Analyze(ctx, repo, base, head, Options{Solver: newZ3})
			if err != nil {
				t.Fatal(err)
			}
			var violated bool
			for _, m := range a.Models {
				for _, c := range m.Invariants {
					if c.Invariant == "volume != 7" && !c.Holds {
						violated = true
					}
				}
			}
			if !violated || a.Gate.Conclusion != "failure" {
				t.Errorf("the base's invariant volume != 7 was dodged (gate %s, models %d)", a.Gate.Conclusion, len(a.Models))
			}
		})
	}
}

// TestMissingSuitesStoredAgain: trees cached without their suites (a new
// build changes the suites' key) get them stored by the next analysis.
func TestMissingSuitesStoredAgain(t *testing.T) {
	repo, commits, store := openDemo(t)
	ctx := context.Background()
	opts := Options{Cache: store, Solver: newZ3}
	if _, err := Analyze(ctx, repo, commits[2].SHA, commits[3].SHA, opts); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{kindSuite, kindResult} {
		if _, err := store.DeleteKind(ctx, kind); err != nil {
			t.Fatal(err)
		}
	}
	a, err := Analyze(ctx, repo, commits[2].SHA, commits[3].SHA, opts)
	if err != nil {
		t.Fatal(err)
	}
	if m := a.Models[0]; !m.BaseCached || !m.HeadCached || m.ResultCached {
		t.Fatalf("base_cached %v head_cached %v result_cached %v; want both trees from the cache", m.BaseCached, m.HeadCached, m.ResultCached)
	}
	eopts := engineOptions(config.ModelConfig{Bounds: vocab.Limits{vocab.BoundDepth: 8}})
	for _, sha := range []string{commits[2].SHA, commits[3].SHA} {
		m, err := load.Bytes(context.Background(), demo.ModelPath, mustRead(t, repo, sha), load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := store.Get(ctx, kindSuite, suiteKey(setKey(m, eopts), vocab.CoverageTransition, rowsOrigin(m))); !ok {
			t.Errorf("the suite of the tree at %.7s was not stored again", sha)
		}
	}
}

// TestModelThatCannotStart checks that a model whose start cannot finish
// is a model_error finding at its loop, and the other models are still
// analysed; and that a base that cannot start leaves the head to be
// analysed as a new model.
func TestModelThatCannotStart(t *testing.T) {
	tri, _ := os.ReadFile("../examples/triangle.scxml")
	loop, _ := os.ReadFile("../engine/testdata/start/raise_loop.scxml")
	dir, commit := newGitRepo(t)
	c0 := commit(map[string]string{"t.scxml": string(tri)})
	c1 := commit(map[string]string{"loop.scxml": string(loop), "fixed.scxml": string(loop)})
	c2 := commit(map[string]string{"fixed.scxml": string(tri)})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(context.Background(), repo, c0, c1, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	// The files are new: their first version warns.
	if a.Gate.Conclusion != report.Neutral || len(a.Models) != 2 {
		t.Fatalf("conclusion %s, %d models; want neutral and 2", a.Gate.Conclusion, len(a.Models))
	}
	for _, f := range a.Gate.Findings {
		if f.Rule != vocab.RuleNewModelError || f.Reason != vocab.ReasonNewModel {
			t.Errorf("finding %+v, want new_model_error for a new model", f)
		}
	}
	for _, m := range a.Models {
		if len(m.Errors) != 1 || m.Errors[0].Line != 6 || !strings.Contains(m.Errors[0].Message, "does not finish starting") {
			t.Errorf("%s: errors %+v, want one at line 6 saying it does not finish starting", m.Path, m.Errors)
		}
	}
	b, err := Analyze(context.Background(), repo, c1, c2, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Models) != 1 || b.Models[0].ChangeAnalysis == nil || !b.Models[0].NoBase || len(b.Models[0].Errors) != 0 {
		t.Fatalf("fixed model: %+v; want it analysed with no base", b.Models)
	}
	if be := b.Models[0].BaseErrors; len(be) != 1 || be[0].Line != 6 || !strings.Contains(be[0].Message, "does not finish starting") {
		t.Errorf("fixed model: base errors %+v, want why the base could not be read", be)
	}
}

// TestSrcReadAtTheCommit: a <data src> is read from the same commit as the
// model, never from the work tree.
func TestSrcReadAtTheCommit(t *testing.T) {
	model := func(src string) string {
		return `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a"><datamodel><data id="x" src="` + src + `"/></datamodel>` +
			`<state id="a"><transition event="go" cond="x == 2" target="b"/></state><state id="b"/></scxml>`
	}
	tri, _ := os.ReadFile("../examples/triangle.scxml")
	dir, commit := newGitRepo(t)
	c0 := commit(map[string]string{"m/t.scxml": string(tri)})
	c1 := commit(map[string]string{"m/t.scxml": model("file:v.txt"), "m/v.txt": "2"})
	if err := os.WriteFile(filepath.Join(dir, "m", "w.txt"), []byte("2"), 0o644); err != nil {
		t.Fatal(err)
	}
	c2 := commit(map[string]string{"m/t.scxml": model("w.txt")})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(context.Background(), repo, c0, c1, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Models) != 1 || len(a.Models[0].Errors) != 0 {
		t.Fatalf("models %+v; want m/t.scxml loaded with its v.txt", a.Models)
	}
	b, err := Analyze(context.Background(), repo, c1, c2, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Models) != 1 || len(b.Models[0].Errors) == 0 || !strings.Contains(b.Models[0].Errors[0].Message, `<data src> "w.txt": cannot read the file`) {
		t.Fatalf("errors %+v; want the uncommitted w.txt unread", b.Models[0].Errors)
	}
}

// TestRuntimeErrorWarns: code that SCXML makes an error at run time (here
// an assignment to a system variable) loads and raises error.execution;
// the analysis carries the place as a warning and the gate's runtime_error
// rule makes the check neutral.
func TestRuntimeErrorWarns(t *testing.T) {
	doc := `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a">
<state id="a"><transition event="go" target="b"><assign location="_sessionid" expr="'x'"/></transition></state>
<state id="b"><transition event="error.execution" target="c"/></state><state id="c"/></scxml>`
	tri, _ := os.ReadFile("../examples/triangle.scxml")
	dir, commit := newGitRepo(t)
	c0 := commit(map[string]string{"t.scxml": string(tri)})
	c1 := commit(map[string]string{"m.scxml": doc})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(context.Background(), repo, c0, c1, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Models) != 1 || len(a.Models[0].Warnings) != 1 || a.Models[0].Warnings[0].Line != 2 {
		t.Fatalf("models %+v: want one with a warning at line 2", a.Models)
	}
	var rules []string
	for _, f := range a.Gate.Findings {
		rules = append(rules, string(f.Rule)+":"+string(f.Level))
	}
	if a.Gate.Conclusion != report.Neutral || !slices.Contains(rules, "runtime_error:warn") {
		t.Errorf("conclusion %s, findings %v; want neutral with runtime_error:warn", a.Gate.Conclusion, rules)
	}
}

// TestNewFindingsReachThePullRequest: a change that makes two transitions
// compete for one event where both conditions can hold, and that stops
// sending an output, shows both in the pull-request comment and in the
// gate (rules nondeterminism and output_lost, warn by default); a conflict
// the base already had is listed but not gated.
func TestNewFindingsReachThePullRequest(t *testing.T) {
	const base = `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="idle" datamodel="ecmascript">
<datamodel><data id="n" expr="0"/></datamodel>
<state id="idle">
  <transition event="tick" cond="n &lt; 3" target="busy"><assign location="n" expr="n + 1"/></transition>
  <transition event="old" target="busy"/>
  <transition event="old" cond="n &gt; 0" target="idle"/>
</state>
<state id="busy">
  <transition event="done" target="idle"><send event="finished" target="#_parent"/></transition>
</state>
</scxml>`
	head := strings.Replace(base, `<transition event="done" target="idle"><send event="finished" target="#_parent"/></transition>`,
		`<transition event="done" target="idle"/>`, 1)
	head = strings.Replace(head, `<transition event="old" target="busy"/>`,
		`<transition event="old" target="busy"/>
  <transition event="tick" cond="n &gt; 1" target="idle"/>`, 1)
	dir, commit := newGitRepo(t)
	c0 := commit(map[string]string{"m.scxml": base})
	c1 := commit(map[string]string{"m.scxml": head})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Analyze(context.Background(), repo, c0, c1, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Models[0]
	var fresh, old []string
	for _, c := range m.Nondeterminism {
		pair := c.Event + ":" + c.Taken + "/" + c.Shadows
		if c.AtBase {
			old = append(old, pair)
		} else {
			fresh = append(fresh, pair)
		}
	}
	if len(fresh) != 1 || !strings.HasPrefix(fresh[0], "tick:") || len(old) != 1 || !strings.HasPrefix(old[0], "old:") {
		t.Errorf("conflicts: new %v, at base %v; want the new one on tick and the old one on old", fresh, old)
	}
	if len(m.OutputsLost) != 1 || m.OutputsLost[0].Output != "finished to #_parent" || m.OutputsLost[0].BaseWitness == nil {
		t.Errorf("outputs lost %+v; want finished to #_parent with the base's witness", m.OutputsLost)
	}
	var rules []string
	for _, f := range a.Gate.Findings {
		rules = append(rules, string(f.Rule)+":"+string(f.Level))
	}
	slices.Sort(rules)
	if want := []string{"nondeterminism:warn", "output_lost:warn"}; !slices.Equal(rules, want) || a.Gate.Conclusion != report.Neutral {
		t.Errorf("conclusion %s, findings %v; want neutral with %v", a.Gate.Conclusion, rules, want)
	}
	md := report.Markdown(a, report.Options{})
	for _, want := range []string{"**new nondeterministic choice**", "**lost output**", "**Nondeterministic choices**",
		"1 choice of this kind was already in the base version", "**Outputs lost:**"} {
		if !strings.Contains(md, want) {
			t.Errorf("the comment does not show %q:\n%s", want, md)
		}
	}
}

// TestSupersededRunStops: a run whose context ends while the solver is in
// a query that would not end (engine/testdata/fermat.scxml) stops with the
// context's error, and stores nothing. The test asserts that it stops at
// all (within a minute) and logs how long it took.
func TestSupersededRunStops(t *testing.T) {
	hard, err := os.ReadFile("../engine/testdata/fermat.scxml")
	if err != nil {
		t.Fatal(err)
	}
	tri, _ := os.ReadFile("../examples/triangle.scxml")
	dir, commit := newGitRepo(t)
	c0 := commit(map[string]string{"t.scxml": string(tri)})
	c1 := commit(map[string]string{"hard.scxml": string(hard)})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, _, store := openDemo(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Analyze(ctx, repo, c0, c1, Options{Solver: newZ3, Cache: store})
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	canceled := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
		t.Logf("stopped %s after the cancel", time.Since(canceled).Round(time.Millisecond))
	case <-time.After(time.Minute):
		t.Fatal("the run did not stop within a minute of its cancel")
	}
	var n int
	if err := store.QueryRow(context.Background(), "SELECT count(*) FROM blobs").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d entries stored by a run that was stopped", n)
	}
}

// TestVerifyAcceptsDerivedSuites: a suite that kept an earlier version's
// values where they still drive the same paths (as the analysis of a change
// stores it) is not a difference, though its values are not a fresh
// suite's; a test whose values no longer drive its path is one.
func TestVerifyAcceptsDerivedSuites(t *testing.T) {
	load2 := func(path string) *engine.SET {
		m, err := load.File(context.Background(), path, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		set, err := engine.Explore(m, engine.Options{MaxDepth: 8}, newZ3)
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	base, head := load2("../testdata/bench/accs.scxml"), load2("../testdata/versions/accs/k_state_removed.scxml")
	baseTests, err := testgen.Suite(base, vocab.CoveragePath, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	derived, err := testgen.SuiteFrom(head, vocab.CoveragePath, newZ3, baseTests)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := testgen.Suite(head, vocab.CoveragePath, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := testgen.EncodeSuite(context.Background(), derived)
	b, _ := testgen.EncodeSuite(context.Background(), fresh)
	if bytes.Equal(a, b) {
		t.Fatal("the derived suite has a fresh suite's values: the test shows nothing")
	}
	if d := compareTrees(context.Background(), head, head, derived, fresh); d != "" {
		t.Errorf("a valid derived suite is reported: %s", d)
	}
	// Damage the tests: values their paths exclude.
	bad := make([]*testgen.Test, len(derived))
	for i, tc := range derived {
		c := *tc
		c.Steps = slices.Clone(tc.Steps)
		for j := range c.Steps {
			args := maps.Clone(c.Steps[j].Args)
			for k, v := range args {
				if _, ok := v.(int64); ok {
					args[k] = int64(1 << 40)
				}
			}
			c.Steps[j].Args = args
		}
		bad[i] = &c
	}
	if d := compareTrees(context.Background(), head, head, bad, fresh); !strings.Contains(d, "tests differ") {
		t.Errorf("a damaged suite is not reported: %q", d)
	}
}

// TestInvokedChildChange: a pull request that changes only a machine that
// another invokes (through src) re-analyses the invoking model, at the
// same commit, and reports the tests the change affects; the result and
// the trees are keyed by the child's text too.
func TestInvokedChildChange(t *testing.T) {
	const parent = `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="idle" datamodel="ecmascript">
  <state id="idle"><transition event="start" target="busy"/></state>
  <state id="busy">
    <invoke id="worker" src="file:../machines/child.scxml"/>
    <transition event="ok" target="done"/>
    <transition event="failed" target="broken"/>
  </state>
  <state id="done"/>
  <state id="broken"/>
</scxml>`
	child := func(reply string) string {
		return `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="w" datamodel="ecmascript">
  <state id="w"><onentry><send target="#_parent" event="` + reply + `"/></onentry></state>
</scxml>`
	}
	dir, commit := newGitRepo(t)
	c0 := commit(map[string]string{".setbot.yml": "models:\n  - \"models/**\"\n", "models/parent.scxml": parent, "machines/child.scxml": child("ok")})
	c1 := commit(map[string]string{"machines/child.scxml": child("failed")})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	store, err := cache.Open(filepath.Join(t.TempDir(), "c.db"), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	a, err := Analyze(context.Background(), repo, c0, c1, Options{Cache: store, Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Models) != 1 {
		t.Fatalf("models %+v; want models/parent.scxml alone (machines/ holds no model)", a.Models)
	}
	m := a.Models[0]
	if m.Path != "models/parent.scxml" || !slices.Equal(m.Through, []string{"machines/child.scxml"}) || len(m.Errors) > 0 {
		t.Fatalf("model %s through %v errors %v; want models/parent.scxml through machines/child.scxml", m.Path, m.Through, m.Errors)
	}
	if m.ChangeAnalysis == nil || m.TestDelta == nil {
		t.Fatal("no change analysis")
	}
	// The child's change is listed under the invoke id, without a line of
	// the parent's file.
	if !slices.ContainsFunc(m.Changes, func(c report.Change) bool {
		return c.Kind == "entry_changed" && c.Subject == "worker.w" && c.Old == nil && c.New == nil
	}) {
		t.Errorf("changes %+v; want the child's entry action change as worker.w, without a position", m.Changes)
	}
	d := m.TestDelta
	if len(d.Changed)+len(d.Obsolete)+len(d.New) == 0 {
		t.Errorf("test delta %+v: the child now answers failed, so a test of the parent must change", d)
	}
	reached := func(refs []report.StateRef, name string) bool {
		return slices.ContainsFunc(refs, func(r report.StateRef) bool { return r.State == name })
	}
	if !reached(m.NewlyUnreachable, "done") || !reached(m.NewlyReachable, "broken") {
		t.Errorf("newly unreachable %+v, newly reachable %+v; want done lost and broken gained", m.NewlyUnreachable, m.NewlyReachable)
	}
	if md := report.Markdown(a, report.Options{}); !strings.Contains(md, "`machines/child.scxml`") {
		t.Errorf("the comment does not say the change reaches the model through machines/child.scxml:\n%s", md)
	}
	// The same pair again is served whole from the cache; a change of the
	// child alone changes the result.
	again, err := Analyze(context.Background(), repo, c0, c1, Options{Cache: store, Solver: newZ3})
	if err != nil || !again.Models[0].ResultCached {
		t.Errorf("second run: err %v, result cached %v", err, again.Models[0].ResultCached)
	}
	c2 := commit(map[string]string{"machines/child.scxml": child("ok")})
	back, err := Analyze(context.Background(), repo, c1, c2, Options{Cache: store, Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if b := back.Models[0]; b.ResultCached || !reached(b.NewlyReachable, "done") {
		t.Errorf("child changed back: result cached %v, newly reachable %+v; want a new result with done reachable", b.ResultCached, b.NewlyReachable)
	}
	// A src that leaves the repository is an error at its position.
	c3 := commit(map[string]string{"models/parent.scxml": strings.Replace(parent, "../machines/child.scxml", "../../child.scxml", 1)})
	out, err := Analyze(context.Background(), repo, c2, c3, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	want := `<invoke> src "../../child.scxml": cannot read the file: the file is outside the repository`
	if errs := out.Models[0].Errors; len(errs) != 1 || errs[0].Message != want || errs[0].Line != 4 || errs[0].Path != "models/parent.scxml" {
		t.Errorf("errors %+v; want %q at models/parent.scxml line 4", errs, want)
	}
	// An error in the invoked file is reported in that file.
	c4 := commit(map[string]string{"models/parent.scxml": parent, "machines/child.scxml": strings.Replace(child("ok"), `event="ok"`, `event="ok" cond="nope"`, 1)})
	out, err = Analyze(context.Background(), repo, c3, c4, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	if errs := out.Models[0].Errors; len(errs) == 0 || errs[0].Path != "machines/child.scxml" || errs[0].Line != 2 {
		t.Errorf("errors %+v; want one in machines/child.scxml at line 2", errs)
	}
	if f := out.Gate.Findings; len(f) == 0 || f[0].Path != "machines/child.scxml" || f[0].Line != 2 {
		t.Errorf("findings %+v; want the error annotated on machines/child.scxml line 2", f)
	}
}

// TestLoopBoundSetsCallDepth: bounds.loop_bound in .setbot.yml is how deep
// calls of script functions are inlined. Deep needs 13 nested calls: with
// the default it is not reached, and the claim is qualified by the call
// bound; with loop_bound 13 it is reached.
func TestLoopBoundSetsCallDepth(t *testing.T) {
	tri, _ := os.ReadFile("../examples/triangle.scxml")
	deep, _ := os.ReadFile("../engine/testdata/recursion12.scxml")
	dir, commit := newGitRepo(t)
	c0 := commit(map[string]string{"t.scxml": string(tri), ".setbot.yml": "bounds: {depth: 2}\n"})
	c1 := commit(map[string]string{"deep.scxml": string(deep)})
	c2 := commit(map[string]string{".setbot.yml": "bounds: {depth: 2, loop_bound: 13}\n"})
	c3 := commit(map[string]string{"deeper.scxml": string(deep)})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		base, head string
		reached    bool
	}{{c0, c1, false}, {c2, c3, true}} {
		// The configuration is read at the base.
		a, err := Analyze(context.Background(), repo, tt.base, tt.head, Options{Solver: newZ3})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Models) != 1 || a.Models[0].ChangeAnalysis == nil {
			t.Fatalf("models %+v: want the new model analysed", a.Models)
		}
		r := a.Models[0].ChangeAnalysis
		var unreached []string
		for _, s := range r.NewlyUnreachable {
			unreached = append(unreached, fmt.Sprintf("%s cut by %s", s.State, s.CutBy))
		}
		if got := !slices.Contains(unreached, "Deep cut by call"); got != tt.reached {
			t.Errorf("loop bound of %s: newly unreachable %v; Deep reached %v, want %v", tt.base[:7], unreached, got, tt.reached)
		}
	}
}

// TestCeilings: bounds a configuration asks beyond the ceilings, at the
// head and at the base, get the ceilings, and the model's report lists
// them; the tree is cut by the ceiling, and the gate warns of it.
func TestCeilings(t *testing.T) {
	greedy := string(hostile.GreedyConfig())
	counter := string(hostile.Counter())
	dir, commit := newGitRepo(t)
	base := commit(map[string]string{".setbot.yml": greedy, "counter.scxml": counter})
	head := commit(map[string]string{"counter.scxml": strings.Replace(counter, "</scxml>", "<!-- edited -->\n</scxml>", 1)})
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, _, store := openDemo(t)
	ceilings := &config.Ceilings{Bounds: vocab.Limits{vocab.BoundDepth: 40, vocab.BoundStates: 3000, vocab.BoundLoop: 5, vocab.BoundMLMStates: 100}}
	a, err := Analyze(context.Background(), repo, base, head, Options{Solver: newZ3, Cache: store, Ceilings: ceilings, MaxMemory: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Models[0]
	want := []report.Capped{
		{Setting: "bounds.depth", Asked: "1000000000", Ceiling: "40"},
		{Setting: "bounds.max_states", Asked: "1000000000000", Ceiling: "3000"},
		{Setting: "bounds.loop_bound", Asked: "1000000000", Ceiling: "5"},
		{Setting: "bounds.max_mlm_states", Asked: "1000000000000", Ceiling: "100"},
	}
	if !reflect.DeepEqual(m.Capped, want) {
		t.Errorf("capped %+v, want %+v", m.Capped, want)
	}
	if m.ChangeAnalysis == nil || len(m.BoundsHit) == 0 || m.BoundsHit[0].Bound != vocab.BoundStates || m.BoundsHit[0].Limit != 3000 {
		t.Fatalf("model %s %+v: want the head tree cut by the states ceiling", m.Strategy, m.BoundsHit)
	}
	if a.Gate.Conclusion != "neutral" {
		t.Errorf("gate %s, want neutral: the bound_hit warning", a.Gate.Conclusion)
	}
}
