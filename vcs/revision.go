package vcs

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

const (
	// minAbbrev is the shortest abbreviated SHA accepted, as in git.
	minAbbrev = 4
	// maxListed bounds the candidates an ambiguous abbreviated SHA's error lists.
	maxListed = 5
	// maxTagDepth bounds the chain of tags pointing at tags that is peeled.
	maxTagDepth = 16
)

var errInvalidRevision = errors.New("invalid revision syntax")

// Resolve returns the full 40-hex commit SHA of a revision: a full or abbreviated SHA, a branch
// (local or remote-tracking, e.g. main or origin/main), a tag (annotated tags peeled to their
// commit), HEAD (or @), and any sequence of the suffixes ~, ~n, ^, ^n, ^{} and ^{commit}
// (HEAD~2, main^, v1.0^2). A revision that does not exist is an error that names it and wraps
// ErrRevisionNotFound; an abbreviated SHA that matches several commits wraps ErrAmbiguousRevision.
//
// As in git, a full SHA wins over a ref of the same name and a ref wins over an abbreviated SHA;
// unlike plain git rev-parse, only commits and tags count when an abbreviated SHA is
// disambiguated, since the result must be a commit.
func (r *Repo) Resolve(rev string) (string, error) {
	r.lock()
	defer r.unlock()
	h, err := r.resolve(rev)
	if err != nil {
		return "", err
	}
	return h.String(), nil
}

func (r *Repo) resolve(rev string) (plumbing.Hash, error) {
	base, suffix := rev, ""
	if i := strings.IndexAny(rev, "~^"); i >= 0 {
		base, suffix = rev[:i], rev[i:]
	}
	h, err := r.resolveBase(base)
	if err == nil {
		h, err = r.applySuffix(h, suffix)
	}
	if err != nil {
		if shallow, _ := r.storage.Shallow(); len(shallow) > 0 && errors.Is(err, ErrRevisionNotFound) {
			// A CI checkout often fetches one commit: the base is not there.
			return plumbing.ZeroHash, fmt.Errorf("resolving %q: %w (the repository is a shallow clone, "+
				"which may lack it: fetch more history, with git fetch --unshallow, or fetch-depth: 0 in actions/checkout)", rev, err)
		}
		return plumbing.ZeroHash, fmt.Errorf("resolving %q: %w", rev, err)
	}
	return h, nil
}

// resolveBase resolves a revision without suffixes to a commit.
func (r *Repo) resolveBase(name string) (plumbing.Hash, error) {
	if name == "@" {
		name = "HEAD"
	}
	hex := isHex(name)
	if hex && len(name) == 2*len(plumbing.ZeroHash) {
		h := plumbing.NewHash(name)
		if _, err := r.storage.EncodedObject(plumbing.AnyObject, h); err == nil {
			return r.peel(h)
		}
	}
	if !validRefName(name) {
		return plumbing.ZeroHash, errInvalidRevision
	}
	for _, rule := range plumbing.RefRevParseRules {
		// The bare rule would read arbitrary files of the git directory (config, index...);
		// git only applies it to refs/... and to pseudo-refs such as HEAD and FETCH_HEAD.
		if rule == "%s" && !strings.HasPrefix(name, "refs/") && !isPseudoRef(name) {
			continue
		}
		ref, err := storer.ResolveReference(r.storage, plumbing.ReferenceName(fmt.Sprintf(rule, name)))
		if err != nil {
			continue // not found, or a broken ref that git would also skip
		}
		return r.peel(ref.Hash())
	}
	if hex && len(name) >= minAbbrev && len(name) < 2*len(plumbing.ZeroHash) {
		return r.resolveAbbrev(strings.ToLower(name))
	}
	return plumbing.ZeroHash, ErrRevisionNotFound
}

