package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/bot/ghapi"
	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/pipeline"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/vcs"
)

// Check-run names.
const (
	checkName     = ghapi.DefaultCheckName
	fullCheckName = "setbot (full re-analysis)"
)

// analyzeChange runs a pull request (or merge group) job: a check run in
// progress, the pipeline from the merge base to the head, then the comment
// and the completed check run, unless a newer commit got there first. An
// attempt after one that completed the check (and then met a rate limit,
// say) only writes the comment.
func (b *Bot) analyzeChange(ctx context.Context, log *slog.Logger, j *queue.Job) (err error) {
	c, r, err := b.repoClient(j)
	if err != nil {
		return err
	}
	g := b.newCheck(c, r, j.HeadSHA, checkName)
	g.job = j
	if j.CheckRun != 0 && !j.CheckOpen {
		g.done = true
		g.id = max(j.CheckRun, 0)
	} else {
		if ctx.Err() != nil {
			return context.Cause(ctx) // superseded before it opened a check
		}
		if err := g.start(ctx, "Analysing the models", "setbot is analysing what this change does to every execution of the models."); err != nil {
			return err
		}
	}
	// Whatever happens from here, the check does not stay in progress,
	// except when the job runs again: after a shutdown, or later when
	// GitHub turned it away.
	defer func() {
		p := recover()
		if p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
		if !g.done && err != nil && !errors.Is(context.Cause(ctx), errShutdown) && !retryable(j, err) {
			g.complete(ctx, log, ghapi.CheckRun{Conclusion: report.Failure, Title: "setbot could not finish",
				Summary: "```\n" + err.Error() + "\n```\n\nComment `/setbot rerun` to try again."})
		}
		if p != nil {
			panic(p)
		}
	}()
	fail := func(title string, err error) error {
		if retryable(j, err) {
			return err
		}
		g.complete(ctx, log, ghapi.CheckRun{Conclusion: report.Failure, Title: title,
			Summary: "```\n" + err.Error() + "\n```\n\nComment `/setbot rerun` to try again."})
		return err
	}
	repo, err := b.checkout(ctx, c, j)
	if err != nil {
		if ctx.Err() != nil {
			return b.stopped(ctx, log, g)
		}
		return fail("setbot could not fetch the repository", err)
	}
	defer repo.Close()
	base, gateFrom, err := changeBase(repo, j)
	if err != nil {
		return fail("setbot could not find the merge base", err)
	}
	req := b.request(analysis.Change, j)
	req.Base, req.Head, req.GateFrom, req.CheckRunURL = base, j.HeadSHA, gateFrom, g.url()
	page := pageID(j.Repo, base, j.HeadSHA)
	req.PageURL = b.pageLink(page)
	var refuse func(context.Context) string
	if j.Kind == queue.KindPullRequest && !b.cfg.AllowForkCommands {
		refuse = func(ctx context.Context) string { return forkRefusal(ctx, c, r, j) }
	}
	out, title, err := b.changeOutcome(ctx, log, j, repo, req, refuse)
	if ctx.Err() != nil {
		return b.stopped(ctx, log, g)
	}
	if err != nil {
		return fail(title, err)
	}
	// An older commit never overwrites a newer result.
	if superseded, err := b.queue.Superseded(ctx, j); err != nil {
		return err
	} else if superseded {
		return b.stopped(ctx, log, g)
	}
	if ok, err := b.queue.Published(ctx, j); err != nil {
		return err
	} else if !ok {
		return b.stopped(ctx, log, g)
	}
	details := ""
	if out.Page != nil {
		b.savePage(ctx, page, out.Page)
		details = req.PageURL
	}
	// The check first: it is the gate, and a comment that cannot be
	// posted must not turn it into a failure.
	if !g.done {
		if err := g.finish(ctx, ghapi.CheckRun{Conclusion: out.Conclusion, Title: out.Title, Summary: out.Summary, Annotations: annotations(out.Annotations), DetailsURL: details}); err != nil {
			return err
		}
	}
	if j.PR == 0 {
		return nil
	}
	return b.comment(ctx, log, c, r, j, out.Comment)
}

// comment writes the pull request's comment, unless its head moved on.
// Deliveries can come out of order: the comment shows the pull request's
// current head only, and that head gets its analysis even if this older
// commit's job superseded it.
func (b *Bot) comment(ctx context.Context, log *slog.Logger, c ghapi.Client, r ghapi.Repo, j *queue.Job, body string) error {
	pr, err := c.PullRequest(ctx, r, j.PR)
	if err != nil {
		return fmt.Errorf("the check is done; the comment is not: %w", err)
	}
	if pr.HeadSHA != j.HeadSHA {
		log.Info("the pull request's head moved on; its own analysis will comment", "current", pr.HeadSHA)
		ids, _, err := b.enqueue(context.WithoutCancel(ctx), queue.Job{
			Kind: queue.KindPullRequest, Installation: j.Installation, Repo: j.Repo, CloneURL: j.CloneURL,
			PR: j.PR, Branch: pr.BaseRef, BaseSHA: pr.BaseSHA, HeadSHA: pr.HeadSHA, Requester: "setbot",
		})
		if err == nil {
			log.Info("the current head queued", "queued", ids[0])
		}
		return err
	}
	if err := b.upsertComment(ctx, log, c, r, j.PR, body); err != nil {
		return fmt.Errorf("the check is done; the comment is not: %w", err)
	}
	return nil
}

