package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/pipeline"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

// regressionsConfig is the base's .setbot.yml of TestGateBlocksOnlyRegressions:
// the W3C-style tests' fail states are meant to be unreachable.
const regressionsConfig = `models: ["**/*.scxml"]
models_config:
  - match: "w3c/**"
    expect_unreachable: [fail]
`

// TestGateBlocksOnlyRegressions builds a history with one commit of each
// kind that made a gate block where a reviewer would overrule it (an old
// error in a touched file, added files setbot cannot read, an added
// W3C-style test whose fail state is meant to be unreachable, a modified
// file whose base did not load, a rename) and one real regression; with
// the default rules, analyze blocks the regression alone, and the PR
// comment says of each other finding why it did not block. It runs the
// pipeline on each commit and on the whole range, and the command on the
// whole range.
func TestGateBlocksOnlyRegressions(t *testing.T) {
	fixture := func(name string) []byte { return readFile(t, filepath.Join("testdata", "regressions", name)) }
	r := newTestRepo(t)
	base := r.commit("the models", map[string][]byte{
		".setbot.yml":            []byte(regressionsConfig),
		"models/old_error.scxml": fixture("old_error.scxml"),
		"models/legacy.scxml":    fixture("base_broken.scxml"),
		"models/switch.scxml":    fixture("moved.scxml"),
		"models/guarded.scxml":   fixture("guarded.scxml"),
	})
	type row struct {
		name       string
		files      map[string][]byte
		conclusion string
		// rule, reason and words of the message of each finding, counted
		// or not
		findings []string
	}
	rows := []row{
		{"an old error in a touched file", map[string][]byte{"models/old_error.scxml": fixture("old_error_reindented.scxml")}, report.Success,
			[]string{`new_model_error at_base line 5, column 36: unknown target state "nowhere"`}},
		{"added files setbot cannot read", map[string][]byte{"tests/parser/invalid.scxml": fixture("invalid_fixture.scxml"),
			"models/xpath.scxml": fixture("xpath.scxml")}, report.Neutral,
			[]string{`model_refused refused datamodel "xpath" is not supported`, "new_model_error new_model malformed XML"}},
		{"an added W3C-style test and a model with a state meant to be unreachable", map[string][]byte{"w3c/test144.scxml": fixture("w3c_test.scxml"),
			"models/door.scxml": fixture("door.scxml")}, report.Success,
			[]string{`new_model_unreachable expected state jammed is unreachable, as expected (setbot:expect="unreachable" at line 8)`,
				`new_model_unreachable expected state fail is unreachable, as expected (expect_unreachable "fail" in the gate's .setbot.yml)`}},
		{"a modified file whose base did not load", map[string][]byte{"models/legacy.scxml": fixture("base_fixed.scxml")}, report.Neutral,
			[]string{"new_model_unreachable no_base state orphan is unreachable (no execution enters it); the base version could not be read: line 5, column 4: malformed XML"}},
		{"a rename", map[string][]byte{"models/switch.scxml": nil, "models/toggle.scxml": fixture("moved.scxml")}, report.Success, nil},
		{"a real regression", map[string][]byte{"models/guarded.scxml": fixture("guarded_regressed.scxml")}, report.Failure,
			[]string{"unreachable_state  state pass was reachable at base; at head it is unreachable"}},
	}
	shas := []string{base}
	for _, row := range rows {
		shas = append(shas, r.commit(row.name, row.files))
	}
	repo, err := vcs.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	analyze := func(base, head string) *report.Analysis {
		t.Helper()
		a, err := pipeline.Analyze(context.Background(), repo, base, head, pipeline.Options{Solver: newZ3})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	for i, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			a := analyze(shas[i], shas[i+1])
			if a.Gate.Conclusion != row.conclusion {
				t.Errorf("conclusion %s, want %s", a.Gate.Conclusion, row.conclusion)
			}
			var got []string
			for _, f := range append(append([]report.Finding(nil), a.Gate.Findings...), a.Gate.NotGated...) {
				got = append(got, fmt.Sprintf("%s %s %s", f.Rule, f.Reason, f.Message))
			}
			if len(got) != len(row.findings) {
				t.Fatalf("findings\n%s\nwant %d", strings.Join(got, "\n"), len(row.findings))
			}
			for j, w := range row.findings {
				rule, rest, _ := strings.Cut(w, " ")
				reason, words, _ := strings.Cut(rest, " ")
				if !strings.HasPrefix(got[j], rule+" "+reason+" ") || !strings.Contains(got[j], words) {
					t.Errorf("finding %d: %s\nwant %s", j, got[j], w)
				}
			}
		})
	}

	// The whole range, as one pull request: one blocking finding, the
	// regression; the comment says why each other one did not block.
	a := analyze(base, shas[len(shas)-1])
	var blocks []string
	for _, f := range a.Gate.Findings {
		if f.Level == vocab.ActionBlock {
			blocks = append(blocks, f.Path+" "+f.Subject)
		}
	}
	if a.Gate.Conclusion != report.Failure || len(blocks) != 1 || blocks[0] != "models/guarded.scxml pass" {
		t.Errorf("the whole range: conclusion %s, blocking %v; want only the regression", a.Gate.Conclusion, blocks)
	}
	comment := report.Markdown(a, report.Options{})
	for _, want := range []string{
		"unknown target state \"nowhere\" (not gated: already at the base)",
		"datamodel \"xpath\" is not supported: write datamodel=\"ecmascript\" or omit it (setbot reads ecmascript-style expressions) (not blocking: refused:",
		"malformed XML: element \\<state\\> closed by \\</scxml\\> (not blocking: new model: its first version does not block)",
		"state fail is unreachable, as expected (expect\\_unreachable \"fail\" in the gate's .setbot.yml) (not gated: expected: the state is declared unreachable)",
		"state jammed is unreachable, as expected (setbot:expect=\"unreachable\" at line 8) (not gated: expected: the state is declared unreachable)",
		"the base version could not be read: line 5, column 4: malformed XML",
		"(not blocking: the base version could not be read, so there is nothing to compare with)",
		"`models/toggle.scxml` (renamed from `models/switch.scxml`)",
		"| ❌ | **newly unreachable state**: state pass was reachable at base; at head it is unreachable (no execution enters it) | `models/guarded.scxml:9` |",
	} {
		if !strings.Contains(comment, want) {
			t.Errorf("the comment does not say %q:\n%s", want, comment)
		}
	}

	// The command: exit 1 for the one blocking finding, and the same
	// verdict in its JSON.
	code, j, errs := analyzeRun(t, "--repo", r.dir, "--cache", filepath.Join(t.TempDir(), "c.db"), "--base", base, "--head", shas[len(shas)-1])
	if code != 1 || j.Gate.Conclusion != report.Failure {
		t.Fatalf("analyze: exit %d, conclusion %s\n%s", code, j.Gate.Conclusion, errs)
	}
	blocks = nil
	for _, f := range j.Gate.Findings {
		if f.Level == string(vocab.ActionBlock) {
			blocks = append(blocks, f.Path)
		}
	}
	if len(blocks) != 1 || blocks[0] != "models/guarded.scxml" || len(j.Gate.NotGated) != len(a.Gate.NotGated) {
		t.Errorf("analyze: blocking %v, %d not gated; want the regression alone, and %d not gated", blocks, len(j.Gate.NotGated), len(a.Gate.NotGated))
	}
	code, md, errs := runCLI(t, "analyze", "--repo", r.dir, "--cache", filepath.Join(t.TempDir(), "c.db"), "--base", base, "--head", shas[len(shas)-1], "--format", "markdown")
	if code != 1 || !strings.Contains(md, "(not gated: already at the base)") || !strings.Contains(md, "(not blocking: refused:") {
		t.Errorf("analyze --format markdown: exit %d\n%s\n%s", code, md, errs)
	}
}

