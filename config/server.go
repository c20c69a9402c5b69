package config

import (
	"bytes"
	"cmp"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/setbot/setbot/vocab"
)

// ServerFileName is the conventional name of the server's configuration file (setbot serve
// --config FILE takes any name).
const ServerFileName = "setbot.yml"

// Defaults of the server configuration.
const (
	DefaultListen          = ":8080"
	DefaultDatabase        = "setbot.db" // relative to the working directory
	DefaultCloneDir        = "repos"
	DefaultCacheMaxBytes   = 1 << 30 // 1 GiB
	DefaultWorkers         = 2
	MaxWorkers             = 64
	DefaultJobTimeout      = 30 * time.Minute
	DefaultShutdownTimeout = 60 * time.Second
	DefaultMaxBodyBytes    = 25 << 20    // GitHub's largest webhook payload
	MinJobLease            = time.Second // queue.MinLease
	DefaultLogLevel        = "info"
	DefaultLogFormat       = "json"
)

// Parallelism is how a server on cpus CPUs runs its analyses: workers of
// them at once (the workers key; unset, DefaultWorkers but never more than
// the CPUs), each exploring its trees with jobs workers of its own
// (--jobs), the CPUs shared equally and at least one each. So workers ×
// jobs never exceeds the CPUs unless the workers key asks for more
// analyses than there are CPUs: an exploration worker pays only on a core
// of its own, and on a busy 2-core machine a second one took 0.7-2.1 times
// the wall time of one and 10-30 % more CPU (docs/performance.md,
// Workers), which the analyses beside it would lose.
func (s *Server) Parallelism(cpus int) (workers, jobs int) {
	cpus = max(1, cpus)
	workers = s.Workers
	if workers <= 0 {
		workers = min(DefaultWorkers, cpus)
	}
	return workers, max(1, cpus/workers)
}

// Defaults of the ceilings and the memory budget: a host of 2 cores and 24 GB running
// DefaultWorkers analyses at once. Two jobs each within DefaultJobMemory of heap hold 12 GiB,
// which leaves room for Z3's own memory (outside Go's heap), the cache, the clones and the
// garbage collector's slack. Each count is ten to a hundred times its default in
// .setbot.yml: a real model that needs more states gets them up to the memory budget, which
// is what bounds the host.
const (
	DefaultJobMemory             = 6 << 30 // bytes of heap per job
	DefaultCeilingCommandTimeout = time.Minute
)

// DefaultCeilings returns the ceilings of a server whose configuration sets none: each
// bound's is its row's in the bounds table (vocab.Setting.Ceiling). The time ceiling is a
// third of DefaultJobTimeout, so that a base and a head tree fit in a job.
func DefaultCeilings() Ceilings {
	c := Ceilings{Bounds: vocab.Limits{}, CommandTimeout: DefaultCeilingCommandTimeout}
	for _, s := range vocab.Settings() {
		c.Bounds[s.Bound] = s.Ceiling
	}
	return c
}

// maxSecretFileBytes bounds a secret read from a file: a key is a few KiB, and a path such as
// /dev/zero must not hang the start.
const maxSecretFileBytes = 64 << 10

// The keys of each mapping of the server's file, in documentation order.
var (
	serverKeys   = []string{"listen", "database", "store", "clone_dir", "cache_max_bytes", "workers", "job_timeout", "job_memory", "analysis_process", "ceilings", "shutdown_timeout", "run_retention", "clone_max_age", "max_body_bytes", "job_lease", "sweep_interval", "log_level", "log_format", "public_url", "allow_fork_commands", "github", "schedules"}
	githubKeys   = []string{"base_url", "app_id", "private_key_file", "private_key", "token", "webhook_secret", "webhook_secret_file"}
	scheduleKeys = []string{"repo", "branch", "cron", "installation_id", "clone_url"}
	ceilingKeys  = append(boundKeys(), "command_timeout")

	logLevels         = []string{"debug", "info", "warn", "error"}
	logFormats        = []string{"json", "text"}
	analysisProcesses = []string{string(ProcessChild), string(ProcessInline)}
)

// AnalysisProcess says where the server runs each analysis.
type AnalysisProcess string

const (
	// ProcessChild runs each analysis in a child process of the server, so
	// that a fatal error or an out-of-memory kill ends that analysis, not
	// the server and the jobs beside it (the default).
	ProcessChild AnalysisProcess = "child"
	// ProcessInline runs each analysis in the server's own process, which
	// saves the child's start (tens of milliseconds a job).
	ProcessInline AnalysisProcess = "inline"
)

