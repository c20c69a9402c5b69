package cache

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// DB is the database under a store, SQLite or PostgreSQL, written once on
// database/sql: the cache's blobs and runs, the migrations of every
// Schema, and the tables other packages keep in the store all go through
// it. What the two databases do differently is its dialect's, as in goose
// (Pressly, internal/dialect): placeholders, the blobs' use counter, locks
// and notifications. Queries are written for SQLite, with ? or ?N
// placeholders; in PostgreSQL they become $N.
type DB struct {
	db       *sql.DB
	dialect  *dialect
	where    string // "cache PATH" or "PostgreSQL host:port/database", for messages
	placeKey string // the log key of where: "path" or "database"
	place    string // the value logged under placeKey
	maxBytes int64
	log      *slog.Logger
}

// dialect is what SQLite and PostgreSQL do differently, as the cache's own
// tables and migrations need it; a package with tables of its own keeps
// its own dialect beside them (bot/queue's dialect.go).
type dialect struct {
	postgres bool
	// tick advances the blobs' use counter and returns its new value.
	tick string
	// lock takes the advisory lock ? until the transaction ends; "" in
	// SQLite, whose transactions take the one write lock when they begin.
	lock string
	// bookkeeping creates schema_migrations if there is none, in every
	// migration's transaction; "" in SQLite, whose bookkeeping is created
	// with the file's layout (setLayout).
	bookkeeping string
	// record records an applied migration: schema, version, name and, in
	// SQLite, the time.
	record string
}

var (
	sqliteDialect = &dialect{
		tick:   "UPDATE blob_clock SET n = n + 1 WHERE id = 1 RETURNING n",
		record: "INSERT INTO schema_migrations (schema, version, name, applied) VALUES (?, ?, ?, ?)",
	}
	postgresDialect = &dialect{
		postgres:    true,
		tick:        "SELECT nextval('blob_clock')",
		lock:        "SELECT pg_advisory_xact_lock(?)",
		bookkeeping: pgBookkeeping,
		record:      "INSERT INTO schema_migrations (schema, version, name) VALUES (?, ?, ?)",
	}
)

// newDB returns the DB of db in dialect d, with the cap and logger of
// opts; where names it in messages, and place under placeKey in logs.
func newDB(db *sql.DB, d *dialect, where, placeKey, place string, opts Options) *DB {
	out := &DB{db: db, dialect: d, where: where, placeKey: placeKey, place: place, maxBytes: opts.MaxBytes, log: opts.Logger}
	if out.maxBytes == 0 {
		out.maxBytes = DefaultMaxBytes
	}
	if out.log == nil {
		out.log = slog.Default()
	}
	return out
}

// rebind writes the placeholders of query, ? or ?N, as the dialect's.
func (d *dialect) rebind(query string) string {
	if !d.postgres || !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] != '?' {
			b.WriteByte(query[i])
			continue
		}
		j := i + 1
		for j < len(query) && query[j] >= '0' && query[j] <= '9' {
			j++
		}
		if j == i+1 {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteString("$" + query[i+1:j])
		i = j - 1
	}
	return b.String()
}

// Postgres says whether the database is PostgreSQL (several servers may
// share it) rather than SQLite (one server's file).
func (db *DB) Postgres() bool { return db.dialect.postgres }

// String names the database for messages: the cache file's path, or
// host:port/database of PostgreSQL (never the password).
func (db *DB) String() string { return db.place }

// Close closes the database.
func (db *DB) Close() error {
	if err := db.db.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", db.where, err)
	}
	return nil
}

// Ping checks that the database can still be reached.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.db.PingContext(ctx); err != nil {
		return fmt.Errorf("pinging %s: %w", db.where, err)
	}
	return nil
}

// Query runs a read-only query, for the packages that keep tables in the
// store: reads are plain queries, since a transaction in SQLite takes the
// write lock (see Write).
func (db *DB) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.db.QueryContext(ctx, db.dialect.rebind(query), args...)
}

// QueryRow is Query for at most one row.
func (db *DB) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return db.db.QueryRowContext(ctx, db.dialect.rebind(query), args...)
}

// Tx is a transaction of Write; its statements are written as DB's are.
type Tx struct {
	tx      *sql.Tx
	dialect *dialect
}

// Exec runs a statement in the transaction.
func (t *Tx) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, t.dialect.rebind(query), args...)
}

// Query runs a query in the transaction.
func (t *Tx) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, t.dialect.rebind(query), args...)
}

// QueryRow is Query for at most one row.
func (t *Tx) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, t.dialect.rebind(query), args...)
}

// lock takes the advisory lock key until the transaction ends, so that
// servers sharing a PostgreSQL database do one thing at a time; in SQLite
// the transaction's write lock already does.
func (t *Tx) lock(ctx context.Context, key int64) error {
	if t.dialect.lock == "" {
		return nil
	}
	_, err := t.Exec(ctx, t.dialect.lock, key)
	return err
}

// Write runs f in one transaction and commits it unless f fails: for the
// packages that keep tables in the store. In SQLite the transaction begins
// IMMEDIATE (it takes the write lock at once; see dsn). Do not call the
// DB's other methods from f: they need connections (and in SQLite the
// write lock) of their own.
func (db *DB) Write(ctx context.Context, f func(tx *Tx) error) error {
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(&Tx{tx: tx, dialect: db.dialect}); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Violates says whether err is PostgreSQL refusing a row that the unique
// index constraint forbids.
func Violates(err error, constraint string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == constraint
}

// Listen passes f the payload of every notification on channel, from a
// connection of its own, until that connection fails or ctx is done; ready
// is called once it listens. Only PostgreSQL has notifications: in SQLite
// it returns at once with an error.
func (db *DB) Listen(ctx context.Context, channel string, ready func(), f func(payload string)) error {
	if !db.dialect.postgres {
		return errors.New("SQLite has no notifications")
	}
	conn, err := db.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		if _, err := pc.Exec(ctx, "LISTEN "+channel); err != nil {
			return driver.ErrBadConn
		}
		ready()
		for {
			n, err := pc.WaitForNotification(ctx)
			if err != nil {
				// A connection that listened is not given back to the pool.
				return driver.ErrBadConn
			}
			f(n.Payload)
		}
	})
}
