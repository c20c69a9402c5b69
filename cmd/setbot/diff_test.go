package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDiffJSON(t *testing.T) {
	code, out, errs := runCLI(t, "diff", "../../examples/triangle.scxml",
		"../../engine/incremental/testdata/triangle_t2_action.scxml", "--format", "json")
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
