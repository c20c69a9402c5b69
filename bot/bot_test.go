package bot

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/bot/ghapi"
	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/bot/schedule"
	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/internal/demo"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
)

var update = flag.Bool("update", false, "sign the webhook payloads under testdata/webhooks again")

const (
	testSecret = "setbot-test-secret"
	cloneURL   = "https://github.com/octo/triangle.git"
	modelPath  = "models/triangle.scxml"
)

// The demo repository's commits (their SHAs are fixed: demo.Build commits
// with fixed authors and dates), which the payloads under testdata name.
var c0, c1, c2, c3 string

var (
	appKeyOnce sync.Once
	appKeyPEM  []byte
)

// appKey is a GitHub App private key for the tests (the fake GitHub does
// not check the JWT's signature; ghinstallation needs a real key to sign).
func appKey(t *testing.T) []byte {
	appKeyOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		appKeyPEM = pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	})
	return appKeyPEM
}

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

// env is a bot wired to a fake GitHub and a local git repository standing
// in for github.com/octo/triangle: master at the harmless edit (c1), and
// a branch feature with the new transition (c2) and the unreachable state (c3).
type env struct {
	t        *testing.T
	frozenPR bool // post leaves the fake's pull requests as they are
	gh       *fakeGitHub
	remote   string
	dbPath   string
	cfg      *config.Server
	store    *cache.Store
	bot      *Bot
	http     *httptest.Server
	solver   func(*solver.Table) (solver.Solver, error)
	// inline runs the analyses in the test's process, where e.solver's
	// hooks reach them; by default they run in child processes, the test
	// binary re-executed (TestMain), as the server runs them.
	inline bool
	// childEnv is added to the environment of the child processes.
	childEnv []string
	stop     context.CancelFunc
	done     chan struct{}
	logs     *syncBuffer
	clock    *fakeClock    // nil: the real clock
	sweep    time.Duration // the sweep interval; 0: the default
	intake   IntakeLimits  // zero fields: the defaults
	// realSleep makes GitHub calls wait for real before a retry; by
	// default they go on at once.
	realSleep bool
}

// fakeClock is a clock the test moves, shared by the bot, its GitHub client
// and the fake GitHub.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// useFakeClock makes the bot and the fake GitHub tell time by a clock the
// test moves, starting now.
func (e *env) useFakeClock() *fakeClock {
	e.clock = &fakeClock{t: time.Now()}
	e.gh.now = e.clock.Now
	return e.clock
}

func newEnv(t *testing.T) *env {
	t.Helper()
	remote := filepath.Join(t.TempDir(), "triangle")
	commits, err := demo.Build(remote)
	if err != nil {
		t.Fatal(err)
	}
	c0, c1, c2, c3 = commits[0].SHA, commits[1].SHA, commits[2].SHA, commits[3].SHA
	r, err := git.PlainOpen(remote)
	if err != nil {
		t.Fatal(err)
	}
	for name, sha := range map[string]string{"refs/heads/master": c1, "refs/heads/feature": c3} {
		if err := r.Storer.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(name), plumbing.NewHash(sha))); err != nil {
			t.Fatal(err)
		}
	}
	e := &env{t: t, gh: newFakeGitHub(t), remote: remote, dbPath: filepath.Join(t.TempDir(), "setbot.db"), solver: newZ3, logs: &syncBuffer{}}
	e.cfg = &config.Server{
		Database: e.dbPath, Workers: 2, CloneDir: filepath.Join(t.TempDir(), "repos"), JobTimeout: time.Minute, ShutdownTimeout: 30 * time.Second,
		MaxBodyBytes: 1 << 20, GitHub: config.GitHub{BaseURL: e.gh.URL(), AppID: 1, PrivateKey: appKey(t), WebhookSecret: []byte(testSecret)},
	}
	return e
}

// open opens the store and makes the bot (not yet running).
func (e *env) open() {
	e.t.Helper()
	store, q, sched := openStores(e.t, e.dbPath)
	e.store = store
	var (
		b   *Bot
		now func() time.Time
	)
	if e.clock != nil {
		now = e.clock.Now
	}
	sleep := func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	if e.realSleep {
		sleep = nil
	}
	factory, err := ghapi.NewFactory(ghapi.Config{
		BaseURL: e.cfg.GitHub.BaseURL, Token: e.cfg.GitHub.Token, AppID: e.cfg.GitHub.AppID, PrivateKey: e.cfg.GitHub.PrivateKey,
		Sleep:   sleep,
		Metrics: func(event string) { b.Metrics().GitHubEvent(event) },
		Now:     now,
	})
	if err != nil {
		e.t.Fatal(err)
	}
	log := slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	var analyzer *analysis.Command
	if !e.inline {
		analyzer = childAnalyzer(e.t, e.childEnv...)
	}
	b, err = New(e.cfg, Options{
		Store: store, Queue: q, Schedules: sched, GitHub: factory, Solver: func(tab *solver.Table) (solver.Solver, error) { return e.solver(tab) },
		Logger:          log,
		RewriteCloneURL: func(u string) string { return strings.Replace(u, cloneURL, "file://"+e.remote, 1) },
		PollInterval:    50 * time.Millisecond,
		SweepInterval:   e.sweep,
		Intake:          e.intake,
		Now:             now,
		Analyzer:        analyzer,
	})
	if err != nil {
		e.t.Fatal(err)
	}
	e.bot = b
	e.http = httptest.NewServer(b.Handler())
}

