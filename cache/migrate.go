package cache

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Migration is one step of the store's schema. Versions form one sequence
// shared by every package that keeps tables in the store, because a store
// records the highest version applied (PRAGMA user_version): a new migration,
// whoever owns it, takes a number above every version already released.
// Open applies each pending migration in version order, in its own
// transaction together with the new user_version, so SQL must be valid
// inside a transaction (no VACUUM, no journal_mode).
type Migration struct {
	Version int
	Name    string
	SQL     string
}

// ownMigrations is the cache's part of the schema.
//
// blobs.written and blobs.last_used are ticks of blob_clock, a counter that
// only grows: unlike timestamps it cannot repeat or go back when the clock
// is adjusted or two processes write in the same instant, so the order of
// last_used is exactly the order of use. stored repeats length(data) so that
// the index blobs_lru covers both the eviction walk and the total size.
var ownMigrations = []Migration{{
	Version: 1,
	Name:    "blobs and runs",
	SQL: `
CREATE TABLE schema_migrations (
	version INTEGER PRIMARY KEY,
	name    TEXT NOT NULL,
	applied INTEGER NOT NULL -- unix nanoseconds
);
CREATE TABLE blob_clock (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	n  INTEGER NOT NULL
);
INSERT INTO blob_clock (id, n) VALUES (1, 0);
CREATE TABLE blobs (
	id        INTEGER PRIMARY KEY,
	kind      TEXT NOT NULL,
	key       TEXT NOT NULL,
	data      BLOB NOT NULL,    -- a frame: kind, key, raw DEFLATE of the caller's bytes (blob.go)
	size      INTEGER NOT NULL, -- length of the caller's bytes
	stored    INTEGER NOT NULL, -- length(data)
	sum       BLOB NOT NULL,    -- SHA-256 of the frame's header and the caller's bytes
	written   INTEGER NOT NULL, -- blob_clock tick of the Put
	last_used INTEGER NOT NULL, -- blob_clock tick of the last Put or Get
	UNIQUE (kind, key)
);
CREATE INDEX blobs_lru ON blobs (last_used, stored);
CREATE TABLE runs (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	repo          TEXT NOT NULL,
	base          TEXT NOT NULL,
	head          TEXT NOT NULL,
	path          TEXT NOT NULL,
	strategy      TEXT NOT NULL,
	base_cached   INTEGER NOT NULL,
	head_cached   INTEGER NOT NULL,
	base_states   INTEGER NOT NULL,
	head_states   INTEGER NOT NULL,
	reused_states INTEGER NOT NULL,
	solver_calls  INTEGER NOT NULL,
	ms            INTEGER NOT NULL,
	created       INTEGER NOT NULL -- unix nanoseconds
);
CREATE INDEX runs_created ON runs (created, id);
CREATE INDEX runs_repo_created ON runs (repo, created, id);
`,
}}

var registry struct {
	sync.Mutex
	extra []Migration
}

// Register adds a migration for Open to apply; call it from an init
// function, before any Open. It panics on a programming error: a version not
// above the cache's own, a version already registered, or an empty name or
// SQL.
func Register(m Migration) {
	registry.Lock()
	defer registry.Unlock()
	if own := ownMigrations[len(ownMigrations)-1].Version; m.Version <= own {
		panic(fmt.Sprintf("cache.Register: migration %d (%s): versions up to %d belong to the cache", m.Version, m.Name, own))
	}
	if m.Name == "" || m.SQL == "" {
		panic(fmt.Sprintf("cache.Register: migration %d has an empty name or SQL", m.Version))
	}
	for _, r := range registry.extra {
		if r.Version == m.Version {
			panic(fmt.Sprintf("cache.Register: migration %d (%s) is already registered as %q", m.Version, m.Name, r.Name))
		}
	}
	registry.extra = append(registry.extra, m)
}

// migrations returns every known migration in version order.
func migrations() []Migration {
	registry.Lock()
	defer registry.Unlock()
	all := slices.Concat(ownMigrations, registry.extra)
	slices.SortFunc(all, func(a, b Migration) int { return a.Version - b.Version })
	return all
}

// latestVersion is the highest schema version this binary knows.
func latestVersion() int {
	all := migrations()
	return all[len(all)-1].Version
}

// migrate applies the pending migrations. Several processes may open a new
// store at once; each migration rereads user_version inside its write
// transaction, so exactly one of them applies it.
func (s *Store) migrate(ctx context.Context) error {
	all := migrations()
	if err := s.checkSkipped(ctx, all); err != nil {
		return err
	}
	for _, m := range all {
		applied, err := s.apply(ctx, m)
		if err != nil {
			return fmt.Errorf("applying migration %d (%s) to cache %s: %w", m.Version, m.Name, s.path, err)
		}
		if applied {
			s.log.Info("applied cache migration", "path", s.path, "version", m.Version, "name", m.Name)
		}
	}
	return nil
}

// checkSkipped refuses a store whose user_version is already past a known
// migration that was never applied to it: that migration was numbered below
// one released earlier, and Open would otherwise skip it silently.
func (s *Store) checkSkipped(ctx context.Context, all []Migration) error {
	var version int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("reading the schema version of cache %s: %w", s.path, err)
	}
	if version == 0 {
		return nil
	}
	rows, err := s.db.QueryContext(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return fmt.Errorf("reading the applied migrations of cache %s: %w", s.path, err)
	}
	defer rows.Close()
	applied := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return fmt.Errorf("reading the applied migrations of cache %s: %w", s.path, err)
		}
		applied[v] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading the applied migrations of cache %s: %w", s.path, err)
	}
	for _, m := range all {
		if m.Version <= version && !applied[m.Version] {
			return fmt.Errorf("opening cache %s: migration %d (%s) was never applied but the store is already at schema version %d; "+
				"give the migration a version above every released one", s.path, m.Version, m.Name, version)
		}
	}
	return nil
}

// apply applies m unless the store already has it, and says whether it did.
func (s *Store) apply(ctx context.Context, m Migration) (applied bool, err error) {
	err = s.Write(ctx, func(tx *sql.Tx) error {
		var version int
		if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
			return err
		}
		if version >= m.Version {
			return nil
		}
		if version == 0 {
			// Stamped in the same transaction as the first tables, so a
			// file with tables and no stamp is never one of ours.
			if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)",
			m.Version, m.Name, time.Now().UnixNano()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.Version)); err != nil {
			return err
		}
		applied = true
		return nil
	})
	return applied && err == nil, err
}