// changeBase is where a job's change starts, and the revision whose
// configuration gives the gate ("" for the base). A pull request's change
// is measured from where it left its base branch, as its diff is (the base
// tip may have moved on), and gated by the target branch as it is now.
func changeBase(repo *vcs.Repo, j *queue.Job) (base, gateFrom string, err error) {
	if j.Kind != queue.KindPullRequest {
		return j.BaseSHA, "", nil
	}
	tip := j.BaseSHA
	if j.Branch != "" {
		if sha, err := repo.Resolve("refs/heads/" + j.Branch); err == nil {
			tip = sha
		}
	}
	base, err = repo.MergeBase(tip, j.HeadSHA)
	return base, tip, err
}

// changeOutcome analyses a change: what the job posts, or why it cannot,
// with the check's title for that.
func (b *Bot) changeOutcome(ctx context.Context, log *slog.Logger, j *queue.Job, repo *vcs.Repo, req *analysis.Request, refuse func(context.Context) string) (*analysis.Outcome, string, error) {
	res, err := b.analyze(ctx, log, j, repo, req, refuse)
	var crash *analysis.CrashError
	if errors.As(err, &crash) {
		// Only this job's analysis died; the job fails at once (see analyze).
		return nil, "The analysis crashed", err
	}
	if err == nil {
		err = res.Error()
	}
	var ce *pipeline.ConfigError
	switch {
	case errors.As(err, &ce):
		return nil, "The setbot configuration does not parse", err
	case err != nil:
		return nil, "setbot could not analyse this change", err
	}
	for _, t := range res.Change.Timings {
		b.metrics.analysis.WithLabelValues(string(t.Strategy)).Observe(t.Seconds)
	}
	return res.Change, "", nil
}

// stopped completes the check of a job that a newer commit superseded or
// that ran out of time, unless it is completed already, and returns why it
// stopped.
func (b *Bot) stopped(ctx context.Context, log *slog.Logger, g *commitCheck) error {
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, errShutdown):
		return cause // the check stays in progress: the job runs again at the next start
	case errors.Is(cause, context.DeadlineExceeded):
		if !g.done {
			g.complete(ctx, log, ghapi.CheckRun{Conclusion: "timed_out", Title: "The analysis took longer than the job timeout",
				Summary: fmt.Sprintf("setbot stopped after %s (the server's job_timeout). Lower the bounds in .setbot.yml or raise job_timeout, then comment `/setbot rerun`.", b.jobTimeout())})
		}
		return cause
	}
	if !g.done {
		g.complete(ctx, log, ghapi.CheckRun{Conclusion: "cancelled", Title: "Superseded",
			Summary: "A newer commit of this pull request is being analysed instead."})
	}
	return errSuperseded
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

// commitCheck publishes a result on a commit: a check run when setbot is a
// GitHub App, a commit status with a plain token (GitHub lets only Apps
// create check runs; a status can be required just the same, without
// annotations).
type commitCheck struct {
	b        *Bot
	c        ghapi.Client
	r        ghapi.Repo
	sha      string
	name     string
	id       int64 // the check run
	statuses bool
	done     bool       // completed
	job      *queue.Job // the job whose check it is, if it is remembered in the queue
}

func (b *Bot) newCheck(c ghapi.Client, r ghapi.Repo, sha, name string) *commitCheck {
	return &commitCheck{b: b, c: c, r: r, sha: sha, name: name, statuses: b.statuses()}
}

// checkCallTimeout bounds the calls that open and close a check. They do
// not follow the job's context: a request cancelled in flight (by a newer
// head, the job timeout or a shutdown) may still take effect on GitHub,
// and a check run created so, its id never seen, would stay in progress.
const checkCallTimeout = 2 * time.Minute

// detached is ctx, with its values, but not its cancellation: its own
// timeout instead.
func detached(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), checkCallTimeout)
}

