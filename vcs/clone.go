package vcs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
)

const (
	remoteName = "origin"
	// tokenUser is the user name GitHub expects with an installation token.
	tokenUser = "x-access-token"
	// maxReadableName bounds the readable part of a cache directory's name.
	maxReadableName = 64
)

// cloneFetchSpecs make a clone's branches follow its origin's: every branch is kept both as a
// local branch (main) and as a remote-tracking one (origin/main), so that either spelling
// resolves to what the origin has now. Tags are fetched as well (git.AllTags).
var cloneFetchSpecs = []config.RefSpec{
	"+refs/heads/*:refs/heads/*",
	"+refs/heads/*:refs/remotes/" + remoteName + "/*",
}

// CloneOptions configure Clone and FetchRefs.
type CloneOptions struct {
	Token    string    // HTTP(S) token (GitHub installation token: user "x-access-token"); empty = anonymous
	Progress io.Writer // optional, go-git's sideband progress
}

// OpenOrClone opens spec when it is an existing local directory, and clones/fetches it otherwise
// (https://, http://, ssh://, git://, git@host:path, file://).
func OpenOrClone(ctx context.Context, spec, cacheDir string, opts CloneOptions) (*Repo, error) {
	if fi, err := os.Stat(spec); err == nil && fi.IsDir() {
		return Open(spec)
	}
	if !isRemoteURL(spec) {
		return nil, fmt.Errorf("opening %s: not a local directory nor a repository URL", spec)
	}
	return Clone(ctx, spec, cacheDir, opts)
}

// Clone clones url as a bare repository (no checkout) into a directory under cacheDir derived
// from the URL (stable, filesystem-safe, distinct for distinct URLs, credentials stripped from any
// URL userinfo); when that directory already holds the clone, it opens it and fetches instead.
//
// Credentials in the URL's userinfo are used for this Clone and the returned Repo's FetchRefs
// (unless opts.Token is set) but are never written to disk; the clone's origin is the URL
// without them. A failed clone leaves nothing behind: it is made in a temporary directory and
// renamed into place when complete.
func Clone(ctx context.Context, rawURL, cacheDir string, opts CloneOptions) (_ *Repo, err error) {
	rem, err := parseRemote(rawURL)
	if err != nil {
		return nil, fmt.Errorf("cloning %s: %w", redact(rawURL), err)
	}
	cacheDir, err = filepath.Abs(cacheDir)
	if err != nil {
		return nil, fmt.Errorf("cloning %s: %w", rem.url, err)
	}
	dir := filepath.Join(cacheDir, rem.dirName())
	s := acquire(dir)
	defer func() {
		if err != nil {
			s.release()
		}
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &Repo{shared: s, auth: rem.auth}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("cloning %s: %w", rem.url, err)
	}
	s.flock = dir + ".lock"
	unlock, err := lockAcross(ctx, s.flock)
	if err != nil {
		return nil, fmt.Errorf("cloning %s: %w", rem.url, err)
	}
	defer unlock()
	markUsed(s.flock)

	if _, err := os.Stat(dir); err == nil {
		return r.fetchExisting(ctx, dir, opts)
	}
	tmp, err := os.MkdirTemp(cacheDir, "."+filepath.Base(dir)+partialMark)
	if err != nil {
		return nil, fmt.Errorf("cloning %s: %w", rem.url, err)
	}
	if err := cloneInto(ctx, tmp, rem, opts); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("cloning %s: %w", rem.url, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, statErr := os.Stat(dir); statErr == nil {
			// Another process finished the same clone first.
			return r.fetchExisting(ctx, dir, opts)
		}
		return nil, fmt.Errorf("cloning %s: %w", rem.url, err)
	}
	// Opened afresh rather than kept from cloneInto, whose storage has tmp as its root. When s
	// has a repository already (the directory was removed under it), that one is kept: it reads
	// the new clone as well, once lock has reindexed its pack files.
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return nil, fmt.Errorf("opening the clone of %s in %s: %w", rem.url, dir, err)
	}
	s.set(repo)
	return r, nil
}

// fetchExisting opens the clone in dir unless r has it open, and fetches into it. The caller
// holds r.mu.
func (r *Repo) fetchExisting(ctx context.Context, dir string, opts CloneOptions) (*Repo, error) {
	if r.repo == nil {
		repo, err := git.PlainOpen(dir)
		if err != nil {
			return nil, fmt.Errorf("opening the clone in %s: %w", dir, err)
		}
		r.set(repo)
	}
	r.refresh()
	if err := r.fetch(ctx, opts); err != nil {
		return nil, err
	}
	return r, nil
}

// cloneInto makes a bare clone of rem in the empty directory dir.
func cloneInto(ctx context.Context, dir string, rem remote, opts CloneOptions) error {
	repo, err := git.PlainCloneContext(ctx, dir, true, &git.CloneOptions{
		URL:        rem.url,
		RemoteName: remoteName,
		Auth:       authFor(rem.url, opts.Token, rem.auth),
		Progress:   opts.Progress,
		Tags:       git.AllTags,
	})
	if err != nil {
		return err
	}
	// go-git clones into remote-tracking branches and creates only the default branch locally;
	// create the others and make later fetches update them all.
	cfg, err := repo.Config()
	if err != nil {
		return err
	}
	cfg.Remotes[remoteName].Fetch = cloneFetchSpecs
	if err := repo.SetConfig(cfg); err != nil {
		return err
	}
	refs, err := repo.References()
	if err != nil {
		return err
	}
	prefix := "refs/remotes/" + remoteName + "/"
	var local []*plumbing.Reference
	err = refs.ForEach(func(ref *plumbing.Reference) error {
		name, ok := strings.CutPrefix(ref.Name().String(), prefix)
		if ok && ref.Type() == plumbing.HashReference && name != "HEAD" {
			local = append(local, plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), ref.Hash()))
		}
		return nil
	})
	if err != nil {
		return err
	}
	if head, err := repo.Storer.Reference(plumbing.HEAD); err == nil && head.Type() == plumbing.SymbolicReference {
		branch := head.Target().Short()
		local = append(local, plumbing.NewSymbolicReference(
			plumbing.ReferenceName(prefix+"HEAD"), plumbing.ReferenceName(prefix+branch)))
	}
	for _, ref := range local {
		if err := repo.Storer.SetReference(ref); err != nil {
			return err
		}
	}
	return nil
}

