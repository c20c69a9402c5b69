// Package queue is the bot's durable job queue, kept in the cache's SQLite
// file (ARCHITECTURE.md §7, §9). The webhook server enqueues a job before it
// answers; workers claim, run and finish jobs; queued jobs survive a restart.
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
// the retry. Attempts counts the starts of a job; a start that ended in
// Requeue did not end in a crash, so Recover gives up on a job after
// MaxAttempts starts that ended neither way.
//
// Every write is one transaction, which takes SQLite's write lock when it
// begins (see cache.Store.Write), so several goroutines and processes can share
// one queue; reads are plain queries. Notify wakes idle workers of this
// process; workers of other processes find jobs by polling.
package queue

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/setbot/setbot/cache"
)

const (
	// MaxAttempts is how many times a job is started before Recover gives up
	// on it: a job that took its process down that often would do it again.
	MaxAttempts = 3

	// DefaultRetention is an age for Prune that outlasts GitHub's redelivery
	// window (deliveries of the last three days can be redelivered), so that
	// a redelivered webhook is still recognised as a duplicate.
	DefaultRetention = 7 * 24 * time.Hour
)

var (
	// ErrNotFound is wrapped by the error of Finish for an unknown id.
	ErrNotFound = errors.New("job not found")
	// ErrNotRunning is wrapped by the error of Finish for a job that is not
	// running: it was never claimed, is already finished, or was requeued by
	// Recover.
	ErrNotRunning = errors.New("job not running")
)

// errDuplicate makes EnqueueAll's transaction roll back when the delivery was
// seen before.
var errDuplicate = errors.New("duplicate delivery")

// Queue is the job queue in one store. Its methods are safe for concurrent
// use, once SetClock and OnCancel have been called (before any other).
type Queue struct {
	store    *cache.Store
	wake     chan struct{}
	now      func() time.Time // the clock
	fresh    bool
	onCancel func(kind string)
}

// Open returns the queue kept in store, which must be open, creating or
// updating its tables first.
func Open(ctx context.Context, store *cache.Store) (*Queue, error) {
	var tables int
	if err := store.QueryRow(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'jobs'").Scan(&tables); err != nil {
		return nil, fmt.Errorf("opening the job queue: %w", err)
	}
	if err := store.Migrate(ctx, schema); err != nil {
		return nil, fmt.Errorf("opening the job queue: %w", err)
	}
	return &Queue{store: store, wake: make(chan struct{}, 1), now: time.Now, fresh: tables == 0, onCancel: func(string) {}}, nil
}

