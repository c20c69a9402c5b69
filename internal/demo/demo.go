// Package demo builds the bundled demonstration: a small git repository
// whose history changes a statechart model in the three ways setbot tells
// apart (a harmless edit, a change that adds behaviour and tests, a change
// that makes a state unreachable).
package demo

import (
	"embed"
	"fmt"
	"time"

	"github.com/setbot/setbot/vcs"
)

//go:embed models/*.scxml
var models embed.FS

// ModelPath is the model's path in the demo repository.
const ModelPath = "models/triangle.scxml"

// config is the demo's .setbot.yml: the gate blocks a newly unreachable
// state.
const config = `# setbot configuration (docs/config.md)
models: ["models/**/*.scxml"]
bounds:
  depth: 8
gate:
  unreachable_state: block
  invariant_violation: block
  bound_hit: warn
`

// Commit is one commit of the demo history.
type Commit struct {
	SHA     string
	Subject string
}

var history = []struct {
	file, subject, body string
}{
	{"v1.scxml", "Add the triangle classifier", "The running example of Khalil & Dingel (2015)."},
	{"v2.scxml", "Reword the comments of T2 and T3", "A harmless edit: the machine is the same."},
	{"v3.scxml", "Let a checked triangle be checked again", "New behaviour: T11 goes back to S1_S0, so there are new paths and new tests."},
	{"v4.scxml", "Simplify the triangle inequality", "A mistake: the new condition can never hold, so S1_S2 becomes unreachable."},
}

// Build creates the demo repository in dir (which must not exist or be
// empty) and returns its commits, oldest first. Authors and dates are
// fixed, so the SHAs are the same on every machine.
func Build(dir string) ([]Commit, error) {
	when := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var commits []vcs.Commit
	for i, h := range history {
		src, err := models.ReadFile("models/" + h.file)
		if err != nil {
			return nil, err
		}
		c := vcs.Commit{Files: map[string][]byte{ModelPath: src}, Message: h.subject + "\n\n" + h.body + "\n",
			Name: "Dana Modeler", Email: "dana@example.com", When: when.Add(time.Duration(i) * time.Hour)}
		if i == 0 {
			c.Files[".setbot.yml"] = []byte(config)
		}
		commits = append(commits, c)
	}
	shas, err := vcs.Create(dir, commits)
	if err != nil {
		return nil, fmt.Errorf("the demo repository: %w", err)
	}
	out := make([]Commit, len(shas))
	for i, sha := range shas {
		out[i] = Commit{SHA: sha, Subject: history[i].subject}
	}
	return out, nil
}
