package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/bot/ghapi"
	"github.com/setbot/setbot/bot/queue"
	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/pipeline"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

// errShutdown stops runs that did not finish within the shutdown timeout;
// they are queued again as they were (queue.Release), for the next start.
var errShutdown = errors.New("server shutting down")

// Run recovers jobs a previous process left running, starts the workers
// and the schedules, and blocks until ctx is done; it then stops taking
// jobs, lets running ones finish within the shutdown timeout, and returns.
func (b *Bot) Run(ctx context.Context) error {
	n, err := b.queue.Recover(ctx)
	if err != nil {
		return fmt.Errorf("recovering jobs: %w", err)
	}
	if n > 0 {
		// Only a process that died without draining leaves jobs running.
		b.log.Warn("jobs a stopped process left running queued again, each to run alone", "jobs", n)
	}
	go b.sweepChecks(ctx, b.queue.Fresh())
	b.prune(ctx)
	stopSchedules, err := b.startSchedules(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting
		}
		return err
	}
	cpus := runtime.GOMAXPROCS(0)
	workers, jobs := b.cfg.Parallelism(cpus)
	b.log.Info("workers started", "workers", workers, "jobs", jobs, "cpus", cpus)
	jobsCtx, stopJobs := context.WithCancelCause(ghapi.WithDrain(context.Background(), b.drain))
	defer stopJobs(nil)
	// The other servers' news is heard, and the leases of running jobs
	// kept, until the last job has ended.
	watchCtx, stopWatch := context.WithCancel(context.Background())
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		b.queue.Watch(watchCtx, b.queueEvent)
	}()
	defer func() { stopWatch(); <-watched }()
	for i := 0; i < workers; i++ {
		b.wg.Add(1)
		go b.worker(ctx, jobsCtx)
	}
	prune := time.NewTicker(pruneInterval)
	defer prune.Stop()
	resync := time.NewTicker(scheduleSyncInterval)
	defer resync.Stop()
wait:
	for {
		select {
		case <-ctx.Done():
			break wait
		case <-prune.C:
			b.prune(ctx)
		case <-resync.C:
			b.syncSchedules(ctx)
		}
	}
	stopSchedules()
	drained := make(chan struct{})
	go func() { b.wg.Wait(); close(drained) }()
	timeout := b.cfg.ShutdownTimeout
	if timeout <= 0 {
		timeout = config.DefaultShutdownTimeout
	}
	// A GitHub call that would wait past the timeout (on a rate limit, say)
	// does not: its job is queued again for when GitHub said.
	b.drain.Begin(time.Now().Add(timeout))
	select {
	case <-drained:
	case <-time.After(timeout):
		b.log.Warn("shutdown timeout: stopping running jobs; they run again at the next start")
		stopJobs(errShutdown)
		<-drained
	}
	return nil
}

// pruneInterval is how often finished jobs, old delivery records, old runs
// and unused clones are deleted.
const pruneInterval = 24 * time.Hour

func (b *Bot) prune(ctx context.Context) {
	n, err := b.queue.Prune(ctx, queue.DefaultRetention)
	if err != nil {
		b.log.Warn("pruning old jobs", "err", err)
	} else if n > 0 {
		b.log.Info("old jobs pruned", "rows", n)
	}
	retention := b.cfg.RunRetention
	if retention <= 0 {
		retention = cache.DefaultRunRetention
	}
	n, err = b.store.PruneRuns(ctx, retention)
	if err != nil {
		b.log.Warn("pruning old runs", "err", err)
	} else if n > 0 {
		b.log.Info("old runs pruned", "rows", n, "retention", retention.String())
	}
	maxAge := b.cfg.CloneMaxAge
	if maxAge <= 0 {
		maxAge = vcs.DefaultCloneMaxAge
	}
	removed, err := vcs.PruneClones(b.cfg.CloneDir, maxAge)
	if err != nil {
		b.log.Warn("pruning unused clones", "err", err)
	}
	if len(removed) > 0 {
		b.log.Info("unused clones pruned", "clones", len(removed), "max_age", maxAge.String())
	}
}

// worker takes jobs until ctx is done; jobs run under jobsCtx, which
// outlives ctx by the shutdown timeout.
func (b *Bot) worker(ctx, jobsCtx context.Context) {
	defer b.wg.Done()
	for ctx.Err() == nil {
		j, err := b.queue.Claim(ctx)
		if err != nil {
			if ctx.Err() == nil {
				b.log.Error("claiming a job", "err", err)
			}
		}
		if j == nil {
			select {
			case <-ctx.Done():
			case <-b.queue.Notify():
			case <-time.After(b.poll):
			}
			continue
		}
		b.runJob(jobsCtx, j)
	}
}

// Retries of a job GitHub turned away (ghapi.RetryLaterError): when GitHub
// names no time, the job waits retryBackoffBase, doubling with each retry
// up to retryBackoffMax, plus up to half as much again so that the jobs of
// one installation do not all come back at once. After maxJobRetries the
// job fails (about a day of trying).
const (
	maxJobRetries    = 30
	retryBackoffBase = time.Minute
	retryBackoffMax  = time.Hour
)

