// Package queue is the bot's durable job queue, kept in the cache's SQLite
// file or in a PostgreSQL database that several servers share
// (docs/architecture.md §Storage, §The bot; see Backend). The webhook
// server enqueues a job before it answers; workers claim, run and finish
// jobs; queued jobs survive a restart.
//
// A job is queued, then running, and ends done, failed or cancelled. Jobs
// of one Key (a pull request, or a branch) are serialised: Claim never
// starts a job while another of its Key runs, and EnqueueAll cancels the older
// jobs of the Key still queued, since the newer one supersedes them.
//
// Publishing a result follows this protocol, so that an older commit never
// overwrites a newer result:
//
//  1. Claim a job; while it runs, the worker holds its Key.
//  2. At convenient points of the run (and before the expensive ones), ask
//     Superseded: if a newer job of the Key exists, stop, publish nothing and
//     Finish the job Cancelled. Its result would be overwritten anyway.
//  3. Immediately before posting, call Published. It records the job as the
//     Key's latest publisher, or returns ok=false if a newer job of the Key
//     already published, and then the worker must not post. Recording before
//     posting is what makes the check hold: a post that then fails leaves a
//     record that only stops jobs older than this one.
//  4. Finish the job.
//
// A job GitHub turned away for now is not failed: Requeue queues it again
// with a time before which Claim does not take it (NotBefore), and counts
// the retry. A job a shutdown interrupted is not failed either: Release
// queues it again as it was. Attempts counts the starts of a job; the claim
// records one before the job runs, so that a process that dies running it
// leaves the job running, and the next start knows.
//
// # Crashes
//
// A job whose analysis kills its process (a runtime fatal error such as a
// stack overflow, the kernel's out-of-memory killer) must not take the
// server down again and again, nor the jobs that ran beside it. The queue
// cannot tell which of the jobs a dead process left running killed it, so
// it tells them apart by running each again alone:
//
//  1. Recover (or, with PostgreSQL, the claim that finds a lease expired)
//     marks every job its dead process left running a suspect: its Crashes
//     count goes up by one and it is queued again, at once.
//  2. A suspect runs alone: Claim starts it only when its server runs no
//     other job, and starts no other job on that server while it runs.
//     Suspects go first: while one waits, Claim starts no other job, so
//     the server's running jobs end and the suspect starts.
//  3. A suspect whose process dies again, running alone, is the culprit:
//     Recover fails it (Crashes reaches MaxCrashes) with an error that says
//     so, and the bot closes its check with it. A suspect that ends in any
//     other way (done, failed, requeued for GitHub, released at a shutdown,
//     cancelled) was not: the jobs that ran beside a crash lose nothing but
//     the time of one run alone, and no attempt of theirs counts against
//     them.
//
// "Alone" is per server: with PostgreSQL, a crash ends one replica, so a
// suspect runs alone in its replica while the others go on with their
// jobs (and a suspect waiting holds back the claims of every replica only
// until one of them is idle and takes it). A replica's workers claim one
// at a time, so two claims of one replica never miss each other.
//
// Every write is one transaction, so several goroutines and processes can
// share one queue. Notify wakes idle workers of this process; with SQLite,
// workers of other processes find jobs by polling, and with PostgreSQL,
// Watch wakes them (see Watcher).
package queue

import (
	"context"
	"errors"
	"fmt"
	"time"
)

const (
	// MaxCrashes is how many times a job's process may die while running it
	// before Recover gives up on it; every run after the first crash is
	// alone (see Crashes in the package documentation), so the last crash
	// is its own.
	MaxCrashes = 2

	// DefaultRetention is an age for Prune that outlasts GitHub's redelivery
	// window (deliveries of the last three days can be redelivered), so that
	// a redelivered webhook is still recognised as a duplicate.
	DefaultRetention = 7 * 24 * time.Hour
)

// The errors Recover gives the jobs a dead process left running.
const (
	crashedError = "the analysis crashed the server twice; not retried: the server stopped while running it alone, as it had during an earlier attempt"
	suspectError = "requeued to run alone: the server stopped while running it"
)

var (
	// ErrNotFound is wrapped by the error of Finish for an unknown id.
	ErrNotFound = errors.New("job not found")
	// ErrNotRunning is wrapped by the error of Finish for a job that is not
	// running: it was never claimed, is already finished, or was requeued by
	// Recover.
	ErrNotRunning = errors.New("job not running")
)

// Queue is the job queue in one Backend. Its methods are safe for
// concurrent use, once SetClock and OnCancel have been called (before any
// other).
type Queue struct {
	b        Backend
	wake     chan struct{}
	now      func() time.Time // the clock
	onCancel func(kind string)
}

// New returns the queue kept in b.
func New(b Backend) *Queue {
	return &Queue{b: b, wake: make(chan struct{}, 1), now: time.Now, onCancel: func(string) {}}
}

