package vcs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// DefaultCloneMaxAge is how long a clone no job has used is kept when the server configures no
// age: two weeks outlasts a weekly scheduled re-analysis, so a repository that is only verified
// on schedule keeps its clone, while one nobody works on any more gives its disk space back.
const DefaultCloneMaxAge = 14 * 24 * time.Hour

// Leftovers in a clone directory: a clone that a process did not finish (Clone), and a clone
// that PruneClones moved aside and did not finish deleting.
const (
	partialMark = ".partial-"
	prunedMark  = ".pruned-"
)

// markUsed records that the clone whose lock file is flock was just used: PruneClones reads the
// time, in this process or another. An error only makes the clone look older than it is.
func markUsed(flock string) {
	now := time.Now()
	_ = os.Chtimes(flock, now, now)
}

// PruneClones deletes the clones under cacheDir (made by Clone) that have not been used for
// maxAge, and returns their directories. A clone is used when it is cloned, opened by Clone or
// fetched into; one that an open Repo of this process holds, or that another process is cloning
// or fetching into, is never deleted. A clone another process reads without fetching has no way
// to say so: give each process its own cacheDir, or a maxAge longer than its longest use.
// Clones that a process left half made are deleted too. The lock files, a
// few bytes each, stay: deleting a lock file another process has open would let two processes
// hold the lock at once.
func PruneClones(cacheDir string, maxAge time.Duration) ([]string, error) {
	if maxAge <= 0 {
		return nil, fmt.Errorf("pruning the clones in %s: age %v is not positive", cacheDir, maxAge)
	}
	cacheDir, err := filepath.Abs(cacheDir)
	if err != nil {
		return nil, fmt.Errorf("pruning the clones in %s: %w", cacheDir, err)
	}
	entries, err := os.ReadDir(cacheDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pruning the clones in %s: %w", cacheDir, err)
	}
	cutoff := time.Now().Add(-maxAge)
	var removed []string
	var errs []error
	for _, e := range entries {
		dir := filepath.Join(cacheDir, e.Name())
		if !e.IsDir() {
			continue
		}
		var done bool
		var err error
		switch name := e.Name(); {
		case strings.HasPrefix(name, ".") && strings.Contains(name, prunedMark):
			err, done = os.RemoveAll(dir), true
		case strings.HasPrefix(name, ".") && strings.Contains(name, partialMark):
			done, err = prunePartial(dir)
		case strings.HasPrefix(name, "."):
		default:
			done, err = pruneClone(dir, cutoff)
		}
		if err != nil {
			errs = append(errs, err)
		} else if done {
			removed = append(removed, dir)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return removed, fmt.Errorf("pruning the clones in %s: %w", cacheDir, err)
	}
	return removed, nil
}

// prunePartial deletes the unfinished clone in dir unless a Clone, which holds the clone's lock
// while it works, is making it; it says whether it did.
func prunePartial(dir string) (bool, error) {
	name := filepath.Base(dir)
	base := strings.TrimPrefix(name[:strings.Index(name, partialMark)], ".")
	unlock, ok, err := tryLockAcross(filepath.Join(filepath.Dir(dir), base+".lock"))
	switch {
	case errors.Is(err, os.ErrNotExist):
		// No Clone makes it: Clone creates the lock file first.
	case err != nil || !ok:
		return false, err
	default:
		defer unlock()
	}
	return true, os.RemoveAll(dir)
}

// pruneClone deletes the clone in dir unless it was used after cutoff or is in use, and says
// whether it did.
func pruneClone(dir string, cutoff time.Time) (bool, error) {
	flock := dir + ".lock"
	if _, err := os.Stat(flock); err != nil {
		return false, nil // not a clone Clone made
	}
	if lastUse(dir, flock).After(cutoff) {
		return false, nil
	}
	aside, err := moveAside(dir, flock, cutoff)
	if err != nil || aside == "" {
		return false, err
	}
	return true, os.RemoveAll(aside)
}

// moveAside renames the clone in dir out of the way unless it is in use or was used after
// cutoff, and returns where it went ("" when it stays). It holds the registry meanwhile, so a
// Clone of this process waits and then clones afresh.
func moveAside(dir, flock string, cutoff time.Time) (string, error) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	s := registry.byDir[dir]
	if s != nil && s.refs > 0 {
		return "", nil
	}
	unlock, ok, err := tryLockAcross(flock)
	if err != nil || !ok {
		return "", err // another process is cloning or fetching
	}
	defer unlock()
	if lastUse(dir, flock).After(cutoff) {
		return "", nil // another process used it since the first look
	}
	aside := filepath.Join(filepath.Dir(dir), fmt.Sprintf(".%s%s%d", filepath.Base(dir), prunedMark, time.Now().UnixNano()))
	if err := os.Rename(dir, aside); err != nil {
		return "", err
	}
	if s != nil {
		forget(s)
	}
	return aside, nil
}

// lastUse is when the clone in dir was last used, as far as the files say: Clone and fetches
// touch its lock file, and a fetch that brought objects changed its pack directory. Clones made
// before Clone touched the lock file are judged by the other two.
func lastUse(dir, flock string) time.Time {
	var last time.Time
	for _, p := range []string{flock, dir, filepath.Join(dir, "objects", "pack")} {
		if fi, err := os.Stat(p); err == nil && fi.ModTime().After(last) {
			last = fi.ModTime()
		}
	}
	return last
}

// tryLockAcross takes the lock lockAcross takes if it is free, and says whether it did.
func tryLockAcross(path string) (unlock func(), ok bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, false, fmt.Errorf("locking %s: %w", path, err)
	}
	switch err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); {
	case err == nil:
		return func() {
			_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
			f.Close()
		}, true, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		f.Close()
		return nil, false, nil
	default:
		f.Close()
		return nil, false, fmt.Errorf("locking %s: %w", path, err)
	}
}
