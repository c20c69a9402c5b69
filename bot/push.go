package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/queue"
)

// Push warms the cache when the default branch moves, so that pull
// requests against it find their base trees cached.
type Push struct{}

var _ EventHandler = (*Push)(nil)

// Handles implements EventHandler.
func (*Push) Handles() []string { return []string{"push"} }

// Handle implements EventHandler.
func (h *Push) Handle(_ context.Context, _, _ string, payload []byte) ([]queue.Job, string, error) {
	var e github.PushEvent
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, "", fmt.Errorf("decoding the push event: %w", err)
	}
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
	return []queue.Job{{
		Kind:         queue.KindPush,
		Installation: e.GetInstallation().GetID(),
		Repo:         repo.GetFullName(),
		CloneURL:     repo.GetCloneURL(),
		Branch:       branch,
		HeadSHA:      e.GetAfter(),
		Requester:    e.GetSender().GetLogin(),
	}}, "", nil
}
