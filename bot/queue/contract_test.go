package queue_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/bot/queue/queuetest"
	"github.com/setbot/setbot/cache"
)

// TestContract runs the queue's contract on SQLite (bot/server's tests run
// it on PostgreSQL).
func TestContract(t *testing.T) {
	queuetest.Run(t, func(t *testing.T) queuetest.Opener {
		path := filepath.Join(t.TempDir(), "setbot.db")
		return func(t *testing.T) *queuetest.Store {
			store, err := cache.Open(path, cache.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { store.Close() })
			q, err := queue.Open(context.Background(), store)
			if err != nil {
				t.Fatal(err)
			}
			return &queuetest.Store{Queue: q, DB: store.DB}
		}
	})
}
