package queue

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// listenRetry is how long Watch waits before listening again after its
// connection failed.
const listenRetry = time.Second

// Watch listens to the other replicas' news and renews this replica's
// leases until ctx is done. While its connection is down it tries again
// every listenRetry, and after each (re)connection it passes a zero Event,
// since news may have been missed.
func (s sharedQueue) Watch(ctx context.Context, f func(Event)) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.keepLeases(ctx, f)
	}()
	for ctx.Err() == nil {
		s.listen(ctx, f)
		select {
		case <-ctx.Done():
		case <-time.After(listenRetry):
		}
	}
	wg.Wait()
}

// listen passes f what arrives on notifyChannel until the connection fails
// or ctx is done.
func (s sharedQueue) listen(ctx context.Context, f func(Event)) {
	_ = s.db.Listen(ctx, notifyChannel, func() { f(Event{}) }, func(payload string) { f(parseEvent(payload)) })
}

// parseEvent reads a payload of notifyChannel; anything but "ID KEY" is
// the zero Event.
func parseEvent(payload string) Event {
	idText, key, ok := strings.Cut(payload, " ")
	id, err := strconv.ParseInt(idText, 10, 64)
	if !ok || err != nil {
		return Event{}
	}
	return Event{Key: key, ID: id}
}

// keepLeases renews the leases of the jobs this replica holds every third
// of the lease until ctx is done, and reports those it no longer holds.
func (s sharedQueue) keepLeases(ctx context.Context, f func(Event)) {
	t := time.NewTicker(s.leases.lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if lost, err := s.renew(ctx); err == nil {
			for _, id := range lost {
				f(Event{Lost: id})
			}
		} // else the database is away: again at the next tick
	}
}

// renew renews the leases this replica holds, and returns the jobs whose
// lease it lost since the last renewal (those that finished meanwhile, and
// left held, are not).
func (s sharedQueue) renew(ctx context.Context) (lost []int64, err error) {
	l := s.leases
	l.mu.Lock()
	ids := make([]int64, 0, len(l.held))
	for id := range l.held {
		ids = append(ids, id)
	}
	l.mu.Unlock()
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := s.db.Query(ctx, "UPDATE jobs SET lease_until = "+fmt.Sprintf(leaseUntil, "?")+`
WHERE id = ANY(?) AND state = ? AND lease_owner = ? RETURNING id`, l.lease.Milliseconds(), ids, Running, l.owner)
	if err != nil {
		return nil, err
	}
	renewed, err := collect(rows, func(id *int64) []any { return []any{id} })
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range ids {
		if slices.Contains(renewed, id) {
			continue
		}
		// Finished meanwhile (Finish or Requeue deleted it), or lost.
		if l.held[id] {
			lost = append(lost, id)
		}
		delete(l.held, id)
	}
	return lost, nil
}
