package bot

import (
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/queue"
)

// mergeGroup runs the check on a merge queue's group, so that a required
// setbot check does not hold the queue up.
var mergeGroup = handler[github.MergeGroupEvent]{
	event:   "merge_group",
	actions: []string{"checks_requested"},
	jobs:    mergeGroupJobs,
}

func mergeGroupJobs(e *github.MergeGroupEvent) ([]queue.Job, string, error) {
	g := e.GetMergeGroup()
	if g == nil || e.GetRepo() == nil || g.GetHeadSHA() == "" || g.GetBaseSHA() == "" {
		return nil, "", fmt.Errorf("the merge_group event lacks merge_group.head_sha, base_sha or repository")
	}
	job := jobOn(queue.KindMergeGroup, e.GetInstallation(), e.GetRepo(), e.GetSender().GetLogin())
	job.Branch, job.BaseSHA, job.HeadSHA = strings.TrimPrefix(g.GetHeadRef(), "refs/heads/"), g.GetBaseSHA(), g.GetHeadSHA()
	return []queue.Job{job}, "", nil
}