// retryable reports whether j ended with err is to be queued again for
// later rather than failed.
func retryable(j *queue.Job, err error) bool {
	var later *ghapi.RetryLaterError
	return errors.As(err, &later) && j.Retries < maxJobRetries
}

// retryAt is when a job that ended with a RetryLaterError may run again.
func (b *Bot) retryAt(j *queue.Job, err error) time.Time {
	now := b.now()
	var later *ghapi.RetryLaterError
	if errors.As(err, &later) && !later.At.IsZero() {
		return later.At
	}
	d := retryBackoffMax
	if j.Retries < 6 {
		d = min(retryBackoffBase<<j.Retries, retryBackoffMax)
	}
	return now.Add(d + rand.N(d/2+1))
}

// jobLogger is a logger carrying what a job is about, each key once and
// only when known.
func (b *Bot) jobLogger(j *queue.Job) *slog.Logger {
	attrs := []any{"job", j.ID, "kind", j.Kind, "repo", j.Repo}
	if j.PR > 0 {
		attrs = append(attrs, "pr", j.PR)
	}
	if j.HeadSHA != "" {
		attrs = append(attrs, "sha", j.HeadSHA)
	}
	if j.Delivery != "" {
		attrs = append(attrs, "delivery", j.Delivery)
	}
	return b.log.With(attrs...)
}

// runJob runs one job and records how it ended.
func (b *Bot) runJob(parent context.Context, j *queue.Job) {
	log := b.jobLogger(j)
	ctx, cancel := context.WithCancelCause(parent)
	ctx, stopTimer := context.WithTimeout(ctx, b.jobTimeout())
	defer stopTimer()
	b.mu.Lock()
	b.running[j.Key()] = &runningJob{id: j.ID, kind: j.Kind, cancel: cancel}
	b.mu.Unlock()
	defer func() {
		b.mu.Lock()
		if r := b.running[j.Key()]; r != nil && r.id == j.ID {
			delete(b.running, j.Key())
		}
		b.mu.Unlock()
		cancel(nil)
	}()

	start := time.Now()
	log.Info("job started", "attempt", j.Attempts, "retries", j.Retries)
	// A newer job of the key may have been queued between the claim and
	// the registration above, where it could not cancel this one: then it
	// does not run (a check an earlier attempt left open is swept closed).
	var err error
	if sup, serr := b.queue.Superseded(ctx, j); serr == nil && sup && j.Kind != queue.KindFull {
		cancel(errSuperseded)
		err = errSuperseded
	} else {
		err = b.safeDispatch(ghapi.WithLogger(ctx, log), log, j)
	}
	cause := context.Cause(ctx)
	outcome, state, text := "done", queue.Done, ""
	var retryAt time.Time
	switch {
	case errors.Is(cause, errShutdown):
		outcome = "interrupted"
	case errors.Is(cause, errLeaseLost):
		outcome = "lost"
	case errors.Is(err, errSuperseded) || errors.Is(cause, errSuperseded):
		outcome, state, text = "superseded", queue.Cancelled, errSuperseded.Error()
	case err != nil && retryable(j, err):
		outcome, retryAt = "requeued", b.retryAt(j, err)
		text = "GitHub turned it away; again at " + retryAt.UTC().Format(time.RFC3339) + ": " + err.Error()
	case err != nil:
		outcome, state, text = "failed", queue.Failed, err.Error()
	}
	seconds := time.Since(start).Seconds()
	b.metrics.jobs.WithLabelValues(j.Kind, outcome).Inc()
	b.metrics.jobSeconds.WithLabelValues(j.Kind, outcome).Observe(seconds)
	// The job's end is recorded even when its context is gone.
	var ferr error
	switch outcome {
	case "interrupted":
		ferr = b.queue.Release(context.WithoutCancel(ctx), j.ID, fmt.Sprintf("requeued: the server shut down during attempt %d", j.Attempts))
	case "lost":
		log.Warn("job taken over by another server; its run here is dropped")
		return
	case "requeued":
		ferr = b.queue.Requeue(context.WithoutCancel(ctx), j.ID, retryAt, text)
	default:
		ferr = b.queue.Finish(context.WithoutCancel(ctx), j.ID, state, text)
	}
	if ferr != nil {
		log.Error("recording the end of a job", "err", ferr)
	}
	switch {
	case ghapi.IsTokenError(err):
		// The App cannot act for this installation (suspended, uninstalled,
		// or GitHub refuses its tokens for now): the delivery produces
		// nothing until that changes, which an operator must know.
		b.metrics.tokenErrors.WithLabelValues(outcome).Inc()
		log.Error("no token for the installation", "installation", j.Installation, "outcome", outcome, "retry_at", retryAt, "err", err, "seconds", seconds)
	case outcome == "interrupted":
		log.Warn("job interrupted by shutdown; it will run again", "seconds", seconds)
	case outcome == "requeued":
		log.Warn("job queued again for later", "retry_at", retryAt, "err", err, "seconds", seconds)
	case outcome == "failed":
		log.Error("job failed", "err", err, "seconds", seconds)
	default:
		log.Info("job ended", "outcome", outcome, "seconds", seconds)
	}
}

