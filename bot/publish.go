package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"github.com/setbot/setbot/bot/ghapi"
	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/pipeline"
	"github.com/setbot/setbot/report"
)

// Check-run names.
const (
	checkName     = ghapi.DefaultCheckName
	fullCheckName = "setbot (full re-analysis)"
)

// analyseChange runs a pull request (or merge group) job: a check run in
// progress, the pipeline from the merge base to the head, then the comment
// and the completed check run, unless a newer commit got there first.
func (b *Bot) analyseChange(ctx context.Context, log *slog.Logger, j *queue.Job) error {
	c, err := b.client(j.Installation)
	if err != nil {
		return err
	}
	r, err := splitRepo(j.Repo)
	if err != nil {
		return err
	}
	runID, err := c.CreateCheckRun(ctx, r, ghapi.CheckRun{
		Name: checkName, HeadSHA: j.HeadSHA, Status: "in_progress",
		Title: "Analysing the models", Summary: "setbot is analysing what this change does to every execution of the models.",
	})
	if err != nil {
		return err
	}
	fail := func(title string, err error) error {
		b.completeCheck(log, c, r, runID, ghapi.CheckRun{Name: checkName, HeadSHA: j.HeadSHA, Status: "completed",
			Conclusion: report.Failure, Title: title, Summary: "```\n" + err.Error() + "\n```\n\nComment `/setbot rerun` to try again."})
		return err
	}
	repo, err := b.checkout(ctx, c, j)
	if err != nil {
		if ctx.Err() != nil {
			return b.stopped(ctx, log, c, r, runID, j)
		}
		return fail("setbot could not fetch the repository", err)
	}
	base, gateFrom := j.BaseSHA, ""
	if j.Kind == queue.KindPullRequest {
		// Measure the change from where it left its base branch, as the
		// pull request's diff does; the base tip may have moved on.
		tip := j.BaseSHA
		if j.Branch != "" {
			if sha, err := repo.Resolve(j.Branch); err == nil {
				tip = sha
			}
		}
		if tip != "" {
			gateFrom = tip // the gate is the target branch's, as it is now
		}
		if base, err = repo.MergeBase(tip, j.HeadSHA); err != nil {
			return fail("setbot could not find the merge base", err)
		}
	}
	opts := b.pipelineOptions(log, j)
	opts.GateFrom = gateFrom
	a, err := pipeline.Analyze(ctx, repo, base, j.HeadSHA, opts)
	if ctx.Err() != nil {
		return b.stopped(ctx, log, c, r, runID, j)
	}
	var ce *pipeline.ConfigError
	if errors.As(err, &ce) {
		return fail("The setbot configuration does not parse", err)
	}
	if err != nil {
		return fail("setbot could not analyse this change", err)
	}
	for _, m := range a.Models {
		if m.Result != nil && !m.ResultCached {
			b.metrics.analysis.WithLabelValues(m.Strategy).Observe(float64(m.Base.Ms+m.Head.Ms) / 1000)
		}
	}
	// An older commit never overwrites a newer result.
	if superseded, err := b.queue.Superseded(ctx, j); err != nil {
		return err
	} else if superseded {
		return b.stopped(ctx, log, c, r, runID, j)
	}
	if ok, err := b.queue.Published(ctx, j); err != nil {
		return err
	} else if !ok {
		return b.stopped(ctx, log, c, r, runID, j)
	}
	a.Repo = j.Repo
	runURL := b.checkRunURL(r, runID)
	if j.PR > 0 {
		if err := b.upsertComment(ctx, log, c, r, j.PR, report.Markdown(a, report.Options{CheckRunURL: runURL})); err != nil {
			return err
		}
	}
	out := report.CheckRun(a, report.Options{CheckRunURL: runURL})
	return c.UpdateCheckRun(ctx, r, runID, ghapi.CheckRun{
		Name: checkName, HeadSHA: j.HeadSHA, Status: "completed", Conclusion: a.Gate.Conclusion,
		Title: out.Title, Summary: out.Summary, Annotations: annotations(out.Annotations),
	})
}

