package vcs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFetchRefsAndMergeBase(t *testing.T) {
	ctx := context.Background()
	origin := newFixture(t)
	c1 := origin.commit("c1", map[string]string{"m.scxml": "<scxml/>\n"})
	origin.checkout("feature", true)
	f1 := origin.commit("f1", map[string]string{"m.scxml": "<scxml version='2'/>\n"})
	origin.checkout("main", false)
	c2 := origin.commit("c2", map[string]string{"other.txt": "x\n"})
	// A pull request from a fork: its head exists only under refs/pull/.
	origin.setRef("refs/pull/7/head", f1)
	origin.checkout("feature", false)
	if err := origin.repo.Storer.RemoveReference("refs/heads/feature"); err != nil {
		t.Fatal(err)
	}
	origin.checkout("main", false)

	clone, err := Clone(ctx, "file://"+filepath.ToSlash(origin.dir), t.TempDir(), CloneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := clone.Resolve(f1); !errors.Is(err, ErrRevisionNotFound) {
		t.Fatalf("the fork's head is in the clone before fetching it (err %v)", err)
	}
	if err := clone.FetchRefs(ctx, CloneOptions{}, "refs/pull/7/head"); err != nil {
		t.Fatal(err)
	}
	if got, err := clone.Resolve(f1); err != nil || got != f1 {
		t.Fatalf("after FetchRefs: %s, %v", got, err)
	}
	if got, err := clone.Resolve("refs/pull/7/head"); err != nil || got != f1 {
		t.Errorf("refs/pull/7/head resolves to %s (%v), want %s", got, err, f1)
	}
	mb, err := clone.MergeBase("main", f1)
	if err != nil || mb != c1 {
		t.Errorf("merge base of main (%s) and the fork head: %s, %v; want %s", c2, mb, err, c1)
	}
	if err := clone.FetchRefs(ctx, CloneOptions{}, "refs/pull/8/head"); err == nil || !strings.Contains(err.Error(), "refs/pull/8/head") {
		t.Errorf("fetching a missing ref: %v", err)
	}
	if _, err := clone.MergeBase("main", "nope"); !errors.Is(err, ErrRevisionNotFound) {
		t.Errorf("merge base with a missing revision: %v", err)
	}
}

func TestDisplayName(t *testing.T) {
	for spec, want := range map[string]string{
		"https://x-access-token:s3cret@github.com/o/r.git": "https://github.com/o/r.git",
		"file://alice:pw@/tmp/r":                           "file:///tmp/r",
		"git@github.com:o/r.git":                           "git@github.com:o/r.git",
		"/home/dana/models":                                "",
		".":                                                "",
	} {
		if got := DisplayName(spec); got != want {
			t.Errorf("DisplayName(%q) = %q, want %q", spec, got, want)
		}
	}
}

// TestSymlinksAreNotFiles: a symbolic link to a model is not a second
// model whose text is the target's name.
func TestSymlinksAreNotFiles(t *testing.T) {
	f := newFixture(t)
	c1 := f.commit("c1", map[string]string{"models/a.scxml": "<scxml/>\n"})
	if err := os.Symlink("a.scxml", filepath.Join(f.dir, "models", "alias.scxml")); err != nil {
		t.Fatal(err)
	}
	if _, err := f.wt.Add("models/alias.scxml"); err != nil {
		t.Fatal(err)
	}
	c2 := f.commit("link", nil)
	r := f.open()
	if target, err := r.ReadFile(c2, "models/alias.scxml"); err != nil || string(target) != "a.scxml" {
		t.Fatalf("the link is not in the commit: %q, %v", target, err)
	}
	files, err := r.Files(c2, nil)
	if err != nil || len(files) != 1 || files[0] != "models/a.scxml" {
		t.Errorf("Files = %v, %v; want the real file only", files, err)
	}
	changes, err := r.Changed(c1, c2, nil)
	if err != nil || len(changes) != 0 {
		t.Errorf("Changed = %+v, %v; want nothing (a link was added)", changes, err)
	}
}