// start opens the bot and runs its workers.
func (e *env) start() {
	e.t.Helper()
	e.open()
	ctx, cancel := context.WithCancel(context.Background())
	e.stop, e.done = cancel, make(chan struct{})
	go func() {
		defer close(e.done)
		if err := e.bot.Run(ctx); err != nil {
			e.t.Errorf("Run: %v", err)
		}
	}()
	e.t.Cleanup(e.close)
}

// close stops the workers, the HTTP server and the store.
func (e *env) close() {
	if e.stop != nil {
		e.stop()
		<-e.done
		e.stop = nil
	}
	if e.http != nil {
		e.http.Close()
		e.http = nil
	}
	if e.store != nil {
		e.store.Close()
		e.store = nil
	}
	for _, line := range strings.Split(e.logs.String(), "\n") {
		if dups := duplicateKeys(line); len(dups) > 0 {
			e.t.Errorf("log line with keys %q more than once: %s", dups, line)
		}
	}
	if e.t.Failed() {
		e.t.Logf("bot logs:\n%s", e.logs.String())
	}
}

// fixture returns a payload under testdata/webhooks and its signature.
func fixture(t *testing.T, name string) ([]byte, string) {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", "webhooks", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	sigFile := filepath.Join("testdata", "webhooks", name+".sig")
	if *update {
		if err := os.WriteFile(sigFile, []byte(Sign([]byte(testSecret), body)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sig, err := os.ReadFile(sigFile)
	if err != nil {
		t.Fatal(err)
	}
	return body, strings.TrimSpace(string(sig))
}

// post delivers a webhook. A pull_request event also updates the fake's
// pull request, as GitHub's state changes before it sends the event.
func (e *env) post(event, delivery string, body []byte, sig string) (int, webhookAnswer) {
	e.t.Helper()
	code, a, err := e.postTo(e.http.URL, event, delivery, body, sig)
	if err != nil {
		e.t.Fatal(err)
	}
	return code, a
}

// postTo is post to the server at base.
func (e *env) postTo(base, event, delivery string, body []byte, sig string) (int, webhookAnswer, error) {
	e.t.Helper()
	if event == "pull_request" && !e.frozenPR {
		var p struct {
			PullRequest struct {
				Number int
				Base   struct{ Ref, SHA string }
				Head   struct {
					SHA  string
					Repo struct {
						FullName string `json:"full_name"`
					}
				}
			} `json:"pull_request"`
		}
		if json.Unmarshal(body, &p) == nil && p.PullRequest.Number > 0 {
			pr := p.PullRequest
			e.gh.addPRFrom(pr.Number, pr.Base.Ref, pr.Base.SHA, pr.Head.SHA, cmp.Or(pr.Head.Repo.FullName, "octo/triangle"))
		}
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/webhook", bytes.NewReader(body))
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", delivery)
	if sig != "" {
		req.Header.Set("X-Hub-Signature-256", sig)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, webhookAnswer{}, err
	}
	defer resp.Body.Close()
	var a webhookAnswer
	_ = json.NewDecoder(resp.Body).Decode(&a)
	return resp.StatusCode, a, nil
}

// send delivers a signed fixture; the event is the name up to the dot.
func (e *env) send(name, delivery string) (int, webhookAnswer) {
	e.t.Helper()
	body, sig := fixture(e.t, name)
	return e.post(strings.SplitN(name, ".", 2)[0], delivery, body, sig)
}

// sendPR delivers a pull_request fixture renumbered as pull request pr,
// with head as its head commit ("" keeps the fixture's).
func (e *env) sendPR(fixtureName string, pr int, delivery, head string) {
	e.t.Helper()
	body, _ := fixture(e.t, fixtureName)
	body = bytes.ReplaceAll(body, []byte(`"number": 7`), []byte(fmt.Sprintf(`"number": %d`, pr)))
	if head != "" {
		body = bytes.ReplaceAll(body, []byte(c2), []byte(head))
		body = bytes.ReplaceAll(body, []byte(c3), []byte(head))
	}
	if code, a := e.post("pull_request", delivery, body, Sign([]byte(testSecret), body)); code != http.StatusAccepted {
		e.t.Fatalf("%s for pull request %d: %d %+v", fixtureName, pr, code, a)
	}
}

// idle waits until no job is queued or running.
func (e *env) idle() {
	e.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if len(e.jobs(queue.Queued)) == 0 && len(e.jobs(queue.Running)) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatalf("jobs still queued or running after 90 s\n%s", e.logs.String())
}

// storedJob is what the tests read of a job in the bot's store.
type storedJob struct {
	ID    int64
	Kind  string
	Error string
}

// jobs lists the jobs in state, newest first, as the queue keeps them in
// the store (the bot itself never lists its jobs).
func (e *env) jobs(state string) []storedJob {
	e.t.Helper()
	rows, err := e.store.Query(context.Background(), "SELECT id, kind, error FROM jobs WHERE state = ? ORDER BY id DESC", state)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var js []storedJob
	for rows.Next() {
		var j storedJob
		if err := rows.Scan(&j.ID, &j.Kind, &j.Error); err != nil {
			e.t.Fatal(err)
		}
		js = append(js, j)
	}
	if err := rows.Err(); err != nil {
		e.t.Fatal(err)
	}
	return js
}

// duplicateKeys lists the keys a JSON log line has more than once (at its
// top level: slog's groups are objects of their own).
func duplicateKeys(line string) []string {
	dec := json.NewDecoder(strings.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	seen := map[string]bool{}
	var dups []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return dups
		}
		key, _ := tok.(string)
		if seen[key] {
			dups = append(dups, key)
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return dups
		}
	}
	return dups
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestFixturesAreSigned(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join("testdata", "webhooks", "*.json"))
	if len(names) < 10 {
		t.Fatalf("%d payloads under testdata/webhooks", len(names))
	}
	for _, n := range names {
		name := strings.TrimSuffix(filepath.Base(n), ".json")
		body, sig := fixture(t, name)
		if !validSignature([]byte(testSecret), body, sig) {
			t.Errorf("%s: the stored signature does not match (go test ./bot -update signs again)", name)
		}
	}
}

// TestPullRequestFlow is the main path: a signed pull_request webhook leads
// to one comment and a check run; synchronize edits that comment and fails
// the check with an annotation on the unreachable state's line; a
// duplicate delivery runs once; a re-run with an unchanged result makes no
// comment edit.
func TestPullRequestFlow(t *testing.T) {
	e := newEnv(t)
	e.start()

	code, a := e.send("pull_request.opened", "d-1")
	if code != http.StatusAccepted || a.Status != "queued" || len(a.Jobs) != 1 {
		t.Fatalf("opened: %d %+v", code, a)
	}
	e.idle()
	comments := e.gh.commentsOf(7)
	if len(comments) != 1 || !strings.HasPrefix(comments[0].Body, report.Marker) || !strings.Contains(comments[0].Body, "no regressions") {
		t.Fatalf("after opened: comments %+v", comments)
	}
	runs := e.gh.runsFor(c2)
	if len(runs) != 1 || runs[0].Name != "setbot" || runs[0].Status != "completed" || runs[0].Conclusion != "success" {
		t.Fatalf("check runs on the head: %+v", runs)
	}
	want := []string{"POST /repos/octo/triangle/check-runs", "PATCH /repos/octo/triangle/check-runs/", "GET /repos/octo/triangle/pulls/7", "GET /repos/octo/triangle/issues/7/comments", "POST /repos/octo/triangle/issues/7/comments"}
	var got []string
	for _, c := range e.gh.callsMatching("") {
		got = append(got, c.Method+" "+c.Path)
	}
	if len(got) != len(want) {
		t.Fatalf("API calls %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Fatalf("API calls %q, want %q", got, want)
		}
	}
	if first := e.gh.callsMatching("POST /repos/octo/triangle/check-runs")[0]; first.Body["status"] != "in_progress" || first.Body["head_sha"] != c2 || first.Body["name"] != "setbot" {
		t.Errorf("check run created with %v", first.Body)
	}

	code, _ = e.send("pull_request.synchronize", "d-2")
	if code != http.StatusAccepted {
		t.Fatalf("synchronize: %d", code)
	}
	e.idle()
	comments = e.gh.commentsOf(7)
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "blocked") || !strings.Contains(comments[0].Body, "S1") {
		t.Fatalf("after synchronize: %d comments, first %q", len(comments), comments[0].Body[:min(200, len(comments[0].Body))])
	}
	if n := len(e.gh.callsMatching("PATCH /repos/octo/triangle/issues/comments/")); n != 1 {
		t.Errorf("%d comment edits, want 1", n)
	}
	runs = e.gh.runsFor(c3)
	if len(runs) != 1 || runs[0].Conclusion != "failure" {
		t.Fatalf("check runs on the new head: %+v", runs)
	}
	var onLine bool
	for _, an := range runs[0].Annotations {
		if an["path"] == modelPath && an["annotation_level"] == "failure" && fmt.Sprint(an["start_line"]) == "63" {
			onLine = true
		}
	}
	if !onLine {
		t.Errorf("no failure annotation on %s:63 (the unreachable state): %v", modelPath, runs[0].Annotations)
	}

	// Log lines carry the delivery, repository, pull request, commit and model.
	var keyed bool
	for _, line := range strings.Split(e.logs.String(), "\n") {
		if strings.Contains(line, `"delivery":"d-2"`) && strings.Contains(line, `"repo":"octo/triangle"`) && strings.Contains(line, `"pr":7`) &&
			strings.Contains(line, `"sha":"`+c3+`"`) && strings.Contains(line, `"model":"`+modelPath+`"`) {
			keyed = true
		}
	}
	if !keyed {
		t.Error("no log line carries delivery, repo, pr, sha and model together")
	}

	// The same delivery again: acknowledged, not run.
	code, a = e.send("pull_request.synchronize", "d-2")
	if code != http.StatusOK || a.Status != "duplicate" {
		t.Errorf("duplicate delivery: %d %+v", code, a)
	}
	e.idle()
	if n := len(e.gh.runsFor(c3)); n != 1 {
		t.Errorf("the duplicate delivery ran again: %d check runs", n)
	}

	// A re-run of the whole suite: the same.
	if code, _ := e.send("check_suite.rerequested", "d-4"); code != http.StatusAccepted {
		t.Fatalf("check_suite rerequested: %d", code)
	}
	e.idle()

	// A re-run of the check: same result from the cache, no comment edit.
	code, _ = e.send("check_run.rerequested", "d-3")
	if code != http.StatusAccepted {
		t.Fatalf("check_run rerequested: %d", code)
	}
	e.idle()
	if n := len(e.gh.callsMatching("PATCH /repos/octo/triangle/issues/comments/")); n != 1 {
		t.Errorf("an unchanged comment was edited: %d edits", n)
	}
	if n := len(e.gh.runsFor(c3)); n != 3 {
		t.Errorf("the re-runs made %d check runs on the head, want 3", n)
	}
	if n := len(e.jobs(queue.Done)); n != 4 {
		t.Errorf("%d jobs done, want 4", n)
	}
}

func TestWebhookRefusals(t *testing.T) {
	e := newEnv(t)
	e.cfg.MaxBodyBytes = 4096
	e.open()
	defer e.close()
	body, sig := fixture(t, "pull_request.opened")
	for _, tc := range []struct {
		name  string
		event string
		body  []byte
		sig   string
		code  int
	}{
		{"bad signature", "pull_request", body, Sign([]byte("wrong"), body), http.StatusUnauthorized},
		{"no signature", "pull_request", body, "", http.StatusUnauthorized},
		{"sha1 signature", "pull_request", body, "sha1=" + strings.Repeat("0", 40), http.StatusUnauthorized},
		{"tampered body", "pull_request", append(bytes.Clone(body), ' '), sig, http.StatusUnauthorized},
		{"over the cap", "pull_request", bytes.Repeat([]byte("x"), 5000), Sign([]byte(testSecret), bytes.Repeat([]byte("x"), 5000)), http.StatusRequestEntityTooLarge},
		{"malformed payload", "pull_request", []byte(`{"action": 3}`), Sign([]byte(testSecret), []byte(`{"action": 3}`)), http.StatusBadRequest},
		{"ping", "ping", []byte(`{}`), Sign([]byte(testSecret), []byte(`{}`)), http.StatusOK},
		{"unhandled event", "star", []byte(`{}`), Sign([]byte(testSecret), []byte(`{}`)), http.StatusOK},
	} {
		code, _ := e.post(tc.event, "d-"+tc.name, tc.body, tc.sig)
		if code != tc.code {
			t.Errorf("%s: %d, want %d", tc.name, code, tc.code)
		}
	}
	resp, err := http.Get(e.http.URL + "/webhook")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /webhook: %d", resp.StatusCode)
	}
	for _, name := range []string{"pull_request.draft", "pull_request.closed", "push.other_branch"} {
		if code, a := e.send(name, "d-"+name); code != http.StatusOK || a.Status != "ignored" {
			t.Errorf("%s: %d %+v, want ignored", name, code, a)
		}
	}
	if n, _ := e.bot.queue.Depth(context.Background()); n != 0 {
		t.Errorf("%d jobs queued by refused or ignored webhooks", n)
	}
}

func TestNoSecretNoStart(t *testing.T) {
	e := newEnv(t)
	e.cfg.GitHub.WebhookSecret = nil
	store, q, sched := openStores(t, e.dbPath)
	if _, err := New(e.cfg, Options{Store: store, Queue: q, Schedules: sched, GitHub: &ghapi.Factory{}, Solver: newZ3}); err == nil || !strings.Contains(err.Error(), "webhook secret") {
		t.Errorf("New without a secret: %v", err)
	}
}

// TestRestartFinishesQueuedJobs: jobs written by a server that stops before
// running them are run by the next one.
func TestRestartFinishesQueuedJobs(t *testing.T) {
	e := newEnv(t)
	e.open() // no workers
	if code, _ := e.send("pull_request.opened", "d-r1"); code != http.StatusAccepted {
		t.Fatalf("opened: %d", code)
	}
	if code, _ := e.send("push.default_branch", "d-r2"); code != http.StatusAccepted {
		t.Fatalf("push: %d", code)
	}
	e.close()
	if len(e.gh.commentsOf(7)) != 0 {
		t.Fatal("a job ran without workers")
	}
	e.start()
	e.idle()
	if n := len(e.gh.commentsOf(7)); n != 1 {
		t.Errorf("after the restart: %d comments, want 1", n)
	}
	if n := len(e.jobs(queue.Done)); n != 2 {
		t.Errorf("%d jobs done, want 2", n)
	}
	var blobs int
	if err := e.store.QueryRow(context.Background(), "SELECT count(*) FROM blobs").Scan(&blobs); err != nil || blobs == 0 {
		t.Errorf("the push did not warm the cache: %d entries, %v", blobs, err)
	}
}

// TestNewerHeadCancelsOlderRun: a synchronize while the opened run is
// analysing stops it; the older commit's result is never posted.
func TestNewerHeadCancelsOlderRun(t *testing.T) {
	e := newEnv(t)
	entered, release := e.blockFirstSolver()
	e.start()
	e.send("pull_request.opened", "d-s1")
	<-entered
	e.send("pull_request.synchronize", "d-s2")
	close(release)
	e.idle()
	if n := len(e.jobs(queue.Cancelled)); n != 1 {
		t.Errorf("%d jobs cancelled, want the older one", n)
	}
	comments := e.gh.commentsOf(7)
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "blocked") {
		t.Fatalf("comments %+v; want one, with the newer head's result", comments)
	}
	if n := len(e.gh.callsMatching("POST /repos/octo/triangle/issues/7/comments")); n != 1 {
		t.Errorf("%d comments posted; the older run must post none", n)
	}
	older := e.gh.runsFor(c2)
	if len(older) != 1 || older[0].Conclusion != "cancelled" {
		t.Errorf("the older head's check run: %+v, want cancelled", older)
	}
}

