package queue

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/setbot/setbot/cache"
)

// The queue in a store, SQLite or PostgreSQL (see dialect for what
// differs). In SQLite, every write is one transaction, which takes the
// write lock when it begins (see cache.DB.Write); reads are plain queries.
// It has no leases: one server uses the file, so at its start every running
// job is one its previous process left (Recover).
//
// In PostgreSQL several servers (replicas) share the queue:
//
//   - Claim takes the oldest claimable job with FOR UPDATE SKIP LOCKED, so
//     replicas claiming at once take different jobs without waiting for
//     each other, and gives the claimer a lease: a time until which the job
//     is its own. The replica renews the leases of its jobs every third of
//     the lease (Watch); a replica that dies stops renewing, and once the
//     lease has expired the next Claim anywhere deals with the job as
//     Recover does with one server: cancelled if a newer job of its Key
//     exists, failed if it ran alone as a suspect, queued again as a
//     suspect otherwise (see Crashes in the package documentation).
//   - One job per Key runs at a time across replicas: Enqueue serialises
//     the jobs of a Key with an advisory lock, so each new job sees and
//     cancels the older queued ones; Claim takes no job whose Key has a
//     running one; and a unique index on the Key of running jobs makes the
//     database refuse a second one whatever the races (the claim that loses
//     finds no job, and its worker looks again later).
//   - Ids grow in the order jobs of a Key commit (the advisory lock is taken
//     before the id is drawn), so "a higher id is a newer job" holds across
//     replicas as it does in SQLite.
//   - A newer job supersedes a running one on whichever replica holds it:
//     Enqueue sends the new job's id and Key with NOTIFY on commit, and
//     every replica's Watch hears it and stops its run of the Key.
//   - A delivery is recorded under its id as a primary key in the same
//     transaction as its jobs: the replica that commits first queues them,
//     and the others find the row and answer duplicate.
//   - Finish, Requeue and SetCheck change a running job only for the
//     replica that holds its lease, so a replica that lost its lease (it
//     stalled past it) cannot end a job another replica now runs.

// DefaultLease is how long a replica's claim on a running job lasts
// without renewal; a lease is renewed every third of it. MinLease is the
// shortest accepted.
const (
	DefaultLease = 30 * time.Second
	MinLease     = time.Second
)

// notifyChannel carries the queue's news between replicas: "" for a
// change that may let a job be claimed, "ID KEY" for a job just queued.
const notifyChannel = "setbot_queue"

// reapLock is the advisory lock of Recover in PostgreSQL ("SETR").
const reapLock = 0x53455452

// sqlQueue is the queue's Backend in a store.
type sqlQueue struct {
	db    *cache.DB
	d     *dialect
	fresh bool
	// leases is nil in SQLite.
	leases *leases

	// claiming serialises the claims of this process's workers, so that
	// each sees the jobs the others started: a suspect runs alone.
	claiming sync.Mutex
}

// leases are the jobs a replica runs in PostgreSQL.
type leases struct {
	owner string // this replica, in lease_owner
	lease time.Duration

	mu   sync.Mutex
	held map[int64]bool // the running jobs whose lease this replica holds
}

// sharedQueue is the queue in PostgreSQL, which Watch keeps up with the
// other replicas.
type sharedQueue struct {
	*sqlQueue
}

var (
	_ Backend = (*sqlQueue)(nil)
	_ Watcher = sharedQueue{}
)

// Open returns the queue kept in the SQLite store, which must be open,
// creating or updating its tables first.
func Open(ctx context.Context, store *cache.Store) (*Queue, error) {
	s, err := open(ctx, store.DB, sqliteDialect)
	if err != nil {
		return nil, err
	}
	return New(s), nil
}

