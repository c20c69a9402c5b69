package ghapi

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"
)

const testAppID = 4321

// appKey is one RSA key for all App tests: generating 2048-bit keys is slow.
var appKey = sync.OnceValue(func() *rsa.PrivateKey {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return key
})

func appKeyPEM() []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(appKey())})
}

// checkAppJWT checks that auth is "Bearer <JWT>" signed with appKey (RS256) and issued by the App.
func checkAppJWT(t *testing.T, auth string) {
	t.Helper()
	parts := strings.Split(strings.TrimPrefix(auth, "Bearer "), ".")
	if !strings.HasPrefix(auth, "Bearer ") || len(parts) != 3 {
		t.Errorf("Authorization %q is not a bearer JWT", auth)
		return
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		t.Errorf("JWT signature: %v", err)
		return
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if err := rsa.VerifyPKCS1v15(&appKey().PublicKey, crypto.SHA256, digest[:], sig); err != nil {
		t.Errorf("JWT not signed with the App key: %v", err)
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Errorf("JWT payload: %v", err)
		return
	}
	var claims struct {
		Iss string `json:"iss"`
	}
	if err := json.Unmarshal(payload, &claims); err != nil || claims.Iss != fmt.Sprint(testAppID) {
		t.Errorf("JWT claims %s: want iss %d (%v)", payload, testAppID, err)
	}
}

// serveTokens serves installation tokens "ghs_<id>" for the given installations.
func serveTokens(t *testing.T, f *fakeGitHub, ids ...int64) {
	for _, id := range ids {
		f.handle(fmt.Sprintf("POST /api/v3/app/installations/%d/access_tokens", id), func(w http.ResponseWriter, r *http.Request, _ int) {
			checkAppJWT(t, r.Header.Get("Authorization"))
			reply(w, 201, fmt.Sprintf(`{"token":"ghs_%d","expires_at":%q}`, id, time.Now().Add(time.Hour).UTC().Format(time.RFC3339)))
		})
	}
}

func appConfig(f *fakeGitHub, rec *recorder) Config {
	cfg := testConfig(f, rec)
	cfg.Token, cfg.AppID, cfg.PrivateKey = "", testAppID, appKeyPEM()
	return cfg
}

func TestAppAuth(t *testing.T) {
	f := newFake(t)
	serveTokens(t, f, 42, 43)
	f.handle(prRoute, answer(200, prJSON))
	rec := &recorder{}
	fac, err := NewFactory(appConfig(f, rec))
	if err != nil {
		t.Fatal(err)
	}
	c, err := fac.Client(42)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for range 2 {
		if _, err := c.PullRequest(ctx, repo, 12); err != nil {
			t.Fatalf("PullRequest: %v", err)
		}
	}
	tok, err := c.GitToken(ctx)
	if err != nil || tok != "ghs_42" {
		t.Errorf("GitToken() = %q, %v; want ghs_42", tok, err)
	}
	again, err := fac.Client(42)
	if err != nil || again != c {
		t.Errorf("Client(42) again = %p, %v; want the cached client %p", again, err, c)
	}
	other, err := fac.Client(43)
	if err != nil {
		t.Fatal(err)
	}
	if tok, err := other.GitToken(ctx); err != nil || tok != "ghs_43" {
		t.Errorf("installation 43: GitToken() = %q, %v; want ghs_43", tok, err)
	}

	var got []string
	for _, r := range f.requests() {
		got = append(got, r.Method+" "+r.Path+" "+strings.Fields(r.Auth + " -")[0])
	}
	want := []string{
		"POST /api/v3/app/installations/42/access_tokens Bearer", // the token is fetched once and cached
		prRoute + " token",
		prRoute + " token",
		"POST /api/v3/app/installations/43/access_tokens Bearer",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("requests\n got %q\nwant %q", got, want)
	}
	for _, r := range f.requests() {
		if r.Path == "/api/v3/repos/octo/models/pulls/12" && r.Auth != "token ghs_42" {
			t.Errorf("API call authorised with %q, want the installation token", r.Auth)
		}
	}
	if strings.Contains(rec.logged(), "ghs_") {
		t.Errorf("a token is in the log:\n%s", rec.logged())
	}
}

// TestInstallations: the App lists its installations with its JWT, and an installation its
// repositories with its token.
func TestInstallations(t *testing.T) {
	f := newFake(t)
	serveTokens(t, f, 42)
	f.handle("GET /api/v3/app/installations", func(w http.ResponseWriter, r *http.Request, _ int) {
		checkAppJWT(t, r.Header.Get("Authorization"))
		reply(w, 200, `[{"id":42},{"id":43,"suspended_at":"2026-01-01T00:00:00Z"}]`)
	})
	f.handle("GET /api/v3/installation/repositories", func(w http.ResponseWriter, r *http.Request, _ int) {
		if r.Header.Get("Authorization") != "token ghs_42" {
			t.Errorf("repositories listed with %q", r.Header.Get("Authorization"))
		}
		reply(w, 200, `{"total_count":1,"repositories":[{"name":"models","owner":{"login":"octo"},"clone_url":"https://github.com/octo/models.git"}]}`)
	})
	fac, err := NewFactory(appConfig(f, &recorder{}))
	if err != nil {
		t.Fatal(err)
	}
	ids, err := fac.Installations(context.Background())
	if err != nil || !reflect.DeepEqual(ids, []int64{42}) {
		t.Fatalf("Installations() = %v, %v; want [42] (43 is suspended)", ids, err)
	}
	c, err := fac.Client(42)
	if err != nil {
		t.Fatal(err)
	}
	repos, err := c.Repositories(context.Background())
	want := []Repository{{Repo: repo, CloneURL: "https://github.com/octo/models.git"}}
	if err != nil || !reflect.DeepEqual(repos, want) {
		t.Errorf("Repositories() = %+v, %v; want %+v", repos, err, want)
	}

	tok, err := NewFactory(testConfig(f, &recorder{}))
	if err != nil {
		t.Fatal(err)
	}
	if ids, err := tok.Installations(context.Background()); err != nil || ids != nil {
		t.Errorf("Installations() with a token = %v, %v; want none", ids, err)
	}
}

func TestAppTokenErrors(t *testing.T) {
	t.Run("401 not retried", func(t *testing.T) {
		f := newFake(t)
		f.handle("POST /api/v3/app/installations/42/access_tokens", answer(401, `{"message":"Bad credentials"}`))
		rec := &recorder{}
		c := clientFor(t, appConfig(f, rec), 42)
		_, err := c.PullRequest(context.Background(), repo, 12)
		var httpErr *ghinstallation.HTTPError
		if !errors.As(err, &httpErr) || !IsTokenError(err) {
			t.Fatalf("err = %v, want ghinstallation's HTTPError", err)
		}
		var later *RetryLaterError
		if errors.As(err, &later) {
			t.Errorf("a refused App is retried later: %v", err)
		}
		if len(f.requests()) != 1 || len(rec.sleeps()) != 0 {
			t.Errorf("%d requests, waits %v; want one request and no retry", len(f.requests()), rec.sleeps())
		}
	})

	t.Run("403 left for later", func(t *testing.T) {
		f := newFake(t)
		f.handle("POST /api/v3/app/installations/42/access_tokens", answer(403, `{"message":"Forbidden"}`))
		rec := &recorder{}
		c := clientFor(t, appConfig(f, rec), 42)
		_, err := c.GitToken(context.Background())
		var later *RetryLaterError
		if !errors.As(err, &later) || !later.At.IsZero() || !IsTokenError(err) {
			t.Fatalf("err = %#v, want a token error to retry later", err)
		}
		if len(rec.sleeps()) != 0 {
			t.Errorf("waits %v, want none in place", rec.sleeps())
		}
	})

	t.Run("403 with a reset", func(t *testing.T) {
		now := time.Unix(1_800_000_000, 0)
		f := newFake(t)
		f.handle("POST /api/v3/app/installations/42/access_tokens", func(w http.ResponseWriter, r *http.Request, _ int) {
			w.Header().Set("X-RateLimit-Remaining", "0")
			w.Header().Set("X-RateLimit-Reset", fmt.Sprint(now.Add(20*time.Minute).Unix()))
			reply(w, 403, `{"message":"API rate limit exceeded"}`)
		})
		rec := &recorder{}
		cfg := appConfig(f, rec)
		cfg.Now = func() time.Time { return now }
		c := clientFor(t, cfg, 42)
		_, err := c.PullRequest(context.Background(), repo, 12)
		var later *RetryLaterError
		if !errors.As(err, &later) || !later.At.Equal(now.Add(20*time.Minute+rateLimitSlack)) || !IsTokenError(err) {
			t.Fatalf("err = %#v, want a token error to retry at the reset", err)
		}
	})

	t.Run("503 retried", func(t *testing.T) {
		f := newFake(t)
		f.handle("POST /api/v3/app/installations/42/access_tokens", func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 1 {
				reply(w, 503, `{"message":"unavailable"}`)
				return
			}
			reply(w, 201, `{"token":"ghs_42","expires_at":"`+time.Now().Add(time.Hour).UTC().Format(time.RFC3339)+`"}`)
		})
		rec := &recorder{}
		c := clientFor(t, appConfig(f, rec), 42)
		tok, err := c.GitToken(context.Background())
		if err != nil || tok != "ghs_42" {
			t.Errorf("GitToken() = %q, %v; want ghs_42 after a retry", tok, err)
		}
		if n := len(rec.sleeps()); n != 1 {
			t.Errorf("%d waits, want 1", n)
		}
	})
}

