package cache

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// DefaultRunRetention is how long PruneRuns keeps the runs log when the
// server configures no retention: a quarter of timings and statistics, enough
// to compare a model's analyses across releases, while the table stays small
// (a row is about 200 bytes; a thousand runs a day keep it near 20 MB).
const DefaultRunRetention = 90 * 24 * time.Hour

// Run is one analysis of one model between two commits.
type Run struct {
	ID       int64 // assigned by RecordRun
	Repo     string
	Base     string // commit
	Head     string // commit
	Path     string // model file
	Strategy string

	BaseCached, HeadCached bool // whether each side's SET came from the cache

	BaseStates, HeadStates, ReusedStates, SolverCalls int

	Ms      int64     // wall time of the model's analysis
	Created time.Time // zero means now
}

// RecordRun logs r and returns its ID.
func (s *Store) RecordRun(ctx context.Context, r Run) (int64, error) {
	created := r.Created
	if created.IsZero() {
		created = time.Now()
	}
	var id int64
	err := s.Write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `
INSERT INTO runs (repo, base, head, path, strategy, base_cached, head_cached,
	base_states, head_states, reused_states, solver_calls, ms, created)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id`,
			r.Repo, r.Base, r.Head, r.Path, r.Strategy, r.BaseCached, r.HeadCached,
			r.BaseStates, r.HeadStates, r.ReusedStates, r.SolverCalls, r.Ms, created.UnixNano()).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("recording run of %s %s..%s in cache %s: %w", r.Path, r.Base, r.Head, s.path, err)
	}
	return id, nil
}

// Runs returns the recorded runs of repo, or of every repository when repo
// is "", newest first (by Created, then by ID). limit <= 0 means all.
func (s *Store) Runs(ctx context.Context, repo string, limit int) ([]Run, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	const cols = `SELECT id, repo, base, head, path, strategy, base_cached, head_cached,
	base_states, head_states, reused_states, solver_calls, ms, created FROM runs`
	var (
		rows *sql.Rows
		err  error
	)
	if repo == "" {
		rows, err = s.db.QueryContext(ctx, cols+" ORDER BY created DESC, id DESC LIMIT ?", limit)
	} else {
		rows, err = s.db.QueryContext(ctx, cols+" WHERE repo = ? ORDER BY created DESC, id DESC LIMIT ?", repo, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("reading runs from cache %s: %w", s.path, err)
	}
	defer rows.Close()
	var runs []Run
	for rows.Next() {
		var (
			r       Run
			created int64
		)
		if err := rows.Scan(&r.ID, &r.Repo, &r.Base, &r.Head, &r.Path, &r.Strategy, &r.BaseCached, &r.HeadCached,
			&r.BaseStates, &r.HeadStates, &r.ReusedStates, &r.SolverCalls, &r.Ms, &created); err != nil {
			return nil, fmt.Errorf("reading runs from cache %s: %w", s.path, err)
		}
		r.Created = time.Unix(0, created).UTC()
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading runs from cache %s: %w", s.path, err)
	}
	return runs, nil
}

// PruneRuns deletes the runs created before now-age and returns how many it
// deleted. age must be positive.
func (s *Store) PruneRuns(ctx context.Context, age time.Duration) (int, error) {
	if age <= 0 {
		return 0, fmt.Errorf("pruning runs in cache %s: age %v is not positive", s.path, age)
	}
	cutoff := time.Now().Add(-age).UnixNano()
	var n int64
	err := s.Write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM runs WHERE created < ?", cutoff)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("pruning runs in cache %s: %w", s.path, err)
	}
	return int(n), nil
}