// stopped completes the check run of a job that a newer commit superseded
// (or that was stopped) and returns why it stopped.
func (b *Bot) stopped(ctx context.Context, log *slog.Logger, c ghapi.Client, r ghapi.Repo, runID int64, j *queue.Job) error {
	cause := context.Cause(ctx)
	if cause == nil || errors.Is(cause, errSuperseded) {
		cause = errSuperseded
	}
	if errors.Is(cause, errShutdown) {
		return cause // the check run stays in progress: the job runs again at the next start
	}
	b.completeCheck(log, c, r, runID, ghapi.CheckRun{Name: checkName, HeadSHA: j.HeadSHA, Status: "completed",
		Conclusion: "cancelled", Title: "Superseded", Summary: "A newer commit of this pull request is being analysed instead."})
	return cause
}

// completeCheck completes a check run on a path where the job's own
// context may be gone.
func (b *Bot) completeCheck(log *slog.Logger, c ghapi.Client, r ghapi.Repo, id int64, run ghapi.CheckRun) {
	ctx, cancel := context.WithTimeout(context.Background(), ghapi.DefaultTimeout)
	defer cancel()
	if err := c.UpdateCheckRun(ctx, r, id, run); err != nil {
		log.Error("completing the check run", "err", err)
	}
}

// upsertComment keeps one comment per pull request, found by the hidden
// marker and edited in place; an unchanged body costs no API call.
func (b *Bot) upsertComment(ctx context.Context, log *slog.Logger, c ghapi.Client, r ghapi.Repo, pr int, body string) error {
	id, old, err := c.FindComment(ctx, r, pr, report.Marker)
	if err != nil {
		return err
	}
	switch {
	case id == 0:
		_, err = c.CreateComment(ctx, r, pr, body)
	case old == body:
		log.Debug("comment unchanged; not edited")
	default:
		err = c.EditComment(ctx, r, id, body)
	}
	return err
}

// checkRunURL is the web address of a check run, for the comment's pointer
// to the full report.
func (b *Bot) checkRunURL(r ghapi.Repo, id int64) string {
	host := "https://github.com"
	if base := b.cfg.GitHub.BaseURL; base != "" {
		if u, err := url.Parse(base); err == nil && u.Host != "" {
			host = u.Scheme + "://" + u.Host
		}
	}
	return fmt.Sprintf("%s/%s/%s/runs/%d", host, r.Owner, r.Name, id)
}

func annotations(in []report.Annotation) []ghapi.Annotation {
	out := make([]ghapi.Annotation, len(in))
	for i, a := range in {
		out[i] = ghapi.Annotation{Path: a.Path, StartLine: a.StartLine, EndLine: a.EndLine, Level: a.Level, Title: a.Title, Message: a.Message}
	}
	return out
}

// warm runs a push job: the new head of the default branch gets every
// model's tree in the cache.
func (b *Bot) warm(ctx context.Context, log *slog.Logger, j *queue.Job) error {
	c, err := b.client(j.Installation)
	if err != nil {
		return err
	}
	repo, err := b.checkout(ctx, c, j)
	if err != nil {
		return err
	}
	checks, err := pipeline.Warm(ctx, repo, j.HeadSHA, b.pipelineOptions(log, j))
	if err != nil {
		return err
	}
	explored := 0
	for _, ch := range checks {
		if ch.Explored {
			explored++
		}
	}
	log.Info("cache warmed", "models", len(checks), "explored", explored)
	return nil
}

