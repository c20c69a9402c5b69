package server

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/jackc/pgx/v5"

	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/internal/demo"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
)

// replicaEnv, set to a configuration file, makes the test binary a replica:
// it runs what `setbot serve --config FILE` runs once it has read FILE.
const replicaEnv = "SETBOT_REPLICA_CONFIG"

// replicaMain is a replica's main: it serves until SIGTERM or SIGINT.
func replicaMain() int {
	// The test's own variable is not the server's (whose SETBOT_* it would be).
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, replicaEnv+"=") })
	cfg, err := config.LoadServer(os.Getenv(replicaEnv), env)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A replica outlives no test: when the test binary is gone (killed by
	// a timeout, say), it is reparented, and exits.
	go func(parent int) {
		for range time.Tick(200 * time.Millisecond) {
			if os.Getppid() != parent {
				os.Exit(3)
			}
		}
	}(os.Getppid())
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// Each replica runs its analyses in child processes, as `setbot serve`
	// does: the test binary again, which TestMain sends to analysis.Main.
	// The children open the replicas' PostgreSQL database too.
	err = Run(ctx, cfg, Options{Solver: newZ3, LogOut: os.Stderr, Analyzer: &analysis.Command{Path: exe, Env: []string{childEnv + "=1"}}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// childEnv marks the child process of a replica's analysis.
const childEnv = "SERVER_TEST_ANALYSIS_CHILD"

func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

const (
	replicaSecret = "replicas-secret"
	replicaRepo   = "octo/triangle"
	installation  = 77
)

// TestReplicas: three `setbot serve` replicas on one PostgreSQL, behind one
// webhook URL, receive a burst of 200 deliveries (40 pull requests, each
// pushed to five times) while one of them is SIGKILLed in the middle of a
// job. Every pull request ends with exactly one comment, which shows its
// newest head, no check run is left in progress, no job is left queued or
// running, and a schedule every replica runs is queued once per tick.
func TestReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("replicas")
	}
	start := time.Now()
	dbURL := postgresURL(t)
	dir := t.TempDir()
	remote, base, heads := replicaRemote(t, filepath.Join(dir, "remote"), 5)
	gh := newReplicaGitHub(base, "file://"+remote)
	gh.slowSHA = heads[len(heads)-1]
	defer gh.srv.Close()

	keyFile := filepath.Join(dir, "app.pem")
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}), 0o600); err != nil {
		t.Fatal(err)
	}
	const n = 3
	var replicas []*replica
	for i := range n {
		r := startReplica(t, dir, i, dbURL, gh.srv.URL, keyFile, "file://"+remote)
		replicas = append(replicas, r)
	}
	for _, r := range replicas {
		r.waitReady(t)
	}
	ready := time.Now()
	t.Logf("%d replicas ready after %s", n, ready.Sub(start).Round(time.Millisecond))

	db, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close(ctx)
	// A tick of the schedule with the three replicas up, before the burst.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var n int
		if err := db.QueryRow(ctx, "SELECT count(*) FROM jobs WHERE requester = 'schedule' AND created > $1", ready.Add(time.Second).UnixNano()).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no scheduled tick queued with the three replicas up")
		}
	}

	// The burst: round by round, every pull request gets its next head;
	// deliveries go to the replicas in turn, and to the next one when a
	// replica does not answer (as a load balancer does).
	const prs, rounds = 40, 5
	var (
		sent     atomic.Int64
		killed   atomic.Bool
		killedAt atomic.Int64 // unix nanoseconds
		held     []int64      // the newest heads' jobs the victim ran when killed
		wg       sync.WaitGroup
	)
	victim := replicas[0]
	killDone := make(chan struct{})
	go func() {
		defer close(killDone)
		// In the last round of the burst, once the victim runs a job of a
		// newest head: no newer job supersedes it, so another replica must
		// take it over when its lease expires.
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if sent.Load() < prs*(rounds-1) {
				continue
			}
			var running int
			if err := db.QueryRow(ctx, "SELECT count(*) FROM jobs WHERE state = 'running' AND lease_owner LIKE $1 AND head_sha = $2",
				"%/"+strconv.Itoa(victim.cmd.Process.Pid)+"/%", heads[rounds-1]).Scan(&running); err != nil {
				t.Error(err)
				return
			}
			if running > 0 {
				killedAt.Store(time.Now().UnixNano())
				victim.kill(t)
				killed.Store(true)
				// What it held when it died, as the database says: nothing of
				// it can change any more but by another replica.
				rows, err := db.Query(ctx, "SELECT id FROM jobs WHERE state = 'running' AND lease_owner LIKE $1 AND head_sha = $2",
					"%/"+strconv.Itoa(victim.cmd.Process.Pid)+"/%", heads[rounds-1])
				if err == nil {
					held, err = pgx.CollectRows(rows, pgx.RowTo[int64])
				}
				if err != nil {
					t.Error(err)
				}
				t.Logf("replica 0 SIGKILLed running jobs %v of newest heads, %d of %d deliveries sent", held, sent.Load(), prs*rounds)
				return
			}
		}
		t.Error("replica 0 never ran a job during the burst")
	}()
	sem := make(chan struct{}, 16)
	for round := range rounds {
		for pr := 1; pr <= prs; pr++ {
			if round == rounds-1 && pr == prs/2+1 {
				// The rest of the burst comes after the kill.
				wg.Wait()
				<-killDone
			}
			gh.setHead(pr, heads[round])
			wg.Add(1)
			sem <- struct{}{}
			go func(pr, round int) {
				defer wg.Done()
				defer func() { <-sem }()
				body := prPayload(pr, base, heads[round], "file://"+remote)
				delivery := fmt.Sprintf("burst-%d-%d", pr, round)
				i := int(sent.Add(1))
				if err := deliver(replicas, i, delivery, body); err != nil {
					t.Error(err)
				}
			}(pr, round)
		}
		wg.Wait() // a pull request's pushes come in order
	}
	<-killDone
	if !killed.Load() {
		t.FailNow()
	}
	t.Logf("%d deliveries accepted after %s", prs*rounds, time.Since(start).Round(time.Millisecond))

	// Everything settles: the victim's jobs are taken over when their
	// lease expires, and the sweeps close what no job will.
	var problems []string
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(250 * time.Millisecond) {
		problems = gh.problems(prs, heads[rounds-1])
		var pending int
		if err := db.QueryRow(ctx, "SELECT count(*) FROM jobs WHERE state IN ('queued', 'running') AND requester <> 'schedule'").Scan(&pending); err != nil {
			t.Fatal(err)
		}
		if pending > 0 {
			problems = append(problems, fmt.Sprintf("%d jobs still queued or running", pending))
		}
		if len(problems) == 0 || time.Now().After(deadline) {
			break
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("settled after %s", time.Since(start).Round(time.Millisecond))

	// The newest heads' jobs the victim held are nobody's to supersede:
	// another replica took each over and finished it.
	if len(held) == 0 {
		t.Error("the victim held no job of a newest head when it died")
	}
	for _, id := range held {
		var (
			state    string
			attempts int
		)
		if err := db.QueryRow(ctx, "SELECT state, attempts FROM jobs WHERE id = $1", id).Scan(&state, &attempts); err != nil {
			t.Fatal(err)
		}
		if state != "done" || attempts != 2 {
			t.Errorf("job %d of the killed replica is %s after %d attempts; want done by another replica, at its second", id, state, attempts)
		}
	}
	var superseded int
	if err := db.QueryRow(ctx, "SELECT count(*) FROM jobs WHERE state = 'cancelled'").Scan(&superseded); err != nil {
		t.Fatal(err)
	}
	t.Logf("jobs of the killed replica taken over: %v; jobs superseded: %d", held, superseded)

	// The schedule: every replica fires every tick, and each tick is queued
	// once, under its own delivery; no tick is missing in between. Ticks
	// are waited for until there are several after the kill.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var after int
		if err := db.QueryRow(ctx, "SELECT count(*) FROM jobs WHERE requester = 'schedule' AND created > $1", killedAt.Load()).Scan(&after); err != nil {
			t.Fatal(err)
		}
		if after >= 3 || time.Now().After(deadline) {
			break
		}
	}
	rows, err := db.Query(ctx, "SELECT delivery FROM jobs WHERE requester = 'schedule' ORDER BY delivery")
	if err != nil {
		t.Fatal(err)
	}
	deliveries, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var ticks []time.Time
	for _, d := range deliveries {
		at, ok := strings.CutPrefix(d, "schedule:"+replicaRepo+"@master:")
		tick, err := time.Parse(time.RFC3339Nano, at)
		if !ok || err != nil {
			t.Fatalf("scheduled job with delivery %q", d)
		}
		ticks = append(ticks, tick)
	}
	if len(ticks) < 3 {
		t.Fatalf("%d scheduled ticks queued, want several", len(ticks))
	}
	for i := 1; i < len(ticks); i++ {
		if d := ticks[i].Sub(ticks[i-1]); d != 2*time.Second {
			t.Errorf("scheduled ticks %s and %s are %s apart, want 2s: a tick fired twice or was lost", ticks[i-1], ticks[i], d)
		}
	}
	// The survivors' metrics count the jobs they ended, and the shared
	// queue holds nothing but, at most, the schedule's latest tick.
	var done int
	for _, r := range replicas[1:] {
		depth := -1
		for _, line := range strings.Split(r.get(t, "/metrics"), "\n") {
			if v, ok := strings.CutPrefix(line, `setbot_jobs_total{kind="pull_request",outcome="done"} `); ok {
				k, _ := strconv.Atoi(v)
				done += k
			}
			if v, ok := strings.CutPrefix(line, "setbot_queue_depth "); ok {
				depth, _ = strconv.Atoi(v)
			}
		}
		if depth < 0 || depth > 1 {
			t.Errorf("replica %s reports a queue depth of %d, want 0 or 1", r.url, depth)
		}
	}
	if done == 0 {
		t.Error("the survivors' metrics count no pull request job done")
	}
	for _, r := range replicas[1:] {
		r.stop(t)
	}
	// Which replicas fired each tick, from their logs: the one that queued
	// it, and those that found it queued. The survivors ran on until they
	// were stopped, so ticks after the last the database was asked for
	// are left out.
	queuedBy, firedBy := map[string][]int{}, map[string][]int{}
	last := ticks[len(ticks)-1]
	for i, r := range replicas {
		for _, line := range strings.Split(r.logs(t), "\n") {
			var entry struct{ Msg, Delivery string }
			if json.Unmarshal([]byte(line), &entry) != nil {
				continue
			}
			at, _ := strings.CutPrefix(entry.Delivery, "schedule:"+replicaRepo+"@master:")
			if tick, err := time.Parse(time.RFC3339Nano, at); err == nil && tick.After(last) {
				continue
			}
			switch entry.Msg {
			case "scheduled re-analysis queued":
				queuedBy[entry.Delivery] = append(queuedBy[entry.Delivery], i)
				firedBy[entry.Delivery] = append(firedBy[entry.Delivery], i)
			case "scheduled re-analysis already queued by another server":
				firedBy[entry.Delivery] = append(firedBy[entry.Delivery], i)
			}
		}
	}
	if len(queuedBy) != len(deliveries) {
		t.Errorf("the replicas logged %d ticks queued, the database holds %d", len(queuedBy), len(deliveries))
	}
	for k, d := range deliveries {
		fired := firedBy[d]
		slices.Sort(fired)
		switch {
		case len(queuedBy[d]) != 1:
			t.Errorf("tick %s queued by replicas %v, want one", d, queuedBy[d])
		case ticks[k].After(time.Unix(0, killedAt.Load())) && !slices.Equal(fired, []int{1, 2}):
			t.Errorf("tick %s after the kill fired by replicas %v, want both survivors", d, fired)
		case ticks[k].After(ready) && ticks[k].Before(time.Unix(0, killedAt.Load()).Add(-time.Second)) && len(fired) != 3:
			t.Errorf("tick %s before the kill fired by replicas %v, want all three", d, fired)
		}
	}
	t.Logf("%d ticks, each queued once: %v", len(ticks), firedBy)

	if t.Failed() {
		for i, r := range replicas {
			t.Logf("replica %d log (tail):\n%s", i, tail(r.logs(t), 40))
		}
	}
	t.Logf("TestReplicas took %s", time.Since(start).Round(time.Millisecond))
}

