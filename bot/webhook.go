package bot

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/config"
)

// Intake limits. Bodies are read into memory before their signature can be
// checked, so the bytes read at once are bounded: MaxConcurrentReads bodies
// of max_body_bytes. A delivery reserves the length it declares only once
// its headers are in, so a client that is slow or idle before then holds
// nothing, and one that is slow with its body holds what it declared (a few
// KiB for GitHub's deliveries), never a slot a genuine delivery waits for.
// A delivery waits up to readSlotWait for room, then is refused 503; its
// body must arrive within bodyReadTimeout of its headers.
const (
	MaxConcurrentReads = 32
	readSlotWait       = 5 * time.Second
	bodyReadTimeout    = 10 * time.Second
)

// DefaultMaxBodyBytes caps a webhook body: GitHub sends at most 25 MiB.
const DefaultMaxBodyBytes = 25 << 20

// maxBody is the configured cap on a webhook body.
func maxBody(cfg *config.Server) int64 {
	if cfg.MaxBodyBytes <= 0 {
		return DefaultMaxBodyBytes
	}
	return cfg.MaxBodyBytes
}

// budget is a number of bytes shared by the bodies being read.
type budget struct {
	mu      sync.Mutex
	free    int64
	size    int64
	changed chan struct{} // closed when bytes are released
}

func newBudget(size int64) *budget {
	return &budget{free: size, size: size, changed: make(chan struct{})}
}

// acquire takes n bytes (at most the whole budget), waiting until they are
// free or ctx is done; it reports whether it took them.
func (b *budget) acquire(ctx context.Context, n int64) bool {
	n = min(n, b.size)
	for {
		b.mu.Lock()
		if b.free >= n {
			b.free -= n
			b.mu.Unlock()
			return true
		}
		changed := b.changed
		b.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
}

// release gives back n bytes acquire took.
func (b *budget) release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.free += min(n, b.size)
	close(b.changed)
	b.changed = make(chan struct{})
}

// EventHandler turns one kind of webhook event into jobs. Handle returns
// the jobs to enqueue, or none and the reason the event is ignored; an
// error means the payload is malformed (the answer is 400).
type EventHandler interface {
	Handles() []string
	Handle(ctx context.Context, eventType, deliveryID string, payload []byte) (jobs []queue.Job, ignored string, err error)
}

// webhookAnswer is the JSON body of every answer to a webhook.
type webhookAnswer struct {
	Status  string  `json:"status"` // queued, duplicate, ignored, error
	Jobs    []int64 `json:"jobs,omitempty"`
	Message string  `json:"message,omitempty"`
}

