package config

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/setbot/setbot/vocab"
)

// The secrets of the tests: no error message may ever contain one.
const (
	testWebhookSecret = "whsec-7f3a9c1e5b"
	testToken         = "ghp_tok3nV4lu3xyz"
)

// authEnv completes a file with a webhook secret and a token, so that a test's file is all there
// is to find wrong.
var authEnv = []string{"SETBOT_WEBHOOK_SECRET=" + testWebhookSecret, "SETBOT_GITHUB_TOKEN=" + testToken}

// rsaKeys are an App key in PKCS #1 PEM, as GitHub issues them, and in PKCS #8 PEM.
var rsaKeys = sync.OnceValues(func() ([]byte, []byte) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		panic(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8})
})

// writeFile writes data to name in a temporary directory and returns its path.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDefaultServer(t *testing.T) {
	s, err := LoadServer("", authEnv)
	if err != nil {
		t.Fatal(err)
	}
	want := &Server{
		Listen:          ":8080",
		Database:        "setbot.db",
		CloneDir:        "repos",
		CacheMaxBytes:   1 << 30,
		Workers:         0, // sized to the machine (Parallelism)
		JobTimeout:      30 * time.Minute,
		JobMemory:       6 << 30,
		AnalysisProcess: ProcessChild,
		Ceilings: Ceilings{Bounds: vocab.Limits{vocab.BoundDepth: 1000, vocab.BoundStates: 2_000_000, vocab.BoundLoop: 100, vocab.BoundMicrosteps: 10_000,
			vocab.BoundMLMStates: 100_000, vocab.BoundMLMTransitions: 2_000_000, vocab.BoundTime: int64(10 * time.Minute)},
			CommandTimeout: time.Minute},
		ShutdownTimeout: 60 * time.Second,
		MaxBodyBytes:    25 << 20,
		LogLevel:        "info",
		LogFormat:       "json",
		GitHub:          GitHub{Token: testToken, WebhookSecret: []byte(testWebhookSecret)},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("LoadServer(\"\") =\n%#v\nwant\n%#v", s, want)
	}
	want.GitHub = GitHub{}
	if d := DefaultServer(); !reflect.DeepEqual(d, want) {
		t.Errorf("DefaultServer() =\n%#v\nwant\n%#v", d, want)
	}

	// An empty file, a file of comments and the defaults written out are the defaults too.
	for _, src := range []string{
		"",
		"# nothing\n",
		"listen:\ngithub:\nschedules:\n",
		"listen: ':8080'\ndatabase: setbot.db\nclone_dir: repos\ncache_max_bytes: 1GiB\n" +
			"job_timeout: 30m\njob_memory: 6GiB\nanalysis_process: child\nshutdown_timeout: 60s\nmax_body_bytes: 25MiB\nlog_level: info\nlog_format: json\n" +
			"ceilings: {depth: 1000, max_states: 2000000, loop_bound: 100, max_microsteps: 10000, max_mlm_states: 100000, max_mlm_transitions: 2000000, timeout: 10m, command_timeout: 1m}\n" +
			"public_url: ''\ngithub: {base_url: '', app_id: 0, private_key_file: '', private_key: '', token: '', " +
			"webhook_secret: '', webhook_secret_file: ''}\n",
	} {
		path := writeFile(t, ServerFileName, []byte(src))
		s, err := LoadServer(path, authEnv)
		if err != nil {
			t.Errorf("LoadServer(%q): %v", src, err)
			continue
		}
		want.GitHub = GitHub{Token: testToken, WebhookSecret: []byte(testWebhookSecret)}
		if !reflect.DeepEqual(s, want) {
			t.Errorf("LoadServer(%q) =\n%#v\nwant the defaults", src, s)
		}
	}
}

