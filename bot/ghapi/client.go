package ghapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bradleyfalzon/ghinstallation/v2"
	"github.com/google/go-github/v60/github"
)

// commentsPerPage is the page size when listing comments (GitHub's maximum).
const commentsPerPage = 100

// client is the Client a Factory makes.
type client struct {
	cfg                Config
	baseURL, uploadURL *url.URL
	installationID     int64                     // 0 with a token
	itr                *ghinstallation.Transport // nil with a token
	http               *http.Client              // authenticates every request
	remaining          atomic.Int64
	selfMu             sync.Mutex
	selfLogin          string // the token's user, once asked
}

var _ Client = (*client)(nil)

// github returns a go-github client for one attempt. A fresh one each time, because go-github
// remembers a rate limit it saw and then fails later requests without sending them until the
// reset time by its own clock; do waits out limits itself and must not be second-guessed after
// its wait (nor, in tests, after a Sleep hook that does not wait).
func (c *client) github() *github.Client {
	gh := github.NewClient(c.http)
	gh.BaseURL, gh.UploadURL = c.baseURL, c.uploadURL
	gh.UserAgent = userAgent
	return gh
}

func (c *client) PullRequest(ctx context.Context, r Repo, number int) (*PullRequest, error) {
	var pr *github.PullRequest
	o := op{what: "getting pull request " + prRef(r, number), repo: r, retryNotFound: true}
	err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
		pr, resp, err = gh.PullRequests.Get(ctx, r.Owner, r.Name, number)
		return resp, err
	})
	if err != nil {
		return nil, err
	}
	return &PullRequest{
		Number:   pr.GetNumber(),
		BaseRef:  pr.GetBase().GetRef(),
		BaseSHA:  pr.GetBase().GetSHA(),
		HeadRef:  pr.GetHead().GetRef(),
		HeadSHA:  pr.GetHead().GetSHA(),
		HeadRepo: pr.GetHead().GetRepo().GetFullName(),
		Draft:    pr.GetDraft(),
		State:    pr.GetState(),
		HTMLURL:  pr.GetHTMLURL(),
	}, nil
}

func (c *client) FindComment(ctx context.Context, r Repo, number int, marker string) (int64, string, error) {
	if marker == "" {
		// Every comment contains "": editing the first one found would be wrong.
		return 0, "", fmt.Errorf("finding comment on %s: empty marker", prRef(r, number))
	}
	opts := &github.IssueListCommentsOptions{ListOptions: github.ListOptions{PerPage: commentsPerPage, Page: 1}}
	for {
		var (
			comments []*github.IssueComment
			next     int
		)
		o := op{what: fmt.Sprintf("listing comments on %s (page %d)", prRef(r, number), opts.Page), repo: r, retryNotFound: true}
		err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
			comments, resp, err = gh.Issues.ListComments(ctx, r.Owner, r.Name, number, opts)
			if resp != nil {
				next = resp.NextPage
			}
			return resp, err
		})
		if err != nil {
			return 0, "", err
		}
		for _, cm := range comments {
			if !strings.HasPrefix(cm.GetBody(), marker) {
				continue
			}
			mine, err := c.wrote(ctx, cm.GetUser())
			if err != nil {
				return 0, "", err
			}
			if mine {
				return cm.GetID(), cm.GetBody(), nil
			}
		}
		if next == 0 {
			return 0, "", nil
		}
		opts.Page = next
	}
}

// wrote reports whether a comment's author is this client's identity: an
// App writes as a Bot account (no person can be one); a token writes as its
// user. Only then is a comment setbot's to edit: anyone can paste a marker.
func (c *client) wrote(ctx context.Context, u *github.User) (bool, error) {
	if c.itr != nil {
		return u.GetType() == "Bot", nil
	}
	login, err := c.self(ctx)
	if err != nil {
		return false, err
	}
	return strings.EqualFold(u.GetLogin(), login), nil
}

// self is the login of the token's user, asked once.
func (c *client) self(ctx context.Context) (string, error) {
	c.selfMu.Lock()
	defer c.selfMu.Unlock()
	if c.selfLogin != "" {
		return c.selfLogin, nil
	}
	var u *github.User
	err := c.do(ctx, op{what: "asking who the token's user is"}, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
		u, resp, err = gh.Users.Get(ctx, "")
		return resp, err
	})
	if err != nil {
		return "", err
	}
	c.selfLogin = u.GetLogin()
	return c.selfLogin, nil
}

