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
//
// Every server that shares the queue runs every schedule, and each tick is
// queued once: the job's delivery names the schedule and the time of the
// tick, which all servers compute alike (cron times are wall-clock times,
// and an @every interval counts from the Unix epoch here rather than from
// the server's start), so the queue takes the first and finds the others
// duplicates.

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
		if _, err := s.add(sc.Cron, sc.Repo, sc.Branch, sc.InstallationID, cloneURL); err != nil {
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

// add runs a schedule's spec in the cron.
func (s *schedules) add(spec, repo, branch string, installation int64, cloneURL string) (cron.EntryID, error) {
	sched, err := cron.ParseStandard(spec)
	if err != nil {
		return 0, err
	}
	if every, ok := sched.(cron.ConstantDelaySchedule); ok {
		sched = alignedEvery(every.Delay)
	}
	var (
		mu sync.Mutex
		id cron.EntryID
	)
	mu.Lock()
	defer mu.Unlock()
	id = s.cron.Schedule(sched, cron.FuncJob(func() {
		mu.Lock()
		own := id
		mu.Unlock()
		// The entry's Prev is the time this run was due; none if the
		// schedule was removed meanwhile.
		if due := s.cron.Entry(own).Prev; !due.IsZero() {
			s.fire(repo, branch, installation, cloneURL, due)
		}
	}))
	return id, nil
}

// alignedEvery is an @every schedule whose ticks are the multiples of its
// interval since the Unix epoch, the same on every server.
type alignedEvery time.Duration

func (a alignedEvery) Next(t time.Time) time.Time {
	return t.Truncate(time.Duration(a)).Add(time.Duration(a))
}

// fire queues the full job of a schedule's tick (the worker resolves the
// branch head when it runs), unless another server sharing the queue did.
func (s *schedules) fire(repo, branch string, installation int64, cloneURL string, tick time.Time) {
	b := s.b
	br := branch
	if br == "" {
		// The default branch, asked now: it may have been renamed.
		var err error
		if br, err = b.defaultBranch(installation, repo); err != nil {
			b.log.Error("scheduled re-analysis: finding the default branch", "repo", repo, "err", err)
			return
		}
	}
	delivery := fmt.Sprintf("schedule:%s@%s:%s", repo, branch, tick.UTC().Format(time.RFC3339Nano))
	j := queue.Job{Delivery: delivery, Kind: queue.KindFull, Installation: installation, Repo: repo, CloneURL: cloneURL,
		Branch: br, Fresh: true, Requester: "schedule"}
	ids, dup, err := b.enqueue(context.Background(), j)
	switch {
	case err != nil:
		b.log.Error("queueing a scheduled re-analysis", "repo", repo, "branch", br, "err", err)
	case dup:
		b.log.Debug("scheduled re-analysis already queued by another server", "repo", repo, "branch", br, "delivery", delivery)
	default:
		b.log.Info("scheduled re-analysis queued", "repo", repo, "branch", br, "job", ids[0], "delivery", delivery)
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
	id, err := s.add(spec, repo, branch, installation, cloneURL)
	if err != nil {
		// config.Parse validated it; a spec that fails here is logged, not fatal.
		s.b.log.Error("a repository's schedule does not parse", "repo", repo, "spec", spec, "err", err)
		return had
	}
	s.repo[key] = repoSchedule{spec: spec, id: id}
	return true
}

// sync makes the running cron run the repositories' schedules of entries
// (all the database remembers) and no other, and says how many it changed:
// another server sharing the database may have learnt or dropped one since
// this one started.
func (s *schedules) sync(entries []schedule.Entry) int {
	changed := 0
	keep := map[string]bool{}
	for _, e := range entries {
		keep[strings.ToLower(e.Repo)+"@"+e.Branch] = true
		if s.set(e.Repo, e.Branch, e.Spec, e.Installation, e.CloneURL) {
			changed++
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, rs := range s.repo {
		if !keep[key] {
			s.cron.Remove(rs.id)
			delete(s.repo, key)
			changed++
		}
	}
	return changed
}

// scheduleSyncInterval is how often a server reads the repositories'
// schedules again (see syncSchedules).
const scheduleSyncInterval = time.Minute

// syncSchedules brings the running repositories' schedules in line with
// the database's.
func (b *Bot) syncSchedules(ctx context.Context) {
	b.mu.Lock()
	s := b.sched
	b.mu.Unlock()
	if s == nil {
		return // not started
	}
	entries, err := b.schedules.List(ctx)
	if err != nil {
		b.log.Warn("reading the repositories' schedules again", "err", err)
		return
	}
	if n := s.sync(entries); n > 0 {
		b.log.Info("repositories' schedules read again", "changed", n)
	}
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