// serverEnv maps each environment variable to the key it overrides.
var serverEnv = []struct{ name, key string }{
	{"SETBOT_LISTEN", "listen"},
	{"SETBOT_DATABASE", "database"},
	{"SETBOT_DATABASE_URL", "store"},
	{"SETBOT_CLONE_DIR", "clone_dir"},
	{"SETBOT_WORKERS", "workers"},
	{"SETBOT_JOB_TIMEOUT", "job_timeout"},
	{"SETBOT_JOB_MEMORY", "job_memory"},
	{"SETBOT_LOG_LEVEL", "log_level"},
	{"SETBOT_LOG_FORMAT", "log_format"},
	{"SETBOT_PUBLIC_URL", "public_url"},
	{"SETBOT_GITHUB_BASE_URL", "github.base_url"},
	{"SETBOT_GITHUB_APP_ID", "github.app_id"},
	{"SETBOT_GITHUB_PRIVATE_KEY", "github.private_key"},
	{"SETBOT_GITHUB_PRIVATE_KEY_FILE", "github.private_key_file"},
	{"SETBOT_GITHUB_TOKEN", "github.token"},
	{"SETBOT_WEBHOOK_SECRET", "github.webhook_secret"},
	{"SETBOT_WEBHOOK_SECRET_FILE", "github.webhook_secret_file"},
}

// A secret is given inline or in a file: two keys for one setting.
type secretKeys struct{ inline, file string }

var (
	privateKeyKeys    = secretKeys{"github.private_key", "github.private_key_file"}
	webhookSecretKeys = secretKeys{"github.webhook_secret", "github.webhook_secret_file"}
)

// Server is the configuration of setbot serve: the file given with --config, completed by the
// environment.
type Server struct {
	Listen        string // the HTTP address of /webhook, /healthz, /readyz and /metrics
	Database      string // the SQLite file: cache and job queue (when Store is "")
	Store         string // a postgres:// URL: the PostgreSQL database that replicas share; "" for the SQLite Database. It may hold a password: nothing prints or logs it
	CloneDir      string // the bare clones of the repositories
	CacheMaxBytes int64  // the cache's size cap; 0 for none
	Workers       int    // concurrent analyses; 0 to size them to the machine (Parallelism)
	JobTimeout    time.Duration
	// JobMemory is the heap, in bytes, one job's analysis may hold; 0 for
	// none. Beyond it the exploration stops at the bound memory. The jobs
	// running at once share one heap, so it is counted from the job's
	// start: what the others add meanwhile counts too.
	JobMemory int64
	// AnalysisProcess says where each analysis runs: ProcessChild (the
	// default) or ProcessInline.
	AnalysisProcess AnalysisProcess
	// Ceilings are the most a repository's .setbot.yml may ask for.
	Ceilings        Ceilings
	ShutdownTimeout time.Duration // the graceful drain on SIGTERM
	RunRetention    time.Duration // how long the runs log is kept; 0 for cache.DefaultRunRetention
	CloneMaxAge     time.Duration // how long an unused clone is kept; 0 for vcs.DefaultCloneMaxAge
	MaxBodyBytes    int64         // the webhook body cap
	JobLease        time.Duration // with Store: how long a replica's claim on a running job lasts unrenewed; 0 for queue.DefaultLease
	SweepInterval   time.Duration // how often checks left in progress are looked for; 0 for bot.DefaultSweepInterval
	LogLevel        string        // debug, info, warn or error
	LogFormat       string        // json or text
	PublicURL       string        // this server's URL, for links; "" when not known
	// AllowForkCommands lets black-box functions' commands run for a pull
	// request whose head is in another repository (a fork). Without it,
	// only a pull request from a branch of the repository runs them, when
	// the repository's configuration allows commands at all.
	AllowForkCommands bool
	GitHub            GitHub
	Schedules         []Schedule
}

// GitHub says how to reach GitHub and how to check its webhooks. Exactly one of Token and
// AppID+PrivateKey is set. It holds secrets: nothing prints or logs it.
type GitHub struct {
	BaseURL       string // "" for github.com; the API URL of a GitHub Enterprise Server
	AppID         int64  // 0 with a token
	PrivateKey    []byte // the App's PEM key, read from its file or given inline
	Token         string // a personal access token, instead of an App
	WebhookSecret []byte // the HMAC SHA-256 secret of the webhook, read from its file or given inline
}

// A Schedule is a scheduled full re-analysis of one branch of a repository.
type Schedule struct {
	Repo           string // owner/name
	Branch         string // "" for the repository's default branch
	Cron           string // a standard five-field spec or a descriptor such as @daily
	CloneURL       string // derived from GitHub.BaseURL when not given
	InstallationID int64  // the App's installation on the repository; 0 with a token
}

// DefaultServer returns the configuration given by neither the file nor the environment. It
// has no webhook secret and no credentials, so it is not valid on its own.
func DefaultServer() *Server {
	return &Server{
		Listen:          DefaultListen,
		Database:        DefaultDatabase,
		CloneDir:        DefaultCloneDir,
		CacheMaxBytes:   DefaultCacheMaxBytes,
		JobTimeout:      DefaultJobTimeout,
		JobMemory:       DefaultJobMemory,
		AnalysisProcess: ProcessChild,
		Ceilings:        DefaultCeilings(),
		ShutdownTimeout: DefaultShutdownTimeout,
		MaxBodyBytes:    DefaultMaxBodyBytes,
		LogLevel:        DefaultLogLevel,
		LogFormat:       DefaultLogFormat,
	}
}

