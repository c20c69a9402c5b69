package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// This file runs the GitHub Action (action.yml) on this machine as the
// runner would: the composite steps in order, each `if` evaluated, the
// `${{ }}` expressions expanded, the run steps in bash with GITHUB_OUTPUT,
// GITHUB_PATH and GITHUB_STEP_SUMMARY, and the steps that use other actions
// recorded with their inputs instead of run. Its expressions follow GitHub's
// rules where the action depends on them, hashFiles' above all: a pattern
// matches files under GITHUB_WORKSPACE only, so a path under runner.temp
// hashes to ''.

// action is what the test reads of action.yml.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Run   string            `yaml:"run"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

func (s actionStep) title() string {
	for _, t := range []string{s.Name, s.ID, s.Uses} {
		if t != "" {
			return t
		}
	}
	return "run"
}

// ghRunner is one run of the action.
type ghRunner struct {
	t         *testing.T
	action    action
	inputs    map[string]string
	github    map[string]string // github.* (github.event.before as "event.before")
	workspace string
	temp      string
	env       []string // the job's environment
	path      []string // GITHUB_PATH, newest first
	outputs   map[string]map[string]string
	failed    bool
	// ran holds, per step title, whether it ran; used the inputs its
	// `uses` step was given.
	ran  map[string]bool
	used map[string]map[string]string
	exit map[string]int // a run step's exit status
}

func readAction(t *testing.T) action {
	t.Helper()
	var a action
	if err := yaml.Unmarshal(readFile(t, "../../action.yml"), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// run runs every step of the action.
func (r *ghRunner) run() {
	r.t.Helper()
	r.outputs, r.ran, r.used, r.exit = map[string]map[string]string{}, map[string]bool{}, map[string]map[string]string{}, map[string]int{}
	for name, in := range r.action.Inputs {
		if _, ok := r.inputs[name]; !ok {
			r.inputs[name] = in.Default
		}
	}
	for _, s := range r.action.Runs.Steps {
		cond := s.If
		if cond == "" {
			cond = "success()"
		}
		if !truthy(r.eval(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(cond), "${{"), "}}"))) {
			continue
		}
		r.ran[s.title()] = true
		if s.Uses != "" {
			with := map[string]string{}
			for k, v := range s.With {
				with[k] = r.expand(v)
			}
			r.used[s.Uses] = with
			continue
		}
		if s.Shell != "bash" {
			r.t.Fatalf("step %s: shell %q, want bash (composite run steps must name one)", s.title(), s.Shell)
		}
		if strings.Contains(s.Run, "${{") {
			r.t.Errorf("step %s expands an expression inside its script: pass it through env", s.title())
		}
		code, outs := r.shell(s)
		r.exit[s.title()] = code
		if s.ID != "" {
			r.outputs[s.ID] = outs
		}
		if code != 0 {
			r.failed = true
		}
	}
}

// shell runs a run step as the runner does: bash --noprofile --norc -eo
// pipefail, with the step's env and the files the runner reads back.
func (r *ghRunner) shell(s actionStep) (int, map[string]string) {
	r.t.Helper()
	dir := r.t.TempDir()
	script, output, ghPath := filepath.Join(dir, "step.sh"), filepath.Join(dir, "output"), filepath.Join(dir, "path")
	for _, f := range []string{output, ghPath} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	// The runner expands expressions in the script's text before bash
	// reads it (which run flags).
	if err := os.WriteFile(script, []byte(r.expand(s.Run)), 0o644); err != nil {
		r.t.Fatal(err)
	}
	env := append([]string{}, r.env...)
	env = append(env, "PATH="+strings.Join(append(append([]string{}, r.path...), os.Getenv("PATH")), string(os.PathListSeparator)),
		"GITHUB_WORKSPACE="+r.workspace, "RUNNER_TEMP="+r.temp, "GITHUB_ACTION_PATH="+r.github["action_path"],
		"GITHUB_OUTPUT="+output, "GITHUB_PATH="+ghPath, "GITHUB_STEP_SUMMARY="+filepath.Join(r.temp, "summary.md"))
	keys := make([]string, 0, len(s.Env))
	for k := range s.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+r.expand(s.Env[k]))
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir, cmd.Env = r.workspace, env
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	if code != 0 {
		r.t.Logf("step %s: exit %d\n%s", s.title(), code, out)
	}
	outs := map[string]string{}
	for _, line := range lines(r.t, output) {
		if k, v, ok := strings.Cut(line, "="); ok {
			outs[k] = v
		}
	}
	for _, p := range lines(r.t, ghPath) {
		r.path = append([]string{p}, r.path...)
	}
	return code, outs
}

func lines(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// expand replaces every ${{ expression }} of s by its value.
func (r *ghRunner) expand(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		return str(r.eval(exprRE.FindStringSubmatch(m)[1]))
	})
}