func TestLoadServerFull(t *testing.T) {
	pkcs1, _ := rsaKeys()
	keyFile := writeFile(t, "app.pem", pkcs1)
	secretFile := writeFile(t, "webhook-secret", []byte(testWebhookSecret+"\n"))
	src := fmt.Sprintf(`# every key
listen: "127.0.0.1:9090"
database: /var/lib/setbot/setbot.db
clone_dir: /var/lib/setbot/repos
cache_max_bytes: 500MB
workers: 8
job_timeout: 1h
job_memory: 512MiB
analysis_process: inline
ceilings:
  depth: 50
  max_states: 100000
  loop_bound: 20
  max_microsteps: 500
  max_mlm_states: 5000
  max_mlm_transitions: 300000
  timeout: 5m
  command_timeout: 20s
shutdown_timeout: 2m30s
run_retention: 720h
clone_max_age: 48h
max_body_bytes: 1048576
log_level: debug
log_format: text
public_url: https://setbot.example.com
allow_fork_commands: true
github:
  base_url: https://ghe.example.com/api/v3/
  app_id: 12345
  private_key_file: %s
  webhook_secret_file: %s
schedules:
  - repo: octo-org/models
    cron: "0 3 * * *"
    installation_id: 777
  - repo: octo-org/models
    branch: release/1.x
    cron: "@daily"
    installation_id: 777
    clone_url: https://mirror.example.com/models.git
  - repo: Octo-Org/charts
    cron: "CRON_TZ=Europe/Paris 30 2 * * 1-5"
    installation_id: 0x10
`, keyFile, secretFile)
	path := writeFile(t, ServerFileName, []byte(src))
	s, err := LoadServer(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Server{
		Listen:          "127.0.0.1:9090",
		Database:        "/var/lib/setbot/setbot.db",
		CloneDir:        "/var/lib/setbot/repos",
		CacheMaxBytes:   500_000_000,
		Workers:         8,
		JobTimeout:      time.Hour,
		JobMemory:       512 << 20,
		AnalysisProcess: ProcessInline,
		Ceilings: Ceilings{Bounds: vocab.Limits{vocab.BoundDepth: 50, vocab.BoundStates: 100_000, vocab.BoundLoop: 20, vocab.BoundMicrosteps: 500,
			vocab.BoundMLMStates: 5000, vocab.BoundMLMTransitions: 300_000, vocab.BoundTime: int64(5 * time.Minute)},
			CommandTimeout: 20 * time.Second},
		ShutdownTimeout:   150 * time.Second,
		RunRetention:      30 * 24 * time.Hour,
		CloneMaxAge:       48 * time.Hour,
		MaxBodyBytes:      1 << 20,
		LogLevel:          "debug",
		LogFormat:         "text",
		PublicURL:         "https://setbot.example.com",
		AllowForkCommands: true,
		GitHub: GitHub{
			BaseURL:       "https://ghe.example.com/api/v3/",
			AppID:         12345,
			PrivateKey:    bytes.TrimRight(pkcs1, "\n"),
			WebhookSecret: []byte(testWebhookSecret),
		},
		Schedules: []Schedule{
			{Repo: "octo-org/models", Cron: "0 3 * * *", InstallationID: 777, CloneURL: "https://ghe.example.com/octo-org/models.git"},
			{Repo: "octo-org/models", Branch: "release/1.x", Cron: "@daily", InstallationID: 777, CloneURL: "https://mirror.example.com/models.git"},
			{Repo: "Octo-Org/charts", Cron: "CRON_TZ=Europe/Paris 30 2 * * 1-5", InstallationID: 16, CloneURL: "https://ghe.example.com/Octo-Org/charts.git"},
		},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("LoadServer =\n%#v\nwant\n%#v", s, want)
	}
}

func TestCloneURL(t *testing.T) {
	for _, tt := range []struct{ base, want string }{
		{"", "https://github.com/o/r.git"},
		{"https://ghe.example.com/api/v3/", "https://ghe.example.com/o/r.git"},
		{"https://ghe.example.com/api/v3", "https://ghe.example.com/o/r.git"},
		{"http://ghe.internal:8443/", "http://ghe.internal:8443/o/r.git"},
		{"https://api.github.com/", "https://github.com/o/r.git"},
		{"https://api.octo.ghe.com/", "https://octo.ghe.com/o/r.git"},
	} {
		if got := cloneURL(tt.base, "o/r"); got != tt.want {
			t.Errorf("cloneURL(%q) = %q, want %q", tt.base, got, tt.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for _, tt := range []struct {
		s    string
		want int64
	}{
		{"0", 0}, {"1024", 1024}, {"1B", 1}, {"2KB", 2000}, {"500MB", 500e6}, {"3GB", 3e9}, {"1TB", 1e12},
		{"1KiB", 1024}, {"25MiB", 25 << 20}, {"1GiB", 1 << 30}, {"2TiB", 2 << 40}, {"1 GiB", 1 << 30}, {"4gib", 4 << 30},
	} {
		if got, err := ParseSize(tt.s); err != nil || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tt.s, got, err, tt.want)
		}
	}
	for _, s := range []string{"", "GiB", "-1", "1.5GiB", "1 XB", "1  GiB", " 1", "9223372036854775807KiB", "99999999999999999999"} {
		if got, err := ParseSize(s); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", s, got)
		}
	}
}

func TestLoadServerErrors(t *testing.T) {
	pkcs1, _ := rsaKeys()
	keyFile := writeFile(t, "app.pem", pkcs1)
	const known = " (known: listen, database, store, clone_dir, cache_max_bytes, workers, job_timeout, job_memory, analysis_process, ceilings, shutdown_timeout, run_retention, clone_max_age, max_body_bytes, job_lease, sweep_interval, log_level, log_format, public_url, allow_fork_commands, github, schedules)"
	tests := []struct {
		name, src string
		env       []string // authEnv when nil
		want      []string // every error, in order
	}{
		// keys
		{"unknown key", "listn: ':80'\n", nil, []string{
			`setbot.yml:1:1: unknown key "listn", did you mean "listen"?` + known}},
		{"unknown github key", "github:\n  webhook_secrets: x\n", nil, []string{
			`setbot.yml:2:3: github: unknown key "webhook_secrets", did you mean "webhook_secret"? (known: base_url, app_id, private_key_file, private_key, token, webhook_secret, webhook_secret_file)`}},
		{"unknown schedule key", "schedules:\n  - {repo: o/r, cron: '@daily', brnch: main}\n", nil, []string{
			`setbot.yml:2:33: schedules[0]: unknown key "brnch", did you mean "branch"? (known: repo, branch, cron, installation_id, clone_url)`}},
		{"duplicate key", "workers: 2\nworkers: 3\n", nil, []string{
			`setbot.yml:2:1: duplicate key "workers" (first at 1:1)`}},
		{"not a mapping", "- listen\n", nil, []string{
			`setbot.yml:1:1: expected a mapping, found a list`}},
		{"github not a mapping", "github: token\n", nil, []string{
			`setbot.yml:1:9: github: expected a mapping, found the string "token"`}},
		{"syntax error, and nothing else", "listen: [\n", []string{}, []string{
			`setbot.yml:2: invalid YAML: did not find expected node content`}},

		// types and values
		{"listen types", "listen: 8080\n", nil, []string{
			`setbot.yml:1:9: listen: expected an address such as :8080, found the integer 8080`}},
		{"listen address", "listen: '8080'\n", nil, []string{
			`setbot.yml:1:9: listen: invalid address "8080" (want host:port, such as :8080 or 127.0.0.1:8080)`}},
		{"listen port", "listen: ':http'\n", nil, []string{
			`setbot.yml:1:9: listen: invalid address ":http" (want host:port, such as :8080 or 127.0.0.1:8080)`}},
		{"empty paths", "database: ''\nclone_dir: 3\n", nil, []string{
			`setbot.yml:1:11: database: empty path`,
			`setbot.yml:2:12: clone_dir: expected a file path, found the integer 3`}},
		{"ceilings", "ceilings:\n  depth: 0\n  max_states: -5\n  loop_bound: ten\n  max_mlm_states: 99999999999\n  timeout: 10\n  command_timeout: 0s\n  memory: 4GiB\n", nil, []string{
			`setbot.yml:2:10: ceilings.depth: 0 is out of range (want a positive integer, at most 2147483647)`,
			`setbot.yml:3:15: ceilings.max_states: -5 is out of range (want a positive integer, at most 2147483647)`,
			`setbot.yml:4:15: ceilings.loop_bound: expected a positive integer, at most 2147483647, found the string "ten"`,
			`setbot.yml:5:19: ceilings.max_mlm_states: 99999999999 is out of range (want a positive integer, at most 2147483647)`,
			`setbot.yml:6:12: ceilings.timeout: duration 10 has no unit; write 10s for seconds`,
			`setbot.yml:7:20: ceilings.command_timeout: duration 0s is not positive`,
			`setbot.yml:8:3: ceilings: unknown key "memory" (known: depth, max_states, loop_bound, max_microsteps, max_mlm_states, max_mlm_transitions, timeout, command_timeout)`}},
		{"ceilings not a mapping", "ceilings: 1000\n", nil, []string{
			`setbot.yml:1:11: ceilings: expected a mapping, found the integer 1000`}},
		{"job memory", "job_memory: 4 GB of RAM\n", nil, []string{
			`setbot.yml:1:13: job_memory: invalid size "4 GB of RAM": want a number of bytes, or a whole number with a unit such as 500MB or 1GiB`}},
		{"workers", "workers: 0\n", nil, []string{
			`setbot.yml:1:10: workers: 0 is out of range (want an integer from 1 to 64)`}},
		{"too many workers", "workers: 65\n", nil, []string{
			`setbot.yml:1:10: workers: 65 is out of range (want an integer from 1 to 64)`}},
		{"workers type", "workers: '2'\n", nil, []string{
			`setbot.yml:1:10: workers: expected an integer from 1 to 64, found the string "2"`}},
		{"huge workers", "workers: 99999999999999999999\n", nil, []string{
			`setbot.yml:1:10: workers: expected an integer from 1 to 64, found the number 99999999999999999999`}},
		{"negative size", "cache_max_bytes: -1\n", nil, []string{
			`setbot.yml:1:18: cache_max_bytes: negative size -1`}},
		{"zero body", "max_body_bytes: 0\n", nil, []string{
			`setbot.yml:1:17: max_body_bytes: size 0 is too small (want at least 1)`}},
		{"size unit", "cache_max_bytes: 10XB\nmax_body_bytes: 1.5MiB\n", nil, []string{
			`setbot.yml:1:18: cache_max_bytes: invalid size "10XB": unknown unit "XB" (want B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)`,
			`setbot.yml:2:17: max_body_bytes: invalid size "1.5MiB": want a number of bytes, or a whole number with a unit such as 500MB or 1GiB`}},
		{"size type", "cache_max_bytes: [1]\nmax_body_bytes: 1.5\n", nil, []string{
			`setbot.yml:1:18: cache_max_bytes: expected a size such as 1GiB or 500MB, found a list`,
			`setbot.yml:2:17: max_body_bytes: expected a size such as 1GiB or 500MB, found the number 1.5`}},
		{"durations", "job_timeout: 30\nshutdown_timeout: soon\n", nil, []string{
			`setbot.yml:1:14: job_timeout: duration 30 has no unit; write 30s for seconds`,
			`setbot.yml:2:19: shutdown_timeout: invalid duration "soon" (want a Go duration such as 30m or 90s)`}},
		{"durations not positive", "job_timeout: 0\nshutdown_timeout: -1s\n", nil, []string{
			`setbot.yml:1:14: job_timeout: duration 0 is not positive`,
			`setbot.yml:2:19: shutdown_timeout: duration -1s is not positive`}},
		{"duration type", "job_timeout: {m: 1}\n", nil, []string{
			`setbot.yml:1:14: job_timeout: expected a duration such as 30m or 90s, found a mapping`}},
		{"log level and format", "log_level: INFO\nlog_format: yaml\n", nil, []string{
			`setbot.yml:1:12: log_level: unknown log level "INFO", did you mean "info"? (want debug, info, warn or error)`,
			`setbot.yml:2:13: log_format: unknown log format "yaml" (want json or text)`}},
		{"allow_fork_commands type", "allow_fork_commands: yes\n", nil, []string{
			`setbot.yml:1:22: allow_fork_commands: expected true or false, found the string "yes"`}},
		{"log level type", "log_level: 1\n", nil, []string{
			`setbot.yml:1:12: log_level: expected debug, info, warn or error, found the integer 1`}},
		{"urls", "public_url: setbot.example.com\ngithub:\n  base_url: ftp://ghe.example.com/\n", nil, []string{
			`setbot.yml:1:13: public_url: invalid URL "setbot.example.com" (want an absolute http or https URL, such as https://setbot.example.com)`,
			`setbot.yml:3:13: github.base_url: invalid URL "ftp://ghe.example.com/" (want an absolute http or https URL, such as https://ghe.example.com/api/v3/)`}},
		{"url without host", "public_url: 'https:///x'\n", nil, []string{
			`setbot.yml:1:13: public_url: invalid URL "https:///x" (want an absolute http or https URL, such as https://setbot.example.com)`}},
		{"url with credentials", "public_url: https://admin:pw@setbot.example.com\n", nil, []string{
			`setbot.yml:1:13: public_url: the URL holds a user name or token (before @): remove it; setbot authenticates itself`}},
		{"app id", "github: {app_id: -4}\n", nil, []string{
			`setbot.yml:1:18: github.app_id: -4 is out of range (want an App id, a positive integer (or 0 for none))`}},
		{"app id type", "github: {app_id: '12'}\n", nil, []string{
			`setbot.yml:1:18: github.app_id: expected an App id, a positive integer (or 0 for none), found the string "12"`}},

		// schedules
		{"schedules not a list", "schedules: {repo: o/r}\n", nil, []string{
			`setbot.yml:1:12: schedules: expected a list of schedules, found a mapping`}},
		{"schedule not a mapping", "schedules: [o/r]\n", nil, []string{
			`setbot.yml:1:13: schedules[0]: expected a mapping, found the string "o/r"`}},
		{"schedule missing keys", "schedules:\n  - cron: '@daily'\n  - repo: o/r\n  - {}\n", nil, []string{
			`setbot.yml:2:5: schedules[0]: missing repo: the repository, as owner/name`,
			`setbot.yml:3:5: schedules[1]: missing cron: when to run, such as "0 3 * * *" or "@daily"`,
			`setbot.yml:4:5: schedules[2]: missing repo: the repository, as owner/name`}},
		{"repo", "schedules:\n  - {repo: models, cron: '@daily'}\n  - {repo: o/r/x, cron: '@daily'}\n  - {repo: -o/r, cron: '@daily'}\n  - {repo: o/.., cron: '@daily'}\n", nil, []string{
			`setbot.yml:2:12: schedules[0].repo: invalid repository "models" (want owner/name, such as octo-org/models)`,
			`setbot.yml:3:12: schedules[1].repo: invalid repository "o/r/x" (want owner/name, such as octo-org/models)`,
			`setbot.yml:4:12: schedules[2].repo: invalid repository "-o/r" (want owner/name, such as octo-org/models)`,
			`setbot.yml:5:12: schedules[3].repo: invalid repository "o/.." (want owner/name, such as octo-org/models)`}},
		{"cron", "schedules:\n  - {repo: o/a, cron: '0 3 * *'}\n  - {repo: o/b, cron: 'TZ=UTC'}\n  - {repo: o/c, cron: '@sometimes'}\n  - {repo: o/d, cron: ''}\n  - {repo: o/e, cron: 3}\n", nil, []string{
			`setbot.yml:2:23: schedules[0].cron: invalid cron spec "0 3 * *": expected exactly 5 fields, found 4: [0 3 * *]`,
			`setbot.yml:3:23: schedules[1].cron: invalid cron spec "TZ=UTC": a time zone must be followed by a schedule`,
			`setbot.yml:4:23: schedules[2].cron: invalid cron spec "@sometimes": unrecognized descriptor: @sometimes`,
			`setbot.yml:5:23: schedules[3].cron: invalid cron spec "": empty spec string`,
			`setbot.yml:6:23: schedules[4].cron: expected a cron spec, found the integer 3`}},
		{"branch", "schedules:\n  - {repo: o/a, cron: '@daily', branch: refs/heads/main}\n  - {repo: o/b, cron: '@daily', branch: 'a..b'}\n  - {repo: o/c, cron: '@daily', branch: 'x.lock'}\n", nil, []string{
			`setbot.yml:2:41: schedules[0].branch: write the branch's name, "main", not the ref "refs/heads/main"`,
			`setbot.yml:3:41: schedules[1].branch: invalid branch name "a..b" (see git check-ref-format)`,
			`setbot.yml:4:41: schedules[2].branch: invalid branch name "x.lock" (see git check-ref-format)`}},
		{"duplicate schedules", "schedules:\n  - {repo: o/r, cron: '@daily'}\n  - {repo: o/r, cron: '@daily', branch: dev}\n  - {repo: O/R, cron: '@weekly'}\n  - {repo: o/r, cron: '@hourly', branch: dev}\n", nil, []string{
			`setbot.yml:4:5: schedules[2]: a second schedule for O/R, its default branch (first at 2:5): one cron spec per branch`,
			`setbot.yml:5:5: schedules[3]: a second schedule for o/r, branch dev (first at 3:5): one cron spec per branch`}},
		{"installation id", "schedules:\n  - {repo: o/r, cron: '@daily', installation_id: -1}\n", nil, []string{
			`setbot.yml:2:50: schedules[0].installation_id: -1 is out of range (want an installation id, a positive integer)`}},
		{"installation id required with an App", fmt.Sprintf("github: {app_id: 9, private_key_file: %s}\nschedules:\n  - {repo: o/r, cron: '@daily'}\n  - {repo: o/s, cron: '@daily', installation_id: 3}\n", keyFile),
			[]string{"SETBOT_WEBHOOK_SECRET=x"}, []string{
				`setbot.yml:3:5: schedules[0]: missing installation_id: an App needs the installation on o/r (no webhook tells it)`}},
		{"clone url", "schedules:\n  - {repo: o/r, cron: '@daily', clone_url: 'git@github.com:o/r.git'}\n  - {repo: o/s, cron: '@daily', clone_url: 'ssh://github.com/o/s.git'}\n", nil, []string{
			`setbot.yml:2:44: schedules[0].clone_url: invalid URL, not shown as it may hold credentials (want an absolute https, http or file URL, such as https://github.com/owner/name.git)`,
			`setbot.yml:3:44: schedules[1].clone_url: invalid URL "ssh://github.com/o/s.git" (want an absolute https, http or file URL, such as https://github.com/owner/name.git)`}},

		// the PostgreSQL store: its URL may hold a password, which no error shows
		{"store", "store: 'mysql://u:hunter2@db/setbot'\n", nil, []string{
			`setbot.yml:1:8: store: the store is a PostgreSQL URL such as postgres://user:password@host:5432/database, not a "mysql" URL`}},
		{"store path", "store: /var/lib/setbot.db\n", nil, []string{
			`setbot.yml:1:8: store: the store is a PostgreSQL URL such as postgres://user:password@host:5432/database, not a path (for a SQLite file, set database)`}},
		{"store malformed", "store: 'postgres://u:hunter2@db:port/x'\n", nil, []string{
			`setbot.yml:1:8: store: invalid URL, not shown as it may hold a password (want postgres://user:password@host:5432/database)`}},
		{"store without host", "store: 'postgres:///setbot'\n", nil, []string{
			`setbot.yml:1:8: store: the PostgreSQL URL names no host (want postgres://user:password@host:5432/database)`}},
		{"lease", "job_lease: 0s\nsweep_interval: often\n", nil, []string{
			`setbot.yml:1:12: job_lease: duration 0s is not positive`,
			`setbot.yml:2:17: sweep_interval: invalid duration "often" (want a Go duration such as 30m or 90s)`}},
		{"short lease", "job_lease: 500ms\n", nil, []string{
			`setbot.yml:1:12: job_lease: a lease of 500ms is shorter than 1s: a replica renews it every third`}},

		// authentication
		{"no webhook secret", "", []string{"SETBOT_GITHUB_TOKEN=t"}, []string{
			`no webhook secret: set github.webhook_secret, github.webhook_secret_file or SETBOT_WEBHOOK_SECRET`}},
		{"no credentials", "github: {webhook_secret: s}\n", []string{}, []string{
			`no GitHub credentials: set github.token (or SETBOT_GITHUB_TOKEN), or github.app_id and github.private_key_file (or SETBOT_GITHUB_APP_ID and SETBOT_GITHUB_PRIVATE_KEY_FILE)`}},
		{"nothing at all", "", []string{}, []string{
			`no webhook secret: set github.webhook_secret, github.webhook_secret_file or SETBOT_WEBHOOK_SECRET`,
			`no GitHub credentials: set github.token (or SETBOT_GITHUB_TOKEN), or github.app_id and github.private_key_file (or SETBOT_GITHUB_APP_ID and SETBOT_GITHUB_PRIVATE_KEY_FILE)`}},
		{"token and app", "github:\n  webhook_secret: s\n  token: t\n  app_id: 3\n", []string{}, []string{
			`setbot.yml:3:10: github.token: a token and an App (github.app_id at setbot.yml:4:11) are both set: use one`}},
		{"token from the environment and app", "github:\n  app_id: 3\n", nil, []string{
			`SETBOT_GITHUB_TOKEN: a token and an App (github.app_id at setbot.yml:2:11) are both set: use one`}},
		{"token and key", fmt.Sprintf("github: {token: t, private_key_file: %s}\n", keyFile), []string{"SETBOT_WEBHOOK_SECRET=x"}, []string{
			`setbot.yml:1:17: github.token: a token and an App private key (github.private_key_file at setbot.yml:1:38) are both set: use one`}},
		{"app without key", "github: {app_id: 3}\n", []string{"SETBOT_WEBHOOK_SECRET=x"}, []string{
			`setbot.yml:1:18: github.app_id: an App id but no private key: set github.private_key_file or github.private_key (or SETBOT_GITHUB_PRIVATE_KEY_FILE or SETBOT_GITHUB_PRIVATE_KEY)`}},
		{"key without app", fmt.Sprintf("github: {private_key_file: %s}\n", keyFile), []string{"SETBOT_WEBHOOK_SECRET=x"}, []string{
			`setbot.yml:1:28: github.private_key_file: a private key but no App id: set github.app_id (or SETBOT_GITHUB_APP_ID)`}},
		{"key not PEM", "github: {app_id: 3, private_key: 'MIIEowIBAAKCAQEA'}\n", []string{"SETBOT_WEBHOOK_SECRET=x"}, []string{
			`setbot.yml:1:34: github.private_key: the private key is not PEM: want the .pem file GitHub generated, starting with -----BEGIN RSA PRIVATE KEY-----`}},
		{"secret twice", "github:\n  webhook_secret_file: /run/secrets/w\n  webhook_secret: s\n", nil, []string{
			`setbot.yml:3:19: github.webhook_secret: set only one of github.webhook_secret and github.webhook_secret_file`}},
		{"missing secret file", "github: {webhook_secret_file: /nonexistent/setbot/secret}\n", []string{"SETBOT_GITHUB_TOKEN=t"}, []string{
			`setbot.yml:1:31: github.webhook_secret_file: reading the secret: open /nonexistent/setbot/secret: no such file or directory`}},
		{"secret of the wrong type", "github: {webhook_secret: 31337, token: [a], private_key: true}\n", []string{}, []string{
			`setbot.yml:1:26: github.webhook_secret: expected a string, found an integer (not shown; quote it)`,
			`setbot.yml:1:40: github.token: expected a string, found a list (not shown; quote it)`,
			`setbot.yml:1:58: github.private_key: expected a string, found a boolean (not shown; quote it)`}},

		// every error, the file's first in file order, then the environment's, then the rest
		{"many", "log_format: xml\nworkers: 100\nlisten: x\n", []string{"SETBOT_JOB_TIMEOUT=fast", "SETBOT_GITHUB_TOKEN=t", "SETBOT_LISTN=:80"}, []string{
			`setbot.yml:1:13: log_format: unknown log format "xml" (want json or text)`,
			`setbot.yml:2:10: workers: 100 is out of range (want an integer from 1 to 64)`,
			`setbot.yml:3:9: listen: invalid address "x" (want host:port, such as :8080 or 127.0.0.1:8080)`,
			`SETBOT_JOB_TIMEOUT: invalid duration "fast" (want a Go duration such as 30m or 90s)`,
			`SETBOT_LISTN: unknown variable, did you mean "SETBOT_LISTEN"? (known: ` + strings.Join(envNames(), ", ") + `)`,
			`no webhook secret: set github.webhook_secret, github.webhook_secret_file or SETBOT_WEBHOOK_SECRET`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := tt.env
			if env == nil {
				env = authEnv
			}
			s, err := loadServer(ServerFileName, []byte(tt.src), env)
			if err == nil {
				t.Fatalf("no error; loaded %+v", s)
			}
			if s != nil {
				t.Errorf("a Server along with the error")
			}
			if got, want := err.Error(), strings.Join(tt.want, "\n"); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) != len(tt.want) {
				t.Fatalf("error is %T with %d entries, want an ErrorList of %d", err, len(list), len(tt.want))
			}
		})
	}
}

