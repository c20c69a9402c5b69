package ghapi

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"
	"github.com/google/go-github/v60/github"
)

const (
	// DefaultTimeout bounds each HTTP request (each attempt of a call).
	DefaultTimeout = 30 * time.Second
	// DefaultMaxRetries is how many times a call is retried after its first attempt.
	DefaultMaxRetries = 4

	userAgent = "setbot"
)

// Config says how to reach GitHub.
type Config struct {
	// BaseURL is "" for github.com; for GitHub Enterprise Server the API URL, e.g.
	// "https://ghe.example.com/api/v3/" ("/api/v3/" is appended when missing, as go-github's
	// WithEnterpriseURLs does; the upload URL is derived the same way).
	BaseURL    string
	Token      string // a plain token (PAT or fine-grained); exclusive with AppID
	AppID      int64
	PrivateKey []byte             // the App's PEM key
	Timeout    time.Duration      // per request; 0 means DefaultTimeout
	MaxRetries int                // 0 means DefaultMaxRetries
	Logger     *slog.Logger       // nil: slog.Default()
	Metrics    func(event string) // optional: "api_error", "retry", "rate_limited", "abuse_limited"
	HTTPClient *http.Client       // optional base client; its Transport carries every request
	// Sleep waits for d or until ctx is done; nil means a timer. Tests replace it.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock rate-limit resets are measured against; nil means time.Now.
	Now func() time.Time
}

// Factory makes a Client per installation. It caches clients, and so the installation
// transports inside them, which cache their tokens.
type Factory struct {
	cfg       Config
	key       *rsa.PrivateKey // nil with a token
	base      http.RoundTripper
	baseURL   *url.URL
	uploadURL *url.URL
	// appsBaseURL is ghinstallation's BaseURL for Enterprise ("" for github.com).
	appsBaseURL string

	mu      sync.Mutex
	clients map[int64]*client
	app     *client // the App itself (JWT), for the calls about its installations
}

// NewFactory checks cfg and returns a Factory. Exactly one of Token and AppID+PrivateKey must be
// set; the key must be an RSA key in PEM; BaseURL, if set, must be an absolute http(s) URL.
func NewFactory(cfg Config) (*Factory, error) {
	switch {
	case cfg.Token != "" && (cfg.AppID != 0 || len(cfg.PrivateKey) > 0):
		return nil, errors.New("github config: set either a token or an App id and private key, not both")
	case cfg.Token == "" && cfg.AppID == 0 && len(cfg.PrivateKey) == 0:
		return nil, errors.New("github config: no credentials: set a token or an App id and private key")
	case cfg.Token == "" && cfg.AppID <= 0:
		return nil, fmt.Errorf("github config: App id must be positive, got %d", cfg.AppID)
	case cfg.Token == "" && len(cfg.PrivateKey) == 0:
		return nil, errors.New("github config: App private key is empty")
	case cfg.Timeout < 0:
		return nil, fmt.Errorf("github config: negative timeout %v", cfg.Timeout)
	case cfg.MaxRetries < 0:
		return nil, fmt.Errorf("github config: negative max retries %d", cfg.MaxRetries)
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Metrics == nil {
		cfg.Metrics = func(string) {}
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleep
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	f := &Factory{cfg: cfg, base: http.DefaultTransport, clients: make(map[int64]*client)}
	if cfg.HTTPClient != nil && cfg.HTTPClient.Transport != nil {
		f.base = cfg.HTTPClient.Transport
	}

	gh := github.NewClient(nil)
	if cfg.BaseURL != "" {
		u, err := url.Parse(cfg.BaseURL)
		if err != nil {
			return nil, fmt.Errorf("github config: base URL: %w", err)
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("github config: base URL %q is not an absolute http(s) URL", cfg.BaseURL)
		}
		// Uploads live beside the API: https://ghe.example.com/api/uploads/.
		upload := strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/api/v3")
		up := *u
		up.Path = upload
		if gh, err = gh.WithEnterpriseURLs(u.String(), up.String()); err != nil {
			return nil, fmt.Errorf("github config: base URL: %w", err)
		}
		f.appsBaseURL = strings.TrimSuffix(gh.BaseURL.String(), "/")
	}
	f.baseURL, f.uploadURL = gh.BaseURL, gh.UploadURL

	if cfg.Token == "" {
		key, err := parseRSAKey(cfg.PrivateKey)
		if err != nil {
			return nil, fmt.Errorf("github config: App private key: %w", err)
		}
		f.key = key
	}
	return f, nil
}

// parseRSAKey reads a PEM-encoded RSA private key (PKCS #1, as GitHub issues them, or PKCS #8).
// Its errors never quote the key.
func parseRSAKey(data []byte) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("not PEM: want a block starting with -----BEGIN RSA PRIVATE KEY-----")
	}
	switch block.Type {
	case "RSA PRIVATE KEY":
		key, err := x509.ParsePKCS1PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("parsing RSA PRIVATE KEY block: %w", err)
		}
		return key, nil
	case "PRIVATE KEY":
		key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("parsing PRIVATE KEY block: %w", err)
		}
		rsaKey, ok := key.(*rsa.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("PRIVATE KEY block holds a %T, want an RSA key", key)
		}
		return rsaKey, nil
	default:
		return nil, fmt.Errorf("PEM block is %q, want RSA PRIVATE KEY", block.Type)
	}
}

