package vcs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// registered tells whether the registry holds the state of r's directory.
func registered(r *Repo) bool {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	return registry.byDir[r.key] == r.shared
}

// TestRegistryBounded: closed repositories stay in memory up to maxIdleRepos, the least
// recently closed leaving first, and an open one is never dropped; reopening one still in
// memory gives the same state.
func TestRegistryBounded(t *testing.T) {
	held := newFixture(t).open()
	defer held.Close()
	var closed []*Repo
	for range maxIdleRepos + 3 {
		r := newFixture(t).open()
		r.Close()
		r.Close() // harmless
		closed = append(closed, r)
	}
	if !registered(held) {
		t.Error("an open repository left the registry")
	}
	for i, r := range closed {
		if want := i >= len(closed)-maxIdleRepos; registered(r) != want {
			t.Errorf("closed repository %d of %d: in the registry %v, want %v", i, len(closed), !want, want)
		}
	}
	newest := closed[len(closed)-1]
	again, err := Open(newest.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.shared != newest.shared {
		t.Error("reopening a repository still in memory made a new state")
	}
	oldest := closed[0]
	again, err = Open(oldest.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.shared == oldest.shared || !registered(again) {
		t.Error("reopening a dropped repository did not make a new, registered state")
	}
}

// age makes a clone look unused for d.
func age(t *testing.T, dir string, d time.Duration) {
	t.Helper()
	then := time.Now().Add(-d)
	for _, p := range []string{dir + ".lock", dir, filepath.Join(dir, "objects", "pack")} {
		if err := os.Chtimes(p, then, then); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPruneClones(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	const maxAge = 24 * time.Hour
	clone := func() (*Repo, string) {
		origin := newFixture(t)
		c1 := origin.commit("c1", map[string]string{"a.scxml": "<scxml/>\n"})
		r, err := Clone(ctx, "file://"+filepath.ToSlash(origin.dir), cache, CloneOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return r, c1
	}
	recent, _ := clone()
	recent.Close()
	stale, _ := clone()
	stale.Close()
	age(t, stale.dir, 2*maxAge)
	open, _ := clone()
	defer open.Close()
	age(t, open.dir, 2*maxAge)
	fetching, _ := clone()
	fetching.Close()
	age(t, fetching.dir, 2*maxAge)
	// Another process cloning or fetching holds the lock (flock locks of two open files
	// conflict within one process as well).
	unlock, err := lockAcross(ctx, fetching.dir+".lock")
	if err != nil {
		t.Fatal(err)
	}
	leftovers := map[string]time.Duration{
		".x-1234.partial-99":                              0, // a clone that crashed: nobody holds x-1234.lock
		"." + filepath.Base(fetching.dir) + ".partial-98": 0, // a clone in progress, which holds the lock
		".z-1234.pruned-17":                               0, // a prune that crashed
		"not-a-clone-without-a-lock":                      2 * maxAge,
	}
	for name, d := range leftovers {
		p := filepath.Join(cache, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		then := time.Now().Add(-d)
		if err := os.Chtimes(p, then, then); err != nil {
			t.Fatal(err)
		}
	}

	removed, err := PruneClones(cache, maxAge)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(cache, ".x-1234.partial-99"), filepath.Join(cache, ".z-1234.pruned-17"), stale.dir}
	slices.Sort(want)
	if !slices.Equal(removed, want) {
		t.Errorf("PruneClones removed %q, want %q", removed, want)
	}
	for _, dir := range []string{recent.dir, open.dir, fetching.dir, filepath.Join(cache, "."+filepath.Base(fetching.dir)+".partial-98"), filepath.Join(cache, "not-a-clone-without-a-lock")} {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("%s was pruned: %v", dir, err)
		}
	}
	if _, err := open.Resolve("main"); err != nil {
		t.Errorf("the open clone after pruning: %v", err)
	}
	if registered(stale) {
		t.Error("a pruned clone's state stayed in the registry")
	}

	// Once the other process is done and the Repo closed, they go too.
	unlock()
	open.Close()
	age(t, open.dir, 2*maxAge)
	removed, err = PruneClones(cache, maxAge)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{filepath.Join(cache, "."+filepath.Base(fetching.dir)+".partial-98"), fetching.dir, open.dir}
	slices.Sort(want)
	if !slices.Equal(removed, want) {
		t.Errorf("the second PruneClones removed %q, want %q", removed, want)
	}

	for _, err := range []error{func() error { _, err := PruneClones(cache, 0); return err }(),
		func() error { _, err := PruneClones(cache, -time.Hour); return err }()} {
		if err == nil {
			t.Error("PruneClones with an age that is not positive: no error")
		}
	}
	if removed, err := PruneClones(filepath.Join(cache, "none"), maxAge); err != nil || len(removed) != 0 {
		t.Errorf("PruneClones of a missing directory = %q, %v", removed, err)
	}
}

// TestPruneClonesMarksUse: a clone opened again by Clone is young again.
func TestPruneClonesMarksUse(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	origin := newFixture(t)
	origin.commit("c1", map[string]string{"a.scxml": "<scxml/>\n"})
	url := "file://" + filepath.ToSlash(origin.dir)
	r, err := Clone(ctx, url, cache, CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	age(t, r.dir, 48*time.Hour)
	r, err = Clone(ctx, url, cache, CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if removed, err := PruneClones(cache, 24*time.Hour); err != nil || len(removed) != 0 {
		t.Errorf("PruneClones after a use = %q, %v; want nothing removed", removed, err)
	}
}

// TestPruneWhileCloning: pruning everything it may, all the time, never fails a goroutine
// that clones, reads and closes; a pruned clone is cloned again.
func TestPruneWhileCloning(t *testing.T) {
	ctx := context.Background()
	cache := t.TempDir()
	var urls []string
	for i := range 3 {
		origin := newFixture(t)
		origin.commit("c1", map[string]string{"a.scxml": fmt.Sprintf("%d\n", i)})
		urls = append(urls, "file://"+filepath.ToSlash(origin.dir))
	}
	stop := make(chan struct{})
	var pruner sync.WaitGroup
	pruned := 0
	pruner.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			removed, err := PruneClones(cache, time.Nanosecond)
			if err != nil {
				t.Error(err)
			}
			pruned += len(removed)
		}
	})
	var users sync.WaitGroup
	for g := range 6 {
		users.Go(func() {
			for i := range 10 {
				url := urls[(g+i)%len(urls)]
				r, err := Clone(ctx, url, cache, CloneOptions{})
				if err != nil {
					t.Error(err)
					return
				}
				want := fmt.Sprintf("%d\n", (g+i)%len(urls))
				if data, err := r.ReadFile("main", "a.scxml"); err != nil || string(data) != want {
					t.Errorf("reading %s: %q, %v", url, data, err)
				}
				r.Close()
			}
		})
	}
	users.Wait()
	close(stop)
	pruner.Wait()
	t.Logf("%d clones pruned while in use elsewhere", pruned)
}
