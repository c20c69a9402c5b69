package bot

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/config"
)

// Intake defaults. Anyone can open connections to /webhook, and a body is
// read into memory before its signature can be checked, so what a
// connection may hold is bounded by what it sends, not by what it
// declares: its headers within DefaultHeaderTimeout; its body at
// DefaultMinBodyRate or faster after a grace of DefaultBodyGrace, and
// whole within DefaultBodyTimeout (GitHub itself gives up on a delivery
// after 10 s). A client below the rate is cut, so a slow client holds a
// connection for seconds, and nothing a genuine delivery waits for.
const (
	DefaultHeaderTimeout = 10 * time.Second
	DefaultBodyTimeout   = 10 * time.Second
	DefaultBodyGrace     = 2 * time.Second
	DefaultMinBodyRate   = 4 << 10 // bytes per second
)

// Memory of the bodies being read. Each body reads its first freeBodyBytes
// (more than GitHub's usual deliveries) on its own account; the bytes it
// receives beyond them come, in chunks of bodyChunk as they arrive, from a
// budget of MaxConcurrentReads bodies of max_body_bytes shared by all. A
// body waits for room in it no longer than its rate allows, then is
// answered 503. Nothing is taken for a length a client declares.
const (
	MaxConcurrentReads = 32
	freeBodyBytes      = 256 << 10
	bodyChunk          = 64 << 10
)

// DefaultMaxBodyBytes caps a webhook body: GitHub sends at most 25 MiB.
const DefaultMaxBodyBytes = 25 << 20

// IntakeLimits bound how long a webhook request may take to arrive; a
// zero field takes its default.
type IntakeLimits struct {
	HeaderTimeout time.Duration // the request's headers, from the connection's first byte or its last request
	BodyTimeout   time.Duration // the whole body, from the headers
	BodyGrace     time.Duration // before the minimum rate applies
	MinBodyRate   int64         // bytes per second: by BodyGrace + n/MinBodyRate after the headers, more than n bytes have arrived
}

// withDefaults is l with its zero fields set to the defaults.
func (l IntakeLimits) withDefaults() IntakeLimits {
	l.HeaderTimeout = cmp.Or(l.HeaderTimeout, DefaultHeaderTimeout)
	l.BodyTimeout = cmp.Or(l.BodyTimeout, DefaultBodyTimeout)
	l.BodyGrace = cmp.Or(l.BodyGrace, DefaultBodyGrace)
	l.MinBodyRate = cmp.Or(l.MinBodyRate, DefaultMinBodyRate)
	return l
}

// deadline is when a body of which got bytes arrived since start must have
// its next byte: it falls behind the minimum rate then, or its time is up.
func (l IntakeLimits) deadline(start time.Time, got int64) time.Time {
	behind := start.Add(l.BodyGrace + time.Duration(float64(got)/float64(l.MinBodyRate)*float64(time.Second)))
	if end := start.Add(l.BodyTimeout); end.Before(behind) {
		return end
	}
	return behind
}

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

// Why a body was not read whole.
var (
	errSlowBody = errors.New("the body arrived too slowly")
	errBusy     = errors.New("too many large bodies at once")
)

// readBody reads r's body, of at most limit bytes, at the pace the intake
// limits ask for. It fails with an *http.MaxBytesError for a body over the
// limit, errSlowBody for one that fell behind the minimum rate or the body
// timeout, and errBusy when the shared budget had no room in time.
func (b *Bot) readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	rc := http.NewResponseController(w)
	start := time.Now()
	in := http.MaxBytesReader(w, r.Body, limit)
	var (
		chunks [][]byte
		got    int64 // bytes received
		held   int64 // bytes taken from the shared budget
	)
	defer func() { b.reading.release(held) }()
	for {
		deadline := b.intake.deadline(start, got)
		_ = rc.SetReadDeadline(deadline)
		if len(chunks) == 0 || len(chunks[len(chunks)-1]) == cap(chunks[len(chunks)-1]) {
			size := int64(bodyChunk)
			if got == 0 && r.ContentLength >= 0 {
				// One allocation for a small body; a large declared
				// length is not trusted with memory before it arrives.
				size = min(r.ContentLength+1, freeBodyBytes)
			}
			if got+size > freeBodyBytes {
				ctx, cancel := context.WithDeadline(r.Context(), deadline)
				ok := b.reading.acquire(ctx, size)
				cancel()
				if !ok {
					return nil, errBusy
				}
				held += size
			}
			chunks = append(chunks, make([]byte, 0, size))
		}
		c := chunks[len(chunks)-1]
		n, err := in.Read(c[len(c):cap(c)])
		chunks[len(chunks)-1] = c[:len(c)+n]
		got += int64(n)
		switch {
		case err == io.EOF:
			return slices.Concat(chunks...), nil
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, errSlowBody
		case err != nil:
			return nil, err
		}
	}
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
// constant time) on a body of bounded size, read at the intake's pace
// (408 when it falls behind; readBody), and writes the event's jobs to
// the queue before answering 202. A bad signature is 401 and nothing is
// queued; a delivery seen before is acknowledged and not queued again.
// While the server drains it answers 503, which GitHub lists as a failed
// delivery to redeliver.
func (b *Bot) ServeWebhook(w http.ResponseWriter, r *http.Request) {
	event := r.Header.Get("X-GitHub-Event")
	code, a := b.takeDelivery(w, r, event)
	b.metrics.webhooks.WithLabelValues(metricEvent(event), a.Status).Inc()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(a)
}

