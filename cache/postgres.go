package cache

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// PostgreSQL: the store that several servers share (docs/architecture.md §Storage).
// It keeps the same blobs, frames and keys as the SQLite store (trees as
// bytea), the same runs log, and its own migrations: the SQL of the two
// differs, so each Schema is written once per backend. Other packages keep
// their tables in it as they do in the SQLite store: they apply their
// PostgreSQL Schema with Migrate and work through Pool.

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
	pool     *pgxpool.Pool
	where    string // host:port/database, for messages (never the password)
	maxBytes int64
	log      *slog.Logger
}

// OpenPostgres connects to the database at url (postgres://user:password@host:port/database?...),
// checks that it answers, and brings the cache's tables up to date; other
// packages migrate theirs with Migrate. Options.MaxBytes and Logger apply
// as for Open; BusyTimeout is SQLite's and is ignored. A malformed URL or a
// database that cannot be reached is an error that never quotes the
// password.
func OpenPostgres(ctx context.Context, url string, opts Options) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message masks the password of the URL it quotes.
		return nil, fmt.Errorf("reading the PostgreSQL URL: %w", err)
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = defaultConnectTimeout
	}
	p := &Postgres{
		where:    fmt.Sprintf("%s:%d/%s", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database),
		maxBytes: opts.MaxBytes,
		log:      opts.Logger,
	}
	if p.maxBytes == 0 {
		p.maxBytes = DefaultMaxBytes
	}
	if p.log == nil {
		p.log = slog.Default()
	}
	p.pool, err = pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("opening PostgreSQL %s: %w", p.where, err)
	}
	if err := p.pool.Ping(ctx); err != nil {
		p.pool.Close()
		return nil, fmt.Errorf("connecting to PostgreSQL %s: %w", p.where, err)
	}
	if err := p.Migrate(ctx, pgCacheSchema); err != nil {
		p.pool.Close()
		return nil, err
	}
	return p, nil
}

// Close closes the pool's connections.
func (p *Postgres) Close() error {
	p.pool.Close()
	return nil
}

// Ping checks that the database answers.
func (p *Postgres) Ping(ctx context.Context) error {
	if err := p.pool.Ping(ctx); err != nil {
		return fmt.Errorf("pinging PostgreSQL %s: %w", p.where, err)
	}
	return nil
}

// Pool is the connection pool, for the packages that keep tables in the
// store.
func (p *Postgres) Pool() *pgxpool.Pool { return p.pool }

