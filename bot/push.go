package bot

import (
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/queue"
)

// push warms the cache when the default branch moves, so that pull
// requests against it find their base trees cached.
var push = handler[github.PushEvent]{
	event: "push",
	jobs:  pushJobs,
}

func pushJobs(e *github.PushEvent) ([]queue.Job, string, error) {
	repo := e.GetRepo()
	if repo == nil || e.GetRef() == "" {
		return nil, "", fmt.Errorf("the push event lacks ref or repository")
	}
	branch, ok := strings.CutPrefix(e.GetRef(), "refs/heads/")
	switch {
	case !ok:
		return nil, "push to " + e.GetRef() + ", not a branch", nil
	case branch != repo.GetDefaultBranch():
		return nil, "push to " + branch + ", not the default branch", nil
	case e.GetDeleted() || e.GetAfter() == "" || strings.Trim(e.GetAfter(), "0") == "":
		return nil, "the branch was deleted", nil
	}
	job := jobOn(queue.KindPush, e.GetInstallation(), repo, e.GetSender().GetLogin())
	job.Branch, job.HeadSHA = branch, e.GetAfter()
	return []queue.Job{job}, "", nil
}
