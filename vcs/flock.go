package vcs

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"
)

// flockRetry is how often a process waiting for another's clone or fetch
// of the same repository tries the lock again.
const flockRetry = 50 * time.Millisecond

// lockAcross takes an exclusive lock on path that other processes see
// too (flock): two setbot processes fetching into one clone would race on
// its references. It waits until the lock is free or ctx is done, and
// returns the function that releases it.
func lockAcross(ctx context.Context, path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() {
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			}, nil
		}
		if err != syscall.EWOULDBLOCK {
			f.Close()
			return nil, fmt.Errorf("locking %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for the lock %s: %w", path, ctx.Err())
		case <-time.After(flockRetry):
		}
	}
}