func envNames() []string {
	names := make([]string, len(serverEnv))
	for i, e := range serverEnv {
		names[i] = e.name
	}
	return names
}

func TestErrorPositions(t *testing.T) {
	_, err := loadServer("/etc/setbot/setbot.yml", []byte("github:\n  app_id: x\n"), []string{"SETBOT_WORKERS=0"})
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v is not an ErrorList", err)
	}
	want := ErrorList{
		{Pos: Position{Filename: "/etc/setbot/setbot.yml", Line: 2, Column: 11}, Path: "github.app_id",
			Msg: `expected an App id, a positive integer (or 0 for none), found the string "x"`},
		{Path: "SETBOT_WORKERS", Msg: `0 is out of range (want an integer from 1 to 64)`},
		{Msg: `no webhook secret: set github.webhook_secret, github.webhook_secret_file or SETBOT_WEBHOOK_SECRET`},
	}
	if !reflect.DeepEqual(list, want) {
		t.Errorf("errors =\n%v\nwant\n%v", list, want)
	}
}

func TestLoadServerMissingFile(t *testing.T) {
	_, err := LoadServer(filepath.Join(t.TempDir(), "nope.yml"), authEnv)
	if !errors.Is(err, os.ErrNotExist) || !strings.HasPrefix(err.Error(), "reading the server configuration: ") {
		t.Errorf("err = %v, want a wrapped ErrNotExist", err)
	}
}