// eval evaluates an expression: literals, contexts, ==, !=, !, &&, ||,
// parentheses, and the functions the action uses.
func (r *ghRunner) eval(expr string) any {
	r.t.Helper()
	p := &exprParser{r: r, src: expr}
	v := p.or()
	if p.skip(); p.pos != len(p.src) {
		r.t.Fatalf("expression %q: unexpected %q", expr, p.src[p.pos:])
	}
	return v
}

type exprParser struct {
	r   *ghRunner
	src string
	pos int
}

func (p *exprParser) skip() {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
}

func (p *exprParser) eat(tok string) bool {
	p.skip()
	if strings.HasPrefix(p.src[p.pos:], tok) {
		p.pos += len(tok)
		return true
	}
	return false
}

func (p *exprParser) or() any {
	v := p.and()
	for p.eat("||") {
		w := p.and()
		if !truthy(v) {
			v = w
		}
	}
	return v
}

func (p *exprParser) and() any {
	v := p.cmp()
	for p.eat("&&") {
		w := p.cmp()
		if truthy(v) {
			v = w
		}
	}
	return v
}

func (p *exprParser) cmp() any {
	v := p.unary()
	switch {
	case p.eat("=="):
		return strings.EqualFold(str(v), str(p.unary()))
	case p.eat("!="):
		return !strings.EqualFold(str(v), str(p.unary()))
	}
	return v
}

func (p *exprParser) unary() any {
	if p.eat("!") {
		return !truthy(p.unary())
	}
	if p.eat("(") {
		v := p.or()
		if !p.eat(")") {
			p.r.t.Fatalf("expression %q: missing )", p.src)
		}
		return v
	}
	if p.eat("'") {
		end := strings.IndexByte(p.src[p.pos:], '\'')
		if end < 0 {
			p.r.t.Fatalf("expression %q: unterminated string", p.src)
		}
		s := p.src[p.pos : p.pos+end]
		p.pos += end + 1
		return s
	}
	start := p.pos
	for p.pos < len(p.src) && (unicode.IsLetter(rune(p.src[p.pos])) || unicode.IsDigit(rune(p.src[p.pos])) || strings.ContainsRune("._-", rune(p.src[p.pos]))) {
		p.pos++
	}
	name := p.src[start:p.pos]
	if name == "" {
		p.r.t.Fatalf("expression %q: unexpected %q", p.src, p.src[p.pos:])
	}
	if p.eat("(") {
		var args []any
		for !p.eat(")") {
			args = append(args, p.or())
			p.eat(",")
		}
		return p.r.call(name, args)
	}
	switch name {
	case "true":
		return true
	case "false":
		return false
	}
	return p.r.lookup(name)
}

// call evaluates a function of GitHub's expressions.
func (r *ghRunner) call(name string, args []any) any {
	switch name {
	case "always":
		return true
	case "success":
		return !r.failed
	case "failure":
		return r.failed
	case "format":
		s := str(args[0])
		for i, a := range args[1:] {
			s = strings.ReplaceAll(s, fmt.Sprintf("{%d}", i), str(a))
		}
		return s
	case "hashFiles":
		return r.hashFiles(args)
	}
	r.t.Fatalf("function %s is not one the test knows", name)
	return nil
}

// hashFiles is GitHub's: the patterns are relative to GITHUB_WORKSPACE,
// and only files under it match (the runner's docs: "files outside the
// workspace are ignored"); no match gives ”.
func (r *ghRunner) hashFiles(patterns []any) string {
	h := sha256.New()
	n := 0
	for _, pat := range patterns {
		p := str(pat)
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.workspace, p)
		}
		matches, _ := filepath.Glob(p)
		for _, m := range matches {
			rel, err := filepath.Rel(r.workspace, m)
			if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
				continue // outside the workspace: never seen
			}
			if st, err := os.Stat(m); err == nil && st.Mode().IsRegular() {
				h.Write(readFile(r.t, m))
				n++
			}
		}
	}
	if n == 0 {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// lookup reads a context: inputs the action declares, outputs of steps it
// has, github.* and runner.*. Any other name is a mistake in action.yml.
func (r *ghRunner) lookup(name string) string {
	root, rest, _ := strings.Cut(name, ".")
	switch root {
	case "inputs":
		v, ok := r.inputs[rest]
		if !ok {
			r.t.Errorf("action.yml reads inputs.%s, which it does not declare", rest)
		}
		return v
	case "steps":
		id, out, _ := strings.Cut(rest, ".outputs.")
		found := false
		for _, s := range r.action.Runs.Steps {
			found = found || s.ID == id
		}
		if !found || out == "" {
			r.t.Errorf("action.yml reads %s: no step %q or no output", name, id)
		}
		return r.outputs[id][out]
	case "github":
		return r.github[rest]
	case "runner":
		if rest == "temp" {
			return r.temp
		}
	}
	r.t.Errorf("action.yml reads %s, which the test does not know", name)
	return ""
}

func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return v != ""
	}
	return v != nil
}