// replica is a `setbot serve` process.
type replica struct {
	cmd     *exec.Cmd
	url     string
	logFile string
	done    chan struct{}
}

func startReplica(t *testing.T, dir string, i int, dbURL, ghURL, keyFile, cloneURL string) *replica {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`listen: 127.0.0.1:%d
store: %q
clone_dir: %s
workers: 2
job_timeout: 2m
shutdown_timeout: 5s
job_lease: 2s
sweep_interval: 1s
log_level: debug
github:
  base_url: %s/api/v3/
  app_id: 1
  private_key_file: %s
  webhook_secret: %s
schedules:
  - {repo: %s, branch: master, cron: "@every 2s", installation_id: %d, clone_url: %q}
`, port, dbURL, filepath.Join(dir, fmt.Sprintf("repos-%d", i)), ghURL, keyFile, replicaSecret, replicaRepo, installation, cloneURL)
	cfgFile := filepath.Join(dir, fmt.Sprintf("replica-%d.yml", i))
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	r := &replica{url: fmt.Sprintf("http://127.0.0.1:%d", port), logFile: filepath.Join(dir, fmt.Sprintf("replica-%d.log", i)), done: make(chan struct{})}
	logOut, err := os.Create(r.logFile)
	if err != nil {
		t.Fatal(err)
	}
	r.cmd = exec.Command(os.Args[0], "-test.run=^$")
	r.cmd.Env = append(os.Environ(), replicaEnv+"="+cfgFile)
	r.cmd.Stdout, r.cmd.Stderr = logOut, logOut
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = r.cmd.Wait(); logOut.Close(); close(r.done) }()
	t.Cleanup(func() {
		_ = r.cmd.Process.Kill()
		<-r.done
	})
	return r
}

