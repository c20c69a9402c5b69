// Package demo builds the bundled demonstration: a small git repository
// whose history changes a statechart model in the three ways setbot tells
// apart (a harmless edit, a change that adds behaviour and tests, a change
// that makes a state unreachable).
package demo

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
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
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		return nil, fmt.Errorf("creating the demo repository in %s: %w", dir, err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, err
	}
	when := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	var out []Commit
	for i, h := range history {
		src, err := models.ReadFile("models/" + h.file)
		if err != nil {
			return nil, err
		}
		if err := write(dir, ModelPath, src); err != nil {
			return nil, err
		}
		if _, err := wt.Add(ModelPath); err != nil {
			return nil, err
		}
		if i == 0 {
			if err := write(dir, ".setbot.yml", []byte(config)); err != nil {
				return nil, err
			}
			if _, err := wt.Add(".setbot.yml"); err != nil {
				return nil, err
			}
		}
		sig := &object.Signature{Name: "Dana Modeler", Email: "dana@example.com", When: when.Add(time.Duration(i) * time.Hour)}
		sha, err := wt.Commit(h.subject+"\n\n"+h.body+"\n", &git.CommitOptions{Author: sig, Committer: sig})
		if err != nil {
			return nil, fmt.Errorf("committing %q: %w", h.subject, err)
		}
		out = append(out, Commit{SHA: sha.String(), Subject: h.subject})
	}
	return out, nil
}

func write(dir, name string, data []byte) error {
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}
