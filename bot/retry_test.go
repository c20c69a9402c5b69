package bot

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// retrying is a job queued again for later, as the store keeps it.
type retrying struct {
	ID        int64
	Retries   int
	NotBefore time.Time
	Error     string
}

// waitRetrying waits (a bounded while) for a job to be queued again for
// later, and returns it.
func (e *env) waitRetrying() retrying {
	e.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var (
			j  retrying
			nb int64
		)
		err := e.store.QueryRow(context.Background(), "SELECT id, retries, not_before, error FROM jobs WHERE state = 'queued' AND retries > 0").Scan(&j.ID, &j.Retries, &nb, &j.Error)
		if err == nil {
			j.NotBefore = time.Unix(0, nb)
			return j
		}
	}
	e.t.Fatalf("no job queued again within 30 s\n%s", e.logs.String())
	return retrying{}
}

const commentsRoute = "POST /repos/octo/triangle/issues/7/comments"

// TestRateLimitResetLater: the comment meets a primary rate limit that
// resets in 20 minutes. The check is done; the job is queued again for the
// reset, survives a restart, and posts the comment after the reset.
func TestRateLimitResetLater(t *testing.T) {
	e := newEnv(t)
	clock := e.useFakeClock()
	reset := clock.Now().Add(20 * time.Minute).Truncate(time.Second)
	e.gh.limits[commentsRoute] = limit{until: reset, status: http.StatusForbidden, header: http.Header{
		"X-Ratelimit-Limit": {"5000"}, "X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {strconv.FormatInt(reset.Unix(), 10)},
	}}
	e.start()
	e.send("pull_request.opened", "d-rl")
	j := e.waitRetrying()
	if !j.NotBefore.Equal(reset.Add(time.Second)) {
		t.Errorf("queued again for %v, want the reset and a second, %v", j.NotBefore, reset.Add(time.Second))
	}
	runs := e.gh.runsFor(c2)
	if len(runs) != 1 || runs[0].Conclusion != "success" {
		t.Fatalf("check runs while the comment waits: %+v; want the gate done", runs)
	}
	patches := len(e.gh.callsMatching("PATCH /repos/octo/triangle/check-runs/"))

	// A restart keeps the job and its time.
	e.close()
	e.start()
	clock.Advance(20*time.Minute + 2*time.Second)
	e.idle()
	comments := e.gh.commentsOf(7)
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "no regressions") {
		t.Fatalf("comments after the reset: %+v", comments)
	}
	posts := e.gh.callsMatching(commentsRoute)
	if len(posts) != 2 {
		t.Fatalf("%d comment posts, want the limited one and one after the reset", len(posts))
	}
	if posts[1].At.Before(reset) {
		t.Errorf("the comment was posted again at %v, before the reset at %v", posts[1].At, reset)
	}
	if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Conclusion != "success" {
		t.Errorf("check runs after the reset: %+v", runs)
	}
	if n := len(e.gh.callsMatching("PATCH /repos/octo/triangle/check-runs/")); n != patches {
		t.Errorf("the completed check was updated %d more times, want none", n-patches)
	}
	if n := len(e.jobs("done")); n != 1 {
		t.Errorf("%d jobs done, want 1", n)
	}
}

// TestServerErrorsRequeue: six 502s on one call outlast the client's
// retries; the job comes back a minute or two later and posts.
func TestServerErrorsRequeue(t *testing.T) {
	e := newEnv(t)
	clock := e.useFakeClock()
	e.gh.fail[commentsRoute] = 6
	e.start()
	start := clock.Now()
	e.send("pull_request.opened", "d-502")
	j := e.waitRetrying()
	if wait := j.NotBefore.Sub(start); wait < time.Minute || wait > 2*time.Minute {
		t.Errorf("queued again for %v after the start, want a minute's backoff", wait)
	}
	clock.Advance(2 * time.Minute)
	e.idle()
	if n := len(e.gh.commentsOf(7)); n != 1 {
		t.Errorf("%d comments after the outage, want 1", n)
	}
	if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Conclusion != "success" {
		t.Errorf("check runs: %+v", runs)
	}
}

// TestTooManyRequestsWithoutRetryAfter: a 429 that names no time is waited
// out with backoff from a minute, not until X-RateLimit-Reset, which is the
// primary limit's (requests remain).
func TestTooManyRequestsWithoutRetryAfter(t *testing.T) {
	e := newEnv(t)
	clock := e.useFakeClock()
	start := clock.Now()
	e.gh.limits[commentsRoute] = limit{until: start.Add(30 * time.Second), status: http.StatusTooManyRequests, header: http.Header{
		"X-Ratelimit-Remaining": {"4000"}, "X-Ratelimit-Reset": {strconv.FormatInt(start.Add(40*time.Minute).Unix(), 10)},
	}}
	e.start()
	e.send("pull_request.opened", "d-429")
	j := e.waitRetrying()
	if wait := j.NotBefore.Sub(start); wait < time.Minute || wait > 2*time.Minute {
		t.Errorf("queued again for %v after the start, want a minute's backoff", wait)
	}
	clock.Advance(2 * time.Minute)
	e.idle()
	if n := len(e.gh.commentsOf(7)); n != 1 {
		t.Errorf("%d comments, want 1", n)
	}
}

// TestTokenRefused: GitHub refuses the installation's token. A 403 is
// retried later like a rate limit, a 404 (the installation is gone) fails
// the job; both are counted and logged at error level with the
// installation.
func TestTokenRefused(t *testing.T) {
	t.Run("403 retried later", func(t *testing.T) {
		e := newEnv(t)
		clock := e.useFakeClock()
		e.gh.tokenFails = 1
		e.start()
		e.send("pull_request.opened", "d-tok")
		e.waitRetrying()
		if got := e.metric("setbot_installation_token_errors_total", "outcome", "requeued"); got != 1 {
			t.Errorf("token errors requeued = %v, want 1", got)
		}
		clock.Advance(2 * time.Minute)
		e.idle()
		if runs := e.gh.runsFor(c2); len(runs) != 1 || runs[0].Conclusion != "success" {
			t.Errorf("check runs: %+v", runs)
		}
		if n := len(e.gh.commentsOf(7)); n != 1 {
			t.Errorf("%d comments, want 1", n)
		}
		if !hasLogLine(e.logs.String(), `"level":"ERROR"`, `"msg":"no token for the installation"`, `"installation":77`) {
			t.Errorf("no error line names the installation:\n%s", e.logs.String())
		}
	})
	t.Run("404 fails", func(t *testing.T) {
		e := newEnv(t)
		e.gh.tokenFails, e.gh.tokenStatus = 100, http.StatusNotFound
		e.start()
		e.send("pull_request.opened", "d-tok404")
		e.idle()
		if n := len(e.jobs("failed")); n != 1 {
			t.Errorf("%d jobs failed, want 1", n)
		}
		if got := e.metric("setbot_installation_token_errors_total", "outcome", "failed"); got != 1 {
			t.Errorf("token errors failed = %v, want 1", got)
		}
		if !hasLogLine(e.logs.String(), `"level":"ERROR"`, `"installation":77`) {
			t.Errorf("no error line names the installation:\n%s", e.logs.String())
		}
	})
}

// hasLogLine reports whether a line of logs contains every part.
func hasLogLine(logs string, parts ...string) bool {
lines:
	for _, line := range strings.Split(logs, "\n") {
		for _, p := range parts {
			if !strings.Contains(line, p) {
				continue lines
			}
		}
		return true
	}
	return false
}
