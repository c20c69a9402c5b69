package vcs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Change statuses.
const (
	Added    = "added"
	Modified = "modified"
	Deleted  = "deleted"
	Renamed  = "renamed"
)

// diffOptions is go-git's recommended rename detection (a moved file at least 60% similar is a
// rename), with git's default bound on the number of files compared so that a huge diff stays
// cheap; beyond it only exact renames are found.
var diffOptions = object.DiffTreeOptions{
	DetectRenames: true,
	RenameScore:   object.DefaultDiffTreeOptions.RenameScore,
	RenameLimit:   1000,
}

// Change is a file that differs between two commits.
type Change struct {
	Status  string // Added, Modified, Deleted or Renamed
	OldPath string // "" when added
	NewPath string // "" when deleted
}

// Path is NewPath, or OldPath for a deletion.
func (c Change) Path() string {
	if c.NewPath == "" {
		return c.OldPath
	}
	return c.NewPath
}

// Changed lists the files that differ between base and head (commits or any revision Resolve
// accepts) and that match (a renamed file is listed when either path matches), with rename
// detection (a file moved, possibly with edits, is one "renamed" change, not a delete and an add;
// symbolic links and submodules are not files and are left out),
// sorted by NewPath (OldPath for deletions). match nil means every file. Submodules are not
// files and are left out.
func (r *Repo) Changed(base, head string, match func(path string) bool) ([]Change, error) {
	r.lock()
	defer r.unlock()
	changes, err := r.changed(base, head, match)
	if err != nil {
		return nil, fmt.Errorf("listing changes from %s to %s: %w", base, head, err)
	}
	return changes, nil
}

func (r *Repo) changed(base, head string, match func(path string) bool) ([]Change, error) {
	from, _, err := r.tree(base)
	if err != nil {
		return nil, err
	}
	to, _, err := r.tree(head)
	if err != nil {
		return nil, err
	}
	diff, err := object.DiffTreeWithOptions(context.Background(), from, to, &diffOptions)
	if err != nil {
		return nil, err
	}
	var out []Change
	for _, d := range diff {
		c := Change{OldPath: filePath(d.From), NewPath: filePath(d.To)}
		switch {
		case c.OldPath == "" && c.NewPath == "":
			continue
		case c.OldPath == "":
			c.Status = Added
		case c.NewPath == "":
			c.Status = Deleted
		case c.OldPath != c.NewPath:
			c.Status = Renamed
		default:
			c.Status = Modified
		}
		if match != nil && !(c.OldPath != "" && match(c.OldPath) || c.NewPath != "" && match(c.NewPath)) {
			continue
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Change) int {
		if c := strings.Compare(a.Path(), b.Path()); c != 0 {
			return c
		}
		return strings.Compare(a.OldPath, b.OldPath)
	})
	return out, nil
}

// filePath is the path of one side of a change, "" when that side is absent or not a
// regular file.
func filePath(e object.ChangeEntry) string {
	if !regular(e.TreeEntry.Mode) {
		return ""
	}
	return e.Name
}

// regular reports whether a tree entry is a file with contents of its own: a symbolic link's
// "contents" are its target's name (the file it points to is listed in its own right), and a
// submodule is another repository.
func regular(m filemode.FileMode) bool { return m.IsFile() && m != filemode.Symlink }

// ReadFile returns a file's contents at a revision (a symbolic link's is its target, as in git).
// A missing path is an error that names the path and the revision and wraps ErrPathNotFound; a
// directory or a submodule is an error too.
func (r *Repo) ReadFile(rev, name string) ([]byte, error) {
	r.lock()
	defer r.unlock()
	tree, h, err := r.tree(rev)
	if err != nil {
		return nil, fmt.Errorf("reading %s at %s: %w", name, rev, err)
	}
	p, err := cleanPath(name)
	if err != nil {
		return nil, fmt.Errorf("reading %s at %s: %w", name, at(rev, h), err)
	}
	data, err := r.readEntry(tree, p)
	if err != nil {
		return nil, fmt.Errorf("reading %s at %s: %w", p, at(rev, h), err)
	}
	return data, nil
}

func (r *Repo) readEntry(tree *object.Tree, p string) ([]byte, error) {
	e, err := r.findEntry(tree, p)
	if err != nil {
		return nil, err
	}
	switch e.Mode {
	case filemode.Dir:
		return nil, errors.New("is a directory")
	case filemode.Submodule:
		return nil, errors.New("is a submodule")
	}
	return r.blob(&e)
}

// findEntry looks p up one component at a time, so that a path that runs through a file is not
// found rather than a tree object that is missing (which is what tree.FindEntry reports); the
// root is a directory entry.
func (r *Repo) findEntry(tree *object.Tree, p string) (object.TreeEntry, error) {
	if p == "" {
		return object.TreeEntry{Mode: filemode.Dir, Hash: tree.Hash}, nil
	}
	for {
		part, rest, more := strings.Cut(p, "/")
		e, err := tree.FindEntry(part)
		switch {
		case errors.Is(err, object.ErrEntryNotFound):
			return object.TreeEntry{}, ErrPathNotFound
		case err != nil:
			return object.TreeEntry{}, err
		case !more:
			return *e, nil
		case e.Mode != filemode.Dir:
			return object.TreeEntry{}, ErrPathNotFound
		}
		if tree, err = object.GetTree(r.storage, e.Hash); err != nil {
			return object.TreeEntry{}, err
		}
		p = rest
	}
}

// Files lists the files at a revision that match (match nil means every file), sorted
// (slash-separated paths). Submodules and symbolic links are not files and are left out.
func (r *Repo) Files(rev string, match func(path string) bool) ([]string, error) {
	r.lock()
	defer r.unlock()
	files, err := r.files(rev, match)
	if err != nil {
		return nil, fmt.Errorf("listing files at %s: %w", rev, err)
	}
	return files, nil
}

func (r *Repo) files(rev string, match func(path string) bool) ([]string, error) {
	tree, _, err := r.tree(rev)
	if err != nil {
		return nil, err
	}
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	var out []string
	for {
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if regular(e.Mode) && (match == nil || match(name)) {
			out = append(out, name)
		}
	}
	// A walk yields tree order, which is byte order of the full paths only when every tree is
	// well-formed; sort so that the result does not depend on it.
	slices.Sort(out)
	return out, nil
}

// tree returns the root tree of the commit rev resolves to, and the commit.
func (r *Repo) tree(rev string) (*object.Tree, plumbing.Hash, error) {
	h, err := r.resolve(rev)
	if err != nil {
		return nil, h, err
	}
	c, err := object.GetCommit(r.storage, h)
	if err != nil {
		return nil, h, fmt.Errorf("reading commit %s: %w", h, err)
	}
	t, err := c.Tree()
	if err != nil {
		return nil, h, fmt.Errorf("reading tree of %s: %w", h, err)
	}
	return t, h, nil
}

// cleanPath turns a repository path into the canonical form trees are searched with: no leading
// slash, no "." or empty components, "" for the root.
func cleanPath(p string) (string, error) {
	c := strings.TrimPrefix(path.Clean("/"+p), "/")
	if slices.Contains(strings.Split(p, "/"), "..") {
		return "", errors.New("invalid path")
	}
	return c, nil
}

// at names the revision rev that resolved to commit h in messages: the short SHA, after the
// revision when that was not a SHA already.
func at(rev string, h plumbing.Hash) string {
	short := h.String()[:7]
	if isHex(rev) && strings.HasPrefix(h.String(), strings.ToLower(rev)) {
		return short
	}
	return fmt.Sprintf("%s (%s)", rev, short)
}