// LoadServer reads the server's configuration file at path ("" for none: the defaults), applies
// the environment env (os.Environ's "KEY=value" form; SETBOT_* variables override the file, and
// an empty one counts as unset), reads the secrets given as files (a trailing line break is
// trimmed) and validates the whole.
//
// When the file cannot be read, the error says so. Otherwise any problem gives a nil Server and
// an ErrorList of every problem found: those of the file first, in file order, each with its
// position and key path, then those of the environment, each naming its variable, then those of
// the configuration as a whole. No error ever quotes a secret.
func LoadServer(path string, env []string) (*Server, error) {
	var data []byte
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return nil, fmt.Errorf("reading the server configuration: %w", err)
		}
	}
	return loadServer(path, data, env)
}

// loadServer is LoadServer with the file's content, data, read from path ("" for no file).
func loadServer(path string, data []byte, env []string) (*Server, error) {
	l := &loader{
		p:      &parser{file: path, data: data},
		s:      DefaultServer(),
		raw:    make(map[string]string),
		origin: make(map[string]origin),
		bad:    make(map[string]bool),
	}
	if path != "" {
		root := l.p.document()
		if len(l.p.errs) > 0 {
			l.broken = true
		}
		if root != nil {
			l.p.walk(func() { l.file(root) })
		}
		l.conflicts()
	}
	l.environment(env)
	l.resolve()
	l.check()

	errs := append(l.p.errs, l.errs...)
	if len(errs) > 0 {
		// Errors with a place in the file first, in file order; the others as found.
		slices.SortStableFunc(errs, func(a, b *Error) int {
			return cmp.Or(cmp.Compare(unplaced(a), unplaced(b)),
				cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column))
		})
		return nil, errs
	}
	return l.s, nil
}

func unplaced(e *Error) int {
	if e.Pos.Line > 0 {
		return 0
	}
	return 1
}

// loader builds a Server from the file, then the environment.
type loader struct {
	p    *parser // the file's; its errs are the file's structural errors
	s    *Server
	errs ErrorList // the others

	raw       map[string]string // the secrets and secret files as given, by key
	origin    map[string]origin // where each setting given was found, by key
	bad       map[string]bool   // keys whose value was refused: the checks across keys skip them
	broken    bool              // the file, or its top level, could not be read: skip those checks
	schedules []scheduleEntry   // parallel to s.Schedules
}

// scheduleEntry is where a schedule is in the file, and whether all of it was valid.
type scheduleEntry struct {
	pos Position
	ok  bool
}

// An origin is where a setting was given: a position in the file, or an environment variable.
type origin struct {
	pos Position
	env string
}

// describe names the origin of the setting key for a message: "github.app_id at
// setbot.yml:3:11", or "SETBOT_GITHUB_APP_ID".
func (o origin) describe(key string) string {
	if o.env != "" {
		return o.env
	}
	return key + " at " + o.pos.String()
}

// A given is one value as written: a node of the file, or the text of an environment variable.
type given struct {
	node *yaml.Node // nil from the environment
	env  string
	text string
}

func (l *loader) fromFile(n *yaml.Node) given {
	return given{node: n, text: n.Value}
}

func (l *loader) originOf(g given) origin {
	if g.node == nil {
		return origin{env: g.env}
	}
	return origin{pos: Position{Filename: l.p.file, Line: max(g.node.Line, 1), Column: g.node.Column}}
}

// report adds an error at o: the position and key path in the file, or the variable.
func (l *loader) report(o origin, path, format string, args ...any) {
	e := &Error{Pos: o.pos, Path: path, Msg: fmt.Sprintf(format, args...)}
	if o.env != "" {
		e.Path = o.env
	}
	l.errs = append(l.errs, e)
}

func (l *loader) fail(g given, path, format string, args ...any) {
	l.report(l.originOf(g), path, format, args...)
}

// file reads the server's configuration at root.
func (l *loader) file(root *yaml.Node) {
	p := l.p
	if isNull(root) {
		return
	}
	ok := p.fields(root, "", "key", serverKeys, func(key string, v *yaml.Node) {
		switch key {
		case "github":
			if !p.fields(v, key, "key", githubKeys, func(k string, v *yaml.Node) { l.set(join(key, k), l.fromFile(v)) }) {
				for _, k := range githubKeys {
					l.bad[join(key, k)] = true
				}
			}
		case "schedules":
			l.readSchedules(v, key)
		case "ceilings":
			p.fields(v, key, "key", ceilingKeys, func(k string, v *yaml.Node) { l.set(join(key, k), l.fromFile(v)) })
		default:
			l.set(key, l.fromFile(v))
		}
	})
	if !ok {
		l.broken = true
	}
}

