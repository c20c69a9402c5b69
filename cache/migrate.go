package cache

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Each package that keeps tables in a store owns a Schema: its migrations,
// numbered 1, 2, 3, ... on their own, which it applies with Migrate when it
// opens its part of the store (the cache applies its own in Open). The store
// records every applied migration in schema_migrations under the schema's
// name, so one package's migrations never need to know another's.
//
// PRAGMA user_version numbers the layout of that bookkeeping, not a
// migration. Up to layoutVersion-1 it was the highest migration applied, in
// one sequence all packages shared (cache 1, queue 100 and 101, schedules
// 110); Open converts such a store in one transaction, keeping its
// schema_migrations rows under the schema "" until the package that owns
// them claims them by their Legacy number.
const (
	layoutVersion = 200
	// cacheSchemaName keys the cache's own tables in schema_migrations.
	cacheSchemaName = "cache"
)

// Schema is the tables one package keeps in a store, and the migrations
// that build them.
type Schema struct {
	// Name identifies the schema in the store's bookkeeping; it never
	// changes once released.
	Name string
	// Migrations are applied in order; the i-th has Version i+1.
	Migrations []Migration
}

// Migration is one step of a Schema. Migrate applies each pending one in
// its own transaction together with its bookkeeping, so SQL must be valid
// inside a transaction (no VACUUM, no journal_mode).
type Migration struct {
	Version int
	// Name describes the step; it never changes once released, and Migrate
	// refuses a store that applied another migration under its version.
	Name string
	SQL  string
	// Legacy is the version the migration had in the sequence every schema
	// shared before each had its own, for a migration released then; 0 for
	// one added since.
	Legacy int
}

// cacheSchema is the cache's part of the store.
//
// blobs.written and blobs.last_used are ticks of blob_clock, a counter that
// only grows: unlike timestamps it cannot repeat or go back when the clock
// is adjusted or two processes write in the same instant, so the order of
// last_used is exactly the order of use. stored repeats length(data) so that
// the index blobs_lru covers both the eviction walk and the total size.
//
// Migration 1 also created schema_migrations when it was the first step of
// the shared sequence; the bookkeeping is now created with the layout.
var cacheSchema = Schema{Name: cacheSchemaName, Migrations: []Migration{{
	Version: 1,
	Name:    "blobs and runs",
	Legacy:  1,
	SQL: `
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
` + runsTable("INTEGER PRIMARY KEY AUTOINCREMENT", "TEXT", "INTEGER", "INTEGER", "INTEGER"),
}}}

