// Package schedule keeps the repositories' own schedules of full
// re-analysis (the `schedule:` of a repository's `.setbot.yml`, learnt from
// its default branch) in the cache store (SQLite or PostgreSQL), so that
// they survive a restart. The bot runs them; this package only remembers
// them.
package schedule

import (
	"context"
	"fmt"
	"time"

	"github.com/setbot/setbot/cache"
)

// schema is the package's table in a SQLite store.
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

// store is the schedules in a store, SQLite or PostgreSQL.
type store struct {
	db *cache.DB
}

var _ Backend = (*store)(nil)

// Open returns the schedules kept in the SQLite store, which must be open,
// creating or updating their table first.
func Open(ctx context.Context, s *cache.Store) (Backend, error) {
	return open(ctx, s.DB, schema)
}

// OpenPostgres returns the schedules kept in db, creating or updating
// their table first.
func OpenPostgres(ctx context.Context, db *cache.Postgres) (Backend, error) {
	return open(ctx, db.DB, pgSchema)
}

// open returns the schedules kept in db after applying sc, the schema in
// db's SQL.
func open(ctx context.Context, db *cache.DB, sc cache.Schema) (Backend, error) {
	if err := db.Migrate(ctx, sc); err != nil {
		return nil, fmt.Errorf("opening the repositories' schedules: %w", err)
	}
	return &store{db: db}, nil
}

func (s *store) List(ctx context.Context) ([]Entry, error) {
	rows, err := s.db.Query(ctx, "SELECT repo, branch, spec, installation, clone_url FROM repo_schedules ORDER BY repo, branch")
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

func (s *store) Set(ctx context.Context, e Entry) error {
	err := s.db.Write(ctx, func(tx *cache.Tx) error {
		if e.Spec == "" {
			_, err := tx.Exec(ctx, "DELETE FROM repo_schedules WHERE repo = ? AND branch = ?", e.Repo, e.Branch)
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO repo_schedules (repo, branch, spec, installation, clone_url, updated) VALUES (?, ?, ?, ?, ?, ?)
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