// lockForFetch locks the repository for a fetch: in this process, then,
// if setbot made the clone, across processes; it then re-reads the packs,
// which another process may have fetched while this one waited.
func (r *Repo) lockForFetch(ctx context.Context) (func(), error) {
	r.lock()
	if r.flock == "" {
		return r.unlock, nil
	}
	unlock, err := lockAcross(ctx, r.flock)
	if err != nil {
		r.unlock()
		return nil, err
	}
	markUsed(r.flock)
	r.refresh()
	return func() { unlock(); r.unlock() }, nil
}

// fetch updates every branch and tag of a clone from its origin (forced, so that rewritten
// branches and moved tags follow; nothing is pruned, so every commit fetched before stays
// resolvable). "Already up to date" is not an error, and a repository with no origin remote
// has nothing to fetch. The caller holds the clone's locks.
func (r *Repo) fetch(ctx context.Context, opts CloneOptions) error {
	origin, err := r.repo.Remote(remoteName)
	if errors.Is(err, git.ErrRemoteNotFound) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("fetching into %s: %w", r.dir, err)
	}
	u := origin.Config().URLs[0]
	err = origin.FetchContext(ctx, &git.FetchOptions{
		RemoteName: remoteName,
		Auth:       authFor(u, opts.Token, r.auth),
		Progress:   opts.Progress,
		Tags:       git.AllTags,
		Force:      true,
	})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return fmt.Errorf("fetching %s into %s: %w", redact(u), r.dir, err)
	}
	return nil
}

// remote is a repository URL taken apart for cloning.
type remote struct {
	url  string               // what go-git fetches from: the URL without credentials
	auth transport.AuthMethod // from the URL's userinfo, or nil
	key  string               // identifies the repository: the URL without any userinfo
	name string               // host and path, readable
}

func parseRemote(raw string) (remote, error) {
	if !strings.Contains(raw, "://") {
		// scp-like syntax: [user@]host:path
		host, p, ok := strings.Cut(raw, ":")
		if !ok || !isRemoteURL(raw) {
			return remote{}, errors.New("not a repository URL")
		}
		if i := strings.LastIndexByte(host, '@'); i >= 0 {
			host = host[i+1:]
		}
		host = strings.ToLower(host)
		return remote{url: raw, key: host + ":" + p, name: host + "/" + p}, nil
	}
	u, err := url.Parse(raw)
	if err != nil {
		return remote{}, errors.New("not a repository URL")
	}
	rem := remote{}
	if u.User != nil {
		pass, hasPass := u.User.Password()
		switch {
		case u.Scheme == "http" || u.Scheme == "https":
			rem.auth = &githttp.BasicAuth{Username: u.User.Username(), Password: pass}
			u.User = nil
		case hasPass:
			u.User = url.User(u.User.Username())
		}
	}
	rem.url = u.String()
	k := *u
	k.User = nil
	k.Host = strings.ToLower(k.Host)
	rem.key = k.String()
	rem.name = k.Host + k.Path
	return rem, nil
}

// dirName is the cache directory's name for the repository: a readable part (host and path)
// followed by a hash of the whole URL, which keeps distinct URLs apart.
func (rem remote) dirName() string {
	sum := sha256.Sum256([]byte(rem.key))
	var b strings.Builder
	for _, c := range strings.TrimSuffix(rem.name, ".git") {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	name := strings.Trim(b.String(), "._-")
	if len(name) > maxReadableName {
		name = strings.TrimLeft(name[len(name)-maxReadableName:], "._-")
	}
	if name == "" {
		name = "repo"
	}
	return name + "-" + hex.EncodeToString(sum[:8])
}

// authFor is the authentication for fetching from u: the token for HTTP(S) when there is one,
// else what the clone URL carried.
func authFor(u, token string, fromURL transport.AuthMethod) transport.AuthMethod {
	if token != "" && (strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) {
		return &githttp.BasicAuth{Username: tokenUser, Password: token}
	}
	return fromURL
}

// isRemoteURL reports whether spec is a URL git can fetch from: scheme://... or scp-like
// [user@]host:path.
func isRemoteURL(spec string) bool {
	for _, scheme := range []string{"https://", "http://", "ssh://", "git://", "file://", "git+ssh://", "ssh+git://"} {
		if strings.HasPrefix(spec, scheme) {
			return true
		}
	}
	host, p, ok := strings.Cut(spec, ":")
	// As in git, a colon before any slash makes it scp-like; a one-letter host would be a
	// Windows drive.
	return ok && len(host) > 1 && p != "" && !strings.ContainsAny(host, "/\\")
}

// redact removes the userinfo, which may hold credentials, from a URL for messages.
func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		if u.User == nil {
			return raw
		}
		u.User = nil
		return u.String()
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return raw
	}
	host := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host = rest[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	return scheme + "://" + rest
}

// DisplayName is how a repository spec appears in reports and logs: a URL
// without the credentials its userinfo may hold, or "" for a local
// directory (a path on the machine that ran the analysis says nothing to
// the report's readers).
func DisplayName(spec string) string {
	if !isRemoteURL(spec) {
		return ""
	}
	return redact(spec)
}