// runsTable is the runs log's table and indexes, the same in SQLite and
// PostgreSQL but for the column types: the id's, text, booleans, counts
// and unix nanoseconds.
func runsTable(id, text, boolean, count, nanos string) string {
	columns := [][2]string{{"repo", text}, {"base", text}, {"head", text}, {"path", text}, {"strategy", text},
		{"base_cached", boolean}, {"head_cached", boolean},
		{"base_states", count}, {"head_states", count}, {"reused_states", count}, {"solver_calls", count},
		{"ms", nanos}, {"created", nanos}}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE TABLE runs (\n\t%-13s %s", "id", id)
	for _, c := range columns {
		fmt.Fprintf(&b, ",\n\t%-13s %s NOT NULL", c[0], c[1])
	}
	b.WriteString(` -- unix nanoseconds
);
CREATE INDEX runs_created ON runs (created, id);
CREATE INDEX runs_repo_created ON runs (repo, created, id);
`)
	return b.String()
}

// bookkeeping creates the table of applied migrations, in the layout
// layoutVersion names.
const bookkeeping = `
CREATE TABLE schema_migrations (
	schema  TEXT NOT NULL,    -- Schema.Name; "" for a legacy row no schema has claimed
	version INTEGER NOT NULL, -- Migration.Version; the legacy version while unclaimed
	name    TEXT NOT NULL,
	applied INTEGER NOT NULL, -- unix nanoseconds
	PRIMARY KEY (schema, version)
) WITHOUT ROWID;
`

// convertLegacy moves the rows of the shared sequence's bookkeeping into
// the current layout, unclaimed.
const convertLegacy = `
ALTER TABLE schema_migrations RENAME TO legacy_migrations;
` + bookkeeping + `
INSERT INTO schema_migrations (schema, version, name, applied)
	SELECT '', version, name, applied FROM legacy_migrations;
DROP TABLE legacy_migrations;
`

// validate checks sc for programming errors.
func (sc Schema) validate() error {
	if sc.Name == "" || len(sc.Migrations) == 0 {
		return fmt.Errorf("a schema %q without a name or migrations", sc.Name)
	}
	legacy := map[int]bool{}
	for i, m := range sc.Migrations {
		if m.Version != i+1 {
			return fmt.Errorf("schema %s: migration %q has version %d, want %d", sc.Name, m.Name, m.Version, i+1)
		}
		if m.Name == "" || m.SQL == "" {
			return fmt.Errorf("schema %s: migration %d has an empty name or SQL", sc.Name, m.Version)
		}
		if m.Legacy < 0 || m.Legacy >= layoutVersion || m.Legacy > 0 && legacy[m.Legacy] {
			return fmt.Errorf("schema %s: migration %d has legacy version %d", sc.Name, m.Version, m.Legacy)
		}
		legacy[m.Legacy] = true
	}
	return nil
}

// Migrate brings the tables of sc up to date: it applies each of its
// migrations the store has not applied yet, in order, each in its own
// transaction with its bookkeeping. Several processes may migrate a store
// at once; each migration rereads the bookkeeping inside its transaction,
// which holds SQLite's write lock or, in PostgreSQL, an advisory lock, so
// exactly one of them applies it. A store that applied more of sc than sc
// has (a newer setbot wrote it) is an error wrapping ErrNewerSchema, and is
// not changed. A Schema is written for one database: SQLite's and
// PostgreSQL's SQL differ, so a package keeps one of each.
func (db *DB) Migrate(ctx context.Context, sc Schema) error {
	if err := sc.validate(); err != nil {
		return fmt.Errorf("migrating %s: %w", db.where, err)
	}
	for _, m := range sc.Migrations {
		if m.Legacy != 0 && db.dialect.postgres {
			return fmt.Errorf("migrating %s: schema %s: migration %d has a legacy version, which only SQLite stores had", db.where, sc.Name, m.Version)
		}
		applied, err := db.apply(ctx, sc, m)
		if err != nil {
			return fmt.Errorf("applying migration %d (%s) of %s to %s: %w", m.Version, m.Name, sc.Name, db.where, err)
		}
		if applied {
			db.log.Info("applied a migration", db.placeKey, db.place, "schema", sc.Name, "version", m.Version, "name", m.Name)
		}
	}
	return nil
}

// apply applies m unless the store already has it, and says whether it did.
func (db *DB) apply(ctx context.Context, sc Schema, m Migration) (applied bool, err error) {
	err = db.Write(ctx, func(tx *Tx) error {
		if err := db.prepare(ctx, tx, sc, m); err != nil {
			return err
		}
		latest, err := appliedVersion(ctx, tx, sc)
		if err != nil {
			return err
		}
		if latest >= m.Version {
			var name string
			if err := tx.QueryRow(ctx, "SELECT name FROM schema_migrations WHERE schema = ? AND version = ?",
				sc.Name, m.Version).Scan(&name); err != nil {
				return err
			}
			if name != m.Name {
				return fmt.Errorf("the store applied %q as this version; were the migrations renumbered?", name)
			}
			return nil
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			return err
		}
		record := []any{sc.Name, m.Version, m.Name}
		if !db.dialect.postgres {
			record = append(record, time.Now().UnixNano()) // PostgreSQL's default is now()
		}
		if _, err := tx.Exec(ctx, db.dialect.record, record...); err != nil {
			return err
		}
		applied = true
		return nil
	})
	return applied && err == nil, err
}

// prepare readies the bookkeeping for m in tx: in PostgreSQL it takes the
// migrations' advisory lock and creates the bookkeeping if needed; in
// SQLite it claims the row m had in the shared legacy sequence.
func (db *DB) prepare(ctx context.Context, tx *Tx, sc Schema, m Migration) error {
	if err := tx.lock(ctx, migrationLock); err != nil {
		return err
	}
	if db.dialect.bookkeeping != "" {
		if _, err := tx.Exec(ctx, db.dialect.bookkeeping); err != nil {
			return err
		}
	}
	if m.Legacy > 0 {
		if _, err := tx.Exec(ctx, "UPDATE schema_migrations SET schema = ?, version = ? WHERE schema = '' AND version = ?",
			sc.Name, m.Version, m.Legacy); err != nil {
			return fmt.Errorf("claiming legacy migration %d: %w", m.Legacy, err)
		}
	}
	return nil
}

// appliedVersion is the latest migration of sc the store applied, checked
// against sc: the bookkeeping has no gaps and is not ahead of sc.
func appliedVersion(ctx context.Context, tx *Tx, sc Schema) (int, error) {
	var latest, n int
	if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0), count(*) FROM schema_migrations WHERE schema = ?",
		sc.Name).Scan(&latest, &n); err != nil {
		return 0, err
	}
	if latest != n {
		return 0, fmt.Errorf("the store applied %d migrations of %s, numbered up to %d: its bookkeeping is inconsistent", n, sc.Name, latest)
	}
	if known := len(sc.Migrations); latest > known {
		return 0, fmt.Errorf("the store's %s schema is at version %d, newer than %d, the latest this setbot knows; "+
			"a newer setbot owns the store, so upgrade setbot or use another store: %w", sc.Name, latest, known, ErrNewerSchema)
	}
	return latest, nil
}

// setLayout creates the bookkeeping of a new store, or converts that of a
// store written before each schema had its own migrations. Like a
// migration, it rereads user_version inside its write transaction.
func (s *Store) setLayout(ctx context.Context) error {
	converted := 0
	err := s.Write(ctx, func(tx *Tx) error {
		var version int
		if err := tx.QueryRow(ctx, "PRAGMA user_version").Scan(&version); err != nil {
			return err
		}
		switch {
		case version == layoutVersion:
			return nil
		case version > layoutVersion:
			return fmt.Errorf("its schema version %d is newer than %d, the latest this setbot knows: %w", version, layoutVersion, ErrNewerSchema)
		case version == 0:
			// Stamped in the same transaction as the first table, so a
			// file with tables and no stamp is never one of ours.
			if _, err := tx.Exec(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID)); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, bookkeeping); err != nil {
				return err
			}
		default:
			if _, err := tx.Exec(ctx, convertLegacy); err != nil {
				return err
			}
			converted = version
		}
		_, err := tx.Exec(ctx, fmt.Sprintf("PRAGMA user_version = %d", layoutVersion))
		return err
	})
	if err != nil {
		return fmt.Errorf("setting up the schema bookkeeping of cache %s: %w", s.path, err)
	}
	if converted > 0 {
		s.log.Info("converted cache to per-schema migrations", "path", s.path, "from_version", converted, "to_version", layoutVersion)
	}
	return nil
}