func TestEnvironment(t *testing.T) {
	pkcs1, _ := rsaKeys()
	keyFile := writeFile(t, "app.pem", pkcs1)
	secretFile := writeFile(t, "secret", []byte("from-a-file\r\n"))
	const src = `listen: ":9000"
database: file.db
clone_dir: file-repos
workers: 3
job_timeout: 10m
job_memory: 1GiB
log_level: warn
log_format: text
public_url: https://file.example.com
github:
  base_url: https://file.example.com/api/v3/
  token: file-token
  webhook_secret: file-secret
schedules:
  - {repo: o/r, cron: "@daily", installation_id: 5}
`
	env := []string{
		"HOME=/root",
		"SETBOT_LISTEN=127.0.0.1:7000",
		"SETBOT_DATABASE=/data/setbot.db",
		"SETBOT_CLONE_DIR=/data/repos",
		"SETBOT_WORKERS=16",
		"SETBOT_WORKERS=1", // the first wins, as with os.Getenv
		"SETBOT_JOB_TIMEOUT=45m",
		"SETBOT_JOB_MEMORY=3GiB",
		"SETBOT_LOG_LEVEL=debug",
		"SETBOT_LOG_FORMAT=json",
		"SETBOT_PUBLIC_URL=https://env.example.com/setbot",
		"SETBOT_GITHUB_BASE_URL=http://ghe.internal:8080/api/v3",
		"SETBOT_GITHUB_APP_ID=42",
		"SETBOT_GITHUB_PRIVATE_KEY_FILE=" + keyFile,
		"SETBOT_GITHUB_TOKEN=", // empty: unset, so the file's token stays
		"SETBOT_WEBHOOK_SECRET_FILE=" + secretFile,
		"PATH=/usr/bin",
	}
	_, err := loadServer(ServerFileName, []byte(src), env)
	// The file's token and the environment's App are both set: the error names both.
	if err == nil || err.Error() != `setbot.yml:12:10: github.token: a token and an App (SETBOT_GITHUB_APP_ID) are both set: use one` {
		t.Fatalf("err = %v, want the token and the App in conflict", err)
	}
	s, err := loadServer(ServerFileName, []byte(strings.Replace(src, "  token: file-token\n", "", 1)), env)
	if err != nil {
		t.Fatal(err)
	}
	want := &Server{
		Listen:          "127.0.0.1:7000",
		Database:        "/data/setbot.db",
		CloneDir:        "/data/repos",
		CacheMaxBytes:   DefaultCacheMaxBytes,
		Workers:         16,
		JobTimeout:      45 * time.Minute,
		JobMemory:       3 << 30,
		AnalysisProcess: ProcessChild,
		Ceilings:        DefaultCeilings(),
		ShutdownTimeout: DefaultShutdownTimeout,
		MaxBodyBytes:    DefaultMaxBodyBytes,
		LogLevel:        "debug",
		LogFormat:       "json",
		PublicURL:       "https://env.example.com/setbot",
		GitHub: GitHub{
			BaseURL:       "http://ghe.internal:8080/api/v3",
			AppID:         42,
			PrivateKey:    bytes.TrimRight(pkcs1, "\n"),
			WebhookSecret: []byte("from-a-file"),
		},
		Schedules: []Schedule{{Repo: "o/r", Cron: "@daily", InstallationID: 5, CloneURL: "http://ghe.internal:8080/o/r.git"}},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("loaded\n%#v\nwant\n%#v", s, want)
	}
}