// safeDispatch runs a job, turning a panic (a bug) into the job's failure
// rather than the server's death and a crash loop over the same job.
func (b *Bot) safeDispatch(ctx context.Context, log *slog.Logger, j *queue.Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			log.Error("job panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	return b.dispatch(ctx, log, j)
}

func (b *Bot) dispatch(ctx context.Context, log *slog.Logger, j *queue.Job) error {
	switch j.Kind {
	case queue.KindPullRequest, queue.KindMergeGroup:
		return b.analyzeChange(ctx, log, j)
	case queue.KindPush:
		return b.warm(ctx, log, j)
	case queue.KindFull:
		return b.verify(ctx, log, j)
	case queue.KindCommand:
		return b.command(ctx, log, j)
	}
	return fmt.Errorf("unknown job kind %q", j.Kind)
}

// checkout clones or fetches a job's repository and makes sure its head
// commit is there (a pull request from a fork lives under refs/pull/N/head).
// The caller closes the repository.
func (b *Bot) checkout(ctx context.Context, c ghapi.Client, j *queue.Job) (_ *vcs.Repo, err error) {
	token, err := c.GitToken(ctx)
	if err != nil {
		return nil, err
	}
	url := j.CloneURL
	if b.rewrite != nil {
		url = b.rewrite(url)
	}
	if url == "" {
		return nil, fmt.Errorf("job %d has no clone URL", j.ID)
	}
	opts := vcs.CloneOptions{Token: token}
	repo, err := vcs.Clone(ctx, url, b.cfg.CloneDir, opts)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			repo.Close()
		}
	}()
	if j.HeadSHA == "" {
		return repo, nil
	}
	if _, err := repo.Resolve(j.HeadSHA); err == nil {
		return repo, nil
	}
	if j.PR > 0 {
		if err := repo.FetchRefs(ctx, opts, fmt.Sprintf("refs/pull/%d/head", j.PR)); err != nil {
			return nil, err
		}
	}
	if _, err := repo.Resolve(j.HeadSHA); err != nil {
		return nil, fmt.Errorf("the head commit is not in %s: %w", j.Repo, err)
	}
	return repo, nil
}

// request is the analysis of a job, as far as the job says.
func (b *Bot) request(pass analysis.Pass, j *queue.Job) *analysis.Request {
	// The jobs running at once share the CPUs the runtime may use, which
	// are the container's share of the host where a quota limits it.
	_, jobs := b.cfg.Parallelism(runtime.GOMAXPROCS(0))
	req := &analysis.Request{Pass: pass, Fresh: j.Fresh, Repo: j.Repo, Jobs: jobs,
		Ceilings: &b.cfg.Ceilings, MaxMemory: b.cfg.JobMemory}
	if j.Fresh && pass == analysis.Change {
		req.Strategy = vocab.StrategyFull // `/setbot full`: from scratch, nothing reused
	}
	return req
}

// analyze runs req on repo: in a child process when the server has an
// analyzer (Options.Analyzer), in this process otherwise. refuse, when
// set, is asked whether black-box commands may run; GitHub is called here,
// never in the child.
//
// A child that dies (a runtime fatal error, an out-of-memory kill) fails
// its job at once with an analysis.CrashError, which the job's check run
// shows. The job is neither retried nor counted in the queue's Crashes:
// those count the deaths of the server's process, which leave the queue
// unsure which of the jobs it ran killed it, so that each runs again alone
// (see Crashes in bot/queue). A child runs one analysis: its death names
// its culprit, and the jobs beside it are not touched.
func (b *Bot) analyze(ctx context.Context, log *slog.Logger, j *queue.Job, repo *vcs.Repo, req *analysis.Request, refuse func(context.Context) string) (*analysis.Result, error) {
	if b.analyzer == nil {
		opts := pipeline.Options{Cache: b.store, Solver: b.solver, Logger: log, RefuseCommands: refuse}
		return analysis.Run(ctx, repo, req, opts), nil
	}
	req.Dir = repo.Dir()
	req.Store = analysis.Store{Path: b.cfg.Database, URL: b.cfg.Store, MaxBytes: b.cfg.CacheMaxBytes}
	label := fmt.Sprintf("%s@%.12s", j.Repo, req.Head)
	return analysis.InChild(ctx, *b.analyzer, label, req, log, refuse)
}

func (b *Bot) jobTimeout() time.Duration {
	if b.cfg.JobTimeout <= 0 {
		return config.DefaultJobTimeout
	}
	return b.cfg.JobTimeout
}