func (c *client) CreateComment(ctx context.Context, r Repo, number int, body string) (int64, error) {
	var cm *github.IssueComment
	o := op{what: "creating comment on " + prRef(r, number), repo: r, retryNotFound: true}
	err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
		cm, resp, err = gh.Issues.CreateComment(ctx, r.Owner, r.Name, number, &github.IssueComment{Body: &body})
		return resp, err
	})
	if err != nil {
		return 0, err
	}
	return cm.GetID(), nil
}

func (c *client) EditComment(ctx context.Context, r Repo, id int64, body string) error {
	o := op{what: fmt.Sprintf("editing comment %d on %s", id, r), repo: r}
	return c.do(ctx, o, func(ctx context.Context, gh *github.Client) (*github.Response, error) {
		_, resp, err := gh.Issues.EditComment(ctx, r.Owner, r.Name, id, &github.IssueComment{Body: &body})
		return resp, err
	})
}

func (c *client) CreateCheckRun(ctx context.Context, r Repo, run CheckRun) (int64, error) {
	batches := annotationBatches(run.Annotations)
	opts := github.CreateCheckRunOptions{
		Name:       checkName(run),
		HeadSHA:    run.HeadSHA,
		DetailsURL: optional(run.DetailsURL),
		Status:     optional(run.Status),
		Conclusion: optional(run.Conclusion),
		Output:     output(run, batches[0]),
	}
	var cr *github.CheckRun
	o := op{what: fmt.Sprintf("creating check run on %s at %s", r, shortSHA(run.HeadSHA)), repo: r, retryNotFound: true}
	err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
		cr, resp, err = gh.Checks.CreateCheckRun(ctx, r.Owner, r.Name, opts)
		return resp, err
	})
	if err != nil {
		return 0, err
	}
	id := cr.GetID()
	return id, c.addAnnotations(ctx, r, id, run, batches[1:])
}

func (c *client) UpdateCheckRun(ctx context.Context, r Repo, id int64, run CheckRun) error {
	batches := annotationBatches(run.Annotations)
	opts := github.UpdateCheckRunOptions{
		Name:       checkName(run),
		DetailsURL: optional(run.DetailsURL),
		Status:     optional(run.Status),
		Conclusion: optional(run.Conclusion),
		Output:     output(run, batches[0]),
	}
	o := op{what: fmt.Sprintf("updating check run %d on %s", id, r), repo: r}
	err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (*github.Response, error) {
		_, resp, err := gh.Checks.UpdateCheckRun(ctx, r.Owner, r.Name, id, opts)
		return resp, err
	})
	if err != nil {
		return err
	}
	return c.addAnnotations(ctx, r, id, run, batches[1:])
}

// addAnnotations sends the annotation batches after the first, each in an update that repeats
// the output's title, summary and text (GitHub requires title and summary with annotations, and
// appends annotations across updates).
func (c *client) addAnnotations(ctx context.Context, r Repo, id int64, run CheckRun, batches [][]Annotation) error {
	first := MaxAnnotationsPerRequest + 1
	for _, b := range batches {
		opts := github.UpdateCheckRunOptions{Name: checkName(run), Output: output(run, b)}
		o := op{what: fmt.Sprintf("adding annotations %d-%d to check run %d on %s", first, first+len(b)-1, id, r), repo: r}
		err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (*github.Response, error) {
			_, resp, err := gh.Checks.UpdateCheckRun(ctx, r.Owner, r.Name, id, opts)
			return resp, err
		})
		if err != nil {
			return err
		}
		first += len(b)
	}
	return nil
}

// annotationBatches splits annotations into batches GitHub accepts; there is always at least
// one batch, possibly empty.
func annotationBatches(as []Annotation) [][]Annotation {
	batches := [][]Annotation{nil}
	for i := 0; i < len(as); i += MaxAnnotationsPerRequest {
		b := as[i:min(i+MaxAnnotationsPerRequest, len(as))]
		if i == 0 {
			batches[0] = b
		} else {
			batches = append(batches, b)
		}
	}
	return batches
}

func checkName(run CheckRun) string {
	if run.Name == "" {
		return DefaultCheckName
	}
	return run.Name
}