// OpenPostgres returns the queue kept in db, creating or updating its
// tables first. lease is how long a claim lasts without renewal (0 means
// DefaultLease); Watch renews them.
func OpenPostgres(ctx context.Context, db *cache.Postgres, lease time.Duration) (*Queue, error) {
	if lease < 0 || lease > 0 && lease < MinLease {
		return nil, fmt.Errorf("opening the job queue: a lease of %v is shorter than %v", lease, MinLease)
	}
	if lease == 0 {
		lease = DefaultLease
	}
	owner, err := replicaID()
	if err != nil {
		return nil, fmt.Errorf("opening the job queue: %w", err)
	}
	s, err := open(ctx, db.DB, postgresDialect)
	if err != nil {
		return nil, err
	}
	s.leases = &leases{owner: owner, lease: lease, held: map[int64]bool{}}
	return New(sharedQueue{s}), nil
}

// open returns the queue kept in db, whose dialect is d, after migrating
// its tables.
func open(ctx context.Context, db *cache.DB, d *dialect) (*sqlQueue, error) {
	var exists bool
	if err := db.QueryRow(ctx, d.hasJobs).Scan(&exists); err != nil {
		return nil, fmt.Errorf("opening the job queue: %w", err)
	}
	if err := db.Migrate(ctx, d.schema); err != nil {
		return nil, fmt.Errorf("opening the job queue: %w", err)
	}
	return &sqlQueue{db: db, d: d, fresh: !exists}, nil
}

// replicaID names this process among the replicas: its host, its pid and
// random bytes, since a restarted process may get the pid of a dead one.
func replicaID() (string, error) {
	host, _ := os.Hostname()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:])), nil
}

func (s *sqlQueue) Fresh() bool { return s.fresh }

// owner is this replica's name in lease_owner; "" in SQLite.
func (s *sqlQueue) owner() string {
	if s.leases == nil {
		return ""
	}
	return s.leases.owner
}

// owned appends to args the argument of the dialect's held: the owner, in
// PostgreSQL.
func (s *sqlQueue) owned(args ...any) []any {
	if s.leases == nil {
		return args
	}
	return append(args, s.leases.owner)
}

// hold records whether this replica holds the lease of job id.
func (s *sqlQueue) hold(id int64, held bool) {
	if s.leases == nil {
		return
	}
	s.leases.mu.Lock()
	defer s.leases.mu.Unlock()
	if held {
		s.leases.held[id] = true
	} else {
		delete(s.leases.held, id)
	}
}

// announce sends payload to the replicas, in PostgreSQL, when tx commits.
func (s *sqlQueue) announce(ctx context.Context, tx *cache.Tx, payload string) error {
	if s.d.notify == "" {
		return nil
	}
	_, err := tx.Exec(ctx, s.d.notify, notifyChannel, payload)
	return err
}

