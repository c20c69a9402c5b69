package cache

import (
	"context"
	"time"
)

// Backend is a store of trees, test suites and analysis results (blobs
// under a kind and a key) and of the runs log: what the pipeline and the
// bot need of a cache. Store keeps them in a SQLite file, the embedded
// default; Postgres keeps them in a PostgreSQL database that several
// servers share. Both keep the same frames under the same keys (blob.go),
// evict the least recently used blobs beyond their size cap, and are safe
// for concurrent use.
type Backend interface {
	// Get returns the blob stored under kind and key and marks it used; ok
	// is false when there is none, or when the one there was not stored by
	// Put under this kind and key, or is damaged (then it is deleted).
	Get(ctx context.Context, kind, key string) (data []byte, ok bool, err error)
	// Put stores data under kind and key, replacing any blob there, and
	// evicts least recently used blobs (never this one) until the stored
	// total is within the cap.
	Put(ctx context.Context, kind, key string, data []byte) error
	// DeleteKind deletes every blob of a kind and returns how many there were.
	DeleteKind(ctx context.Context, kind string) (int64, error)
	// RecordRun logs r and returns its ID.
	RecordRun(ctx context.Context, r Run) (int64, error)
	// Runs returns the recorded runs of repo, or of every repository when
	// repo is "", newest first (by Created, then by ID). limit <= 0 means all.
	Runs(ctx context.Context, repo string, limit int) ([]Run, error)
	// PruneRuns deletes the runs created before now-age and returns how
	// many it deleted. age must be positive.
	PruneRuns(ctx context.Context, age time.Duration) (int, error)
	// Ping checks that the database can still be reached.
	Ping(ctx context.Context) error
	// Close closes the store.
	Close() error
}

var (
	_ Backend = (*Store)(nil)
	_ Backend = (*Postgres)(nil)
)
