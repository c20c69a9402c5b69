package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/queue"
)

// handler is the EventHandler of one webhook event whose payload is a P.
// It decodes the payload, answers the actions that need no work as
// ignored, and leaves the rest to jobs. Each event has a file of its own
// that defines its handler and its jobs (pull_request.go, push.go, ...).
type handler[P any] struct {
	event string // as X-GitHub-Event names it
	// actions are the event's actions that need work (GetAction of the
	// payload); nil for an event without actions.
	actions []string
	// jobs makes the jobs of a payload, or says why it needs none.
	jobs func(*P) ([]queue.Job, string, error)
}

// Handles implements EventHandler.
func (h handler[P]) Handles() []string { return []string{h.event} }

// Handle implements EventHandler.
func (h handler[P]) Handle(_ context.Context, _, _ string, payload []byte) ([]queue.Job, string, error) {
	var e P
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, "", fmt.Errorf("decoding the %s event: %w", h.event, err)
	}
	if p, ok := any(&e).(interface{ GetAction() string }); ok && h.actions != nil && !slices.Contains(h.actions, p.GetAction()) {
		return nil, h.event + " action " + p.GetAction() + " needs nothing", nil
	}
	return h.jobs(&e)
}

// jobOn starts a job of kind on repo, asked for by requester through the
// app's installation inst; the event's handler fills in the rest.
func jobOn(kind string, inst *github.Installation, repo repository, requester string) queue.Job {
	return queue.Job{Kind: kind, Installation: inst.GetID(), Repo: repo.GetFullName(), CloneURL: repo.GetCloneURL(),
		Requester: requester}
}

// repository is what a job needs of a repository, as every event but push
// (github.Repository) and push (github.PushEventRepository) gives it.
type repository interface {
	GetFullName() string
	GetCloneURL() string
}
