package ghapi

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestDrain: a call that GitHub asks to wait a minute (Retry-After: 60) is not held past the
// drain's deadline: before the drain, during its wait, or not at all once the drain has begun,
// it returns a RetryLaterError for the time it would have retried. A wait that ends before the
// deadline is waited out. The waits are real: the figures are printed, and the only bound
// checked is far below the minute GitHub asked for.
func TestDrain(t *testing.T) {
	limited := func(retryAfter string) (*fakeGitHub, Client) {
		f := newFake(t)
		f.handle(prRoute, failThen(1, http.StatusTooManyRequests, `{"message":"slow down"}`, http.Header{"Retry-After": {retryAfter}}))
		cfg := testConfig(f, &recorder{})
		cfg.Sleep = nil // a real timer
		return f, clientFor(t, cfg, 0)
	}
	wantLater := func(t *testing.T, err error, start time.Time, took time.Duration) {
		t.Helper()
		var later *RetryLaterError
		if !errors.As(err, &later) || !errors.Is(err, errDrained) {
			t.Fatalf("err = %v, want a RetryLaterError of the drain", err)
		}
		if at := later.At.Sub(start); at < 59*time.Second || at > 61*time.Second {
			t.Errorf("to be retried %v after the start, want the minute GitHub named", at)
		}
		if !strings.Contains(err.Error(), "shutting down") {
			t.Errorf("err %q does not say why", err)
		}
		t.Logf("the call returned after %v", took.Round(time.Millisecond))
		if took > 30*time.Second {
			t.Errorf("the call returned after %v, past the drain's deadline", took)
		}
	}

	t.Run("begun before the wait", func(t *testing.T) {
		f, c := limited("60")
		d := NewDrain()
		d.Begin(time.Now().Add(time.Second))
		start := time.Now()
		_, err := c.PullRequest(WithDrain(context.Background(), d), repo, 12)
		wantLater(t, err, start, time.Since(start))
		if n := len(f.requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})

	t.Run("begun during the wait", func(t *testing.T) {
		f, c := limited("60")
		d := NewDrain()
		// The context does not follow cancellation, as the calls that close a check do not:
		// only the drain ends the wait.
		ctx := context.WithoutCancel(WithDrain(context.Background(), d))
		go func() {
			for len(f.requests()) == 0 {
				time.Sleep(5 * time.Millisecond)
			}
			d.Begin(time.Now().Add(time.Second))
		}()
		start := time.Now()
		_, err := c.PullRequest(ctx, repo, 12)
		wantLater(t, err, start, time.Since(start))
	})

	t.Run("a wait within the deadline", func(t *testing.T) {
		f, c := limited("1")
		d := NewDrain()
		d.Begin(time.Now().Add(time.Minute))
		if _, err := c.PullRequest(WithDrain(context.Background(), d), repo, 12); err != nil {
			t.Fatalf("PullRequest: %v", err)
		}
		if n := len(f.requests()); n != 2 {
			t.Errorf("%d requests, want the limited one and its retry", n)
		}
	})
}