func TestEnvironmentErrors(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		want []string
	}{
		{"bad values", []string{
			"SETBOT_WORKERS=two", "SETBOT_JOB_TIMEOUT=90", "SETBOT_LOG_LEVEL=loud", "SETBOT_LOG_FORMAT=JSON",
			"SETBOT_LISTEN=localhost", "SETBOT_DATABASE=db", "SETBOT_PUBLIC_URL=ftp://x", "SETBOT_GITHUB_BASE_URL=ghe",
		}, []string{
			`SETBOT_LISTEN: invalid address "localhost" (want host:port, such as :8080 or 127.0.0.1:8080)`,
			`SETBOT_WORKERS: expected an integer from 1 to 64, found "two"`,
			`SETBOT_JOB_TIMEOUT: duration 90 has no unit; write 90s for seconds`,
			`SETBOT_LOG_LEVEL: unknown log level "loud" (want debug, info, warn or error)`,
			`SETBOT_LOG_FORMAT: unknown log format "JSON", did you mean "json"? (want json or text)`,
			`SETBOT_PUBLIC_URL: invalid URL "ftp://x" (want an absolute http or https URL, such as https://setbot.example.com)`,
			`SETBOT_GITHUB_BASE_URL: invalid URL "ghe" (want an absolute http or https URL, such as https://ghe.example.com/api/v3/)`,
		}},
		{"app id", []string{"SETBOT_GITHUB_APP_ID=0x10", "SETBOT_GITHUB_TOKEN="}, []string{
			`SETBOT_GITHUB_APP_ID: expected an App id, a positive integer (or 0 for none), found "0x10"`,
		}},
		{"unknown variables", []string{"SETBOT_WORKRES=3", "setbot_listen=:80", "SETBOT_COLOUR=red", "SETBOT_WORKRES=4", "SETBOT_=1"}, []string{
			`SETBOT_: unknown variable (known: ` + strings.Join(envNames(), ", ") + `)`,
			`SETBOT_COLOUR: unknown variable (known: ` + strings.Join(envNames(), ", ") + `)`,
			`SETBOT_WORKRES: unknown variable, did you mean "SETBOT_WORKERS"? (known: ` + strings.Join(envNames(), ", ") + `)`,
			`setbot_listen: unknown variable, did you mean "SETBOT_LISTEN"? (known: ` + strings.Join(envNames(), ", ") + `)`,
		}},
		{"both forms of a secret", []string{"SETBOT_WEBHOOK_SECRET=a", "SETBOT_WEBHOOK_SECRET_FILE=/b"}, []string{
			`SETBOT_WEBHOOK_SECRET_FILE: set only one of SETBOT_WEBHOOK_SECRET and SETBOT_WEBHOOK_SECRET_FILE`,
		}},
		{"secret file", []string{"SETBOT_WEBHOOK_SECRET_FILE=/nonexistent/secret"}, []string{
			`SETBOT_WEBHOOK_SECRET_FILE: reading the secret: open /nonexistent/secret: no such file or directory`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The test's variables first: the first of a name wins.
			env := append(slices.Clip(tt.env), "SETBOT_GITHUB_TOKEN=t", "SETBOT_WEBHOOK_SECRET_FILE="+writeFile(t, "s", []byte("s\n")))
			_, err := LoadServer("", env)
			if err == nil {
				t.Fatal("no error")
			}
			if got, want := err.Error(), strings.Join(tt.want, "\n"); got != want {
				t.Errorf("errors:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// A secret from the environment, in either form, replaces the file's, in either form.
func TestEnvironmentReplacesSecrets(t *testing.T) {
	pkcs1, pkcs8 := rsaKeys()
	keyFile := writeFile(t, "app.pem", pkcs1)
	src := fmt.Sprintf("github:\n  app_id: 1\n  private_key_file: %s\n  webhook_secret: from-the-file\n", keyFile)
	// The key pasted into a one-line variable, its line breaks written \n.
	oneLine := strings.ReplaceAll(string(pkcs8), "\n", `\n`)
	s, err := loadServer(ServerFileName, []byte(src), []string{
		"SETBOT_GITHUB_PRIVATE_KEY=" + oneLine,
		"SETBOT_WEBHOOK_SECRET_FILE=" + writeFile(t, "secret", []byte("from-the-environment\n\n")),
	})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(s.GitHub.PrivateKey, pkcs8) || string(s.GitHub.WebhookSecret) != "from-the-environment" {
		t.Errorf("key %q, secret %q: not the environment's", s.GitHub.PrivateKey, s.GitHub.WebhookSecret)
	}
}

func TestSecretFiles(t *testing.T) {
	pkcs1, pkcs8 := rsaKeys()
	for _, tt := range []struct {
		name     string
		contents string
		want     string
	}{
		{"line break", "s3cret\n", "s3cret"},
		{"crlf", "s3cret\r\n", "s3cret"},
		{"several line breaks", "s3cret\n\n", "s3cret"},
		{"none", "s3cret", "s3cret"},
		{"inner spaces kept", " s3 cret \n", " s3 cret "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "secret", []byte(tt.contents))
			s, err := LoadServer("", []string{"SETBOT_GITHUB_TOKEN=t", "SETBOT_WEBHOOK_SECRET_FILE=" + path})
			if err != nil {
				t.Fatal(err)
			}
			if got := string(s.GitHub.WebhookSecret); got != tt.want {
				t.Errorf("secret %q, want %q", got, tt.want)
			}
		})
	}

	for _, key := range [][]byte{pkcs1, pkcs8} {
		s, err := LoadServer("", []string{"SETBOT_WEBHOOK_SECRET=w", "SETBOT_GITHUB_APP_ID=1", "SETBOT_GITHUB_PRIVATE_KEY_FILE=" + writeFile(t, "k.pem", key)})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(s.GitHub.PrivateKey, bytes.TrimRight(key, "\n")) || s.GitHub.AppID != 1 {
			t.Errorf("App %d and a key of %d bytes, want App 1 and its key", s.GitHub.AppID, len(s.GitHub.PrivateKey))
		}
	}

	empty := writeFile(t, "empty", []byte("\n"))
	_, err := LoadServer("", []string{"SETBOT_GITHUB_TOKEN=t", "SETBOT_WEBHOOK_SECRET_FILE=" + empty})
	if want := "SETBOT_WEBHOOK_SECRET_FILE: " + empty + " is empty"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	spaces := writeFile(t, "spaces", []byte("   \t \n"))
	_, err = LoadServer("", []string{"SETBOT_GITHUB_TOKEN=t", "SETBOT_WEBHOOK_SECRET_FILE=" + spaces})
	if want := "SETBOT_WEBHOOK_SECRET_FILE: " + spaces + " holds only white space, not a secret"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	_, err = LoadServer("", []string{"SETBOT_GITHUB_TOKEN=t", "SETBOT_WEBHOOK_SECRET=   "})
	if want := "SETBOT_WEBHOOK_SECRET: the secret is only white space"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	padded := writeFile(t, "padded", []byte(" s3cret \n"))
	if s, err := LoadServer("", []string{"SETBOT_GITHUB_TOKEN=t", "SETBOT_WEBHOOK_SECRET_FILE=" + padded}); err != nil || string(s.GitHub.WebhookSecret) != " s3cret " {
		t.Errorf("a secret with spaces in it: %q, %v; want it as written", s.GitHub.WebhookSecret, err)
	}
	huge := writeFile(t, "huge", bytes.Repeat([]byte("x"), maxSecretFileBytes+1))
	_, err = LoadServer("", []string{"SETBOT_GITHUB_TOKEN=t", "SETBOT_WEBHOOK_SECRET_FILE=" + huge})
	if want := "SETBOT_WEBHOOK_SECRET_FILE: " + huge + " is larger than 64 KiB: not a secret"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

func TestPrivateKeyChecks(t *testing.T) {
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	ecDER, err := x509.MarshalPKCS8PrivateKey(ec)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		key  []byte
		want string
	}{
		{"not PEM", []byte("secretkeymaterial"), "the private key is not PEM: want the .pem file GitHub generated, starting with -----BEGIN RSA PRIVATE KEY-----"},
		{"a certificate", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte("secretkeymaterial")}), `the private key's PEM block is "CERTIFICATE", want RSA PRIVATE KEY`},
		{"corrupt PKCS #1", pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte("secretkeymaterial")}), "the private key's RSA PRIVATE KEY block does not parse: "},
		{"corrupt PKCS #8", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("secretkeymaterial")}), "the private key's PRIVATE KEY block does not parse: "},
		{"an EC key", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER}), "the private key is a *ecdsa.PrivateKey, want an RSA key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadServer("", []string{"SETBOT_WEBHOOK_SECRET=w", "SETBOT_GITHUB_APP_ID=1", "SETBOT_GITHUB_PRIVATE_KEY_FILE=" + writeFile(t, "k.pem", tt.key)})
			if err == nil || !strings.HasPrefix(err.Error(), "SETBOT_GITHUB_PRIVATE_KEY_FILE: "+tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), "secretkeymaterial") {
				t.Errorf("the error quotes the key: %v", err)
			}
			// Rejected, the key is not also reported missing.
			if err != nil && strings.Contains(err.Error(), "no private key") {
				t.Errorf("a cascade of errors: %v", err)
			}
		})
	}
}

