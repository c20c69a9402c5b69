package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/setbot/setbot/bot/queue"
)

// startSchedules starts the scheduled full re-analyses of the server
// configuration; each firing queues a full job (the worker resolves the
// branch head when it runs). It returns the function that stops them.
func (b *Bot) startSchedules() (func(), error) {
	if len(b.cfg.Schedules) == 0 {
		return func() {}, nil
	}
	c := cron.New(cron.WithLogger(cron.DiscardLogger))
	for _, s := range b.cfg.Schedules {
		s := s
		cloneURL := s.CloneURL
		if cloneURL == "" {
			cloneURL = b.defaultCloneURL(s.Repo)
		}
		_, err := c.AddFunc(s.Cron, func() {
			branch := s.Branch
			if branch == "" {
				// The default branch, asked now: it may have been renamed.
				var err error
				if branch, err = b.defaultBranch(s.InstallationID, s.Repo); err != nil {
					b.log.Error("scheduled re-analysis: finding the default branch", "repo", s.Repo, "err", err)
					return
				}
			}
			j := queue.Job{Kind: queue.KindFull, Installation: s.InstallationID, Repo: s.Repo, CloneURL: cloneURL,
				Branch: branch, Fresh: true, Requester: "schedule"}
			ids, _, err := b.enqueue(context.Background(), j)
			if err != nil {
				b.log.Error("queueing a scheduled re-analysis", "repo", s.Repo, "branch", branch, "err", err)
				return
			}
			b.log.Info("scheduled re-analysis queued", "repo", s.Repo, "branch", branch, "job", ids[0])
		})
		if err != nil {
			return nil, fmt.Errorf("schedule %q of %s: %w", s.Cron, s.Repo, err)
		}
	}
	c.Start()
	return func() { <-c.Stop().Done() }, nil
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