// set reads the setting key from g, where key is also the key path for errors.
func (l *loader) set(key string, g given) {
	s := l.s
	var ok bool
	switch key {
	case "listen":
		ok = l.address(g, key, &s.Listen)
	case "database":
		ok = l.path(g, key, &s.Database)
	case "store":
		ok = l.store(g, key, &s.Store)
	case "job_lease":
		if ok = l.duration(g, key, &s.JobLease); ok && s.JobLease < MinJobLease {
			l.fail(g, key, "a lease of %v is shorter than %v: a replica renews it every third", s.JobLease, MinJobLease)
			ok = false
		}
	case "sweep_interval":
		ok = l.duration(g, key, &s.SweepInterval)
	case "clone_dir":
		ok = l.path(g, key, &s.CloneDir)
	case "cache_max_bytes":
		ok = l.size(g, key, 0, &s.CacheMaxBytes)
	case "workers":
		ok = number(l, g, key, 1, MaxWorkers, fmt.Sprintf("an integer from 1 to %d", MaxWorkers), &s.Workers)
	case "job_timeout":
		ok = l.duration(g, key, &s.JobTimeout)
	case "job_memory":
		ok = l.size(g, key, 0, &s.JobMemory)
	case "analysis_process":
		var v string
		if ok = l.choice(g, key, "analysis process", analysisProcesses, &v); ok {
			s.AnalysisProcess = AnalysisProcess(v)
		}
	case "ceilings.command_timeout":
		ok = l.duration(g, key, &s.Ceilings.CommandTimeout)
	case "shutdown_timeout":
		ok = l.duration(g, key, &s.ShutdownTimeout)
	case "run_retention":
		ok = l.duration(g, key, &s.RunRetention)
	case "clone_max_age":
		ok = l.duration(g, key, &s.CloneMaxAge)
	case "max_body_bytes":
		ok = l.size(g, key, 1, &s.MaxBodyBytes)
	case "log_level":
		ok = l.choice(g, key, "log level", logLevels, &s.LogLevel)
	case "log_format":
		ok = l.choice(g, key, "log format", logFormats, &s.LogFormat)
	case "allow_fork_commands":
		ok = l.boolean(g, key, &s.AllowForkCommands)
	case "public_url":
		ok = l.url(g, key, []string{"http", "https"}, "https://setbot.example.com", &s.PublicURL)
	case "github.base_url":
		ok = l.url(g, key, []string{"http", "https"}, "https://ghe.example.com/api/v3/", &s.GitHub.BaseURL)
	case "github.app_id":
		ok = number(l, g, key, 0, math.MaxInt64, "an App id, a positive integer (or 0 for none)", &s.GitHub.AppID)
	case "github.token":
		ok = l.secret(g, key, &s.GitHub.Token)
	case "ceilings." + strings.TrimPrefix(key, "ceilings."):
		ok = l.ceiling(g, key, setting(strings.TrimPrefix(key, "ceilings.")))
	default:
		ok = l.secretOrFile(key, g)
	}
	l.bad[key] = !ok
	if ok && g.text != "" {
		l.origin[key] = l.originOf(g)
	}
}

// secretOrFile reads a secret, or the file that holds one, into l.raw: the
// secrets are resolved once everything is read.
func (l *loader) secretOrFile(key string, g given) bool {
	var v string
	var ok bool
	if key == privateKeyKeys.file || key == webhookSecretKeys.file {
		ok = l.path(g, key, &v)
	} else {
		ok = l.secret(g, key, &v)
	}
	if ok {
		l.raw[key] = v
	}
	return ok
}

// conflicts reports a secret given both inline and as a file in the configuration file.
func (l *loader) conflicts() {
	for _, k := range []secretKeys{privateKeyKeys, webhookSecretKeys} {
		in, okIn := l.origin[k.inline]
		file, okFile := l.origin[k.file]
		if !okIn || !okFile {
			continue
		}
		later, key := file, k.file
		if in.pos.Line > file.pos.Line || in.pos.Line == file.pos.Line && in.pos.Column > file.pos.Column {
			later, key = in, k.inline
		}
		l.report(later, key, "set only one of %s and %s", k.inline, k.file)
		l.bad[k.inline], l.bad[k.file] = true, true
	}
}

// environment applies the SETBOT_* variables of env, and reports those setbot does not know.
func (l *loader) environment(env []string) {
	known := make([]string, len(serverEnv))
	for i, e := range serverEnv {
		known[i] = e.name
	}
	values := make(map[string]string)
	var unknown []string
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case !strings.HasPrefix(strings.ToUpper(name), "SETBOT_"):
		case !slices.Contains(known, name):
			unknown = append(unknown, name)
		default:
			if _, dup := values[name]; !dup { // the first wins, as with os.Getenv
				values[name] = value
			}
		}
	}
	// A secret from the environment, in either form, replaces the file's, in either form.
	for _, k := range []secretKeys{privateKeyKeys, webhookSecretKeys} {
		inVar, fileVar := envName(k.inline), envName(k.file)
		switch in, file := values[inVar], values[fileVar]; {
		case in != "" && file != "":
			l.report(origin{env: fileVar}, "", "set only one of %s and %s", inVar, fileVar)
			delete(values, inVar)
			delete(values, fileVar)
			l.bad[k.inline], l.bad[k.file] = true, true
		case in != "" || file != "":
			for _, key := range []string{k.inline, k.file} {
				delete(l.raw, key)
				delete(l.origin, key)
				delete(l.bad, key)
			}
		}
	}
	for _, e := range serverEnv {
		if v := values[e.name]; v != "" {
			l.set(e.key, given{env: e.name, text: v})
		}
	}
	slices.Sort(unknown)
	for _, name := range slices.Compact(unknown) {
		l.report(origin{env: name}, "", "unknown variable%s (known: %s)",
			suggest(closest(strings.ToUpper(name), known)), strings.Join(known, ", "))
	}
}