func (r *replica) waitReady(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		select {
		case <-r.done:
			t.Fatalf("replica exited at start:\n%s", r.logs(t))
		default:
		}
		if resp, err := http.Get(r.url + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
	}
	t.Fatalf("replica %s not ready:\n%s", r.url, r.logs(t))
}

// get returns the body of a GET of path, which must answer 200.
func (r *replica) get(t *testing.T, path string) string {
	t.Helper()
	resp, err := http.Get(r.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s%s: %s, %v", r.url, path, resp.Status, err)
	}
	return string(body)
}

func (r *replica) kill(t *testing.T) {
	if err := r.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Error(err)
	}
	<-r.done
}

// stop drains the replica with SIGTERM, as an orchestrator does.
func (r *replica) stop(t *testing.T) {
	if err := r.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Error(err)
	}
	select {
	case <-r.done:
	case <-time.After(30 * time.Second):
		t.Errorf("replica %s did not stop on SIGTERM", r.url)
	}
	if code := r.cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("replica %s exited %d after SIGTERM", r.url, code)
	}
}

func (r *replica) logs(t *testing.T) string {
	b, err := os.ReadFile(r.logFile)
	if err != nil {
		t.Error(err)
	}
	return string(b)
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// deliver posts a signed pull_request delivery to the replica i picks, and
// to the next ones while a replica does not answer or refuses it.
func deliver(replicas []*replica, i int, delivery string, body []byte) error {
	mac := hmac.New(sha256.New, []byte(replicaSecret))
	mac.Write(body)
	sig := "sha256=" + hex.EncodeToString(mac.Sum(nil))
	var last string
	for k := range len(replicas) * 2 {
		r := replicas[(i+k)%len(replicas)]
		req, err := http.NewRequest("POST", r.url+"/webhook", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("X-GitHub-Event", "pull_request")
		req.Header.Set("X-GitHub-Delivery", delivery)
		req.Header.Set("X-Hub-Signature-256", sig)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			last = err.Error()
			continue
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusOK {
			return nil
		}
		last = fmt.Sprintf("%s: %s", resp.Status, answer)
	}
	return fmt.Errorf("delivery %s accepted by no replica: %s", delivery, last)
}

func prPayload(pr int, base, head, cloneURL string) []byte {
	repo := map[string]any{"id": 4242, "name": "triangle", "full_name": replicaRepo, "owner": map[string]any{"login": "octo", "id": 1},
		"clone_url": cloneURL, "default_branch": "master"}
	body, _ := json.Marshal(map[string]any{
		"action": "synchronize", "number": pr,
		"pull_request": map[string]any{"number": pr, "state": "open", "draft": false,
			"base": map[string]any{"ref": "master", "sha": base, "repo": repo},
			"head": map[string]any{"ref": "feature", "sha": head, "repo": repo}},
		"repository": repo, "installation": map[string]any{"id": installation}, "sender": map[string]any{"login": "dana"},
	})
	return body
}

// replicaRemote builds the demo repository with k more commits on top of
// its last, on branch feature (each a distinct head that changes the
// model as the demo's last commit does), and master at the demo's second
// commit, the base of the pull requests.
func replicaRemote(t *testing.T, dir string, k int) (string, string, []string) {
	t.Helper()
	commits, err := demo.Build(dir)
	if err != nil {
		t.Fatal(err)
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for i := range k {
		if err := os.WriteFile(filepath.Join(dir, "NOTES"), []byte(fmt.Sprintf("push %d\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add("NOTES"); err != nil {
			t.Fatal(err)
		}
		sig := &object.Signature{Name: "dana", Email: "dana@example.com", When: time.Date(2026, 3, 1, i, 0, 0, 0, time.UTC)}
		h, err := wt.Commit(fmt.Sprintf("push %d", i), &git.CommitOptions{Author: sig, Committer: sig})
		if err != nil {
			t.Fatal(err)
		}
		heads = append(heads, h.String())
	}
	base := commits[1].SHA
	for name, sha := range map[string]string{"refs/heads/feature": heads[k-1], "refs/heads/master": base} {
		if err := repo.Storer.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(name), plumbing.NewHash(sha))); err != nil {
			t.Fatal(err)
		}
	}
	return dir, base, heads
}

// replicaGitHub stands in for the GitHub API of one App installation on
// one repository: pull requests, their comments and check runs.
type replicaGitHub struct {
	srv      *httptest.Server
	base     string
	cloneURL string
	// slowSHA's check runs take slowCreate to create: its jobs run long
	// enough to be caught running.
	slowSHA string

	mu         sync.Mutex
	heads      map[int]string
	comments   map[int][]*replicaComment
	checkRuns  map[int64]*replicaCheckRun
	nextID     int64
	unexpected []string
}

type replicaComment struct {
	id   int64
	body string
}

type replicaCheckRun struct {
	id            int64
	sha, status   string
	name, summary string
}

func newReplicaGitHub(base, cloneURL string) *replicaGitHub {
	g := &replicaGitHub{base: base, cloneURL: cloneURL, heads: map[int]string{}, comments: map[int][]*replicaComment{},
		checkRuns: map[int64]*replicaCheckRun{}, nextID: 1000}
	g.srv = httptest.NewServer(http.HandlerFunc(g.serve))
	return g
}

func (g *replicaGitHub) setHead(pr int, sha string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.heads[pr] = sha
}

// slowCreate is how long creating a check run of replicaGitHub.slowSHA takes.
const slowCreate = 300 * time.Millisecond

var (
	pullRoute        = regexp.MustCompile(`^/repos/octo/triangle/pulls/(\d+)$`)
	commentsRoute    = regexp.MustCompile(`^/repos/octo/triangle/issues/(\d+)/comments$`)
	commentRoute     = regexp.MustCompile(`^/repos/octo/triangle/issues/comments/(\d+)$`)
	checkRunRoute    = regexp.MustCompile(`^/repos/octo/triangle/check-runs/(\d+)$`)
	commitRunsRoute  = regexp.MustCompile(`^/repos/octo/triangle/commits/([0-9a-f]+)/check-runs$`)
	accessTokenRoute = regexp.MustCompile(`^/app/installations/\d+/access_tokens$`)
)

func (g *replicaGitHub) serve(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if data, _ := io.ReadAll(r.Body); len(data) > 0 {
		_ = json.Unmarshal(data, &body)
	}
	path := strings.TrimPrefix(r.URL.Path, "/api/v3")
	if g.slowSHA != "" && r.Method == "POST" && body["head_sha"] == g.slowSHA {
		time.Sleep(slowCreate)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-RateLimit-Limit", "5000")
	w.Header().Set("X-RateLimit-Remaining", "4999")
	w.Header().Set("X-RateLimit-Reset", "1999999999")
	reply := func(code int, v any) {
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(v)
	}
	pr := func(n int) map[string]any {
		return map[string]any{"number": n, "state": "open", "draft": false,
			"base": map[string]any{"ref": "master", "sha": g.base}, "head": map[string]any{"ref": "feature", "sha": g.heads[n]}}
	}
	route := r.Method + " " + path
	switch m := (func(re *regexp.Regexp) []string { return re.FindStringSubmatch(path) }); {
	case r.Method == "POST" && accessTokenRoute.MatchString(path):
		reply(201, map[string]any{"token": "replica-token", "expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
	case route == "GET /app/installations":
		reply(200, []map[string]any{{"id": installation}})
	case route == "GET /installation/repositories":
		reply(200, map[string]any{"total_count": 1, "repositories": []map[string]any{{"name": "triangle", "full_name": replicaRepo,
			"owner": map[string]any{"login": "octo"}, "clone_url": g.cloneURL}}})
	case route == "GET /repos/octo/triangle":
		reply(200, map[string]any{"full_name": replicaRepo, "default_branch": "master"})
	case route == "GET /repos/octo/triangle/git/ref/heads/master":
		reply(200, map[string]any{"ref": "refs/heads/master", "object": map[string]any{"sha": g.base, "type": "commit"}})
	case route == "GET /repos/octo/triangle/pulls":
		var out []map[string]any
		for _, n := range slices.Sorted(maps.Keys(g.heads)) {
			out = append(out, pr(n))
		}
		reply(200, out)
	case r.Method == "GET" && m(pullRoute) != nil:
		n, _ := strconv.Atoi(m(pullRoute)[1])
		reply(200, pr(n))
	case r.Method == "GET" && m(commentsRoute) != nil:
		n, _ := strconv.Atoi(m(commentsRoute)[1])
		out := []map[string]any{}
		for _, c := range g.comments[n] {
			out = append(out, map[string]any{"id": c.id, "body": c.body, "user": map[string]any{"login": "setbot[bot]", "type": "Bot"}})
		}
		reply(200, out)
	case r.Method == "POST" && m(commentsRoute) != nil:
		n, _ := strconv.Atoi(m(commentsRoute)[1])
		g.nextID++
		g.comments[n] = append(g.comments[n], &replicaComment{id: g.nextID, body: fmt.Sprint(body["body"])})
		reply(201, map[string]any{"id": g.nextID})
	case r.Method == "PATCH" && m(commentRoute) != nil:
		id, _ := strconv.ParseInt(m(commentRoute)[1], 10, 64)
		for _, cs := range g.comments {
			for _, c := range cs {
				if c.id == id {
					c.body = fmt.Sprint(body["body"])
					reply(200, map[string]any{"id": id})
					return
				}
			}
		}
		reply(404, map[string]any{"message": "Not Found"})
	case route == "POST /repos/octo/triangle/check-runs":
		g.nextID++
		run := &replicaCheckRun{id: g.nextID}
		g.checkRuns[run.id] = run
		run.update(body)
		reply(201, map[string]any{"id": run.id, "status": run.status})
	case r.Method == "PATCH" && m(checkRunRoute) != nil:
		id, _ := strconv.ParseInt(m(checkRunRoute)[1], 10, 64)
		run := g.checkRuns[id]
		if run == nil {
			reply(404, map[string]any{"message": "Not Found"})
			return
		}
		run.update(body)
		reply(200, map[string]any{"id": id, "status": run.status})
	case r.Method == "GET" && m(commitRunsRoute) != nil:
		sha, q := m(commitRunsRoute)[1], r.URL.Query()
		runs := []map[string]any{}
		for _, id := range slices.Sorted(maps.Keys(g.checkRuns)) {
			run := g.checkRuns[id]
			if run.sha == sha && (q.Get("check_name") == "" || run.name == q.Get("check_name")) && (q.Get("status") == "" || run.status == q.Get("status")) {
				runs = append(runs, map[string]any{"id": id, "name": run.name, "status": run.status, "head_sha": sha})
			}
		}
		reply(200, map[string]any{"total_count": len(runs), "check_runs": runs})
	default:
		g.unexpected = append(g.unexpected, route)
		reply(404, map[string]any{"message": "Not Found"})
	}
}

func (run *replicaCheckRun) update(body map[string]any) {
	if v, ok := body["name"].(string); ok {
		run.name = v
	}
	if v, ok := body["head_sha"].(string); ok {
		run.sha = v
	}
	if v, ok := body["status"].(string); ok {
		run.status = v
	}
	if out, ok := body["output"].(map[string]any); ok {
		if v, ok := out["summary"].(string); ok {
			run.summary = v
		}
	}
}

// problems lists what keeps the pull requests 1..prs from the end state:
// one comment each, showing head; no check run in progress; no request
// the fake did not expect.
func (g *replicaGitHub) problems(prs int, head string) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for pr := 1; pr <= prs; pr++ {
		cs := g.comments[pr]
		switch {
		case len(cs) != 1:
			out = append(out, fmt.Sprintf("pull request %d has %d comments, want 1", pr, len(cs)))
		case !strings.Contains(cs[0].body, head[:7]):
			out = append(out, fmt.Sprintf("the comment of pull request %d does not show the newest head %s:\n%s", pr, head[:7], cs[0].body))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(g.checkRuns)) {
		if run := g.checkRuns[id]; run.status != "completed" {
			out = append(out, fmt.Sprintf("check run %d (%s) on %s is %s", id, run.name, run.sha[:7], run.status))
		}
	}
	for _, u := range g.unexpected {
		out = append(out, "unexpected GitHub request "+u)
	}
	return out
}
