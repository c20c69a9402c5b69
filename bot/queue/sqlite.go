package queue

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/setbot/setbot/cache"
)

// sqliteQueue is the queue's Backend in a SQLite store. Every write is one
// transaction, which takes SQLite's write lock when it begins (see
// cache.Store.Write); reads are plain queries. It has no leases: one
// server uses the file, so at its start every running job is one its
// previous process left (Recover).
type sqliteQueue struct {
	store *cache.Store
	fresh bool
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
	return New(&sqliteQueue{store: store, fresh: tables == 0}), nil
}

func (s *sqliteQueue) Fresh() bool { return s.fresh }

func (s *sqliteQueue) Enqueue(ctx context.Context, jobs []Job, now time.Time) (ids []int64, cancelled []string, err error) {
	delivery := jobs[0].Delivery
	err = s.store.Write(ctx, func(tx *sql.Tx) error {
		ids, cancelled = ids[:0], cancelled[:0]
		if delivery != "" {
			res, err := tx.ExecContext(ctx,
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
			id, kinds, err := insert(ctx, tx, j, now.UnixNano())
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
		inherit(&j, kind, fresh)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, nil, err
	}
	var id int64
	err = tx.QueryRowContext(ctx, `
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

func (s *sqliteQueue) Claim(ctx context.Context, now time.Time) (*Job, []string, error) {
	var j *Job
	// One server runs the jobs of the file, so "alone" is among all running
	// jobs; the write transaction serialises the claims of its workers.
	err := s.store.Write(ctx, func(tx *sql.Tx) error {
		row := tx.QueryRowContext(ctx, `
UPDATE jobs SET state = ?1, attempts = attempts + 1, updated = ?2
WHERE id = (
	SELECT c.id FROM jobs c
	WHERE c.state = ?3 AND c.not_before <= ?2
	AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.key = c.key AND r.state = ?1)
	AND NOT EXISTS (SELECT 1 FROM jobs r WHERE r.state = ?1 AND (r.crashes > 0 OR c.crashes > 0))
	AND (c.crashes > 0 OR NOT EXISTS (SELECT 1 FROM jobs w WHERE w.state = ?3 AND w.crashes > 0 AND w.not_before <= ?2))
	ORDER BY c.id
	LIMIT 1)
RETURNING `+jobColumns,
			Running, now.UnixNano(), Queued)
		var err error
		j, err = scanJob(row)
		if errors.Is(err, sql.ErrNoRows) {
			j = nil
			return nil
		}
		return err
	})
	return j, nil, err
}

// notRunning is the error for a job that a change of a running job did not
// find running: ErrNotFound, or ErrNotRunning with its state.
func (s *sqliteQueue) notRunning(ctx context.Context, tx *sql.Tx, id int64) error {
	var current string
	err := tx.QueryRowContext(ctx, "SELECT state FROM jobs WHERE id = ?", id).Scan(&current)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("it is %s: %w", current, ErrNotRunning)
}

// changeRunning runs update, a statement whose last two arguments are
// Running and id, after args: it changes job id only if it is running.
// It explains a change that
// found no such job.
func (s *sqliteQueue) changeRunning(ctx context.Context, id int64, update string, args ...any) error {
	return s.store.Write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, update, append(args, Running, id)...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 1 {
			return err
		}
		return s.notRunning(ctx, tx, id)
	})
}

func (s *sqliteQueue) Finish(ctx context.Context, id int64, state, errText string, now time.Time) error {
	return s.changeRunning(ctx, id, "UPDATE jobs SET state = ?, error = ?, updated = ? WHERE state = ? AND id = ?",
		state, errText, now.UnixNano())
}

func (s *sqliteQueue) Requeue(ctx context.Context, id int64, notBefore time.Time, why string, now time.Time) error {
	return s.changeRunning(ctx, id, "UPDATE jobs SET state = ?, not_before = ?, retries = retries + 1, error = ?, updated = ? WHERE state = ? AND id = ?",
		Queued, notBefore.UnixNano(), why, now.UnixNano())
}

func (s *sqliteQueue) Release(ctx context.Context, id int64, why string, now time.Time) error {
	return s.changeRunning(ctx, id, "UPDATE jobs SET state = ?, error = ?, updated = ? WHERE state = ? AND id = ?",
		Queued, why, now.UnixNano())
}

func (s *sqliteQueue) Superseded(ctx context.Context, key string, id int64) (bool, error) {
	var newer bool
	err := s.store.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE key = ? AND id > ?)", key, id).Scan(&newer)
	return newer, err
}

func (s *sqliteQueue) Published(ctx context.Context, key string, id int64, headSHA string, now time.Time) (ok bool, err error) {
	err = s.store.Write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `
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

func (s *sqliteQueue) Recover(ctx context.Context, at time.Time) (int, []string, error) {
	var (
		requeued  int64
		cancelled []string
	)
	err := s.store.Write(ctx, func(tx *sql.Tx) error {
		cancelled = cancelled[:0]
		now := at.UnixNano()
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
		if _, err := tx.ExecContext(ctx, crashedSQLite, Failed, crashedError, now, Running, MaxCrashes); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, suspectSQLite, Queued, suspectError, now, Running)
		if err != nil {
			return err
		}
		requeued, err = res.RowsAffected()
		return err
	})
	return int(requeued), cancelled, err
}

// The statements of Recover that deal with the jobs left running that no
// newer job supersedes: a job whose process died for the MaxCrashes-th time
// while it ran (the last time alone) is failed; the others are queued
// again as suspects, to run alone.
const (
	crashedSQLite = `UPDATE jobs SET state = ?1, crashes = crashes + 1, error = ?2, updated = ?3 WHERE state = ?4 AND crashes + 1 >= ?5`
	suspectSQLite = `UPDATE jobs SET state = ?1, crashes = crashes + 1, error = ?2, updated = ?3 WHERE state = ?4`
)

func (s *sqliteQueue) Depth(ctx context.Context) (int, error) {
	var n int
	err := s.store.QueryRow(ctx, "SELECT count(*) FROM jobs WHERE state = ?", Queued).Scan(&n)
	return n, err
}

func (s *sqliteQueue) OldestQueued(ctx context.Context) (time.Time, error) {
	var oldest sql.NullInt64
	if err := s.store.QueryRow(ctx, "SELECT min(created) FROM jobs WHERE state = ?", Queued).Scan(&oldest); err != nil || !oldest.Valid {
		return time.Time{}, err
	}
	return time.Unix(0, oldest.Int64), nil
}

func (s *sqliteQueue) Prune(ctx context.Context, before time.Time) (int, error) {
	cutoff := before.UnixNano()
	var deleted int64
	err := s.store.Write(ctx, func(tx *sql.Tx) error {
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
	return int(deleted), err
}

func (s *sqliteQueue) SetCheck(ctx context.Context, id, checkRun int64, open bool) error {
	return s.store.Write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE jobs SET check_run = ?, check_open = ? WHERE id = ?", checkRun, open, id)
		return err
	})
}

func (s *sqliteQueue) OpenChecks(ctx context.Context) ([]*Job, error) {
	rows, err := s.store.Query(ctx, "SELECT "+jobColumns+" FROM jobs WHERE check_open = 1 AND state IN (?, ?) ORDER BY id", Failed, Cancelled)
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

func (s *sqliteQueue) NewerOnSameCommit(ctx context.Context, key string, id int64, sha string) (bool, error) {
	var ok bool
	err := s.store.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE key = ? AND id > ? AND head_sha = ?)", key, id, sha).Scan(&ok)
	return ok, err
}

func (s *sqliteQueue) EndedHeads(ctx context.Context, limit int) ([]Head, error) {
	rows, err := s.store.Query(ctx, `
SELECT max(installation), repo, head_sha, max(id) FROM jobs j
WHERE swept = 0 AND head_sha != '' AND state IN (?, ?, ?)
AND NOT EXISTS (SELECT 1 FROM jobs a WHERE a.repo = j.repo AND a.head_sha = j.head_sha AND a.state IN (?, ?))
GROUP BY repo, head_sha
ORDER BY max(updated)
LIMIT ?`, Done, Failed, Cancelled, Queued, Running, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Head
	for rows.Next() {
		var h Head
		if err := rows.Scan(&h.Installation, &h.Repo, &h.SHA, &h.Until); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

func (s *sqliteQueue) MarkSwept(ctx context.Context, h Head) error {
	return s.store.Write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE jobs SET swept = 1 WHERE repo = ? AND head_sha = ? AND id <= ? AND state IN (?, ?, ?)",
			h.Repo, h.SHA, h.Until, Done, Failed, Cancelled)
		return err
	})
}

func (s *sqliteQueue) Analyzing(ctx context.Context, repo, sha string) (bool, error) {
	var ok bool
	err := s.store.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE repo = ? AND head_sha = ? AND state IN (?, ?))",
		repo, sha, Queued, Running).Scan(&ok)
	return ok, err
}

func (s *sqliteQueue) KnowsCheckRun(ctx context.Context, repo string, id int64) (bool, error) {
	var ok bool
	err := s.store.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM jobs WHERE repo = ? AND check_run = ?)", repo, id).Scan(&ok)
	return ok, err
}