// start marks the commit's check in progress, and records at once the
// check run it opened.
func (g *commitCheck) start(ctx context.Context, title, summary string) error {
	ctx, cancel := detached(ctx)
	defer cancel()
	if g.statuses {
		err := g.c.SetStatus(ctx, g.r, g.sha, ghapi.Status{State: "pending", Context: g.name, Description: title, TargetURL: g.b.cfg.PublicURL})
		if err == nil {
			g.remember(ctx, true)
		}
		return err
	}
	run := ghapi.CheckRun{Name: g.name, HeadSHA: g.sha, Status: "in_progress", Title: title, Summary: summary}
	var err error
	if g.job != nil && g.job.CheckRun > 0 {
		// An earlier attempt opened it (then the server stopped, or GitHub
		// turned the job away), or a lost database left it: reuse it.
		g.id = g.job.CheckRun
		err = g.c.UpdateCheckRun(ctx, g.r, g.id, run)
	} else {
		g.id, err = g.c.CreateCheckRun(ctx, g.r, run)
	}
	if g.id != 0 {
		g.remember(ctx, true)
	}
	return err
}

// remember records in the queue whether the job's check is open, so that
// a later attempt reuses it and a job that never returns gets it closed.
func (g *commitCheck) remember(ctx context.Context, open bool) {
	if g.job == nil {
		return
	}
	id := g.id
	if g.statuses {
		id = -1
	}
	if err := g.b.queue.SetCheck(context.WithoutCancel(ctx), g.job.ID, id, open); err != nil {
		g.b.log.Warn("remembering a job's check", "job", g.job.ID, "err", err)
	}
}

// finish completes the check with run's conclusion and output.
func (g *commitCheck) finish(ctx context.Context, run ghapi.CheckRun) error {
	ctx, cancel := detached(ctx)
	defer cancel()
	run.Name, run.HeadSHA, run.Status = g.name, g.sha, "completed"
	if g.statuses {
		state, desc := "error", run.Title
		switch run.Conclusion {
		case report.Success:
			state = "success"
		case report.Neutral:
			state, desc = "success", "warnings: "+run.Title
		case report.Failure:
			state = "failure"
		}
		err := g.c.SetStatus(ctx, g.r, g.sha, ghapi.Status{State: state, Context: g.name, Description: desc, TargetURL: cmp.Or(run.DetailsURL, g.b.cfg.PublicURL)})
		g.done = err == nil
		if g.done {
			g.remember(ctx, false)
		}
		return err
	}
	var err error
	if g.id == 0 {
		g.id, err = g.c.CreateCheckRun(ctx, g.r, run)
	} else {
		err = g.c.UpdateCheckRun(ctx, g.r, g.id, run)
	}
	var later *ghapi.RetryLaterError
	if err != nil && g.id != 0 && len(run.Annotations) > 0 && !errors.As(err, &later) {
		// GitHub refused the annotations (a line past the end of a file, say):
		// the conclusion matters more.
		run.Annotations = nil
		run.Summary += "\n\n(The annotations could not be posted: " + err.Error() + ")"
		err = g.c.UpdateCheckRun(ctx, g.r, g.id, run)
	}
	g.done = err == nil
	if g.done {
		g.remember(ctx, false)
	}
	return err
}

// complete finishes the check on a path where the job's own context may
// be gone (finish does not depend on it).
func (g *commitCheck) complete(ctx context.Context, log *slog.Logger, run ghapi.CheckRun) {
	if err := g.finish(ctx, run); err != nil {
		log.Error("completing the check", "err", err)
	}
}

// url is the web address of the check run, for the comment's pointer to
// the full report ("" with statuses, whose details are in the comment).
func (g *commitCheck) url() string {
	if g.statuses || g.id == 0 {
		return ""
	}
	host := "https://github.com"
	if base := g.b.cfg.GitHub.BaseURL; base != "" {
		if u, err := url.Parse(base); err == nil && u.Host != "" {
			host = u.Scheme + "://" + u.Host
		}
	}
	return fmt.Sprintf("%s/%s/%s/runs/%d", host, g.r.Owner, g.r.Name, g.id)
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
	defer repo.Close()
	req := b.request(analysis.Warm, j)
	req.Head = j.HeadSHA
	res, err := b.analyze(ctx, log, j, repo, req, nil)
	if err == nil {
		err = res.Error()
	}
	if err != nil {
		return err
	}
	checks := res.Checks
	explored := 0
	for _, ch := range checks {
		if ch.Explored {
			explored++
		}
	}
	log.Info("cache warmed", "models", len(checks), "explored", explored)
	// The default branch's configuration may ask for a scheduled re-analysis.
	cfg, err := pipeline.ReadConfig(repo, j.HeadSHA)
	if err != nil {
		log.Warn("the default branch's configuration does not parse; its schedule is left as it was", "err", err)
		return nil
	}
	return b.learnSchedule(ctx, j, cfg)
}