func (s *sqlQueue) Enqueue(ctx context.Context, jobs []Job, now time.Time) (ids []int64, cancelled []string, err error) {
	delivery := jobs[0].Delivery
	keys := make([]string, len(jobs))
	for i := range jobs {
		keys[i] = jobs[i].Key()
	}
	// In one order, so that two deliveries of the same Keys cannot deadlock.
	slices.Sort(keys)
	keys = slices.Compact(keys)
	err = s.db.Write(ctx, func(tx *cache.Tx) error {
		ids, cancelled = ids[:0], cancelled[:0]
		for _, key := range keys {
			if s.d.keyLock == "" {
				break
			}
			if _, err := tx.Exec(ctx, s.d.keyLock, key); err != nil {
				return fmt.Errorf("locking %s: %w", key, err)
			}
		}
		if delivery != "" {
			res, err := tx.Exec(ctx,
				"INSERT INTO deliveries (id, received) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", delivery, now.UnixNano())
			if err != nil {
				return fmt.Errorf("recording the delivery: %w", err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return fmt.Errorf("recording the delivery: %w", err)
			} else if n == 0 {
				return ErrDuplicate
			}
		}
		for _, j := range jobs {
			id, kinds, err := s.insert(ctx, tx, j, now.UnixNano())
			if err != nil {
				return fmt.Errorf("storing the %s job of %s: %w", j.Kind, j.Key(), err)
			}
			ids = append(ids, id)
			cancelled = append(cancelled, kinds...)
		}
		return nil
	})
	return ids, cancelled, err
}

// insert adds j as a queued job, cancels the queued jobs it supersedes,
// whose kinds it returns, and announces it.
func (s *sqlQueue) insert(ctx context.Context, tx *cache.Tx, j Job, now int64) (int64, []string, error) {
	key := j.Key()
	rows, err := tx.Query(ctx, "SELECT kind, fresh FROM jobs WHERE key = ? AND state = ?", key, Queued)
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
		inherit(&j, kind, fresh)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	var id int64
	err = tx.QueryRow(ctx, `
INSERT INTO jobs (delivery, kind, installation, repo, clone_url, pr, branch, base_sha, head_sha,
	fresh, requester, command, comment_id, key, state, attempts, error, created, updated, check_run, check_open, swept)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '', ?, ?, ?, ?, ?)
RETURNING id`,
		j.Delivery, j.Kind, j.Installation, j.Repo, j.CloneURL, j.PR, j.Branch, j.BaseSHA, j.HeadSHA,
		j.Fresh, j.Requester, j.Command, j.CommentID, key, Queued, now, now, j.CheckRun, j.CheckRun > 0, !j.opensChecks()).Scan(&id)
	if err != nil {
		return 0, nil, err
	}
	if len(superseded) > 0 {
		if _, err := tx.Exec(ctx, "UPDATE jobs SET state = ?, error = ?, updated = ? WHERE key = ? AND state = ? AND id < ?",
			Cancelled, fmt.Sprintf("superseded by job %d", id), now, key, Queued, id); err != nil {
			return 0, nil, err
		}
	}
	if err := s.announce(ctx, tx, strconv.FormatInt(id, 10)+" "+key); err != nil {
		return 0, nil, err
	}
	return id, superseded, nil
}

// jobColumns are the columns scanJob reads, in its order.
const jobColumns = `id, delivery, kind, installation, repo, clone_url, pr, branch, base_sha, head_sha,
	fresh, requester, command, comment_id, state, attempts, error, created, updated, check_run, check_open,
	retries, not_before, crashes`

// scanJob reads a row of jobColumns.
func scanJob(row interface{ Scan(...any) error }) (*Job, error) {
	var (
		j                           Job
		created, updated, notBefore int64
	)
	if err := row.Scan(&j.ID, &j.Delivery, &j.Kind, &j.Installation, &j.Repo, &j.CloneURL, &j.PR, &j.Branch,
		&j.BaseSHA, &j.HeadSHA, &j.Fresh, &j.Requester, &j.Command, &j.CommentID, &j.State, &j.Attempts, &j.Error, &created, &updated, &j.CheckRun, &j.CheckOpen,
		&j.Retries, &notBefore, &j.Crashes); err != nil {
		return nil, err
	}
	j.setTimes(created, updated, notBefore)
	return &j, nil
}

// claimSQL claims a job: ?1 Running, ?2 now, ?3 Queued and, in PostgreSQL,
// ?4 the owner and ?5 the lease in milliseconds.
func (d *dialect) claimSQL() string {
	return `
UPDATE jobs SET state = ?1, attempts = attempts + 1, updated = ?2` + d.lease + `
WHERE id = (
	SELECT c.id FROM jobs c
	WHERE c.state = ?3 AND c.not_before <= ?2
	AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.key = c.key AND r.state = ?1)
	AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.state = ?1` + d.sameServer + ` AND (r.crashes > 0 OR c.crashes > 0))
	AND (c.crashes > 0 OR NOT EXISTS (SELECT 1 FROM jobs w WHERE w.state = ?3 AND w.crashes > 0 AND w.not_before <= ?2))
	ORDER BY c.id
	LIMIT 1` + d.skipLocked + `)
RETURNING ` + jobColumns
}

func (s *sqlQueue) Claim(ctx context.Context, now time.Time) (*Job, []string, error) {
	var cancelled []string
	if s.leases != nil {
		var err error
		if _, cancelled, err = s.Recover(ctx, now); err != nil {
			return nil, nil, err
		}
	}
	var lease int64
	if s.leases != nil {
		lease = s.leases.lease.Milliseconds()
	}
	// A suspect runs alone in this server; one waiting anywhere holds back
	// the other claims until a server is idle to take it.
	s.claiming.Lock()
	var j *Job
	err := s.db.Write(ctx, func(tx *cache.Tx) error {
		var err error
		j, err = scanJob(tx.QueryRow(ctx, s.d.claimSQL(), Running, now.UnixNano(), Queued, s.owner(), lease))
		return err
	})
	s.claiming.Unlock()
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil, cancelled, nil
	case cache.Violates(err, "jobs_one_running"):
		// Another replica started a job of the same Key meanwhile: this one
		// waits for it, as it would have had the claim seen it.
		return nil, cancelled, nil
	case err != nil:
		return nil, cancelled, err
	}
	s.hold(j.ID, true)
	return j, cancelled, nil
}