// Client returns the Client for an App installation. With a token, installationID is ignored
// and every call returns the same Client.
func (f *Factory) Client(installationID int64) (Client, error) {
	if f.key == nil {
		installationID = 0
	} else if installationID <= 0 {
		return nil, fmt.Errorf("github client: installation id must be positive, got %d", installationID)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if c, ok := f.clients[installationID]; ok {
		return c, nil
	}
	c := &client{cfg: f.cfg, baseURL: f.baseURL, uploadURL: f.uploadURL, installationID: installationID}
	c.remaining.Store(-1)
	var rt http.RoundTripper
	if f.key == nil {
		rt = bearerTransport{token: f.cfg.Token, base: f.base}
	} else {
		// A fresh AppsTransport per installation, as ghinstallation.New makes: the installation
		// transport writes its BaseURL into the AppsTransport on every token refresh, so sharing
		// one between installations would race.
		atr := ghinstallation.NewAppsTransportFromPrivateKey(f.base, f.cfg.AppID, f.key)
		if f.appsBaseURL != "" {
			atr.BaseURL = f.appsBaseURL
		}
		c.itr = ghinstallation.NewFromAppsTransport(atr, installationID)
		rt = c.itr
	}
	hc := &http.Client{}
	if f.cfg.HTTPClient != nil {
		*hc = *f.cfg.HTTPClient
	}
	hc.Transport = rt
	c.http = hc
	f.clients[installationID] = c
	return c, nil
}

// Installations lists the ids of the App's installations that are not suspended (all pages);
// with a plain token, none.
func (f *Factory) Installations(ctx context.Context) ([]int64, error) {
	if f.key == nil {
		return nil, nil
	}
	f.mu.Lock()
	if f.app == nil {
		atr := ghinstallation.NewAppsTransportFromPrivateKey(f.base, f.cfg.AppID, f.key)
		if f.appsBaseURL != "" {
			atr.BaseURL = f.appsBaseURL
		}
		hc := &http.Client{}
		if f.cfg.HTTPClient != nil {
			*hc = *f.cfg.HTTPClient
		}
		hc.Transport = atr
		f.app = &client{cfg: f.cfg, baseURL: f.baseURL, uploadURL: f.uploadURL, http: hc}
		f.app.remaining.Store(-1)
	}
	app := f.app
	f.mu.Unlock()
	var out []int64
	opts := &github.ListOptions{PerPage: listPerPage, Page: 1}
	for {
		var (
			insts []*github.Installation
			next  int
		)
		o := op{what: fmt.Sprintf("listing the App's installations (page %d)", opts.Page)}
		err := app.do(ctx, o, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
			insts, resp, err = gh.Apps.ListInstallations(ctx, opts)
			if resp != nil {
				next = resp.NextPage
			}
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, in := range insts {
			if in.SuspendedAt == nil {
				out = append(out, in.GetID())
			}
		}
		if next == 0 {
			return out, nil
		}
		opts.Page = next
	}
}

// bearerTransport authenticates requests with a plain token, as go-github's WithAuthToken does.
type bearerTransport struct {
	token string
	base  http.RoundTripper
}

func (t bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+t.token)
	return t.base.RoundTrip(req)
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