// resolveAbbrev resolves an abbreviated SHA, considering the commits and the tags that peel to
// commits whose SHA starts with it.
func (r *Repo) resolveAbbrev(prefix string) (plumbing.Hash, error) {
	even := prefix[:len(prefix)&^1]
	b := make([]byte, len(even)/2)
	for i := range b {
		v, _ := strconv.ParseUint(even[2*i:2*i+2], 16, 8)
		b[i] = byte(v)
	}
	hashes, err := r.storage.HashesWithPrefix(b)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("looking up objects: %w", err)
	}
	var found []plumbing.Hash
	var names []string
	for _, h := range hashes {
		if !strings.HasPrefix(h.String(), prefix) {
			continue
		}
		c, err := r.peel(h)
		if err != nil || slices.Contains(found, c) {
			continue
		}
		found = append(found, c)
		names = append(names, h.String()[:12])
	}
	switch len(found) {
	case 0:
		return plumbing.ZeroHash, ErrRevisionNotFound
	case 1:
		return found[0], nil
	}
	slices.Sort(names)
	if len(names) > maxListed {
		names = append(names[:maxListed], "...")
	}
	return plumbing.ZeroHash, fmt.Errorf("%w: abbreviated SHA matches %d commits (%s)",
		ErrAmbiguousRevision, len(found), strings.Join(names, ", "))
}

// peel follows annotated tags from h to a commit.
func (r *Repo) peel(h plumbing.Hash) (plumbing.Hash, error) {
	for range maxTagDepth {
		obj, err := r.storage.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("reading object %s: %w", h, err)
		}
		switch obj.Type() {
		case plumbing.CommitObject:
			return h, nil
		case plumbing.TagObject:
			tag, err := object.DecodeTag(r.storage, obj)
			if err != nil {
				return plumbing.ZeroHash, fmt.Errorf("reading tag %s: %w", h, err)
			}
			h = tag.Target
		default:
			return plumbing.ZeroHash, fmt.Errorf("refers to a %s, not a commit", obj.Type())
		}
	}
	return plumbing.ZeroHash, fmt.Errorf("tags nested more than %d deep", maxTagDepth)
}

// applySuffix walks the ancestry suffixes (~n, ^n, ^{}, ^{commit}) from commit h.
func (r *Repo) applySuffix(h plumbing.Hash, s string) (plumbing.Hash, error) {
	for s != "" {
		op := s[0]
		s = s[1:]
		if op == '^' && strings.HasPrefix(s, "{") {
			end := strings.IndexByte(s, '}')
			if end < 0 || (s[1:end] != "" && s[1:end] != "commit") {
				return plumbing.ZeroHash, errInvalidRevision
			}
			s = s[end+1:]
			continue // h is a commit already
		}
		if op != '^' && op != '~' {
			return plumbing.ZeroHash, errInvalidRevision
		}
		digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
		n := 1
		if digits > 0 {
			var err error
			if n, err = strconv.Atoi(s[:digits]); err != nil {
				return plumbing.ZeroHash, errInvalidRevision
			}
			s = s[digits:]
		}
		var err error
		if op == '~' {
			for ; n > 0 && err == nil; n-- {
				h, err = r.parent(h, 1)
			}
		} else if n > 0 {
			h, err = r.parent(h, n)
		}
		if err != nil {
			return plumbing.ZeroHash, err
		}
	}
	return h, nil
}

// parent returns the n-th (1-based) parent of commit h.
func (r *Repo) parent(h plumbing.Hash, n int) (plumbing.Hash, error) {
	c, err := object.GetCommit(r.storage, h)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("reading commit %s: %w", h, err)
	}
	if n > len(c.ParentHashes) {
		return plumbing.ZeroHash, ErrRevisionNotFound
	}
	p := c.ParentHashes[n-1]
	if _, err := object.GetCommit(r.storage, p); err != nil {
		// A shallow clone has the parent's SHA but not the commit.
		return plumbing.ZeroHash, fmt.Errorf("commit %s: %w", p, ErrRevisionNotFound)
	}
	return p, nil
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// isPseudoRef reports whether name is a ref kept at the top of the git directory (HEAD,
// FETCH_HEAD, ORIG_HEAD...).
func isPseudoRef(name string) bool {
	for _, c := range name {
		if !('A' <= c && c <= 'Z' || c == '_') {
			return false
		}
	}
	return strings.HasSuffix(name, "HEAD")
}

// validRefName is git check-ref-format, loosened to accept one-level names such as main. Besides
// rejecting what git would, it keeps a revision from naming a file outside the refs.
func validRefName(name string) bool {
	if name == "" || name == "@" || strings.HasSuffix(name, ".") ||
		strings.Contains(name, "..") || strings.Contains(name, "@{") {
		return false
	}
	for _, c := range name {
		if c < 0x20 || c == 0x7f || strings.ContainsRune(" ~^:?*[\\", c) {
			return false
		}
	}
	for part := range strings.SplitSeq(name, "/") {
		if part == "" || strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	return true
}
