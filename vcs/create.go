package vcs

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A Commit is one commit of a history Create writes.
type Commit struct {
	// Files are written to the work tree, by slash-separated path, and
	// added; the files of earlier commits stay as they are.
	Files   map[string][]byte
	Message string
	// Name and Email are the author's (and the committer's), When the
	// time of the commit: fixed, they make the SHAs the same everywhere.
	Name, Email string
	When        time.Time
}

// Create makes a repository with a work tree in dir (which must not exist
// or be empty) and commits history to it in turn: the repositories of
// `setbot demo` and `bench curve`. It returns the commits' SHAs, oldest
// first.
func Create(dir string, history []Commit) ([]string, error) {
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		return nil, fmt.Errorf("creating a repository in %s: %w", dir, err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, err
	}
	var shas []string
	for _, c := range history {
		names := make([]string, 0, len(c.Files))
		for name := range c.Files {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			if err := writeFile(dir, name, c.Files[name]); err != nil {
				return nil, err
			}
			if _, err := wt.Add(name); err != nil {
				return nil, fmt.Errorf("adding %s: %w", name, err)
			}
		}
		sig := &object.Signature{Name: c.Name, Email: c.Email, When: c.When}
		h, err := wt.Commit(c.Message, &git.CommitOptions{Author: sig, Committer: sig})
		if err != nil {
			return nil, fmt.Errorf("committing %q: %w", c.Message, err)
		}
		shas = append(shas, h.String())
	}
	return shas, nil
}

// writeFile writes a file of the work tree in dir, making its directories.
func writeFile(dir, name string, data []byte) error {
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}
