package ghapi

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v60/github"
)

const prRoute = "GET /api/v3/repos/octo/models/pulls/12"

const prJSON = `{"number":12,"state":"open","base":{"ref":"main","sha":"b0"},"head":{"ref":"f","sha":"h1"}}`

// failThen answers the first n requests with status and body, then with prJSON.
func failThen(n, status int, body string, header http.Header) handler {
	return func(w http.ResponseWriter, _ *http.Request, i int) {
		if i > n {
			reply(w, 200, prJSON)
			return
		}
		for k, v := range header {
			w.Header()[k] = v
		}
		reply(w, status, body)
	}
}

func TestRetryServerErrors(t *testing.T) {
	f := newFake(t)
	f.handle(prRoute, failThen(2, http.StatusBadGateway, `{"message":"Server Error"}`, nil))
	c, rec := newTestClient(t, f)
	pr, err := c.PullRequest(context.Background(), repo, 12)
	if err != nil || pr.HeadSHA != "h1" {
		t.Fatalf("PullRequest = %+v, %v", pr, err)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	waits := rec.sleeps()
	if len(waits) != 2 {
		t.Fatalf("waits %v, want 2", waits)
	}
	// Exponential backoff with jitter: half to all of 1s, then of 2s.
	for i, base := range []time.Duration{time.Second, 2 * time.Second} {
		if waits[i] < base/2 || waits[i] > base {
			t.Errorf("wait %d = %v, want between %v and %v", i, waits[i], base/2, base)
		}
	}
	if got, want := rec.metrics(), []string{EventRetry, EventRetry}; !reflect.DeepEqual(got, want) {
		t.Errorf("metrics %q, want %q", got, want)
	}
}

func TestRetriesRunOut(t *testing.T) {
	f := newFake(t)
	f.handle(prRoute, answer(http.StatusServiceUnavailable, `{"message":"unavailable"}`))
	rec := &recorder{}
	cfg := testConfig(f, rec)
	cfg.MaxRetries = 2
	c := clientFor(t, cfg, 0)
	_, err := c.PullRequest(context.Background(), repo, 12)
	var respErr *github.ErrorResponse
	if !errors.As(err, &respErr) || respErr.Response.StatusCode != 503 {
		t.Fatalf("err = %v, want the 503", err)
	}
	// Server errors pass: the caller is told to come back later, at a time of its choosing.
	var later *RetryLaterError
	if !errors.As(err, &later) || !later.At.IsZero() {
		t.Errorf("err = %#v, want a RetryLaterError naming no time", err)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d requests, want 1 + MaxRetries = 3", n)
	}
	if got, want := rec.metrics(), []string{EventRetry, EventRetry, EventAPIError}; !reflect.DeepEqual(got, want) {
		t.Errorf("metrics %q, want %q", got, want)
	}
}

func TestRetryNetworkError(t *testing.T) {
	f := newFake(t)
	f.handle(prRoute, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 1 {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				t.Errorf("hijack: %v", err)
				return
			}
			conn.Close()
			return
		}
		reply(w, 200, prJSON)
	})
	c, rec := newTestClient(t, f)
	if _, err := c.PullRequest(context.Background(), repo, 12); err != nil {
		t.Fatalf("PullRequest: %v", err)
	}
	if len(rec.sleeps()) == 0 {
		t.Error("no retry after the connection was closed")
	}
}

