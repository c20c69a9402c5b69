package queue

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Job kinds.
const (
	KindPullRequest = "pull_request" // analyse a pull request's head against its base
	KindPush        = "push"         // analyse the new head of the default branch (warm the cache)
	KindFull        = "full"         // scheduled or requested full re-analysis of a branch head: ignore the cache, compare, refresh
	KindMergeGroup  = "merge_group"  // analyse a merge queue's temporary branch head against its base (a branch job)
	KindCommand     = "command"      // obey a `/setbot` comment on a pull request (check the author's access, react, enqueue)
)

// Job states. A job is queued, then running; it ends done, failed or
// cancelled (superseded by a newer job of its Key, or stopped).
const (
	Queued    = "queued"
	Running   = "running"
	Done      = "done"
	Failed    = "failed"
	Cancelled = "cancelled"
)

// ErrInvalidJob is wrapped by the error EnqueueAll returns for a job it refuses
// to store (no repository, an unknown kind, a pull request job without a
// number, ...): the caller's input is wrong, not the store.
var ErrInvalidJob = errors.New("invalid job")

// Job is one unit of work for a worker.
type Job struct {
	ID           int64
	Delivery     string // X-GitHub-Delivery, or "" for jobs not born of a webhook (schedules)
	Kind         string
	Installation int64  // GitHub App installation id (0 with a plain token)
	Repo         string // "owner/name"
	CloneURL     string
	PR           int    // 0 for branch jobs
	Branch       string // the PR's base branch, or the pushed, scheduled or merge queue branch
	BaseSHA      string // "" for branch jobs without a base
	HeadSHA      string // "" only for a full job that resolves the branch head when it runs
	Fresh        bool   // ignore the cache (e.g. `/setbot full`)
	Requester    string // who asked (comment author), for logs
	Command      string // KindCommand: the `/setbot` command ("rerun", "full", "help")
	CommentID    int64  // KindCommand: the comment that gave it
	CheckRun     int64  // the check run an attempt opened (SetCheck); 0 if none, -1 for a commit status
	CheckOpen    bool   // that check was left in progress
	State        string
	Attempts     int       // times a worker started it
	Retries      int       // times it was queued again for later (Requeue)
	Crashes      int       // times its process died while running it (Recover): above 0 it runs alone
	NotBefore    time.Time // not claimed before this time (zero: at once)
	Error        string
	Created      time.Time
	Updated      time.Time
}

// Key is the unit of mutual exclusion: "owner/name#12" for a pull request,
// "owner/name@main" for a branch. At most one job of a Key runs at a time,
// a newer job of a Key supersedes the older ones, and results are published
// per Key. A command job has a Key of its own comment,
// "owner/name#12/comment/4711": it analyses nothing, so it must neither
// supersede nor wait for the pull request's analysis, and each comment is
// answered.
func (j *Job) Key() string {
	switch {
	case j.Kind == KindCommand:
		return j.Repo + "#" + strconv.Itoa(j.PR) + "/comment/" + strconv.FormatInt(j.CommentID, 10)
	case j.PR > 0:
		return j.Repo + "#" + strconv.Itoa(j.PR)
	}
	return j.Repo + "@" + j.Branch
}

// validate checks a job given to EnqueueAll. The fields the queue sets (ID,
// Attempts, Retries, Crashes, NotBefore, Error, Created, Updated) are
// ignored.
func (j *Job) validate() error {
	owner, name, ok := strings.Cut(j.Repo, "/")
	if !ok || owner == "" || name == "" || strings.ContainsAny(name, "/#@") || strings.ContainsAny(owner, "#@") {
		return fmt.Errorf("%w: repository %q is not owner/name", ErrInvalidJob, j.Repo)
	}
	switch j.Kind {
	case KindPullRequest:
		if j.PR <= 0 {
			return fmt.Errorf("%w: pull request job for %s without a pull request number (%d)", ErrInvalidJob, j.Repo, j.PR)
		}
		if j.HeadSHA == "" {
			return fmt.Errorf("%w: pull request job for %s#%d without a head commit", ErrInvalidJob, j.Repo, j.PR)
		}
	case KindCommand:
		if j.PR <= 0 {
			return fmt.Errorf("%w: command job for %s without a pull request number (%d)", ErrInvalidJob, j.Repo, j.PR)
		}
		if j.Command == "" || j.CommentID <= 0 || j.Requester == "" {
			return fmt.Errorf("%w: command job for %s#%d without its command, comment id or author", ErrInvalidJob, j.Repo, j.PR)
		}
	case KindPush, KindFull, KindMergeGroup:
		if j.PR != 0 {
			return fmt.Errorf("%w: %s job for %s with a pull request number (%d): it is a branch job", ErrInvalidJob, j.Kind, j.Repo, j.PR)
		}
		if j.Branch == "" {
			return fmt.Errorf("%w: %s job for %s without a branch", ErrInvalidJob, j.Kind, j.Repo)
		}
		if j.Kind != KindFull && j.HeadSHA == "" {
			return fmt.Errorf("%w: %s job for %s@%s without a head commit", ErrInvalidJob, j.Kind, j.Repo, j.Branch)
		}
	case "":
		return fmt.Errorf("%w: job for %s without a kind", ErrInvalidJob, j.Repo)
	default:
		return fmt.Errorf("%w: unknown job kind %q", ErrInvalidJob, j.Kind)
	}
	if j.Installation < 0 {
		return fmt.Errorf("%w: negative installation id %d", ErrInvalidJob, j.Installation)
	}
	if j.State != "" && j.State != Queued {
		return fmt.Errorf("%w: a new job is queued, not %q", ErrInvalidJob, j.State)
	}
	if j.CheckRun < 0 || j.CheckRun > 0 && j.Kind != KindPullRequest && j.Kind != KindMergeGroup {
		return fmt.Errorf("%w: a %s job cannot take over check run %d", ErrInvalidJob, j.Kind, j.CheckRun)
	}
	return nil
}

// opensChecks reports whether j's runs open a check on GitHub: only the
// heads of such jobs are swept when they end.
func (j *Job) opensChecks() bool { return j.Kind == KindPullRequest || j.Kind == KindMergeGroup }

// inherit makes j, which supersedes a queued job of kind that was fresh or
// not, keep what that job asked for beyond j (see Queue.EnqueueAll).
func inherit(j *Job, kind string, fresh bool) {
	j.Fresh = j.Fresh || fresh
	if kind == KindFull && j.Kind == KindPush {
		j.Kind = KindFull
	}
}

// setTimes sets the times of a job read from a backend, stored as unix
// nanoseconds (0 for no NotBefore).
func (j *Job) setTimes(created, updated, notBefore int64) {
	j.Created = time.Unix(0, created).UTC()
	j.Updated = time.Unix(0, updated).UTC()
	if notBefore > 0 {
		j.NotBefore = time.Unix(0, notBefore).UTC()
	}
}
