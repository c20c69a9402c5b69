// Package cachetest is the contract of the cache's stores (cache.Backend):
// what the pipeline and the bot rely on, the same in SQLite and in
// PostgreSQL. As river keeps its driver tests beside the driver interface
// (riverdriver/riverdrivertest), the suite is here, beside the cache, and
// the tests of each database run it: the cache's on SQLite, always;
// bot/server's on PostgreSQL, where they find one.
package cachetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/setbot/setbot/cache"
)

// Run runs the contract on a new store that open opens with opts; the
// store closes when the test ends.
func Run(t *testing.T, open func(t *testing.T, opts cache.Options) *cache.DB) {
	c := open(t, cache.Options{MaxBytes: 3000})
	t.Run("blobs", func(t *testing.T) { testBlobs(t, c) })
	t.Run("runs", func(t *testing.T) { testRuns(t, c) })
}

// testBlobs: blobs are kept under their kind and key, the least recently
// used evicted past the cap, a misfiled one a miss.
func testBlobs(t *testing.T, c *cache.DB) {
	ctx := context.Background()
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
	if err := c.Write(ctx, func(tx *cache.Tx) error {
		_, err := tx.Exec(ctx, "UPDATE blobs SET key = 'k9' WHERE key = 'k3'")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := c.Get(ctx, "set", "k9"); ok || err != nil {
		t.Errorf("a misfiled blob: ok %v, %v", ok, err)
	}
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM blobs WHERE key = ?", "k9").Scan(&n); err != nil || n != 0 {
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

}

// testRuns: runs are recorded, listed and pruned, and the store answers
// a ping.
func testRuns(t *testing.T, c *cache.DB) {
	ctx := context.Background()
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
}