func envName(key string) string {
	for _, e := range serverEnv {
		if e.key == key {
			return e.name
		}
	}
	panic("no environment variable for " + key)
}

// resolve reads the secrets given as files, checks the private key, and derives the clone URLs.
func (l *loader) resolve() {
	gh := &l.s.GitHub
	if key, ok := l.readSecret(privateKeyKeys); ok && key != nil {
		// A key pasted into a single-line variable has its line breaks written \n.
		if !bytes.Contains(key, []byte("\n")) {
			key = bytes.ReplaceAll(key, []byte(`\n`), []byte("\n"))
		}
		k := privateKeyKeys.inline
		if _, inFile := l.origin[privateKeyKeys.file]; inFile {
			k = privateKeyKeys.file
		}
		if err := checkPrivateKey(key); err != nil {
			l.report(l.origin[k], k, "%v", err)
			l.bad[k] = true
		} else {
			gh.PrivateKey = key
		}
	}
	if secret, ok := l.readSecret(webhookSecretKeys); ok {
		gh.WebhookSecret = secret
	}
	if l.bad["github.base_url"] {
		return
	}
	for i := range l.s.Schedules {
		if sc := &l.s.Schedules[i]; sc.CloneURL == "" && sc.Repo != "" {
			sc.CloneURL = cloneURL(gh.BaseURL, sc.Repo)
		}
	}
}

// readSecret returns the secret of k, read from its file or given inline; nil when neither is
// set, and false when the file could not be read.
func (l *loader) readSecret(k secretKeys) ([]byte, bool) {
	if l.bad[k.inline] || l.bad[k.file] {
		return nil, false
	}
	if v, ok := l.raw[k.inline]; ok && v != "" {
		if strings.TrimSpace(v) == "" {
			// Spaces are no secret: a value mangled on its way here.
			l.report(l.origin[k.inline], k.inline, "the secret is only white space")
			l.bad[k.inline] = true
			return nil, false
		}
		return []byte(v), true
	}
	name := l.raw[k.file]
	if name == "" {
		return nil, true
	}
	o := l.origin[k.file]
	data, err := readSecretFile(name)
	switch {
	case err != nil:
	case len(data) == 0:
		err = fmt.Errorf("%s is empty", name)
	case len(bytes.TrimSpace(data)) == 0:
		err = fmt.Errorf("%s holds only white space, not a secret", name)
	}
	if err != nil {
		l.report(o, k.file, "%v", err)
		l.bad[k.file] = true
		return nil, false
	}
	return data, true
}

// readSecretFile reads a secret from the file name, without its trailing line breaks.
func readSecretFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("reading the secret: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSecretFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the secret: %w", err)
	}
	if len(data) > maxSecretFileBytes {
		return nil, fmt.Errorf("%s is larger than %d KiB: not a secret", name, maxSecretFileBytes>>10)
	}
	return bytes.TrimRight(data, "\r\n"), nil
}

// checkPrivateKey says what is wrong with an App's private key, never quoting it: it must be
// an RSA key in PEM, PKCS #1 as GitHub issues them, or PKCS #8.
func checkPrivateKey(data []byte) error {
	block, _ := pem.Decode(data)
	if block == nil {
		return errors.New("the private key is not PEM: want the .pem file GitHub generated, starting with -----BEGIN RSA PRIVATE KEY-----")
	}
	switch block.Type {
	case "RSA PRIVATE KEY":
		if _, err := x509.ParsePKCS1PrivateKey(block.Bytes); err != nil {
			return fmt.Errorf("the private key's RSA PRIVATE KEY block does not parse: %v", err)
		}
	case "PRIVATE KEY":
		key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return fmt.Errorf("the private key's PRIVATE KEY block does not parse: %v", err)
		}
		if _, ok := key.(*rsa.PrivateKey); !ok {
			return fmt.Errorf("the private key is a %T, want an RSA key", key)
		}
	default:
		return fmt.Errorf("the private key's PEM block is %s, want RSA PRIVATE KEY", quote(block.Type))
	}
	return nil
}

// cloneURL is the HTTPS URL of repo on github.com, or on the host of the Enterprise API URL
// baseURL (valid): https://ghe.example.com/api/v3/ clones from https://ghe.example.com/owner/name.git.
func cloneURL(baseURL, repo string) string {
	if baseURL == "" {
		return "https://github.com/" + repo + ".git"
	}
	u, _ := url.Parse(baseURL)
	// An API on its own subdomain (api.github.com, api.example.ghe.com) serves git on the domain.
	host := strings.TrimPrefix(u.Host, "api.")
	return (&url.URL{Scheme: u.Scheme, Host: host, Path: "/" + repo + ".git"}).String()
}

