package vocab

import (
	"slices"
	"testing"
)

func TestDefaultRuleActions(t *testing.T) {
	g := DefaultRuleActions()
	for _, r := range Rules {
		if !slices.Contains(Actions, g[r]) {
			t.Errorf("rule %s has no valid default action: %q", r, g[r])
		}
	}
	if len(g) != len(Rules) {
		t.Errorf("default gate %v holds rules that Rules does not list", g)
	}
	g[RuleBoundHit] = ActionBlock
	if DefaultRuleActions()[RuleBoundHit] != ActionWarn {
		t.Error("DefaultRuleActions shares its map")
	}
}

func TestRuleActionsAction(t *testing.T) {
	g := RuleActions{RuleUnreachableState: ActionWarn, RuleBoundHit: "maybe"}
	for _, tc := range []struct {
		rule Rule
		want Action
	}{
		{RuleUnreachableState, ActionWarn}, // set
		{RuleBoundHit, ActionWarn},         // invalid: the default
		{RuleModelError, ActionBlock},      // absent: the default
	} {
		if got := g.Action(tc.rule); got != tc.want {
			t.Errorf("Action(%s) = %q, want %q", tc.rule, got, tc.want)
		}
	}
	if got := RuleActions(nil).Action(RuleTransientState); got != ActionOff {
		t.Errorf("nil gate: Action(transient_state) = %q, want off", got)
	}
}

// TestEveryRuleHasHelp checks that every rule explains itself.
func TestEveryRuleHasHelp(t *testing.T) {
	for _, r := range Rules {
		if r.Summary() == "" || r.Help() == "" {
			t.Errorf("rule %s has no summary or help", r)
		}
	}
}

func TestFormatLimit(t *testing.T) {
	if got := BoundTime.FormatLimit(90000); got != "1m30s" {
		t.Errorf("time limit 90000 ms = %q, want 1m30s", got)
	}
	for limit, want := range map[int64]string{6 << 30: "6GiB", 512 << 20: "512MiB", 1536 << 20: "1536MiB", 1000: "1000B", 0: "0B"} {
		if got := BoundMemory.FormatLimit(limit); got != want {
			t.Errorf("memory limit %d = %q, want %s", limit, got, want)
		}
	}
	if got := BoundDepth.FormatLimit(12); got != "12" {
		t.Errorf("depth limit = %q, want 12", got)
	}
	for _, b := range Bounds {
		if b.Setting() == "" {
			t.Errorf("bound %s says nowhere how to raise it", b)
		}
	}
}