// takeDelivery does what ServeWebhook does but write the answer, which it
// returns with its status code.
func (b *Bot) takeDelivery(w http.ResponseWriter, r *http.Request, event string) (int, webhookAnswer) {
	delivery := r.Header.Get("X-GitHub-Delivery")
	log := b.log.With("delivery", delivery, "event", event)
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return http.StatusMethodNotAllowed, webhookAnswer{Status: "error", Message: "webhooks are POSTed"}
	}
	if b.isDraining() {
		return http.StatusServiceUnavailable, webhookAnswer{Status: "error", Message: "the server is shutting down; redeliver this delivery"}
	}
	body, code, a := b.receiveBody(w, r, log)
	if body == nil {
		return code, a
	}
	if !validSignature(b.cfg.GitHub.WebhookSecret, body, r.Header.Get("X-Hub-Signature-256")) {
		log.Warn("webhook signature invalid", "remote", r.RemoteAddr)
		return http.StatusUnauthorized, webhookAnswer{Status: "error", Message: "invalid or missing X-Hub-Signature-256"}
	}
	if event == "" || delivery == "" {
		return http.StatusBadRequest, webhookAnswer{Status: "error", Message: "X-GitHub-Event and X-GitHub-Delivery are required"}
	}
	if event == "ping" {
		return http.StatusOK, webhookAnswer{Status: "ignored", Message: "pong"}
	}
	h := b.handlers[event]
	if h == nil {
		return http.StatusOK, webhookAnswer{Status: "ignored", Message: "event " + event + " is not handled"}
	}
	jobs, ignored, err := h.Handle(r.Context(), event, delivery, body)
	if err != nil {
		log.Warn("webhook payload malformed", "err", err)
		return http.StatusBadRequest, webhookAnswer{Status: "error", Message: err.Error()}
	}
	if len(jobs) == 0 {
		log.Debug("webhook ignored", "reason", ignored)
		return http.StatusOK, webhookAnswer{Status: "ignored", Message: ignored}
	}
	return b.queueDelivery(r.Context(), log, delivery, jobs)
}

// receiveBody reads a delivery's body within the server's limits of size
// and speed; on failure the body is nil and the answer says why.
func (b *Bot) receiveBody(w http.ResponseWriter, r *http.Request, log *slog.Logger) ([]byte, int, webhookAnswer) {
	limit := maxBody(b.cfg)
	tooBig := func() ([]byte, int, webhookAnswer) {
		log.Warn("webhook body over the cap", "limit", limit)
		return nil, http.StatusRequestEntityTooLarge, webhookAnswer{Status: "error", Message: fmt.Sprintf("body over %d bytes", limit)}
	}
	if r.ContentLength > limit {
		return tooBig()
	}
	b.metrics.reading.Inc()
	body, err := b.readBody(w, r, limit)
	b.metrics.reading.Dec()
	var over *http.MaxBytesError
	switch {
	case errors.As(err, &over):
		return tooBig()
	case errors.Is(err, errSlowBody):
		log.Warn("webhook body too slow", "remote", r.RemoteAddr)
		return nil, http.StatusRequestTimeout, webhookAnswer{Status: "error", Message: fmt.Sprintf("the body must arrive within %v, at %d bytes/s or more after the first %v",
			b.intake.BodyTimeout, b.intake.MinBodyRate, b.intake.BodyGrace)}
	case errors.Is(err, errBusy):
		w.Header().Set("Retry-After", "1")
		return nil, http.StatusServiceUnavailable, webhookAnswer{Status: "error", Message: "too many large deliveries at once; retry"}
	case err != nil:
		return nil, http.StatusBadRequest, webhookAnswer{Status: "error", Message: "reading the body: " + err.Error()}
	}
	if body == nil {
		body = []byte{}
	}
	return body, 0, webhookAnswer{}
}

// queueDelivery stores the jobs of one delivery, all or none.
func (b *Bot) queueDelivery(ctx context.Context, log *slog.Logger, delivery string, jobs []queue.Job) (int, webhookAnswer) {
	for i := range jobs {
		jobs[i].Delivery = delivery
	}
	ids, duplicate, err := b.enqueue(ctx, jobs...)
	if errors.Is(err, queue.ErrInvalidJob) {
		log.Warn("webhook payload lacks what a job needs", "err", err)
		return http.StatusBadRequest, webhookAnswer{Status: "error", Message: err.Error()}
	}
	if err != nil {
		log.Error("enqueueing jobs", "repo", jobs[0].Repo, "pr", jobs[0].PR, "sha", jobs[0].HeadSHA, "err", err)
		return http.StatusInternalServerError, webhookAnswer{Status: "error", Message: "the job could not be stored; redeliver later"}
	}
	if duplicate {
		return http.StatusOK, webhookAnswer{Status: "duplicate", Message: "delivery " + delivery + " was received before"}
	}
	for i, j := range jobs {
		log.Info("job queued", "job", ids[i], "kind", j.Kind, "repo", j.Repo, "pr", j.PR, "sha", j.HeadSHA)
	}
	return http.StatusAccepted, webhookAnswer{Status: "queued", Jobs: ids}
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
