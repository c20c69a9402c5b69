package bot

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/bot/schedule"
	"github.com/setbot/setbot/config"
)

// Two sources of schedules for the full re-analysis: the server's
// configuration (per repository and branch), and a repository's own
// `.setbot.yml` `schedule:` for its default branch, learnt from every push
// to that branch and kept in the database so that it survives a restart.
// Where the server configures a repository and branch, its schedule wins.

// schedules runs the cron entries.
type schedules struct {
	b    *Bot
	cron *cron.Cron

	mu    sync.Mutex
	fixed map[string]bool         // repo@branch with a server-configured schedule ("repo@" for its default branch)
	repo  map[string]repoSchedule // repo@branch -> a repository's own schedule
}

type repoSchedule struct {
	spec string
	id   cron.EntryID
}

// startSchedules starts the schedules: the server's, and the repositories'
// own ones the database remembers. It returns the function that stops them.
func (b *Bot) startSchedules(ctx context.Context) (func(), error) {
	s := &schedules{b: b, cron: cron.New(cron.WithLogger(cron.DiscardLogger)), fixed: map[string]bool{}, repo: map[string]repoSchedule{}}
	for _, sc := range b.cfg.Schedules {
		cloneURL := sc.CloneURL
		if cloneURL == "" {
			cloneURL = b.defaultCloneURL(sc.Repo)
		}
		if _, err := s.cron.AddFunc(sc.Cron, s.fire(sc.Repo, sc.Branch, sc.InstallationID, cloneURL)); err != nil {
			return nil, fmt.Errorf("schedule %q of %s: %w", sc.Cron, sc.Repo, err)
		}
		s.fixed[strings.ToLower(sc.Repo)+"@"+sc.Branch] = true
	}
	entries, err := b.schedules.List(ctx)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		s.set(e.Repo, e.Branch, e.Spec, e.Installation, e.CloneURL)
	}
	b.mu.Lock()
	b.sched = s
	b.mu.Unlock()
	s.cron.Start()
	return func() { <-s.cron.Stop().Done() }, nil
}

// fire returns the function a schedule runs: it queues a full job (the
// worker resolves the branch head when it runs).
func (s *schedules) fire(repo, branch string, installation int64, cloneURL string) func() {
	b := s.b
	return func() {
		br := branch
		if br == "" {
			// The default branch, asked now: it may have been renamed.
			var err error
			if br, err = b.defaultBranch(installation, repo); err != nil {
				b.log.Error("scheduled re-analysis: finding the default branch", "repo", repo, "err", err)
				return
			}
		}
		j := queue.Job{Kind: queue.KindFull, Installation: installation, Repo: repo, CloneURL: cloneURL,
			Branch: br, Fresh: true, Requester: "schedule"}
		ids, _, err := b.enqueue(context.Background(), j)
		if err != nil {
			b.log.Error("queueing a scheduled re-analysis", "repo", repo, "branch", br, "err", err)
			return
		}
		b.log.Info("scheduled re-analysis queued", "repo", repo, "branch", br, "job", ids[0])
	}
}

// set installs, changes or (spec "") removes a repository's own schedule
// in the running cron; it reports whether anything changed.
func (s *schedules) set(repo, branch, spec string, installation int64, cloneURL string) bool {
	key := strings.ToLower(repo) + "@" + branch
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fixed[key] || s.fixed[strings.ToLower(repo)+"@"] {
		return false
	}
	old, had := s.repo[key]
	if had && old.spec == spec {
		return false
	}
	if had {
		s.cron.Remove(old.id)
		delete(s.repo, key)
	}
	if spec == "" {
		return had
	}
	id, err := s.cron.AddFunc(spec, s.fire(repo, branch, installation, cloneURL))
	if err != nil {
		// config.Parse validated it; a spec that fails here is logged, not fatal.
		s.b.log.Error("a repository's schedule does not parse", "repo", repo, "spec", spec, "err", err)
		return had
	}
	s.repo[key] = repoSchedule{spec: spec, id: id}
	return true
}

// changes reports whether setting spec for a repository's branch would
// change what runs.
func (s *schedules) changes(repo, branch, spec string) bool {
	key := strings.ToLower(repo) + "@" + branch
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fixed[key] || s.fixed[strings.ToLower(repo)+"@"] {
		return false
	}
	return s.repo[key].spec != spec
}

// learnSchedule applies the schedule a repository's configuration at the
// head of its default branch asks for, and remembers it.
func (b *Bot) learnSchedule(ctx context.Context, j *queue.Job, cfg *config.Config) error {
	b.mu.Lock()
	s := b.sched
	b.mu.Unlock()
	if s == nil || !s.changes(j.Repo, j.Branch, cfg.Schedule) {
		return nil
	}
	// Remembered first: a schedule running but not stored would be lost at
	// the next restart, and the next push would see nothing to change.
	err := b.schedules.Set(ctx, schedule.Entry{Repo: j.Repo, Branch: j.Branch, Spec: cfg.Schedule,
		Installation: j.Installation, CloneURL: j.CloneURL})
	if err != nil {
		return err
	}
	s.set(j.Repo, j.Branch, cfg.Schedule, j.Installation, j.CloneURL)
	b.log.Info("repository schedule set", "repo", j.Repo, "branch", j.Branch, "schedule", cfg.Schedule)
	return nil
}

// defaultCloneURL is the HTTPS clone URL of a repository on the configured
// GitHub (github.com or the Enterprise host of base_url).
func (b *Bot) defaultCloneURL(repo string) string {
	host := "https://github.com"
	if base := b.cfg.GitHub.BaseURL; base != "" {
		host = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(base, "/"), "/api/v3"), "/")
	}
	return host + "/" + repo + ".git"
}

// defaultBranch asks GitHub for a repository's default branch.
func (b *Bot) defaultBranch(installation int64, repo string) (string, error) {
	c, err := b.client(installation)
	if err != nil {
		return "", err
	}
	r, err := splitRepo(repo)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return c.DefaultBranch(ctx, r)
}