// String names the database (host:port/database) for messages.
func (p *Postgres) String() string { return p.where }

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
CREATE TABLE runs (
	id            bigserial PRIMARY KEY,
	repo          text NOT NULL,
	base          text NOT NULL,
	head          text NOT NULL,
	path          text NOT NULL,
	strategy      text NOT NULL,
	base_cached   boolean NOT NULL,
	head_cached   boolean NOT NULL,
	base_states   integer NOT NULL,
	head_states   integer NOT NULL,
	reused_states integer NOT NULL,
	solver_calls  integer NOT NULL,
	ms            bigint NOT NULL,
	created       bigint NOT NULL -- unix nanoseconds
);
CREATE INDEX runs_created ON runs (created, id);
CREATE INDEX runs_repo_created ON runs (repo, created, id);
`,
}}}

// Migrate brings the tables of sc up to date in the PostgreSQL store, as
// Store.Migrate does in SQLite: each pending migration in its own
// transaction with its bookkeeping, under an advisory lock so that servers
// starting together apply it once. A store that applied more of sc than sc
// has is an error wrapping ErrNewerSchema, and is not changed.
func (p *Postgres) Migrate(ctx context.Context, sc Schema) error {
	if err := sc.validate(); err != nil {
		return fmt.Errorf("migrating PostgreSQL %s: %w", p.where, err)
	}
	for _, m := range sc.Migrations {
		if m.Legacy != 0 {
			return fmt.Errorf("migrating PostgreSQL %s: schema %s: migration %d has a legacy version, which only SQLite stores had", p.where, sc.Name, m.Version)
		}
		applied, err := p.apply(ctx, sc, m)
		if err != nil {
			return fmt.Errorf("applying migration %d (%s) of %s to PostgreSQL %s: %w", m.Version, m.Name, sc.Name, p.where, err)
		}
		if applied {
			p.log.Info("applied database migration", "database", p.where, "schema", sc.Name, "version", m.Version, "name", m.Name)
		}
	}
	return nil
}

const pgBookkeeping = `
CREATE TABLE IF NOT EXISTS schema_migrations (
	schema  text NOT NULL,
	version integer NOT NULL,
	name    text NOT NULL,
	applied timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (schema, version)
)`

func (p *Postgres) apply(ctx context.Context, sc Schema, m Migration) (applied bool, err error) {
	err = pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrationLock)); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, pgBookkeeping); err != nil {
			return err
		}
		var latest, n int
		if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0), count(*) FROM schema_migrations WHERE schema = $1",
			sc.Name).Scan(&latest, &n); err != nil {
			return err
		}
		if latest != n {
			return fmt.Errorf("the store applied %d migrations of %s, numbered up to %d: its bookkeeping is inconsistent", n, sc.Name, latest)
		}
		if known := len(sc.Migrations); latest > known {
			return fmt.Errorf("the store's %s schema is at version %d, newer than %d, the latest this setbot knows; "+
				"a newer setbot owns the database, so upgrade setbot or use another database: %w", sc.Name, latest, known, ErrNewerSchema)
		}
		if latest >= m.Version {
			var name string
			if err := tx.QueryRow(ctx, "SELECT name FROM schema_migrations WHERE schema = $1 AND version = $2",
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
		if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (schema, version, name) VALUES ($1, $2, $3)",
			sc.Name, m.Version, m.Name); err != nil {
			return err
		}
		applied = true
		return nil
	})
	return applied && err == nil, err
}

// Get is Store.Get in PostgreSQL.
func (p *Postgres) Get(ctx context.Context, kind, key string) (data []byte, ok bool, err error) {
	if err := checkKey(kind, key); err != nil {
		return nil, false, fmt.Errorf("reading from cache: %w", err)
	}
	var (
		id, size, written int64
		frame, sum        []byte
	)
	err = p.pool.QueryRow(ctx, "SELECT id, data, size, sum, written FROM blobs WHERE kind = $1 AND key = $2",
		kind, key).Scan(&id, &frame, &size, &sum, &written)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading %s %q from PostgreSQL %s: %w", kind, key, p.where, err)
	}
	data, err = unpack(ctx, kind, key, frame, size, sum)
	if err != nil && ctx.Err() != nil {
		return nil, false, ctx.Err() // stopped, not damaged
	}
	if err != nil {
		if !unusable(ctx, p.log, "database", p.where, kind, key, err) {
			return nil, false, nil
		}
		// Only the version read: a concurrent Put may have replaced it.
		if _, err := p.pool.Exec(ctx, "DELETE FROM blobs WHERE id = $1 AND written = $2", id, written); err != nil {
			p.log.Warn("deleting an unusable cache blob", "database", p.where, "kind", kind, "key", key, "err", err)
		}
		return nil, false, nil
	}
	if _, err := p.pool.Exec(ctx, "UPDATE blobs SET last_used = nextval('blob_clock') WHERE id = $1", id); err != nil {
		p.log.Warn("marking cache blob used", "database", p.where, "kind", kind, "key", key, "err", err)
	}
	return data, true, nil
}

// Put is Store.Put in PostgreSQL.
func (p *Postgres) Put(ctx context.Context, kind, key string, data []byte) error {
	if err := checkKey(kind, key); err != nil {
		return fmt.Errorf("writing to cache: %w", err)
	}
	frame, sum, err := pack(ctx, kind, key, data)
	if err != nil {
		return fmt.Errorf("compressing %s %q for cache: %w", kind, key, err)
	}
	var evicted int
	err = pgx.BeginFunc(ctx, p.pool, func(tx pgx.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, `
INSERT INTO blobs (kind, key, data, size, stored, sum, written, last_used)
SELECT $1, $2, $3, $4, $5, $6, t.n, t.n FROM (SELECT nextval('blob_clock') AS n) t
ON CONFLICT (kind, key) DO UPDATE SET
	data = excluded.data, size = excluded.size, stored = excluded.stored, sum = excluded.sum,
	written = excluded.written, last_used = excluded.last_used
