package bot

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/ghapi"
	"github.com/setbot/setbot/bot/queue"
)

// CheckRun analyses again when someone asks GitHub to re-run setbot's
// check run.
type CheckRun struct{}

var _ EventHandler = (*CheckRun)(nil)

// Handles implements EventHandler.
func (*CheckRun) Handles() []string { return []string{"check_run"} }

// Handle implements EventHandler.
func (h *CheckRun) Handle(_ context.Context, _, _ string, payload []byte) ([]queue.Job, string, error) {
	var e github.CheckRunEvent
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, "", fmt.Errorf("decoding the check_run event: %w", err)
	}
	if e.GetAction() != "rerequested" {
		return nil, "check_run action " + e.GetAction() + " needs nothing", nil
	}
	run := e.GetCheckRun()
	if run == nil || e.GetRepo() == nil {
		return nil, "", fmt.Errorf("the check_run event lacks check_run or repository")
	}
	if run.GetName() != ghapi.DefaultCheckName {
		return nil, "check run " + run.GetName() + " is not setbot's", nil
	}
	return rerunJobs(e.GetRepo(), e.GetInstallation(), e.GetSender(), run.GetHeadSHA(), run.PullRequests)
}

// CheckSuite analyses again when someone re-runs the whole check suite.
type CheckSuite struct{}

var _ EventHandler = (*CheckSuite)(nil)

// Handles implements EventHandler.
func (*CheckSuite) Handles() []string { return []string{"check_suite"} }

// Handle implements EventHandler.
func (h *CheckSuite) Handle(_ context.Context, _, _ string, payload []byte) ([]queue.Job, string, error) {
	var e github.CheckSuiteEvent
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, "", fmt.Errorf("decoding the check_suite event: %w", err)
	}
	if e.GetAction() != "rerequested" {
		return nil, "check_suite action " + e.GetAction() + " needs nothing", nil
	}
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
		jobs = append(jobs, queue.Job{
			Kind: queue.KindPullRequest, Installation: inst.GetID(),
			Repo: repo.GetFullName(), CloneURL: repo.GetCloneURL(),
			PR: pr.GetNumber(), Branch: pr.GetBase().GetRef(), BaseSHA: pr.GetBase().GetSHA(), HeadSHA: sha,
			Requester: sender.GetLogin(),
		})
	}
	return jobs, "", nil
}