// The statements of Recover that deal with the jobs left running that no
// newer job supersedes: a job whose process died for the MaxCrashes-th time
// while it ran (the last time alone) is failed; the others are queued
// again as suspects, to run alone.
const (
	crashedSQL = `UPDATE jobs SET state = ?1, crashes = crashes + 1, error = ?2, updated = ?3%s WHERE state = ?4%s AND crashes + 1 >= ?5`
	suspectSQL = `UPDATE jobs SET state = ?1, crashes = crashes + 1, error = ?2, updated = ?3%s WHERE state = ?4%s`
)

// Recover deals with the running jobs whose process stopped: in SQLite all
// of them, in PostgreSQL those whose lease expired, in one transaction:
// "expired" is judged at its start (now()), so its three statements see the
// same jobs expired. One replica recovers at a time (the others find the
// lock taken and go on), so that two never lock the same rows in different
// orders.
func (s *sqlQueue) Recover(ctx context.Context, at time.Time) (requeued int, cancelled []string, err error) {
	now := at.UnixNano()
	err = s.db.Write(ctx, func(tx *cache.Tx) error {
		requeued, cancelled = 0, nil
		if ok, err := s.mayRecover(ctx, tx); err != nil || !ok {
			return err
		}
		rows, err := tx.Query(ctx, `
UPDATE jobs SET state = ?1, error = 'superseded by job ' || (SELECT max(n.id) FROM jobs n WHERE n.key = jobs.key), updated = ?2`+s.d.free+`
WHERE state = ?3`+s.d.expired+` AND EXISTS (SELECT 1 FROM jobs n WHERE n.key = jobs.key AND n.id > jobs.id)
RETURNING kind`, Cancelled, now, Running)
		if err != nil {
			return err
		}
		if cancelled, err = collect(rows, func(kind *string) []any { return []any{kind} }); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, fmt.Sprintf(crashedSQL, s.d.free, s.d.expired), Failed, crashedError, now, Running, MaxCrashes); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, fmt.Sprintf(suspectSQL, s.d.free, s.d.expired), Queued, suspectError, now, Running)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if requeued = int(n); err != nil || requeued+len(cancelled) == 0 {
			return err
		}
		return s.announce(ctx, tx, "")
	})
	return requeued, cancelled, err
}

// mayRecover says whether Recover has jobs to deal with and, in
// PostgreSQL, the lock to do it.
func (s *sqlQueue) mayRecover(ctx context.Context, tx *cache.Tx) (bool, error) {
	var left bool
	if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE state = ?"+s.d.expired+")", Running).Scan(&left); err != nil || !left {
		return false, err
	}
	if s.d.tryLock == "" {
		return true, nil
	}
	var locked bool
	err := tx.QueryRow(ctx, s.d.tryLock, int64(reapLock)).Scan(&locked)
	return locked, err
}

