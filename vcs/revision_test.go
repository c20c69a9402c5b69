package vcs

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// history is
//
//	c1 -- c2 -- c3 -- m   main, HEAD
//	         \       /
//	          f1 ---'     feature
//
// with tags v1-light (lightweight, c1), v1 (annotated, c2), v1-nested (annotated, on v1),
// tree-tag (lightweight, on c1's tree), origin/main (remote-tracking, c2), and a branch named
// like an abbreviation of c3 that points at c1.
type history struct {
	f                 *fixture
	c1, c2, c3, f1, m string
	tagV1             string // the annotated tag object
	hexBranch         string
}

func newHistory(t testing.TB) history {
	f := newFixture(t)
	h := history{f: f}
	h.c1 = f.commit("c1", map[string]string{"models/a.scxml": "<scxml/>\n"})
	h.c2 = f.commit("c2", map[string]string{"models/a.scxml": "<scxml version='1'/>\n"})
	f.checkout("feature", true)
	h.f1 = f.commit("f1", map[string]string{"models/b.scxml": "<scxml/>\n"})
	f.checkout("main", false)
	h.c3 = f.commit("c3", map[string]string{"README.md": "hello\n"})
	h.m = f.commit("merge feature", map[string]string{"models/b.scxml": "<scxml/>\n"}, h.f1)

	f.setRef("refs/tags/v1-light", h.c1)
	h.tagV1 = f.annotatedTag("v1", h.c2)
	f.annotatedTag("v1-nested", h.tagV1)
	c1, err := object.GetCommit(f.repo.Storer, plumbing.NewHash(h.c1))
	if err != nil {
		t.Fatal(err)
	}
	f.setRef("refs/tags/tree-tag", c1.TreeHash.String())
	f.setRef("refs/remotes/origin/main", h.c2)
	h.hexBranch = h.c3[:6]
	f.setRef("refs/heads/"+h.hexBranch, h.c1)
	return h
}

func TestResolve(t *testing.T) {
	h := newHistory(t)
	r := h.f.open()
	tests := []struct {
		rev  string
		want string
	}{
		{"HEAD", h.m},
		{"@", h.m},
		{"main", h.m},
		{"heads/main", h.m},
		{"refs/heads/main", h.m},
		{"feature", h.f1},
		{"origin/main", h.c2},
		{"remotes/origin/main", h.c2},
		{"refs/remotes/origin/main", h.c2},
		{"v1-light", h.c1},
		{"v1", h.c2},
		{"tags/v1", h.c2},
		{"refs/tags/v1", h.c2},
		{"v1-nested", h.c2},
		{"v1^{}", h.c2},
		{"v1^{commit}", h.c2},
		{"v1~1", h.c1},
		{"HEAD^0", h.m},
		{"HEAD~0", h.m},
		{"HEAD^", h.c3},
		{"HEAD^1", h.c3},
		{"HEAD~", h.c3},
		{"HEAD~1", h.c3},
		{"HEAD~2", h.c2},
		{"HEAD~~", h.c2},
		{"HEAD~3", h.c1},
		{"main^2", h.f1},
		{"main^2~1", h.c2},
		{"main^^", h.c2},
		{"feature~1^", h.c1},
		{h.c1, h.c1},
		{strings.ToUpper(h.c1), h.c1},
		{h.c1 + "~0", h.c1},
		{h.c2 + "^", h.c1},
		{h.c1[:7], h.c1},
		{h.c1[:9], h.c1},
		{h.c2[:12], h.c2},
		{h.tagV1[:10], h.c2},
		{h.m[:4], h.m},
		// A ref wins over an abbreviated SHA, as in git.
		{h.hexBranch, h.c1},
	}
	for _, tt := range tests {
		t.Run(tt.rev, func(t *testing.T) {
			got, err := r.Resolve(tt.rev)
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tt.rev, err)
			}
			if got != tt.want {
				t.Errorf("Resolve(%q) = %s, want %s", tt.rev, got, tt.want)
			}
			gitSays, err := runGit(t, h.f.dir, "rev-parse", "--verify", "--quiet", tt.rev+"^{commit}")
			if err != nil || gitSays != tt.want {
				t.Errorf("git rev-parse %s = %s (%v), want %s", tt.rev, gitSays, err, tt.want)
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	h := newHistory(t)
	r := h.f.open()
	tests := []struct {
		rev     string
		wantIs  error  // nil: must wrap neither ErrRevisionNotFound nor ErrAmbiguousRevision
		wantMsg string // the whole message, or a part of it when it starts with "..."
	}{
		{"HEAD~9", ErrRevisionNotFound, `resolving "HEAD~9": revision not found`},
		{"HEAD~4", ErrRevisionNotFound, `resolving "HEAD~4": revision not found`},
		{"HEAD^3", ErrRevisionNotFound, `resolving "HEAD^3": revision not found`},
		{"v1-light^", ErrRevisionNotFound, `resolving "v1-light^": revision not found`},
		{"nope", ErrRevisionNotFound, `resolving "nope": revision not found`},
		{"origin/nope", ErrRevisionNotFound, `resolving "origin/nope": revision not found`},
		{"deadbeef", ErrRevisionNotFound, `resolving "deadbeef": revision not found`},
		{strings.Repeat("dead", 10), ErrRevisionNotFound, `...revision not found`},
		{h.c1[:3], ErrRevisionNotFound, `...revision not found`}, // shorter than git accepts
		// Names of files in the git directory are not refs.
		{"config", ErrRevisionNotFound, `resolving "config": revision not found`},
		{"objects", ErrRevisionNotFound, `...revision not found`},
		{"tree-tag", nil, `resolving "tree-tag": refers to a tree, not a commit`},
		{"", nil, `resolving "": invalid revision syntax`},
		{"main..feature", nil, `resolving "main..feature": invalid revision syntax`},
		{"../../config", nil, `...invalid revision syntax`},
		{"main:models/a.scxml", nil, `...invalid revision syntax`},
		{"HEAD@{1}", nil, `...invalid revision syntax`},
		{"HEAD~x", nil, `...invalid revision syntax`},
		{"HEAD^{tree}", nil, `...invalid revision syntax`},
		{"HEAD^{", nil, `...invalid revision syntax`},
	}
	for _, tt := range tests {
		t.Run(tt.rev, func(t *testing.T) {
			got, err := r.Resolve(tt.rev)
			if err == nil {
				t.Fatalf("Resolve(%q) = %s, want an error", tt.rev, got)
			}
			checkErr(t, err, tt.wantIs, tt.wantMsg)
			if _, gitErr := runGit(t, h.f.dir, "rev-parse", "--verify", "--quiet", tt.rev+"^{commit}"); gitErr == nil {
				t.Errorf("git rev-parse resolves %q", tt.rev)
			}
		})
	}
}

// checkErr checks that err wraps wantIs (or neither revision sentinel when wantIs is nil) and
// has the message want (or contains it, when want starts with "...").
func checkErr(t *testing.T, err, wantIs error, want string) {
	t.Helper()
	if wantIs != nil && !errors.Is(err, wantIs) {
		t.Errorf("error %q does not wrap %q", err, wantIs)
	}
	if wantIs == nil && (errors.Is(err, ErrRevisionNotFound) || errors.Is(err, ErrAmbiguousRevision)) {
		t.Errorf("error %q wraps a sentinel it should not", err)
	}
	if part, ok := strings.CutPrefix(want, "..."); ok {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not contain %q", err, part)
		}
	} else if err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}
}

