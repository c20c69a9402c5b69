package bot

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// HTTP server limits, per connection: webhooks are small and answered at
// once. A request's headers must arrive within the intake's HeaderTimeout
// (its body then has the intake's pace, see IntakeLimits); the read
// deadline of a whole request is the two timeouts together, and an idle
// keep-alive connection is closed after idleTimeout. Requests still in
// flight when the drain ends get a body's time and httpShutdownGrace.
const (
	writeTimeout      = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
	httpShutdownGrace = 5 * time.Second
)

// Handler routes the bot's endpoints: POST /webhook, GET /healthz
// (liveness), GET /readyz (the database answers and the server is not
// draining), GET /metrics (Prometheus) and GET /report/{id} (a report page,
// by its signed link).
func (b *Bot) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/webhook", b.ServeWebhook)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeStatus(w, http.StatusOK, "ok", "")
	})
	mux.HandleFunc("GET /readyz", b.serveReady)
	mux.Handle("GET /metrics", b.metrics.Handler())
	mux.HandleFunc("GET /report/{id}", b.servePage)
	return mux
}

func (b *Bot) isDraining() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.draining
}

func (b *Bot) serveReady(w http.ResponseWriter, r *http.Request) {
	if b.isDraining() {
		writeStatus(w, http.StatusServiceUnavailable, "draining", "the server is shutting down")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := b.store.Ping(ctx); err != nil {
		writeStatus(w, http.StatusServiceUnavailable, "unavailable", "database: "+err.Error())
		return
	}
	writeStatus(w, http.StatusOK, "ready", "")
}

func writeStatus(w http.ResponseWriter, code int, status, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]string{"status": status, "message": message})
}

// Serve answers HTTP on ln and runs the workers until ctx is done; then it
// shuts down gracefully. First the drain: running jobs get the shutdown
// timeout to finish while the server still answers, /readyz with 503 and
// deliveries with 503 (GitHub shows them as failed, to redeliver), so that
// no delivery meets a closed connection. Then the listener closes, the
// requests in flight finish, and it returns. The caller closes the store
// afterwards.
func (b *Bot) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler: b.Handler(), ReadHeaderTimeout: b.intake.HeaderTimeout, ReadTimeout: b.intake.HeaderTimeout + b.intake.BodyTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes,
		ErrorLog: slog.NewLogLogger(b.log.Handler(), slog.LevelWarn),
	}
	// Run stops with ctx, or when the listener fails.
	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	ran := make(chan error, 1)
	go func() { ran <- b.Run(runCtx) }()
	b.log.Info("serving", "addr", ln.Addr().String())

	var err error
	runDone := false
	select {
	case <-ctx.Done():
	case err = <-served:
	case err = <-ran:
		runDone = true
	}
	b.mu.Lock()
	b.draining = true
	b.mu.Unlock()
	b.log.Info("draining: running jobs finish, new deliveries are refused")
	stopRun()
	if !runDone {
		if rerr := <-ran; rerr != nil && err == nil {
			err = rerr
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), b.intake.BodyTimeout+httpShutdownGrace)
	defer cancel()
	if serr := srv.Shutdown(sctx); serr != nil && err == nil {
		err = serr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	b.log.Info("stopped")
	return err
}
