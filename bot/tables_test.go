package bot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// gaugeModel takes the machine to High only through a row of SCALE's table
// that the table lacks and the command computes (10 times its argument).
const gaugeModel = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="Idle" name="gauge">
  <setbot:event name="read"><setbot:param name="v" type="int[0..3]"/></setbot:event>
  <setbot:function name="SCALE" params="int" returns="int" table="scale.csv" command="bin/scale"/>
  <state id="Idle">
    <transition event="read" cond="SCALE(_event.data.v) &gt; 10" target="High"/>
  </state>
  <state id="High"/>
</scxml>
`

// commitFiles commits files (a script under bin/ executable) on top of
// parent in the remote and points branch at the commit.
func (e *env) commitFiles(parent, branch string, files map[string]string) string {
	e.t.Helper()
	r, err := git.PlainOpen(e.remote)
	if err != nil {
		e.t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := wt.Checkout(&git.CheckoutOptions{Hash: plumbing.NewHash(parent), Force: true}); err != nil {
		e.t.Fatal(err)
	}
	for name, data := range files {
		p := filepath.Join(e.remote, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			e.t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasPrefix(name, "bin/") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(data), mode); err != nil {
			e.t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			e.t.Fatal(err)
		}
	}
	sig := &object.Signature{Name: "t", Email: "t@example.com", When: time.Date(2026, 2, 2, 0, 0, 0, 0, time.UTC)}
	h, err := wt.Commit("gauge", &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := r.Storer.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(branch), h)); err != nil {
		e.t.Fatal(err)
	}
	return h.String()
}

// TestPullRequestGrowsTables: a webhook job on a repository whose
// configuration allows it runs a black-box function's command in a
// checkout of the head (the bot's clone is bare), analyses the head with
// the row it computed, and the comment offers the row to commit.
func TestPullRequestGrowsTables(t *testing.T) {
	e := newEnv(t)
	allow := "functions:\n  run_commands: true\n"
	base := e.commitFiles(c1, "master", map[string]string{".setbot.yml": allow})
	// The command answers only where it must run: in a checkout of the head
	// made under TMPDIR, not in the bot's clone; a confined command writes
	// nothing outside its checkout, so what it found shows in its answer.
	tmp := commandWritable(t)
	t.Setenv("TMPDIR", tmp)
	script := "#!/bin/sh\ncase \"$HOME\" in\n'" + tmp + "'/setbot-head-*) ;;\n*) echo \"ran in $HOME\" >&2; exit 1;;\nesac\n" +
		"test -f \"$HOME/models/gauge/scale.csv\" || { echo \"no checkout in $HOME\" >&2; exit 1; }\necho $(($1 * 10))\n"
	head := e.commitFiles(base, "gauge", map[string]string{
		"models/gauge/gauge.scxml": gaugeModel, "models/gauge/scale.csv": "0,0\n1,5\n", "bin/scale": script,
	})
	e.start()

	body, _ := fixture(t, "pull_request.opened")
	body = []byte(strings.NewReplacer(`"sha": "`+c1+`"`, `"sha": "`+base+`"`, `"sha": "`+c2+`"`, `"sha": "`+head+`"`).Replace(string(body)))
	if !strings.Contains(string(body), head) || !strings.Contains(string(body), base) {
		t.Fatal("the fixture's base and head are not c1 and c2")
	}
	if code, a := e.post("pull_request", "d-gauge", body, Sign([]byte(testSecret), body)); code != 202 {
		t.Fatalf("opened: %d %+v", code, a)
	}
	e.idle()

	// The checkout it ran in is gone after the job.
	if left, err := filepath.Glob(filepath.Join(tmp, "setbot-head-*")); err != nil || len(left) > 0 {
		t.Errorf("checkouts left after the job: %v %v", left, err)
	}
	comments := e.gh.commentsOf(7)
	if len(comments) != 1 {
		t.Fatalf("%d comments", len(comments))
	}
	c := comments[0].Body
	if !strings.Contains(c, "Black-box tables") || !strings.Contains(c, "`models/gauge/scale.csv`") ||
		!strings.Contains(c, "2,20") && !strings.Contains(c, "3,30") {
		t.Errorf("the comment does not offer the grown row:\n%s", c)
	}
	if strings.Contains(c, "`High` (line") {
		t.Errorf("the comment reports High not reached, which the grown row reaches:\n%s", c)
	}
	if runs := e.gh.runsFor(head); len(runs) != 1 || runs[0].Status != "completed" {
		t.Errorf("check runs on the head: %+v", runs)
	}
}

// openGaugePR commits a base that allows commands and a head with the
// gauge model, starts the bot and posts the pull request's opening, its
// head in the repository headRepo, and waits for the job. It returns the
// head. Whether the command ran shows in the comment: the rows it grew.
func openGaugePR(t *testing.T, e *env, headRepo string) (head string) {
	t.Helper()
	base := e.commitFiles(c1, "master", map[string]string{".setbot.yml": "functions:\n  run_commands: true\n"})
	script := "#!/bin/sh\necho $(($1 * 10))\n"
	head = e.commitFiles(base, "gauge", map[string]string{
		"models/gauge/gauge.scxml": gaugeModel, "models/gauge/scale.csv": "0,0\n1,5\n", "bin/scale": script,
	})
	e.start()
	body, _ := fixture(t, "pull_request.opened")
	var event map[string]any
	if err := json.Unmarshal(body, &event); err != nil {
		t.Fatal(err)
	}
	pr := event["pull_request"].(map[string]any)
	pr["base"].(map[string]any)["sha"] = base
	pr["head"].(map[string]any)["sha"] = head
	pr["head"].(map[string]any)["repo"].(map[string]any)["full_name"] = headRepo
	body, err := json.Marshal(event)
	if err != nil {
		t.Fatal(err)
	}
	if code, a := e.post("pull_request", "d-gauge", body, Sign([]byte(testSecret), body)); code != 202 {
		t.Fatalf("opened: %d %+v", code, a)
	}
	e.idle()
	return head
}

// TestForkPullRequestRunsNoCommand: the base's permission to run commands
// does not reach a pull request from a fork, whose head is someone else's
// code: the analysis uses the committed table, and the comment says why.
func TestForkPullRequestRunsNoCommand(t *testing.T) {
	e := newEnv(t)
	head := openGaugePR(t, e, "mallory/triangle")
	comments := e.gh.commentsOf(7)
	if len(comments) != 1 {
		t.Fatalf("%d comments", len(comments))
	}
	c := comments[0].Body
	if !strings.Contains(c, "did not run") || !strings.Contains(c, "mallory/triangle, a fork") || !strings.Contains(c, "allow\\_fork\\_commands") {
		t.Errorf("the comment does not say why the commands did not run:\n%s", c)
	}
	if !strings.Contains(c, "`High` (line") || strings.Contains(c, "2,20") || strings.Contains(c, "3,30") {
		t.Errorf("the comment does not report High unreached up to the committed table, or offers a grown row:\n%s", c)
	}
	if runs := e.gh.runsFor(head); len(runs) != 1 || runs[0].Status != "completed" {
		t.Errorf("check runs on the head: %+v", runs)
	}
}

// TestForkCommandsWhenTheServerAllows: allow_fork_commands lets a fork's
// pull request run its commands as one from a branch of the repository.
func TestForkCommandsWhenTheServerAllows(t *testing.T) {
	e := newEnv(t)
	e.cfg.AllowForkCommands = true
	openGaugePR(t, e, "mallory/triangle")
	if c := e.gh.commentsOf(7); len(c) != 1 || strings.Contains(c[0].Body, "did not run") ||
		!strings.Contains(c[0].Body, "2,20") && !strings.Contains(c[0].Body, "3,30") {
		t.Errorf("the command did not run, or its row is not offered: comments %+v", c)
	}
}

// commandWritable is a directory a black-box command can write in
// whatever user it runs as (nobody when the tests run as root), unlike
// t.TempDir, whose parent lets no other user in.
func commandWritable(t *testing.T) string {
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