// Fresh reports whether opening the backend created the queue's tables:
// the store is new, was rebuilt, or its file was lost, so whatever jobs
// were in flight before are unknown.
func (q *Queue) Fresh() bool { return q.b.Fresh() }

// SetClock replaces the clock that stamps jobs and decides whether a job's
// NotBefore has come (time.Now by default).
func (q *Queue) SetClock(now func() time.Time) { q.now = now }

// OnCancel sets a function called with the kind of every job the queue
// cancels by itself, after the change commits: queued jobs a newer job
// supersedes (EnqueueAll) and running jobs Recover finds superseded. Jobs a
// worker finishes as Cancelled are the worker's to count.
func (q *Queue) OnCancel(f func(kind string)) { q.onCancel = f }

// Notify returns a channel that receives a value (buffer 1, never blocking
// the sender) when EnqueueAll, Finish or Recover commits a change
// that may let a job be claimed, and when Claim claims one (there may be
// more, so the wake-up passes to the next idle worker). All workers share the
// channel: an idle worker waits on it and on a ticker, then claims until
// Claim returns nil. Jobs enqueued by other processes are found by the
// ticker, or at once when Watch runs.
func (q *Queue) Notify() <-chan struct{} { return q.wake }

// notify sends on the wake channel without blocking.
func (q *Queue) notify() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// EnqueueAll records the jobs one delivery makes (one job, or the several
// pull requests of a check suite) in one transaction, all or none, and
// returns their ids in the order of jobs. They must all carry the same
// Delivery, which is recorded once for deduplication: a delivery id seen
// before (and not yet pruned) returns duplicate=true and writes nothing; ""
// is never deduplicated. Jobs of the same Key still queued are cancelled,
// superseded by the new one, which inherits what they asked for beyond it:
// it is Fresh if one of them was, and a push job that supersedes a full one
// becomes a full job, so a `/setbot full` or a scheduled re-analysis is not
// lost to a push that follows it. A later job of the list supersedes an
// earlier one of the same Key. The fields the queue sets (ID, State,
// Attempts, Retries, NotBefore, Error, Created, Updated) are ignored, except
// that a State other than "" or Queued is refused. A pull request or merge
// group job may carry the CheckRun it is to complete, a check run in
// progress that no job of the queue knows (see Fresh): its first attempt
// takes it over instead of creating one. Nothing is written when it returns
// an error.
func (q *Queue) EnqueueAll(ctx context.Context, jobs []Job) (ids []int64, duplicate bool, err error) {
	if len(jobs) == 0 {
		return nil, false, errors.New("enqueueing jobs: no jobs")
	}
	delivery := jobs[0].Delivery
	for i := range jobs {
		if err := jobs[i].validate(); err != nil {
			return nil, false, fmt.Errorf("enqueueing %s: %w", describe(jobs), err)
		}
		if jobs[i].Delivery != delivery {
			return nil, false, fmt.Errorf("enqueueing %s: %w: it also has delivery %q", describe(jobs), ErrInvalidJob, jobs[i].Delivery)
		}
	}
	ids, cancelled, err := q.b.Enqueue(ctx, jobs, q.now())
	if errors.Is(err, ErrDuplicate) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("enqueueing %s: %w", describe(jobs), err)
	}
	for _, kind := range cancelled {
		q.onCancel(kind)
	}
	q.notify()
	return ids, false, nil
}

// Watch passes f the news of a queue that several servers share (see
// Watcher and Event), waking idle workers as Notify does, and keeps the
// leases of the jobs this process claimed, until ctx is done. It returns at
// once for a queue that only this process uses.
func (q *Queue) Watch(ctx context.Context, f func(Event)) {
	w, ok := q.b.(Watcher)
	if !ok {
		return
	}
	w.Watch(ctx, func(e Event) {
		if e.Lost == 0 {
			q.notify()
		}
		f(e)
	})
}

// describe names the jobs of one EnqueueAll call in messages.
func describe(jobs []Job) string {
	what := "a job"
	if len(jobs) > 1 {
		what = fmt.Sprintf("%d jobs", len(jobs))
	}
	if jobs[0].Delivery != "" {
		what += " of delivery " + jobs[0].Delivery
	}
	return what
}

// Claim marks the oldest queued job whose NotBefore has come and whose Key
// has no running job as running (one more attempt) and returns it, or nil
// when there is none; a suspect goes first, and runs alone (see Crashes in
// the package documentation). It is one transaction, so any number of goroutines
// and processes may claim at once and each job goes to one of them. With
// PostgreSQL the job is claimed with FOR UPDATE SKIP LOCKED under a lease
// that Watch renews, and the jobs of expired leases are dealt with first
// (see Recover).
func (q *Queue) Claim(ctx context.Context) (*Job, error) {
	j, cancelled, err := q.b.Claim(ctx, q.now())
	for _, kind := range cancelled {
		q.onCancel(kind)
	}
	if err != nil {
		return nil, fmt.Errorf("claiming a job: %w", err)
	}
	if j != nil {
		q.notify()
	}
	return j, nil
}

