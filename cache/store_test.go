package cache

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := tempPath(t)
	s := open(t, path, Options{})
	if s.Rebuilt() != "" {
		t.Errorf("Rebuilt() = %q on a new store", s.Rebuilt())
	}
	if s.path != path {
		t.Errorf("the store's path is %q, want %q", s.path, path)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}

	mustGet(t, s, "set", "absent", nil)

	set := []byte(strings.Repeat("symbolic execution tree ", 1000))
	mustPut(t, s, "set", "k1", set)
	mustPut(t, s, "suite", "k1", []byte("a suite")) // same key, other kind
	mustGet(t, s, "set", "k1", set)
	mustGet(t, s, "suite", "k1", []byte("a suite"))

	st, err := s.stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries != 2 {
		t.Errorf("stats().Entries = %d, want 2", st.Entries)
	}
	if st.Bytes <= 0 || st.Bytes >= int64(len(set)) {
		t.Errorf("stats().Bytes = %d, want compressed size below %d", st.Bytes, len(set))
	}

	mustPut(t, s, "set", "k1", []byte("replaced"))
	mustGet(t, s, "set", "k1", []byte("replaced"))
	mustPut(t, s, "result", "empty", nil)
	mustGet(t, s, "result", "empty", []byte{})

	mustPut(t, s, "result", "r2", []byte("another result"))
	if n, err := s.DeleteKind(ctx, "result"); err != nil || n != 2 {
		t.Errorf("DeleteKind(result) = %d, %v; want 2 results deleted", n, err)
	}
	mustGet(t, s, "result", "r2", nil)
	mustGet(t, s, "set", "k1", []byte("replaced"))
	mustGet(t, s, "suite", "k1", []byte("a suite"))
	mustPut(t, s, "result", "empty", nil)
	if st, _ := s.stats(ctx); st.Entries != 3 {
		t.Errorf("stats().Entries = %d after DeleteKind, want 3", st.Entries)
	}

	for _, bad := range [][2]string{{"", "k"}, {"set", ""}} {
		if err := s.Put(ctx, bad[0], bad[1], []byte("x")); err == nil {
			t.Errorf("Put(%q, %q) succeeded", bad[0], bad[1])
		}
		if _, _, err := s.Get(ctx, bad[0], bad[1]); err == nil {
			t.Errorf("Get(%q, %q) succeeded", bad[0], bad[1])
		}
	}

	// The data survives a reopen.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s2 := open(t, path, Options{})
	mustGet(t, s2, "suite", "k1", []byte("a suite"))
}