// No error ever shows a secret, whatever is wrong around it.
func TestSecretsNeverShown(t *testing.T) {
	pkcs1, _ := rsaKeys()
	secrets := []string{testWebhookSecret, testToken, "31415926535", "tokenInURL", "badPEMbody", "typoedSecretValue", "pw4url"}
	keyBody := string(pkcs1[32:96]) // a piece of a valid key's base64
	secrets = append(secrets, keyBody)
	src := "github:\n" +
		"  webhook_secret: 31415926535\n" + // an integer: the type error must not show it
		"  token: " + testToken + "\n" +
		"  app_id: 7\n" + // token and App: a conflict naming both
		"  private_key: '-----BEGIN RSA PRIVATE KEY-----\\nbadPEMbody\\n-----END RSA PRIVATE KEY-----\\n'\n" +
		"public_url: 'https://user:pw4url@setbot.example.com/'\n" +
		"schedules:\n" +
		"  - {repo: o/r, cron: '@daily', clone_url: 'https://x-access-token:tokenInURL@github.com/o/r.git'}\n" +
		"  - {repo: o/s, cron: '@daily', clone_url: 'https://tokenInURL@github.com/o/s.git'}\n" +
		"  - {repo: o/t, cron: '@daily', clone_url: 'https://tokenInURL@[::1/o/t.git'}\n"
	envs := [][]string{
		{"SETBOT_WEBHOOK_SECRET=" + testWebhookSecret, "SETBOT_WEBHOOK_SECRET_FILE=/x", "SETBOT_WEBHOK_SECRET=typoedSecretValue"},
		{"SETBOT_GITHUB_TOKEN=" + testToken, "SETBOT_GITHUB_PRIVATE_KEY=" + string(pkcs1), "SETBOT_GITHUB_APP_ID=x"},
		{"SETBOT_GITHUB_PRIVATE_KEY=" + keyBody, "SETBOT_GITHUB_TOKEN=" + testToken},
		{"SETBOT_GITHUB_TOKEN=" + testToken, "SETBOT_WEBHOOK_SECRET=" + testWebhookSecret, "SETBOT_PUBLIC_URL=https://user:pw4url@x/"},
	}
	for i, env := range envs {
		_, err := loadServer(ServerFileName, []byte(src), env)
		if err == nil {
			t.Fatalf("env %d: no error", i)
		}
		for _, s := range secrets {
			if strings.Contains(err.Error(), s) {
				t.Errorf("env %d: the errors show the secret %q:\n%v", i, s, err)
			}
		}
	}
}

