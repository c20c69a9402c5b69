package bot

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/queue"
)

// PullRequest analyses a pull request when it opens, gets new commits, is
// reopened or leaves draft.
type PullRequest struct{}

var _ EventHandler = (*PullRequest)(nil)

// Handles implements EventHandler.
func (*PullRequest) Handles() []string { return []string{"pull_request"} }

// Handle implements EventHandler.
func (h *PullRequest) Handle(_ context.Context, _, _ string, payload []byte) ([]queue.Job, string, error) {
	var e github.PullRequestEvent
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, "", fmt.Errorf("decoding the pull_request event: %w", err)
	}
	switch e.GetAction() {
	case "opened", "synchronize", "reopened", "ready_for_review":
	default:
		return nil, "pull_request action " + e.GetAction() + " needs no analysis", nil
	}
	pr := e.GetPullRequest()
	if pr == nil || e.GetRepo() == nil || pr.GetHead().GetSHA() == "" || pr.GetBase().GetRef() == "" {
		return nil, "", fmt.Errorf("the pull_request event lacks pull_request.head.sha, base.ref or repository")
	}
	if pr.GetDraft() {
		return nil, "draft pull requests are analysed when they are ready for review", nil
	}
	return []queue.Job{{
		Kind:         queue.KindPullRequest,
		Installation: e.GetInstallation().GetID(),
		Repo:         e.GetRepo().GetFullName(),
		CloneURL:     e.GetRepo().GetCloneURL(),
		PR:           pr.GetNumber(),
		Branch:       pr.GetBase().GetRef(),
		BaseSHA:      pr.GetBase().GetSHA(),
		HeadSHA:      pr.GetHead().GetSHA(),
		Requester:    e.GetSender().GetLogin(),
	}}, "", nil
}