// check validates what depends on several settings, skipping any that was refused already.
func (l *loader) check() {
	if l.broken {
		return
	}
	gh := &l.s.GitHub
	if len(gh.WebhookSecret) == 0 && !l.bad[webhookSecretKeys.inline] && !l.bad[webhookSecretKeys.file] {
		l.report(origin{}, "", "no webhook secret: set github.webhook_secret, github.webhook_secret_file or SETBOT_WEBHOOK_SECRET")
	}

	if l.bad["github.token"] || l.bad["github.app_id"] || l.bad[privateKeyKeys.inline] || l.bad[privateKeyKeys.file] {
		return
	}
	token, app, key := gh.Token != "", gh.AppID != 0, len(gh.PrivateKey) > 0
	keyKey := privateKeyKeys.inline
	if _, inFile := l.origin[privateKeyKeys.file]; inFile {
		keyKey = privateKeyKeys.file
	}
	switch {
	case token && app:
		l.report(l.origin["github.token"], "github.token", "a token and an App (%s) are both set: use one",
			l.origin["github.app_id"].describe("github.app_id"))
	case token && key:
		l.report(l.origin["github.token"], "github.token", "a token and an App private key (%s) are both set: use one",
			l.origin[keyKey].describe(keyKey))
	case !token && !app && !key:
		l.report(origin{}, "", "no GitHub credentials: set github.token (or SETBOT_GITHUB_TOKEN), or github.app_id "+
			"and github.private_key_file (or SETBOT_GITHUB_APP_ID and SETBOT_GITHUB_PRIVATE_KEY_FILE)")
	case app && !key:
		l.report(l.origin["github.app_id"], "github.app_id", "an App id but no private key: set github.private_key_file "+
			"or github.private_key (or SETBOT_GITHUB_PRIVATE_KEY_FILE or SETBOT_GITHUB_PRIVATE_KEY)")
	case key && !app:
		l.report(l.origin[keyKey], keyKey, "a private key but no App id: set github.app_id (or SETBOT_GITHUB_APP_ID)")
	}

	if app {
		for i, sc := range l.s.Schedules {
			if e := l.schedules[i]; e.ok && sc.InstallationID == 0 {
				l.report(origin{pos: e.pos}, index("schedules", i),
					"missing installation_id: an App needs the installation on %s (no webhook tells it)", sc.Repo)
			}
		}
	}
}

// readSchedules reads the list of schedules at n.
func (l *loader) readSchedules(n *yaml.Node, path string) {
	p := l.p
	if n.Kind != yaml.SequenceNode {
		p.errorf(n, path, "expected a list of schedules, found %s", describe(n))
		return
	}
	type branch struct{ repo, branch string }
	first := make(map[branch]Position)
	l.s.Schedules = make([]Schedule, 0, len(n.Content))
	for i, e := range n.Content {
		path := index(path, i)
		e = p.value(e)
		var sc Schedule
		ok := true
		isMap := p.fields(e, path, "key", scheduleKeys, func(key string, v *yaml.Node) {
			path, g := join(path, key), l.fromFile(v)
			var valid bool
			switch key {
			case "repo":
				valid = l.repo(g, path, &sc.Repo)
			case "branch":
				valid = l.branch(g, path, &sc.Branch)
			case "cron":
				valid = l.cron(g, path, &sc.Cron)
			case "installation_id":
				valid = number(l, g, path, 0, math.MaxInt64, "an installation id, a positive integer", &sc.InstallationID)
			case "clone_url":
				valid = l.url(g, path, []string{"https", "http", "file"}, "https://github.com/owner/name.git", &sc.CloneURL)
			}
			ok = ok && valid
		})
		pos := Position{Filename: p.file, Line: max(e.Line, 1), Column: e.Column}
		if isMap {
			if sc.Repo == "" && ok {
				p.errorf(e, path, "missing repo: the repository, as owner/name")
				ok = false
			}
			if sc.Cron == "" && ok {
				p.errorf(e, path, `missing cron: when to run, such as "0 3 * * *" or "@daily"`)
				ok = false
			}
		}
		ok = ok && isMap
		if ok {
			// GitHub's names are case-insensitive.
			b := branch{strings.ToLower(sc.Repo), sc.Branch}
			if at, dup := first[b]; dup {
				which := "its default branch"
				if sc.Branch != "" {
					which = "branch " + sc.Branch
				}
				p.errorf(e, path, "a second schedule for %s, %s (first at %d:%d): one cron spec per branch", sc.Repo, which, at.Line, at.Column)
				ok = false
			} else {
				first[b] = pos
			}
		}
		l.s.Schedules = append(l.s.Schedules, sc)
		l.schedules = append(l.schedules, scheduleEntry{pos: pos, ok: ok})
	}
}

// text returns the text of g: a YAML string in the file, any text in the environment. want
// says what was expected, for the error.
func (l *loader) text(g given, path, want string) (string, bool) {
	if g.node != nil && !isString(g.node) {
		l.fail(g, path, "expected %s, found %s", want, describe(g.node))
		return "", false
	}
	return g.text, true
}

// secret is text for a secret, whose errors never show the value.
func (l *loader) secret(g given, path string, dst *string) bool {
	if n := g.node; n != nil && !isString(n) {
		what := "a value tagged " + n.ShortTag()
		switch {
		case n.Kind != yaml.ScalarNode:
			what = describe(n)
		case n.ShortTag() == "!!int":
			what = "an integer"
		case n.ShortTag() == "!!float":
			what = "a number"
		case n.ShortTag() == "!!bool":
			what = "a boolean"
		}
		l.fail(g, path, "expected a string, found %s (not shown; quote it)", what)
		return false
	}
	*dst = g.text
	return true
}