RETURNING id`, kind, key, frame, len(data), len(frame), sum).Scan(&id)
		if err != nil {
			return err
		}
		evicted, err = p.evict(ctx, tx, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("writing %s %q to PostgreSQL %s: %w", kind, key, p.where, err)
	}
	if evicted > 0 {
		p.log.Debug("evicted cache blobs", "database", p.where, "count", evicted, "max_bytes", p.maxBytes)
	}
	return nil
}

// evict deletes least recently used blobs other than keep until the stored
// total is within p.maxBytes, and says how many it deleted.
func (p *Postgres) evict(ctx context.Context, tx pgx.Tx, keep int64) (int, error) {
	if p.maxBytes < 0 {
		return 0, nil
	}
	var total int64
	if err := tx.QueryRow(ctx, "SELECT coalesce(sum(stored), 0) FROM blobs").Scan(&total); err != nil {
		return 0, err
	}
	if total <= p.maxBytes {
		return 0, nil
	}
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(evictionLock)); err != nil {
		return 0, err
	}
	// Counted again under the lock: another Put may have evicted meanwhile.
	if err := tx.QueryRow(ctx, "SELECT coalesce(sum(stored), 0) FROM blobs").Scan(&total); err != nil {
		return 0, err
	}
	tag, err := tx.Exec(ctx, `
DELETE FROM blobs WHERE id IN (
	SELECT id FROM (
		SELECT id, sum(stored) OVER (ORDER BY last_used, id) - stored AS before FROM blobs WHERE id <> $1
	) v WHERE v.before < $2)`, keep, total-p.maxBytes)
	if err != nil {
		return 0, err
	}
	return int(tag.RowsAffected()), nil
}

// DeleteKind is Store.DeleteKind in PostgreSQL.
func (p *Postgres) DeleteKind(ctx context.Context, kind string) (int64, error) {
	if kind == "" {
		return 0, fmt.Errorf("deleting from cache: empty kind")
	}
	tag, err := p.pool.Exec(ctx, "DELETE FROM blobs WHERE kind = $1", kind)
	if err != nil {
		return 0, fmt.Errorf("deleting every %s from PostgreSQL %s: %w", kind, p.where, err)
	}
	return tag.RowsAffected(), nil
}

// RecordRun is Store.RecordRun in PostgreSQL.
func (p *Postgres) RecordRun(ctx context.Context, r Run) (int64, error) {
	created := r.Created
	if created.IsZero() {
		created = time.Now()
	}
	var id int64
	err := p.pool.QueryRow(ctx, `
INSERT INTO runs (repo, base, head, path, strategy, base_cached, head_cached,
	base_states, head_states, reused_states, solver_calls, ms, created)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
RETURNING id`,
		r.Repo, r.Base, r.Head, r.Path, r.Strategy, r.BaseCached, r.HeadCached,
		r.BaseStates, r.HeadStates, r.ReusedStates, r.SolverCalls, r.Ms, created.UnixNano()).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("recording run of %s %s..%s in PostgreSQL %s: %w", r.Path, r.Base, r.Head, p.where, err)
	}
	return id, nil
}

// Runs is Store.Runs in PostgreSQL.
func (p *Postgres) Runs(ctx context.Context, repo string, limit int) ([]Run, error) {
	var lim *int // NULL: no limit
	if limit > 0 {
		lim = &limit
	}
	rows, err := p.pool.Query(ctx, `SELECT id, repo, base, head, path, strategy, base_cached, head_cached,
	base_states, head_states, reused_states, solver_calls, ms, created FROM runs
WHERE $1 = '' OR repo = $1 ORDER BY created DESC, id DESC LIMIT $2`, repo, lim)
	if err != nil {
		return nil, fmt.Errorf("reading runs from PostgreSQL %s: %w", p.where, err)
	}
	runs, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Run, error) {
		var (
			r       Run
			created int64
		)
		err := row.Scan(&r.ID, &r.Repo, &r.Base, &r.Head, &r.Path, &r.Strategy, &r.BaseCached, &r.HeadCached,
			&r.BaseStates, &r.HeadStates, &r.ReusedStates, &r.SolverCalls, &r.Ms, &created)
		r.Created = time.Unix(0, created).UTC()
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("reading runs from PostgreSQL %s: %w", p.where, err)
	}
	return runs, nil
}

// PruneRuns is Store.PruneRuns in PostgreSQL.
func (p *Postgres) PruneRuns(ctx context.Context, age time.Duration) (int, error) {
	if age <= 0 {
		return 0, fmt.Errorf("pruning runs in PostgreSQL %s: age %v is not positive", p.where, age)
	}
	tag, err := p.pool.Exec(ctx, "DELETE FROM runs WHERE created < $1", time.Now().Add(-age).UnixNano())
	if err != nil {
		return 0, fmt.Errorf("pruning runs in PostgreSQL %s: %w", p.where, err)
	}
	return int(tag.RowsAffected()), nil
}
