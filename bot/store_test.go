package bot

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/bot/schedule"
	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/vcs"
)

// openStores opens the store at path with the bot's parts of it, as New
// does; the store closes when the test ends.
func openStores(t *testing.T, path string) (*cache.Store, *queue.Queue, schedule.Backend) {
	t.Helper()
	ctx := context.Background()
	store, err := cache.Open(path, cache.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	q, err := queue.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	sched, err := schedule.Open(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	return store, q, sched
}

// layout describes a store's schema: its migrations as bookkept, and every
// table's columns and index, whatever SQL made them.
func layout(t *testing.T, store *cache.Store) []string {
	t.Helper()
	ctx := context.Background()
	var lines []string
	read := func(query string, args ...any) {
		rows, err := store.Query(ctx, query, args...)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]sql.NullString, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			for _, v := range vals {
				fmt.Fprintf(&b, "%s|", v.String)
			}
			lines = append(lines, b.String())
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	read("PRAGMA user_version")
	read("PRAGMA application_id")
	read("SELECT schema, version, name FROM schema_migrations ORDER BY schema, version")
	read(`SELECT m.type, m.name, m.tbl_name, c.name, c.type, c."notnull", c.dflt_value, c.pk
FROM sqlite_master m, pragma_table_info(m.name) c WHERE m.type = 'table' ORDER BY m.name, c.cid`)
	read(`SELECT m.name, m.tbl_name, i.name, i.seqno FROM sqlite_master m, pragma_index_info(m.name) i
WHERE m.type = 'index' ORDER BY m.name, i.seqno`)
	read("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
	return lines
}

// TestLegacyStore opens a store written when the cache, the queue and the
// schedules shared one migration sequence (testdata of package cache): its
// data is all there, and it ends up with the layout a new store has.
func TestLegacyStore(t *testing.T) {
	ctx := context.Background()
	dump, err := os.ReadFile(filepath.Join("..", "cache", "testdata", "legacy-v110.sql"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "legacy.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(dump)); err != nil {
		t.Fatalf("loading the legacy store: %v", err)
	}
	db.Close()

	store, q, sched := openStores(t, path)
	if why := store.Rebuilt(); why != "" {
		t.Fatalf("the legacy store was moved aside: %s", why)
	}
	// The legacy queue's two jobs are claimed in order, as a worker would.
	var jobs []*queue.Job
	for {
		j, err := q.Claim(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if j == nil {
			break
		}
		jobs = append(jobs, j)
	}
	if len(jobs) != 2 || jobs[0].Repo != "octo/triangle" || jobs[0].CheckRun != 99 || !jobs[0].CheckOpen || jobs[1].Kind != queue.KindPush {
		t.Errorf("legacy jobs: %+v", jobs)
	}
	if _, dup, err := q.EnqueueAll(ctx, []queue.Job{{Delivery: "d-1", Kind: queue.KindPush, Repo: "octo/square", CloneURL: "u", Branch: "main", HeadSHA: "h3"}}); err != nil || !dup {
		t.Errorf("a legacy delivery enqueued again: duplicate %v, %v", dup, err)
	}
	entries, err := sched.List(ctx)
	want := []schedule.Entry{{Repo: "octo/triangle", Branch: "main", Spec: "0 3 * * *", Installation: 7, CloneURL: "https://github.com/octo/triangle.git"}}
	if err != nil || !slices.Equal(entries, want) {
		t.Errorf("legacy schedules = %+v, %v; want %+v", entries, err, want)
	}
	if _, ok, err := store.Get(ctx, "set", "k1"); err != nil || !ok {
		t.Errorf("legacy blob: ok %v, %v", ok, err)
	}
	if runs, err := store.Runs(ctx, "", 0); err != nil || len(runs) != 1 {
		t.Errorf("legacy runs: %+v, %v", runs, err)
	}

	fresh, _, _ := openStores(t, filepath.Join(t.TempDir(), "new.db"))
	got, wantLayout := layout(t, store), layout(t, fresh)
	if !slices.Equal(got, wantLayout) {
		t.Errorf("the converted store's layout differs from a new store's:\n%s\nwant\n%s",
			strings.Join(got, "\n"), strings.Join(wantLayout, "\n"))
	}
}

// TestRunsPrunedAtStart: the server deletes the runs older than its
// run_retention when it starts (and daily after that).
func TestRunsPrunedAtStart(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.cfg.RunRetention = 30 * 24 * time.Hour
	store, _, _ := openStores(t, e.dbPath)
	for _, age := range []time.Duration{40 * 24 * time.Hour, 20 * 24 * time.Hour} {
		if _, err := store.RecordRun(ctx, cache.Run{Repo: "octo/triangle", Head: age.String(), Created: time.Now().Add(-age)}); err != nil {
			t.Fatal(err)
		}
	}
	store.Close()
	e.start()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(e.logs.String(), "old runs pruned"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no runs pruned at the start")
		}
	}
	e.close()

	store, _, _ = openStores(t, e.dbPath)
	runs, err := store.Runs(ctx, "", 0)
	if err != nil || len(runs) != 1 || runs[0].Head != (20*24*time.Hour).String() {
		t.Errorf("runs after the start = %+v, %v; want only the one within the retention", runs, err)
	}
}

// TestClonesPrunedAtStart: the server deletes the clones no job used for
// clone_max_age when it starts (and daily after that).
func TestClonesPrunedAtStart(t *testing.T) {
	e := newEnv(t)
	repo, err := vcs.Clone(context.Background(), "file://"+filepath.ToSlash(e.remote), e.cfg.CloneDir, vcs.CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	repo.Close()
	// The clone is the one directory in clone_dir, beside its lock file.
	locks, err := filepath.Glob(filepath.Join(e.cfg.CloneDir, "*.lock"))
	if err != nil || len(locks) != 1 {
		t.Fatalf("clone locks %v, %v; want one", locks, err)
	}
	dir := strings.TrimSuffix(locks[0], ".lock")
	then := time.Now().Add(-vcs.DefaultCloneMaxAge - time.Hour)
	for _, p := range []string{locks[0], dir, filepath.Join(dir, "objects", "pack")} {
		if err := os.Chtimes(p, then, then); err != nil {
			t.Fatal(err)
		}
	}
	e.start()
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(e.logs.String(), "unused clones pruned"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no clone pruned at the start")
		}
	}
	e.close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the unused clone is still there (stat: %v)", err)
	}
}

// updateSchema rewrites testdata/store-schema.golden, after a new migration.
var updateSchema = flag.Bool("update-schema", false, "rewrite testdata/store-schema.golden (after adding a migration)")

// TestStoreSchema: a new store gets exactly the tables and indexes, to the
// letter of their SQL, that stores written by earlier releases have (the
// golden was written by the release before the cache, the queue and the
// schedules shared one implementation), so a store moves between releases
// without a difference.
func TestStoreSchema(t *testing.T) {
	store, _, _ := openStores(t, filepath.Join(t.TempDir(), "setbot.db"))
	rows, err := store.Query(context.Background(), `SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master
WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var entries []string
	for rows.Next() {
		var typ, name, table, text string
		if err := rows.Scan(&typ, &name, &table, &text); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, fmt.Sprintf("-- %s %s on %s\n%s;\n", typ, name, table, text))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(entries, "\n")
	golden := filepath.Join("testdata", "store-schema.golden")
	if *updateSchema {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("a new store's schema differs from %s (go test -update-schema after adding a migration):\n%s", golden, got)
	}
}
