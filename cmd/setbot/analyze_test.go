package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/spf13/cobra"

	"github.com/setbot/setbot/internal/demo"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// analyzeJSON is the part of analyze's JSON the tests read.
type analyzeJSON struct {
	Models []struct {
		Path       string `json:"path"`
		OldPath    string `json:"old_path"`
		Status     string `json:"status"`
		BaseCached bool   `json:"base_cached"`
		HeadCached bool   `json:"head_cached"`
		Result     bool   `json:"result_cached"`
		Strategy   string `json:"strategy"`
		Changes    []struct {
			Kind    string `json:"kind"`
			Subject string `json:"subject"`
		} `json:"changes"`
		Tests struct {
			Retained, Changed, Obsolete, New int
		} `json:"tests"`
		TestDelta struct {
			New []struct {
				ID    string `json:"id"`
				Steps []struct {
					Event string         `json:"event"`
					Args  map[string]any `json:"args"`
				} `json:"steps"`
			} `json:"new"`
		} `json:"test_delta"`
		NewlyUnreachable []struct {
			State string `json:"state"`
			Line  int    `json:"line"`
		} `json:"newly_unreachable"`
		Errors []struct {
			Path    string `json:"path"`
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"errors"`
	} `json:"models"`
	Gate struct {
		Conclusion string `json:"conclusion"`
		Findings   []struct {
			Rule  string `json:"rule"`
			Level string `json:"level"`
			Path  string `json:"path"`
			Line  int    `json:"line"`
		} `json:"findings"`
		NotGated []struct {
			Rule   string `json:"rule"`
			Reason string `json:"reason"`
		} `json:"not_gated"`
	} `json:"gate"`
}

func analyzeRun(t *testing.T, args ...string) (int, analyzeJSON, string) {
	t.Helper()
	code, out, errs := runCLI(t, append([]string{"analyze", "--format", "json"}, args...)...)
	var a analyzeJSON
	if code < 2 {
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatalf("analyze %v: exit %d, output is not JSON: %v\n%s\n%s", args, code, err, out, errs)
		}
	}
	return code, a, errs
}

// countSolvers counts the solvers analyze creates while the test runs.
func countSolvers(t *testing.T) *atomic.Int64 {
	var n atomic.Int64
	old := analysisSolver
	analysisSolver = func(tab *solver.Table) (solver.Solver, error) {
		n.Add(1)
		return newZ3(tab)
	}
	t.Cleanup(func() { analysisSolver = old })
	return &n
}

func TestAnalyzeDemoHistory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	commits, err := demo.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	cacheFile := filepath.Join(t.TempDir(), "cache.db")
	common := []string{"--repo", dir, "--cache", cacheFile}

	// A harmless edit: the same machine, its tree reused, every test kept.
	code, a, errs := analyzeRun(t, append(common, "--base", commits[0].SHA, "--head", commits[1].SHA)...)
	if code != 0 || a.Gate.Conclusion != "success" || len(a.Models) != 1 {
		t.Fatalf("harmless edit: exit %d, gate %q, %d models\n%s", code, a.Gate.Conclusion, len(a.Models), errs)
	}
	m := a.Models[0]
	if m.Path != demo.ModelPath || m.Status != "modified" || m.Strategy != "reuse" || len(m.Changes) != 0 ||
		m.Tests.Retained != 6 || m.Tests.New+m.Tests.Obsolete+m.Tests.Changed != 0 {
		t.Errorf("harmless edit: %+v", m)
	}

	// New behaviour: MSE over the cached base tree, new tests with inputs.
	code, a, errs = analyzeRun(t, append(common, "--base", commits[1].SHA, "--head", commits[2].SHA)...)
	if code != 0 || a.Gate.Conclusion != "success" {
		t.Fatalf("new behaviour: exit %d, gate %q\n%s", code, a.Gate.Conclusion, errs)
	}
	m = a.Models[0]
	if m.Strategy != "mse" || !m.BaseCached || m.HeadCached || m.Tests.New == 0 || m.Tests.Retained != 6 ||
		len(m.Changes) != 1 || m.Changes[0].Kind != "transition_added" {
		t.Errorf("new behaviour: %+v", m)
	}
	if len(m.TestDelta.New) == 0 || len(m.TestDelta.New[0].Steps) == 0 || m.TestDelta.New[0].Steps[0].Args["x"] == nil {
		t.Errorf("new tests carry no concrete inputs: %+v", m.TestDelta.New)
	}

	// A state made unreachable: the gate blocks, exit 1, the state's line.
	pair := append(common, "--base", commits[2].SHA, "--head", commits[3].SHA)
	code, a, errs = analyzeRun(t, pair...)
	if code != 1 || a.Gate.Conclusion != "failure" {
		t.Fatalf("unreachable state: exit %d, gate %q\n%s", code, a.Gate.Conclusion, errs)
	}
	m = a.Models[0]
	if len(m.NewlyUnreachable) != 1 || m.NewlyUnreachable[0].State != "S1_S2" || m.NewlyUnreachable[0].Line == 0 {
		t.Fatalf("newly unreachable %+v, want S1_S2 with its line", m.NewlyUnreachable)
	}
	var found bool
	for _, f := range a.Gate.Findings {
		if f.Rule == "unreachable_state" && f.Level == "block" && f.Path == demo.ModelPath && f.Line == m.NewlyUnreachable[0].Line {
			found = true
		}
	}
	if !found {
		t.Errorf("no blocking finding on the state's line: %+v", a.Gate.Findings)
	}
	first := m

	// The same pair again: served from the cache, no symbolic execution.
	solvers := countSolvers(t)
	code, a, errs = analyzeRun(t, pair...)
	if code != 1 || len(a.Models) != 1 {
		t.Fatalf("second run: exit %d\n%s", code, errs)
	}
	m = a.Models[0]
	if !m.BaseCached || !m.HeadCached || !m.Result || solvers.Load() != 0 {
		t.Errorf("second run: base_cached %v head_cached %v, %d solvers created; want true, true, 0\n%s", m.BaseCached, m.HeadCached, solvers.Load(), errs)
	}
	if m.Strategy != first.Strategy || len(m.NewlyUnreachable) != 1 || m.Tests != first.Tests {
		t.Errorf("second run differs: %+v\nfirst: %+v", m, first)
	}

	// A file that is no setbot cache (the model, mistyped for the cache
	// path) is refused before any work, and left as it was.
	model := filepath.Join(dir, demo.ModelPath)
	orig, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	solvers.Store(0)
	code, _, errs = analyzeRun(t, "--repo", dir, "--cache", model, "--base", commits[2].SHA, "--head", commits[3].SHA)
	if code != 2 || !strings.Contains(errs, "not a setbot cache") || solvers.Load() != 0 {
		t.Errorf("--cache on a model: exit %d, %d solvers\n%s", code, solvers.Load(), errs)
	}
	if now, _ := os.ReadFile(model); string(now) != string(orig) {
		t.Error("--cache changed the model file")
	}
	if aside, _ := filepath.Glob(model + "*"); len(aside) != 1 {
		t.Errorf("files beside the model: %v", aside)
	}

	// A damaged cache is moved aside and rebuilt, and the answer is the same.
	db, err := os.ReadFile(cacheFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cacheFile, db[:len(db)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(cacheFile + "-wal")
	os.Remove(cacheFile + "-shm")
	code, a, errs = analyzeRun(t, pair...)
	if code != 1 || len(a.Models) != 1 || a.Models[0].BaseCached || len(a.Models[0].NewlyUnreachable) != 1 {
		t.Fatalf("damaged cache: exit %d, %+v\n%s", code, a.Models, errs)
	}
	if !strings.Contains(errs, "damaged") && !strings.Contains(errs, "rebuilt") {
		t.Errorf("the rebuild is not reported on stderr:\n%s", errs)
	}
	aside, _ := filepath.Glob(cacheFile + ".damaged-*")
	if len(aside) == 0 {
		t.Error("the damaged file was not kept aside")
	}
	solvers.Store(0)
	if _, a, _ = analyzeRun(t, pair...); !a.Models[0].HeadCached || solvers.Load() != 0 {
		t.Errorf("the rebuilt cache does not serve the pair: head_cached %v, %d solvers", a.Models[0].HeadCached, solvers.Load())
	}
}

func TestAnalyzeMarkdownAndJUnit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "repo")
	if _, err := demo.Build(dir); err != nil {
		t.Fatal(err)
	}
	junit := filepath.Join(t.TempDir(), "tests.xml")
	sarif := filepath.Join(t.TempDir(), "setbot.sarif")
	code, out, errs := runCLI(t, "analyze", "--repo", dir, "--base", "HEAD~1", "--no-cache", "--junit", junit, "--sarif", sarif, "-q")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if errs != "" {
		t.Errorf("--quiet still printed progress:\n%s", errs)
	}
	if !strings.HasPrefix(out, "<!-- setbot:report -->") || !strings.Contains(out, "S1_S2") || !strings.Contains(out, "```mermaid") {
		t.Errorf("markdown report:\n%s", out)
	}
	x, err := os.ReadFile(junit)
	if err != nil || !strings.Contains(string(x), "<failure") {
		t.Errorf("JUnit file (err %v) has no failing gate test case:\n%s", err, x)
	}

	// The SARIF file and --format sarif: the same log, a result at the line
	// of the state the change made unreachable.
	file, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "analyze", "--repo", dir, "--base", "HEAD~1", "--no-cache", "--format", "sarif", "-q")
	if code != 1 || out != string(file) {
		t.Errorf("--format sarif: exit %d, differs from --sarif's file\n%s", code, errs)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
						Region           struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(file, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF (err %v):\n%s", err, file)
	}
	found := false
	for _, r := range log.Runs[0].Results {
		loc := r.Locations[0].PhysicalLocation
		if r.RuleID == "unreachable_state" && r.Level == "error" && loc.ArtifactLocation.URI == demo.ModelPath && loc.Region.StartLine > 0 {
			found = true
		}
	}
	if !found {
		t.Errorf("no error result for the unreachable state at its line:\n%s", file)
	}
}

// testRepo is a git repository built commit by commit in a test.
type testRepo struct {
	t    *testing.T
	dir  string
	repo *git.Repository
	n    int
}

func newTestRepo(t *testing.T) *testRepo {
	dir := filepath.Join(t.TempDir(), "repo")
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	return &testRepo{t: t, dir: dir, repo: r}
}

// commit writes files (a nil content removes the file) and commits them.
func (r *testRepo) commit(msg string, files map[string][]byte) string {
	r.t.Helper()
	wt, err := r.repo.Worktree()
	if err != nil {
		r.t.Fatal(err)
	}
	for name, data := range files {
		p := filepath.Join(r.dir, filepath.FromSlash(name))
		if data == nil {
			if _, err := wt.Remove(name); err != nil {
				r.t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			r.t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			r.t.Fatal(err)
		}
	}
	r.n++
	sig := &object.Signature{Name: "t", Email: "t@example.com", When: time.Date(2026, 1, 1, r.n, 0, 0, 0, time.UTC)}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		r.t.Fatal(err)
	}
	return h.String()
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAnalyzeFileLifecycle(t *testing.T) {
	tri := readFile(t, "../../examples/triangle.scxml")
	radio := readFile(t, "../../examples/radio.scxml")
	broken := []byte(strings.Replace(string(tri), `target="S1_S2"`, `target="S9"`, 1))
	r := newTestRepo(t)
	c0 := r.commit("models", map[string][]byte{"a/triangle.scxml": tri, "docs/readme.txt": []byte("x")})
	c1 := r.commit("rename, add, unrelated", map[string][]byte{
		"a/triangle.scxml": nil, "b/triangle.scxml": tri, "radio.scxml": radio, "docs/readme.txt": []byte("y"),
	})
	c2 := r.commit("break and delete", map[string][]byte{"b/triangle.scxml": broken, "radio.scxml": nil})
	common := []string{"--repo", r.dir, "--no-cache", "-q"}

	code, a, errs := analyzeRun(t, append(common, "--base", c0, "--head", c1)...)
	if code != 0 || len(a.Models) != 2 {
		t.Fatalf("rename and add: exit %d, %d models\n%s", code, len(a.Models), errs)
	}
	if m := a.Models[0]; m.Path != "b/triangle.scxml" || m.Status != "renamed" || m.OldPath != "a/triangle.scxml" || m.Strategy != "reuse" {
		t.Errorf("renamed model: %+v", m)
	}
	if m := a.Models[1]; m.Path != "radio.scxml" || m.Status != "added" || m.Tests.New == 0 {
		t.Errorf("added model: %+v", m)
	}

	code, a, errs = analyzeRun(t, append(common, "--base", c1, "--head", c2)...)
	if code != 1 || len(a.Models) != 2 {
		t.Fatalf("broken and deleted: exit %d, %d models\n%s", code, len(a.Models), errs)
	}
	if m := a.Models[0]; m.Status != "modified" || len(m.Errors) == 0 || m.Errors[0].Line == 0 || !strings.Contains(m.Errors[0].Message, "S9") {
		t.Errorf("broken model: %+v", m)
	}
	if m := a.Models[1]; m.Path != "radio.scxml" || m.Status != "deleted" {
		t.Errorf("deleted model: %+v", m)
	}
	if len(a.Gate.Findings) == 0 || a.Gate.Findings[0].Rule != "model_error" || a.Gate.Findings[0].Line == 0 {
		t.Errorf("findings %+v, want a model_error with its line", a.Gate.Findings)
	}
}

func TestAnalyzeGateFromBase(t *testing.T) {
	tri := readFile(t, "../../examples/triangle.scxml")
	off := readFile(t, "../../engine/incremental/testdata/triangle_s2_off.scxml")
	r := newTestRepo(t)
	c0 := r.commit("model", map[string][]byte{"m.scxml": tri, ".setbot.yml": []byte("gate:\n  unreachable_state: block\n")})
	c1 := r.commit("loosen the gate and cut a state off", map[string][]byte{"m.scxml": off, ".setbot.yml": []byte("gate:\n  unreachable_state: off\n")})
	code, a, errs := analyzeRun(t, "--repo", r.dir, "--no-cache", "-q", "--base", c0, "--head", c1)
	if code != 1 || a.Gate.Conclusion != "failure" {
		t.Errorf("a change loosened its own gate: exit %d, gate %q\n%s", code, a.Gate.Conclusion, errs)
	}
	// Once the loosened gate is on the base, it applies.
	c2 := r.commit("touch", map[string][]byte{"m.scxml": append(off, "\n<!-- x -->\n"...)})
	code, a, _ = analyzeRun(t, "--repo", r.dir, "--no-cache", "-q", "--base", c0, "--head", c2)
	if code != 1 {
		t.Errorf("base gate blocks: exit %d", code)
	}
	code, _, _ = analyzeRun(t, "--repo", r.dir, "--no-cache", "-q", "--base", c1, "--head", c2)
	if code != 0 {
		t.Errorf("the base's gate is off; exit %d", code)
	}
}

func TestAnalyzeErrors(t *testing.T) {
	tri := readFile(t, "../../examples/triangle.scxml")
	r := newTestRepo(t)
	c0 := r.commit("model", map[string][]byte{"m.scxml": tri})
	c1 := r.commit("bad config", map[string][]byte{".setbot.yml": []byte("models: [\"*.scxml\"]\ngate:\n  unreachable_state: maybe\n")})
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing revision", []string{"--base", "no-such-branch"}, "no-such-branch"},
		{"missing repository", []string{"--repo", filepath.Join(t.TempDir(), "nothing"), "--base", "HEAD"}, "nothing"},
		{"bad config", []string{"--base", c0, "--head", c1}, ".setbot.yml:3:"},
		{"bad format", []string{"--base", c0, "--format", "xml"}, "--format"},
		{"bad strategy", []string{"--base", c0, "--strategy", "fast"}, "--strategy"},
	} {
		args := append([]string{"analyze", "--repo", r.dir, "--no-cache", "-q"}, tc.args...)
		code, _, errs := runCLI(t, args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and a message naming %q", tc.name, code, errs, tc.want)
		}
	}
}

func TestAnalyzeClonesURL(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "origin")
	if _, err := demo.Build(dir); err != nil {
		t.Fatal(err)
	}
	clones := t.TempDir()
	code, a, errs := analyzeRun(t, "--repo", "file://"+dir, "--clone-dir", clones, "--no-cache", "-q", "--base", "HEAD~2", "--head", "HEAD~1")
	if code != 0 || len(a.Models) != 1 || a.Models[0].Strategy != "mse" {
		t.Errorf("analyze of a URL: exit %d, %+v\n%s", code, a.Models, errs)
	}
}