func TestValidBranch(t *testing.T) {
	for _, b := range []string{"main", "release/1.x", "feature/a-b_c", "v1.2", "dev@home"} {
		if !validBranch(b) {
			t.Errorf("validBranch(%q) = false", b)
		}
	}
	for _, b := range []string{"@", "-x", "/a", "a/", "a.", "a..b", "a//b", "a@{1}", "a b", "a~1", "a^", "a:b", "a?", "a*", "a[", `a\b`, "a\x01", ".a", "a/.b", "a.lock", "a/b.lock/c"} {
		if validBranch(b) {
			t.Errorf("validBranch(%q) = true", b)
		}
	}
}

// The reference in docs/server.md must stay true: its YAML examples load (completed by the
// environment), and it names every key and every environment variable.
func TestServerDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/server.md")
	if err != nil {
		t.Fatal(err)
	}
	pkcs1, _ := rsaKeys()
	env := []string{"SETBOT_WEBHOOK_SECRET=w", "SETBOT_GITHUB_APP_ID=1", "SETBOT_GITHUB_PRIVATE_KEY_FILE=" + writeFile(t, "k.pem", pkcs1)}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) == 0 {
		t.Fatal("no yaml examples in docs/server.md")
	}
	for _, b := range blocks {
		if _, err := loadServer("docs/server.md example", b[1], env); err != nil {
			t.Errorf("example does not load:\n%s\n%v", b[1], err)
		}
	}
	words := slices.Concat(slices.DeleteFunc(slices.Clone(serverKeys), func(k string) bool { return k == "github" }),
		scheduleKeys, envNames(), logLevels, logFormats)
	for _, k := range ceilingKeys {
		words = append(words, "ceilings."+k)
	}
	for _, k := range githubKeys {
		words = append(words, "github."+k)
	}
	for _, w := range words {
		if !strings.Contains(string(doc), "`"+w+"`") {
			t.Errorf("docs/server.md does not mention `%s`", w)
		}
	}
}

