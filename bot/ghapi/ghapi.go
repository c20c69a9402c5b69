// Package ghapi holds every GitHub API call setbot's bot makes, behind the small Client interface.
//
// The bot's domain logic talks to GitHub only through Client, so it can be tested against a fake.
// The implementation made by a Factory adds what every call needs: a per-request timeout, retries
// with backoff on server and network errors, waiting out primary and secondary rate limits, and
// errors that say what was being done.
package ghapi

import (
	"context"
	"fmt"
	"log/slog"
)

// MaxAnnotationsPerRequest is GitHub's limit on check run annotations in one create or update.
const MaxAnnotationsPerRequest = 50

// Repo names a repository.
type Repo struct{ Owner, Name string }

// String returns "owner/name".
func (r Repo) String() string { return r.Owner + "/" + r.Name }

// CheckRun is what setbot writes into a check run.
type CheckRun struct {
	// Name is "setbot"; "" means DefaultCheckName. Updates send it too (go-github v60 always
	// does), so an update must carry the name the run was created with.
	Name        string
	HeadSHA     string // used by CreateCheckRun only
	Status      string // "queued", "in_progress", "completed"; "" leaves it to GitHub
	Conclusion  string // with completed: "success", "neutral", "failure", "cancelled"
	DetailsURL  string // optional
	Title       string
	Summary     string
	Text        string
	Annotations []Annotation
}

// DefaultCheckName is the check run name used when CheckRun.Name is empty.
const DefaultCheckName = "setbot"

// Annotation marks a line range of a file in a check run.
type Annotation struct {
	Path               string
	StartLine, EndLine int
	Level              string // "notice", "warning" or "failure"
	Title, Message     string
}

// PullRequest is what setbot needs to know about a pull request.
type PullRequest struct {
	Number           int
	BaseRef, BaseSHA string
	HeadRef, HeadSHA string
	// HeadRepo is the repository the head branch is in, "owner/name": not
	// the pull request's own for a pull request from a fork, and "" when
	// that fork was deleted.
	HeadRepo string
	Draft    bool
	State    string // "open" or "closed"
	HTMLURL  string
}

// Client is GitHub for one installation (or one token).
type Client interface {
	// PullRequest returns a pull request.
	PullRequest(ctx context.Context, r Repo, number int) (*PullRequest, error)
	// FindComment returns the id and body of the first issue comment on the pull request whose
	// body contains marker (0, "" if none); it pages through all comments.
	FindComment(ctx context.Context, r Repo, number int, marker string) (id int64, body string, err error)
	// CreateComment adds an issue comment to the pull request and returns its id.
	CreateComment(ctx context.Context, r Repo, number int, body string) (int64, error)
	// EditComment replaces the body of an issue comment.
	EditComment(ctx context.Context, r Repo, id int64, body string) error
	// CreateCheckRun creates a check run; UpdateCheckRun updates one. Both send the annotations in
	// batches of at most MaxAnnotationsPerRequest: the first batch with the create/update call,
	// the rest in further updates of the same run with the same output title, summary and text.
	// When a later batch fails, CreateCheckRun returns the new run's id with the error.
	CreateCheckRun(ctx context.Context, r Repo, run CheckRun) (int64, error)
	UpdateCheckRun(ctx context.Context, r Repo, id int64, run CheckRun) error
	// SetStatus sets a commit status: the gate where check runs cannot be used (GitHub lets
	// only Apps create check runs; a plain token posts statuses instead).
	SetStatus(ctx context.Context, r Repo, sha string, s Status) error
	// AddReaction reacts to an issue comment ("+1", "eyes", "rocket", "confused", ...).
	AddReaction(ctx context.Context, r Repo, commentID int64, content string) error
	// Permission returns the user's permission on the repository: "admin", "maintain",
	// "write", "triage", "read" or "none".
	Permission(ctx context.Context, r Repo, user string) (string, error)
	// DefaultBranch returns the repository's default branch name.
	DefaultBranch(ctx context.Context, r Repo) (string, error)
	// BranchHead returns the commit SHA at the tip of a branch.
	BranchHead(ctx context.Context, r Repo, branch string) (string, error)
	// GitToken returns a token git can fetch with over HTTPS (user "x-access-token"); for a
	// plain token, the token itself.
	GitToken(ctx context.Context) (string, error)
	// Repositories lists the repositories of an App installation (all pages); with a plain
	// token, none.
	Repositories(ctx context.Context) ([]Repository, error)
	// OpenPullRequests lists the open pull requests of a repository (all pages).
	OpenPullRequests(ctx context.Context, r Repo) ([]PullRequest, error)
	// InProgressCheckRuns returns the ids of the check runs named name that are in progress
	// on the commit sha, whichever suite or attempt made them.
	InProgressCheckRuns(ctx context.Context, r Repo, sha, name string) ([]int64, error)
	// RateRemaining returns the remaining core rate limit last seen in a response (-1 before
	// any response).
	RateRemaining() int
}

// Repository is a repository an App installation may access.
type Repository struct {
	Repo
	CloneURL string
}

// Status is a commit status.
type Status struct {
	State       string // "pending", "success", "failure" or "error"
	Context     string // the status's name, e.g. "setbot"
	Description string // at most MaxStatusDescription characters (longer is cut)
	TargetURL   string // optional
}

// MaxStatusDescription is GitHub's limit on a status description.
const MaxStatusDescription = 140

// shortSHA abbreviates a commit id for messages.
func shortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// prRef names a pull request in messages: "owner/name#12".
func prRef(r Repo, number int) string { return fmt.Sprintf("%s#%d", r, number) }

type loggerKey struct{}

// WithLogger returns a context whose GitHub calls log through log (a job's
// logger, carrying its delivery, repository, pull request and commit).
func WithLogger(ctx context.Context, log *slog.Logger) context.Context {
	return context.WithValue(ctx, loggerKey{}, log)
}

// LoggerFrom returns the logger WithLogger put in ctx, or def.
func LoggerFrom(ctx context.Context, def *slog.Logger) *slog.Logger {
	if l, ok := ctx.Value(loggerKey{}).(*slog.Logger); ok && l != nil {
		return l
	}
	return def
}