func TestRuns(t *testing.T) {
	ctx := context.Background()
	s := open(t, tempPath(t), Options{})
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.UTC)
	in := []Run{
		{Repo: "o/a", Base: "b1", Head: "h1", Path: "m.scxml", Strategy: "mse", BaseCached: true,
			BaseStates: 10, HeadStates: 12, ReusedStates: 9, SolverCalls: 4, Ms: 120, Created: t0.Add(2 * time.Minute)},
		{Repo: "o/b", Base: "b2", Head: "h2", Path: "n.scxml", Strategy: "full", HeadCached: true,
			HeadStates: 3, Ms: 7, Created: t0},
		{Repo: "o/a", Base: "b3", Head: "h3", Path: "m.scxml", Strategy: "reuse", Created: t0.Add(time.Minute)},
		{Repo: "o/a", Base: "b4", Head: "h4", Path: "m.scxml", Strategy: "dse", Created: t0.Add(time.Minute)}, // same time: later ID first
	}
	for i := range in {
		id, err := s.RecordRun(ctx, in[i])
		if err != nil {
			t.Fatal(err)
		}
		in[i].ID = id
	}

	all, err := s.Runs(ctx, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []Run{in[0], in[3], in[2], in[1]}
	if len(all) != len(want) {
		t.Fatalf("Runs returned %d runs, want %d", len(all), len(want))
	}
	for i := range want {
		if !all[i].Created.Equal(want[i].Created) {
			t.Errorf("run %d: Created = %v, want %v", i, all[i].Created, want[i].Created)
		}
		all[i].Created, want[i].Created = time.Time{}, time.Time{}
		if all[i] != want[i] {
			t.Errorf("run %d = %+v, want %+v", i, all[i], want[i])
		}
	}

	a, err := s.Runs(ctx, "o/a", 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 2 || a[0].Head != "h1" || a[1].Head != "h4" {
		t.Errorf("Runs(o/a, 2) = %+v, want h1 then h4", a)
	}
	if none, err := s.Runs(ctx, "o/none", 10); err != nil || len(none) != 0 {
		t.Errorf("Runs(o/none) = %v, %v; want none", none, err)
	}

	before := time.Now()
	if _, err := s.RecordRun(ctx, Run{Repo: "o/c"}); err != nil {
		t.Fatal(err)
	}
	c, err := s.Runs(ctx, "o/c", 1)
	if err != nil || len(c) != 1 {
		t.Fatalf("Runs(o/c) = %v, %v", c, err)
	}
	if c[0].Created.Before(before.Add(-time.Second)) || c[0].Created.After(time.Now().Add(time.Second)) {
		t.Errorf("a run recorded without Created got %v, want about now", c[0].Created)
	}
}

func TestPruneRuns(t *testing.T) {
	ctx := context.Background()
	s := open(t, tempPath(t), Options{})
	now := time.Now()
	for _, r := range []Run{
		{Repo: "o/a", Head: "old", Created: now.Add(-100 * 24 * time.Hour)},
		{Repo: "o/b", Head: "older", Created: now.Add(-400 * 24 * time.Hour)},
		{Repo: "o/a", Head: "recent", Created: now.Add(-24 * time.Hour)},
		{Repo: "o/b", Head: "now"},
	} {
		if _, err := s.RecordRun(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []struct {
		age    time.Duration
		pruned int
		kept   []string // heads, newest first
	}{
		{DefaultRunRetention, 2, []string{"now", "recent"}},
		{DefaultRunRetention, 0, []string{"now", "recent"}},
		{time.Hour, 1, []string{"now"}},
	} {
		n, err := s.PruneRuns(ctx, step.age)
		if err != nil || n != step.pruned {
			t.Errorf("PruneRuns(%v) = %d, %v; want %d", step.age, n, err, step.pruned)
		}
		runs, err := s.Runs(ctx, "", 0)
		if err != nil {
			t.Fatal(err)
		}
		var heads []string
		for _, r := range runs {
			heads = append(heads, r.Head)
		}
		if !equal(heads, step.kept) {
			t.Errorf("after PruneRuns(%v): runs %q, want %q", step.age, heads, step.kept)
		}
	}
	for _, age := range []time.Duration{0, -time.Hour} {
		if _, err := s.PruneRuns(ctx, age); err == nil {
			t.Errorf("PruneRuns(%v): no error", age)
		}
	}
}

func TestEviction(t *testing.T) {
	ctx := context.Background()
	// 1000 incompressible bytes store as a little over 1000; three fit.
	const maxBytes = 3500
	s := open(t, tempPath(t), Options{MaxBytes: maxBytes})
	blob := func(k string) []byte { return stream(k, 1000) }
	checkTotal := func() {
		t.Helper()
		st, err := s.stats(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Bytes > maxBytes {
			t.Errorf("stats().Bytes = %d, above MaxBytes %d", st.Bytes, maxBytes)
		}
	}

	for _, k := range []string{"a", "b", "c"} {
		mustPut(t, s, "set", k, blob(k))
	}
	checkTotal()
	mustGet(t, s, "set", "a", blob("a")) // now b is the least recently used
	mustPut(t, s, "set", "d", blob("d"))
	checkTotal()
	mustGet(t, s, "set", "b", nil)
	mustGet(t, s, "set", "a", blob("a"))
	mustGet(t, s, "set", "c", blob("c"))
	mustGet(t, s, "set", "d", blob("d"))

	// Replacing refreshes too: a was used first above, so c goes next.
	mustPut(t, s, "set", "a", blob("a2"))
	mustPut(t, s, "set", "e", blob("e"))
	mustGet(t, s, "set", "c", nil)
	mustGet(t, s, "set", "a", blob("a2"))

	// A blob larger than the cap evicts everything else but stays.
	mustPut(t, s, "set", "huge", stream("huge", 5000))
	if st, _ := s.stats(ctx); st.Entries != 1 {
		t.Errorf("after an oversized Put: %d entries, want 1", st.Entries)
	}
	mustGet(t, s, "set", "huge", stream("huge", 5000))
	// And the next Put evicts it, not itself.
	mustPut(t, s, "set", "small", blob("small"))
	mustGet(t, s, "set", "huge", nil)
	mustGet(t, s, "set", "small", blob("small"))
	checkTotal()
}

func TestNoCap(t *testing.T) {
	s := open(t, tempPath(t), Options{MaxBytes: -1})
	for i := range 5 {
		mustPut(t, s, "set", fmt.Sprint(i), stream(fmt.Sprint(i), 100_000))
	}
	if st, _ := s.stats(context.Background()); st.Entries != 5 {
		t.Errorf("%d entries without a cap, want 5", st.Entries)
	}
}

// TestDamagedBlob damages rows through SQL: whatever is wrong, Get reports a
// miss, deletes the row and logs it.
func TestDamagedBlob(t *testing.T) {
	ctx := context.Background()
	var logs logBuffer
	s := open(t, tempPath(t), Options{Logger: logs.logger()})
	damage := map[string]string{
		"checksum":     "UPDATE blobs SET sum = zeroblob(32) WHERE key = ?",
		"stream":       "UPDATE blobs SET data = x'ffffffff' WHERE key = ?",
		"content":      "UPDATE blobs SET data = (SELECT data FROM blobs WHERE key = 'intact') WHERE key = ?",
		"longer":       "UPDATE blobs SET size = size - 1 WHERE key = ?",
		"shorter":      "UPDATE blobs SET size = size + 1 WHERE key = ?",
		"negative":     "UPDATE blobs SET size = -1 WHERE key = ?",
		"truncated":    "UPDATE blobs SET data = substr(data, 1, length(data) / 2) WHERE key = ?",
		"huge claimed": "UPDATE blobs SET size = 9223372036854775807 WHERE key = ?",
	}
	mustPut(t, s, "set", "intact", payload("intact"))
	for name, stmt := range damage {
		mustPut(t, s, "set", name, payload(name))
		if _, err := s.db.ExecContext(ctx, stmt, name); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		mustGet(t, s, "set", name, nil)
		if !strings.Contains(logs.String(), name) {
			t.Errorf("%s: damage not logged; log:\n%s", name, logs.String())
		}
	}
	mustGet(t, s, "set", "intact", payload("intact"))
	if st, _ := s.stats(ctx); st.Entries != 1 {
		t.Errorf("%d entries left, want only the intact one", st.Entries)
	}
	if !strings.Contains(logs.String(), "damaged") {
		t.Errorf("log does not say damaged:\n%s", logs.String())
	}
}

// TestGoroutines shares one store, and two pools on one file, between
// goroutines.
func TestGoroutines(t *testing.T) {
	ctx := context.Background()
	path := tempPath(t)
	s1 := open(t, path, Options{MaxBytes: -1})
	s2 := open(t, path, Options{MaxBytes: -1})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 6 {
		s := s1
		if g%2 == 1 {
			s = s2
		}
		wg.Go(func() {
			for i := range 20 {
				key := fmt.Sprintf("g%d-%d", g, i)
				if err := s.Put(ctx, "set", key, payload(key)); err != nil {
					errs <- err
					return
				}
				if _, ok, err := s.Get(ctx, "set", key); err != nil || !ok {
					errs <- fmt.Errorf("Get(%s) = %v, %v", key, ok, err)
					return
				}
				if _, err := s.RecordRun(ctx, Run{Repo: "r", Head: key}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if st, _ := s1.stats(ctx); st.Entries != 120 {
		t.Errorf("%d entries, want 120", st.Entries)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		path string
		opts Options
	}{
		"empty path":            {"", Options{}},
		"negative busy timeout": {filepath.Join(dir, "c.db"), Options{BusyTimeout: -time.Second}},
		"parent is a file":      {filepath.Join(file, "c.db"), Options{}},
		"path is a directory":   {dir, Options{}},
	} {
		tc.opts.Logger = quiet()
		s, err := Open(tc.path, tc.opts)
		if err == nil {
			s.Close()
			t.Errorf("%s: Open succeeded", name)
			continue
		}
		if msg := err.Error(); msg != strings.ToLower(msg[:1])+msg[1:] || !strings.Contains(msg, "cache") {
			t.Errorf("%s: error %q should start lower case and say what was done", name, msg)
		}
	}
	if _, err := os.Stat(file); err != nil {
		t.Errorf("the file in the way was touched: %v", err)
	}
}

// TestConnectionSettings checks every pooled connection, on a path that
// needs escaping in a SQLite URI.
func TestConnectionSettings(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "odd dir?#%&=", "cache.db")
	s := open(t, path, Options{BusyTimeout: 1500 * time.Millisecond})
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the store is not at %s: %v", path, err)
	}
	var conns []*sql.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range maxOpenConns {
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		for pragma, want := range map[string]string{
			"journal_mode": "wal",
			"busy_timeout": "1500",
			"synchronous":  "1", // NORMAL
			"foreign_keys": "1",
		} {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("connection %d: PRAGMA %s = %s, want %s", len(conns), pragma, got, want)
			}
		}
	}
}
