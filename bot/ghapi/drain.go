package ghapi

import (
	"context"
	"errors"
	"sync"
	"time"
)

// A Drain cuts the waits of GitHub calls short when their process shuts down: once it has begun,
// a call that would wait (on Retry-After, a rate limit's reset, or a backoff before a retry)
// past its deadline does not wait: it returns a RetryLaterError for the time it would have
// retried, at once, or when the drain begins if it was waiting already. The caller queues its
// job again for that time, and the next process makes the call. Waits that end before the
// deadline are waited out. A Drain reaches calls through their context (WithDrain), including
// contexts that no longer follow their job's cancellation, such as those of the calls that
// open and close a check: context.WithoutCancel keeps values.
type Drain struct {
	begun    chan struct{}
	once     sync.Once
	deadline time.Time // set before begun is closed
}

// NewDrain returns a Drain that has not begun.
func NewDrain() *Drain { return &Drain{begun: make(chan struct{})} }

// Begin starts the drain: from now on, waits that would end after deadline are cut. Only the
// first call counts.
func (d *Drain) Begin(deadline time.Time) {
	d.once.Do(func() {
		d.deadline = deadline
		close(d.begun)
	})
}

// errDrained is why a wait was cut.
var errDrained = errors.New("the server is shutting down")

type drainKey struct{}

// WithDrain returns a context whose GitHub calls' waits d cuts.
func WithDrain(ctx context.Context, d *Drain) context.Context {
	return context.WithValue(ctx, drainKey{}, d)
}

// drainFrom returns the Drain WithDrain put in ctx, or nil.
func drainFrom(ctx context.Context) *Drain {
	d, _ := ctx.Value(drainKey{}).(*Drain)
	return d
}

// bound returns the context in which to wait for wait from now: ctx, cancelled with cause
// errDrained if the drain begins (or has begun) with a deadline before the wait ends. release
// frees it. A nil Drain cuts nothing.
func (d *Drain) bound(ctx context.Context, wait time.Duration) (_ context.Context, release func()) {
	if d == nil {
		return ctx, func() {}
	}
	end := time.Now().Add(wait)
	wctx, cancel := context.WithCancelCause(ctx)
	select {
	case <-d.begun:
		if end.After(d.deadline) {
			cancel(errDrained)
		}
		return wctx, func() { cancel(nil) }
	default:
	}
	go func() {
		select {
		case <-d.begun:
			if end.After(d.deadline) {
				cancel(errDrained)
			}
		case <-wctx.Done():
		}
	}()
	return wctx, func() { cancel(nil) }
}
