package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

// gaugeModel reads a sensor through the black box SCALE, whose table knows
// SCALE(0) and SCALE(1), both at most 10: only a row the table lacks takes
// the machine to High. The command computes 10 times its argument.
const gaugeModel = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="Idle" name="gauge">
  <setbot:event name="read"><setbot:param name="v" type="int[0..3]"/></setbot:event>
  <setbot:function name="SCALE" params="int" returns="int" table="scale.csv" command="bin/scale"/>
  <datamodel><data id="x" expr="0"/></datamodel>
  <state id="Idle">
    <transition event="read" target="Check"><assign location="x" expr="SCALE(_event.data.v)"/></transition>
  </state>
  <state id="Check">
    <transition cond="x &gt; 10" target="High"/>
    <transition cond="x &lt;= 10" target="Low"/>
  </state>
  <state id="High"/>
  <state id="Low"/>
</scxml>
`

const gaugeTable = "# v, SCALE(v)\n0,0\n1,5\n"

// gaugeRepo is a repository whose first commit holds baseCfg (none when
// "") and whose second adds the gauge model, its table and its command (a
// script that answers ten times its argument, or fails with failing), with
// headCfg; more are the files of later commits. It returns the commits'
// SHAs. Whether the command ran shows in the rows grown or in its error:
// a confined command writes nothing outside its checkout.
func gaugeRepo(t *testing.T, baseCfg, headCfg string, failing bool, more ...map[string]string) (repo *vcs.Repo, base, head string, later []string) {
	t.Helper()
	dir, commit := newGitRepo(t)
	first := map[string]string{"README": "gauge\n"}
	if baseCfg != "" {
		first[config.FileName] = baseCfg
	}
	base = commit(first)
	answer := "echo $(($1 * 10))"
	if failing {
		answer = "echo 'no sensor' >&2; exit 3"
	}
	script := "#!/bin/sh\n" + answer + "\n"
	// The committer keeps an existing file's mode: the script is
	// executable before it is committed.
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bin", "scale"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	second := map[string]string{"models/gauge.scxml": gaugeModel, "models/scale.csv": gaugeTable, "bin/scale": script}
	if headCfg != "" {
		second[config.FileName] = headCfg
	}
	head = commit(second)
	for _, files := range more {
		later = append(later, commit(files))
	}
	repo, err := vcs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(repo.Close)
	return repo, base, head, later
}

func unreachable(m *report.Model) []string {
	var out []string
	for _, s := range m.NewlyUnreachable {
		out = append(out, s.State)
	}
	return out
}

func hitTable(m *report.Model) bool {
	return slices.ContainsFunc(m.BoundsHit, func(b report.BoundHit) bool { return b.Bound == vocab.BoundTable })
}

const allow = "functions:\n  run_commands: true\n"

func TestGrowTablesWhenAllowed(t *testing.T) {
	repo, base, head, _ := gaugeRepo(t, allow, allow, false)
	a, err := Analyze(context.Background(), repo, base, head, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Models[0]
	if len(m.Errors) > 0 {
		t.Fatalf("errors: %+v", m.Errors)
	}
	if slices.Contains(unreachable(m), "High") {
		t.Errorf("High is not reached although the command computes the row that leads there; unreachable %v", unreachable(m))
	}
	g := m.TableGrowth
	if g == nil || len(g.Rows) == 0 {
		t.Fatalf("no rows grown: %+v", g)
	}
	for _, row := range g.Rows {
		if row.Function != "SCALE" || row.Table != "models/scale.csv" || len(row.In) != 1 ||
			(row.In[0] != "2" && row.In[0] != "3") || row.Out != row.In[0]+"0" || row.CSV != row.In[0]+","+row.Out {
			t.Errorf("grown row %+v, want SCALE(2) = 20 or SCALE(3) = 30 in models/scale.csv", row)
		}
	}
	if len(g.Errors) > 0 {
		t.Errorf("growth errors: %v", g.Errors)
	}
	// The tests that rely on the grown row say so.
	relies := false
	for _, test := range m.TestDelta.New {
		for _, r := range test.Rows {
			relies = relies || strings.Contains(r, "SCALE("+g.Rows[0].In[0]+")")
		}
	}
	if !relies {
		t.Errorf("no new test lists the grown row SCALE(%s) among its rows", g.Rows[0].In[0])
	}
	// The report offers the rows to commit.
	md := report.Markdown(a, report.Options{})
	if testing.Verbose() {
		t.Log(md)
	}
	if !strings.Contains(md, g.Rows[0].CSV) || !strings.Contains(md, "models/scale.csv") {
		t.Errorf("the comment does not list the grown row %q for models/scale.csv:\n%s", g.Rows[0].CSV, md)
	}
}

func TestNoCommandsUnlessAllowed(t *testing.T) {
	for _, tt := range []struct{ name, base, head string }{
		{"no configuration", "", ""},
		{"false at both", "functions: {run_commands: false}\n", "functions: {run_commands: false}\n"},
		// A pull request cannot allow itself to run code.
		{"only the head allows it", "", allow},
		{"the head forbids it", allow, "functions: {run_commands: false, grow_rounds: 3}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			repo, base, head, _ := gaugeRepo(t, tt.base, tt.head, false)
			a, err := Analyze(context.Background(), repo, base, head, Options{Solver: newZ3})
			if err != nil {
				t.Fatal(err)
			}
			m := a.Models[0]
			if m.TableGrowth != nil {
				t.Errorf("table growth reported: %+v", m.TableGrowth)
			}
			if !slices.Contains(unreachable(m), "High") || !hitTable(m) {
				t.Errorf("High should be reported not reached up to the table: unreachable %v, bounds %+v", unreachable(m), m.BoundsHit)
			}
		})
	}
}

func TestGrowTablesCommandFails(t *testing.T) {
	repo, base, head, _ := gaugeRepo(t, allow, allow, true)
	a, err := Analyze(context.Background(), repo, base, head, Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Models[0]
	g := m.TableGrowth
	if g == nil || len(g.Rows) != 0 || len(g.Errors) != 1 || !strings.Contains(g.Errors[0], "no sensor") || !strings.Contains(g.Errors[0], "bin/scale") {
		t.Fatalf("growth %+v, want no rows and the command's failure", g)
	}
	if !slices.Contains(unreachable(m), "High") || !hitTable(m) {
		t.Errorf("the analysis did not go on with the table it has: unreachable %v, bounds %+v", unreachable(m), m.BoundsHit)
	}
	if md := report.Markdown(a, report.Options{}); !strings.Contains(md, "no sensor") {
		t.Errorf("the comment does not report the command's failure:\n%s", md)
	}
}

// TestGrowthInResultKey: a result computed without running the commands
// is not served to a run that runs them, nor the other way round, and a
// result served again still lists the rows.
func TestGrowthInResultKey(t *testing.T) {
	repo, base, head, _ := gaugeRepo(t, "", "", false)
	store, err := cache.Open(filepath.Join(t.TempDir(), "c.db"), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	run := func(commands bool) *report.Model {
		t.Helper()
		a, err := Analyze(ctx, repo, base, head, Options{Solver: newZ3, Cache: store, RunCommands: commands})
		if err != nil {
			t.Fatal(err)
		}
		return a.Models[0]
	}
	if m := run(false); m.ResultCached || m.TableGrowth != nil {
		t.Fatalf("first run: cached %v, growth %+v", m.ResultCached, m.TableGrowth)
	}
	grown := run(true)
	if grown.ResultCached || grown.TableGrowth == nil || len(grown.TableGrowth.Rows) == 0 || slices.Contains(unreachable(grown), "High") {
		t.Errorf("run with commands: cached %v, growth %+v, unreachable %v", grown.ResultCached, grown.TableGrowth, unreachable(grown))
	}
	again := run(true)
	if !again.ResultCached || again.TableGrowth == nil || len(again.TableGrowth.Rows) != len(grown.TableGrowth.Rows) {
		t.Errorf("same run again: cached %v, growth %+v", again.ResultCached, again.TableGrowth)
	}
	if m := run(false); !m.ResultCached || m.TableGrowth != nil || !slices.Contains(unreachable(m), "High") {
		t.Errorf("run without commands after: cached %v, growth %+v, unreachable %v", m.ResultCached, m.TableGrowth, unreachable(m))
	}
}

// TestGrownRowsShared: a change that leaves the model's behaviour alone
// stays a change that does nothing when the commands grow the head's
// table, because the base's function gets the same rows: the growth is not
// taken for a change of the function.
func TestGrownRowsShared(t *testing.T) {
	commented := strings.Replace(gaugeModel, "<state id=\"High\"/>", "<!-- the alarm --><state id=\"High\"/>", 1)
	repo, _, before, later := gaugeRepo(t, allow, allow, false, map[string]string{"models/gauge.scxml": commented})
	a, err := Analyze(context.Background(), repo, before, later[0], Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Models[0]
	if m.TableGrowth == nil || len(m.TableGrowth.Rows) == 0 {
		t.Fatalf("no rows grown: %+v", m.TableGrowth)
	}
	if len(m.Changes) != 0 || len(m.Impact.Changed) != 0 || len(m.NewlyReachable) != 0 || len(m.NewlyUnreachable) != 0 {
		t.Errorf("a comment reads as a change: changes %+v, updated %v, newly reachable %+v, newly unreachable %+v",
			m.Changes, m.Impact.Changed, m.NewlyReachable, m.NewlyUnreachable)
	}
	if m.Strategy != vocab.StrategyReuse {
		t.Errorf("strategy %s (%s), want reuse: the two machines are the same", m.Strategy, m.StrategyReason)
	}
}

// TestCommandLimitsFromTheGate: a pull request cannot give its commands
// more time than its base does; the smaller limit applies.
func TestCommandLimitsFromTheGate(t *testing.T) {
	slow := "#!/bin/sh\nsleep 5\necho $(($1 * 10))\n"
	repo, base, _, later := gaugeRepo(t, "functions: {run_commands: true, timeout: 1s}\n",
		"functions: {run_commands: true, timeout: 10m, grow_rounds: 100}\n", false, map[string]string{"bin/scale": slow})
	a, err := Analyze(context.Background(), repo, base, later[0], Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	g := a.Models[0].TableGrowth
	if g == nil || len(g.Rows) != 0 || len(g.Errors) != 1 || !strings.Contains(g.Errors[0], "no answer within 1s") {
		t.Errorf("growth %+v, want the gate's time limit of 1s to stop the command", g)
	}
}

// TestGrownRowsNotSharedWhenTheScriptChanged: rows computed by a script
// the change edits are the change's: the base does not get them, so the
// comparison shows what the new rows make reachable.
func TestGrownRowsNotSharedWhenTheScriptChanged(t *testing.T) {
	commented := strings.Replace(gaugeModel, "<state id=\"High\"/>", "<!-- the alarm --><state id=\"High\"/>", 1)
	repo, _, before, later := gaugeRepo(t, allow, allow, false,
		map[string]string{"models/gauge.scxml": commented, "bin/scale": "#!/bin/sh\n# version 2\necho $(($1 * 10))\n"})
	a, err := Analyze(context.Background(), repo, before, later[0], Options{Solver: newZ3})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Models[0]
	if m.TableGrowth == nil || len(m.TableGrowth.Rows) == 0 {
		t.Fatalf("no rows grown: %+v", m.TableGrowth)
	}
	if !slices.ContainsFunc(m.NewlyReachable, func(s report.StateRef) bool { return s.State == "High" }) {
		t.Errorf("High is not newly reachable: the base got the rows of the changed script; newly reachable %+v, strategy %s", m.NewlyReachable, m.Strategy)
	}
}

// TestCommittedRowsNameTheirTable: once a user commits the rows an
// analysis computed, the tree is the same (the rows' values are), but its
// tests name the rows by their table's line, not by the command: the
// suite stored when the rows were computed is not served.
func TestCommittedRowsNameTheirTable(t *testing.T) {
	store, err := cache.Open(filepath.Join(t.TempDir(), "c.db"), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	rows := func(m *report.Model) []string {
		var out []string
		for _, test := range m.TestDelta.New {
			for _, r := range test.Rows {
				if strings.HasPrefix(r, "SCALE(2)") || strings.HasPrefix(r, "SCALE(3)") {
					out = append(out, r)
				}
			}
		}
		return out
	}
	repo, base, head, _ := gaugeRepo(t, allow, allow, false)
	a, err := Analyze(ctx, repo, base, head, Options{Solver: newZ3, Cache: store})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Models[0]
	if m.TableGrowth == nil || len(m.TableGrowth.Rows) == 0 {
		t.Fatalf("no rows grown: %+v", m.TableGrowth)
	}
	if got := rows(m); len(got) == 0 || !strings.Contains(got[0], "computed by bin/scale") {
		t.Fatalf("the grown rows' tests say %q, want them computed by bin/scale", got)
	}
	table := gaugeTable
	for _, row := range m.TableGrowth.Rows {
		table += row.CSV + "\n"
	}
	// The same model, with the rows committed, in another repository that
	// shares the cache.
	repo, base, _, later := gaugeRepo(t, allow, allow, false, map[string]string{"models/scale.csv": table})
	a, err = Analyze(ctx, repo, base, later[0], Options{Solver: newZ3, Cache: store})
	if err != nil {
		t.Fatal(err)
	}
	m = a.Models[0]
	if m.TableGrowth == nil || len(m.TableGrowth.Rows) != 0 {
		t.Fatalf("rows grown although the table holds them: %+v", m.TableGrowth)
	}
	if !m.HeadCached {
		t.Errorf("the head's tree was not served from the cache: the rows' values are the same")
	}
	got := rows(m)
	if len(got) == 0 {
		t.Fatal("no test relies on the committed rows")
	}
	for _, r := range got {
		if strings.Contains(r, "computed by") || !strings.Contains(r, "scale.csv:") {
			t.Errorf("a test names a committed row %q, want its table's line", r)
		}
	}
}

// TestCommandsRefused: a caller's refusal (the bot's, for a fork) keeps
// the commands from running although both configurations allow them; the
// report says why, and the analysis is the one without commands.
func TestCommandsRefused(t *testing.T) {
	repo, base, head, _ := gaugeRepo(t, allow, allow, false)
	asked := 0
	refuse := func(context.Context) string { asked++; return "the pull request comes from a fork" }
	a, err := Analyze(context.Background(), repo, base, head, Options{Solver: newZ3, RefuseCommands: refuse})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Models[0]
	if g := m.TableGrowth; g == nil || g.Refused != "the pull request comes from a fork" || len(g.Rows) != 0 || asked != 1 {
		t.Errorf("growth %+v, asked %d times; want the refusal, asked once", g, asked)
	}
	if !slices.Contains(unreachable(m), "High") || !hitTable(m) {
		t.Errorf("High should be reported not reached up to the table: unreachable %v, bounds %+v", unreachable(m), m.BoundsHit)
	}
}
