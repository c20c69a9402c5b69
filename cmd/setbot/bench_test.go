package main

import (
	"strings"
	"testing"
)

func TestBenchTable(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "--runs", "1", "../../examples/triangle.scxml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "states/s") {
		t.Fatalf("table:\n%s", out)
	}
	fields := strings.Fields(lines[1])
	// model, MLM states, MLM transitions, depth, states, paths, subsumed, ...
	if fields[0] != "checkTriangleType" || fields[1] != "5" || fields[2] != "10" || fields[4] != "29" || fields[5] != "14" {
		t.Errorf("row %q", lines[1])
	}
}

func TestEvaluateTable(t *testing.T) {
	code, out, errs := runCLI(t, "evaluate", "--runs", "1", "../../examples/triangle.scxml",
		"../../engine/incremental/testdata/triangle_t2_action.scxml", "../../examples/triangle.scxml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"| triangle_t2_action | 1 | 0 | 33 | 52 |",
		"| mse |",
		"| triangle | 0 | 0 | 100 | 100 |",
		"| reuse |",
		"Versions where MSE's tree differs from SE's: 0 of 2.",
		"Average savings",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}
