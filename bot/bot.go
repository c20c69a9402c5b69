// Package bot wires GitHub to setbot's analysis pipeline (docs/architecture.md
// §The bot): webhooks become durable jobs, a bounded pool of workers runs them
// through the same pipeline `setbot analyze` runs, and the results go back
// as one pull-request comment and a `setbot` check run. It never parses a
// model and never explores a tree itself.
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/bot/ghapi"
	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/bot/schedule"
	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/solver"
)

// Defaults.
const (
	// DefaultPollInterval is how often an idle worker looks for jobs that
	// no notification announced (jobs of another process, requeued ones).
	DefaultPollInterval = 2 * time.Second
	// DefaultSweepInterval is how often check runs left in progress are
	// looked for and closed.
	DefaultSweepInterval = 2 * time.Minute
)

// GitHub makes the client of an installation (0 with a plain token) and
// lists the App's installations (none with a plain token); ghapi.Factory
// is one.
type GitHub interface {
	Client(installationID int64) (ghapi.Client, error)
	Installations(ctx context.Context) ([]int64, error)
}

// Options are what a Bot needs besides its configuration.
type Options struct {
	// Store, Queue and Schedules keep the bot's state: all three in one
	// SQLite file (cache.Open, queue.Open, schedule.Open), or in one
	// PostgreSQL database that several servers share (the OpenPostgres
	// functions of each package).
	Store     cache.Backend
	Queue     *queue.Queue
	Schedules schedule.Backend
	GitHub    GitHub
	Solver    solver.Factory
	Logger    *slog.Logger
	// RewriteCloneURL, when set, maps a repository's clone URL before
	// cloning (tests clone local repositories in place of github.com).
	RewriteCloneURL func(string) string
	// PollInterval overrides DefaultPollInterval.
	PollInterval time.Duration
	// SweepInterval overrides DefaultSweepInterval.
	SweepInterval time.Duration
	// Intake bounds how webhook requests are read; zero fields take the
	// defaults.
	Intake IntakeLimits
	// Now is the clock of the queue and of retry times; nil means
	// time.Now. Tests replace it to cross long waits at once.
	Now func() time.Time
	// Analyzer, when set, runs each analysis in a child process of the
	// server (analysis.InChild), so that a fatal error or an out-of-memory
	// kill ends that analysis only; the child opens the store the
	// configuration names (Database or Store). Nil runs analyses in the
	// server's own process (analysis_process: inline).
	Analyzer *analysis.Command
}

// Bot is the webhook server's logic.
type Bot struct {
	cfg       *config.Server
	store     cache.Backend
	queue     *queue.Queue
	schedules schedule.Backend // the repositories' own schedules
	github    GitHub
	solver    solver.Factory
	log       *slog.Logger
	metrics   *Metrics
	rewrite   func(string) string
	poll      time.Duration
	sweep     time.Duration
	now       func() time.Time
	analyzer  *analysis.Command // nil: analyses run in this process

	drain    *ghapi.Drain // begins when Run stops taking jobs
	handlers map[string]EventHandler
	intake   IntakeLimits
	reading  *budget    // bytes of webhook bodies being read, beyond each one's own
	sched    *schedules // set while running

	mu       sync.Mutex
	running  map[string]*runningJob // by job key
	clients  map[int64]ghapi.Client // by installation, for the rate-limit gauge
	draining bool
	wg       sync.WaitGroup
}

// runningJob is a job a worker is running, with the means to stop it.
type runningJob struct {
	id     int64
	kind   string
	cancel context.CancelCauseFunc
}

var (
	// errSuperseded cancels a run whose pull request got a newer head.
	errSuperseded = errors.New("superseded by a newer commit")
	// errLeaseLost cancels a run that another server took over: this one
	// stalled past its lease, and the job is no longer its own.
	errLeaseLost = errors.New("taken over by another server")
)