func str(v any) string {
	switch v := v.(type) {
	case bool:
		return fmt.Sprint(v)
	case string:
		return v
	}
	return ""
}

// newGHRunner prepares a run of the action on the demo repository, whose
// HEAD is the change the gate blocks, for an event: its github context.
// The install step runs with stand-ins for sudo and go that record what
// they are asked; go build leaves the setbot this test binary stands for.
func newGHRunner(t *testing.T, github map[string]string, inputs map[string]string) (*ghRunner, string) {
	t.Helper()
	repo, commits, env := ciEnv(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	actionPath, err := filepath.Abs("../../")
	if err != nil {
		t.Fatal(err)
	}
	// ciEnv put setbot on PATH: the action must find its own, which the
	// install step builds, so the stand-ins come first.
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	fake := t.TempDir()
	log := filepath.Join(t.TempDir(), "commands")
	scripts := map[string]string{
		"sudo": `echo "sudo $*" >>"$FAKE_LOG"` + "\n",
		// go build -o FILE ./cmd/setbot, in the action's checkout.
		"go": `echo "go $* (in $PWD)" >>"$FAKE_LOG"
[ "$1" = build ] && [ "$2" = -o ] && [ "$4" = ./cmd/setbot ] && [ -d cmd/setbot ] || exit 1
printf '#!/bin/sh\nSETBOT_TEST_MAIN=1 exec "%s" "$@"\n' "$FAKE_SETBOT" >"$3" && chmod +x "$3"
`,
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(fake, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var jobEnv []string
	for _, e := range env {
		if !strings.HasPrefix(e, "PATH=") {
			jobEnv = append(jobEnv, e)
		}
	}
	jobEnv = append(jobEnv, "FAKE_LOG="+log, "FAKE_SETBOT="+exe)
	// ciEnv's setbot must not be the one found: keep PATH without it.
	r := &ghRunner{t: t, action: readAction(t), inputs: inputs, workspace: repo, temp: t.TempDir(), env: jobEnv,
		path: []string{fake}}
	r.github = map[string]string{"action_path": actionPath, "workspace": repo, "sha": commits[len(commits)-1].SHA, "ref_name": "main"}
	for k, v := range github {
		r.github[k] = v
	}
	return r, log
}

// TestAction runs the Action on a blocking change for each event it
// serves, and checks the base it picks, its outputs, that the SARIF upload
// step runs with the file the analysis wrote (under the workspace, where
// hashFiles and the upload see it), and that the gate fails the job.
func TestAction(t *testing.T) {
	_, commits, _ := ciEnv(t)
	blocked, parent := commits[3].SHA, commits[2].SHA
	zero := strings.Repeat("0", 40)
	for _, c := range []struct {
		name   string
		github map[string]string
		inputs map[string]string
		base   string // the base the action picks; "" the merge base with origin/main
	}{
		{name: "pull_request", github: map[string]string{"event_name": "pull_request", "base_ref": "main"}},
		{name: "push", github: map[string]string{"event_name": "push", "event.before": parent}, base: parent},
		{name: "push of a new branch", github: map[string]string{"event_name": "push", "event.before": zero}, base: parent},
		{name: "workflow_dispatch", github: map[string]string{"event_name": "workflow_dispatch"}, base: parent},
		{name: "a base given", github: map[string]string{"event_name": "workflow_dispatch"}, inputs: map[string]string{"base": commits[1].SHA}, base: commits[1].SHA},
		{name: "no SARIF upload", github: map[string]string{"event_name": "push", "event.before": parent}, inputs: map[string]string{"upload-sarif": "false"}, base: parent},
	} {
		t.Run(c.name, func(t *testing.T) {
			inputs := map[string]string{}
			for k, v := range c.inputs {
				inputs[k] = v
			}
			r, log := newGHRunner(t, c.github, inputs)
			if c.base == "" {
				// The pull request's target: its tip is the parent of the
				// head (the demo's history is linear).
				gitRun(t, r.workspace, "update-ref", "refs/remotes/origin/main", parent)
				c.base = parent
			}
			if got := gitRun(t, r.workspace, "rev-parse", "HEAD"); got != blocked {
				t.Fatalf("HEAD is %s, want the blocking change %s", got, blocked)
			}
			r.run()

			// Installed from the action's checkout, after apt-get update.
			commands := string(readFile(t, log))
			update, install := strings.Index(commands, "sudo apt-get update"), strings.Index(commands, "sudo apt-get install")
			if update < 0 || install < update || !strings.Contains(commands, "go build -o "+filepath.Join(r.temp, "setbot-bin", "setbot")+" ./cmd/setbot (in "+r.github["action_path"]+")") {
				t.Errorf("install: the commands were\n%s", commands)
			}

			out := r.outputs["analyze"]
			if out["base"] != c.base || out["status"] != "1" || out["conclusion"] != "failure" {
				t.Errorf("outputs %v, want base %s, status 1, conclusion failure", out, c.base)
			}
			for name, o := range r.action.Outputs {
				if v := r.expand(o.Value); v != out[name] {
					t.Errorf("the action's output %s is %q, the step's %q", name, v, out[name])
				}
			}
			sarif := out["sarif"]
			if rel, err := filepath.Rel(r.workspace, sarif); sarif == "" || err != nil || strings.HasPrefix(rel, "..") {
				t.Fatalf("SARIF at %q, want a file under the workspace %s", sarif, r.workspace)
			}
			rel, _ := filepath.Rel(r.workspace, sarif)
			if r.hashFiles([]any{rel}) == "" {
				t.Errorf("hashFiles(%q) is empty", rel)
			}
			with, uploaded := r.used["github/codeql-action/upload-sarif@v3"]
			if want := c.inputs["upload-sarif"] != "false"; uploaded != want || uploaded && with["sarif_file"] != sarif {
				t.Errorf("upload-sarif ran %v (want %v) with %v, the SARIF is %s", uploaded, want, with, sarif)
			}
			if r.exit["the gate"] != 1 {
				t.Errorf("the gate step exits %d, want 1", r.exit["the gate"])
			}
			summary := string(readFile(t, filepath.Join(r.temp, "summary.md")))
			if !strings.Contains(summary, "setbot: blocked") {
				t.Errorf("job summary:\n%s", summary)
			}
			// The reports' directory keeps out of git's way.
			if st := gitRun(t, r.workspace, "status", "--porcelain"); st != "" {
				t.Errorf("the workspace is not clean after the action:\n%s", st)
			}
		})
	}
}

// TestHashFilesRule checks the test's hashFiles against the rule the
// Action's SARIF upload once tripped on: a file under runner.temp, outside
// the workspace, hashes to ” however it is named.
func TestHashFilesRule(t *testing.T) {
	r := &ghRunner{t: t, workspace: t.TempDir(), temp: t.TempDir()}
	for _, dir := range []string{filepath.Join(r.temp, "setbot"), filepath.Join(r.workspace, ".setbot-out")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "setbot.sarif"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if h := r.eval(`hashFiles(format('{0}/setbot/setbot.sarif', runner.temp)) != ''`); h != false {
		t.Errorf("a file under runner.temp: the guard is %v, want false", h)
	}
	if h := r.eval(`hashFiles('.setbot-out/setbot.sarif') != ''`); h != true {
		t.Errorf("a file under the workspace: the guard is %v, want true", h)
	}
	if h := r.eval(`hashFiles('../*/setbot/setbot.sarif')`); h != "" {
		t.Errorf("a pattern that climbs out of the workspace matched: %v", h)
	}
}

func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestActionDocs checks the workflow docs/ci.md gives for the Action: it
// parses, grants the permissions the Action needs, serves the events the
// Action supports, and reads only outputs the Action declares.
func TestActionDocs(t *testing.T) {
	doc := string(readFile(t, "../../docs/ci.md"))
	start := strings.Index(doc, "## GitHub Actions")
	block := doc[start:]
	block = block[strings.Index(block, "```yaml\n")+len("```yaml\n"):]
	block = block[:strings.Index(block, "```")]
	var wf struct {
		On          map[string]any    `yaml:"on"`
		Permissions map[string]string `yaml:"permissions"`
		Jobs        map[string]struct {
			Steps []struct {
				ID   string `yaml:"id"`
				Uses string `yaml:"uses"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(block), &wf); err != nil {
		t.Fatalf("the workflow in docs/ci.md: %v\n%s", err, block)
	}
	for scope, want := range map[string]string{"contents": "read", "security-events": "write", "actions": "read"} {
		if wf.Permissions[scope] != want {
			t.Errorf("permissions: %s is %q, want %q", scope, wf.Permissions[scope], want)
		}
	}
	for _, event := range []string{"pull_request", "push", "workflow_dispatch"} {
		if _, ok := wf.On[event]; !ok {
			t.Errorf("the workflow does not run on %s", event)
		}
	}
	declared := readAction(t).Outputs
	for _, m := range regexp.MustCompile(`steps\.setbot\.outputs\.([a-z-]+)`).FindAllStringSubmatch(block, -1) {
		if _, ok := declared[m[1]]; !ok {
			t.Errorf("the workflow reads output %s, which action.yml does not declare", m[1])
		}
	}
}
