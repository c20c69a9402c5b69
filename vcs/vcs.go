// Package vcs is the only place setbot touches git: it opens or clones repositories, resolves
// revisions to commits, lists the files that changed between two commits and reads files at a
// commit. It is built on go-git and does not run the git binary (go-git's own file:// transport
// does, for git-upload-pack).
//
// Paths are slash-separated repository paths. A Repo is safe for concurrent use: operations on
// the same repository directory are serialized, because go-git's storage is not.
package vcs

import (
	"container/list"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

var (
	// ErrRevisionNotFound is wrapped by errors about revisions that name no commit.
	ErrRevisionNotFound = errors.New("revision not found")
	// ErrAmbiguousRevision is wrapped by errors about abbreviated SHAs that match several commits.
	ErrAmbiguousRevision = errors.New("ambiguous revision")
	// ErrPathNotFound is wrapped by errors about paths that do not exist at a revision.
	ErrPathNotFound = errors.New("path not found")
)

// maxIdleRepos bounds the repositories kept open in memory that no Repo holds. Keeping one
// spares the next job on it re-reading its pack indexes, but each may hold go-git's object cache
// (up to 96 MiB): a few, about the number of repositories a server's workers take turns on, are
// worth it.
const maxIdleRepos = 8

// Repo is an open git repository (a work tree or a bare clone). Close it when done: a closed
// Repo's repository may leave memory, and only a clone no Repo holds is pruned (PruneClones).
type Repo struct {
	*shared
	// auth is the authentication taken from the userinfo of the URL the repository was cloned
	// from; it is kept in memory only, never written to the clone's config.
	auth   transport.AuthMethod
	closer sync.Once
}

// Close releases the repository; r must not be used afterwards. Closing twice is harmless.
func (r *Repo) Close() { r.closer.Do(r.release) }

// Dir is the repository's directory: the work tree root, or the git directory of a bare
// repository (a clone setbot keeps).
func (r *Repo) Dir() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dir
}

// shared is the state of one git directory, shared by every Repo opened on it in this process:
// go-git indexes pack files once per storage, so a second storage would not see what a fetch
// through the first one brought, and go-git's storage is not safe for concurrent use.
type shared struct {
	mu      sync.Mutex
	repo    *git.Repository // nil until the directory holds a repository
	storage *filesystem.Storage
	dir     string    // the work tree root, or the git directory of a bare repository
	packs   time.Time // objects/pack's modification time when the storage last indexed it
	// flock is the file other processes lock while they clone or fetch
	// into this directory ("" for a repository setbot did not clone).
	flock string

	// Guarded by registry.mu.
	key  string        // the git directory, registry.byDir's key
	refs int           // the open Repos on it
	idle *list.Element // its place in registry.idle while refs is 0
}

// registry holds the state of every git directory an open Repo uses, which must stay unique
// while it is used, and of the maxIdleRepos most recently closed ones.
var registry = struct {
	mu    sync.Mutex
	byDir map[string]*shared
	idle  *list.List // of *shared with refs 0, the most recently released first
}{byDir: map[string]*shared{}, idle: list.New()}

// acquire returns the state of the git directory gitDir (absolute and clean) for one more Repo.
func acquire(gitDir string) *shared {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	s := registry.byDir[gitDir]
	if s == nil {
		s = &shared{key: gitDir}
		registry.byDir[gitDir] = s
	}
	if s.idle != nil {
		registry.idle.Remove(s.idle)
		s.idle = nil
	}
	s.refs++
	return s
}

// release undoes one acquire. Past maxIdleRepos idle states, the least recently used leave
// the registry; nothing else holds them, so the garbage collector frees their storage.
func (s *shared) release() {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if s.refs--; s.refs > 0 {
		return
	}
	s.idle = registry.idle.PushFront(s)
	for registry.idle.Len() > maxIdleRepos {
		forget(registry.idle.Back().Value.(*shared))
	}
}

// forget removes an idle state from the registry. The caller holds registry.mu.
func forget(s *shared) {
	registry.idle.Remove(s.idle)
	s.idle = nil
	if registry.byDir[s.key] == s {
		delete(registry.byDir, s.key)
	}
}

// lock locks the repository for one operation.
func (s *shared) lock() {
	s.mu.Lock()
	s.refresh()
}

func (s *shared) unlock() { s.mu.Unlock() }

// refresh has the storage index the pack files again when a process (git gc, git fetch) has
// changed them since it last did. The caller holds s.mu.
func (s *shared) refresh() {
	fi, err := s.storage.Filesystem().Stat("objects/pack")
	if err == nil && !fi.ModTime().Equal(s.packs) {
		s.storage.Reindex()
		s.packs = fi.ModTime()
	}
}

// Open opens a local repository; dir may be the work tree root, a subdirectory of it, or a bare
// repository.
func Open(dir string) (*Repo, error) {
	s, err := open(dir, !isGitDir(dir))
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", dir, err)
	}
	return &Repo{shared: s}, nil
}

// isGitDir reports whether dir is a work tree root or a bare repository. go-git's detection of
// the repository holding a directory looks for .git only: it finds no bare repository, and it
// would find the enclosing work tree of a bare repository that lives in one (a cache directory
// in a checkout), so it is used only when dir is neither.
func isGitDir(dir string) bool {
	if _, err := os.Stat(filepath.Join(dir, git.GitDirName)); err == nil {
		return true
	}
	head, err := os.Stat(filepath.Join(dir, "HEAD"))
	if err != nil || !head.Mode().IsRegular() {
		return false
	}
	objects, err := os.Stat(filepath.Join(dir, "objects"))
	return err == nil && objects.IsDir()
}

// open opens the repository at dir, or with detect the one whose work tree holds dir.
func open(dir string, detect bool) (*shared, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	repo, err := git.PlainOpenWithOptions(abs, &git.PlainOpenOptions{
		DetectDotGit:          detect,
		EnableDotGitCommonDir: true,
	})
	if err != nil {
		return nil, err
	}
	st, ok := repo.Storer.(*filesystem.Storage)
	if !ok {
		return nil, fmt.Errorf("unexpected storage %T", repo.Storer)
	}
	s := acquire(filepath.Clean(st.Filesystem().Root()))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.set(repo)
	return s, nil
}

// set makes repo the repository of s unless s has one already. The caller holds s.mu.
func (s *shared) set(repo *git.Repository) {
	if s.repo != nil {
		return
	}
	s.repo = repo
	s.storage = repo.Storer.(*filesystem.Storage)
	s.dir = filepath.Clean(s.storage.Filesystem().Root())
	if wt, err := repo.Worktree(); err == nil {
		s.dir = filepath.Clean(wt.Filesystem.Root())
	}
}