func TestNewFactoryErrors(t *testing.T) {
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, err := x509.MarshalPKCS8PrivateKey(ecKey)
	if err != nil {
		t.Fatal(err)
	}
	ecPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER})
	badPEM := []byte("-----BEGIN RSA PRIVATE KEY-----\nc2VjcmV0LWtleS1ieXRlcw==\n-----END RSA PRIVATE KEY-----\n")

	tests := []struct {
		name string
		cfg  Config
		want string // in the error
	}{
		{"nothing", Config{}, "no credentials"},
		{"both", Config{Token: "t", AppID: 1, PrivateKey: appKeyPEM()}, "not both"},
		{"App without key", Config{AppID: 1}, "private key is empty"},
		{"key without App", Config{PrivateKey: appKeyPEM()}, "App id must be positive"},
		{"not PEM", Config{AppID: 1, PrivateKey: []byte("secret-key-bytes")}, "App private key: not PEM"},
		{"bad RSA PEM", Config{AppID: 1, PrivateKey: badPEM}, "App private key: parsing RSA PRIVATE KEY block"},
		{"EC key", Config{AppID: 1, PrivateKey: ecPEM}, "want an RSA key"},
		{"certificate", Config{AppID: 1, PrivateKey: []byte("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")}, `PEM block is "CERTIFICATE"`},
		{"relative URL", Config{Token: "t", BaseURL: "ghe.example.com/api/v3/"}, "not an absolute http(s) URL"},
		{"ftp URL", Config{Token: "t", BaseURL: "ftp://ghe.example.com/"}, "not an absolute http(s) URL"},
		{"negative timeout", Config{Token: "t", Timeout: -time.Second}, "negative timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewFactory(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewFactory: %v; want an error containing %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "secret-key-bytes") || strings.Contains(err.Error(), "c2VjcmV0") {
				t.Errorf("error quotes the key: %v", err)
			}
		})
	}
}