// output is the check run output carrying annotations as; nil when there is nothing to say.
func output(run CheckRun, as []Annotation) *github.CheckRunOutput {
	if run.Title == "" && run.Summary == "" && run.Text == "" && len(as) == 0 {
		return nil
	}
	out := &github.CheckRunOutput{
		Title:   github.String(run.Title),
		Summary: github.String(run.Summary),
		Text:    optional(run.Text),
	}
	for _, a := range as {
		out.Annotations = append(out.Annotations, &github.CheckRunAnnotation{
			Path:            github.String(a.Path),
			StartLine:       github.Int(a.StartLine),
			EndLine:         github.Int(a.EndLine),
			AnnotationLevel: github.String(a.Level),
			Title:           optional(a.Title),
			Message:         github.String(a.Message),
		})
	}
	return out
}

// optional returns nil for "", so that the field is left out of the request.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (c *client) SetStatus(ctx context.Context, r Repo, sha string, s Status) error {
	desc := []rune(s.Description)
	if len(desc) > MaxStatusDescription {
		desc = append(desc[:MaxStatusDescription-1], '…')
	}
	st := &github.RepoStatus{State: optional(s.State), Context: optional(s.Context), Description: optional(string(desc)), TargetURL: optional(s.TargetURL)}
	o := op{what: fmt.Sprintf("setting status %s on %s at %s", s.Context, r, shortSHA(sha)), repo: r, retryNotFound: true}
	return c.do(ctx, o, func(ctx context.Context, gh *github.Client) (*github.Response, error) {
		_, resp, err := gh.Repositories.CreateStatus(ctx, r.Owner, r.Name, sha, st)
		return resp, err
	})
}

func (c *client) AddReaction(ctx context.Context, r Repo, commentID int64, content string) error {
	o := op{what: fmt.Sprintf("adding reaction %q to comment %d on %s", content, commentID, r), repo: r}
	return c.do(ctx, o, func(ctx context.Context, gh *github.Client) (*github.Response, error) {
		_, resp, err := gh.Reactions.CreateIssueCommentReaction(ctx, r.Owner, r.Name, commentID, content)
		return resp, err
	})
}

// permissionLevel is the body of GET /repos/{owner}/{repo}/collaborators/{user}/permission.
// go-github v60 lacks role_name, the only field that tells maintain from write and triage from
// read ("permission" is the legacy admin/write/read/none).
type permissionLevel struct {
	Permission string `json:"permission"`
	RoleName   string `json:"role_name"`
}

func (c *client) Permission(ctx context.Context, r Repo, user string) (string, error) {
	var p permissionLevel
	o := op{what: fmt.Sprintf("getting permission of %s on %s", user, r), repo: r}
	err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (*github.Response, error) {
		u := fmt.Sprintf("repos/%s/%s/collaborators/%s/permission",
			url.PathEscape(r.Owner), url.PathEscape(r.Name), url.PathEscape(user))
		req, err := gh.NewRequest(http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		return gh.Do(ctx, req, &p)
	})
	if err != nil {
		return "", err
	}
	switch p.RoleName {
	case "admin", "maintain", "write", "triage", "read":
		return p.RoleName, nil
	}
	// A custom role: its base permission.
	if p.Permission == "" {
		return "", fmt.Errorf("%s: response names no permission", o.what)
	}
	return p.Permission, nil
}

func (c *client) DefaultBranch(ctx context.Context, r Repo) (string, error) {
	var repo *github.Repository
	o := op{what: "getting repository " + r.String(), repo: r}
	err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
		repo, resp, err = gh.Repositories.Get(ctx, r.Owner, r.Name)
		return resp, err
	})
	if err != nil {
		return "", err
	}
	if repo.GetDefaultBranch() == "" {
		return "", fmt.Errorf("%s: no default branch", o.what)
	}
	return repo.GetDefaultBranch(), nil
}

// BranchHead reads the branch's ref rather than the branch: go-github v60's GetBranch returns
// untyped errors without the response, which would hide rate limits and 5xx from retries.
func (c *client) BranchHead(ctx context.Context, r Repo, branch string) (string, error) {
	var ref *github.Reference
	o := op{what: fmt.Sprintf("getting head of branch %s on %s", branch, r), repo: r}
	err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
		ref, resp, err = gh.Git.GetRef(ctx, r.Owner, r.Name, "heads/"+branch)
		return resp, err
	})
	if err != nil {
		return "", err
	}
	sha := ref.GetObject().GetSHA()
	if sha == "" {
		return "", fmt.Errorf("%s: ref has no object", o.what)
	}
	return sha, nil
}