func TestDemo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	code, out, errs := runCLI(t, "demo", "--dir", dir, "-q")
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s", code, errs)
	}
	for _, want := range []string{"1/3", "2/3", "3/3", "reuse", "`mse`", "S1_S2", "would exit with status 1", "The demo repository is " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "setbot-cache.db")); err != nil {
		t.Errorf("the demo's cache: %v", err)
	}
	pages, _ := filepath.Glob(filepath.Join(dir, ".git", "setbot-pages", "setbot-*.html"))
	if len(pages) != 3 {
		t.Fatalf("the demo wrote the pages %v, want 3", pages)
	}
	for _, p := range pages {
		if !strings.Contains(out, p) {
			t.Errorf("the demo does not say where %s is", p)
		}
	}
	unreachable := 0
	for _, p := range pages {
		unreachable += strings.Count(string(readFile(t, p)), `class="finding f-unreachable"`)
	}
	if unreachable != 1 {
		t.Errorf("the pages show %d unreachable states, want 1 (S1_S2, in the last change)", unreachable)
	}
}

// TestREADMEShowsDemo checks that the demo output in the README is what
// the demo prints, up to the temporary directory and measured times.
func TestREADMEShowsDemo(t *testing.T) {
	readme := string(readFile(t, "../../README.md"))
	start := strings.Index(readme, "````text\n")
	end := strings.Index(readme, "\n````\n")
	if start < 0 || end < start {
		t.Fatal("README has no demo output block")
	}
	shown := readme[start+len("````text\n") : end+1]
	dir := filepath.Join(t.TempDir(), "demo")
	code, out, errs := runCLI(t, "demo", "--dir", dir, "-q")
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s", code, errs)
	}
	normalize := func(s, dir string) string {
		s = strings.ReplaceAll(s, dir, "DIR")
		var keep []string
		for _, line := range strings.Split(s, "\n") {
			if strings.HasPrefix(line, "| base |") || strings.HasPrefix(line, "| head |") {
				continue // measured times
			}
			keep = append(keep, line)
		}
		return strings.Join(keep, "\n")
	}
	i := strings.Index(shown, "--repo ")
	if i < 0 {
		t.Fatal("README demo output names no repository")
	}
	shownDir := strings.Fields(shown[i+len("--repo "):])[0]
	if got, want := normalize(out, dir), normalize(shown, shownDir); got != want {
		t.Errorf("the README's demo output is stale; regenerate it with go run ./cmd/setbot demo\n%s", firstDifference(want, got))
	}
}