// Finish records the end of a running job: Done, Failed (errText says why)
// or Cancelled. A job that is not running is an error wrapping ErrNotRunning
// (ErrNotFound for an unknown id), and is left as it is.
func (q *Queue) Finish(ctx context.Context, id int64, state, errText string) error {
	switch state {
	case Done, Failed, Cancelled:
	default:
		return fmt.Errorf("finishing job %d: %q is not a final state (%s, %s or %s)", id, state, Done, Failed, Cancelled)
	}
	if err := q.b.Finish(ctx, id, state, errText, q.now()); err != nil {
		return fmt.Errorf("finishing job %d as %s: %w", id, state, err)
	}
	q.notify()
	return nil
}

// Requeue queues a running job again, to be claimed at notBefore or later,
// with one more retry; why says what it waits for (its Error until it
// ends). It keeps the job's check (SetCheck) for the next attempt. A job
// that is not running is an error wrapping ErrNotRunning (ErrNotFound for
// an unknown id), and is left as it is.
func (q *Queue) Requeue(ctx context.Context, id int64, notBefore time.Time, why string) error {
	if err := q.b.Requeue(ctx, id, notBefore, why, q.now()); err != nil {
		return fmt.Errorf("queueing job %d again for %s: %w", id, notBefore.UTC().Format(time.RFC3339), err)
	}
	q.notify()
	return nil
}

// Release queues a running job again as it was, to be claimed at once: the
// run a shutdown interrupts is neither a retry nor a crash; why says what
// happened (its Error until it ends). It keeps the job's check (SetCheck)
// for the next attempt, and a suspect stays one. A job that is not running
// is an error wrapping ErrNotRunning (ErrNotFound for an unknown id), and
// is left as it is.
func (q *Queue) Release(ctx context.Context, id int64, why string) error {
	if err := q.b.Release(ctx, id, why, q.now()); err != nil {
		return fmt.Errorf("queueing job %d again after a shutdown: %w", id, err)
	}
	q.notify()
	return nil
}

// Superseded reports whether a newer job (higher id) of j's Key exists, in
// any state: j's result must then not be published, since the newer job's
// would replace it (and an older commit never overwrites a newer result).
func (q *Queue) Superseded(ctx context.Context, j *Job) (bool, error) {
	if j == nil {
		return false, errors.New("checking whether a job is superseded: nil job")
	}
	newer, err := q.b.Superseded(ctx, j.Key(), j.ID)
	if err != nil {
		return false, fmt.Errorf("checking whether job %d of %s is superseded: %w", j.ID, j.Key(), err)
	}
	return newer, nil
}

// Published records that j's result (for its Key and HeadSHA) is being
// posted, unless a newer job of the same Key already published: then it
// returns ok=false, records nothing, and the caller must not post. Call it
// immediately before posting (see the package documentation). Calling it
// again for the same job is fine.
func (q *Queue) Published(ctx context.Context, j *Job) (ok bool, err error) {
	if j == nil {
		return false, errors.New("recording a publication: nil job")
	}
	if j.ID <= 0 || j.Repo == "" {
		return false, fmt.Errorf("recording the publication of job %d of %q: not a stored job", j.ID, j.Repo)
	}
	ok, err = q.b.Published(ctx, j.Key(), j.ID, j.HeadSHA, q.now())
	if err != nil {
		return false, fmt.Errorf("recording the publication of job %d of %s at %s: %w", j.ID, j.Key(), j.HeadSHA, err)
	}
	return ok, nil
}

// Recover deals with the jobs a process that died left running; call it
// once at start-up, before workers start. With SQLite, no other process
// runs jobs from the same store (one replica, docs/architecture.md §Storage), so every
// running job is one a process that stopped left; with PostgreSQL, only
// jobs whose lease expired are (Claim also takes those over).
// A job a newer job of its Key supersedes is cancelled; a suspect, which
// ran alone, is failed as the one that crashed the server (MaxCrashes); the
// others are queued again as suspects, to run alone (see Crashes in the
// package documentation; their Error says so until they finish). It
// returns how many it requeued.
func (q *Queue) Recover(ctx context.Context) (int, error) {
	requeued, cancelled, err := q.b.Recover(ctx, q.now())
	if err != nil {
		return 0, fmt.Errorf("recovering interrupted jobs: %w", err)
	}
	for _, kind := range cancelled {
		q.onCancel(kind)
	}
	if requeued > 0 {
		q.notify()
	}
	return requeued, nil
}