func TestCommands(t *testing.T) {
	e := newEnv(t)
	e.gh.permissions["dana"] = "maintain"
	e.gh.addPR(7, "master", c1, c3)
	e.start()
	e.send("issue_comment.rerun", "d-c1")
	e.idle()
	if got := e.gh.reactions[555]; len(got) != 1 || got[0] != "+1" {
		t.Errorf("reactions to /setbot rerun: %v", got)
	}
	if runs := e.gh.runsFor(c3); len(runs) != 1 || runs[0].Conclusion != "failure" {
		t.Errorf("/setbot rerun: check runs %+v", runs)
	}
	e.send("issue_comment.full", "d-c1f")
	e.idle()
	if got := e.gh.reactions[558]; len(got) != 1 || got[0] != "+1" {
		t.Errorf("reactions to /setbot full: %v", got)
	}
	if cs := e.gh.commentsOf(7); len(cs) != 1 || !strings.Contains(cs[0].Body, "**Strategy:** `full`") {
		t.Errorf("/setbot full did not analyse from scratch with a full run: %+v", cs)
	}
	e.send("issue_comment.full_by_reader", "d-c2")
	e.idle()
	if got := e.gh.reactions[556]; len(got) != 1 || got[0] != "confused" {
		t.Errorf("reactions to a reader's /setbot full: %v", got)
	}
	if n := len(e.gh.runsFor(c3)); n != 2 {
		t.Errorf("a reader's command ran an analysis: %d check runs, want the rerun's and the full's", n)
	}
	e.send("issue_comment.help", "d-c3")
	e.idle()
	var help bool
	for _, c := range e.gh.commentsOf(7) {
		if strings.Contains(c.Body, "/setbot full") && !strings.Contains(c.Body, report.Marker) {
			help = true
		}
	}
	if !help {
		t.Errorf("no help comment: %+v", e.gh.commentsOf(7))
	}
}