func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) && i < len(g); i++ {
		if w[i] != g[i] {
			return "line " + strconv.Itoa(i+1) + ":\nREADME: " + w[i] + "\ndemo:   " + g[i]
		}
	}
	return "lengths differ: README " + strconv.Itoa(len(w)) + " lines, demo " + strconv.Itoa(len(g))
}

// TestAnalyzeDegradesGracefully: a cache that cannot be opened is done
// without, and a base configuration that does not parse gives the default
// gate with a warning; neither stops the analysis.
func TestAnalyzeDegradesGracefully(t *testing.T) {
	tri := readFile(t, "../../examples/triangle.scxml")
	off := readFile(t, "../../engine/incremental/testdata/triangle_s2_off.scxml")
	r := newTestRepo(t)
	c0 := r.commit("model and a broken gate", map[string][]byte{"m.scxml": tri, ".setbot.yml": []byte("gate:\n  unreachable_state: warn\nbounds: {dpth: 3}\n")})
	c1 := r.commit("cut a state off, fix the config", map[string][]byte{"m.scxml": off, ".setbot.yml": []byte("gate:\n  unreachable_state: warn\n")})
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	code, a, errs := analyzeRun(t, "--repo", r.dir, "--cache", filepath.Join(blocker, "cache.db"), "--base", c0, "--head", c1)
	if !strings.Contains(errs, "analysing without a cache") {
		t.Errorf("no warning about the cache:\n%s", errs)
	}
	if !strings.Contains(errs, "does not parse; the default gate rules apply") || !strings.Contains(errs, ".setbot.yml:3:") {
		t.Errorf("no warning naming the broken base configuration:\n%s", errs)
	}
	if code != 1 || a.Gate.Conclusion != "failure" {
		t.Errorf("exit %d, gate %q; want the default rules (unreachable_state: block)", code, a.Gate.Conclusion)
	}
}

