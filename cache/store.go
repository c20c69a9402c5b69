// Package cache is setbot's store: a SQLite file (Store), the embedded
// default, or a PostgreSQL database that several servers share (Postgres),
// both behind Backend and both one implementation, DB, on database/sql, whose
// dialect supplies what the two databases do differently (db.go). It keeps
// symbolic execution trees, test suites and analysis results as compressed,
// checksummed blobs under keys the caller computes, each recording the key it
// was stored under so that it is never returned for another, evicts the least
// recently used of them beyond a size cap, and logs analysis runs. Other
// packages keep their own tables in the store: each applies its Schema for
// the database with Migrate when it opens its part, and reads and writes them
// with the DB's Query, QueryRow and Write. The contract both databases keep
// is cachetest's.
//
// One file serves several goroutines and several processes at once: WAL
// journaling, a busy timeout, and every write in a transaction that takes the
// write lock when it begins. A file that is not a setbot store is never
// touched: Open refuses it with ErrNotStore. A setbot store that SQLite cannot
// read or that fails its quick check is never deleted either: Open moves it
// aside and starts a new store, and Rebuilt says so.
package cache

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

const (
	// DefaultMaxBytes is the cap on stored blob bytes when Options.MaxBytes is 0.
	DefaultMaxBytes int64 = 1 << 30
	// DefaultBusyTimeout is how long a statement waits for another
	// connection's lock when Options.BusyTimeout is 0.
	DefaultBusyTimeout = 10 * time.Second

	// applicationID marks a SQLite file as a setbot store ("SETB").
	applicationID = 0x53455442

	// maxOpenConns bounds the connection pool. In WAL mode readers never
	// wait for the writer, so a few connections let Gets and Runs proceed
	// while a Put commits. SQLite admits one writer at a time whatever the
	// pool size, so more connections would only add goroutines sleeping in
	// the busy handler. Idle connections are kept (same limit, no lifetime):
	// each holds its page cache, and opening one costs the PRAGMAs below.
	maxOpenConns = 4

	// journalSizeLimit truncates the WAL back to this size after a
	// checkpoint, so one large Put does not leave a large -wal file behind.
	journalSizeLimit = 64 << 20
)

// ErrNewerSchema reports a store whose schema version is newer than this
// binary knows: a newer setbot owns it, so Open leaves it alone.
var ErrNewerSchema = errors.New("schema version newer than this setbot knows")

// ErrNotStore reports a file that is not a setbot store (a model, a text
// file, another program's database): Open leaves it exactly as it was,
// since the path was most likely mistyped.
var ErrNotStore = errors.New("not a setbot cache")

// Options configures Open. The zero value gives the defaults.
type Options struct {
	// MaxBytes caps the total stored (compressed) blob bytes: 0 means
	// DefaultMaxBytes, negative means no cap. The runs log and tables added
	// by migrations do not count.
	MaxBytes int64
	// BusyTimeout is how long a statement waits for a lock held by another
	// connection or process: 0 means DefaultBusyTimeout.
	BusyTimeout time.Duration
	// Logger receives damage reports (a file moved aside, a blob that failed
	// its checksum), migrations and evictions. Nil means slog.Default().
	Logger *slog.Logger
	// Opened says that another process of setbot has the file open and
	// checked it (the server, for the child process of an analysis): Open
	// runs no PRAGMA quick_check, whose cost grows with the file, and never
	// moves the file aside under that process; a file it cannot trust is
	// an error.
	Opened bool
}

// Store is an open cache file. Its methods are safe for concurrent use.
type Store struct {
	*DB
	path    string
	rebuilt string
}

// Open opens the store at path, creating it and its parent directories if
// needed, and brings the cache's own tables up to date; other packages
// migrate theirs with Migrate.
//
// A non-empty file at path that does not carry setbot's application_id (in
// its header or as SQLite reads it) is an error wrapping ErrNotStore, and is
// not touched: not a SQLite database, another program's database, an empty
// SQLite database is fine (it is initialised). A setbot store that SQLite
// cannot read or that fails PRAGMA quick_check is moved aside with its -wal,
// -shm and -journal files to path+".damaged-<unix nanoseconds>" and a new
// store is created in its place; Rebuilt reports it. A store whose schema
// version is newer than this binary knows is an error wrapping
// ErrNewerSchema, and is not touched.
func Open(path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("opening cache: empty path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("opening cache %s: %w", path, err)
	}
	if opts.BusyTimeout < 0 {
		return nil, fmt.Errorf("opening cache %s: negative busy timeout %v", abs, opts.BusyTimeout)
	}
	s := &Store{DB: newDB(nil, sqliteDialect, "cache "+abs, "path", abs, opts), path: abs}
	busy := opts.BusyTimeout
	if busy == 0 {
		busy = DefaultBusyTimeout
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, fmt.Errorf("creating the directory of cache %s: %w", abs, err)
	}

	ctx := context.Background()
	db, why, err := openChecked(ctx, abs, busy, !opts.Opened)
	if err != nil {
		return nil, err
	}
	if why != "" && opts.Opened {
		return nil, fmt.Errorf("opening cache %s, which the server has open: %s", abs, why)
	}
	if why != "" && !ownedBySetbot(abs) {
		return nil, fmt.Errorf("opening cache %s: %s, so setbot leaves it alone (is the path right?): %w", abs, why, ErrNotStore)
	}
	if why != "" {
		dst, err := moveAside(abs)
		if err != nil {
			return nil, fmt.Errorf("moving untrusted cache %s aside (%s): %w", abs, why, err)
		}
		s.rebuilt = fmt.Sprintf("%s; moved to %s", why, dst)
		s.log.Warn("cache file not trusted: moved aside, starting a new store",
			"path", abs, "reason", why, "moved_to", dst)
		db, why, err = openChecked(ctx, abs, busy, true)
		if err != nil {
			return nil, err
		}
		if why != "" {
			return nil, fmt.Errorf("opening new cache %s after moving the old one aside: %s", abs, why)
		}
	}
	s.db = db
	if err := s.init(ctx, busy); err != nil {
		_ = db.Close()
		return nil, err
	}
	return s, nil
}

