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

// execSQL runs SQL written for SQLite (? placeholders) on the stores, in
// either backend, as a test reaches into them.
func execSQL(t *testing.T, s *Stores, query string, args ...any) {
	t.Helper()
	err := storeDB(s).Write(ctx, func(tx *cache.Tx) error {
		_, err := tx.Exec(ctx, query, args...)
		return err
	})
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// queryRow reads one row of SQL written for SQLite.
func queryRow(t *testing.T, s *Stores, query string, args []any, dst ...any) {
	t.Helper()
	if err := storeDB(s).QueryRow(ctx, query, args...).Scan(dst...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
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

func TestCache(t *testing.T) {
	eachBackend(t, func(t *testing.T, b *backend) {
		b.cfg.CacheMaxBytes = 3000
		s := b.open(t)
		c := s.Cache
		if _, ok, err := c.Get(ctx, "set", "k1"); ok || err != nil {
			t.Errorf("Get of nothing: ok %v, %v", ok, err)
		}
		blob := func(seed byte) []byte { // incompressible enough to count
			d := make([]byte, 1200)
			x := uint32(seed) + 1
			for i := range d {
				x = x*1664525 + 1013904223
				d[i] = byte(x >> 24)
			}
			return d
		}
		for i, key := range []string{"k1", "k2"} {
			if err := c.Put(ctx, "set", key, blob(byte(i))); err != nil {
				t.Fatal(err)
			}
		}
		if got, ok, err := c.Get(ctx, "set", "k1"); !ok || err != nil || !slices.Equal(got, blob(0)) {
			t.Fatalf("Get(k1): ok %v, %v", ok, err)
		}
		// k1 was used last: the third blob evicts k2.
		if err := c.Put(ctx, "set", "k3", blob(2)); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := c.Get(ctx, "set", "k2"); ok {
			t.Error("the least recently used blob was not evicted")
		}
		if _, ok, _ := c.Get(ctx, "set", "k1"); !ok {
			t.Error("a recently used blob was evicted")
		}
		// A blob copied under another key answers another question: a miss.
		execSQL(t, s, "UPDATE blobs SET key = 'k9' WHERE key = 'k3'")
		if _, ok, err := c.Get(ctx, "set", "k9"); ok || err != nil {
			t.Errorf("a misfiled blob: ok %v, %v", ok, err)
		}
		var n int
		queryRow(t, s, "SELECT count(*) FROM blobs WHERE key = ?", []any{"k9"}, &n)
		if n != 0 {
			t.Error("the misfiled blob was kept")
		}
		if err := c.Put(ctx, "result", "r1", []byte("x")); err != nil {
			t.Fatal(err)
		}
		if n, err := c.DeleteKind(ctx, "result"); err != nil || n != 1 {
			t.Errorf("DeleteKind = %d, %v", n, err)
		}
		if err := c.Put(ctx, "set", "", []byte("x")); err == nil {
			t.Error("Put with an empty key")
		}

		old := cache.Run{Repo: "octo/models", Base: "b", Head: "h1", Path: "m.scxml", Strategy: "mse", HeadCached: true, HeadStates: 12, Ms: 40,
			Created: time.Now().Add(-48 * time.Hour)}
		if _, err := c.RecordRun(ctx, old); err != nil {
			t.Fatal(err)
		}
		if _, err := c.RecordRun(ctx, cache.Run{Repo: "octo/other", Head: "h2", Path: "n.scxml", Strategy: "full"}); err != nil {
			t.Fatal(err)
		}
		runs, err := c.Runs(ctx, "octo/models", 0)
		if err != nil || len(runs) != 1 || runs[0].Strategy != "mse" || !runs[0].HeadCached || runs[0].HeadStates != 12 || !runs[0].Created.Equal(old.Created.Truncate(0).UTC()) {
			t.Errorf("Runs = %+v, %v", runs, err)
		}
		if runs, err := c.Runs(ctx, "", 1); err != nil || len(runs) != 1 || runs[0].Repo != "octo/other" {
			t.Errorf("the newest run = %+v, %v", runs, err)
		}
		if n, err := c.PruneRuns(ctx, 24*time.Hour); err != nil || n != 1 {
			t.Errorf("PruneRuns = %d, %v", n, err)
		}
		if err := c.Ping(ctx); err != nil {
			t.Error(err)
		}
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
