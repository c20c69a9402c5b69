package cache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// helperEnv selects the role of a re-executed test binary (see TestMain).
const (
	helperEnv     = "SETBOT_CACHE_TEST_HELPER"
	helperPathEnv = "SETBOT_CACHE_TEST_PATH"
)

func TestMain(m *testing.M) {
	switch role := os.Getenv(helperEnv); role {
	case "":
		os.Exit(m.Run())
	case "writer":
		os.Exit(helperWriter())
	case "concurrent":
		os.Exit(helperConcurrent())
	default:
		fmt.Fprintf(os.Stderr, "unknown helper role %q\n", role)
		os.Exit(2)
	}
}

// payload derives a blob from its key, so a process that only knows the key
// can check the bytes another process wrote. It is incompressible and
// 1-48 KiB long.
func payload(key string) []byte {
	h := fnv.New32a()
	h.Write([]byte(key))
	n := 1024 + int(h.Sum32()%(47*1024))
	return stream(key, n)
}

// stream is n pseudo-random bytes seeded by seed.
func stream(seed string, n int) []byte {
	out := make([]byte, 0, n+sha256.Size)
	block := sha256.Sum256([]byte(seed))
	for len(out) < n {
		out = append(out, block[:]...)
		block = sha256.Sum256(block[:])
	}
	return out[:n]
}

// logBuffer collects what a store logs, for tests that check damage is
// reported.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func open(t *testing.T, path string, opts Options) *Store {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quiet()
	}
	s, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func tempPath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "sub", "dir", "cache.db")
}

func mustPut(t *testing.T, s *Store, kind, key string, data []byte) {
	t.Helper()
	if err := s.Put(context.Background(), kind, key, data); err != nil {
		t.Fatalf("Put(%s, %s): %v", kind, key, err)
	}
}

// mustGet fails unless kind/key holds exactly want (or is absent, for nil).
func mustGet(t *testing.T, s *Store, kind, key string, want []byte) {
	t.Helper()
	got, ok, err := s.Get(context.Background(), kind, key)
	switch {
	case err != nil:
		t.Fatalf("Get(%s, %s): %v", kind, key, err)
	case want == nil && ok:
		t.Fatalf("Get(%s, %s) = %d bytes, want a miss", kind, key, len(got))
	case want != nil && !ok:
		t.Fatalf("Get(%s, %s) missed, want %d bytes", kind, key, len(want))
	case want != nil && !bytes.Equal(got, want):
		t.Fatalf("Get(%s, %s) returned different bytes (%d, want %d)", kind, key, len(got), len(want))
	}
}

func userVersion(t *testing.T, s *Store) int {
	t.Helper()
	var v int
	if err := s.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// blobStats describes the blobs in a store.
type blobStats struct {
	Entries int
	Bytes   int64 // stored (compressed) size
}

// stats counts the blobs and their stored bytes.
func (s *Store) stats(ctx context.Context) (blobStats, error) {
	var st blobStats
	err := s.db.QueryRowContext(ctx, "SELECT count(*), coalesce(sum(stored), 0) FROM blobs").Scan(&st.Entries, &st.Bytes)
	return st, err
}
