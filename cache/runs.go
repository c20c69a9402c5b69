package cache

import (
	"context"
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
func (db *DB) RecordRun(ctx context.Context, r Run) (int64, error) {
	created := r.Created
	if created.IsZero() {
		created = time.Now()
	}
	var id int64
	err := db.Write(ctx, func(tx *Tx) error {
		return tx.QueryRow(ctx, `
INSERT INTO runs (repo, base, head, path, strategy, base_cached, head_cached,
	base_states, head_states, reused_states, solver_calls, ms, created)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
RETURNING id`,
			r.Repo, r.Base, r.Head, r.Path, r.Strategy, r.BaseCached, r.HeadCached,
			r.BaseStates, r.HeadStates, r.ReusedStates, r.SolverCalls, r.Ms, created.UnixNano()).Scan(&id)
	})
	if err != nil {
		return 0, fmt.Errorf("recording run of %s %s..%s in %s: %w", r.Path, r.Base, r.Head, db.where, err)
	}
	return id, nil
}

// Runs returns the recorded runs of repo, or of every repository when repo
// is "", newest first (by Created, then by ID). limit <= 0 means all.
func (db *DB) Runs(ctx context.Context, repo string, limit int) ([]Run, error) {
	query := `SELECT id, repo, base, head, path, strategy, base_cached, head_cached,
	base_states, head_states, reused_states, solver_calls, ms, created FROM runs`
	var args []any
	if repo != "" {
		query += " WHERE repo = ?"
		args = append(args, repo)
	}
	query += " ORDER BY created DESC, id DESC"
	if limit > 0 {
		query += " LIMIT ?"
		args = append(args, limit)
	}
	rows, err := db.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("reading runs from %s: %w", db.where, err)
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
			return nil, fmt.Errorf("reading runs from %s: %w", db.where, err)
		}
		r.Created = time.Unix(0, created).UTC()
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading runs from %s: %w", db.where, err)
	}
	return runs, nil
}

// PruneRuns deletes the runs created before now-age and returns how many it
// deleted. age must be positive.
func (db *DB) PruneRuns(ctx context.Context, age time.Duration) (int, error) {
	if age <= 0 {
		return 0, fmt.Errorf("pruning runs in %s: age %v is not positive", db.where, age)
	}
	cutoff := time.Now().Add(-age).UnixNano()
	var n int64
	err := db.Write(ctx, func(tx *Tx) error {
		res, err := tx.Exec(ctx, "DELETE FROM runs WHERE created < ?", cutoff)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("pruning runs in %s: %w", db.where, err)
	}
	return int(n), nil
}
