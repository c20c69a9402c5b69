package vcs

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// fixture is a work tree built with go-git in a temporary directory. Commit times are fixed, so
// the same steps always give the same SHAs.
type fixture struct {
	t    testing.TB
	dir  string
	repo *git.Repository
	wt   *git.Worktree
	tick int
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	dir := t.TempDir()
	repo, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.Main},
	})
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, dir: dir, repo: repo, wt: wt}
}

// reopen opens the fixture's repository afresh, after git changed its pack files.
func (f *fixture) reopen() {
	f.t.Helper()
	var err error
	if f.repo, err = git.PlainOpen(f.dir); err != nil {
		f.t.Fatal(err)
	}
	if f.wt, err = f.repo.Worktree(); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) sig() *object.Signature {
	f.tick++
	return &object.Signature{
		Name: "Test", Email: "test@example.com",
		When: time.Date(2024, 1, 1, 0, 0, f.tick, 0, time.UTC),
	}
}

// commit writes files (an empty content deletes the file), commits on the current branch with
// the given extra parents, and returns the commit's SHA.
func (f *fixture) commit(msg string, files map[string]string, mergeParents ...string) string {
	f.t.Helper()
	for p, content := range files {
		full := filepath.Join(f.dir, filepath.FromSlash(p))
		if content == "" {
			if _, err := f.wt.Remove(p); err != nil {
				f.t.Fatalf("removing %s: %v", p, err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			f.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			f.t.Fatal(err)
		}
		if _, err := f.wt.Add(p); err != nil {
			f.t.Fatalf("adding %s: %v", p, err)
		}
	}
	opts := &git.CommitOptions{AllowEmptyCommits: true}
	opts.Author = f.sig()
	opts.Committer = opts.Author
	if len(mergeParents) > 0 {
		head, err := f.repo.Head()
		if err != nil {
			f.t.Fatal(err)
		}
		opts.Parents = []plumbing.Hash{head.Hash()}
		for _, p := range mergeParents {
			opts.Parents = append(opts.Parents, plumbing.NewHash(p))
		}
	}
	h, err := f.wt.Commit(msg, opts)
	if err != nil {
		f.t.Fatalf("committing %q: %v", msg, err)
	}
	return h.String()
}

// checkout switches the work tree to branch, creating it at the current commit when asked.
func (f *fixture) checkout(branch string, create bool) {
	f.t.Helper()
	err := f.wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName(branch), Create: create})
	if err != nil {
		f.t.Fatalf("checking out %s: %v", branch, err)
	}
}

// setRef points the full ref name at sha (a lightweight tag, a branch, a remote-tracking branch).
func (f *fixture) setRef(name, sha string) {
	f.t.Helper()
	ref := plumbing.NewHashReference(plumbing.ReferenceName(name), plumbing.NewHash(sha))
	if err := f.repo.Storer.SetReference(ref); err != nil {
		f.t.Fatal(err)
	}
}

// annotatedTag creates an annotated tag on the object sha and returns the tag object's SHA.
func (f *fixture) annotatedTag(name, sha string) string {
	f.t.Helper()
	ref, err := f.repo.CreateTag(name, plumbing.NewHash(sha), &git.CreateTagOptions{
		Tagger: f.sig(), Message: "release " + name,
	})
	if err != nil {
		f.t.Fatalf("tagging %s: %v", name, err)
	}
	return ref.Hash().String()
}

func (f *fixture) open() *Repo {
	f.t.Helper()
	r, err := Open(f.dir)
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

// runGit runs the git binary in dir, isolated from the user's and the system's configuration,
// to cross-check go-git; the test is skipped when git is not installed.
func runGit(t testing.TB, dir string, args ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// lines is a file's content of n distinct lines.
func lines(tag string, n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(tag)
		b.WriteString(" line ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString("\n")
	}
	return b.String()
}
