package ghapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// request is what the fake GitHub saw.
type request struct {
	Method, Path, RawQuery string
	Auth, UserAgent        string
	Body                   map[string]any // decoded JSON; nil without a body
}

// handler answers the n-th (from 1) request to its route.
type handler func(w http.ResponseWriter, r *http.Request, n int)

// fakeGitHub is an httptest server standing in for the GitHub API. Routes are "METHOD /path";
// a request to any other route fails the test.
type fakeGitHub struct {
	t   *testing.T
	srv *httptest.Server

	mu     sync.Mutex
	routes map[string]handler
	counts map[string]int
	reqs   []request
}

func newFake(t *testing.T) *fakeGitHub {
	t.Helper()
	f := &fakeGitHub{t: t, routes: make(map[string]handler), counts: make(map[string]int)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeGitHub) handle(route string, h handler) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.routes[route] = h
}

func (f *fakeGitHub) serve(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("reading request body: %v", err)
	}
	req := request{
		Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
		Auth: r.Header.Get("Authorization"), UserAgent: r.Header.Get("User-Agent"),
	}
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &req.Body); err != nil {
			f.t.Errorf("%s %s: body is not a JSON object: %v\n%s", r.Method, r.URL.Path, err, raw)
		}
	}
	route := r.Method + " " + r.URL.Path
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.counts[route]++
	n := f.counts[route]
	h := f.routes[route]
	f.mu.Unlock()
	if h == nil {
		f.t.Errorf("unexpected request %s", route)
		http.Error(w, `{"message":"no route"}`, http.StatusTeapot)
		return
	}
	h(w, r, n)
}

// requests returns the requests seen so far.
func (f *fakeGitHub) requests() []request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]request(nil), f.reqs...)
}

// reply writes a JSON response.
func reply(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// answer is a handler that always writes the same JSON response.
func answer(status int, body string) handler {
	return func(w http.ResponseWriter, _ *http.Request, _ int) { reply(w, status, body) }
}

// recorder collects what a client reports through its hooks.
type recorder struct {
	mu     sync.Mutex
	waits  []time.Duration
	events []string
	logs   bytes.Buffer
}

// sleep records the wait and returns at once.
func (r *recorder) sleep(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waits = append(r.waits, d)
	return ctx.Err()
}

func (r *recorder) metric(event string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, event)
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.Write(p)
}

func (r *recorder) sleeps() []time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]time.Duration(nil), r.waits...)
}

func (r *recorder) metrics() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...)
}

func (r *recorder) logged() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logs.String()
}

const testToken = "ghp_testtoken0123456789"

// testConfig is a token Config for the fake with hooks into rec.
func testConfig(f *fakeGitHub, rec *recorder) Config {
	return Config{
		BaseURL:    f.srv.URL + "/api/v3/",
		Token:      testToken,
		Logger:     slog.New(slog.NewTextHandler(rec, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Metrics:    rec.metric,
		HTTPClient: f.srv.Client(),
		Sleep:      rec.sleep,
	}
}

// newTestClient returns a token Client talking to f.
func newTestClient(t *testing.T, f *fakeGitHub) (Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	c := clientFor(t, testConfig(f, rec), 0)
	return c, rec
}

func clientFor(t *testing.T, cfg Config, installationID int64) Client {
	t.Helper()
	fac, err := NewFactory(cfg)
	if err != nil {
		t.Fatalf("NewFactory: %v", err)
	}
	c, err := fac.Client(installationID)
	if err != nil {
		t.Fatalf("Client(%d): %v", installationID, err)
	}
	return c
}

// jsonField walks a decoded JSON body along keys ("output", "title").
func jsonField(body map[string]any, keys ...string) any {
	var v any = body
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