// TestResolveAmbiguous stores commits until two share their first four hex digits, and checks that
// the shared prefix is rejected while a longer one is not.
func TestResolveAmbiguous(t *testing.T) {
	h := newHistory(t)
	st := h.f.repo.Storer
	c1, err := object.GetCommit(st, plumbing.NewHash(h.c1))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]plumbing.EncodedObject{}
	var a, b plumbing.EncodedObject
	for i := 0; a == nil; i++ {
		c := *c1
		c.Message = fmt.Sprintf("candidate %d\n", i)
		obj := st.NewEncodedObject()
		if err := c.Encode(obj); err != nil {
			t.Fatal(err)
		}
		prefix := obj.Hash().String()[:4]
		if other, ok := seen[prefix]; ok {
			a, b = other, obj
		}
		seen[prefix] = obj
	}
	for _, obj := range []plumbing.EncodedObject{a, b} {
		if _, err := st.SetEncodedObject(obj); err != nil {
			t.Fatal(err)
		}
	}
	r := h.f.open()
	prefix := a.Hash().String()[:4]
	_, err = r.Resolve(prefix)
	checkErr(t, err, ErrAmbiguousRevision, fmt.Sprintf("...resolving %q: ambiguous revision: abbreviated SHA matches 2 commits (", prefix))
	if _, gitErr := runGit(t, h.f.dir, "rev-parse", "--verify", "--quiet", prefix+"^{commit}"); gitErr == nil {
		t.Errorf("git rev-parse resolves the ambiguous %s", prefix)
	}
	for _, obj := range []plumbing.EncodedObject{a, b} {
		got, err := r.Resolve(obj.Hash().String()[:12])
		if err != nil || got != obj.Hash().String() {
			t.Errorf("Resolve(%s) = %s, %v, want %s", obj.Hash().String()[:12], got, err, obj.Hash())
		}
	}
}

func TestResolveEmptyRepository(t *testing.T) {
	r := newFixture(t).open()
	_, err := r.Resolve("HEAD")
	checkErr(t, err, ErrRevisionNotFound, `resolving "HEAD": revision not found`)
}

// TestShallowCloneHint: a revision a shallow clone lacks is an error that
// says the clone is shallow and how to fetch more, as a CI checkout of one
// commit needs.
func TestShallowCloneHint(t *testing.T) {
	f := newFixture(t)
	first := f.commit("first", map[string]string{"a.txt": "1"})
	f.commit("second", map[string]string{"a.txt": "2"})
	dir := t.TempDir()
	if _, err := runGit(t, dir, "clone", "-q", "--depth", "1", "file://"+f.dir, "c"); err != nil {
		t.Skipf("git cannot make a shallow clone here: %v", err)
	}
	r, err := Open(filepath.Join(dir, "c"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Resolve(first)
	checkErr(t, err, ErrRevisionNotFound, "...shallow clone")
	if _, err := r.Resolve("HEAD"); err != nil {
		t.Errorf("HEAD of the shallow clone: %v", err)
	}
}