// collect reads every row of rows into a T, whose fields fields lists for
// Scan, and closes rows.
func collect[T any](rows *sql.Rows, fields func(*T) []any) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(fields(&v)...); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// changeRunning runs update, a statement that changes job id if it is
// running (and, in PostgreSQL, under this replica's lease), with args; it
// explains a change that found no such job.
func (s *sqlQueue) changeRunning(ctx context.Context, id int64, update string, args ...any) error {
	err := s.db.Write(ctx, func(tx *cache.Tx) error {
		res, err := tx.Exec(ctx, update, args...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			if err == nil {
				err = s.announce(ctx, tx, "")
			}
			return err
		}
		var state string
		err = tx.QueryRow(ctx, "SELECT state FROM jobs WHERE id = ?", id).Scan(&state)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return ErrNotFound
		case err != nil:
			return err
		case state == Running:
			return fmt.Errorf("another server took it over: %w", ErrNotRunning)
		}
		return fmt.Errorf("it is %s: %w", state, ErrNotRunning)
	})
	s.hold(id, false)
	return err
}

// whereHeld ends the statements of changeRunning: their last arguments are
// Running, the id and, in PostgreSQL, the owner (see owned).
func (s *sqlQueue) whereHeld() string { return s.d.free + " WHERE state = ? AND id = ?" + s.d.held }

func (s *sqlQueue) Finish(ctx context.Context, id int64, state, errText string, now time.Time) error {
	return s.changeRunning(ctx, id, "UPDATE jobs SET state = ?, error = ?, updated = ?"+s.whereHeld(),
		s.owned(state, errText, now.UnixNano(), Running, id)...)
}

func (s *sqlQueue) Requeue(ctx context.Context, id int64, notBefore time.Time, why string, now time.Time) error {
	return s.changeRunning(ctx, id, "UPDATE jobs SET state = ?, not_before = ?, retries = retries + 1, error = ?, updated = ?"+s.whereHeld(),
		s.owned(Queued, notBefore.UnixNano(), why, now.UnixNano(), Running, id)...)
}

func (s *sqlQueue) Release(ctx context.Context, id int64, why string, now time.Time) error {
	return s.changeRunning(ctx, id, "UPDATE jobs SET state = ?, error = ?, updated = ?"+s.whereHeld(),
		s.owned(Queued, why, now.UnixNano(), Running, id)...)
}

// exists answers a query of the form SELECT EXISTS (...).
func (s *sqlQueue) exists(ctx context.Context, query string, args ...any) (bool, error) {
	var ok bool
	err := s.db.QueryRow(ctx, query, args...).Scan(&ok)
	return ok, err
}

func (s *sqlQueue) Superseded(ctx context.Context, key string, id int64) (bool, error) {
	return s.exists(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE key = ? AND id > ?)", key, id)
}

