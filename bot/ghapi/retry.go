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
	// maxWait is the longest a call waits in place for a rate limit to reset (or for the time a
	// secondary limit names). A call that would wait longer returns a RetryLaterError at once,
	// so that a worker is not held for minutes: the bot queues its job again for that time.
	maxWait = time.Minute
	// rateLimitSlack is added to the reset time against clock skew between us and GitHub.
	rateLimitSlack = time.Second
)

// Metrics events.
const (
	EventAPIError     = "api_error"     // a call failed for good (not counting cancellation)
	EventRetry        = "retry"         // a call is retried after a server or network error or a 404
	EventRateLimited  = "rate_limited"  // a call waits for the primary rate limit to reset
	EventAbuseLimited = "abuse_limited" // a call waits out a secondary rate limit
)

// RetryLaterError is a call GitHub turned away for now: a rate limit that resets later than a
// call waits in place, a secondary rate limit that names no time, or server or network errors
// (also on the installation token) that outlasted the retries. The call may be made again at
// At; when At is zero GitHub named no time, and the caller backs off from a minute, as GitHub
// advises for secondary limits. Err says which call failed and why.
type RetryLaterError struct {
	At  time.Time
	Err error
}

func (e *RetryLaterError) Error() string { return e.Err.Error() }
func (e *RetryLaterError) Unwrap() error { return e.Err }

// IsTokenError reports whether err is a failure to get an installation's token (the App's
// access to the installation), rather than a failure of the call itself.
func IsTokenError(err error) bool {
	var tokenErr *ghinstallation.HTTPError
	return errors.As(err, &tokenErr)
}

// op describes one call for retries, logs and errors.
type op struct {
	what          string // "creating check run on owner/name at 1a2b3c4"
	repo          Repo   // zero for calls about no repository
	retryNotFound bool   // the call may run before GitHub shows what it refers to
}

// attempt is one try of a call with a fresh go-github client.
type attempt func(ctx context.Context, gh *github.Client) (*github.Response, error)

// trouble classes a failed attempt.
type trouble int

const (
	permanent trouble = iota // not worth retrying
	transient                // a server or network error: back off and retry, later when retries run out
	missing                  // a 404 that may be GitHub catching up: a few retries
	limited                  // a rate limit: wait for the time GitHub names, in place or later
)

// do runs fn until it succeeds, fails with an error that is not worth retrying, or runs out of
// retries, or until a Drain in ctx cuts its wait before a retry (a RetryLaterError). Each
// attempt gets its own timeout; an attempt that times out is not retried, because
// the timeout already bounds how long a caller waits on an unresponsive GitHub and a write that
// timed out may have taken effect. Rate limits that reset within maxWait are waited out in
// place; later ones, and server errors that outlast the retries, are a RetryLaterError.
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

		now := c.cfg.Now()
		kind, wait, event := retryAfter(err, n, now)
		if kind == missing {
			if !o.retryNotFound || notFound == notFoundRetries {
				kind = permanent
			}
			notFound++
		}
		log := LoggerFrom(ctx, nil)
		if log == nil {
			// A job's logger already names the repository.
			log = c.cfg.Logger
			if o.repo != (Repo{}) {
				log = log.With("repo", o.repo.String())
			}
		}
		log = log.With("op", o.what, "attempt", n+1, "err", err)
		switch {
		case kind == permanent, kind == missing && n >= c.cfg.MaxRetries:
			c.cfg.Metrics(EventAPIError)
			return fmt.Errorf("%s: %w", o.what, err)
		case kind == limited && (wait < 0 || wait > maxWait):
			c.cfg.Metrics(event)
			later := &RetryLaterError{Err: fmt.Errorf("%s: %w", o.what, err)}
			if wait > 0 {
				later.At = now.Add(wait)
			}
			log.Warn("GitHub rate limit hit; the call is left for later", "limit", event, "until", later.At)
			return later
		case n >= c.cfg.MaxRetries:
			c.cfg.Metrics(EventAPIError)
			later := &RetryLaterError{Err: fmt.Errorf("%s: %d retries: %w", o.what, n, err)}
			if kind == limited {
				later.At = now.Add(wait)
			}
			return later
		}
		c.cfg.Metrics(event)
		log = log.With("wait", wait)
		if event == EventRetry {
			log.Debug("retrying GitHub call")
		} else {
			log.Warn("GitHub rate limit hit; waiting", "limit", event)
		}
		wctx, release := drainFrom(ctx).bound(ctx, wait)
		serr := c.cfg.Sleep(wctx, wait)
		drained := errors.Is(context.Cause(wctx), errDrained)
		release()
		if drained {
			log.Warn("the server is shutting down; the call is left for later", "until", now.Add(wait))
			return &RetryLaterError{At: now.Add(wait), Err: fmt.Errorf("%s: %w before the retry: %w", o.what, errDrained, err)}
		}
		if serr != nil {
			return fmt.Errorf("%s: waiting to retry: %w", o.what, serr)
		}
	}
}