// Depth is the number of queued jobs.
func (q *Queue) Depth(ctx context.Context) (int, error) {
	n, err := q.b.Depth(ctx)
	if err != nil {
		return 0, fmt.Errorf("counting queued jobs: %w", err)
	}
	return n, nil
}

// OldestQueued is how long the oldest queued job has waited, 0 if none.
func (q *Queue) OldestQueued(ctx context.Context) (time.Duration, error) {
	oldest, err := q.b.OldestQueued(ctx)
	if err != nil {
		return 0, fmt.Errorf("finding the oldest queued job: %w", err)
	}
	if oldest.IsZero() {
		return 0, nil
	}
	return max(q.now().Sub(oldest), 0), nil
}

// Prune deletes what is older than age (last changed before now-age):
// finished jobs (done, failed, cancelled), delivery records, and publication
// records no older queued or running job of their Key could still need.
// Queued and running jobs are kept whatever their age. A delivery is no
// longer recognised as a duplicate once pruned, so age should outlast
// GitHub's redelivery window (DefaultRetention does). It returns how many
// records it deleted.
func (q *Queue) Prune(ctx context.Context, age time.Duration) (int, error) {
	if age <= 0 {
		return 0, fmt.Errorf("pruning the queue: age %v is not positive", age)
	}
	n, err := q.b.Prune(ctx, q.now().Add(-age))
	if err != nil {
		return 0, fmt.Errorf("pruning the queue of records older than %v: %w", age, err)
	}
	return n, nil
}

// SetCheck records the check a running job opened (a check run id, or -1 for
// a commit status) and whether it is still open, i.e. in progress on GitHub.
func (q *Queue) SetCheck(ctx context.Context, id, checkRun int64, open bool) error {
	if err := q.b.SetCheck(ctx, id, checkRun, open); err != nil {
		return fmt.Errorf("recording the check of job %d: %w", id, err)
	}
	return nil
}

// OpenChecks lists the jobs that ended (failed or cancelled, e.g. by
// Recover) with their check still open on GitHub: the caller closes the
// checks and records it with SetCheck.
func (q *Queue) OpenChecks(ctx context.Context) ([]*Job, error) {
	jobs, err := q.b.OpenChecks(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing jobs with open checks: %w", err)
	}
	return jobs, nil
}

// NewerOnSameCommit reports whether a newer job of j's Key is about the same
// head commit: it owns that commit's check from now on.
func (q *Queue) NewerOnSameCommit(ctx context.Context, j *Job) (bool, error) {
	ok, err := q.b.NewerOnSameCommit(ctx, j.Key(), j.ID, j.HeadSHA)
	if err != nil {
		return false, fmt.Errorf("looking for newer jobs of %s: %w", j.Key(), err)
	}
	return ok, nil
}

// Head is a commit of a repository that check runs were opened on.
type Head struct {
	Installation int64
	Repo         string
	SHA          string
	// Until is the newest ended job on the head when it was listed:
	// MarkSwept marks that one and the older ones, so that a job that ends
	// after the listing (whose check run the sweep did not see) is swept
	// again.
	Until int64
}

// EndedHeads lists up to limit heads of ended pull request and merge group
// jobs not yet swept (MarkSwept) on which no job is queued or running: the
// check runs left in progress there, if any, belong to no analysis.
func (q *Queue) EndedHeads(ctx context.Context, limit int) ([]Head, error) {
	heads, err := q.b.EndedHeads(ctx, limit)
	if err != nil {
		return nil, fmt.Errorf("listing the heads of ended jobs: %w", err)
	}
	return heads, nil
}

// MarkSwept records that the check runs on h were swept after the jobs on
// it that had ended when it was listed (up to h.Until).
func (q *Queue) MarkSwept(ctx context.Context, h Head) error {
	if err := q.b.MarkSwept(ctx, h); err != nil {
		return fmt.Errorf("recording the sweep of %s at %s: %w", h.Repo, h.SHA, err)
	}
	return nil
}

// Analyzing reports whether a job on the commit sha of repo is queued or
// running.
func (q *Queue) Analyzing(ctx context.Context, repo, sha string) (bool, error) {
	ok, err := q.b.Analyzing(ctx, repo, sha)
	if err != nil {
		return false, fmt.Errorf("looking for jobs on %s at %s: %w", repo, sha, err)
	}
	return ok, nil
}

// KnowsCheckRun reports whether a job of repo recorded the check run id as
// its own (SetCheck, or taken over at EnqueueAll).
func (q *Queue) KnowsCheckRun(ctx context.Context, repo string, id int64) (bool, error) {
	ok, err := q.b.KnowsCheckRun(ctx, repo, id)
	if err != nil {
		return false, fmt.Errorf("looking for the job of check run %d of %s: %w", id, repo, err)
	}
	return ok, nil
}