// Fresh reports whether Open created the queue's tables: the store is new,
// was rebuilt, or its file was lost, so whatever jobs were in flight before
// are unknown.
func (q *Queue) Fresh() bool { return q.fresh }

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
// Claim returns nil. Jobs enqueued by other processes are only found by the
// ticker.
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
	now := q.now().UnixNano()
	var cancelled []string
	err = q.store.Write(ctx, func(tx *sql.Tx) error {
		ids, cancelled = ids[:0], cancelled[:0]
		if delivery != "" {
			res, err := tx.ExecContext(ctx,
				"INSERT INTO deliveries (id, received) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", delivery, now)
			if err != nil {
				return fmt.Errorf("recording the delivery: %w", err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return fmt.Errorf("recording the delivery: %w", err)
			} else if n == 0 {
				return errDuplicate
			}
		}
		for _, j := range jobs {
			id, kinds, err := insert(ctx, tx, j, now)
			if err != nil {
				return fmt.Errorf("storing the %s job of %s: %w", j.Kind, j.Key(), err)
			}
			ids = append(ids, id)
			cancelled = append(cancelled, kinds...)
		}
		return nil
	})
	if errors.Is(err, errDuplicate) {
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

// insert adds j as a queued job and cancels the queued jobs it supersedes,
// whose kinds it returns.
func insert(ctx context.Context, tx *sql.Tx, j Job, now int64) (int64, []string, error) {
	key := j.Key()
	rows, err := tx.QueryContext(ctx, "SELECT kind, fresh FROM jobs WHERE key = ? AND state = ?", key, Queued)
	if err != nil {
		return 0, nil, err
	}
	var superseded []string
	for rows.Next() {
		var (
			kind  string
			fresh bool
		)
		if err := rows.Scan(&kind, &fresh); err != nil {
			rows.Close()
			return 0, nil, err
		}
		superseded = append(superseded, kind)
		j.Fresh = j.Fresh || fresh
		if kind == KindFull && j.Kind == KindPush {
			j.Kind = KindFull
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	// Only the heads of jobs that open check runs are swept when they end.
	swept := j.Kind != KindPullRequest && j.Kind != KindMergeGroup
	var id int64
	err = tx.QueryRowContext(ctx, `
INSERT INTO jobs (delivery, kind, installation, repo, clone_url, pr, branch, base_sha, head_sha,
	fresh, requester, command, comment_id, key, state, attempts, error, created, updated, check_run, check_open, swept)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '', ?, ?, ?, ?, ?)
RETURNING id`,
		j.Delivery, j.Kind, j.Installation, j.Repo, j.CloneURL, j.PR, j.Branch, j.BaseSHA, j.HeadSHA,
		j.Fresh, j.Requester, j.Command, j.CommentID, key, Queued, now, now, j.CheckRun, j.CheckRun > 0, swept).Scan(&id)
	if err != nil {
		return 0, nil, err
	}
	if len(superseded) > 0 {
		if _, err := tx.ExecContext(ctx, "UPDATE jobs SET state = ?, error = ?, updated = ? WHERE key = ? AND state = ? AND id < ?",
			Cancelled, fmt.Sprintf("superseded by job %d", id), now, key, Queued, id); err != nil {
			return 0, nil, err
		}
	}
	return id, superseded, nil
}

// jobColumns are the columns scanJob reads, in its order.
const jobColumns = `id, delivery, kind, installation, repo, clone_url, pr, branch, base_sha, head_sha,
	fresh, requester, command, comment_id, state, attempts, error, created, updated, check_run, check_open,
	retries, not_before`

// scanJob reads a row of jobColumns.
func scanJob(row interface{ Scan(...any) error }) (*Job, error) {
	var (
		j                           Job
		created, updated, notBefore int64
	)
	if err := row.Scan(&j.ID, &j.Delivery, &j.Kind, &j.Installation, &j.Repo, &j.CloneURL, &j.PR, &j.Branch,
		&j.BaseSHA, &j.HeadSHA, &j.Fresh, &j.Requester, &j.Command, &j.CommentID, &j.State, &j.Attempts, &j.Error, &created, &updated, &j.CheckRun, &j.CheckOpen,
		&j.Retries, &notBefore); err != nil {
		return nil, err
	}
	j.Created = time.Unix(0, created).UTC()
	j.Updated = time.Unix(0, updated).UTC()
	if notBefore > 0 {
		j.NotBefore = time.Unix(0, notBefore).UTC()
	}
	return &j, nil
}

// Claim marks the oldest queued job whose NotBefore has come and whose Key
// has no running job as running (one more attempt) and returns it, or nil
// when there is none. It is one
// transaction, so any number of goroutines and processes may claim at once
// and each job goes to one of them.
func (q *Queue) Claim(ctx context.Context) (*Job, error) {
	var j *Job
	err := q.store.Write(ctx, func(tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `
UPDATE jobs SET state = ?1, attempts = attempts + 1, updated = ?2
WHERE id = (
	SELECT c.id FROM jobs c
	WHERE c.state = ?3 AND c.not_before <= ?2
	AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.key = c.key AND r.state = ?1)
	ORDER BY c.id
	LIMIT 1)
RETURNING `+jobColumns,
			Running, q.now().UnixNano(), Queued)
		var err error
		j, err = scanJob(row)
		if errors.Is(err, sql.ErrNoRows) {
			j = nil
			return nil
		}
		return err
	})
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
	err := q.store.Write(ctx, func(tx *sql.Tx) error {
		var current string
		err := tx.QueryRowContext(ctx, "SELECT state FROM jobs WHERE id = ?", id).Scan(&current)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if current != Running {
			return fmt.Errorf("it is %s: %w", current, ErrNotRunning)
		}
		_, err = tx.ExecContext(ctx, "UPDATE jobs SET state = ?, error = ?, updated = ? WHERE id = ?",
			state, errText, q.now().UnixNano(), id)
		return err
	})
	if err != nil {
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
	err := q.store.Write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "UPDATE jobs SET state = ?, not_before = ?, retries = retries + 1, error = ?, updated = ? WHERE id = ? AND state = ?",
			Queued, notBefore.UnixNano(), why, q.now().UnixNano(), id, Running)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		var current string
		err = tx.QueryRowContext(ctx, "SELECT state FROM jobs WHERE id = ?", id).Scan(&current)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("it is %s: %w", current, ErrNotRunning)
	})
	if err != nil {
		return fmt.Errorf("queueing job %d again for %s: %w", id, notBefore.UTC().Format(time.RFC3339), err)
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
	var newer bool
	err := q.store.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE key = ? AND id > ?)", j.Key(), j.ID).Scan(&newer)
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
	err = q.store.Write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
INSERT INTO published (key, job, head_sha, updated) VALUES (?, ?, ?, ?)
ON CONFLICT (key) DO UPDATE SET job = excluded.job, head_sha = excluded.head_sha, updated = excluded.updated
WHERE published.job <= excluded.job`,
			j.Key(), j.ID, j.HeadSHA, q.now().UnixNano())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	if err != nil {
		return false, fmt.Errorf("recording the publication of job %d of %s at %s: %w", j.ID, j.Key(), j.HeadSHA, err)
	}
	return ok, nil
}

// Recover deals with the jobs a process that died left running; call it
// once at start-up, before workers start, and only where no other process
// is running jobs from the same store (one replica, ARCHITECTURE.md §9).
// A job a newer job of its Key supersedes is cancelled; one whose process
// stopped MaxAttempts times while running it is marked failed; the others
// are queued again (their Error says so until they finish). It returns how
// many it requeued.
func (q *Queue) Recover(ctx context.Context) (int, error) {
	var (
		requeued  int64
		cancelled []string
	)
	err := q.store.Write(ctx, func(tx *sql.Tx) error {
		cancelled = cancelled[:0]
		now := q.now().UnixNano()
		rows, err := tx.QueryContext(ctx, `
UPDATE jobs SET state = ?1, error = 'superseded by job ' || (SELECT max(n.id) FROM jobs n WHERE n.key = jobs.key), updated = ?2
WHERE state = ?3 AND EXISTS (SELECT 1 FROM jobs n WHERE n.key = jobs.key AND n.id > jobs.id)
RETURNING kind`,
			Cancelled, now, Running)
		if err != nil {
			return err
		}
		for rows.Next() {
			var kind string
			if err := rows.Scan(&kind); err != nil {
				rows.Close()
				return err
			}
			cancelled = append(cancelled, kind)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		// Starts that ended in Requeue were not stopped by their process.
		if _, err := tx.ExecContext(ctx, `
UPDATE jobs SET state = ?1, error = 'abandoned after ' || (attempts - retries) || ' attempts: the process running it stopped each time', updated = ?2
WHERE state = ?3 AND attempts - retries >= ?4`,
			Failed, now, Running, MaxAttempts); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `
UPDATE jobs SET state = ?1, error = 'requeued: the process running attempt ' || attempts || ' stopped', updated = ?2
WHERE state = ?3`,
			Queued, now, Running)
		if err != nil {
			return err
		}
		requeued, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("recovering interrupted jobs: %w", err)
	}
	for _, kind := range cancelled {
		q.onCancel(kind)
	}
	if requeued > 0 {
		q.notify()
	}
	return int(requeued), nil
}

// Depth is the number of queued jobs.
func (q *Queue) Depth(ctx context.Context) (int, error) {
	var n int
	if err := q.store.QueryRow(ctx, "SELECT count(*) FROM jobs WHERE state = ?", Queued).Scan(&n); err != nil {
		return 0, fmt.Errorf("counting queued jobs: %w", err)
	}
	return n, nil
}

// OldestQueued is how long the oldest queued job has waited, 0 if none.
func (q *Queue) OldestQueued(ctx context.Context) (time.Duration, error) {
	var oldest sql.NullInt64
	if err := q.store.QueryRow(ctx, "SELECT min(created) FROM jobs WHERE state = ?", Queued).Scan(&oldest); err != nil {
		return 0, fmt.Errorf("finding the oldest queued job: %w", err)
	}
	if !oldest.Valid {
		return 0, nil
	}
	return max(q.now().Sub(time.Unix(0, oldest.Int64)), 0), nil
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
	cutoff := q.now().Add(-age).UnixNano()
	var deleted int64
	err := q.store.Write(ctx, func(tx *sql.Tx) error {
		deleted = 0
		for _, stmt := range []struct {
			sql  string
			args []any
		}{
			// A job whose check is still open stays until it is closed.
			{"DELETE FROM jobs WHERE state IN (?, ?, ?) AND updated < ? AND check_open = 0", []any{Done, Failed, Cancelled, cutoff}},
			{"DELETE FROM deliveries WHERE received < ?", []any{cutoff}},
			{`DELETE FROM published WHERE updated < ? AND NOT EXISTS (
	SELECT 1 FROM jobs WHERE jobs.key = published.key AND jobs.state IN (?, ?) AND jobs.id < published.job)`,
				[]any{cutoff, Queued, Running}},
		} {
			res, err := tx.ExecContext(ctx, stmt.sql, stmt.args...)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			deleted += n
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("pruning the queue of records older than %v: %w", age, err)
	}
	return int(deleted), nil
}

// SetCheck records the check a running job opened (a check run id, or -1 for
// a commit status) and whether it is still open, i.e. in progress on GitHub.
func (q *Queue) SetCheck(ctx context.Context, id, checkRun int64, open bool) error {
	err := q.store.Write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE jobs SET check_run = ?, check_open = ? WHERE id = ?", checkRun, open, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("recording the check of job %d: %w", id, err)
	}
	return nil
}

// OpenChecks lists the jobs that ended (failed or cancelled, e.g. by
// Recover) with their check still open on GitHub: the caller closes the
// checks and records it with SetCheck.
func (q *Queue) OpenChecks(ctx context.Context) ([]*Job, error) {
	rows, err := q.store.Query(ctx, "SELECT "+jobColumns+" FROM jobs WHERE check_open = 1 AND state IN (?, ?) ORDER BY id", Failed, Cancelled)
	if err != nil {
		return nil, fmt.Errorf("listing jobs with open checks: %w", err)
	}
	defer rows.Close()
	var out []*Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, fmt.Errorf("listing jobs with open checks: %w", err)
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

// NewerOnSameCommit reports whether a newer job of j's Key is about the same
// head commit: it owns that commit's check from now on.
func (q *Queue) NewerOnSameCommit(ctx context.Context, j *Job) (bool, error) {
	var ok bool
	err := q.store.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE key = ? AND id > ? AND head_sha = ?)", j.Key(), j.ID, j.HeadSHA).Scan(&ok)
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
	rows, err := q.store.Query(ctx, `
SELECT max(installation), repo, head_sha, max(id) FROM jobs j
WHERE swept = 0 AND head_sha != '' AND state IN (?, ?, ?)
AND NOT EXISTS (SELECT 1 FROM jobs a WHERE a.repo = j.repo AND a.head_sha = j.head_sha AND a.state IN (?, ?))
GROUP BY repo, head_sha
ORDER BY max(updated)
LIMIT ?`, Done, Failed, Cancelled, Queued, Running, limit)
	if err != nil {
		return nil, fmt.Errorf("listing the heads of ended jobs: %w", err)
	}
	defer rows.Close()
	var out []Head
	for rows.Next() {
		var h Head
		if err := rows.Scan(&h.Installation, &h.Repo, &h.SHA, &h.Until); err != nil {
			return nil, fmt.Errorf("listing the heads of ended jobs: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// MarkSwept records that the check runs on h were swept after the jobs on
// it that had ended when it was listed (up to h.Until).
func (q *Queue) MarkSwept(ctx context.Context, h Head) error {
	err := q.store.Write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE jobs SET swept = 1 WHERE repo = ? AND head_sha = ? AND id <= ? AND state IN (?, ?, ?)",
			h.Repo, h.SHA, h.Until, Done, Failed, Cancelled)
		return err
	})
	if err != nil {
		return fmt.Errorf("recording the sweep of %s at %s: %w", h.Repo, h.SHA, err)
	}
	return nil
}

// Analysing reports whether a job on the commit sha of repo is queued or
// running.
func (q *Queue) Analysing(ctx context.Context, repo, sha string) (bool, error) {
	var ok bool
	err := q.store.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE repo = ? AND head_sha = ? AND state IN (?, ?))",
		repo, sha, Queued, Running).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("looking for jobs on %s at %s: %w", repo, sha, err)
	}
	return ok, nil
}

// KnowsCheckRun reports whether a job of repo recorded the check run id as
// its own (SetCheck, or taken over at EnqueueAll).
func (q *Queue) KnowsCheckRun(ctx context.Context, repo string, id int64) (bool, error) {
	var ok bool
	err := q.store.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE repo = ? AND check_run = ?)", repo, id).Scan(&ok)
	if err != nil {
		return false, fmt.Errorf("looking for the job of check run %d of %s: %w", id, repo, err)
	}
	return ok, nil
}
