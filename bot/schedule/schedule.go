// Package schedule keeps the repositories' own schedules of full
// re-analysis (the `schedule:` of a repository's `.setbot.yml`, learnt from
// its default branch) in the cache store (SQLite or PostgreSQL), so that
// they survive a restart. The bot runs them; this package only remembers
// them.
package schedule

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/setbot/setbot/cache"
)

// schema is the package's table in the cache store.
var schema = cache.Schema{Name: "schedules", Migrations: []cache.Migration{{
	Version: 1,
	Name:    "repositories' own schedules",
	Legacy:  110,
	SQL: `
CREATE TABLE repo_schedules (
	repo         TEXT NOT NULL,
	branch       TEXT NOT NULL,
	spec         TEXT NOT NULL,
	installation INTEGER NOT NULL,
	clone_url    TEXT NOT NULL,
	updated      INTEGER NOT NULL, -- unix nanoseconds
	PRIMARY KEY (repo, branch)
) WITHOUT ROWID;
`,
}}}

// Entry is a repository's own schedule for one branch.
type Entry struct {
	Repo         string // owner/name
	Branch       string
	Spec         string // cron expression
	Installation int64
	CloneURL     string
}

// Backend is the schedules kept in one store. Its methods are safe for
// concurrent use.
type Backend interface {
	// List returns every remembered schedule, by repository and branch.
	List(ctx context.Context) ([]Entry, error)
	// Set remembers e, replacing the schedule of its repository and branch;
	// an empty Spec forgets it.
	Set(ctx context.Context, e Entry) error
}

var (
	_ Backend = (*sqliteStore)(nil)
	_ Backend = (*pgStore)(nil)
)

// sqliteStore is the schedules in a SQLite store.
type sqliteStore struct {
	store *cache.Store
}

// Open returns the schedules kept in store, which must be open, creating or
// updating their table first.
func Open(ctx context.Context, store *cache.Store) (Backend, error) {
	if err := store.Migrate(ctx, schema); err != nil {
		return nil, fmt.Errorf("opening the repositories' schedules: %w", err)
	}
	return &sqliteStore{store: store}, nil
}

func (s *sqliteStore) List(ctx context.Context) ([]Entry, error) {
	rows, err := s.store.Query(ctx, "SELECT repo, branch, spec, installation, clone_url FROM repo_schedules ORDER BY repo, branch")
	if err != nil {
		return nil, fmt.Errorf("reading the repositories' schedules: %w", err)
	}
	defer rows.Close()
	var entries []Entry
	for rows.Next() {
		var e Entry
		if err := rows.Scan(&e.Repo, &e.Branch, &e.Spec, &e.Installation, &e.CloneURL); err != nil {
			return nil, fmt.Errorf("reading the repositories' schedules: %w", err)
		}
		entries = append(entries, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reading the repositories' schedules: %w", err)
	}
	return entries, nil
}

func (s *sqliteStore) Set(ctx context.Context, e Entry) error {
	err := s.store.Write(ctx, func(tx *sql.Tx) error {
		if e.Spec == "" {
			_, err := tx.ExecContext(ctx, "DELETE FROM repo_schedules WHERE repo = ? AND branch = ?", e.Repo, e.Branch)
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO repo_schedules (repo, branch, spec, installation, clone_url, updated) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (repo, branch) DO UPDATE SET spec = excluded.spec, installation = excluded.installation, clone_url = excluded.clone_url, updated = excluded.updated`,
			e.Repo, e.Branch, e.Spec, e.Installation, e.CloneURL, time.Now().UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("remembering the schedule of %s@%s: %w", e.Repo, e.Branch, err)
	}
	return nil
}

// pgSchema is the package's table in a PostgreSQL store.
var pgSchema = cache.Schema{Name: "schedules", Migrations: []cache.Migration{{
	Version: 1,
	Name:    "repositories' own schedules",
	SQL: `
CREATE TABLE repo_schedules (
	repo         text NOT NULL,
	branch       text NOT NULL,
	spec         text NOT NULL,
	installation bigint NOT NULL,
	clone_url    text NOT NULL,
	updated      bigint NOT NULL, -- unix nanoseconds
	PRIMARY KEY (repo, branch)
);
`,
}}}

// pgStore is the schedules in a PostgreSQL store.
type pgStore struct {
	db *cache.Postgres
}

// OpenPostgres returns the schedules kept in db, creating or updating
// their table first.
func OpenPostgres(ctx context.Context, db *cache.Postgres) (Backend, error) {
	if err := db.Migrate(ctx, pgSchema); err != nil {
		return nil, fmt.Errorf("opening the repositories' schedules: %w", err)
	}
	return &pgStore{db: db}, nil
}

func (s *pgStore) List(ctx context.Context) ([]Entry, error) {
	rows, err := s.db.Pool().Query(ctx, "SELECT repo, branch, spec, installation, clone_url FROM repo_schedules ORDER BY repo, branch")
	if err != nil {
		return nil, fmt.Errorf("reading the repositories' schedules: %w", err)
	}
	entries, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Entry, error) {
		var e Entry
		err := row.Scan(&e.Repo, &e.Branch, &e.Spec, &e.Installation, &e.CloneURL)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("reading the repositories' schedules: %w", err)
	}
	return entries, nil
}

func (s *pgStore) Set(ctx context.Context, e Entry) error {
	var err error
	if e.Spec == "" {
		_, err = s.db.Pool().Exec(ctx, "DELETE FROM repo_schedules WHERE repo = $1 AND branch = $2", e.Repo, e.Branch)
	} else {
		_, err = s.db.Pool().Exec(ctx, `INSERT INTO repo_schedules (repo, branch, spec, installation, clone_url, updated) VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (repo, branch) DO UPDATE SET spec = excluded.spec, installation = excluded.installation, clone_url = excluded.clone_url, updated = excluded.updated`,
			e.Repo, e.Branch, e.Spec, e.Installation, e.CloneURL, time.Now().UnixNano())
	}
	if err != nil {
		return fmt.Errorf("remembering the schedule of %s@%s: %w", e.Repo, e.Branch, err)
	}
	return nil
}
