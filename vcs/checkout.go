package vcs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// WriteTree writes the files of the commit rev resolves to into dir, a
// directory that exists and is empty: a checkout without a work tree or an
// index, for a bare clone. Executable files keep their executable bit and
// symbolic links are links, as git checks them out; submodules are empty
// directories. Links are made after every file, so that no file is written
// through one, and an entry whose name would leave dir is an error.
func (r *Repo) WriteTree(rev, dir string) error {
	r.lock()
	defer r.unlock()
	if err := r.writeTree(rev, dir); err != nil {
		return fmt.Errorf("writing the tree at %s to %s: %w", rev, dir, err)
	}
	return nil
}

func (r *Repo) writeTree(rev, dir string) error {
	tree, _, err := r.tree(rev)
	if err != nil {
		return err
	}
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	type link struct{ name, target string }
	var links []link
	for {
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			return fmt.Errorf("the tree holds the path %q, which is not inside the repository", name)
		}
		full := filepath.Join(dir, filepath.FromSlash(name))
		switch e.Mode {
		case filemode.Dir, filemode.Submodule:
			err = os.MkdirAll(full, 0o755)
		case filemode.Symlink:
			var target []byte
			if target, err = r.blob(&e); err == nil {
				links = append(links, link{full, string(target)})
			}
		case filemode.Regular, filemode.Deprecated, filemode.Executable:
			perm := os.FileMode(0o644)
			if e.Mode == filemode.Executable {
				perm = 0o755
			}
			err = r.writeBlob(&e, full, perm)
		default:
			err = fmt.Errorf("%s has the unknown mode %v", name, e.Mode)
		}
		if err != nil {
			return err
		}
	}
	for _, l := range links {
		if err := os.Symlink(l.target, l.name); err != nil {
			return err
		}
	}
	return nil
}

// blob reads the contents of a tree entry.
func (r *Repo) blob(e *object.TreeEntry) ([]byte, error) {
	b, err := object.GetBlob(r.storage, e.Hash)
	if err != nil {
		return nil, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// writeBlob writes a file's contents to path, streaming them.
func (r *Repo) writeBlob(e *object.TreeEntry, path string, perm os.FileMode) error {
	b, err := object.GetBlob(r.storage, e.Hash)
	if err != nil {
		return err
	}
	rd, err := b.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	// The walk yields a directory before what it holds; MkdirAll covers a
	// tree that lists a file first all the same.
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, rd)
	return errors.Join(err, f.Close())
}
