package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/setbot/setbot/internal/jsondiff"
)

// The shapes of change on which a strategy or the cache once gave another
// report than a full analysis (testdata/full/NAME_base.scxml and
// NAME_head.scxml), each with why it is here.
var asFullShapes = []struct{ name, why string }{
	{"start_raise", "the start raises an event whose transition the change touched: MSE copied the stale steps below the root"},
	{"start_timer", "the start sets a timer and runs a transition the change touched: the same through a timer"},
	{"invoke_reorder", "two sibling states that each hold an invoke change places: composed states named sessions in document order"},
	{"invoke_param", "an invoke's param changes: the change was printed as none"},
	{"invoke_finalize", "an invoke's finalize changes: the change was printed as none"},
	{"invoke_autoforward", "an invoke starts forwarding events: the change was printed as none"},
	{"reuse_shadowed", "a transition that document order shadows is added (the machine stays equal): reuse read the base's conflicts and lines"},
	{"dse_confirmed_by_reuse", "DSE's candidates confirmed on a tree auto reuses: the base's conflicts again"},
}

// TestEditsAreNamed: an edit of an invoke or of a black-box function's
// table updates transitions, and setbot diff and analyze name it: neither
// says there is no change.
func TestEditsAreNamed(t *testing.T) {
	for _, edit := range []struct{ shape, kind, subject string }{
		{"invoke_param", "invoke_changed", "kid: param"},
		{"invoke_finalize", "invoke_changed", "kid: finalize"},
		{"invoke_autoforward", "invoke_changed", "kid: autoforward"},
	} {
		base := readFile(t, filepath.Join("testdata", "full", edit.shape+"_base.scxml"))
		head := readFile(t, filepath.Join("testdata", "full", edit.shape+"_head.scxml"))
		checkNamed(t, map[string][]byte{"m.scxml": base}, map[string][]byte{"m.scxml": head}, edit.kind, edit.subject)
	}
	table := []byte(`<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" initial="A">
<setbot:event name="go"><setbot:param name="v" type="int"/></setbot:event>
<setbot:function name="rise" params="int" returns="int" table="rise.csv"/>
<state id="A"><transition event="go" cond="rise(_event.data.v) &gt; 1" target="B"/></state>
<state id="B"/>
</scxml>`)
	checkNamed(t, map[string][]byte{"m.scxml": table, "rise.csv": []byte("1,1\n")}, map[string][]byte{"rise.csv": []byte("1,1\n2,5\n")},
		"table_changed", "rise: rows")
}

