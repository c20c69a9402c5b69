package main

import (
	"strings"
	"testing"
)

// TestECMAHostValues: a call of a host function whose value the model uses
// is a black box of unknown result, of the type its use gives: explore
// reads it as an unconstrained value and reaches every state it may lead
// to, and simulate, on the machine and on the reference interpreter, takes
// its result from --host.
func TestECMAHostValues(t *testing.T) {
	const model = "testdata/ecma/hostvalue.scxml"
	if code, out, errs := runCLI(t, "check", model); code != 0 {
		t.Fatalf("check: exit %d\n%s%s", code, out, errs)
	}
	_, out, _ := runCLI(t, "explore", model, "--depth", "1")
	for _, want := range []string{
		"blackjack.GetTotalOf() -> int: no table: every call is an unconstrained value",
		"isReady() -> bool: no table",
		"JSON.stringify() -> string: no table",
		"Date.now() -> int: no table",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explore: no %q in\n%s", want, out)
		}
	}
	cases := []struct {
		hosts []string
		want  string
	}{
		{[]string{"blackjack.GetTotalOf=22", "isReady=false", "JSON.stringify={}", "Date.now=0"}, "bust"},
		{[]string{"blackjack.GetTotalOf=3", "isReady=true", "JSON.stringify={}", "Date.now=0"}, "ready"},
		{[]string{"blackjack.GetTotalOf=3", "isReady=true", "JSON.stringify=[]", "Date.now=2000"}, "late"},
	}
	for _, tc := range cases {
		for _, ref := range []bool{false, true} {
			args := []string{model, "deal"}
			for _, h := range tc.hosts {
				args = append(args, "--host", h)
			}
			if ref {
				args = append([]string{"--reference"}, args...)
			}
			code, out, errs := runSimulate(t, args...)
			if code != exitOK {
				t.Fatalf("simulate %v: exit %d\n%s%s", args, code, out, errs)
			}
			if !strings.Contains(out, tc.want+" (halted)") {
				t.Errorf("simulate %v: not halted in %s:\n%s", args, tc.want, out)
			}
		}
	}
	// Without --host a concrete run cannot answer the call: an error at it.
	if code, _, errs := runSimulate(t, model, "deal"); code == exitOK || !strings.Contains(errs, "hostvalue.scxml:10:") {
		t.Errorf("simulate without --host: exit %d, %s", code, errs)
	}
	if code, _, errs := runSimulate(t, model, "--host", "nope=1"); code != exitUsage || !strings.Contains(errs, "nope is no host function") {
		t.Errorf("simulate --host nope=1: exit %d, %s", code, errs)
	}
}

// TestECMAHostValuesFresh: each call of a host function is a fresh
// unknown, not a function of its arguments: f() > 0 in one step and
// f() < 0 in the next are both possible, so c is no unreachable state.
func TestECMAHostValuesFresh(t *testing.T) {
	_, out, _ := runCLI(t, "explore", "testdata/ecma/hostfresh.scxml", "--depth", "3")
	if strings.Contains(out, "unreachable") || !strings.Contains(out, "depth 2") {
		t.Errorf("explore: c should be reached in two steps:\n%s", out)
	}
}
