package cache

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
)

// PostgreSQL: the store that several servers share (docs/architecture.md §Storage).
// It keeps the same blobs, frames and keys as the SQLite store (trees as
// bytea), the same runs log, and its own migrations: the SQL of the two
// differs, so each Schema is written once per database. Other packages keep
// their tables in it as they do in the SQLite store: they apply their
// PostgreSQL Schema with Migrate and work through DB, whose dialect
// supplies what PostgreSQL does differently (db.go).

const (
	// defaultConnectTimeout bounds a connection attempt when the URL sets
	// no connect_timeout, so that an unreachable database is an error at
	// start-up rather than a hang.
	defaultConnectTimeout = 10 * time.Second

	// migrationLock is the advisory lock that serialises migrations, so
	// that replicas starting together apply each one once ("SETB").
	migrationLock = 0x53455442
	// evictionLock serialises eviction, so that two Puts over the cap do
	// not both evict for the same excess.
	evictionLock = 0x53455443
)

// Postgres is an open PostgreSQL store. Its methods are safe for concurrent
// use.
type Postgres struct {
	*DB
}

// OpenPostgres connects to the database at url (postgres://user:password@host:port/database?...),
// checks that it answers, and brings the cache's tables up to date; other
// packages migrate theirs with Migrate. Options.MaxBytes and Logger apply
// as for Open; BusyTimeout is SQLite's and is ignored. A malformed URL or a
// database that cannot be reached is an error that never quotes the
// password.
func OpenPostgres(ctx context.Context, url string, opts Options) (*Postgres, error) {
	// Parsed as pgxpool does, which reads the pool's settings from the URL
	// (pool_max_conns, pool_max_conn_lifetime, pool_max_conn_idle_time) as
	// setbot always has, with pgxpool's defaults.
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message masks the password of the URL it quotes.
		return nil, fmt.Errorf("reading the PostgreSQL URL: %w", err)
	}
	conn := cfg.ConnConfig
	if conn.ConnectTimeout == 0 {
		conn.ConnectTimeout = defaultConnectTimeout
	}
	where := fmt.Sprintf("%s:%d/%s", conn.Host, conn.Port, conn.Database)
	db := stdlib.OpenDB(*conn)
	db.SetMaxOpenConns(int(cfg.MaxConns))
	db.SetMaxIdleConns(int(cfg.MaxConns))
	db.SetConnMaxLifetime(cfg.MaxConnLifetime)
	db.SetConnMaxIdleTime(cfg.MaxConnIdleTime)
	p := &Postgres{DB: newDB(db, postgresDialect, "PostgreSQL "+where, "database", where, opts)}
	if err := p.db.PingContext(ctx); err != nil {
		p.db.Close()
		return nil, fmt.Errorf("connecting to PostgreSQL %s: %w", where, err)
	}
	if err := p.Migrate(ctx, pgCacheSchema); err != nil {
		p.db.Close()
		return nil, err
	}
	return p, nil
}

// pgCacheSchema is the cache's part of a PostgreSQL store: the tables of
// cacheSchema, with a sequence for the use counter.
var pgCacheSchema = Schema{Name: cacheSchemaName, Migrations: []Migration{{
	Version: 1,
	Name:    "blobs and runs",
	SQL: `
CREATE SEQUENCE blob_clock;
CREATE TABLE blobs (
	id        bigserial PRIMARY KEY,
	kind      text NOT NULL,
	key       text NOT NULL,
	data      bytea NOT NULL,  -- a frame, as in SQLite (blob.go)
	size      bigint NOT NULL,
	stored    bigint NOT NULL, -- length(data)
	sum       bytea NOT NULL,
	written   bigint NOT NULL, -- blob_clock value of the Put
	last_used bigint NOT NULL, -- blob_clock value of the last Put or Get
	UNIQUE (kind, key)
);
CREATE INDEX blobs_lru ON blobs (last_used, stored);
` + runsTable("bigserial PRIMARY KEY", "text", "boolean", "integer", "bigint"),
}}}

// pgBookkeeping is the table of applied migrations in PostgreSQL.
const pgBookkeeping = `
CREATE TABLE IF NOT EXISTS schema_migrations (
	schema  text NOT NULL,
	version integer NOT NULL,
	name    text NOT NULL,
	applied timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (schema, version)
)`