// checkNamed commits base, then head over it, and checks that diff (of the
// two checkouts of m.scxml) and analyze report the change kind with subject
// and do not call it none.
func checkNamed(t *testing.T, base, head map[string][]byte, kind, subject string) {
	t.Helper()
	write := func(files map[string][]byte) string {
		dir := t.TempDir()
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	merged := map[string][]byte{}
	for name, data := range base {
		merged[name] = data
	}
	for name, data := range head {
		merged[name] = data
	}
	bdir, hdir := write(base), write(merged)
	code, out, errs := runCLI(t, "diff", filepath.Join(bdir, "m.scxml"), filepath.Join(hdir, "m.scxml"))
	if code > 1 || strings.Contains(out, "changes: none") || !strings.Contains(out, "change: "+kind+" "+subject) {
		t.Errorf("diff: exit %d (%s), want the change %s %s:\n%s", code, errs, kind, subject, out)
	}
	r := newTestRepo(t)
	r.commit("base", base)
	r.commit("head", head)
	code, a, errs := analyzeRun(t, "--repo", r.dir, "--base", "HEAD^", "--no-cache")
	if code > 1 || len(a.Models) != 1 {
		t.Fatalf("analyze: exit %d: %s", code, errs)
	}
	found := false
	for _, c := range a.Models[0].Changes {
		found = found || c.Kind == kind && c.Subject == subject
	}
	if !found {
		t.Errorf("analyze: changes %+v, want %s %s", a.Models[0].Changes, kind, subject)
	}
	_, md, _ := runCLI(t, "analyze", "--repo", r.dir, "--base", "HEAD^", "--no-cache")
	if strings.Contains(md, "No change in behaviour") || !strings.Contains(md, subject) {
		t.Errorf("the comment does not name the change %s:\n%s", subject, md)
	}
}

// TestInvokeReorderReuses: reordering sibling states that hold invokes
// leaves the flattened machine as it was, so auto reuses the base's tree
// and reports no change.
func TestInvokeReorderReuses(t *testing.T) {
	code, out, errs := runCLI(t, "diff", "--format", "json", "testdata/full/invoke_reorder_base.scxml", "testdata/full/invoke_reorder_head.scxml")
	if code != exitOK {
		t.Fatalf("diff: exit %d: %s", code, errs)
	}
	var r struct {
		Strategy string
		Changes  []any
		Impact   struct{ Changed []string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Strategy != "reuse" || len(r.Changes) != 0 || len(r.Impact.Changed) != 0 {
		t.Errorf("strategy %s, %d changes, %d updated transitions; want reuse, none, none", r.Strategy, len(r.Changes), len(r.Impact.Changed))
	}
}

// TestStrategiesReportWhatFullReports: on each shape, setbot diff with
// every strategy, and setbot analyze with auto, cold and from a warm
// cache, give exactly what --strategy full gives, gate conclusion
// included (the strategies' own statistics aside).
func TestStrategiesReportWhatFullReports(t *testing.T) {
	for _, shape := range asFullShapes {
		t.Run(shape.name, func(t *testing.T) {
			base := filepath.Join("testdata", "full", shape.name+"_base.scxml")
			head := filepath.Join("testdata", "full", shape.name+"_head.scxml")
			full := diffReport(t, base, head, "full")
			for _, s := range []string{"auto", "mse", "dse"} {
				got := diffReport(t, base, head, s)
				want := full
				if s == "dse" {
					// DSE's tree is partial, and it says what is: the
					// head tree's size, and the tests or conflicts it
					// marks partial, are not full's (the rule
					// pipeline's TestStrategiesAsFull checks them by);
					// everything else must be.
					got, want = dsePromise(got, diffReport(t, base, head, "full"))
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: diff --strategy %s reports otherwise than full:\n%s", shape.why, s, jsondiff.First(want, got))
				}
			}
			r := newTestRepo(t)
			r.commit("base", map[string][]byte{"m.scxml": readFile(t, base)})
			r.commit("head", map[string][]byte{"m.scxml": readFile(t, head)})
			want := analyzeReport(t, r.dir, "full", "")
			cache := filepath.Join(t.TempDir(), "cache.db")
			for _, run := range []string{"cold", "warm"} {
				if got := analyzeReport(t, r.dir, "auto", cache); !reflect.DeepEqual(got, want) {
					t.Errorf("%s: analyze (auto, %s cache) reports otherwise than full:\n%s", shape.why, run, jsondiff.First(want, got))
				}
			}
		})
	}
}

// dsePromise drops from DSE's diff report and full's what DSE does not
// promise to give as full does: the head tree's size, and what DSE marks
// partial (pipeline's TestStrategiesAsFull checks those parts by the
// weaker rule DSE promises: its conflicts among full's, and so on).
func dsePromise(dse, full any) (any, any) {
	d, f := dse.(map[string]any), full.(map[string]any)
	drop := []string{"head", "tests_partial", "nondeterminism_partial"}
	if d["tests_partial"] == true {
		drop = append(drop, "tests", "test_delta")
	}
	if d["nondeterminism_partial"] == true {
		drop = append(drop, "nondeterminism")
	}
	for _, k := range drop {
		delete(d, k)
		delete(f, k)
	}
	return d, f
}

// strategyFields are what a report says of how it was computed, which
// differs between strategies and runs by design.
var strategyFields = map[string]bool{"strategy": true, "strategy_reason": true, "reused_states": true, "new_states": true,
	"solver_calls": true, "ms": true, "confirmed_by": true, "base_cached": true, "head_cached": true, "result_cached": true,
	"computed": true, "elapsed_ms": true}

func diffReport(t *testing.T, base, head, strategy string) any {
	t.Helper()
	code, out, errs := runCLI(t, "diff", "--format", "json", "--strategy", strategy, base, head)
	if code > 1 {
		t.Fatalf("diff --strategy %s: exit %d: %s", strategy, code, errs)
	}
	return withoutStrategy(t, out)
}

func analyzeReport(t *testing.T, repo, strategy, cache string) any {
	t.Helper()
	args := []string{"analyze", "--format", "json", "--repo", repo, "--base", "HEAD^", "--head", "HEAD", "--strategy", strategy}
	if cache == "" {
		cache = filepath.Join(t.TempDir(), "cache.db")
	}
	code, out, errs := runCLI(t, append(args, "--cache", cache)...)
	if code > 1 {
		t.Fatalf("analyze --strategy %s: exit %d: %s", strategy, code, errs)
	}
	var doc struct {
		Models []json.RawMessage `json:"models"`
		Gate   json.RawMessage   `json:"gate"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("analyze: %v\n%s", err, out)
	}
	var models []any
	for _, m := range doc.Models {
		models = append(models, withoutStrategy(t, string(m)))
	}
	return map[string]any{"exit": code, "models": models, "gate": withoutStrategy(t, string(doc.Gate))}
}

// withoutStrategy decodes a JSON document and drops strategyFields at
// every level.
func withoutStrategy(t *testing.T, doc string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	return jsondiff.Without(v, strategyFields)
}
