package bot

import (
	"fmt"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/ghapi"
	"github.com/setbot/setbot/bot/queue"
)

// checkRun analyses again when someone asks GitHub to re-run setbot's
// check run.
var checkRun = handler[github.CheckRunEvent]{
	event:   "check_run",
	actions: []string{"rerequested"},
	jobs:    checkRunJobs,
}

func checkRunJobs(e *github.CheckRunEvent) ([]queue.Job, string, error) {
	run := e.GetCheckRun()
	if run == nil || e.GetRepo() == nil {
		return nil, "", fmt.Errorf("the check_run event lacks check_run or repository")
	}
	if run.GetName() != ghapi.DefaultCheckName {
		return nil, "check run " + run.GetName() + " is not setbot's", nil
	}
	return rerunJobs(e.GetRepo(), e.GetInstallation(), e.GetSender(), run.GetHeadSHA(), run.PullRequests)
}

// checkSuite analyses again when someone re-runs the whole check suite.
var checkSuite = handler[github.CheckSuiteEvent]{
	event:   "check_suite",
	actions: []string{"rerequested"},
	jobs:    checkSuiteJobs,
}

func checkSuiteJobs(e *github.CheckSuiteEvent) ([]queue.Job, string, error) {
	suite := e.GetCheckSuite()
	if suite == nil || e.GetRepo() == nil {
		return nil, "", fmt.Errorf("the check_suite event lacks check_suite or repository")
	}
	return rerunJobs(e.GetRepo(), e.GetInstallation(), e.GetSender(), suite.GetHeadSHA(), suite.PullRequests)
}

// rerunJobs makes one pull-request job per pull request a check names.
func rerunJobs(repo *github.Repository, inst *github.Installation, sender *github.User, head string, prs []*github.PullRequest) ([]queue.Job, string, error) {
	if len(prs) == 0 {
		return nil, "the check belongs to no pull request of this repository", nil
	}
	var jobs []queue.Job
	for _, pr := range prs {
		if pr.GetNumber() == 0 || pr.GetBase().GetRef() == "" {
			return nil, "", fmt.Errorf("a pull request of the check lacks its number or base")
		}
		sha := pr.GetHead().GetSHA()
		if sha == "" {
			sha = head
		}
		job := jobOn(queue.KindPullRequest, inst, repo, sender.GetLogin())
		job.PR, job.Branch, job.BaseSHA, job.HeadSHA = pr.GetNumber(), pr.GetBase().GetRef(), pr.GetBase().GetSHA(), sha
		jobs = append(jobs, job)
	}
	return jobs, "", nil
}