// TestGateThroughRenamesAndExpectations: an error the base had stays old
// when the change moves the file, and a state the model declares
// unreachable blocks when the change makes it reachable.
func TestGateThroughRenamesAndExpectations(t *testing.T) {
	fixture := func(name string) []byte { return readFile(t, filepath.Join("testdata", "regressions", name)) }
	expect := func(b []byte) []byte {
		s := strings.Replace(string(b), `<scxml `, `<scxml xmlns:setbot="https://setbot.dev/scxml" `, 1)
		return []byte(strings.Replace(s, `<final id="fail"/>`, `<final id="fail" setbot:expect="unreachable"/>`, 1))
	}
	r := newTestRepo(t)
	c0 := r.commit("the models", map[string][]byte{"a/old_error.scxml": fixture("old_error.scxml"), "guarded.scxml": expect(fixture("guarded.scxml"))})
	c1 := r.commit("rename and regress", map[string][]byte{"a/old_error.scxml": nil, "b/moved_error.scxml": fixture("old_error.scxml"),
		"guarded.scxml": expect(fixture("guarded_regressed.scxml"))})
	repo, err := vcs.Open(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := pipeline.Analyze(context.Background(), repo, c0, c1, pipeline.Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range append(append([]report.Finding(nil), a.Gate.Findings...), a.Gate.NotGated...) {
		got = append(got, fmt.Sprintf("%s %s %s %s %s", f.Path, f.Rule, f.Level, f.Reason, f.Subject))
	}
	want := []string{
		"guarded.scxml unreachable_state block  pass",
		"guarded.scxml expected_unreachable_reached block  fail",
		`b/moved_error.scxml new_model_error off at_base unknown target state "nowhere"`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