// retryAfter classes err on attempt n (from 0) at time now, and says how long to wait before
// retrying (-1 for a rate limit that names no time) and which metrics event a retry is.
func retryAfter(err error, n int, now time.Time) (trouble, time.Duration, string) {
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
		return limited, max(rateErr.Rate.Reset.Sub(now)+rateLimitSlack, rateLimitSlack), EventRateLimited
	case errors.As(err, &abuseErr):
		return limited, namedWait(abuseErr.Response, now), EventAbuseLimited
	case errors.As(err, &respErr):
		if respErr.Response == nil {
			return permanent, 0, ""
		}
		switch s := respErr.Response.StatusCode; {
		case s == http.StatusTooManyRequests:
			// go-github types only 403s as rate limit errors; GitHub also answers 429.
			return limited, namedWait(respErr.Response, now), EventRateLimited
		case s >= 500:
			return transient, backoff(n), EventRetry
		case s == http.StatusNotFound || isUnknownCommit(respErr):
			return missing, backoff(n), EventRetry
		}
		return permanent, 0, ""
	case errors.As(err, &tokenErr):
		// Getting an installation token failed: GitHub's own trouble and its limits pass; a
		// refused App or a vanished installation does not.
		switch r := tokenErr.Response; {
		case r == nil || r.StatusCode >= 500:
			return transient, backoff(n), EventRetry
		case r.StatusCode == http.StatusForbidden || r.StatusCode == http.StatusTooManyRequests:
			return limited, namedWait(r, now), EventRateLimited
		}
		return permanent, 0, ""
	case errors.As(err, &certErr):
		return permanent, 0, ""
	case errors.As(err, &urlErr), errors.Is(err, io.ErrUnexpectedEOF):
		return transient, backoff(n), EventRetry
	}
	return permanent, 0, ""
}

// namedWait reads from a rate-limited response how long GitHub asks to wait: Retry-After, else
// until X-RateLimit-Reset when no requests remain; -1 when it names no time (GitHub's advice is
// then to wait a minute at least, and longer each time).
func namedWait(resp *http.Response, now time.Time) time.Duration {
	if resp == nil {
		return -1
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
		return max(time.Duration(s)*time.Second, rateLimitSlack)
	}
	if resp.Header.Get("X-RateLimit-Remaining") == "0" {
		if r, err := strconv.ParseInt(resp.Header.Get("X-RateLimit-Reset"), 10, 64); err == nil {
			return max(time.Unix(r, 0).Sub(now)+rateLimitSlack, rateLimitSlack)
		}
	}
	return -1
}

// isUnknownCommit reports GitHub's 422 "No commit found for SHA", its answer
// to a check run or status on a commit it has not indexed yet (right after
// a push): as transient as the 404s after a pull request opens.
func isUnknownCommit(e *github.ErrorResponse) bool {
	return e.Response.StatusCode == http.StatusUnprocessableEntity && strings.Contains(e.Message, "No commit found")
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