func TestEnterpriseURLs(t *testing.T) {
	tests := []struct{ base, api, upload string }{
		{"", "https://api.github.com/", "https://uploads.github.com/"},
		{"https://ghe.example.com/api/v3/", "https://ghe.example.com/api/v3/", "https://ghe.example.com/api/uploads/"},
		{"https://ghe.example.com/api/v3", "https://ghe.example.com/api/v3/", "https://ghe.example.com/api/uploads/"},
		{"https://ghe.example.com", "https://ghe.example.com/api/v3/", "https://ghe.example.com/api/uploads/"},
	}
	for _, tt := range tests {
		fac, err := NewFactory(Config{Token: "t", BaseURL: tt.base})
		if err != nil {
			t.Fatalf("%q: %v", tt.base, err)
		}
		if fac.baseURL.String() != tt.api || fac.uploadURL.String() != tt.upload {
			t.Errorf("%q: API %s, uploads %s; want %s, %s", tt.base, fac.baseURL, fac.uploadURL, tt.api, tt.upload)
		}
	}

	// A base URL without /api/v3/ reaches the fake under it, as GitHub Enterprise Server serves it.
	f := newFake(t)
	f.handle(prRoute, answer(200, prJSON))
	rec := &recorder{}
	cfg := testConfig(f, rec)
	cfg.BaseURL = f.srv.URL
	if _, err := clientFor(t, cfg, 0).PullRequest(context.Background(), repo, 12); err != nil {
		t.Errorf("PullRequest: %v", err)
	}
}
