package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// manyTransitions is a statechart whose flattened machine has states ×
// events transitions: a compound state of that many children, each
// reachable, with one transition per event that every child inherits.
func manyTransitions(states, events int) []byte {
	var b strings.Builder
	b.WriteString(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="p"><state id="p" initial="c0">` + "\n")
	for e := range events {
		fmt.Fprintf(&b, "<transition event=\"e%d\" target=\"c%d\"/>\n", e, e%states)
	}
	for s := range states {
		fmt.Fprintf(&b, "<state id=\"c%d\"/>\n", s)
	}
	b.WriteString("</state></scxml>\n")
	return []byte(b.String())
}

// TestCheckMLMTransitionBound: a model whose flattened machine has more
// than the default 200,000 transitions is refused with a message that
// names the flag and the key which raise the bound, and loads once
// --max-mlm-transitions raises it (issue 30).
func TestCheckMLMTransitionBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "many.scxml")
	if err := os.WriteFile(path, manyTransitions(450, 450), 0o644); err != nil { // 202,500 transitions
		t.Fatal(err)
	}
	want := path + ":1:1: flattening exceeds 200000 MLM transitions (at 450 states; parallel regions multiply); " +
		"raise the bound (bounds.max_mlm_transitions in .setbot.yml, --max-mlm-transitions on the command line) or split the model\n"
	if code, out, errs := runCLI(t, "check", path); code != 1 || out != want || errs != "" {
		t.Errorf("check: exit %d\n%s%s\nwant exit 1 and\n%s", code, out, errs, want)
	}
	if code, out, errs := runCLI(t, "check", "--max-mlm-transitions", "250000", path); code != 0 || out != "" || errs != "" {
		t.Errorf("check --max-mlm-transitions 250000: exit %d\n%s%s\nwant exit 0 and no output", code, out, errs)
	}
	if code, _, errs := runCLI(t, "check", "--max-mlm-transitions", "0", path); code != 2 || !strings.Contains(errs, "--max-mlm-transitions 0 is out of range: it must be at least 1") {
		t.Errorf("check --max-mlm-transitions 0: exit %d, %s; want exit 2 and the range", code, errs)
	}
}
