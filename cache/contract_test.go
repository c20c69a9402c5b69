package cache_test

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/cache/cachetest"
)

// TestContract runs the cache's contract on SQLite (bot/server's tests run
// it on PostgreSQL).
func TestContract(t *testing.T) {
	cachetest.Run(t, func(t *testing.T, opts cache.Options) *cache.DB {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
		s, err := cache.Open(filepath.Join(t.TempDir(), "cache.db"), opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s.DB
	})
}
