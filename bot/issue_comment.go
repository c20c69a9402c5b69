package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/go-github/v60/github"

	"github.com/setbot/setbot/bot/queue"
)

// Commands a pull-request comment can give.
const (
	CommandRerun = "rerun" // analyse the pull request again
	CommandFull  = "full"  // analyse it again from scratch, ignoring the cache
	CommandHelp  = "help"  // answer with the list of commands
)

// IssueComment obeys `/setbot rerun`, `/setbot full` and `/setbot help` on
// pull requests. Whether the author may command setbot (write access) is
// asked of GitHub by the worker, not here: the webhook is answered at once.
type IssueComment struct{}

var _ EventHandler = (*IssueComment)(nil)

// Handles implements EventHandler.
func (*IssueComment) Handles() []string { return []string{"issue_comment"} }

// Handle implements EventHandler.
func (h *IssueComment) Handle(_ context.Context, _, _ string, payload []byte) ([]queue.Job, string, error) {
	var e github.IssueCommentEvent
	if err := json.Unmarshal(payload, &e); err != nil {
		return nil, "", fmt.Errorf("decoding the issue_comment event: %w", err)
	}
	if e.GetAction() != "created" {
		return nil, "issue_comment action " + e.GetAction() + " needs nothing", nil
	}
	c, issue := e.GetComment(), e.GetIssue()
	if c == nil || issue == nil || e.GetRepo() == nil {
		return nil, "", fmt.Errorf("the issue_comment event lacks comment, issue or repository")
	}
	if !issue.IsPullRequest() {
		return nil, "comment on an issue, not a pull request", nil
	}
	cmd, ok := parseCommand(c.GetBody())
	if !ok {
		return nil, "no /setbot command in the comment", nil
	}
	if strings.HasSuffix(c.GetUser().GetLogin(), "[bot]") {
		return nil, "comment by a bot", nil
	}
	return []queue.Job{{
		Kind: queue.KindCommand, Installation: e.GetInstallation().GetID(),
		Repo: e.GetRepo().GetFullName(), CloneURL: e.GetRepo().GetCloneURL(),
		PR: issue.GetNumber(), Command: cmd, CommentID: c.GetID(),
		Requester: c.GetUser().GetLogin(),
	}}, "", nil
}

// parseCommand finds a `/setbot COMMAND` line in a comment; an unknown
// command is answered with help.
func parseCommand(body string) (string, bool) {
	for _, line := range strings.Split(body, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "/setbot" {
			continue
		}
		if len(f) == 1 {
			return CommandHelp, true
		}
		switch f[1] {
		case CommandRerun, CommandFull:
			return f[1], true
		}
		return CommandHelp, true
	}
	return "", false
}