// ServeWebhook answers POST /webhook: it checks the signature (HMAC SHA-256
// of the body with the webhook secret, X-Hub-Signature-256, compared in
// constant time) on a body of bounded size, and writes the event's jobs to
// the queue before answering 202. A bad signature is 401 and nothing is
// queued; a delivery seen before is acknowledged and not queued again.
// While the server drains it answers 503, which GitHub lists as a failed
// delivery to redeliver.
func (b *Bot) ServeWebhook(w http.ResponseWriter, r *http.Request) {
	event := r.Header.Get("X-GitHub-Event")
	delivery := r.Header.Get("X-GitHub-Delivery")
	log := b.log.With("delivery", delivery, "event", event)
	answer := func(code int, a webhookAnswer) {
		b.metrics.webhooks.WithLabelValues(metricEvent(event), a.Status).Inc()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_ = json.NewEncoder(w).Encode(a)
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		answer(http.StatusMethodNotAllowed, webhookAnswer{Status: "error", Message: "webhooks are POSTed"})
		return
	}
	if b.isDraining() {
		answer(http.StatusServiceUnavailable, webhookAnswer{Status: "error", Message: "the server is shutting down; redeliver this delivery"})
		return
	}
	limit := maxBody(b.cfg)
	tooBig := func() {
		log.Warn("webhook body over the cap", "limit", limit)
		answer(http.StatusRequestEntityTooLarge, webhookAnswer{Status: "error", Message: fmt.Sprintf("body over %d bytes", limit)})
	}
	if r.ContentLength > limit {
		tooBig()
		return
	}
	// Bodies are read before the signature can be checked: bound the bytes
	// read at once, so unsigned traffic cannot exhaust memory. GitHub does
	// not redeliver on its own, so wait a little for room before refusing.
	need := limit
	if r.ContentLength >= 0 {
		need = r.ContentLength
	}
	wctx, cancel := context.WithTimeout(r.Context(), readSlotWait)
	ok := b.reading.acquire(wctx, need)
	cancel()
	if !ok {
		if r.Context().Err() != nil {
			return
		}
		w.Header().Set("Retry-After", "1")
		answer(http.StatusServiceUnavailable, webhookAnswer{Status: "error", Message: "too many deliveries at once; retry"})
		return
	}
	defer b.reading.release(need)
	b.metrics.reading.Inc()
	defer b.metrics.reading.Dec()
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyReadTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var over *http.MaxBytesError
	if errors.As(err, &over) {
		tooBig()
		return
	}
	if err != nil {
		answer(http.StatusBadRequest, webhookAnswer{Status: "error", Message: "reading the body: " + err.Error()})
		return
	}
	if !validSignature(b.cfg.GitHub.WebhookSecret, body, r.Header.Get("X-Hub-Signature-256")) {
		log.Warn("webhook signature invalid", "remote", r.RemoteAddr)
		answer(http.StatusUnauthorized, webhookAnswer{Status: "error", Message: "invalid or missing X-Hub-Signature-256"})
		return
	}
	if event == "" || delivery == "" {
		answer(http.StatusBadRequest, webhookAnswer{Status: "error", Message: "X-GitHub-Event and X-GitHub-Delivery are required"})
		return
	}
	if event == "ping" {
		answer(http.StatusOK, webhookAnswer{Status: "ignored", Message: "pong"})
		return
	}
	h := b.handlers[event]
	if h == nil {
		answer(http.StatusOK, webhookAnswer{Status: "ignored", Message: "event " + event + " is not handled"})
		return
	}
	jobs, ignored, err := h.Handle(r.Context(), event, delivery, body)
	if err != nil {
		log.Warn("webhook payload malformed", "err", err)
		answer(http.StatusBadRequest, webhookAnswer{Status: "error", Message: err.Error()})
		return
	}
	if len(jobs) == 0 {
		log.Debug("webhook ignored", "reason", ignored)
		answer(http.StatusOK, webhookAnswer{Status: "ignored", Message: ignored})
		return
	}
	for i := range jobs {
		jobs[i].Delivery = delivery
	}
	ids, duplicate, err := b.enqueue(r.Context(), jobs...)
	if errors.Is(err, queue.ErrInvalidJob) {
		log.Warn("webhook payload lacks what a job needs", "err", err)
		answer(http.StatusBadRequest, webhookAnswer{Status: "error", Message: err.Error()})
		return
	}
	if err != nil {
		log.Error("enqueueing jobs", "repo", jobs[0].Repo, "pr", jobs[0].PR, "sha", jobs[0].HeadSHA, "err", err)
		answer(http.StatusInternalServerError, webhookAnswer{Status: "error", Message: "the job could not be stored; redeliver later"})
		return
	}
	if duplicate {
		answer(http.StatusOK, webhookAnswer{Status: "duplicate", Message: "delivery " + delivery + " was received before"})
		return
	}
	for i, j := range jobs {
		log.Info("job queued", "job", ids[i], "kind", j.Kind, "repo", j.Repo, "pr", j.PR, "sha", j.HeadSHA)
	}
	answer(http.StatusAccepted, webhookAnswer{Status: "queued", Jobs: ids})
}

// validSignature checks GitHub's X-Hub-Signature-256 header, "sha256=" and
// the hex HMAC-SHA256 of body; SHA-1 signatures are not accepted.
func validSignature(secret, body []byte, header string) bool {
	hexSum, ok := strings.CutPrefix(header, "sha256=")
	if !ok || len(secret) == 0 {
		return false
	}
	got, err := hex.DecodeString(hexSum)
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return hmac.Equal(got, mac.Sum(nil))
}

// metricEvent bounds the event label to the events GitHub sends.
func metricEvent(event string) string {
	switch event {
	case "pull_request", "push", "check_run", "check_suite", "merge_group", "issue_comment", "ping":
		return event
	}
	return "other"
}