// Rebuilt says why the database file Open found was not trusted and where
// it was moved, or "" if it was fine (or there was none).
func (s *Store) Rebuilt() string { return s.rebuilt }

// dsn gives the per-connection settings, which must hold on every pooled
// connection: the busy timeout; foreign keys; synchronous=NORMAL, which in
// WAL mode loses nothing when a process crashes (only on power loss);
// BEGIN IMMEDIATE for every transaction, so two transactions never both hold
// a read snapshot and then deadlock upgrading to write (an SQLITE_BUSY the
// busy timeout cannot resolve). journal_mode is a property of the file and is
// set once, after the file has been found trustworthy.
func dsn(path string, busy time.Duration) string {
	q := url.Values{}
	q.Set("_busy_timeout", strconv.FormatInt(busy.Milliseconds(), 10))
	q.Set("_foreign_keys", "1")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	q.Add("_pragma", fmt.Sprintf("journal_size_limit(%d)", journalSizeLimit))
	u := url.URL{Scheme: "file", Path: path, RawQuery: q.Encode()}
	return u.String()
}

// openChecked opens a pool on path and decides whether the file there can be
// trusted, with PRAGMA quick_check when quick is set. A non-empty why means
// it cannot, and the pool has been closed.
func openChecked(ctx context.Context, path string, busy time.Duration, quick bool) (db *sql.DB, why string, err error) {
	why, err = inspectHeader(path)
	if err != nil || why != "" {
		return nil, why, err
	}
	db, err = sql.Open("sqlite", dsn(path, busy))
	if err != nil {
		return nil, "", fmt.Errorf("opening cache %s: %w", path, err)
	}
	db.SetMaxOpenConns(maxOpenConns)
	db.SetMaxIdleConns(maxOpenConns)
	why, err = checkTrust(ctx, db, path, quick)
	if err != nil || why != "" {
		_ = db.Close()
		return nil, why, err
	}
	return db, "", nil
}

// ownedBySetbot tells whether a file openChecked did not trust is a damaged
// setbot store, which may be moved aside: its header carries setbot's
// application_id, or its -wal file does (a store that crashed before its
// first checkpoint).
func ownedBySetbot(path string) bool {
	if headerID(path, 0) == applicationID {
		return true
	}
	// A WAL frame holding page 1 starts after the 32-byte WAL header and a
	// 24-byte frame header; only the first frame is looked at.
	return headerID(path+"-wal", 32+24) == applicationID
}

// headerID reads the application_id field of a database header that starts
// at offset off of the file at path, or 0 if there is none.
func headerID(path string, off int64) uint32 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	var h [100]byte
	if _, err := f.ReadAt(h[:], off); err != nil || string(h[:len(sqliteMagic)]) != sqliteMagic {
		return 0
	}
	return binary.BigEndian.Uint32(h[68:72])
}

// sqliteMagic starts every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// inspectHeader rejects, without letting SQLite open them, files that are
// not SQLite databases and SQLite files stamped by another program. The
// header alone cannot settle the rest: with WAL, the newest header may still
// be in the -wal file.
func inspectHeader(path string) (why string, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("opening cache %s: %w", path, err)
	}
	defer f.Close()
	var h [100]byte
	n, err := io.ReadFull(f, h[:])
	switch {
	case errors.Is(err, io.EOF):
		return "", nil // an empty file is simply initialised
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Sprintf("not a SQLite database (%d bytes, shorter than a header)", n), nil
	case err != nil:
		return "", fmt.Errorf("reading the header of cache %s: %w", path, err)
	}
	if string(h[:len(sqliteMagic)]) != sqliteMagic {
		return "not a SQLite database (no SQLite header)", nil
	}
	// Fields every SQLite file has: the payload fractions are fixed, and
	// the page size is a power of two from 512 to 65536 (stored as 1).
	page := binary.BigEndian.Uint16(h[16:18])
	if h[21] != 64 || h[22] != 32 || h[23] != 32 || page != 1 && (page < 512 || page&(page-1) != 0) {
		return "not a SQLite database (damaged header)", nil
	}
	if id := binary.BigEndian.Uint32(h[68:72]); id != 0 && id != applicationID {
		return fmt.Sprintf("a SQLite database of another program (application_id %#08x)", id), nil
	}
	return "", nil
}