func (l *loader) path(g given, path string, dst *string) bool {
	s, ok := l.text(g, path, "a file path")
	if !ok {
		return false
	}
	if s == "" && g.node != nil && !strings.HasSuffix(path, "_file") {
		l.fail(g, path, "empty path")
		return false
	}
	*dst = s
	return true
}

func (l *loader) address(g given, path string, dst *string) bool {
	s, ok := l.text(g, path, "an address such as :8080")
	if !ok {
		return false
	}
	_, port, err := net.SplitHostPort(s)
	if err == nil {
		_, err = strconv.ParseUint(port, 10, 16)
	}
	if err != nil {
		l.fail(g, path, "invalid address %s (want host:port, such as :8080 or 127.0.0.1:8080)", quote(s))
		return false
	}
	*dst = s
	return true
}

func (l *loader) choice(g given, path, what string, allowed []string, dst *string) bool {
	s, ok := l.text(g, path, orList(allowed))
	if !ok {
		return false
	}
	if !slices.Contains(allowed, s) {
		l.fail(g, path, "unknown %s %s%s (want %s)", what, quote(s), didYouMean(s, allowed), orList(allowed))
		return false
	}
	*dst = s
	return true
}

// url accepts "" or an absolute URL with one of schemes, without credentials (which are not
// quoted in the error). example is shown in the error.
func (l *loader) url(g given, path string, schemes []string, example string, dst *string) bool {
	s, ok := l.text(g, path, "a URL")
	if !ok {
		return false
	}
	if s == "" {
		*dst = ""
		return true
	}
	u, err := url.Parse(s)
	switch {
	case err == nil && u.User != nil:
		l.fail(g, path, "the URL holds a user name or token (before @): remove it; setbot authenticates itself")
	case err != nil && strings.Contains(s, "@"):
		l.fail(g, path, "invalid URL, not shown as it may hold credentials (want an absolute %s URL, such as %s)", orList(schemes), example)
	case err != nil || !slices.Contains(schemes, u.Scheme) || u.Opaque != "" || u.Host == "" && u.Scheme != "file":
		l.fail(g, path, "invalid URL %s (want an absolute %s URL, such as %s)", quote(s), orList(schemes), example)
	default:
		*dst = s
		return true
	}
	return false
}

// store accepts the URL of a PostgreSQL database. It may hold a password,
// so no error quotes it.
func (l *loader) store(g given, path string, dst *string) bool {
	if !l.secret(g, path, dst) || *dst == "" {
		return *dst == ""
	}
	u, err := url.Parse(*dst)
	switch {
	case err != nil:
		l.fail(g, path, "invalid URL, not shown as it may hold a password (want postgres://user:password@host:5432/database)")
	case u.Scheme == "":
		l.fail(g, path, "the store is a PostgreSQL URL such as postgres://user:password@host:5432/database, not a path (for a SQLite file, set database)")
	case u.Scheme != "postgres" && u.Scheme != "postgresql":
		l.fail(g, path, "the store is a PostgreSQL URL such as postgres://user:password@host:5432/database, not a %s URL", quote(u.Scheme))
	case u.Host == "" || u.Opaque != "":
		l.fail(g, path, "the PostgreSQL URL names no host (want postgres://user:password@host:5432/database)")
	default:
		return true
	}
	*dst = ""
	return false
}

// number accepts an integer from lo to hi; want describes it, for the error.
func number[T int | int64](l *loader, g given, path string, lo, hi int64, want string, dst *T) bool {
	var v int64
	if n := g.node; n != nil {
		if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
			l.fail(g, path, "expected %s, found %s", want, describe(n))
			return false
		}
		if err := n.Decode(&v); err != nil {
			l.fail(g, path, "integer %s out of range (want %s)", n.Value, want)
			return false
		}
	} else {
		var err error
		if v, err = strconv.ParseInt(g.text, 10, 64); err != nil {
			l.fail(g, path, "expected %s, found %s", want, quote(g.text))
			return false
		}
	}
	if v < lo || v > hi {
		l.fail(g, path, "%d is out of range (want %s)", v, want)
		return false
	}
	*dst = T(v)
	return true
}

// ceiling accepts the ceiling of bound s: of a count, a positive integer; of a duration, a
// positive duration.
func (l *loader) ceiling(g given, path string, s vocab.Setting) bool {
	var v int64
	var ok bool
	if s.Unit == vocab.UnitDuration {
		var d time.Duration
		ok, v = l.duration(g, path, &d), int64(d)
	} else {
		ok = number(l, g, path, 1, math.MaxInt32, fmt.Sprintf("a positive integer, at most %d", math.MaxInt32), &v)
	}
	if ok {
		if l.s.Ceilings.Bounds == nil {
			l.s.Ceilings.Bounds = vocab.Limits{}
		}
		l.s.Ceilings.Bounds[s.Bound] = v
	}
	return ok
}

