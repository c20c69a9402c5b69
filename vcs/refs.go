package vcs

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// FetchRefs fetches particular references from origin into the same names,
// forced: for example "refs/pull/12/head", where the head of a pull request
// from a fork lives (Clone brings branches and tags only). A reference that
// origin does not have is an error naming it.
func (r *Repo) FetchRefs(ctx context.Context, opts CloneOptions, refs ...string) error {
	unlock, err := r.lockForFetch(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	origin, err := r.repo.Remote(remoteName)
	if err != nil {
		return fmt.Errorf("fetching %v into %s: %w", refs, r.dir, err)
	}
	specs := make([]config.RefSpec, 0, len(refs))
	for _, ref := range refs {
		spec := config.RefSpec("+" + ref + ":" + ref)
		if err := spec.Validate(); err != nil {
			return fmt.Errorf("fetching %q: %w", ref, err)
		}
		specs = append(specs, spec)
	}
	u := origin.Config().URLs[0]
	err = origin.FetchContext(ctx, &git.FetchOptions{
		RemoteName: remoteName,
		RefSpecs:   specs,
		Auth:       authFor(u, opts.Token, r.auth),
		Progress:   opts.Progress,
		Force:      true,
	})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return fmt.Errorf("fetching %v from %s into %s: %w", refs, redact(u), r.dir, err)
	}
	return nil
}

// MergeBase returns the best common ancestor of two revisions (as git
// merge-base does; of several equally good ones, the first found), the
// commit a pull request's changes are measured from.
func (r *Repo) MergeBase(a, b string) (string, error) {
	r.lock()
	defer r.unlock()
	ha, err := r.resolve(a)
	if err != nil {
		return "", err
	}
	hb, err := r.resolve(b)
	if err != nil {
		return "", err
	}
	ca, err := object.GetCommit(r.repo.Storer, ha)
	if err != nil {
		return "", fmt.Errorf("reading commit %s: %w", ha, err)
	}
	cb, err := object.GetCommit(r.repo.Storer, hb)
	if err != nil {
		return "", fmt.Errorf("reading commit %s: %w", hb, err)
	}
	bases, err := ca.MergeBase(cb)
	if err != nil {
		return "", fmt.Errorf("finding the merge base of %s and %s: %w", a, b, err)
	}
	if len(bases) == 0 {
		return "", fmt.Errorf("finding the merge base of %s and %s: the histories are unrelated", a, b)
	}
	return bases[0].Hash.String(), nil
}
