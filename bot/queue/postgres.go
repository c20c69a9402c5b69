package queue

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/setbot/setbot/cache"
)

// The queue in PostgreSQL, shared by several servers (replicas):
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

// listenRetry is how long Watch waits before listening again after its
// connection failed.
const listenRetry = time.Second

// pgSchema is the queue's tables in a PostgreSQL store: those of schema,
// in PostgreSQL's types, with the leases. Ids come from a sequence and are
// never reused; jobs_one_running is the database's own guarantee of one
// running job per Key.
var pgSchema = cache.Schema{Name: "queue", Migrations: []cache.Migration{{
	Version: 1,
	Name:    "webhook deliveries, jobs with leases, publications",
	SQL: `
CREATE TABLE deliveries (
	id       text PRIMARY KEY, -- X-GitHub-Delivery
	received bigint NOT NULL   -- unix nanoseconds
);
CREATE INDEX deliveries_received ON deliveries (received);
CREATE TABLE jobs (
	id           bigserial PRIMARY KEY,
	delivery     text NOT NULL,
	kind         text NOT NULL,
	installation bigint NOT NULL,
	repo         text NOT NULL,
	clone_url    text NOT NULL,
	pr           integer NOT NULL,
	branch       text NOT NULL,
	base_sha     text NOT NULL,
	head_sha     text NOT NULL,
	fresh        boolean NOT NULL,
	requester    text NOT NULL,
	command      text NOT NULL,
	comment_id   bigint NOT NULL,
	key          text NOT NULL, -- Job.Key()
	state        text NOT NULL,
	attempts     integer NOT NULL,
	retries      integer NOT NULL DEFAULT 0,
	not_before   bigint NOT NULL DEFAULT 0, -- unix nanoseconds
	error        text NOT NULL,
	created      bigint NOT NULL, -- unix nanoseconds
	updated      bigint NOT NULL, -- unix nanoseconds
	check_run    bigint NOT NULL DEFAULT 0,
	check_open   boolean NOT NULL DEFAULT false,
	swept        boolean NOT NULL DEFAULT false,
	lease_owner  text NOT NULL DEFAULT '',  -- the replica running it
	lease_until  timestamptz                -- by the database's clock
);
CREATE INDEX jobs_claim ON jobs (state, id);
CREATE INDEX jobs_key ON jobs (key, state, id);
CREATE UNIQUE INDEX jobs_one_running ON jobs (key) WHERE state = 'running';
CREATE INDEX jobs_lease ON jobs (lease_until) WHERE state = 'running';
CREATE INDEX jobs_open_checks ON jobs (check_open) WHERE check_open;
CREATE INDEX jobs_unswept ON jobs (repo, head_sha) WHERE NOT swept;
CREATE INDEX jobs_head ON jobs (repo, head_sha, state);
CREATE INDEX jobs_check_run ON jobs (repo, check_run);
CREATE TABLE published (
	key      text PRIMARY KEY, -- Job.Key()
	job      bigint NOT NULL,  -- id of the newest job whose result was published
	head_sha text NOT NULL,
	updated  bigint NOT NULL   -- unix nanoseconds
);
`,
}, {
	Version: 2,
	Name:    "jobs count the crashes of their replica",
	SQL: `
ALTER TABLE jobs ADD COLUMN crashes integer NOT NULL DEFAULT 0;
CREATE INDEX jobs_suspects ON jobs (state) WHERE crashes > 0;
`,
}}}

// pgQueue is the queue's Backend in PostgreSQL.
type pgQueue struct {
	pool  *pgxpool.Pool
	owner string // this replica, in lease_owner
	lease time.Duration
	fresh bool

	mu   sync.Mutex
	held map[int64]bool // the running jobs whose lease this replica holds

	// claiming serialises the claims of this replica's workers, so that
	// each sees the jobs the others started: a suspect runs alone.
	claiming sync.Mutex
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
	var exists bool
	if err := db.Pool().QueryRow(ctx, "SELECT to_regclass('jobs') IS NOT NULL").Scan(&exists); err != nil {
		return nil, fmt.Errorf("opening the job queue: %w", err)
	}
	if err := db.Migrate(ctx, pgSchema); err != nil {
		return nil, fmt.Errorf("opening the job queue: %w", err)
	}
	owner, err := replicaID()
	if err != nil {
		return nil, fmt.Errorf("opening the job queue: %w", err)
	}
	return New(&pgQueue{pool: db.Pool(), owner: owner, lease: lease, fresh: !exists, held: map[int64]bool{}}), nil
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

func (s *pgQueue) Fresh() bool { return s.fresh }

// reapLock is the advisory lock of reap ("SETR").
const reapLock = 0x53455452

// keyLock is the advisory lock of a Key.
const keyLock = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))"

