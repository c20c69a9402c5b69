package bot

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/solver"
)

// A process that dies in an analysis (a runtime fatal error, the kernel's
// out-of-memory killer) leaves its running jobs running in the queue,
// nothing of them recorded. A test cannot kill its own process, so it kills
// the analyses instead: the solver hook of a "dying" bot holds every
// analysis that reaches it until the test lets them go, and then ends
// their goroutines (runtime.Goexit) so that nothing is recorded either.
// The test then closes that bot and starts the next on the same database,
// as a restarted server would.

// crashJob is a job as the crash tests read it from the store.
type crashJob struct {
	State, Error      string
	Attempts, Crashes int
	CheckRun          int64
	CheckOpen         bool
}

func (e *env) crashJob(id int64) crashJob {
	e.t.Helper()
	var j crashJob
	if err := e.store.QueryRow(context.Background(), "SELECT state, error, attempts, crashes, check_run, check_open FROM jobs WHERE id = ?", id).
		Scan(&j.State, &j.Error, &j.Attempts, &j.Crashes, &j.CheckRun, &j.CheckOpen); err != nil {
		e.t.Fatal(err)
	}
	return j
}

// checkRun returns the fake's check run id.
func (f *fakeGitHub) checkRun(id int64) fakeCheckRun {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r := f.checkRuns[id]; r != nil {
		return *r
	}
	return fakeCheckRun{}
}

// dying makes the analyses that reach the solver and for which hold
// returns true wait, each sending on entered, until kill is closed; then
// their goroutines end with nothing recorded, as their process's death
// would leave them.
func (e *env) dying(hold func() bool) (entered chan struct{}, kill chan struct{}) {
	entered, kill = make(chan struct{}, 8), make(chan struct{})
	e.inline = true
	e.solver = func(tab *solver.Table) (solver.Solver, error) {
		if hold() {
			entered <- struct{}{}
			<-kill
			runtime.Goexit()
		}
		return newZ3(tab)
	}
	return entered, kill
}

// waitEntered waits (a bounded while) for an analysis to reach a dying
// bot's solver.
func (e *env) waitEntered(entered chan struct{}, what string) {
	e.t.Helper()
	select {
	case <-entered:
	case <-time.After(90 * time.Second):
		e.t.Fatalf("%s did not reach the solver within 90 s\n%s", what, e.logs.String())
	}
}

// TestCrashIsolation: two pull requests are analysed at once when the
// server dies. At the next start each runs again alone: the first ends
// well, and loses nothing; the second kills the server again, alone, and
// at the start after that it is failed with a check run that says it
// crashed the server twice, while a pull request that arrived meanwhile,
// held back while the suspect ran, is analysed normally.
func TestCrashIsolation(t *testing.T) {
	e := newEnv(t)
	e.sweep = 50 * time.Millisecond

	// The first server dies with both analyses running.
	entered, kill := e.dying(func() bool { return true })
	e.start()
	e.sendPR("pull_request.opened", 8, "d-8", "")      // head c2: innocent
	e.sendPR("pull_request.synchronize", 9, "d-9", "") // head c3: the culprit
	e.waitEntered(entered, "the first analysis")
	e.waitEntered(entered, "the second analysis")
	running := e.jobs(queue.Running)
	if len(running) != 2 {
		t.Fatalf("running jobs when the server dies: %+v, want both", running)
	}
	culprit, innocent := running[0].ID, running[1].ID // newest first
	close(kill)
	e.close()

	// The second server runs the suspects one at a time, oldest first: the
	// innocent one ends well; the culprit kills the server again, alone.
	var beside atomic.Int32 // the most jobs seen running at once by an analysis
	entered, kill = e.dying(func() bool {
		n := len(e.jobs(queue.Running))
		if int32(n) > beside.Load() {
			beside.Store(int32(n))
		}
		return e.crashJob(innocent).State == queue.Done
	})
	e.start()
	e.waitEntered(entered, "the culprit's run alone")
	if got := e.crashJob(innocent); got.State != queue.Done || got.Crashes != 1 || got.Attempts != 2 {
		t.Errorf("the innocent job after its run alone: %+v, want done at its second attempt", got)
	}
	if got := e.crashJob(culprit); got.State != queue.Running || got.Crashes != 1 {
		t.Errorf("the culprit: %+v, want running as a suspect", got)
	}
	// A pull request that arrives now waits: nothing runs beside a suspect.
	e.sendPR("pull_request.opened", 10, "d-10", "")
	later := e.jobs(queue.Queued)
	if len(later) != 1 {
		t.Fatalf("queued jobs: %+v, want the new pull request's", later)
	}
	for range 10 {
		time.Sleep(e.bot.poll) // each a chance for the idle worker to claim it
	}
	if got := e.crashJob(later[0].ID); got.State != queue.Queued {
		t.Errorf("a job started beside the suspect: %+v", got)
	}
	close(kill)
	e.close()
	if n := beside.Load(); n != 1 {
		t.Errorf("an analysis of a suspect saw %d jobs running, want it alone", n)
	}

	// The third server fails the culprit and analyses the new pull request.
	e.solver = newZ3
	e.start()
	e.idle()
	got := e.crashJob(culprit)
	if got.State != queue.Failed || got.Crashes != queue.MaxCrashes || !strings.HasPrefix(got.Error, "the analysis crashed the server twice; not retried") {
		t.Errorf("the culprit after its second crash: %+v", got)
	}
	var run fakeCheckRun
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if run = e.gh.checkRun(got.CheckRun); run.Status == "completed" {
			break
		}
	}
	if run.Status != "completed" || run.Conclusion != "failure" || run.Title != "The analysis crashed the server" ||
		!strings.Contains(run.Summary, "crashed the server twice; not retried") {
		t.Errorf("the culprit's check run: %+v", run)
	}
	for _, id := range []int64{innocent, later[0].ID} {
		j := e.crashJob(id)
		r := e.gh.checkRun(j.CheckRun)
		if j.State != queue.Done || r.Status != "completed" || r.Conclusion != "success" {
			t.Errorf("job %d: %+v, check run %+v; want done with a successful check", id, j, r)
		}
	}
	if got := e.crashJob(later[0].ID); got.Crashes != 0 || got.Attempts != 1 {
		t.Errorf("the job that waited: %+v, want one attempt and no crash", got)
	}
	for _, pr := range []int{8, 10} {
		if n := len(e.gh.commentsOf(pr)); n != 1 {
			t.Errorf("pull request %d has %d comments, want 1", pr, n)
		}
	}
}