// verify runs a full re-analysis: every model of the branch head from
// scratch, compared with the cache, any difference reported in the logs
// and as a check run on the head commit.
func (b *Bot) verify(ctx context.Context, log *slog.Logger, j *queue.Job) error {
	c, err := b.client(j.Installation)
	if err != nil {
		return err
	}
	r, err := splitRepo(j.Repo)
	if err != nil {
		return err
	}
	if j.Branch == "" {
		if j.Branch, err = c.DefaultBranch(ctx, r); err != nil {
			return err
		}
	}
	head := *j
	head.HeadSHA = ""
	repo, err := b.checkout(ctx, c, &head)
	if err != nil {
		return err
	}
	sha := j.HeadSHA
	if sha == "" {
		if sha, err = repo.Resolve(j.Branch); err != nil {
			return err
		}
	}
	log = log.With("sha", sha, "branch", j.Branch)
	checks, err := pipeline.Verify(ctx, repo, sha, b.pipelineOptions(log, j))
	if err != nil {
		return err
	}
	var b2 strings.Builder
	differ := 0
	b2.WriteString("| Model | States | Cached | Result |\n|---|---:|---|---|\n")
	for _, ch := range checks {
		result := "agrees with the cache"
		switch {
		case ch.Error != "":
			result = "does not load: " + ch.Error
		case ch.Differs:
			differ++
			result = "**differs**: " + ch.Detail
			log.Warn("cached result differs from a fresh run", "model", ch.Path, "detail", ch.Detail)
		case !ch.Cached:
			result = "was not cached; stored now"
		}
		fmt.Fprintf(&b2, "| `%s` | %d | %v | %s |\n", ch.Path, ch.States, ch.Cached, strings.ReplaceAll(result, "|", "\\|"))
	}
	conclusion, title := report.Success, fmt.Sprintf("%d models re-analysed from scratch: the cache agrees", len(checks))
	if differ > 0 {
		conclusion, title = report.Failure, fmt.Sprintf("%d of %d models differ from what the cache held (now refreshed)", differ, len(checks))
	}
	log.Info("full re-analysis done", "models", len(checks), "differ", differ)
	_, err = c.CreateCheckRun(ctx, r, ghapi.CheckRun{
		Name: fullCheckName, HeadSHA: sha, Status: "completed", Conclusion: conclusion,
		Title: title, Summary: "Scheduled full re-analysis of `" + j.Branch + "`: every model recomputed without the cache and compared with it.\n\n" + b2.String(),
	})
	return err
}

// helpText answers `/setbot help`.
const helpText = "<!-- setbot:help -->\n" + `**setbot** commands, for users with write access to the repository:

| Command | What it does |
|---|---|
| ` + "`/setbot rerun`" + ` | analyse this pull request again (trees come from the cache where they can) |
| ` + "`/setbot full`" + ` | analyse it again from scratch, ignoring the cache |
| ` + "`/setbot help`" + ` | this list |
`

// command obeys a `/setbot` comment from a user with write access and
// acknowledges it with a reaction; other users get a 😕 and nothing else.
func (b *Bot) command(ctx context.Context, log *slog.Logger, j *queue.Job) error {
	c, err := b.client(j.Installation)
	if err != nil {
		return err
	}
	r, err := splitRepo(j.Repo)
	if err != nil {
		return err
	}
	perm, err := c.Permission(ctx, r, j.Requester)
	if err != nil {
		return err
	}
	switch perm {
	case "admin", "maintain", "write":
	default:
		log.Info("command refused: no write access", "user", j.Requester, "permission", perm, "command", j.Command)
		return c.AddReaction(ctx, r, j.CommentID, "confused")
	}
	if err := c.AddReaction(ctx, r, j.CommentID, "+1"); err != nil {
		return err
	}
	if j.Command == CommandHelp {
		_, err := c.CreateComment(ctx, r, j.PR, helpText)
		return err
	}
	pr, err := c.PullRequest(ctx, r, j.PR)
	if err != nil {
		return err
	}
	ids, _, err := b.enqueue(ctx, queue.Job{
		Kind: queue.KindPullRequest, Installation: j.Installation, Repo: j.Repo, CloneURL: j.CloneURL,
		PR: j.PR, Branch: pr.BaseRef, BaseSHA: pr.BaseSHA, HeadSHA: pr.HeadSHA,
		Fresh: j.Command == CommandFull, Requester: j.Requester,
	})
	if err != nil {
		return err
	}
	log.Info("command obeyed", "command", j.Command, "user", j.Requester, "queued", ids[0])
	return nil
}
