package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDiffJSON(t *testing.T) {
	// Path coverage: one test per path, so the counts below are the paths'.
	code, out, errs := runCLI(t, "diff", "../../examples/triangle.scxml",
		"../../engine/incremental/testdata/triangle_t2_action.scxml", "--format", "json", "--coverage", "path")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"strategy", "strategy_reason", "changes", "impact", "base", "head", "reused_states",
		"new_states", "tests", "newly_unreachable", "newly_reachable", "bounds_hit"} {
		if _, ok := r[field]; !ok {
			t.Errorf("field %s missing", field)
		}
	}
	var res struct {
		Strategy string
		Changes  []struct {
			Kind string
			New  struct{ Line, Column int }
		}
		Impact struct {
			Changed, Impacted []string
			M1, M2            float64
		}
		Head  struct{ States, Paths int }
		Tests struct{ Retained, Changed, Obsolete, New int }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Strategy != "mse" || len(res.Changes) != 1 || res.Changes[0].Kind != "action_changed" ||
		res.Changes[0].New.Line != 43 || len(res.Impact.Changed) != 1 || len(res.Impact.Impacted) != 0 ||
		res.Head.Paths != 14 || res.Tests.Retained != 4 || res.Tests.Changed != 10 {
		t.Errorf("%+v", res)
	}
	code, text, _ := runCLI(t, "diff", "../../examples/triangle.scxml",
		"../../engine/incremental/testdata/triangle_t2_action.scxml", "--strategy", "dse")
	if code != 0 || !strings.Contains(text, "strategy: dse (requested)") {
		t.Errorf("dse: exit %d\n%s", code, text)
	}
	if code, _, errs := runCLI(t, "diff", "a", "b", "--strategy", "fast"); code != 2 || !strings.Contains(errs, "unknown --strategy") {
		t.Errorf("bad strategy: exit %d %s", code, errs)
	}
}

// TestDiffRename: renaming the four children of the triangle's S1 is four
// state_renamed changes, no flattened transition updated, and every test
// retained; MSE copies the base tree.
func TestDiffRename(t *testing.T) {
	src, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	head := strings.NewReplacer(`"S1_S0"`, `"Positive"`, `"S1_S1"`, `"Triangle"`, `"S1_S2"`, `"Kind"`, `"S1_S3"`, `"Done"`).Replace(string(src))
	dir := t.TempDir()
	headPath := filepath.Join(dir, "triangle.scxml")
	if err := os.WriteFile(headPath, []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	// Path coverage: every path's test retained.
	code, out, errs := runCLI(t, "diff", "../../examples/triangle.scxml", headPath, "--format", "json", "--coverage", "path")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var res struct {
		Strategy string
		Changes  []struct{ Kind, Subject string }
		Impact   struct{ Changed []string }
		Base     struct{ Paths int }
		Head     struct{ States int }
		Reused   int `json:"reused_states"`
		Tests    struct{ Retained, Changed, Obsolete, New int }
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	var changes []string
	for _, c := range res.Changes {
		changes = append(changes, c.Kind+" "+c.Subject)
	}
	want := "state_renamed S1_S0>Positive, state_renamed S1_S1>Triangle, state_renamed S1_S2>Kind, state_renamed S1_S3>Done"
	if got := strings.Join(changes, ", "); got != want {
		t.Errorf("changes %s, want %s", got, want)
	}
	if len(res.Impact.Changed) != 0 || res.Strategy != "mse" || res.Reused != res.Head.States-1 {
		t.Errorf("%d transitions updated, strategy %s, %d of %d states reused", len(res.Impact.Changed), res.Strategy, res.Reused, res.Head.States)
	}
	if res.Tests.Retained != res.Base.Paths || res.Tests.Changed+res.Tests.Obsolete+res.Tests.New != 0 {
		t.Errorf("tests %+v, want the %d of the base retained", res.Tests, res.Base.Paths)
	}
	code, text, _ := runCLI(t, "diff", "../../examples/triangle.scxml", headPath, "--coverage", "path")
	if code != 0 || !strings.Contains(text, "change: state_renamed S1_S0>Positive") ||
		!strings.Contains(text, fmt.Sprintf("tests: %d retained, 0 changed oracle, 0 obsolete, 0 new", res.Base.Paths)) {
		t.Errorf("exit %d\n%s", code, text)
	}
}

// TestDiffCoverage: diff's tests are those of transition coverage unless
// --coverage asks for another criterion, as analyze's; a criterion that
// does not exist is a usage error naming the ones that do.
func TestDiffCoverage(t *testing.T) {
	base, head := "../../examples/triangle.scxml", "../../engine/incremental/testdata/triangle_t2_action.scxml"
	counts := func(args ...string) (tests, paths int) {
		t.Helper()
		code, out, errs := runCLI(t, append([]string{"diff", "--format", "json", base, head}, args...)...)
		if code != 0 {
			t.Fatalf("diff %v: exit %d: %s", args, code, errs)
		}
		var r struct {
			Head      struct{ Paths int }
			TestDelta struct{ Retained, Changed, New []struct{ ID string } } `json:"test_delta"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		d := r.TestDelta
		return len(d.Retained) + len(d.Changed) + len(d.New), r.Head.Paths
	}
	byDefault, paths := counts()
	transition, _ := counts("--coverage", "transition")
	path, _ := counts("--coverage", "path")
	if byDefault != transition || path != paths || transition >= path {
		t.Errorf("head tests: %d by default, %d with transition coverage, %d with path coverage (%d paths)", byDefault, transition, path, paths)
	}
	code, _, errs := runCLI(t, "diff", base, head, "--coverage", "paths")
	if code != exitUsage || !strings.Contains(errs, `unknown coverage "paths" (want path, transition, state)`) {
		t.Errorf("--coverage paths: exit %d, %q", code, errs)
	}
}

// TestDiffCache: with --cache, a second diff of the same versions takes
// both trees from the cache and reports the same tests; a file that is
// not a cache is refused and left alone.
func TestDiffCache(t *testing.T) {
	base, head := "../../examples/triangle.scxml", "../../engine/incremental/testdata/triangle_t2_action.scxml"
	db := filepath.Join(t.TempDir(), "cache.db")
	_, first, _ := runCLI(t, "diff", base, head, "--cache", db)
	code, second, errs := runCLI(t, "diff", base, head, "--cache", db)
	tests := func(out string) string {
		i := strings.Index(out, "\ntests: ")
		if i < 0 {
			return ""
		}
		return strings.SplitN(out[i+1:], "\n", 2)[0]
	}
	if code != 0 || !strings.HasPrefix(first, "strategy: mse") || !strings.HasPrefix(second, "strategy: cached") ||
		tests(first) == "" || tests(first) != tests(second) {
		t.Errorf("exit %d (%s); first:\n%s\nsecond:\n%s", code, errs, first, second)
	}
	if code, _, errs := runCLI(t, "diff", base, head, "--cache", base); code != exitUsage || !strings.Contains(errs, "setbot") {
		t.Errorf("--cache MODEL: exit %d, %q", code, errs)
	}
}
