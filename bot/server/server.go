// Package server is `setbot serve` once its configuration is loaded: it
// opens the store the configuration names (a SQLite file, or a PostgreSQL
// database that several replicas share), the GitHub client and the bot,
// and serves until stopped.
package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/setbot/setbot/bot"
	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/bot/ghapi"
	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/bot/schedule"
	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/internal/blackbox"
	"github.com/setbot/setbot/solver"
)

// Stores are the bot's state in one database.
type Stores struct {
	Cache     cache.Backend
	Queue     *queue.Queue
	Schedules schedule.Backend
	// Rebuilt says why a SQLite file was not trusted and was moved aside
	// ("" if it was fine, and always with PostgreSQL).
	Rebuilt string
}

// Open opens the stores cfg names: the PostgreSQL database of cfg.Store
// when it is set, the SQLite file cfg.Database otherwise. The caller
// closes Cache when done.
func Open(ctx context.Context, cfg *config.Server, log *slog.Logger) (*Stores, error) {
	opts := cache.Options{MaxBytes: cfg.CacheMaxBytes, Logger: log}
	if cfg.Store == "" {
		store, err := cache.Open(cfg.Database, opts)
		if err != nil {
			return nil, err
		}
		q, err := queue.Open(ctx, store)
		if err != nil {
			store.Close()
			return nil, err
		}
		sched, err := schedule.Open(ctx, store)
		if err != nil {
			store.Close()
			return nil, err
		}
		return &Stores{Cache: store, Queue: q, Schedules: sched, Rebuilt: store.Rebuilt()}, nil
	}
	db, err := cache.OpenPostgres(ctx, cfg.Store, opts)
	if err != nil {
		return nil, err
	}
	q, err := queue.OpenPostgres(ctx, db, cfg.JobLease)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("PostgreSQL %s: %w", db, err)
	}
	sched, err := schedule.OpenPostgres(ctx, db)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("PostgreSQL %s: %w", db, err)
	}
	return &Stores{Cache: db, Queue: q, Schedules: sched}, nil
}

// Options are what Run needs besides the configuration.
type Options struct {
	Solver solver.Factory
	// Analyzer is the command that runs one analysis in a child process
	// (the server's binary and its hidden subcommand); nil, or the
	// configuration's analysis_process: inline, runs analyses in the
	// server's process.
	Analyzer *analysis.Command
	// LogOut receives the server's log, in cfg's format and level.
	LogOut io.Writer
}

// Run serves the bot until ctx is done, then drains and closes the store.
// The configuration holds the server's secrets by now: first Run removes
// them from the process's environment and hides the environment it
// started with (forgetSecrets).
func Run(ctx context.Context, cfg *config.Server, opts Options) error {
	log := newLogger(cfg, opts.LogOut)
	forgetSecrets(log)
	stores, err := Open(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer stores.Cache.Close()
	if stores.Rebuilt != "" {
		log.Warn("database rebuilt", "reason", stores.Rebuilt)
	}
	var b *bot.Bot
	factory, err := ghapi.NewFactory(ghapi.Config{
		BaseURL: cfg.GitHub.BaseURL, Token: cfg.GitHub.Token, AppID: cfg.GitHub.AppID, PrivateKey: cfg.GitHub.PrivateKey,
		Logger:  log,
		Metrics: func(event string) { b.Metrics().GitHubEvent(event) },
	})
	if err != nil {
		return err
	}
	analyzer := opts.Analyzer
	if cfg.AnalysisProcess == config.ProcessInline {
		analyzer = nil
	}
	b, err = bot.New(cfg, bot.Options{
		Store: stores.Cache, Queue: stores.Queue, Schedules: stores.Schedules, GitHub: factory, Solver: opts.Solver, Logger: log,
		SweepInterval: cfg.SweepInterval, Analyzer: analyzer,
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", cfg.Listen, err)
	}
	return b.Serve(ctx, ln)
}

// newLogger is the server's logger: cfg's level and format, written to w.
func newLogger(cfg *config.Server, w io.Writer) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// forgetSecrets removes every SETBOT_* variable from the process's
// environment, so that no child inherits one, and makes the process
// non-dumpable (blackbox.Protect), so that no child of its user reads them
// in /proc/PID/environ, which keeps the environment the process started
// with, or in its memory.
func forgetSecrets(log *slog.Logger) {
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(strings.ToUpper(name), "SETBOT_") {
			os.Unsetenv(name)
		}
	}
	if err := blackbox.Protect(); err != nil {
		log.Warn("the process stays dumpable: commands of its user can read its memory and first environment", "err", err)
	}
	if blackbox.LandlockVersion() == 0 {
		log.Warn("this kernel has no Landlock: black-box commands may read every file the server's user may (docs/config.md#functions)")
	}
}
