package server

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/bot/queue/queuetest"
	"github.com/setbot/setbot/bot/schedule"
	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/cache/cachetest"
	"github.com/setbot/setbot/config"
)

// The contract of the stores, run against both backends: what the bot
// relies on is the same in SQLite and in PostgreSQL.

func TestMain(m *testing.M) {
	if os.Getenv(replicaEnv) != "" {
		os.Exit(replicaMain())
	}
	if os.Getenv(childEnv) != "" {
		os.Exit(analysis.Main(newZ3, os.Stdin, os.Stdout, os.Stderr))
	}
	code := m.Run()
	stopPostgres()
	os.Exit(code)
}

var ctx = context.Background()

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// testLease is the lease of the PostgreSQL queues the contract opens: short,
// so that a takeover is seen within the test.
const testLease = time.Second

// backend opens stores of one kind; the stores of one backend value share
// one database, as replicas (or restarts of one server) do.
type backend struct {
	name string
	cfg  *config.Server
}

func eachBackend(t *testing.T, f func(t *testing.T, b *backend)) {
	t.Run("sqlite", func(t *testing.T) {
		f(t, &backend{name: "sqlite", cfg: &config.Server{Database: filepath.Join(t.TempDir(), "setbot.db")}})
	})
	t.Run("postgres", func(t *testing.T) {
		f(t, &backend{name: "postgres", cfg: &config.Server{Store: postgresURL(t), JobLease: testLease}})
	})
}

// open opens the backend's stores; they close when the test ends.
func (b *backend) open(t *testing.T) *Stores {
	t.Helper()
	s, err := Open(ctx, b.cfg, quiet())
	if err != nil {
		t.Fatalf("opening the %s stores: %v", b.name, err)
	}
	t.Cleanup(func() { s.Cache.Close() })
	return s
}

// TestQueueContract runs the queue's contract on PostgreSQL (bot/queue's
// tests run it on SQLite).
func TestQueueContract(t *testing.T) {
	queuetest.Run(t, func(t *testing.T) queuetest.Opener {
		b := &backend{name: "postgres", cfg: &config.Server{Store: postgresURL(t), JobLease: queuetest.Lease}}
		return func(t *testing.T) *queuetest.Store {
			s := b.open(t)
			return &queuetest.Store{Queue: s.Queue, DB: storeDB(s)}
		}
	})
}

// storeDB is the database under the stores.
func storeDB(s *Stores) *cache.DB {
	switch db := s.Cache.(type) {
	case *cache.Store:
		return db.DB
	case *cache.Postgres:
		return db.DB
	}
	panic("a cache of neither backend")
}

// TestCacheContract runs the cache's contract on PostgreSQL (the cache's
// tests run it on SQLite).
func TestCacheContract(t *testing.T) {
	cachetest.Run(t, func(t *testing.T, opts cache.Options) *cache.DB {
		b := &backend{name: "postgres", cfg: &config.Server{Store: postgresURL(t), CacheMaxBytes: opts.MaxBytes}}
		return storeDB(b.open(t))
	})
}

func TestSchedules(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		s := b.open(t).Schedules
		tri := schedule.Entry{Repo: "octo/triangle", Branch: "main", Spec: "0 3 * * *", Installation: 7, CloneURL: "https://github.com/octo/triangle.git"}
		sq := schedule.Entry{Repo: "octo/square", Branch: "trunk", Spec: "@daily", Installation: 8, CloneURL: "https://github.com/octo/square.git"}
		for _, e := range []schedule.Entry{tri, sq} {
			if err := s.Set(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		tri.Spec = "@hourly"
		if err := s.Set(ctx, tri); err != nil {
			t.Fatal(err)
		}
		if err := s.Set(ctx, schedule.Entry{Repo: sq.Repo, Branch: sq.Branch}); err != nil {
			t.Fatal(err)
		}
		got, err := b.open(t).Schedules.List(ctx)
		if err != nil || !slices.Equal(got, []schedule.Entry{tri}) {
			t.Errorf("List = %+v, %v; want %+v", got, err, tri)
		}
	})
}

// TestOpenRefusals: a database that cannot be reached, or a URL that is no
// PostgreSQL URL, is a clear error that never shows the password.
func TestOpenRefusals(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ url, want string }{
		{"postgres://setbot:hunter2@127.0.0.1:" + strconv.Itoa(port) + "/setbot?connect_timeout=2", "connecting to PostgreSQL 127.0.0.1:" + strconv.Itoa(port) + "/setbot"},
		{"postgres://setbot:hunter2@127.0.0.1:99999/setbot", "reading the PostgreSQL URL"},
		{"postgres://setbot:hunter2@127.0.0.1/setbot?sslmode=sometimes", "reading the PostgreSQL URL"},
	} {
		_, err := Open(ctx, &config.Server{Store: tt.url}, quiet())
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Open(%s): %v; want an error with %q and no password", tt.url, err, tt.want)
		}
	}
}
