package queue

import (
	"context"
	"errors"
	"time"
)

// Backend is where a Queue keeps its jobs, deliveries and publications:
// a SQLite store (Open), the embedded default with one server, or a
// PostgreSQL database that several servers share (OpenPostgres). Queue
// validates what it is given, keeps the clock and the notifications, and
// leaves the records to the Backend, whose methods each run as one
// transaction. now is the Queue's clock. Both databases have one
// implementation (store.go), with a dialect for what differs (dialect.go),
// and keep one contract (queuetest).
type Backend interface {
	// Enqueue stores validated jobs that share a delivery, as EnqueueAll
	// says, and returns their ids and the kinds of the queued jobs they
	// superseded. A delivery seen before is ErrDuplicate, with nothing
	// written.
	Enqueue(ctx context.Context, jobs []Job, now time.Time) (ids []int64, superseded []string, err error)
	// Claim is Queue.Claim, suspects alone (see Crashes in the package
	// documentation). With leases, it first deals with the jobs of leases
	// that expired, as Recover does, and returns the kinds of those it
	// cancelled as superseded.
	Claim(ctx context.Context, now time.Time) (j *Job, cancelled []string, err error)
	// Finish ends a running job this process holds; ErrNotFound or
	// ErrNotRunning (wrapped) when there is none.
	Finish(ctx context.Context, id int64, state, errText string, now time.Time) error
	// Requeue queues a running job this process holds again, as
	// Queue.Requeue says.
	Requeue(ctx context.Context, id int64, notBefore time.Time, why string, now time.Time) error
	// Release queues a running job this process holds again, as
	// Queue.Release says.
	Release(ctx context.Context, id int64, why string, now time.Time) error
	// Superseded reports whether a job of key newer than id exists.
	Superseded(ctx context.Context, key string, id int64) (bool, error)
	// Published records the publication of job id of key at headSHA unless
	// a newer job of key published, and says whether it did.
	Published(ctx context.Context, key string, id int64, headSHA string, now time.Time) (bool, error)
	// Recover deals with the running jobs whose process stopped: with one
	// server, every running job; with leases, those whose lease expired.
	// It returns how many it queued again and the kinds of those it
	// cancelled as superseded.
	Recover(ctx context.Context, now time.Time) (requeued int, cancelled []string, err error)
	// Depth is the number of queued jobs.
	Depth(ctx context.Context) (int, error)
	// OldestQueued is when the oldest queued job was created, zero if none.
	OldestQueued(ctx context.Context) (time.Time, error)
	// Prune deletes what Queue.Prune says, last changed before cutoff.
	Prune(ctx context.Context, cutoff time.Time) (int, error)
	// Fresh reports whether opening the backend created the queue's tables.
	Fresh() bool

	Checks
}

// Checks is the bookkeeping of the checks jobs open on GitHub, kept with
// the jobs: which check a job opened and whether it is still open, and the
// heads whose check runs are swept once their jobs end (bot/sweep.go).
type Checks interface {
	// SetCheck records the check a running job opened (a check run id, or
	// -1 for a commit status) and whether it is still open.
	SetCheck(ctx context.Context, id, checkRun int64, open bool) error
	// OpenChecks lists the jobs that ended (failed or cancelled) with
	// their check still open, by id.
	OpenChecks(ctx context.Context) ([]*Job, error)
	// NewerOnSameCommit reports whether a job of key newer than id is
	// about the commit sha.
	NewerOnSameCommit(ctx context.Context, key string, id int64, sha string) (bool, error)
	// EndedHeads lists up to limit heads to sweep, as Queue.EndedHeads says.
	EndedHeads(ctx context.Context, limit int) ([]Head, error)
	// MarkSwept records the sweep of h.
	MarkSwept(ctx context.Context, h Head) error
	// Analyzing reports whether a job on the commit sha of repo is queued
	// or running.
	Analyzing(ctx context.Context, repo, sha string) (bool, error)
	// KnowsCheckRun reports whether a job of repo recorded the check run id.
	KnowsCheckRun(ctx context.Context, repo string, id int64) (bool, error)
}

// ErrDuplicate is what Backend.Enqueue returns for a delivery seen before.
var ErrDuplicate = errors.New("duplicate delivery")

// Event is news of the queue from any server sharing it. The zero Event
// says that something changed: idle workers look for jobs.
type Event struct {
	// Key and ID name a job just queued: the running job of Key older
	// than ID, if this process runs it, is superseded.
	Key string
	ID  int64
	// Lost names a running job this process held whose lease another
	// server took over: this process must stop it and record nothing.
	Lost int64
}

// A Watcher is a Backend shared by several servers: Watch reports what
// the others do (and this process's own enqueues) until ctx is done, and
// keeps the leases of the jobs this process claimed.
type Watcher interface {
	Watch(ctx context.Context, f func(Event))
}
