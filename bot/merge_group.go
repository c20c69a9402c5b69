package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/queue"
)

// MergeGroup runs the check on a merge queue's group, so that a required
// setbot check does not hold the queue up.
type MergeGroup struct{}

var _ EventHandler = (*MergeGroup)(nil)

// Handles implements EventHandler.
func (*MergeGroup) Handles() []string { return []string{"merge_group"} }

// Handle implements EventHandler.
func (h *MergeGroup) Handle(_ context.Context, _, _ string, payload []byte) ([]queue.Job, string, error) {
	var e github.MergeGroupEvent
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, "", fmt.Errorf("decoding the merge_group event: %w", err)
	}
	if e.GetAction() != "checks_requested" {
		return nil, "merge_group action " + e.GetAction() + " needs nothing", nil
	}
	g := e.GetMergeGroup()
	if g == nil || e.GetRepo() == nil || g.GetHeadSHA() == "" || g.GetBaseSHA() == "" {
		return nil, "", fmt.Errorf("the merge_group event lacks merge_group.head_sha, base_sha or repository")
	}
	return []queue.Job{{
		Kind: queue.KindMergeGroup, Installation: e.GetInstallation().GetID(),
		Repo: e.GetRepo().GetFullName(), CloneURL: e.GetRepo().GetCloneURL(),
		Branch:  strings.TrimPrefix(g.GetHeadRef(), "refs/heads/"),
		BaseSHA: g.GetBaseSHA(), HeadSHA: g.GetHeadSHA(),
		Requester: e.GetSender().GetLogin(),
	}}, "", nil
}