func (s *pgQueue) Enqueue(ctx context.Context, jobs []Job, now time.Time) (ids []int64, cancelled []string, err error) {
	delivery := jobs[0].Delivery
	keys := make([]string, len(jobs))
	for i := range jobs {
		keys[i] = jobs[i].Key()
	}
	// In one order, so that two deliveries of the same Keys cannot deadlock.
	slices.Sort(keys)
	keys = slices.Compact(keys)
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		ids, cancelled = ids[:0], cancelled[:0]
		for _, key := range keys {
			if _, err := tx.Exec(ctx, keyLock, key); err != nil {
				return fmt.Errorf("locking %s: %w", key, err)
			}
		}
		if delivery != "" {
			tag, err := tx.Exec(ctx, "INSERT INTO deliveries (id, received) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", delivery, now.UnixNano())
			if err != nil {
				return fmt.Errorf("recording the delivery: %w", err)
			}
			if tag.RowsAffected() == 0 {
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

// insert is the SQLite insert in PostgreSQL, and announces the new job.
func (s *pgQueue) insert(ctx context.Context, tx pgx.Tx, j Job, now int64) (int64, []string, error) {
	key := j.Key()
	rows, err := tx.Query(ctx, "SELECT kind, fresh FROM jobs WHERE key = $1 AND state = $2", key, Queued)
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
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 0, '', $16, $16, $17, $18, $19)
RETURNING id`,
		j.Delivery, j.Kind, j.Installation, j.Repo, j.CloneURL, j.PR, j.Branch, j.BaseSHA, j.HeadSHA,
		j.Fresh, j.Requester, j.Command, j.CommentID, key, Queued, now, j.CheckRun, j.CheckRun > 0, !j.opensChecks()).Scan(&id)
	if err != nil {
		return 0, nil, err
	}
	if len(superseded) > 0 {
		if _, err := tx.Exec(ctx, "UPDATE jobs SET state = $1, error = $2, updated = $3 WHERE key = $4 AND state = $5 AND id < $6",
			Cancelled, fmt.Sprintf("superseded by job %d", id), now, key, Queued, id); err != nil {
			return 0, nil, err
		}
	}
	if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", notifyChannel, strconv.FormatInt(id, 10)+" "+key); err != nil {
		return 0, nil, err
	}
	return id, superseded, nil
}

// pgJobColumns are the columns scanJob reads, in its order.
const pgJobColumns = `jobs.id, delivery, kind, installation, repo, clone_url, pr, branch, base_sha, head_sha,
	fresh, requester, command, comment_id, state, attempts, error, created, updated, check_run, check_open,
	retries, not_before, crashes`

func (s *pgQueue) Claim(ctx context.Context, now time.Time) (*Job, []string, error) {
	_, cancelled, err := s.reap(ctx, now)
	if err != nil {
		return nil, nil, err
	}
	// A suspect runs alone in this replica; one waiting anywhere holds back
	// the other claims until a replica is idle to take it.
	s.claiming.Lock()
	j, err := scanJob(s.pool.QueryRow(ctx, `
UPDATE jobs SET state = $1, attempts = attempts + 1, updated = $2,
	lease_owner = $3, lease_until = clock_timestamp() + $4::float8 * interval '1 millisecond'
WHERE id = (
	SELECT c.id FROM jobs c
	WHERE c.state = $5 AND c.not_before <= $2
	AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.key = c.key AND r.state = $1)
	AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.state = $1 AND r.lease_owner = $3 AND (r.crashes > 0 OR c.crashes > 0))
	AND (c.crashes > 0 OR NOT EXISTS (SELECT 1 FROM jobs w WHERE w.state = $5 AND w.crashes > 0 AND w.not_before <= $2))
	ORDER BY c.id
	LIMIT 1
	FOR UPDATE SKIP LOCKED)
RETURNING `+pgJobColumns,
		Running, now.UnixNano(), s.owner, s.lease.Milliseconds(), Queued))
	s.claiming.Unlock()
	var pe *pgconn.PgError
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, cancelled, nil
	case errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "jobs_one_running":
		// Another replica started a job of the same Key meanwhile: this one
		// waits for it, as it would have had the claim seen it.
		return nil, cancelled, nil
	case err != nil:
		return nil, cancelled, err
	}
	s.mu.Lock()
	s.held[j.ID] = true
	s.mu.Unlock()
	return j, cancelled, nil
}

// reap deals with the running jobs whose lease expired (their replica
// stopped or stalled), as Recover does with one server's jobs, in one
// transaction: "expired" is judged at its start (now()), so its three
// statements see the same jobs expired. One replica reaps at a time (the
// others find the lock taken and go on), so that two reaps never lock the
// same rows in different orders.
func (s *pgQueue) reap(ctx context.Context, at time.Time) (requeued int, cancelled []string, err error) {
	now := at.UnixNano()
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var expired bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE state = $1 AND lease_until < now())",
			Running).Scan(&expired); err != nil || !expired {
			return err
		}
		var locked bool
		if err := tx.QueryRow(ctx, "SELECT pg_try_advisory_xact_lock($1)", int64(reapLock)).Scan(&locked); err != nil || !locked {
			return err
		}
		rows, err := tx.Query(ctx, `
UPDATE jobs SET state = $1, error = 'superseded by job ' || (SELECT max(n.id) FROM jobs n WHERE n.key = jobs.key),
	updated = $2, lease_owner = '', lease_until = NULL
WHERE state = $3 AND lease_until < now() AND EXISTS (SELECT 1 FROM jobs n WHERE n.key = jobs.key AND n.id > jobs.id)
RETURNING kind`, Cancelled, now, Running)
		if err != nil {
			return err
		}
		cancelled, err = pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		// As Recover in SQLite: the culprit fails, the others are suspects.
		if _, err := tx.Exec(ctx, `
UPDATE jobs SET state = $1, crashes = crashes + 1, error = $2, updated = $3, lease_owner = '', lease_until = NULL
WHERE state = $4 AND lease_until < now() AND crashes + 1 >= $5`, Failed, crashedError, now, Running, MaxCrashes); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `
UPDATE jobs SET state = $1, crashes = crashes + 1, error = $2, updated = $3, lease_owner = '', lease_until = NULL
WHERE state = $4 AND lease_until < now()`, Queued, suspectError, now, Running)
		if err != nil {
			return err
		}
		requeued = int(tag.RowsAffected())
		if requeued+len(cancelled) > 0 {
			_, err = tx.Exec(ctx, "SELECT pg_notify($1, '')", notifyChannel)
		}
		return err
	})
	return requeued, cancelled, err
}

// changeHeld runs update, which changes job id if it is running under this
// replica's lease and returns the number of rows changed, and explains a
// change that found no such job.
func (s *pgQueue) changeHeld(ctx context.Context, id int64, update func(tx pgx.Tx) (int64, error)) error {
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		n, err := update(tx)
		if err != nil || n == 1 {
			if err == nil {
				_, err = tx.Exec(ctx, "SELECT pg_notify($1, '')", notifyChannel)
			}
			return err
		}
		var state, owner string
		err = tx.QueryRow(ctx, "SELECT state, lease_owner FROM jobs WHERE id = $1", id).Scan(&state, &owner)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return ErrNotFound
		case err != nil:
			return err
		case state == Running:
			return fmt.Errorf("another server took it over: %w", ErrNotRunning)
		}
		return fmt.Errorf("it is %s: %w", state, ErrNotRunning)
	})
	s.mu.Lock()
	delete(s.held, id)
	s.mu.Unlock()
	return err
}

func (s *pgQueue) Finish(ctx context.Context, id int64, state, errText string, now time.Time) error {
	return s.changeHeld(ctx, id, func(tx pgx.Tx) (int64, error) {
		tag, err := tx.Exec(ctx, `UPDATE jobs SET state = $1, error = $2, updated = $3, lease_owner = '', lease_until = NULL
WHERE id = $4 AND state = $5 AND lease_owner = $6`, state, errText, now.UnixNano(), id, Running, s.owner)
		return tag.RowsAffected(), err
	})
}

func (s *pgQueue) Requeue(ctx context.Context, id int64, notBefore time.Time, why string, now time.Time) error {
	return s.changeHeld(ctx, id, func(tx pgx.Tx) (int64, error) {
		tag, err := tx.Exec(ctx, `UPDATE jobs SET state = $1, not_before = $2, retries = retries + 1, error = $3, updated = $4,
	lease_owner = '', lease_until = NULL
WHERE id = $5 AND state = $6 AND lease_owner = $7`, Queued, notBefore.UnixNano(), why, now.UnixNano(), id, Running, s.owner)
		return tag.RowsAffected(), err
	})
}

func (s *pgQueue) Release(ctx context.Context, id int64, why string, now time.Time) error {
	return s.changeHeld(ctx, id, func(tx pgx.Tx) (int64, error) {
		tag, err := tx.Exec(ctx, `UPDATE jobs SET state = $1, error = $2, updated = $3, lease_owner = '', lease_until = NULL
WHERE id = $4 AND state = $5 AND lease_owner = $6`, Queued, why, now.UnixNano(), id, Running, s.owner)
		return tag.RowsAffected(), err
	})
}

func (s *pgQueue) Superseded(ctx context.Context, key string, id int64) (bool, error) {
	var newer bool
	err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE key = $1 AND id > $2)", key, id).Scan(&newer)
	return newer, err
}

func (s *pgQueue) Published(ctx context.Context, key string, id int64, headSHA string, now time.Time) (bool, error) {
	tag, err := s.pool.Exec(ctx, `
INSERT INTO published (key, job, head_sha, updated) VALUES ($1, $2, $3, $4)
ON CONFLICT (key) DO UPDATE SET job = excluded.job, head_sha = excluded.head_sha, updated = excluded.updated
WHERE published.job <= excluded.job`, key, id, headSHA, now.UnixNano())
	return tag.RowsAffected() == 1, err
}

func (s *pgQueue) Recover(ctx context.Context, now time.Time) (int, []string, error) {
	return s.reap(ctx, now)
}

func (s *pgQueue) Depth(ctx context.Context) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, "SELECT count(*) FROM jobs WHERE state = $1", Queued).Scan(&n)
	return n, err
}

func (s *pgQueue) OldestQueued(ctx context.Context) (time.Time, error) {
	var oldest *int64
	if err := s.pool.QueryRow(ctx, "SELECT min(created) FROM jobs WHERE state = $1", Queued).Scan(&oldest); err != nil || oldest == nil {
		return time.Time{}, err
	}
	return time.Unix(0, *oldest), nil
}

func (s *pgQueue) Prune(ctx context.Context, before time.Time) (int, error) {
	cutoff := before.UnixNano()
	var deleted int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		deleted = 0
		for _, stmt := range []struct {
			sql  string
			args []any
		}{
			// A job whose check is still open stays until it is closed.
			{"DELETE FROM jobs WHERE state IN ($1, $2, $3) AND updated < $4 AND NOT check_open", []any{Done, Failed, Cancelled, cutoff}},
			{"DELETE FROM deliveries WHERE received < $1", []any{cutoff}},
			{`DELETE FROM published WHERE updated < $1 AND NOT EXISTS (
	SELECT 1 FROM jobs WHERE jobs.key = published.key AND jobs.state IN ($2, $3) AND jobs.id < published.job)`,
				[]any{cutoff, Queued, Running}},
		} {
			tag, err := tx.Exec(ctx, stmt.sql, stmt.args...)
			if err != nil {
				return err
			}
			deleted += tag.RowsAffected()
		}
		return nil
	})
	return int(deleted), err
}

func (s *pgQueue) SetCheck(ctx context.Context, id, checkRun int64, open bool) error {
	// A running job's check is its holder's to record.
	_, err := s.pool.Exec(ctx, "UPDATE jobs SET check_run = $1, check_open = $2 WHERE id = $3 AND (state <> $4 OR lease_owner = $5)",
		checkRun, open, id, Running, s.owner)
	return err
}

func (s *pgQueue) OpenChecks(ctx context.Context) ([]*Job, error) {
	rows, err := s.pool.Query(ctx, "SELECT "+pgJobColumns+" FROM jobs WHERE check_open AND state IN ($1, $2) ORDER BY id", Failed, Cancelled)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (*Job, error) { return scanJob(row) })
}

func (s *pgQueue) NewerOnSameCommit(ctx context.Context, key string, id int64, sha string) (bool, error) {
	var ok bool
	err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE key = $1 AND id > $2 AND head_sha = $3)", key, id, sha).Scan(&ok)
	return ok, err
}

func (s *pgQueue) EndedHeads(ctx context.Context, limit int) ([]Head, error) {
	rows, err := s.pool.Query(ctx, `
SELECT max(installation), repo, head_sha, max(id) FROM jobs j
WHERE NOT swept AND head_sha <> '' AND state IN ($1, $2, $3)
AND NOT EXISTS (SELECT 1 FROM jobs a WHERE a.repo = j.repo AND a.head_sha = j.head_sha AND a.state IN ($4, $5))
GROUP BY repo, head_sha
ORDER BY max(updated)
LIMIT $6`, Done, Failed, Cancelled, Queued, Running, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Head, error) {
		var h Head
		err := row.Scan(&h.Installation, &h.Repo, &h.SHA, &h.Until)
		return h, err
	})
}

func (s *pgQueue) MarkSwept(ctx context.Context, h Head) error {
	_, err := s.pool.Exec(ctx, "UPDATE jobs SET swept = true WHERE repo = $1 AND head_sha = $2 AND id <= $3 AND state IN ($4, $5, $6)",
		h.Repo, h.SHA, h.Until, Done, Failed, Cancelled)
	return err
}

func (s *pgQueue) Analyzing(ctx context.Context, repo, sha string) (bool, error) {
	var ok bool
	err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE repo = $1 AND head_sha = $2 AND state IN ($3, $4))",
		repo, sha, Queued, Running).Scan(&ok)
	return ok, err
}

func (s *pgQueue) KnowsCheckRun(ctx context.Context, repo string, id int64) (bool, error) {
	var ok bool
	err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE repo = $1 AND check_run = $2)", repo, id).Scan(&ok)
	return ok, err
}

// Watch listens to the other replicas' news and renews this replica's
// leases until ctx is done. While its connection is down it tries again
// every listenRetry, and after each (re)connection it passes a zero Event,
// since news may have been missed.
func (s *pgQueue) Watch(ctx context.Context, f func(Event)) {
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
func (s *pgQueue) listen(ctx context.Context, f func(Event)) {
	pooled, err := s.pool.Acquire(ctx)
	if err != nil {
		return
	}
	// A connection that listened is not given back to the pool.
	conn := pooled.Hijack()
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return
	}
	f(Event{})
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return
		}
		f(parseEvent(n.Payload))
	}
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
func (s *pgQueue) keepLeases(ctx context.Context, f func(Event)) {
	t := time.NewTicker(s.lease / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		s.mu.Lock()
		ids := make([]int64, 0, len(s.held))
		for id := range s.held {
			ids = append(ids, id)
		}
		s.mu.Unlock()
		if len(ids) == 0 {
			continue
		}
		rows, err := s.pool.Query(ctx, `UPDATE jobs SET lease_until = clock_timestamp() + $1::float8 * interval '1 millisecond'
WHERE id = ANY($2) AND state = $3 AND lease_owner = $4 RETURNING id`, s.lease.Milliseconds(), ids, Running, s.owner)
		if err != nil {
			continue // the database is away: again at the next tick
		}
		renewed, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			continue
		}
		for _, id := range ids {
			if slices.Contains(renewed, id) {
				continue
			}
			s.mu.Lock()
			// Finished meanwhile (Finish or Requeue deleted it), or lost.
			lost := s.held[id]
			delete(s.held, id)
			s.mu.Unlock()
			if lost {
				f(Event{Lost: id})
			}
		}
	}
}