func TestRetryNotFound(t *testing.T) {
	notFound := `{"message":"Not Found"}`

	t.Run("PullRequest retried", func(t *testing.T) {
		f := newFake(t)
		f.handle(prRoute, failThen(1, http.StatusNotFound, notFound, nil))
		c, rec := newTestClient(t, f)
		if _, err := c.PullRequest(context.Background(), repo, 12); err != nil {
			t.Fatalf("PullRequest: %v", err)
		}
		if n := len(f.requests()); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
		if n := len(rec.sleeps()); n != 1 {
			t.Errorf("%d waits, want 1", n)
		}
	})

	t.Run("bounded", func(t *testing.T) {
		f := newFake(t)
		f.handle(prRoute, answer(http.StatusNotFound, notFound))
		rec := &recorder{}
		cfg := testConfig(f, rec)
		cfg.MaxRetries = 10
		c := clientFor(t, cfg, 0)
		if _, err := c.PullRequest(context.Background(), repo, 12); err == nil {
			t.Fatal("PullRequest succeeded")
		}
		if n := len(f.requests()); n != 1+notFoundRetries {
			t.Errorf("%d requests, want %d", n, 1+notFoundRetries)
		}
	})

	t.Run("EditComment not retried", func(t *testing.T) {
		f := newFake(t)
		f.handle("PATCH /api/v3/repos/octo/models/issues/comments/5", answer(http.StatusNotFound, notFound))
		c, _ := newTestClient(t, f)
		if err := c.EditComment(context.Background(), repo, 5, "x"); err == nil {
			t.Fatal("EditComment succeeded")
		}
		if n := len(f.requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
}

func TestNoRetryOnClientError(t *testing.T) {
	f := newFake(t)
	f.handle("POST /api/v3/repos/octo/models/check-runs",
		answer(http.StatusUnprocessableEntity, `{"message":"Validation Failed","errors":[{"resource":"CheckRun","code":"invalid","field":"head_sha"}]}`))
	c, rec := newTestClient(t, f)
	_, err := c.CreateCheckRun(context.Background(), repo, CheckRun{HeadSHA: "1a2b3c4d5e6f", Status: "queued"})
	if err == nil {
		t.Fatal("CreateCheckRun succeeded")
	}
	if want := "creating check run on octo/models at 1a2b3c4: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q, want prefix %q", err, want)
	}
	var respErr *github.ErrorResponse
	if !errors.As(err, &respErr) || respErr.Response.StatusCode != 422 {
		t.Errorf("error %v does not wrap the 422", err)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if got, want := rec.metrics(), []string{EventAPIError}; !reflect.DeepEqual(got, want) {
		t.Errorf("metrics %q, want %q", got, want)
	}
}

func TestRateLimit(t *testing.T) {
	t.Run("primary", func(t *testing.T) {
		reset := time.Now().Add(30 * time.Second).Truncate(time.Second)
		f := newFake(t)
		f.handle(prRoute, failThen(1, http.StatusForbidden, `{"message":"API rate limit exceeded"}`, http.Header{
			"X-Ratelimit-Limit":     {"5000"},
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Reset":     {strconv.FormatInt(reset.Unix(), 10)},
		}))
		c, rec := newTestClient(t, f)
		// Until the reset plus a second of slack, as measured between these two instants.
		longest := time.Until(reset) + rateLimitSlack
		if _, err := c.PullRequest(context.Background(), repo, 12); err != nil {
			t.Fatalf("PullRequest: %v", err)
		}
		shortest := time.Until(reset) + rateLimitSlack
		waits := rec.sleeps()
		if len(waits) != 1 {
			t.Fatalf("waits %v, want 1", waits)
		}
		if waits[0] > longest || waits[0] < shortest {
			t.Errorf("waited %v, want between %v and %v", waits[0], shortest, longest)
		}
		if got, want := rec.metrics(), []string{EventRateLimited}; !reflect.DeepEqual(got, want) {
			t.Errorf("metrics %q, want %q", got, want)
		}
		logs := rec.logged()
		if !strings.Contains(logs, "level=WARN") || !strings.Contains(logs, "repo=octo/models") {
			t.Errorf("no warning with the repo in the log:\n%s", logs)
		}
		if strings.Contains(logs, testToken) {
			t.Errorf("the token is in the log:\n%s", logs)
		}
		if n := len(f.requests()); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
		if got := c.RateRemaining(); got != 0 {
			// The success response carried no rate headers: the last seen is the limited one.
			t.Errorf("RateRemaining() = %d, want 0", got)
		}
	})

	t.Run("reset later than a call waits", func(t *testing.T) {
		now := time.Unix(1_800_000_000, 0)
		reset := now.Add(20 * time.Minute)
		f := newFake(t)
		f.handle(prRoute, failThen(1, http.StatusForbidden, `{"message":"API rate limit exceeded"}`, http.Header{
			"X-Ratelimit-Remaining": {"0"},
			"X-Ratelimit-Reset":     {strconv.FormatInt(reset.Unix(), 10)},
		}))
		rec := &recorder{}
		cfg := testConfig(f, rec)
		cfg.Now = func() time.Time { return now }
		c := clientFor(t, cfg, 0)
		_, err := c.PullRequest(context.Background(), repo, 12)
		var rateErr *github.RateLimitError
		if !errors.As(err, &rateErr) {
			t.Fatalf("err = %v, want a RateLimitError", err)
		}
		var later *RetryLaterError
		if !errors.As(err, &later) || !later.At.Equal(reset.Add(rateLimitSlack)) {
			t.Errorf("err = %#v, want a RetryLaterError at the reset, %v", err, reset.Add(rateLimitSlack))
		}
		if waits := rec.sleeps(); len(waits) != 0 {
			t.Errorf("waited %v, want no wait", waits)
		}
		if got, want := rec.metrics(), []string{EventRateLimited}; !reflect.DeepEqual(got, want) {
			t.Errorf("metrics %q, want %q", got, want)
		}
	})

	t.Run("too many requests", func(t *testing.T) {
		f := newFake(t)
		f.handle(prRoute, failThen(1, http.StatusTooManyRequests, `{"message":"slow down"}`, http.Header{"Retry-After": {"3"}}))
		c, rec := newTestClient(t, f)
		if _, err := c.PullRequest(context.Background(), repo, 12); err != nil {
			t.Fatalf("PullRequest: %v", err)
		}
		if got, want := rec.sleeps(), []time.Duration{3 * time.Second}; !reflect.DeepEqual(got, want) {
			t.Errorf("waits %v, want %v", got, want)
		}
	})

	// A 429 names its time in Retry-After, or in X-RateLimit-Reset when no requests remain; a
	// reset time beside remaining requests is the primary limit's, not this one's.
	now := time.Unix(1_800_000_000, 0)
	farReset := strconv.FormatInt(now.Add(40*time.Minute).Unix(), 10)
	for _, tc := range []struct {
		name   string
		header http.Header
		at     time.Time // zero: no time named
	}{
		{"429 without Retry-After", http.Header{"X-Ratelimit-Remaining": {"4000"}, "X-Ratelimit-Reset": {farReset}}, time.Time{}},
		{"429 with Retry-After", http.Header{"Retry-After": {"300"}, "X-Ratelimit-Reset": {farReset}}, now.Add(5 * time.Minute)},
		{"429 with no requests left", http.Header{"X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {farReset}}, now.Add(40*time.Minute + rateLimitSlack)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t)
			f.handle(prRoute, failThen(1, http.StatusTooManyRequests, `{"message":"slow down"}`, tc.header))
			rec := &recorder{}
			cfg := testConfig(f, rec)
			cfg.Now = func() time.Time { return now }
			c := clientFor(t, cfg, 0)
			_, err := c.PullRequest(context.Background(), repo, 12)
			var later *RetryLaterError
			if !errors.As(err, &later) || !later.At.Equal(tc.at) {
				t.Fatalf("err = %#v, want a RetryLaterError at %v", err, tc.at)
			}
			if waits := rec.sleeps(); len(waits) != 0 {
				t.Errorf("waited %v in place", waits)
			}
		})
	}
}

func TestAbuseRateLimit(t *testing.T) {
	const body = `{"message":"You have exceeded a secondary rate limit.",` +
		`"documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
	}{
		{"Retry-After", http.Header{"Retry-After": {"7"}}, 7 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			f.handle("POST /api/v3/repos/octo/models/issues/12/comments", func(w http.ResponseWriter, _ *http.Request, n int) {
				if n == 1 {
					for k, v := range tt.header {
						w.Header()[k] = v
					}
					reply(w, http.StatusForbidden, body)
					return
				}
				reply(w, 201, `{"id":3}`)
			})
			c, rec := newTestClient(t, f)
			if id, err := c.CreateComment(context.Background(), repo, 12, "x"); err != nil || id != 3 {
				t.Fatalf("CreateComment = %d, %v", id, err)
			}
			if got := rec.sleeps(); !reflect.DeepEqual(got, []time.Duration{tt.want}) {
				t.Errorf("waits %v, want [%v]", got, tt.want)
			}
			if got, want := rec.metrics(), []string{EventAbuseLimited}; !reflect.DeepEqual(got, want) {
				t.Errorf("metrics %q, want %q", got, want)
			}
			if !strings.Contains(rec.logged(), "repo=octo/models") {
				t.Errorf("no log line with the repo:\n%s", rec.logged())
			}
		})
	}
}

// TestAbuseRateLimitNoTime: a secondary limit that names no time is not waited out in place
// (GitHub asks for a minute at least, and more each time): the caller comes back later.
func TestAbuseRateLimitNoTime(t *testing.T) {
	f := newFake(t)
	f.handle("POST /api/v3/repos/octo/models/issues/12/comments", answer(http.StatusForbidden,
		`{"message":"You have exceeded a secondary rate limit.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`))
	c, rec := newTestClient(t, f)
	_, err := c.CreateComment(context.Background(), repo, 12, "x")
	var later *RetryLaterError
	if !errors.As(err, &later) || !later.At.IsZero() {
		t.Fatalf("err = %#v, want a RetryLaterError naming no time", err)
	}
	if waits := rec.sleeps(); len(waits) != 0 {
		t.Errorf("waited %v in place", waits)
	}
	if got, want := rec.metrics(), []string{EventAbuseLimited}; !reflect.DeepEqual(got, want) {
		t.Errorf("metrics %q, want %q", got, want)
	}
}

func TestRequestTimeout(t *testing.T) {
	f := newFake(t)
	release := make(chan struct{})
	f.handle(prRoute, func(_ http.ResponseWriter, r *http.Request, _ int) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	t.Cleanup(func() { close(release) }) // runs before the server closes
	rec := &recorder{}
	cfg := testConfig(f, rec)
	cfg.Timeout = 50 * time.Millisecond
	c := clientFor(t, cfg, 0)

	done := make(chan error, 1)
	go func() {
		_, err := c.PullRequest(context.Background(), repo, 12)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want a deadline error", err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "getting pull request octo/models#12: no response within 50ms") {
			t.Errorf("err = %v, want it to say what timed out", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not honour its timeout")
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("%d requests, want 1 (a timed-out attempt is not retried)", n)
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	f := newFake(t)
	f.handle(prRoute, answer(http.StatusBadGateway, `{"message":"bad gateway"}`))
	rec := &recorder{}
	cfg := testConfig(f, rec)
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Sleep = func(ctx context.Context, d time.Duration) error {
		cancel()
		return ctx.Err()
	}
	c := clientFor(t, cfg, 0)
	_, err := c.PullRequest(ctx, repo, 12)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if n := len(f.requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	for _, e := range rec.metrics() {
		if e == EventAPIError {
			t.Error("a cancelled call counted as an API error")
		}
	}
}

func TestBackoff(t *testing.T) {
	for n, base := range []time.Duration{1, 2, 4, 8, 8, 8} {
		base *= time.Second
		for range 20 {
			if d := backoff(n); d < base/2 || d > base {
				t.Errorf("backoff(%d) = %v, want between %v and %v", n, d, base/2, base)
			}
		}
	}
}

// TestRetryUnknownCommit: GitHub answers 422 "No commit found for SHA" to a
// check run on a commit it has not indexed yet; that is retried.
func TestRetryUnknownCommit(t *testing.T) {
	f := newFake(t)
	calls := 0
	f.handle("POST /api/v3/repos/octo/models/check-runs", func(w http.ResponseWriter, _ *http.Request, _ int) {
		calls++
		if calls == 1 {
			reply(w, http.StatusUnprocessableEntity, `{"message":"No commit found for SHA: 1a2b3c4d5e6f"}`)
			return
		}
		reply(w, http.StatusCreated, `{"id":5}`)
	})
	c, _ := newTestClient(t, f)
	id, err := c.CreateCheckRun(context.Background(), repo, CheckRun{HeadSHA: "1a2b3c4d5e6f", Status: "in_progress"})
	if err != nil || id != 5 || calls != 2 {
		t.Errorf("CreateCheckRun = %d, %v after %d calls; want 5 after a retry", id, err, calls)
	}
}
