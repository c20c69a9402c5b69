package bot

import (
	"fmt"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/queue"
)

// pullRequest analyses a pull request when it opens, gets new commits, is
// reopened or leaves draft.
var pullRequest = handler[github.PullRequestEvent]{
	event:   "pull_request",
	actions: []string{"opened", "synchronize", "reopened", "ready_for_review"},
	jobs:    pullRequestJobs,
}

func pullRequestJobs(e *github.PullRequestEvent) ([]queue.Job, string, error) {
	pr := e.GetPullRequest()
	if pr == nil || e.GetRepo() == nil || pr.GetHead().GetSHA() == "" || pr.GetBase().GetRef() == "" {
		return nil, "", fmt.Errorf("the pull_request event lacks pull_request.head.sha, base.ref or repository")
	}
	if pr.GetDraft() {
		return nil, "draft pull requests are analysed when they are ready for review", nil
	}
	job := jobOn(queue.KindPullRequest, e.GetInstallation(), e.GetRepo(), e.GetSender().GetLogin())
	job.PR, job.Branch, job.BaseSHA, job.HeadSHA = pr.GetNumber(), pr.GetBase().GetRef(), pr.GetBase().GetSHA(), pr.GetHead().GetSHA()
	return []queue.Job{job}, "", nil
}
