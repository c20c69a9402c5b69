package vcs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// TestHelperFetcher is a child process of TestConcurrentProcessesFetch.
func TestHelperFetcher(t *testing.T) {
	url, cache := os.Getenv("SETBOT_VCS_URL"), os.Getenv("SETBOT_VCS_CACHE")
	if url == "" {
		t.Skip("a helper process")
	}
	r, err := Clone(context.Background(), url, cache, CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve(os.Getenv("SETBOT_VCS_WANT")); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentProcessesFetch: processes cloning and fetching one URL
// into one cache directory at once all succeed (they take turns).
func TestConcurrentProcessesFetch(t *testing.T) {
	origin := newFixture(t)
	origin.commit("c1", map[string]string{"m.scxml": "<scxml/>\n"})
	url := "file://" + filepath.ToSlash(origin.dir)
	cache := t.TempDir()
	for round := 0; round < 3; round++ {
		want := origin.commit(fmt.Sprint("round ", round), map[string]string{"m.scxml": fmt.Sprintf("<scxml version='%d'/>\n", round)})
		var wg sync.WaitGroup
		errs := make(chan string, 6)
		for i := 0; i < 6; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(os.Args[0], "-test.run=^TestHelperFetcher$", "-test.count=1")
				cmd.Env = append(os.Environ(), "SETBOT_VCS_URL="+url, "SETBOT_VCS_CACHE="+cache, "SETBOT_VCS_WANT="+want)
				if out, err := cmd.CombinedOutput(); err != nil {
					errs <- fmt.Sprintf("%v\n%s", err, out)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("round %d: %s", round, e)
		}
	}
}
