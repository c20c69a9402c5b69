package bot

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/ghapi"
	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/report"
)

// No check setbot opens stays in progress. A job closes its own check
// whatever happens to it; what it cannot close, a sweep beside the workers
// does, every sweep interval:
//
//   - the checks of jobs that ended with their check still open (their
//     analysis crashed the server twice, a newer commit superseded them
//     while queued, or GitHub refused the completion): the queue knows them;
//   - check runs named setbot still in progress on a commit no job is
//     analysing any more, which no job knows: their creation took effect on
//     GitHub but its answer was lost (a timeout, a connection reset, a 502
//     after the fact), or the database that knew them was lost. GitHub
//     lists them; they are closed as neutral, "Superseded";
//   - after a lost or rebuilt database, the open pull requests of every
//     installation whose head has a setbot check run in progress: their
//     analysis is queued again and takes the newest such run over.

// sweepBatch bounds the commits swept in one pass (an API call each).
const sweepBatch = 100

// sweepCallTimeout bounds the calls about one job or commit in a sweep.
const sweepCallTimeout = time.Minute

// sweepChecks sweeps now and every sweep interval until ctx is done; it
// runs beside the workers, so GitHub's delays never hold them up. With
// lost set (the queue is new), it first looks on GitHub for the check
// runs the lost database's jobs left in progress, in every pass until it
// got through.
func (b *Bot) sweepChecks(ctx context.Context, lost bool) {
	t := time.NewTicker(b.sweep)
	defer t.Stop()
	for {
		if lost {
			lost = !b.findLostChecks(ctx)
		}
		b.closeAbandoned(ctx)
		b.sweepHeads(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// closeAbandoned completes the checks of jobs that ended without closing
// them.
func (b *Bot) closeAbandoned(ctx context.Context) {
	jobs, err := b.queue.OpenChecks(ctx)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("listing abandoned checks", "err", err)
		}
		return
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			return
		}
		b.closeCheck(ctx, j)
	}
}

func (b *Bot) closeCheck(parent context.Context, j *queue.Job) {
	ctx, cancel := context.WithTimeout(parent, sweepCallTimeout)
	defer cancel()
	log := b.log.With("job", j.ID, "repo", j.Repo, "pr", j.PR, "sha", j.HeadSHA)
	c, r, err := b.repoClient(j)
	if err != nil {
		log.Error("closing an abandoned check", "err", err)
		return
	}
	g := b.newCheck(c, r, j.HeadSHA, checkName)
	g.job, g.id = j, j.CheckRun
	if g.statuses {
		// A commit has one status per name: a newer job of the same commit
		// owns it now, and closing this one would overwrite its verdict.
		if newer, err := b.queue.NewerOnSameCommit(ctx, j); err != nil || newer {
			if err == nil {
				g.remember(ctx, false)
			}
			return
		}
	}
	run := ghapi.CheckRun{Conclusion: report.Failure, Title: "setbot could not finish",
		Summary: "The analysis was interrupted: " + j.Error + ".\n\nComment `/setbot rerun` to try again."}
	switch {
	case j.State == queue.Failed && j.Crashes >= queue.MaxCrashes:
		run.Title = "The analysis crashed the server"
		run.Summary = "setbot stopped: " + j.Error + ".\n\nThe server's process died (a fatal error, or out of memory) while " +
			"analysing this commit, and again when the analysis ran with nothing beside it. It is not tried again, so that " +
			"it cannot take the analyses of other pull requests down with it.\n\nComment `/setbot rerun` to try again."
	case j.State == queue.Cancelled:
		run = ghapi.CheckRun{Conclusion: "cancelled", Title: "Superseded", Summary: "A newer commit of this pull request is analysed instead."}
	}
	if err := g.finish(ctx, run); err != nil {
		if !refusedForGood(err) {
			log.Error("closing an abandoned check; again at the next sweep", "err", err)
			return
		}
		// GitHub refuses for good (the run or the repository is gone, say):
		// asking again at every sweep would never end.
		log.Error("closing an abandoned check; given up", "err", err)
		g.remember(ctx, false)
		return
	}
	log.Info("abandoned check closed", "state", j.State)
}

// sweepHeads closes the check runs left in progress on the commits of
// ended jobs that no job analyses any more. Commit statuses need no sweep:
// a commit has one per name, and the newest job owns it.
func (b *Bot) sweepHeads(ctx context.Context) {
	heads, err := b.queue.EndedHeads(ctx, sweepBatch)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("listing the commits to sweep", "err", err)
		}
		return
	}
	for _, h := range heads {
		if ctx.Err() != nil {
			return
		}
		log := b.log.With("repo", h.Repo, "sha", h.SHA)
		if !b.statuses() {
			if err := b.closeOrphans(ctx, log, h); err != nil {
				if !refusedForGood(err) {
					log.Warn("sweeping the check runs of an analysed commit; again at the next sweep", "err", err)
					continue
				}
				// GitHub refuses for good (the repository is gone, say):
				// asking again would only keep the commits behind it waiting.
				log.Warn("sweeping the check runs of an analysed commit; given up", "err", err)
			}
		}
		if err := b.queue.MarkSwept(ctx, h); err != nil {
			log.Error("recording a sweep", "err", err)
		}
	}
}