// checkTrust asks SQLite what inspectHeader could not: whether the file is
// readable, whose it is, its schema version and whether it passes
// quick_check. It does not write to the file.
func checkTrust(ctx context.Context, db *sql.DB, path string, quick bool) (why string, err error) {
	var id int64
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&id); err != nil {
		if isDamage(err) {
			return fmt.Sprintf("not a readable SQLite database (%v)", err), nil
		}
		return "", fmt.Errorf("reading the application_id of cache %s: %w", path, err)
	}
	switch id {
	case applicationID:
	case 0:
		var objects int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&objects); err != nil {
			if isDamage(err) {
				return fmt.Sprintf("not a readable SQLite database (%v)", err), nil
			}
			return "", fmt.Errorf("reading the schema of cache %s: %w", path, err)
		}
		if objects > 0 {
			return "a SQLite database of another program (tables but no setbot application_id)", nil
		}
	default:
		return fmt.Sprintf("a SQLite database of another program (application_id %#08x)", id), nil
	}

	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		if isDamage(err) {
			return fmt.Sprintf("not a readable SQLite database (%v)", err), nil
		}
		return "", fmt.Errorf("reading the schema version of cache %s: %w", path, err)
	}
	if version > layoutVersion {
		return "", fmt.Errorf("opening cache %s: its schema version %d is newer than %d, the latest this setbot knows; "+
			"a newer setbot owns the file, so upgrade setbot or use another cache path: %w", path, version, layoutVersion, ErrNewerSchema)
	}
	if !quick {
		return "", nil
	}

	problems, err := quickCheck(ctx, db)
	if err != nil {
		if isDamage(err) {
			return fmt.Sprintf("failed PRAGMA quick_check (%v)", err), nil
		}
		return "", fmt.Errorf("checking cache %s: %w", path, err)
	}
	if problems != "" {
		return fmt.Sprintf("failed PRAGMA quick_check (%s)", problems), nil
	}
	return "", nil
}

// quickCheck runs PRAGMA quick_check and returns its first few complaints,
// or "" when it says ok.
func quickCheck(ctx context.Context, db *sql.DB) (string, error) {
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check(3)")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return "", err
		}
		lines = append(lines, line)
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if len(lines) == 1 && lines[0] == "ok" {
		return "", nil
	}
	if len(lines) == 0 {
		return "no result", nil
	}
	return strings.Join(strings.Fields(strings.Join(lines, " ")), " "), nil
}

// isDamage tells whether err is SQLite saying the file is not a database or
// is corrupt, as opposed to an I/O, permission or locking problem that moving
// the file aside would not fix.
func isDamage(err error) bool {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return false
	}
	switch e.Code() & 0xff {
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		return true
	}
	return false
}

// isBusy tells whether err is SQLite reporting a lock held by another
// connection.
func isBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

// moveAside renames path and its companion files to
// path+".damaged-<unix nanoseconds>" (and -wal, -shm, -journal after that),
// keeping them for inspection; SQLite finds the companions under those names
// if the moved file is opened.
func moveAside(path string) (string, error) {
	dst := fmt.Sprintf("%s.damaged-%d", path, time.Now().UnixNano())
	if err := os.Rename(path, dst); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	for _, ext := range []string{"-wal", "-shm", "-journal"} {
		if err := os.Rename(path+ext, dst+ext); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
	}
	return dst, nil
}

// init switches a trusted file to WAL, sets up the bookkeeping of
// migrations and applies the cache's pending ones.
func (s *Store) init(ctx context.Context, busy time.Duration) error {
	if err := s.enableWAL(ctx, busy); err != nil {
		return fmt.Errorf("enabling WAL on cache %s: %w", s.path, err)
	}
	if err := s.setLayout(ctx); err != nil {
		return err
	}
	return s.Migrate(ctx, cacheSchema)
}

// walRetry is how long enableWAL waits between attempts.
const walRetry = 10 * time.Millisecond

// enableWAL switches the file to WAL journaling. The switch takes an
// exclusive lock without consulting the busy handler, so when two processes
// create a store together one of them can get SQLITE_BUSY here: retry until
// the busy timeout has passed.
func (s *Store) enableWAL(ctx context.Context, busy time.Duration) error {
	deadline := time.Now().Add(busy)
	for {
		var mode string
		err := s.db.QueryRowContext(ctx, "PRAGMA journal_mode=WAL").Scan(&mode)
		switch {
		case err == nil && strings.EqualFold(mode, "wal"):
			return nil
		case err == nil:
			return fmt.Errorf("journal mode is still %q (a file system without shared memory?)", mode)
		case !isBusy(err) || time.Now().After(deadline):
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(walRetry):
		}
	}
}