func (s *sqlQueue) Published(ctx context.Context, key string, id int64, headSHA string, now time.Time) (ok bool, err error) {
	err = s.db.Write(ctx, func(tx *cache.Tx) error {
		res, err := tx.Exec(ctx, `
INSERT INTO published (key, job, head_sha, updated) VALUES (?, ?, ?, ?)
ON CONFLICT (key) DO UPDATE SET job = excluded.job, head_sha = excluded.head_sha, updated = excluded.updated
WHERE published.job <= excluded.job`,
			key, id, headSHA, now.UnixNano())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	return ok, err
}

func (s *sqlQueue) Depth(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, "SELECT count(*) FROM jobs WHERE state = ?", Queued).Scan(&n)
	return n, err
}

func (s *sqlQueue) OldestQueued(ctx context.Context) (time.Time, error) {
	var oldest sql.NullInt64
	if err := s.db.QueryRow(ctx, "SELECT min(created) FROM jobs WHERE state = ?", Queued).Scan(&oldest); err != nil || !oldest.Valid {
		return time.Time{}, err
	}
	return time.Unix(0, oldest.Int64), nil
}

func (s *sqlQueue) Prune(ctx context.Context, before time.Time) (int, error) {
	cutoff := before.UnixNano()
	var deleted int64
	err := s.db.Write(ctx, func(tx *cache.Tx) error {
		deleted = 0
		for _, stmt := range []struct {
			sql  string
			args []any
		}{
			// A job whose check is still open stays until it is closed.
			{"DELETE FROM jobs WHERE state IN (?, ?, ?) AND updated < ? AND check_open = " + s.d.False, []any{Done, Failed, Cancelled, cutoff}},
			{"DELETE FROM deliveries WHERE received < ?", []any{cutoff}},
			{`DELETE FROM published WHERE updated < ? AND NOT EXISTS (
	SELECT 1 FROM jobs WHERE jobs.key = published.key AND jobs.state IN (?, ?) AND jobs.id < published.job)`,
				[]any{cutoff, Queued, Running}},
		} {
			res, err := tx.Exec(ctx, stmt.sql, stmt.args...)
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
	return int(deleted), err
}

func (s *sqlQueue) SetCheck(ctx context.Context, id, checkRun int64, open bool) error {
	// A running job's check is its holder's to record.
	args := []any{checkRun, open, id}
	if s.leases != nil {
		args = append(args, Running, s.leases.owner)
	}
	return s.db.Write(ctx, func(tx *cache.Tx) error {
		_, err := tx.Exec(ctx, "UPDATE jobs SET check_run = ?, check_open = ? WHERE id = ?"+s.d.checkHeld, args...)
		return err
	})
}

func (s *sqlQueue) OpenChecks(ctx context.Context) ([]*Job, error) {
	rows, err := s.db.Query(ctx, "SELECT "+jobColumns+" FROM jobs WHERE check_open = "+s.d.True+" AND state IN (?, ?) ORDER BY id", Failed, Cancelled)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*Job
	for rows.Next() {
		j, err := scanJob(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}

func (s *sqlQueue) NewerOnSameCommit(ctx context.Context, key string, id int64, sha string) (bool, error) {
	return s.exists(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE key = ? AND id > ? AND head_sha = ?)", key, id, sha)
}

func (s *sqlQueue) EndedHeads(ctx context.Context, limit int) ([]Head, error) {
	rows, err := s.db.Query(ctx, `
SELECT max(installation), repo, head_sha, max(id) FROM jobs j
WHERE swept = `+s.d.False+` AND head_sha <> '' AND state IN (?, ?, ?)
AND NOT EXISTS (SELECT 1 FROM jobs a WHERE a.repo = j.repo AND a.head_sha = j.head_sha AND a.state IN (?, ?))
GROUP BY repo, head_sha
ORDER BY max(updated)
LIMIT ?`, Done, Failed, Cancelled, Queued, Running, limit)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(h *Head) []any { return []any{&h.Installation, &h.Repo, &h.SHA, &h.Until} })
}

func (s *sqlQueue) MarkSwept(ctx context.Context, h Head) error {
	return s.db.Write(ctx, func(tx *cache.Tx) error {
		_, err := tx.Exec(ctx, "UPDATE jobs SET swept = "+s.d.True+" WHERE repo = ? AND head_sha = ? AND id <= ? AND state IN (?, ?, ?)",
			h.Repo, h.SHA, h.Until, Done, Failed, Cancelled)
		return err
	})
}

func (s *sqlQueue) Analyzing(ctx context.Context, repo, sha string) (bool, error) {
	return s.exists(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE repo = ? AND head_sha = ? AND state IN (?, ?))",
		repo, sha, Queued, Running)
}

func (s *sqlQueue) KnowsCheckRun(ctx context.Context, repo string, id int64) (bool, error) {
	return s.exists(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE repo = ? AND check_run = ?)", repo, id)
}
