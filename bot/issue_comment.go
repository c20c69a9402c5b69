package bot

import (
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

// issueComment obeys `/setbot rerun`, `/setbot full` and `/setbot help` on
// pull requests. Whether the author may command setbot (write access) is
// asked of GitHub by the worker, not here: the webhook is answered at once.
var issueComment = handler[github.IssueCommentEvent]{
	event:   "issue_comment",
	actions: []string{"created"},
	jobs:    issueCommentJobs,
}

func issueCommentJobs(e *github.IssueCommentEvent) ([]queue.Job, string, error) {
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
	job := jobOn(queue.KindCommand, e.GetInstallation(), e.GetRepo(), c.GetUser().GetLogin())
	job.PR, job.Command, job.CommentID = issue.GetNumber(), cmd, c.GetID()
	return []queue.Job{job}, "", nil
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
