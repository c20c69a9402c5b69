package ghapi

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"
	"github.com/google/go-github/v60/github"
)

const (
	backoffBase = time.Second
	backoffMax  = 8 * time.Second
	// notFoundRetries bounds the retries of a 404 for calls that may run before GitHub shows a
	// pull request or commit that was just pushed.
	notFoundRetries = 3
	// maxRateLimitWait is the longest wait for a rate limit to reset; a limit that resets
	// later fails the call, since retrying sooner would only meet the same limit.
	maxRateLimitWait = 15 * time.Minute
	// rateLimitSlack is added to the reset time against clock skew between us and GitHub.
	rateLimitSlack = time.Second
	// defaultAbuseWait is the wait after a secondary rate limit without Retry-After.
	defaultAbuseWait = time.Minute
)

// Metrics events.
const (
	EventAPIError     = "api_error"     // a call failed for good (not counting cancellation)
	EventRetry        = "retry"         // a call is retried after a server or network error or a 404
	EventRateLimited  = "rate_limited"  // a call waits for the primary rate limit to reset
	EventAbuseLimited = "abuse_limited" // a call waits out a secondary rate limit
)

// op describes one call for retries, logs and errors.
type op struct {
	what          string // "creating check run on owner/name at 1a2b3c4"
	repo          Repo   // zero for calls about no repository
	retryNotFound bool   // the call may run before GitHub shows what it refers to
}

// attempt is one try of a call with a fresh go-github client.
type attempt func(ctx context.Context, gh *github.Client) (*github.Response, error)

// do runs fn until it succeeds, fails with an error that is not worth retrying, or runs out of
// retries. Each attempt gets its own timeout; an attempt that times out is not retried, because
// the timeout already bounds how long a caller waits on an unresponsive GitHub and a write that
// timed out may have taken effect.
func (c *client) do(ctx context.Context, o op, fn attempt) error {
	notFound := 0
	for n := 0; ; n++ {
		actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
		resp, err := fn(actx, c.github())
		timedOut := errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		c.record(resp)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: %w", o.what, err)
		}
		if timedOut {
			c.cfg.Metrics(EventAPIError)
			return fmt.Errorf("%s: no response within %v: %w", o.what, c.cfg.Timeout, err)
		}

		wait, event := retryAfter(err, n)
		if isNotFound(err) {
			if !o.retryNotFound || notFound == notFoundRetries {
				event = ""
			}
			notFound++
		}
		if event == "" || n >= c.cfg.MaxRetries {
			c.cfg.Metrics(EventAPIError)
			return fmt.Errorf("%s: %w", o.what, err)
		}
		c.cfg.Metrics(event)
		log := LoggerFrom(ctx, c.cfg.Logger).With("op", o.what, "wait", wait, "attempt", n+1, "err", err)
		if o.repo != (Repo{}) {
			log = log.With("repo", o.repo.String())
		}
		if event == EventRetry {
			log.Debug("retrying GitHub call")
		} else {
			log.Warn("GitHub rate limit hit; waiting", "limit", event)
		}
		if err := c.cfg.Sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s: waiting to retry: %w", o.what, err)
		}
	}
}

// retryAfter says how long to wait before retrying after err on attempt n (from 0), and which
// metrics event the retry is; event "" means err is not worth retrying.
func retryAfter(err error, n int) (time.Duration, string) {
	var (
		rateErr  *github.RateLimitError
		abuseErr *github.AbuseRateLimitError
		respErr  *github.ErrorResponse
		tokenErr *ghinstallation.HTTPError
		certErr  *tls.CertificateVerificationError
		urlErr   *url.Error
	)
	switch {
	case errors.As(err, &rateErr):
		wait := time.Until(rateErr.Rate.Reset.Time) + rateLimitSlack
		if wait > maxRateLimitWait {
			return 0, ""
		}
		return max(wait, rateLimitSlack), EventRateLimited
	case errors.As(err, &abuseErr):
		wait := defaultAbuseWait
		if abuseErr.RetryAfter != nil {
			wait = max(*abuseErr.RetryAfter, rateLimitSlack)
		}
		if wait > maxRateLimitWait {
			return 0, ""
		}
		return wait, EventAbuseLimited
	case errors.As(err, &respErr):
		if respErr.Response == nil {
			return 0, ""
		}
		switch s := respErr.Response.StatusCode; {
		case s == http.StatusTooManyRequests:
			// go-github types only 403s as rate limit errors; GitHub also answers 429.
			return tooManyRequestsWait(respErr.Response)
		case s >= 500 || s == http.StatusNotFound || isUnknownCommit(respErr):
			return backoff(n), EventRetry
		}
		return 0, ""
	case errors.As(err, &tokenErr):
		// Getting an installation token failed: retry server and network errors only.
		if tokenErr.Response != nil && tokenErr.Response.StatusCode < 500 {
			return 0, ""
		}
		return backoff(n), EventRetry
	case errors.As(err, &certErr):
		return 0, ""
	case errors.As(err, &urlErr), errors.Is(err, io.ErrUnexpectedEOF):
		return backoff(n), EventRetry
	}
	return 0, ""
}

// tooManyRequestsWait reads how long to wait from a 429 response: Retry-After, else the rate
// limit reset, else defaultAbuseWait.
func tooManyRequestsWait(resp *http.Response) (time.Duration, string) {
	wait := defaultAbuseWait
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
		wait = time.Duration(s) * time.Second
	} else if r, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
		wait = time.Until(time.Unix(r, 0)) + rateLimitSlack
	}
	if wait > maxRateLimitWait {
		return 0, ""
	}
	return max(wait, rateLimitSlack), EventRateLimited
}

// isUnknownCommit reports GitHub's 422 "No commit found for SHA", its answer
// to a check run or status on a commit it has not indexed yet (right after
// a push): as transient as the 404s after a pull request opens.
func isUnknownCommit(e *github.ErrorResponse) bool {
	return e.Response.StatusCode == http.StatusUnprocessableEntity && strings.Contains(e.Message, "No commit found")
}

// isNotFound reports whether err is GitHub's 404.
func isNotFound(err error) bool {
	var respErr *github.ErrorResponse
	return errors.As(err, &respErr) && respErr.Response != nil && (respErr.Response.StatusCode == http.StatusNotFound || isUnknownCommit(respErr))
}

// backoff returns the wait before retry n (from 0): 1s, 2s, 4s, 8s, 8s, ..., each with "equal
// jitter" (between half and all of it) so that retrying workers spread out.
func backoff(n int) time.Duration {
	d := backoffMax
	if n < 4 {
		d = min(backoffBase<<n, backoffMax)
	}
	return d/2 + rand.N(d/2+1)
}

// record keeps the remaining core rate limit from a response that reports it.
func (c *client) record(resp *github.Response) {
	if resp == nil || resp.Response == nil || resp.Header.Get("X-RateLimit-Remaining") == "" {
		return
	}
	if res := resp.Header.Get("X-RateLimit-Resource"); res != "" && res != "core" {
		return
	}
	c.remaining.Store(int64(resp.Rate.Remaining))
}
