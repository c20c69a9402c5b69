// Package schedule keeps the repositories' own schedules of full
// re-analysis (the `schedule:` of a repository's `.setbot.yml`, learnt from
// its default branch) in the cache store, so that they survive a restart.
// The bot runs them; this package only remembers them.
package schedule

import (
	"context"
	"database/sql"
	"fmt"
	"time"

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

// Store is the schedules kept in one cache store. Its methods are safe for
// concurrent use.
type Store struct {
	store *cache.Store
}

// Open returns the schedules kept in store, which must be open, creating or
// updating their table first.
func Open(ctx context.Context, store *cache.Store) (*Store, error) {
	if err := store.Migrate(ctx, schema); err != nil {
		return nil, fmt.Errorf("opening the repositories' schedules: %w", err)
	}
	return &Store{store: store}, nil
}

// List returns every remembered schedule, by repository and branch.
func (s *Store) List(ctx context.Context) ([]Entry, error) {
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

// Set remembers e, replacing the schedule of its repository and branch; an
// empty Spec forgets it.
func (s *Store) Set(ctx context.Context, e Entry) error {
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