// closeOrphans closes the setbot check runs in progress on h that no job
// knows, provided no job is analysing h.
func (b *Bot) closeOrphans(parent context.Context, log *slog.Logger, h queue.Head) error {
	ctx, cancel := context.WithTimeout(parent, sweepCallTimeout)
	defer cancel()
	r, err := splitRepo(h.Repo)
	if err != nil {
		return err
	}
	c, err := b.client(h.Installation)
	if err != nil {
		return err
	}
	ids, err := c.InProgressCheckRuns(ctx, r, h.SHA, checkName)
	if err != nil || len(ids) == 0 {
		return err
	}
	// Every job that could have opened a run listed here was queued before
	// the list was made: if one is queued or running now, the runs may be
	// its own; if not, its run is known to the queue unless its id was lost.
	if busy, err := b.queue.Analyzing(ctx, h.Repo, h.SHA); err != nil || busy {
		return err
	}
	for _, id := range ids {
		known, err := b.queue.KnowsCheckRun(ctx, h.Repo, id)
		if err != nil {
			return err
		}
		if known {
			continue
		}
		g := b.newCheck(c, r, h.SHA, checkName)
		g.id = id
		if err := g.finish(ctx, ghapi.CheckRun{Conclusion: report.Neutral, Title: "Superseded",
			Summary: "setbot no longer analyses this commit with this run: the analysis that opened it was replaced or lost, and another run of the check carries the result."}); err != nil {
			return err
		}
		log.Info("check run left in progress closed", "check_run", id)
	}
	return nil
}

// findLostChecks looks, after a lost or rebuilt database, for the open pull
// requests of every installation whose head has setbot check runs in
// progress, and queues their analysis again, to take the newest such run
// over (the sweep closes the others once it ends). It reports whether it
// looked everywhere.
func (b *Bot) findLostChecks(parent context.Context) bool {
	ctx, cancel := context.WithTimeout(parent, 10*sweepCallTimeout)
	defer cancel()
	log := b.log.With("sweep", "lost database")
	insts, err := b.github.Installations(ctx)
	if err != nil {
		log.Warn("listing the App's installations to find checks a lost database left in progress", "err", err)
		return false
	}
	complete := true
	for _, inst := range insts {
		c, err := b.client(inst)
		if err == nil {
			var repos []ghapi.Repository
			if repos, err = c.Repositories(ctx); err == nil {
				for _, repo := range repos {
					if !b.requeueLost(ctx, log, c, inst, repo) {
						complete = false
					}
				}
			}
		}
		if err != nil {
			log.Warn("listing an installation's repositories to find checks a lost database left in progress", "installation", inst, "err", err)
			complete = false
		}
	}
	return complete
}

// requeueLost queues again the analysis of the open pull requests of repo
// whose head has setbot check runs in progress; it reports whether it got
// through them all.
func (b *Bot) requeueLost(ctx context.Context, log *slog.Logger, c ghapi.Client, inst int64, repo ghapi.Repository) bool {
	log = log.With("repo", repo.String())
	prs, err := c.OpenPullRequests(ctx, repo.Repo)
	if err != nil {
		log.Warn("listing open pull requests to find checks a lost database left in progress", "err", err)
		return false
	}
	complete := true
	for _, pr := range prs {
		plog := log.With("pr", pr.Number, "sha", pr.HeadSHA)
		ids, err := c.InProgressCheckRuns(ctx, repo.Repo, pr.HeadSHA, checkName)
		if err == nil && len(ids) > 0 {
			var busy bool
			if busy, err = b.queue.Analyzing(ctx, repo.String(), pr.HeadSHA); err == nil && !busy {
				var queued []int64
				queued, _, err = b.enqueue(ctx, queue.Job{
					Kind: queue.KindPullRequest, Installation: inst, Repo: repo.String(), CloneURL: repo.CloneURL,
					PR: pr.Number, Branch: pr.BaseRef, BaseSHA: pr.BaseSHA, HeadSHA: pr.HeadSHA, Requester: "setbot",
					CheckRun: slices.Max(ids), // the newest: GitHub shows the latest run of a name
				})
				if err == nil {
					plog.Info("a check run left in progress by a lost database: the pull request is queued again", "job", queued[0], "check_runs", len(ids))
				}
			}
		}
		if err != nil {
			plog.Warn("looking for checks a lost database left in progress", "err", err)
			complete = false
		}
	}
	return complete
}

// statuses reports whether the commit check is a commit status (a plain
// token) rather than a check run (an App).
func (b *Bot) statuses() bool { return b.cfg.GitHub.AppID == 0 }

// refusedForGood reports whether GitHub refused a request in a way asking
// again would not change (the repository is gone, say), as opposed to a
// rate limit or an outage that a later sweep outlives.
func refusedForGood(err error) bool {
	var (
		later   *ghapi.RetryLaterError
		refusal *github.ErrorResponse
	)
	return !errors.As(err, &later) && errors.As(err, &refusal)
}
