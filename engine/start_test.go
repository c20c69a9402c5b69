package engine_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// TestCheckStart checks that a machine that cannot finish its start is an
// error at the loop at fault, and that one that can is not.
func TestCheckStart(t *testing.T) {
	tests := []struct {
		file string
		want string // the error, "" for none
	}{
		{"../examples/triangle.scxml", ""},
		{"testdata/start/raise_loop.scxml", "raise_loop.scxml:6:5: the machine does not finish starting within the bounds: run-to-completion processes more than 100 queued events"},
		{"testdata/start/while_true.scxml", "while_true.scxml:5:15: the machine does not finish starting within the bounds: a loop runs more than 10 iterations"},
	}
	for _, tt := range tests {
		err := engine.CheckStart(machine(t, tt.file), engine.Options{}, newZ3)
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.file, err)
			}
			continue
		}
		var se *engine.StartError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %v, want a StartError containing %q", tt.file, err, tt.want)
		}
		// explore says the same: never a start error without a position.
		if _, err := engine.Explore(machine(t, tt.file), engine.Options{}, newZ3); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: explore: got %v, want %q", tt.file, err, tt.want)
		}
	}
}

// TestEveryDelayedSendPends checks that a timer set again while pending
// does not replace the first: two go inputs set two ticks, and two ticks
// reach Done.
func TestEveryDelayedSendPends(t *testing.T) {
	set := explore(t, machine(t, "testdata/twoticks.scxml"), engine.Options{MaxDepth: 4})
	r := set.Reachability()
	n := r.Stable["Done"]
	if n == nil {
		t.Fatalf("Done is not reached:\n%s", set.Dump())
	}
	var events []string
	for _, x := range n.Path()[1:] {
		events = append(events, x.In.Event)
	}
	if got := strings.Join(events, " "); got != "go go tick tick" {
		t.Errorf("Done first reached after %q, want go go tick tick", got)
	}
}

// TestReachedAndStable checks the two senses of reaching a state: W3C test
// 144's s0 and s1 are entered by the initial macrostep and left within it
// (their raised events are processed before the machine rests); pass is
// entered and stable; fail is never entered.
func TestReachedAndStable(t *testing.T) {
	const doc = "../../shared/conformance/w3c-ecma/test144.scxml"
	set := explore(t, machineOrSkip(t, doc), engine.Options{})
	r := set.Reachability()
	for _, tt := range []struct {
		state           string
		entered, stable bool
	}{
		{"s0", true, false}, {"s1", true, false}, {"pass", true, true}, {"fail", false, false},
	} {
		if got := r.Entered[tt.state] != nil; got != tt.entered {
			t.Errorf("%s entered: %v, want %v", tt.state, got, tt.entered)
		}
		if got := r.Stable[tt.state] != nil; got != tt.stable {
			t.Errorf("%s stable: %v, want %v", tt.state, got, tt.stable)
		}
	}
}

// machineOrSkip loads a model of the shared conformance corpus, which the
// repository does not carry: the test is skipped where it is absent.
func machineOrSkip(t *testing.T, path string) *mlm.Machine {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skipf("the W3C conformance corpus is absent (%v)", err)
	}
	return machine(t, path)
}

// TestStartPinned: black boxes read before any input (a host's getter in
// a condition of the start) split the start; the tree keeps one root, the
// way that enters the most states, pinned to concrete values of the
// black boxes (the bound vocab.BoundConcretised), so that the state the
// other way enters is not reached, never unreachable; the way after the
// start stays symbolic.
func TestStartPinned(t *testing.T) {
	set := explore(t, machine(t, "testdata/start/host_branch.scxml"), engine.Options{MaxDepth: 2})
	if !engine.Concretised(set, set.Nodes[0]) {
		t.Fatalf("the root is not pinned:\n%s", set.Dump())
	}
	if got := set.Nodes[0].State.Atomic; !slices.Equal(got, []string{"waiting"}) {
		t.Errorf("the start ends in %v, want waiting (the way that enters the most states)", got)
	}
	if !slices.ContainsFunc(set.Bounds, func(b engine.BoundHit) bool { return b.Bound == vocab.BoundConcretised && b.Count == 1 }) {
		t.Errorf("bounds %v, want concretised once", set.Bounds)
	}
	r := set.Reachability()
	for _, s := range []string{"morning", "afternoon"} {
		if r.Stable[s] == nil {
			t.Errorf("%s is not reached after the pinned start:\n%s", s, set.Dump())
		}
	}
}
