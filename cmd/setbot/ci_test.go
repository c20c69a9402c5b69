package main

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/setbot/setbot/internal/demo"
)

// ciEnv builds the demo repository and a directory holding a setbot
// command (this test binary, run as setbot), for the CI recipes to run in.
func ciEnv(t *testing.T) (repo string, commits []demo.Commit, env []string) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	wrapper := "#!/bin/sh\nSETBOT_TEST_MAIN=1 exec '" + exe + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "setbot"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	repo = filepath.Join(t.TempDir(), "repo")
	if commits, err = demo.Build(repo); err != nil {
		t.Fatal(err)
	}
	env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "XDG_CACHE_HOME="+t.TempDir())
	return repo, commits, env
}

// runShell runs script with sh in dir and returns its exit status and output.
func runShell(t *testing.T, dir string, env []string, script string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command("sh", append([]string{"-c", script, "sh"}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), string(out)
	case err != nil:
		t.Fatal(err)
	}
	return 0, string(out)
}

// checkReports checks the three reports of a blocking change in dir.
func checkReports(t *testing.T, dir string) {
	t.Helper()
	report, err := os.ReadFile(filepath.Join(dir, "setbot-report.md"))
	if err != nil || !strings.Contains(string(report), "setbot: blocked") {
		t.Errorf("report: %v\n%s", err, report)
	}
	var sarif struct {
		Runs []struct{ Results []json.RawMessage } `json:"runs"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "setbot.sarif"))
	if err == nil {
		err = json.Unmarshal(data, &sarif)
	}
	if err != nil || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) == 0 {
		t.Errorf("SARIF: %v, %d runs", err, len(sarif.Runs))
	}
	data, err = os.ReadFile(filepath.Join(dir, "setbot-junit.xml"))
	if err == nil {
		err = xml.Unmarshal(data, new(struct{}))
	}
	if err != nil {
		t.Errorf("JUnit: %v", err)
	}
	if pages, _ := filepath.Glob(filepath.Join(dir, "pages", "setbot-*.html")); len(pages) != 1 {
		t.Errorf("report pages %v, want one", pages)
	}
}

// TestCIScript runs ci/setbot-ci.sh, which the GitHub Action runs and the
// docs give for any CI, as written, on the demo's blocking change: the
// gate's status, the report printed and the three reports left.
func TestCIScript(t *testing.T) {
	repo, commits, env := ciEnv(t)
	script, err := filepath.Abs("../../ci/setbot-ci.sh")
	if err != nil {
		t.Fatal(err)
	}
	env = append(env, "SETBOT_BASE="+commits[2].SHA, "SETBOT_HEAD="+commits[3].SHA, "SETBOT_OUT=reports")
	code, out := runShell(t, repo, env, `sh "$1"`, script)
	if code != 1 || !strings.Contains(out, "setbot: blocked") {
		t.Fatalf("exit %d, want 1 (the gate blocks), and the report printed:\n%s", code, out)
	}
	checkReports(t, filepath.Join(repo, "reports"))
	code, out = runShell(t, repo, append(env[:len(env)-3], "SETBOT_BASE="+commits[0].SHA, "SETBOT_HEAD="+commits[1].SHA), `sh "$1"`, script)
	if code != 0 {
		t.Errorf("a harmless change: exit %d, want 0\n%s", code, out)
	}
	if code, out := runShell(t, repo, env[:len(env)-3], `sh "$1"`, script); code == 0 || !strings.Contains(out, "SETBOT_BASE") {
		t.Errorf("without SETBOT_BASE: exit %d, %s", code, out)
	}
}

// TestCIScriptCeilings: the script caps the bounds a change's .setbot.yml
// asks at the server's default ceilings, as the bot does (a pull request,
// a fork's too, writes the .setbot.yml it is analysed with), unless
// SETBOT_CEILINGS is false; the JSON report lists what was capped.
func TestCIScriptCeilings(t *testing.T) {
	repo, commits, env := ciEnv(t)
	script, err := filepath.Abs("../../ci/setbot-ci.sh")
	if err != nil {
		t.Fatal(err)
	}
	greedy := "models: [\"models/**/*.scxml\"]\nbounds:\n  depth: 8\n  max_states: 1000000000000\n"
	if err := os.WriteFile(filepath.Join(repo, ".setbot.yml"), []byte(greedy), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun(t, repo, "add", ".setbot.yml")
	gitRun(t, repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "greedy bounds")
	head := gitRun(t, repo, "rev-parse", "HEAD")
	// The demo's blocking change (its last commit) with the greedy bounds.
	env = append(env, "SETBOT_BASE="+commits[len(commits)-2].SHA, "SETBOT_HEAD="+head, "SETBOT_OUT=reports")
	capped := func(extra ...string) []string {
		t.Helper()
		if code, out := runShell(t, repo, append(env, extra...), `sh "$1"`, script); code == 2 {
			t.Fatalf("exit %d:\n%s", code, out)
		}
		var doc struct {
			Models []struct {
				Capped []struct{ Setting, Asked, Ceiling string } `json:"capped"`
			} `json:"models"`
		}
		data, err := os.ReadFile(filepath.Join(repo, "reports", "setbot.json"))
		if err == nil {
			err = json.Unmarshal(data, &doc)
		}
		if err != nil || len(doc.Models) == 0 {
			t.Fatalf("the JSON report (%v):\n%s", err, data)
		}
		var settings []string
		for _, m := range doc.Models {
			for _, c := range m.Capped {
				settings = append(settings, c.Setting+"="+c.Asked+">"+c.Ceiling)
			}
		}
		return settings
	}
	if got := capped(); len(got) != 1 || !strings.HasPrefix(got[0], "bounds.max_states=1000000000000>") {
		t.Errorf("by default, capped %v, want bounds.max_states at its ceiling", got)
	}
	if got := capped("SETBOT_CEILINGS=false"); len(got) != 0 {
		t.Errorf("with SETBOT_CEILINGS=false, capped %v, want none", got)
	}
}

// TestGitLabTemplate runs the script of ci/setbot.gitlab-ci.yml as GitLab
// would (its lines in one shell, with the merge request's variables) on the
// demo's blocking change.
func TestGitLabTemplate(t *testing.T) {
	data, err := os.ReadFile("../../ci/setbot.gitlab-ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	var tmpl map[string]struct {
		Script    []string `yaml:"script"`
		Artifacts struct {
			Reports struct {
				JUnit       string `yaml:"junit"`
				CodeQuality string `yaml:"codequality"`
			} `yaml:"reports"`
		} `yaml:"artifacts"`
	}
	if err := yaml.Unmarshal(data, &tmpl); err != nil {
		t.Fatal(err)
	}
	job := tmpl["setbot"]
	if len(job.Script) == 0 {
		t.Fatal("the template has no setbot job with a script")
	}
	repo, commits, env := ciEnv(t)
	env = append(env, "CI_MERGE_REQUEST_DIFF_BASE_SHA="+commits[2].SHA)
	code, out := runShell(t, repo, env, strings.Join(job.Script, "\n"))
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the gate blocks)\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(repo, job.Artifacts.Reports.JUnit)); err != nil {
		t.Errorf("the JUnit report GitLab reads: %v", err)
	}
	checkReports(t, filepath.Join(repo, filepath.Dir(job.Artifacts.Reports.JUnit)))
	// GitLab's Code Quality report: an issue per finding, the blocking
	// unreachable state among them at a line of the model.
	var issues []struct {
		CheckName string `json:"check_name"`
		Severity  string `json:"severity"`
		Location  struct {
			Path  string              `json:"path"`
			Lines struct{ Begin int } `json:"lines"`
		} `json:"location"`
	}
	data, err = os.ReadFile(filepath.Join(repo, job.Artifacts.Reports.CodeQuality))
	if err == nil {
		err = json.Unmarshal(data, &issues)
	}
	found := false
	for _, is := range issues {
		found = found || is.CheckName == "unreachable_state" && is.Severity == "blocker" && is.Location.Path == demo.ModelPath && is.Location.Lines.Begin > 1
	}
	if err != nil || !found {
		t.Errorf("the Code Quality report GitLab reads (%v) has no blocker for the unreachable state:\n%s", err, data)
	}
}

// TestActionAndHook: the Action runs the script the tests run, and the
// pre-commit hook's command checks a model.
func TestActionAndHook(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Using string
			Steps []struct {
				Uses, Run string
			}
		}
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	runsScript := false
	for _, s := range action.Runs.Steps {
		runsScript = runsScript || strings.Contains(s.Run, `"$GITHUB_ACTION_PATH/ci/setbot-ci.sh"`)
	}
	if action.Runs.Using != "composite" || !runsScript {
		t.Errorf("action.yml: using %q, runs ci/setbot-ci.sh: %v", action.Runs.Using, runsScript)
	}
	data, err = os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct{ ID, Entry, Files string }
	if err := yaml.Unmarshal(data, &hooks); err != nil || len(hooks) != 1 {
		t.Fatalf("hooks %+v: %v", hooks, err)
	}
	repo, _, env := ciEnv(t)
	if code, out := runShell(t, repo, env, hooks[0].Entry+` "$1"`, demo.ModelPath); code != 0 {
		t.Errorf("%s %s: exit %d\n%s", hooks[0].Entry, demo.ModelPath, code, out)
	}
}