// verify runs a full re-analysis: every model of the branch head from
// scratch, compared with the cache, any difference reported in the logs
// and as a check run on the head commit.
func (b *Bot) verify(ctx context.Context, log *slog.Logger, j *queue.Job) error {
	c, r, err := b.repoClient(j)
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
	defer repo.Close()
	sha := j.HeadSHA
	if sha == "" {
		if sha, err = repo.Resolve("refs/heads/" + j.Branch); err != nil {
			return err
		}
	}
	log = log.With("branch", j.Branch)
	if j.HeadSHA == "" {
		log = log.With("sha", sha) // the job's logger had no commit yet
	}
	req := b.request(analysis.Verify, j)
	req.Head = sha
	res, err := b.analyze(ctx, log, j, repo, req, nil)
	if err == nil {
		err = res.Error()
	}
	if err != nil {
		return err
	}
	checks := res.Checks
	var b2 strings.Builder
	var agree, differ, uncached, broken, inconclusive int
	b2.WriteString("| Model | States | Cached | Result |\n|---|---:|---|---|\n")
	for _, ch := range checks {
		result := "agrees with the cache"
		switch {
		case ch.Error != "":
			broken++
			result = "does not load: " + ch.Error
		case ch.Inconclusive:
			inconclusive++
			result = "inconclusive: " + ch.Detail
			log.Warn("full re-analysis inconclusive", "model", ch.Path, "detail", ch.Detail)
		case ch.Differs:
			differ++
			result = "**differs**: " + ch.Detail
			log.Warn("cached result differs from a fresh run", "model", ch.Path, "detail", ch.Detail)
		case !ch.Cached:
			uncached++
			result = "was not cached; stored now"
		default:
			agree++
		}
		fmt.Fprintf(&b2, "| `%s` | %d | %v | %s |\n", ch.Path, ch.States, ch.Cached, strings.ReplaceAll(result, "|", "\\|"))
	}
	conclusion, title := report.Success, verifyTitle(len(checks), agree, uncached, broken, inconclusive)
	if differ > 0 {
		conclusion, title = report.Failure, fmt.Sprintf("%d of %d models differ from what the cache held (now refreshed)", differ, len(checks))
	}
	log.Info("full re-analysis done", "models", len(checks), "agree", agree, "differ", differ, "uncached", uncached)
	return b.newCheck(c, r, sha, fullCheckName).finish(ctx, ghapi.CheckRun{Conclusion: conclusion, Title: title,
		Summary: "Scheduled full re-analysis of `" + j.Branch + "`: every model recomputed without the cache and compared with it.\n\n" + b2.String()})
}

// verifyTitle titles a full re-analysis in which no model differs from the
// cache: it says the cache agrees only about the models it held.
func verifyTitle(models, agree, uncached, broken, inconclusive int) string {
	title := fmt.Sprintf("%d models re-analysed from scratch", models)
	switch models {
	case 0:
		return "No models to re-analyse"
	case 1:
		title = "1 model re-analysed from scratch"
	}
	if agree == models {
		return title + ": the cache agrees"
	}
	var parts []string
	if agree > 0 {
		parts = append(parts, fmt.Sprintf("the cache agrees on %d", agree))
	}
	if uncached > 0 {
		parts = append(parts, fmt.Sprintf("%d not cached before, nothing to compare (stored now)", uncached))
	}
	if inconclusive > 0 {
		parts = append(parts, fmt.Sprintf("%d inconclusive", inconclusive))
	}
	if broken > 0 {
		parts = append(parts, fmt.Sprintf("%d not loaded", broken))
	}
	return title + ": " + strings.Join(parts, "; ")
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
	c, r, err := b.repoClient(j)
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

// repoClient returns the GitHub client of a job's installation and its
// repository.
func (b *Bot) repoClient(j *queue.Job) (ghapi.Client, ghapi.Repo, error) {
	r, err := splitRepo(j.Repo)
	if err != nil {
		return nil, r, err
	}
	c, err := b.client(j.Installation)
	return c, r, err
}

// forkRefusal says why the commands of a pull request's black-box
// functions may not run on this server: its head is in another repository
// (a fork), whose code the base's permission to run commands does not
// cover. Not knowing where the head is refuses too.
func forkRefusal(ctx context.Context, c ghapi.Client, r ghapi.Repo, j *queue.Job) string {
	pr, err := c.PullRequest(ctx, r, j.PR)
	switch {
	case err != nil:
		return "setbot could not tell whether the pull request comes from a fork: " + err.Error()
	case pr.HeadRepo == "":
		return "the pull request's head repository is gone; the server runs no command of a fork's pull request (allow_fork_commands)"
	case !strings.EqualFold(pr.HeadRepo, j.Repo):
		return "the pull request comes from " + pr.HeadRepo + ", a fork; the server runs no command of a fork's pull request (allow_fork_commands)"
	}
	return ""
}