func TestMergeGroupAndRetries(t *testing.T) {
	e := newEnv(t)
	e.gh.fail["POST /repos/octo/triangle/check-runs"] = 1 // one 502, then fine
	e.start()
	if code, _ := e.send("merge_group.checks_requested", "d-m1"); code != http.StatusAccepted {
		t.Fatalf("merge_group: %d", code)
	}
	e.idle()
	runs := e.gh.runsFor(c2)
	if len(runs) != 1 || runs[0].Conclusion != "success" {
		t.Errorf("merge group check runs: %+v", runs)
	}
	if n := len(e.gh.callsMatching("POST /repos/octo/triangle/issues/")); n != 0 {
		t.Errorf("a merge group posted %d comments", n)
	}
	if n := len(e.gh.callsMatching("POST /repos/octo/triangle/check-runs")); n != 2 {
		t.Errorf("%d check-run creations, want the failed one and its retry", n)
	}
	resp, err := http.Get(e.http.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	metrics, _ := io.ReadAll(resp.Body)
	for _, want := range []string{`setbot_github_api_errors_total{event="retry"} 1`, `setbot_analysis_seconds_count{strategy="mse"} 1`, "setbot_github_rate_remaining 4321"} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func TestScheduledFullReanalysis(t *testing.T) {
	e := newEnv(t)
	// No branch: the default branch, asked of GitHub when the schedule fires.
	e.cfg.Schedules = []config.Schedule{{Repo: "octo/triangle", Cron: "@every 1s", CloneURL: cloneURL, InstallationID: 77}}
	e.start()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if runs := e.gh.runsFor(c1); len(runs) > 0 {
			r := runs[0]
			if r.Name != fullCheckName || r.Conclusion != "success" || !strings.Contains(r.Summary, modelPath) {
				t.Errorf("full re-analysis check run: %+v", r)
			}
			// Nothing was cached: there was nothing to agree with.
			if want := "1 model re-analysed from scratch: 1 not cached before, nothing to compare (stored now)"; r.Title != want {
				t.Errorf("title %q, want %q", r.Title, want)
			}
			for !strings.Contains(e.logs.String(), "full re-analysis done") {
				time.Sleep(10 * time.Millisecond)
			}
			if !hasLogLine(e.logs.String(), `"msg":"full re-analysis done"`, `"sha":"`+c1+`"`) {
				t.Errorf("the full re-analysis's log lines lack its commit:\n%s", e.logs.String())
			}
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no full re-analysis within 60 s\n%s", e.logs.String())
}

// TestBurst: 200 webhooks at once, all accepted and all processed, with
// memory bounded.
func TestBurst(t *testing.T) {
	if testing.Short() {
		t.Skip("burst")
	}
	e := newEnv(t)
	e.start()
	start := time.Now()
	defer func() { t.Logf("accepted and processed in %s", time.Since(start).Round(time.Millisecond)) }()
	tmpl, _ := fixture(t, "pull_request.opened")
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan string, n)
	sem := make(chan struct{}, 20)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			pr := 100 + i
			body := bytes.ReplaceAll(tmpl, []byte(`"number": 7`), []byte(fmt.Sprintf(`"number": %d`, pr)))
			if code, a := e.post("pull_request", fmt.Sprintf("burst-%d", i), body, Sign([]byte(testSecret), body)); code != http.StatusAccepted {
				errs <- fmt.Sprintf("webhook %d: %d %+v", i, code, a)
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	e.idle()
	if done := len(e.jobs(queue.Done)); done != n {
		t.Errorf("%d of %d jobs done (failed: %d)", done, n, len(e.jobs(queue.Failed)))
	}
	for i := 0; i < n; i++ {
		if got := len(e.gh.commentsOf(100 + i)); got != 1 {
			t.Fatalf("pull request %d has %d comments", 100+i, got)
		}
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > 512<<20 {
		t.Errorf("heap %d MiB after the burst", ms.HeapAlloc>>20)
	}
	t.Logf("%d webhooks: %d jobs done, heap %d MiB after, %d MiB at most from the OS", n, len(e.jobs(queue.Done)), ms.HeapAlloc>>20, ms.Sys>>20)
}

func TestServeEndpointsAndShutdown(t *testing.T) {
	e := newEnv(t)
	e.open()
	defer e.close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- e.bot.Serve(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("/healthz"); code != 200 {
		t.Errorf("/healthz: %d", code)
	}
	if code, body := get("/readyz"); code != 200 {
		t.Errorf("/readyz: %d %s", code, body)
	}
	body, sig := fixture(t, "push.default_branch")
	req, _ := http.NewRequest("POST", base+"/webhook", bytes.NewReader(body))
	req.Header.Set("X-GitHub-Event", "push")
	req.Header.Set("X-GitHub-Delivery", "d-serve")
	req.Header.Set("X-Hub-Signature-256", sig)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("webhook through Serve: %v %v", resp, err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for len(e.jobs(queue.Done)) == 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	code, metrics := get("/metrics")
	for _, want := range []string{"setbot_queue_depth", "setbot_job_age_seconds", "setbot_webhooks_total{event=\"push\",outcome=\"queued\"} 1",
		"setbot_jobs_total{kind=\"push\",outcome=\"done\"} 1", "setbot_github_rate_remaining"} {
		if code != 200 || !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after the shutdown signal")
	}
	if code, _ := get("/healthz"); code != 0 {
		t.Errorf("still serving after shutdown: %d", code)
	}
	if !strings.Contains(e.logs.String(), `"delivery":"d-serve"`) || !strings.Contains(e.logs.String(), `"repo":"octo/triangle"`) {
		t.Errorf("logs lack the delivery and repo keys:\n%s", e.logs.String())
	}
}

// TestPlainTokenStatuses: with a plain token GitHub refuses check runs, so
// the gate is a commit status "setbot" (pending, then the conclusion).
func TestPlainTokenStatuses(t *testing.T) {
	e := newEnv(t)
	e.cfg.GitHub.AppID, e.cfg.GitHub.PrivateKey, e.cfg.GitHub.Token = 0, nil, "test-token"
	e.start()
	e.send("pull_request.synchronize", "d-t1")
	e.idle()
	if n := len(e.gh.callsMatching("POST /repos/octo/triangle/check-runs")); n != 0 {
		t.Errorf("%d check runs created with a plain token", n)
	}
	e.gh.mu.Lock()
	sts := e.gh.statuses[c3]
	e.gh.mu.Unlock()
	if len(sts) != 2 || sts[0]["state"] != "pending" || sts[1]["state"] != "failure" || sts[1]["context"] != "setbot" {
		t.Errorf("statuses on the head: %v", sts)
	}
	if n := len(e.gh.commentsOf(7)); n != 1 {
		t.Errorf("%d comments, want 1", n)
	}
}

// TestJobTimeout: a job past job_timeout completes its check as timed out.
func TestJobTimeout(t *testing.T) {
	e := newEnv(t)
	e.cfg.JobTimeout = 300 * time.Millisecond
	entered, release := e.blockFirstSolver()
	e.start()
	e.send("pull_request.synchronize", "d-to")
	<-entered
	// The job's clock started before it asked for a solver: twice the
	// timeout from here is past it, however loaded the machine.
	time.Sleep(2 * e.cfg.JobTimeout)
	close(release)
	e.idle()
	runs := e.gh.runsFor(c3)
	if len(runs) != 1 || runs[0].Conclusion != "timed_out" || runs[0].Status != "completed" {
		t.Errorf("check runs after a timeout: %+v", runs)
	}
	if n := len(e.jobs(queue.Failed)); n != 1 {
		t.Errorf("%d jobs failed, want the timed-out one", n)
	}
}

// TestOutOfOrderDeliveries: the older commit's event arrives last; the
// comment keeps the pull request's current head's report, and each commit
// gets its own check.
func TestOutOfOrderDeliveries(t *testing.T) {
	e := newEnv(t)
	e.start()
	e.send("pull_request.synchronize", "d-o1") // the pull request is at c3
	e.idle()
	e.frozenPR = true
	e.send("pull_request.opened", "d-o2") // c2's event, delivered late
	e.idle()
	comments := e.gh.commentsOf(7)
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "blocked") {
		t.Fatalf("the comment was overwritten by the older commit's report: %+v", comments)
	}
	if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Conclusion != "success" {
		t.Errorf("the older commit's own check: %+v", runs)
	}
	// Whatever the late job superseded, the current head ends analysed.
	runs := e.gh.runsFor(c3)
	if len(runs) == 0 || runs[len(runs)-1].Conclusion != "failure" {
		t.Errorf("the current head's checks: %+v; want its analysis last", runs)
	}
}

// TestCommentFailureKeepsTheGate: when the comment cannot be posted, the
// check still carries the gate's verdict (a missing permission must not
// fail a required check), and the job is marked failed. (A GitHub outage
// queues the job again: TestServerErrorsRequeue.)
func TestCommentFailureKeepsTheGate(t *testing.T) {
	e := newEnv(t)
	e.gh.forbid["POST /repos/octo/triangle/issues/7/comments"] = true
	e.start()
	e.send("pull_request.opened", "d-f1")
	e.idle()
	runs := e.gh.runsFor(c2)
	if len(runs) != 1 || runs[0].Status != "completed" || runs[0].Conclusion != "success" {
		t.Errorf("check run after a failed comment: %+v", runs)
	}
	failed := e.jobs(queue.Failed)
	if len(failed) != 1 || !strings.Contains(failed[0].Error, "the comment is not") {
		t.Errorf("failed jobs %+v, want the one whose comment failed", failed)
	}
}

// TestPastedMarker: a person's comment that starts with setbot's marker is
// not setbot's comment; it is left alone.
func TestPastedMarker(t *testing.T) {
	e := newEnv(t)
	e.gh.addComment(7, "mallory", report.Marker+" look, I am the report")
	e.start()
	e.send("pull_request.opened", "d-p1")
	e.idle()
	comments := e.gh.commentsOf(7)
	if len(comments) != 2 || comments[0].Body != report.Marker+" look, I am the report" || comments[1].Type != "Bot" {
		t.Errorf("comments %+v; want mallory's untouched and setbot's own", comments)
	}
}

// interrupt starts a pull-request job and stops the server while it runs:
// the job stays running in the database with its check run open.
func interrupt(t *testing.T, e *env) {
	t.Helper()
	e.cfg.ShutdownTimeout = 100 * time.Millisecond
	entered, release := e.blockFirstSolver()
	e.start()
	e.send("pull_request.opened", "d-i1")
	<-entered
	// Let the job go only once the shutdown has given up waiting for it.
	go func() {
		for !strings.Contains(e.logs.String(), "shutdown timeout") {
			time.Sleep(10 * time.Millisecond)
		}
		close(release)
	}()
	e.close()
	if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Status != "in_progress" {
		t.Fatalf("after the interruption: %+v, want one check run in progress", runs)
	}
	e.solver = newZ3
}

// TestInterruptedJobReusesItsCheck: a job stopped by a shutdown runs again
// at the next start and completes the check run it had opened.
func TestInterruptedJobReusesItsCheck(t *testing.T) {
	e := newEnv(t)
	interrupt(t, e)
	e.start()
	e.idle()
	runs := e.gh.runsFor(c2)
	if len(runs) != 1 || runs[0].Status != "completed" || runs[0].Conclusion != "success" {
		t.Errorf("check runs after the restart: %+v, want the same one completed", runs)
	}
	if n := len(e.gh.callsMatching("POST /repos/octo/triangle/check-runs")); n != 1 {
		t.Errorf("%d check runs created, want 1", n)
	}
}

// TestAbandonedJobClosesItsCheck: a job whose analysis killed the server
// twice, the second time alone, is given up, and its check is closed with
// a message that says so rather than left in progress.
func TestAbandonedJobClosesItsCheck(t *testing.T) {
	e := newEnv(t)
	interrupt(t, e)
	store, err := cache.Open(e.dbPath, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	q, err := queue.Open(context.Background(), store)
	if err != nil {
		t.Fatal(err)
	}
	// Processes that died running it, MaxCrashes times: the next start
	// gives up on it.
	for crashes := 0; crashes < queue.MaxCrashes; crashes++ {
		if _, err := q.Recover(context.Background()); err != nil {
			t.Fatal(err)
		}
		j, err := q.Claim(context.Background())
		if err != nil || j == nil {
			t.Fatalf("claiming the interrupted job: %v, %v", j, err)
		}
	}
	store.Close()
	e.start()
	e.idle()
	// The sweep runs beside the workers: wait for it.
	var runs []fakeCheckRun
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if runs = e.gh.runsFor(c2); len(runs) == 1 && runs[0].Status == "completed" {
			break
		}
	}
	if len(runs) != 1 || runs[0].Status != "completed" || runs[0].Conclusion != "failure" || !strings.Contains(runs[0].Summary, "crashed the server twice") {
		t.Errorf("check runs of an abandoned job: %+v", runs)
	}
	if n := len(e.jobs(queue.Failed)); n != 1 {
		t.Errorf("%d jobs failed, want the abandoned one", n)
	}
}

// commitOnMaster adds a commit to the remote's master with files changed
// and returns its SHA.
func (e *env) commitOnMaster(files map[string]string) string {
	e.t.Helper()
	r, err := git.PlainOpen(e.remote)
	if err != nil {
		e.t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := wt.Checkout(&git.CheckoutOptions{Branch: "refs/heads/master", Force: true}); err != nil {
		e.t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(e.remote, name), []byte(data), 0o644); err != nil {
			e.t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			e.t.Fatal(err)
		}
	}
	sig := &object.Signature{Name: "t", Email: "t@example.com", When: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)}
	h, err := wt.Commit("configure", &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		e.t.Fatal(err)
	}
	return h.String()
}

// TestRepositorySchedule: a repository's own `schedule:` on its default
// branch, learnt from a push, runs the full re-analysis, and still does
// after a restart.
func TestRepositorySchedule(t *testing.T) {
	e := newEnv(t)
	head := e.commitOnMaster(map[string]string{".setbot.yml": "models: [\"models/**/*.scxml\"]\nbounds: {depth: 8}\nschedule: \"@every 1s\"\n"})
	e.start()
	body := []byte(fmt.Sprintf(`{"ref":"refs/heads/master","before":%q,"after":%q,"repository":{"full_name":"octo/triangle","clone_url":%q,"default_branch":"master"},"installation":{"id":77},"sender":{"login":"dana"}}`, c1, head, cloneURL))
	if code, a := e.post("push", "d-rs", body, Sign([]byte(testSecret), body)); code != http.StatusAccepted {
		t.Fatalf("push: %d %+v", code, a)
	}
	waitFullRun := func(after int) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if runs := e.gh.runsFor(head); len(runs) > after {
				if runs[after].Name != fullCheckName || runs[after].Conclusion != "success" {
					t.Fatalf("full re-analysis: %+v", runs[after])
				}
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("no scheduled re-analysis within 30 s\n%s", e.logs.String())
	}
	waitFullRun(0)
	e.close()
	n := len(e.gh.runsFor(head))
	mark := len(e.logs.String())
	e.start()
	waitFullRun(n)
	if after := e.logs.String()[mark:]; !strings.Contains(after, "scheduled re-analysis queued") {
		t.Errorf("the restarted server did not fire the remembered schedule:\n%s", after)
	}
}

// blockFirstSolver makes the first solver the bot asks for wait: entered
// is closed when a job gets there, and the job goes on when release is.
func (e *env) blockFirstSolver() (entered, release chan struct{}) {
	entered, release = make(chan struct{}), make(chan struct{})
	var once sync.Once
	e.inline = true
	e.solver = func(tab *solver.Table) (solver.Solver, error) {
		once.Do(func() { close(entered); <-release })
		return newZ3(tab)
	}
	return entered, release
}

// TestNewsFromOtherServers: what other servers sharing the queue report
// (the queue.Events the PostgreSQL backend's Watch passes on) stops this
// server's runs. A newer job of the pull request queued elsewhere
// supersedes the run; a job another server took over is dropped here,
// neither finished nor published.
func TestNewsFromOtherServers(t *testing.T) {
	t.Run("superseded", func(t *testing.T) {
		e := newEnv(t)
		entered, release := e.blockFirstSolver()
		e.start()
		e.send("pull_request.opened", "d-n1")
		<-entered
		id := e.jobs(queue.Running)[0].ID
		// Another pull request's job, and no newer one, stop nothing.
		e.bot.queueEvent(queue.Event{Key: "octo/triangle#8", ID: id + 10})
		e.bot.queueEvent(queue.Event{Key: "octo/triangle#7", ID: id})
		e.bot.queueEvent(queue.Event{Key: "octo/triangle#7", ID: id + 1})
		close(release)
		e.idle()
		if got := e.jobs(queue.Cancelled); len(got) != 1 || got[0].ID != id || got[0].Error != errSuperseded.Error() {
			t.Errorf("cancelled jobs %+v; want job %d, superseded", got, id)
		}
		if n := len(e.gh.commentsOf(7)); n != 0 {
			t.Errorf("%d comments posted by a superseded run", n)
		}
	})
	t.Run("taken over", func(t *testing.T) {
		e := newEnv(t)
		entered, release := e.blockFirstSolver()
		e.start()
		e.send("pull_request.opened", "d-n1")
		<-entered
		id := e.jobs(queue.Running)[0].ID
		e.bot.queueEvent(queue.Event{Lost: id + 1})
		e.bot.queueEvent(queue.Event{Lost: id})
		close(release)
		for deadline := time.Now().Add(30 * time.Second); !strings.Contains(e.logs.String(), "job taken over by another server"); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the run of a job taken over did not stop")
			}
		}
		if got := e.jobs(queue.Running); len(got) != 1 || got[0].ID != id {
			t.Errorf("running jobs %+v; the job is the other server's to finish", got)
		}
		if n := len(e.gh.commentsOf(7)); n != 0 {
			t.Errorf("%d comments posted by a run taken over", n)
		}
	})
}

// TestScheduleLearntElsewhere: a repository's schedule that another server
// sharing the database learnt (or dropped) is run (or stopped) here once
// the schedules are read again.
func TestScheduleLearntElsewhere(t *testing.T) {
	e := newEnv(t)
	e.start()
	for started := false; !started; time.Sleep(10 * time.Millisecond) {
		e.bot.mu.Lock()
		started = e.bot.sched != nil
		e.bot.mu.Unlock()
	}
	ctx := context.Background()
	entry := schedule.Entry{Repo: "octo/triangle", Branch: "master", Spec: "@every 1s", Installation: 77, CloneURL: cloneURL}
	if err := e.bot.schedules.Set(ctx, entry); err != nil {
		t.Fatal(err)
	}
	e.bot.syncSchedules(ctx)
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(e.logs.String(), "scheduled re-analysis queued"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the schedule learnt elsewhere never fired\n%s", e.logs.String())
		}
	}
	if err := e.bot.schedules.Set(ctx, schedule.Entry{Repo: entry.Repo, Branch: entry.Branch}); err != nil {
		t.Fatal(err)
	}
	e.bot.syncSchedules(ctx)
	e.bot.sched.mu.Lock()
	left := len(e.bot.sched.repo)
	e.bot.sched.mu.Unlock()
	if left != 0 || !strings.Contains(e.logs.String(), `"msg":"repositories' schedules read again","changed":1`) {
		t.Errorf("%d repository schedules still run after another server dropped it", left)
	}
}
