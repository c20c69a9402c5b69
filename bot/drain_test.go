package bot

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/bot/queue"
)

// TestDrainCutsRateLimitWait: a shutdown finds the job's check-run
// completion waiting a minute on GitHub's Retry-After (the call does not
// follow the job's cancellation, so that a check run is never left half
// written). With shutdown_timeout 1 s, Run returns long before the minute:
// the wait is cut, the job is queued again for the time GitHub named,
// without a crash or a failure, and the next server completes the check and
// posts the comment. The waits are real; the time Run took is printed, and
// the only bound checked is far below the minute.
func TestDrainCutsRateLimitWait(t *testing.T) {
	e := newEnv(t)
	e.realSleep = true
	clock := e.useFakeClock()
	e.cfg.ShutdownTimeout = time.Second
	const route = "PATCH /repos/octo/triangle/check-runs/"
	e.gh.limits[route] = limit{until: clock.Now().Add(time.Minute), status: http.StatusTooManyRequests,
		header: http.Header{"Retry-After": {"60"}}}
	e.start()
	e.send("pull_request.opened", "d-drain")
	for deadline := time.Now().Add(90 * time.Second); !strings.Contains(e.logs.String(), "GitHub rate limit hit; waiting"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the completion did not wait on the rate limit within 90 s\n%s", e.logs.String())
		}
	}
	start := time.Now()
	e.close()
	took := time.Since(start)
	t.Logf("Run returned %v after the shutdown began (shutdown_timeout 1 s, Retry-After 60 s)", took.Round(time.Millisecond))
	if took > 30*time.Second {
		t.Errorf("Run returned %v after the shutdown began: the wait on Retry-After was not cut", took)
	}

	e.start()
	jobs := e.jobs(queue.Queued)
	if len(jobs) != 1 {
		t.Fatalf("queued jobs after the shutdown: %+v, want the interrupted one", jobs)
	}
	j := e.crashJob(jobs[0].ID)
	if j.Crashes != 0 || j.Attempts != 1 || !strings.Contains(j.Error, "shutting down") {
		t.Errorf("the interrupted job: %+v, want queued again for later, no crash", j)
	}
	if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Status != "in_progress" {
		t.Fatalf("check runs while the job waits: %+v", runs)
	}
	clock.Advance(61 * time.Second)
	e.idle()
	if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Status != "completed" || runs[0].Conclusion != "success" {
		t.Errorf("check runs after the next server ran the job: %+v, want the same one completed", runs)
	}
	if comments := e.gh.commentsOf(7); len(comments) != 1 || !strings.Contains(comments[0].Body, "no regressions") {
		t.Errorf("comments: %+v", comments)
	}
	if failed := e.jobs(queue.Failed); len(failed) != 0 {
		t.Errorf("failed jobs: %+v", failed)
	}
}
