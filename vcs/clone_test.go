package vcs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

func TestCloneAndFetch(t *testing.T) {
	ctx := context.Background()
	origin := newFixture(t)
	c1 := origin.commit("c1", map[string]string{"models/a.scxml": "<scxml/>\n"})
	origin.checkout("feature", true)
	f1 := origin.commit("f1", map[string]string{"models/b.scxml": "<scxml/>\n"})
	origin.checkout("main", false)
	origin.annotatedTag("v1", c1)
	origin.setRef("refs/tags/moving", c1)
	url := "file://" + filepath.ToSlash(origin.dir)
	cache := filepath.Join(t.TempDir(), "cache")

	first, err := Clone(ctx, url, cache, CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(first.dir) != cache {
		t.Errorf("clone in %s, want a directory of %s", first.dir, cache)
	}
	if _, err := os.Stat(filepath.Join(first.dir, "models")); !os.IsNotExist(err) {
		t.Errorf("the clone has a checkout (stat models: %v)", err)
	}
	entries := clones(t, cache)
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries, want the clone only", len(entries))
	}
	expect(t, first, map[string]string{
		"HEAD": c1, "main": c1, "origin/main": c1, "origin": c1, "feature": f1, "origin/feature": f1,
		"v1": c1, "moving": c1,
	})

	// The origin moves on: a new commit, a rewritten branch, a new branch, a new tag, a moved tag.
	c2 := origin.commit("c2", map[string]string{"models/a.scxml": "<scxml version='2'/>\n"})
	origin.checkout("feature", false)
	if err := origin.wt.Reset(&git.ResetOptions{Commit: plumbing.NewHash(c1), Mode: git.HardReset}); err != nil {
		t.Fatal(err)
	}
	f2 := origin.commit("f2 replaces f1", map[string]string{"models/c.scxml": "<scxml/>\n"})
	origin.checkout("next", true)
	n1 := origin.commit("n1", nil)
	origin.checkout("main", false)
	origin.annotatedTag("v2", c2)
	origin.setRef("refs/tags/moving", c2)

	second, err := Clone(ctx, url, cache, CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if second.dir != first.dir {
		t.Errorf("second clone in %s, want %s", second.dir, first.dir)
	}
	latest := map[string]string{
		"HEAD": c2, "main": c2, "origin/main": c2, "feature": f2, "origin/feature": f2,
		"next": n1, "origin/next": n1, "v1": c1, "v2": c2, "moving": c2,
		f1: f1, // a commit fetched before stays, though no branch has it any more
	}
	expect(t, second, latest)
	// The Repo from the first Clone sees the same storage.
	expect(t, first, latest)
	data, err := second.ReadFile("main", "models/a.scxml")
	if err != nil || string(data) != "<scxml version='2'/>\n" {
		t.Errorf("ReadFile = %q, %v", data, err)
	}

	// Cloning again when nothing changed is not an error.
	if _, err := Clone(ctx, url, cache, CloneOptions{}); err != nil {
		t.Errorf("Clone when up to date: %v", err)
	}

	// A Repo kept open follows the origin when the clone is fetched again.
	c3 := origin.commit("c3", nil)
	if _, err := Clone(ctx, url, cache, CloneOptions{}); err != nil {
		t.Fatal(err)
	}
	expect(t, first, map[string]string{"main": c3, "origin/main": c3})

	// git itself reads the clone and finds it bare.
	if out, err := runGit(t, first.dir, "rev-parse", "--is-bare-repository", "main"); err != nil || out != "true\n"+c3 {
		t.Errorf("git rev-parse in the clone: %q, %v", out, err)
	}
}

func expect(t *testing.T, r *Repo, want map[string]string) {
	t.Helper()
	for rev, sha := range want {
		if got, err := r.Resolve(rev); err != nil || got != sha {
			t.Errorf("Resolve(%q) = %s, %v, want %s", rev, got, err, sha)
		}
	}
}

func TestCloneFailureLeavesNothing(t *testing.T) {
	ctx := context.Background()
	parent := t.TempDir()
	cache := filepath.Join(parent, "cache")
	missing := "file://" + filepath.ToSlash(filepath.Join(parent, "no-such-repo"))
	_, err := Clone(ctx, missing, cache, CloneOptions{})
	if err == nil {
		t.Fatal("Clone of a missing repository succeeded")
	}
	if !strings.HasPrefix(err.Error(), "cloning "+missing+": ") {
		t.Errorf("error = %q, want it to start with %q", err, "cloning "+missing+": ")
	}
	entries := clones(t, cache)
	for _, e := range entries {
		t.Errorf("cache holds %s after a failed clone", e.Name())
	}

	// An empty origin cannot be cloned either.
	empty := newFixture(t)
	_, err = Clone(ctx, "file://"+filepath.ToSlash(empty.dir), cache, CloneOptions{})
	if err == nil {
		t.Fatal("Clone of an empty repository succeeded")
	}
	entries = clones(t, cache)
	for _, e := range entries {
		t.Errorf("cache holds %s after a failed clone", e.Name())
	}

	// A canceled context stops the clone and leaves nothing either.
	origin := newFixture(t)
	origin.commit("c1", map[string]string{"a": "a\n"})
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Clone(canceled, "file://"+filepath.ToSlash(origin.dir), cache, CloneOptions{}); err == nil {
		t.Error("Clone with a canceled context succeeded")
	}
	entries = clones(t, cache)
	for _, e := range entries {
		t.Errorf("cache holds %s after a canceled clone", e.Name())
	}
}

func TestOpen(t *testing.T) {
	f := newFixture(t)
	sha := f.commit("c1", map[string]string{"models/deep/a.scxml": "<scxml/>\n"})
	for _, dir := range []string{f.dir, filepath.Join(f.dir, "models"), filepath.Join(f.dir, "models", "deep")} {
		r, err := Open(dir)
		if err != nil {
			t.Fatalf("Open(%s): %v", dir, err)
		}
		if r.dir != f.dir {
			t.Errorf("Open(%s) is in %s, want %s", dir, r.dir, f.dir)
		}
		expect(t, r, map[string]string{"HEAD": sha})
	}

	// A bare repository, here inside a work tree as a cache directory may be.
	bare := filepath.Join(f.dir, "cache", "x.git")
	if _, err := git.PlainClone(bare, true, &git.CloneOptions{URL: f.dir}); err != nil {
		t.Fatal(err)
	}
	r, err := Open(bare)
	if err != nil {
		t.Fatal(err)
	}
	if r.dir != bare {
		t.Errorf("Open(%s) is in %s", bare, r.dir)
	}
	expect(t, r, map[string]string{"HEAD": sha, "origin/main": sha})

	notRepo := t.TempDir()
	_, err = Open(notRepo)
	if err == nil || !errors.Is(err, git.ErrRepositoryNotExists) || err.Error() != "opening "+notRepo+": repository does not exist" {
		t.Errorf("Open of a plain directory: %v", err)
	}
	missing := filepath.Join(notRepo, "missing")
	if _, err := Open(missing); err == nil || !strings.HasPrefix(err.Error(), "opening "+missing+": ") {
		t.Errorf("Open of a missing directory: %v", err)
	}
}

func TestOpenOrClone(t *testing.T) {
	ctx := context.Background()
	origin := newFixture(t)
	sha := origin.commit("c1", map[string]string{"a": "a\n"})
	cache := t.TempDir()

	local, err := OpenOrClone(ctx, origin.dir, cache, CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if local.dir != origin.dir {
		t.Errorf("the local repository is in %s, want %s", local.dir, origin.dir)
	}
	url := "file://" + filepath.ToSlash(origin.dir)
	cloned, err := OpenOrClone(ctx, url, cache, CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(cloned.dir) != cache {
		t.Errorf("the clone is in %s, want a directory of %s", cloned.dir, cache)
	}
	expect(t, cloned, map[string]string{"main": sha})

	missing := filepath.Join(cache, "no-such-dir")
	_, err = OpenOrClone(ctx, missing, cache, CloneOptions{})
	if err == nil || err.Error() != "opening "+missing+": not a local directory nor a repository URL" {
		t.Errorf("OpenOrClone of a missing directory: %v", err)
	}
}

func TestIsRemoteURL(t *testing.T) {
	tests := map[string]bool{
		"https://github.com/o/r.git":      true,
		"http://example.com/r":            true,
		"ssh://git@github.com/o/r.git":    true,
		"git://example.com/r":             true,
		"file:///srv/git/r.git":           true,
		"git@github.com:o/r.git":          true,
		"github.com:o/r":                  true,
		"/srv/git/r":                      false,
		"./models":                        false,
		"models":                          false,
		"C:/repo":                         false,
		"dir/with:colon":                  false,
		"git@github.com:":                 false,
		"x-access-token:t@github.com/o/r": true, // scp-like to the eyes of git too
	}
	for spec, want := range tests {
		if got := isRemoteURL(spec); got != want {
			t.Errorf("isRemoteURL(%q) = %v, want %v", spec, got, want)
		}
	}
}

func TestCacheDirName(t *testing.T) {
	name := func(u string) string {
		t.Helper()
		rem, err := parseRemote(u)
		if err != nil {
			t.Fatalf("parseRemote(%q): %v", u, err)
		}
		return rem.dirName()
	}
	// Stable: a change here orphans every existing cache.
	if got, want := name("https://github.com/setbot/models.git"), "github.com_setbot_models-84e7f492e67eb186"; got != want {
		t.Errorf("dirName = %q, want %q", got, want)
	}
	safe := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	seen := map[string]string{}
	distinct := []string{
		"https://github.com/o/r",
		"https://github.com/o/r.git",
		"https://github.com/o/r2",
		"https://github.com/O/r",
		"https://gitlab.com/o/r",
		"http://github.com/o/r",
		"git@github.com:o/r.git",
		"ssh://git@github.com/o/r.git",
		"ssh://git@github.com:2222/o/r.git",
		"file:///srv/git/o/r",
		"file:///srv/git/o_r",
		"file:///srv/git/o%20r",
		"file:///",
		"https://example.com/" + strings.Repeat("very-long-name/", 20) + "r",
		"https://example.com/../../etc",
	}
	for _, u := range distinct {
		n := name(u)
		if !safe.MatchString(n) || len(n) > maxReadableName+17 {
			t.Errorf("dirName(%q) = %q is not a safe name", u, n)
		}
		if other, ok := seen[n]; ok {
			t.Errorf("%q and %q share the directory %q", u, other, n)
		}
		seen[n] = u
	}
	// Credentials are not part of the name, nor of the URL fetched from; they become auth.
	same := []string{
		"https://github.com/o/r.git",
		"https://x-access-token:s3cret@github.com/o/r.git",
		"https://someone@github.com/o/r.git",
		"https://GitHub.com/o/r.git",
	}
	for _, u := range same {
		if n := name(u); n != name(same[0]) || strings.Contains(n, "s3cret") {
			t.Errorf("dirName(%q) = %q, want %q", u, n, name(same[0]))
		}
	}
	rem, err := parseRemote("https://x-access-token:s3cret@github.com/o/r.git")
	if err != nil {
		t.Fatal(err)
	}
	if rem.url != "https://github.com/o/r.git" {
		t.Errorf("url = %q, want the credentials stripped", rem.url)
	}
	if auth, ok := rem.auth.(*githttp.BasicAuth); !ok || auth.Username != "x-access-token" || auth.Password != "s3cret" {
		t.Errorf("auth = %#v, want the URL's credentials", rem.auth)
	}
	if a := authFor(rem.url, "tok", rem.auth).(*githttp.BasicAuth); a.Username != tokenUser || a.Password != "tok" {
		t.Errorf("a token does not take precedence over the URL's credentials: %#v", a)
	}
	if a := authFor("ssh://git@github.com/o/r.git", "tok", nil); a != nil {
		t.Errorf("a token is sent over ssh: %#v", a)
	}
	if got := redact("https://x-access-token:s3cret@github.com/o/r.git"); got != "https://github.com/o/r.git" {
		t.Errorf("redact = %q", got)
	}
	if got := redact("https://x-access-token:s3cret@github.com/o/%zz"); strings.Contains(got, "s3cret") {
		t.Errorf("redact of an unparsable URL = %q", got)
	}
}

// TestPacksChangedOutside has git repack the repository under an open Repo, which must then find
// the objects in the new pack files.
func TestPacksChangedOutside(t *testing.T) {
	f := newFixture(t)
	f.commit("c1", map[string]string{"models/a.scxml": "one\n"})
	r := f.open()
	if _, err := r.ReadFile("HEAD", "models/a.scxml"); err != nil {
		t.Fatal(err)
	}
	for i, content := range []string{"two\n", "three\n"} {
		sha := f.commit("next", map[string]string{"models/a.scxml": content})
		if _, err := runGit(t, f.dir, "gc", "--quiet"); err != nil {
			t.Fatal(err)
		}
		f.reopen() // the fixture's own go-git storage would not see the new pack either
		got, err := r.Resolve(fmt.Sprintf("HEAD~%d", i+1))
		if err != nil {
			t.Fatal(err)
		}
		data, err := r.ReadFile(sha, "models/a.scxml")
		if err != nil || string(data) != content {
			t.Fatalf("after git gc: ReadFile = %q, %v; Resolve = %s", data, err, got)
		}
	}
}

// TestConcurrentUse reads a clone from several goroutines while it fetches (go test -race).
func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	origin := newFixture(t)
	origin.commit("c1", map[string]string{"models/a.scxml": "one\n"})
	url := "file://" + filepath.ToSlash(origin.dir)
	cache := t.TempDir()
	r, err := Clone(ctx, url, cache, CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	origin.commit("c2", map[string]string{"models/a.scxml": "two\n"})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 20 {
				if _, err := r.ReadFile("main", "models/a.scxml"); err != nil {
					t.Error(err)
				}
				if _, err := r.Files("main", nil); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Go(func() {
		if _, err := Clone(ctx, url, cache, CloneOptions{}); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	data, err := r.ReadFile("main", "models/a.scxml")
	if err != nil || string(data) != "two\n" {
		t.Errorf("ReadFile after the fetch = %q, %v", data, err)
	}
}

// clones lists a clone directory's entries but the lock files, which stay
// (removing a file others may be locking would let two processes in).
func clones(t *testing.T, dir string) []os.DirEntry {
	t.Helper()
	all, _ := os.ReadDir(dir)
	var out []os.DirEntry
	for _, e := range all {
		if !strings.HasSuffix(e.Name(), ".lock") {
			out = append(out, e)
		}
	}
	return out
}