// FuzzLoadServer checks that loading never panics, that every error is placed in the file or
// names a variable or none, that no error shows the secrets of the environment, and that what
// loads is valid.
func FuzzLoadServer(f *testing.F) {
	for _, seed := range []string{
		"",
		"listen: ':8080'\nworkers: 4\njob_timeout: 30m\ncache_max_bytes: 1GiB\nlog_level: debug\n",
		"github: {base_url: 'https://ghe.example.com/api/v3/', app_id: 3, token: t}\n",
		"schedules:\n  - {repo: o/r, cron: '@daily', branch: main, installation_id: 3, clone_url: 'https://x/o/r.git'}\n",
		"schedules: [{repo: o/r, cron: 'TZ=UTC'}, {repo: o/r}]\n",
		"github: {webhook_secret: 3, webhook_secret_file: /nonexistent}\nmax_body_bytes: 0\n",
		"a: &a [*a]\n",
		"workers: [\n",
	} {
		f.Add([]byte(seed))
	}
	const secret = "fuzz-secret-9d8c7b6a5f4e3d2c1b0a"
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := loadServer(ServerFileName, data, []string{"SETBOT_WEBHOOK_SECRET=" + secret, "SETBOT_GITHUB_TOKEN=" + secret})
		if err != nil {
			if s != nil {
				t.Fatal("a Server along with an error")
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %q is not a non-empty ErrorList", err, err)
			}
			p := &parser{data: data}
			last, _ := p.position(len(data))
			for _, e := range list {
				inFile := e.Pos.Filename == ServerFileName && e.Pos.Line >= 1 && e.Pos.Line <= last && e.Pos.Column >= 0
				if e.Msg == "" || !inFile && e.Pos != (Position{}) {
					t.Fatalf("error neither in the file (%d lines) nor without a position: %+v", last, e)
				}
			}
			if strings.Contains(err.Error(), secret) && !bytes.Contains(data, []byte(secret)) {
				t.Fatalf("the errors show the secret: %v", err)
			}
			return
		}
		if s.Workers < 0 || s.Workers > MaxWorkers || s.JobTimeout <= 0 || s.ShutdownTimeout <= 0 ||
			s.CacheMaxBytes < 0 || s.MaxBodyBytes < 1 || s.Listen == "" || s.Database == "" || s.CloneDir == "" ||
			!slices.Contains(logLevels, s.LogLevel) || !slices.Contains(logFormats, s.LogFormat) ||
			len(s.GitHub.WebhookSecret) == 0 || (s.GitHub.Token == "") == (s.GitHub.AppID == 0) {
			t.Fatalf("invalid configuration loaded: %+v", s)
		}
		for _, sc := range s.Schedules {
			if sc.Repo == "" || sc.Cron == "" || sc.CloneURL == "" {
				t.Fatalf("incomplete schedule %+v", sc)
			}
		}
	})
}

// TestStoreFromTheEnvironment: SETBOT_DATABASE_URL overrides the file's
// store, and the replicas' settings are read.
func TestStoreFromTheEnvironment(t *testing.T) {
	src := "store: postgres://file-host/setbot\njob_lease: 10s\nsweep_interval: 30s\n"
	env := append([]string{"SETBOT_DATABASE_URL=postgresql://setbot:pw@db.internal:5433/setbot?sslmode=require"}, authEnv...)
	s, err := loadServer(ServerFileName, []byte(src), env)
	if err != nil {
		t.Fatal(err)
	}
	if s.Store != "postgresql://setbot:pw@db.internal:5433/setbot?sslmode=require" || s.JobLease != 10*time.Second || s.SweepInterval != 30*time.Second {
		t.Errorf("store %q, lease %v, sweep %v", s.Store, s.JobLease, s.SweepInterval)
	}
}

// TestParallelism: unset, the workers are two but never more than the
// CPUs, and workers × jobs fits the CPUs whenever the workers do; workers
// set beyond the CPUs are kept, with one exploration worker each.
func TestParallelism(t *testing.T) {
	for _, c := range []struct{ set, cpus, workers, jobs int }{
		{0, 1, 1, 1}, {0, 2, 2, 1}, {0, 3, 2, 1}, {0, 8, 2, 4}, {0, 0, 1, 1},
		{1, 2, 1, 2}, {3, 8, 3, 2}, {8, 8, 8, 1}, {4, 2, 4, 1},
	} {
		s := &Server{Workers: c.set}
		w, j := s.Parallelism(c.cpus)
		if w != c.workers || j != c.jobs {
			t.Errorf("workers %d on %d CPUs: %d workers × %d jobs, want %d × %d", c.set, c.cpus, w, j, c.workers, c.jobs)
		}
		if (c.set <= c.cpus || c.set == 0) && c.cpus > 0 && w*j > c.cpus {
			t.Errorf("workers %d on %d CPUs: %d × %d exceeds the CPUs", c.set, c.cpus, w, j)
		}
	}
	for cpus := 1; cpus <= 64; cpus++ {
		if w, j := DefaultServer().Parallelism(cpus); w*j > cpus || w < 1 || j < 1 {
			t.Errorf("default on %d CPUs: %d workers × %d jobs", cpus, w, j)
		}
	}
}
