package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/setbot/setbot/internal/hostile"
)

// TestCheckWideParallel: check answers a parallel state of 2,000 regions
// (2^2000 configurations) with the positioned error of the MLM state
// bound, the default's or --max-mlm-states', rather than flattening for
// minutes.
func TestCheckWideParallel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wide.scxml")
	if err := os.WriteFile(path, hostile.Parallel(2000), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"check", path}, path + ":2:1: flattening exceeds 10000 MLM states (parallel regions multiply); raise the bound (bounds.max_mlm_states in .setbot.yml, --max-mlm-states on the command line) or split the model\n"},
		{[]string{"check", "--max-mlm-states", "3000", path}, path + ":2:1: flattening exceeds 3000 MLM states (parallel regions multiply); raise the bound (bounds.max_mlm_states in .setbot.yml, --max-mlm-states on the command line) or split the model\n"},
	} {
		code, out, errs := runCLI(t, tc.args...)
		if code != 1 || out != tc.want || errs != "" {
			t.Errorf("%q: exit %d\n%s%s\nwant exit 1 and\n%s", tc.args, code, out, errs, tc.want)
		}
	}
}
