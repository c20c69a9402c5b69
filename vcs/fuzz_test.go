package vcs

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// FuzzResolve checks that Resolve never panics or hangs on any revision
// text, that every error says which revision it was resolving, and that a
// revision it resolves is a commit of the repository, the one git
// resolves it to (git accepts more syntax; where Resolve accepts a
// revision, the two agree, except on an abbreviated SHA, where Resolve
// counts only commits and tags).
func FuzzResolve(f *testing.F) {
	h := newHistory(f)
	r := h.f.open()
	_, gitErr := exec.LookPath("git")
	for _, rev := range []string{
		"HEAD", "@", "main", "heads/main", "refs/heads/main", "feature", "origin/main",
		"remotes/origin/main", "refs/remotes/origin/main", "v1-light", "v1", "tags/v1", "refs/tags/v1",
		"v1-nested", "v1^{}", "v1^{commit}", "v1~1", "HEAD^0", "HEAD~0", "HEAD^", "HEAD^1", "HEAD~",
		"HEAD~1", "HEAD~2", "HEAD~~", "HEAD~3", "main^2", "main^2~1", "main^^", "feature~1^",
		h.c1, strings.ToUpper(h.c1), h.c1 + "~0", h.c2 + "^", h.c1[:7], h.c2[:12], h.tagV1[:10], h.m[:4],
		h.hexBranch, "HEAD~9", "HEAD^3", "nope", "deadbeef", strings.Repeat("dead", 10), h.c1[:3],
		"config", "objects", "tree-tag", "", "main..feature", "../../config", "main:models/a.scxml",
		"HEAD@{1}", "HEAD~x", "HEAD^{tree}", "HEAD^{", "FETCH_HEAD", "refs/heads", "main.lock", "a/.b",
	} {
		f.Add(rev)
	}
	f.Fuzz(func(t *testing.T, rev string) {
		got, err := r.Resolve(rev)
		if err != nil {
			if want := fmt.Sprintf("resolving %q: ", rev); !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("Resolve(%q): error %q does not start with %q", rev, err, want)
			}
			return
		}
		if len(got) != 2*len(plumbing.ZeroHash) || !isHex(got) || strings.ToLower(got) != got {
			t.Fatalf("Resolve(%q) = %q, not a SHA", rev, got)
		}
		if _, err := object.GetCommit(h.f.repo.Storer, plumbing.NewHash(got)); err != nil {
			t.Fatalf("Resolve(%q) = %s, not a commit: %v", rev, got, err)
		}
		base, _, _ := strings.Cut(rev, "~")
		base, _, _ = strings.Cut(base, "^")
		if gitErr != nil || isHex(base) && len(base) < len(got) {
			return
		}
		gitSays, err := runGit(t, h.f.dir, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
		if err != nil || gitSays != got {
			t.Fatalf("Resolve(%q) = %s; git rev-parse says %q (%v)", rev, got, gitSays, err)
		}
	})
}