// TestRunsListsTheDemo: the runs the demo's analyses recorded are listed,
// newest first, in both formats; a missing cache is an error, not a new
// empty file.
func TestRunsListsTheDemo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	code, demoOut, errs := runCLI(t, "demo", "--dir", dir, "-q")
	if code != 0 {
		t.Fatalf("demo: exit %d\n%s", code, errs)
	}
	db := filepath.Join(dir, ".git", "setbot-cache.db")
	code, out, errs := runCLI(t, "runs", "--cache", db, "--format", "json")
	if code != 0 {
		t.Fatalf("runs: exit %d\n%s", code, errs)
	}
	var got struct {
		Runs []struct {
			Path, Strategy, Created string
			HeadStates              int `json:"head_states"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Runs) != 3 || got.Runs[0].Path != "models/triangle.scxml" || got.Runs[2].Strategy != "reuse" || got.Runs[0].HeadStates == 0 {
		t.Errorf("runs %+v; want the demo's three analyses, newest first", got.Runs)
	}
	if code, out, _ := runCLI(t, "runs", "--cache", db, "--limit", "1"); code != 0 || strings.Count(out, "models/triangle.scxml") != 1 {
		t.Errorf("text, limit 1: exit %d\n%s", code, out)
	}
	// A local repository's runs are its directory's: --repo finds them by
	// the directory, or one inside it, and not by another name.
	for _, repo := range []string{dir, filepath.Join(dir, "models"), dir + string(filepath.Separator)} {
		if code, out, errs := runCLI(t, "runs", "--cache", db, "--repo", repo, "--format", "json"); code != 0 || strings.Count(out, `"path": "models/triangle.scxml"`) != 3 {
			t.Errorf("runs --repo %s: exit %d, want the three runs\n%s%s", repo, code, out, errs)
		}
	}
	if code, out, _ := runCLI(t, "runs", "--cache", db, "--repo", "acme/controllers"); code != 0 || !strings.Contains(out, "no runs recorded") {
		t.Errorf("runs --repo acme/controllers: exit %d\n%s", code, out)
	}
	// The command the demo suggests is served from the demo's cache: both
	// trees come from it.
	var suggested []string
	for _, line := range strings.Split(demoOut, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "setbot" && f[1] == "analyze" && slices.Contains(f, "json") {
			suggested = f[1:]
		}
	}
	if !slices.Contains(suggested, db) {
		t.Fatalf("the demo suggests %q, which does not name its cache %s", suggested, db)
	}
	code, out, errs = runCLI(t, append(suggested, "-q")...)
	var a struct {
		Models []struct {
			BaseCached bool `json:"base_cached"`
			HeadCached bool `json:"head_cached"`
		} `json:"models"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil || code == 2 || len(a.Models) != 1 || !a.Models[0].BaseCached || !a.Models[0].HeadCached {
		t.Errorf("setbot %s: exit %d (%v), want both trees from the demo's cache\n%s%s", strings.Join(suggested, " "), code, err, out, errs)
	}
	missing := filepath.Join(t.TempDir(), "none.db")
	if code, _, errs := runCLI(t, "runs", "--cache", missing); code == 0 || !strings.Contains(errs, "no cache at") {
		t.Errorf("missing cache: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("runs created a cache file")
	}
}

// TestBenchCurve runs the curve on the triangle and a change of it at small
// depths: a row per depth, the first rate's share 1, and the analysis line
// with its ratios, setbot analyze's as a command among them (which fails
// unless the child took the base tree from its cache).
func TestBenchCurve(t *testing.T) {
	t.Setenv("SETBOT_TEST_MAIN", "1") // setbot analyze as a command is this binary (TestMain)
	code, out, errs := runCLI(t, "bench", "curve", "--depths", "3-4", "--analyze-depth", "4",
		"../../examples/triangle.scxml:../../engine/incremental/testdata/triangle_s2_off.scxml")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^\s+3\s+\d+\s+\d+\s+\d+\s+1\.00$`),
		regexp.MustCompile(`(?m)^\s+4\s+\d+\s+\d+\s+\d+\s+\d+\.\d\d$`),
		regexp.MustCompile(`analysis at depth 4 \(medians of 3 runs\): MSE \d+ CPU ms, full \d+ CPU ms, MSE/full \d+\.\d\d; with the base cached \(medians of \d+ runs\): MSE \d+, full \d+, MSE/full \d+\.\d\d; ` +
			`as a command \(setbot analyze --jobs 1, base tree cached, the child's CPU\): MSE \d+, full \d+, MSE/full \d+\.\d\d; peak memory [\d.]+ KB per head state \(\d+ states\); setbot analyze cold \d+ CPU ms, fully cached \d+ CPU ms, cached/cold \d+\.\d\d`),
	} {
		if !want.MatchString(out) {
			t.Errorf("the curve does not match %s:\n%s", want, out)
		}
	}
	if strings.TrimSpace(errs) != "" {
		t.Errorf("stderr: %s", errs)
	}
	if code, _, errs := runCLI(t, "bench", "curve", "--depths", "5-3"); code == 0 || !strings.Contains(errs, "--depths") {
		t.Errorf("bad depths: exit %d, %q", code, errs)
	}
}

// TestBoundSettingsNameTheFlags: where a finding tells the user to raise a
// bound, the flag it names exists.
func TestBoundSettingsNameTheFlags(t *testing.T) {
	// The reports of analyze and diff advise raising a bound by its flag:
	// each command that prints that advice has it.
	for _, cmd := range []*cobra.Command{newExploreCmd(), newAnalyzeCmd(), newDiffCmd()} {
		for _, b := range vocab.Bounds {
			if b == vocab.BoundArray || b == vocab.BoundKeys || b == vocab.BoundInterrupt || b == vocab.BoundTable || b == vocab.BoundConcretised || b == vocab.BoundNumber || b == vocab.BoundTerm || b == vocab.BoundSessions || b == vocab.BoundIndex {
				continue // declared on the array itself, or fixed; no setting
			}
			if b == vocab.BoundMemory && cmd.Name() != "analyze" {
				continue // only analyze has a memory budget
			}
			_, after, ok := strings.Cut(b.Setting(), "--")
			name, _, _ := strings.Cut(after, " ")
			if !ok || cmd.Flags().Lookup(name) == nil {
				t.Errorf("bound %s: setting %q names no flag of %s", b, b.Setting(), cmd.Name())
			}
		}
	}
}

// TestAnalyzeBoundFlags: analyze's bound flags replace the configuration's
// bounds, and never go below the base's. The head removes a shortcut to
// s11, whose chain is 11 events long: beyond the default depth (newly
// unreachable), within --depth 11; and --depth 3 under a base whose
// .setbot.yml sets depth 11 explores 11 deep all the same.
func TestAnalyzeBoundFlags(t *testing.T) {
	chain := func(shortcut bool) []byte {
		var b strings.Builder
		b.WriteString(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="s0">` + "\n")
		for i := 0; i < 11; i++ {
			jump := ""
			if i == 0 && shortcut {
				jump = `<transition event="jump" target="s11"/>`
			}
			fmt.Fprintf(&b, "  <state id=\"s%d\"><transition event=\"e\" target=\"s%d\"/>%s</state>\n", i, i+1, jump)
		}
		b.WriteString("  <state id=\"s11\"/>\n</scxml>\n")
		return []byte(b.String())
	}
	r := newTestRepo(t)
	r.commit("base", map[string][]byte{"m.scxml": chain(true)})
	r.commit("head", map[string][]byte{"m.scxml": chain(false)})
	unreachable := func(args ...string) []string {
		t.Helper()
		code, a, errs := analyzeRun(t, append([]string{"--repo", r.dir, "--base", "HEAD^", "--no-cache"}, args...)...)
		if code > 1 || len(a.Models) != 1 {
			t.Fatalf("analyze %v: exit %d: %s", args, code, errs)
		}
		var out []string
		for _, s := range a.Models[0].NewlyUnreachable {
			out = append(out, s.State)
		}
		return out
	}
	if got := unreachable(); !slices.Equal(got, []string{"s11"}) {
		t.Errorf("default depth: newly unreachable %v, want [s11]", got)
	}
	if got := unreachable("--depth", "11"); len(got) != 0 {
		t.Errorf("--depth 11: newly unreachable %v, want none", got)
	}
	r.commit("a deep gate, and the shortcut back", map[string][]byte{".setbot.yml": []byte("bounds:\n  depth: 11\n"), "m.scxml": chain(true)})
	r.commit("head again", map[string][]byte{"m.scxml": chain(false)})
	if got := unreachable("--depth", "3"); len(got) != 0 {
		t.Errorf("--depth 3 under a base that sets depth 11: newly unreachable %v, want none", got)
	}
}

// TestAnalyzeCoverage: a pull request's tests default to transition
// coverage; --coverage path asks for every path, and a criterion that does
// not exist is refused before any work.
func TestAnalyzeCoverage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	commits, err := demo.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	common := []string{"--repo", dir, "--no-cache", "--base", commits[0].SHA, "--head", commits[1].SHA}
	_, byDefault, _ := analyzeRun(t, common...)
	_, path, _ := analyzeRun(t, append(common, "--coverage", "path")...)
	if n, p := byDefault.Models[0].Tests.Retained, path.Models[0].Tests.Retained; n == 0 || p <= n {
		t.Errorf("retained tests: %d by default (transition coverage), %d with path coverage; want fewer by default", n, p)
	}
	if code, _, errs := runCLI(t, append([]string{"analyze", "--coverage", "paths"}, common...)...); code != exitUsage || !strings.Contains(errs, "--coverage") {
		t.Errorf("--coverage paths: exit %d, %q", code, errs)
	}
}

// TestAnalyzeRunCommands: --run-commands lets a black-box function's
// command grow its table where .setbot.yml does not; without it, and
// without the configuration, the command does not run.
func TestAnalyzeRunCommands(t *testing.T) {
	const model = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="Idle" name="gauge">
  <setbot:event name="read"><setbot:param name="v" type="int[0..3]"/></setbot:event>
  <setbot:function name="SCALE" params="int" returns="int" table="scale.csv" command="bin/scale"/>
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="Idle">
    <transition event="read" cond="SCALE(_event.data.v) &gt; 10" target="High"/>
  </state>
  <state id="High"/>
</scxml>
`
	r := newTestRepo(t)
	base := r.commit("readme", map[string][]byte{"README": []byte("gauge\n")})
	script := []byte("#!/bin/sh\necho $(($1 * 10))\n") // its rows show that it ran
	// The commit keeps the mode of a file that exists: executable.
	if err := os.MkdirAll(filepath.Join(r.dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, "bin", "scale"), script, 0o755); err != nil {
		t.Fatal(err)
	}
	head := r.commit("gauge", map[string][]byte{"m/gauge.scxml": []byte(model), "m/scale.csv": []byte("0,0\n1,5\n"), "bin/scale": script})
	for _, tt := range []struct {
		flags []string
		rows  bool
	}{{nil, false}, {[]string{"--run-commands"}, true}} {
		args := append([]string{"analyze", "--repo", r.dir, "--base", base, "--head", head, "--format", "json", "--no-cache", "--quiet"}, tt.flags...)
		_, out, errs := runCLI(t, args...)
		var doc struct {
			Models []struct {
				Unreachable []struct{ State string } `json:"newly_unreachable"`
				Growth      *struct {
					Rows []struct{ CSV string } `json:"rows"`
				} `json:"table_growth"`
			} `json:"models"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Models) != 1 {
			t.Fatalf("%v: %v\n%s%s", tt.flags, err, out, errs)
		}
		m := doc.Models[0]
		if (m.Growth != nil) != tt.rows || (len(m.Unreachable) == 0) != tt.rows {
			t.Errorf("%v: growth %+v, newly unreachable %+v", tt.flags, m.Growth, m.Unreachable)
		}
		if tt.rows && (len(m.Growth.Rows) != 1 || m.Growth.Rows[0].CSV != "2,20" && m.Growth.Rows[0].CSV != "3,30") {
			t.Errorf("%v: rows %+v, want SCALE(2) or SCALE(3)", tt.flags, m.Growth.Rows)
		}
	}
}

// TestAnalyzeSARIFAtEndOfFile checks that a model broken at its very end
// (the XML parser's position is past the final newline, one line after
// the last) gives a SARIF result on the file's last line, which code
// scanning accepts, and that every result has a region.
func TestAnalyzeSARIFAtEndOfFile(t *testing.T) {
	tri := readFile(t, "../../examples/triangle.scxml")
	cut := []byte(string(tri[:strings.LastIndex(string(tri), "</scxml>")]))
	if cut[len(cut)-1] != '\n' {
		t.Fatal("the cut file does not end with a newline")
	}
	lines := strings.Count(string(cut), "\n")
	r := newTestRepo(t)
	r.commit("model", map[string][]byte{"m.scxml": tri})
	r.commit("cut its end", map[string][]byte{"m.scxml": cut})
	sarif := filepath.Join(t.TempDir(), "setbot.sarif")
	code, out, errs := runCLI(t, "analyze", "--repo", r.dir, "--base", "HEAD~1", "--no-cache", "-q", "--sarif", sarif)
	if code != 1 || !strings.Contains(out, fmt.Sprintf("line %d", lines+1)) {
		t.Fatalf("exit %d, want 1 with the parser's error at line %d\n%s%s", code, lines+1, out, errs)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						Region *struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	data := readFile(t, sarif)
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("SARIF (err %v):\n%s", err, data)
	}
	for _, res := range log.Runs[0].Results {
		region := res.Locations[0].PhysicalLocation.Region
		if region == nil || region.StartLine < 1 || region.StartLine > lines {
			t.Errorf("%s result at %+v, want a line of the %d-line file", res.RuleID, region, lines)
		}
	}
}