// New makes a Bot.
func New(cfg *config.Server, opts Options) (*Bot, error) {
	if opts.Store == nil || opts.Queue == nil || opts.Schedules == nil || opts.GitHub == nil || opts.Solver == nil {
		return nil, errors.New("bot: a store, a queue, schedules, a GitHub client factory and a solver are required")
	}
	if len(cfg.GitHub.WebhookSecret) == 0 {
		return nil, errors.New("no webhook secret: set github.webhook_secret, github.webhook_secret_file or SETBOT_WEBHOOK_SECRET")
	}
	q := opts.Queue
	b := &Bot{
		cfg: cfg, store: opts.Store, queue: q, schedules: opts.Schedules, github: opts.GitHub, solver: opts.Solver,
		log: opts.Logger, rewrite: opts.RewriteCloneURL, poll: opts.PollInterval, sweep: opts.SweepInterval, now: opts.Now, analyzer: opts.Analyzer,
		running: make(map[string]*runningJob), clients: make(map[int64]ghapi.Client),
		intake: opts.Intake.withDefaults(), reading: newBudget(MaxConcurrentReads * maxBody(cfg)), drain: ghapi.NewDrain(),
	}
	if b.log == nil {
		b.log = slog.Default()
	}
	if b.poll <= 0 {
		b.poll = DefaultPollInterval
	}
	if b.sweep <= 0 {
		b.sweep = DefaultSweepInterval
	}
	if b.now == nil {
		b.now = time.Now
	}
	b.metrics = newMetrics(b)
	q.SetClock(b.now)
	// Jobs the queue cancels while they wait were superseded as much as
	// those a worker stops.
	q.OnCancel(func(kind string) { b.metrics.jobs.WithLabelValues(kind, "superseded").Inc() })
	b.handlers = make(map[string]EventHandler)
	for _, h := range []EventHandler{pullRequest, push, checkRun, checkSuite, mergeGroup, issueComment} {
		for _, event := range h.Handles() {
			b.handlers[event] = h
		}
	}
	return b, nil
}

// Metrics is the bot's Prometheus registry and collectors.
func (b *Bot) Metrics() *Metrics { return b.metrics }

// enqueue writes the jobs of one delivery (all or none) and stops older
// runs of the same pull requests or branches, which they supersede.
func (b *Bot) enqueue(ctx context.Context, jobs ...queue.Job) ([]int64, bool, error) {
	ids, dup, err := b.queue.EnqueueAll(ctx, jobs)
	if err != nil || dup {
		return ids, dup, err
	}
	for i, j := range jobs {
		b.supersede(j.Key(), ids[i])
	}
	return ids, false, nil
}

// supersede stops this server's run of key older than the job id, if any.
// A full re-analysis is never cut short: the newer job waits.
func (b *Bot) supersede(key string, id int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if r := b.running[key]; r != nil && r.id < id && r.kind != queue.KindFull {
		r.cancel(errSuperseded)
	}
}

// queueEvent acts on news from the servers that share the queue: a job
// one of them queued supersedes this server's run of its key, and a job
// another server took over stops here.
func (b *Bot) queueEvent(e queue.Event) {
	switch {
	case e.ID > 0:
		b.supersede(e.Key, e.ID)
	case e.Lost > 0:
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, r := range b.running {
			if r.id == e.Lost {
				r.cancel(errLeaseLost)
			}
		}
	}
}

// client returns the GitHub client of a job's installation.
func (b *Bot) client(installation int64) (ghapi.Client, error) {
	c, err := b.github.Client(installation)
	if err != nil {
		return nil, fmt.Errorf("github client of installation %d: %w", installation, err)
	}
	b.mu.Lock()
	b.clients[installation] = c
	b.mu.Unlock()
	return c, nil
}

// rateRemaining is the lowest remaining rate limit the clients last saw
// (-1 before any response).
func (b *Bot) rateRemaining() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	low := -1
	for _, c := range b.clients {
		if n := c.RateRemaining(); n >= 0 && (low < 0 || n < low) {
			low = n
		}
	}
	return low
}

// splitRepo splits "owner/name".
func splitRepo(full string) (ghapi.Repo, error) {
	for i := 0; i < len(full); i++ {
		if full[i] == '/' && i > 0 && i < len(full)-1 {
			return ghapi.Repo{Owner: full[:i], Name: full[i+1:]}, nil
		}
	}
	return ghapi.Repo{}, fmt.Errorf("repository %q is not owner/name", full)
}
