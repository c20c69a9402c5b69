package main

import (
	"strings"
	"testing"
)

// TestEventlessContradiction: an eventless loop over a variable that its
// macrostep does not assign, whose conds contradict each other on the way
// round (m == 1, then m == 0 of the same value), flattens instead of being
// unrolled until a bound; explore reaches every state, and the flattened
// machine and the reference interpreter agree on where runs end, also
// where toggle assigns the variable in the macrostep.
func TestEventlessContradiction(t *testing.T) {
	const model = "../../model/mlm/testdata/features/eventless_contradiction.scxml"
	mustCheck(t, model)
	code, out, errs := runCLI(t, "explore", model)
	if code != 0 || strings.Contains(out, "unreachable") {
		t.Errorf("explore: exit %d, want every state reached\n%s%s", code, out, errs)
	}
	simulateBoth(t, "init", model, "go")
	simulateBoth(t, "playing", model, "toggle", "go")
	simulateBoth(t, "stopped", model, "toggle", "go", "toggle")
	simulateBoth(t, "playing", model, "toggle", "go", "toggle", "toggle")
	simulateBoth(t, "stopped", model, "go", "toggle", "toggle")
}