func (c *client) GitToken(ctx context.Context) (string, error) {
	if c.itr == nil {
		return c.cfg.Token, nil
	}
	var token string
	o := op{what: fmt.Sprintf("getting token for installation %d", c.installationID)}
	err := c.do(ctx, o, func(ctx context.Context, _ *github.Client) (_ *github.Response, err error) {
		token, err = c.itr.Token(ctx)
		return nil, err
	})
	if err != nil {
		return "", err
	}
	if token == "" {
		return "", errors.New(o.what + ": GitHub returned an empty token")
	}
	return token, nil
}

func (c *client) RateRemaining() int { return int(c.remaining.Load()) }

// listPerPage is the page size of the lists (GitHub's maximum).
const listPerPage = 100

func (c *client) Repositories(ctx context.Context) ([]Repository, error) {
	if c.itr == nil {
		return nil, nil
	}
	var out []Repository
	opts := &github.ListOptions{PerPage: listPerPage, Page: 1}
	for {
		var (
			list *github.ListRepositories
			next int
		)
		o := op{what: fmt.Sprintf("listing the repositories of installation %d (page %d)", c.installationID, opts.Page)}
		err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
			list, resp, err = gh.Apps.ListRepos(ctx, opts)
			if resp != nil {
				next = resp.NextPage
			}
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, r := range list.Repositories {
			out = append(out, Repository{Repo: Repo{Owner: r.GetOwner().GetLogin(), Name: r.GetName()}, CloneURL: r.GetCloneURL()})
		}
		if next == 0 {
			return out, nil
		}
		opts.Page = next
	}
}

func (c *client) OpenPullRequests(ctx context.Context, r Repo) ([]PullRequest, error) {
	var out []PullRequest
	opts := &github.PullRequestListOptions{State: "open", ListOptions: github.ListOptions{PerPage: listPerPage, Page: 1}}
	for {
		var (
			prs  []*github.PullRequest
			next int
		)
		o := op{what: fmt.Sprintf("listing the open pull requests of %s (page %d)", r, opts.Page), repo: r}
		err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
			prs, resp, err = gh.PullRequests.List(ctx, r.Owner, r.Name, opts)
			if resp != nil {
				next = resp.NextPage
			}
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, pr := range prs {
			out = append(out, PullRequest{
				Number: pr.GetNumber(), BaseRef: pr.GetBase().GetRef(), BaseSHA: pr.GetBase().GetSHA(),
				HeadRef: pr.GetHead().GetRef(), HeadSHA: pr.GetHead().GetSHA(), HeadRepo: pr.GetHead().GetRepo().GetFullName(), Draft: pr.GetDraft(),
				State: pr.GetState(), HTMLURL: pr.GetHTMLURL(),
			})
		}
		if next == 0 {
			return out, nil
		}
		opts.Page = next
	}
}

func (c *client) InProgressCheckRuns(ctx context.Context, r Repo, sha, name string) ([]int64, error) {
	var out []int64
	opts := &github.ListCheckRunsOptions{
		CheckName: github.String(name), Status: github.String("in_progress"), Filter: github.String("all"),
		ListOptions: github.ListOptions{PerPage: listPerPage, Page: 1},
	}
	for {
		var (
			list *github.ListCheckRunsResults
			next int
		)
		o := op{what: fmt.Sprintf("listing check runs %s in progress on %s at %s (page %d)", name, r, shortSHA(sha), opts.Page), repo: r, retryNotFound: true}
		err := c.do(ctx, o, func(ctx context.Context, gh *github.Client) (resp *github.Response, err error) {
			list, resp, err = gh.Checks.ListCheckRunsForRef(ctx, r.Owner, r.Name, sha, opts)
			if resp != nil {
				next = resp.NextPage
			}
			return resp, err
		})
		if err != nil {
			return nil, err
		}
		for _, run := range list.CheckRuns {
			// The filters are GitHub's; a run that does not match them is not ours to touch.
			if run.GetName() == name && run.GetStatus() == "in_progress" {
				out = append(out, run.GetID())
			}
		}
		if next == 0 {
			return out, nil
		}
		opts.Page = next
	}
}