// size accepts a number of bytes, at least lo: an integer, or a string with a unit.
func (l *loader) size(g given, path string, lo int64, dst *int64) bool {
	var v int64
	n := g.node
	switch {
	case n != nil && n.Kind == yaml.ScalarNode && n.ShortTag() == "!!int":
		if err := n.Decode(&v); err != nil {
			l.fail(g, path, "size %s out of range", n.Value)
			return false
		}
	case n != nil && !isString(n):
		l.fail(g, path, "expected a size such as 1GiB or 500MB, found %s", describe(n))
		return false
	default:
		var err error
		if v, err = ParseSize(g.text); err != nil {
			l.fail(g, path, "invalid size %s: %v", quote(g.text), err)
			return false
		}
	}
	switch {
	case v < 0:
		l.fail(g, path, "negative size %d", v)
	case v < lo:
		l.fail(g, path, "size %d is too small (want at least %d)", v, lo)
	default:
		*dst = v
		return true
	}
	return false
}

var (
	sizeText  = regexp.MustCompile(`^(\d+) ?([A-Za-z]*)$`)
	sizeUnits = map[string]int64{
		"": 1, "b": 1,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
	}
)

// ParseSize reads a size such as 1073741824, 500MB or 1GiB, as the server's configuration
// and the command line write them.
func ParseSize(s string) (int64, error) {
	m := sizeText.FindStringSubmatch(s)
	if m == nil {
		return 0, errors.New("want a number of bytes, or a whole number with a unit such as 500MB or 1GiB")
	}
	unit, ok := sizeUnits[strings.ToLower(m[2])]
	if !ok {
		return 0, fmt.Errorf("unknown unit %s (want B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)", quote(m[2]))
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || n > math.MaxInt64/unit {
		return 0, errors.New("too large")
	}
	return n * unit, nil
}

// boolean accepts true or false.
func (l *loader) boolean(g given, path string, dst *bool) bool {
	if n := g.node; n != nil && (n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool") {
		l.fail(g, path, "expected true or false, found %s", describe(n))
		return false
	}
	b, err := strconv.ParseBool(g.text)
	if err != nil {
		l.fail(g, path, "expected true or false, found %s", quote(g.text))
		return false
	}
	*dst = b
	return true
}

// duration accepts a positive Go duration.
func (l *loader) duration(g given, path string, dst *time.Duration) bool {
	if n := g.node; n != nil {
		if tag := n.ShortTag(); n.Kind != yaml.ScalarNode || tag != "!!str" && tag != "!!int" {
			l.fail(g, path, "expected a duration such as 30m or 90s, found %s", describe(n))
			return false
		}
	}
	d, err := time.ParseDuration(g.text)
	_, isInt := strconv.ParseInt(g.text, 10, 64)
	switch {
	case err != nil && isInt == nil:
		l.fail(g, path, "duration %s has no unit; write %ss for seconds", g.text, g.text)
	case err != nil:
		l.fail(g, path, "invalid duration %s (want a Go duration such as 30m or 90s)", quote(g.text))
	case d <= 0:
		l.fail(g, path, "duration %s is not positive", g.text)
	default:
		*dst = d
		return true
	}
	return false
}

var repoName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$`)

func (l *loader) repo(g given, path string, dst *string) bool {
	s, ok := l.text(g, path, "a repository, owner/name")
	if !ok {
		return false
	}
	if !repoName.MatchString(s) || strings.HasSuffix(s, "/.") || strings.HasSuffix(s, "/..") {
		l.fail(g, path, "invalid repository %s (want owner/name, such as octo-org/models)", quote(s))
		return false
	}
	*dst = s
	return true
}

func (l *loader) branch(g given, path string, dst *string) bool {
	s, ok := l.text(g, path, "a branch name")
	if !ok {
		return false
	}
	switch {
	case strings.HasPrefix(s, "refs/"):
		l.fail(g, path, "write the branch's name, %s, not the ref %s", quote(strings.TrimPrefix(strings.TrimPrefix(s, "refs/"), "heads/")), quote(s))
	case s != "" && !validBranch(s):
		l.fail(g, path, "invalid branch name %s (see git check-ref-format)", quote(s))
	default:
		*dst = s
		return true
	}
	return false
}

// validBranch applies git check-ref-format's rules to a branch name.
func validBranch(b string) bool {
	if b == "@" || strings.HasPrefix(b, "-") || strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/") ||
		strings.HasSuffix(b, ".") || strings.Contains(b, "..") || strings.Contains(b, "//") || strings.Contains(b, "@{") {
		return false
	}
	for _, r := range b {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return false
		}
	}
	for c := range strings.SplitSeq(b, "/") {
		if strings.HasPrefix(c, ".") || strings.HasSuffix(c, ".lock") {
			return false
		}
	}
	return true
}

func (l *loader) cron(g given, path string, dst *string) bool {
	s, ok := l.text(g, path, "a cron spec")
	if !ok {
		return false
	}
	if err := checkCron(s); err != nil {
		l.fail(g, path, "invalid cron spec %s: %v", quote(s), err)
		return false
	}
	*dst = s
	return true
}
