package bot

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Report pages (docs/report-page.md): the page of each change's analysis,
// stored in the cache's database (so every replica serves it) and served
// under /report/ID by a signed, expiring link. The link is in the check
// run's details and the pull request's comment, which only people who can
// read the repository see; there is no listing, and an ID without a valid
// signature gets the same 404 as one that does not exist.
const (
	// pageKind is the kind of the pages' blobs in the cache.
	pageKind = "report-page"
	// pageLinkTTL is how long a link stays valid; links expire at the end
	// of a UTC day, so that a result posted again the same day has the same
	// link and costs no comment edit.
	pageLinkTTL = 30 * 24 * time.Hour
)

// pageID names the page of a change's analysis: the same change analysed
// again replaces it.
func pageID(repo, base, head string) string {
	sum := sha256.Sum256([]byte(repo + "\x00" + base + "\x00" + head))
	return hex.EncodeToString(sum[:16])
}

// pageKey is the key of the links' signatures, derived from the webhook's
// secret, which the server always has and never shows.
func (b *Bot) pageKey() []byte {
	mac := hmac.New(sha256.New, b.cfg.GitHub.WebhookSecret)
	mac.Write([]byte("setbot report page links"))
	return mac.Sum(nil)
}

func (b *Bot) pageSignature(id string, expires int64) string {
	mac := hmac.New(sha256.New, b.pageKey())
	mac.Write([]byte(id + "\n" + strconv.FormatInt(expires, 10)))
	return hex.EncodeToString(mac.Sum(nil))
}

// pageLink is the signed link to page id; "" when the server does not
// know its public URL (public_url), so cannot link to itself.
func (b *Bot) pageLink(id string) string {
	if b.cfg.PublicURL == "" {
		return ""
	}
	const day = 24 * time.Hour
	expires := b.now().Add(pageLinkTTL).Truncate(day).Add(day).Unix()
	return strings.TrimSuffix(b.cfg.PublicURL, "/") + "/report/" + id + "?" +
		url.Values{"expires": {strconv.FormatInt(expires, 10)}, "sig": {b.pageSignature(id, expires)}}.Encode()
}

// savePage stores the page of the change id; a page that cannot be stored
// only costs the link (the check run and the comment still carry it, and
// it answers 404).
func (b *Bot) savePage(ctx context.Context, id string, page []byte) {
	if err := b.store.Put(context.WithoutCancel(ctx), pageKind, id, page); err != nil {
		b.log.Warn("storing the report page", "page", id, "err", err)
	}
}

// servePage answers GET /report/{id}: the page, when the link's signature
// is valid and it has not expired.
func (b *Bot) servePage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	expires, err := strconv.ParseInt(r.URL.Query().Get("expires"), 10, 64)
	sig := r.URL.Query().Get("sig")
	if err != nil || b.store == nil || !hmac.Equal([]byte(sig), []byte(b.pageSignature(id, expires))) {
		http.NotFound(w, r)
		return
	}
	if b.now().Unix() > expires {
		http.Error(w, "This link to a setbot report has expired: the pull request's check run has a fresh one once setbot analyses it again (comment /setbot rerun).", http.StatusGone)
		return
	}
	page, ok, err := b.store.Get(r.Context(), pageKind, id)
	switch {
	case err != nil:
		http.Error(w, "the report page could not be read", http.StatusServiceUnavailable)
		return
	case !ok:
		http.Error(w, "This report page is no longer kept (the cache evicted it): comment /setbot rerun on the pull request to analyse it again.", http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// The page needs nothing from anywhere: its own inline style and script.
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer") // the link is the credential
	h.Set("Cache-Control", "private, max-age=300")
	_, _ = w.Write(page)
}
