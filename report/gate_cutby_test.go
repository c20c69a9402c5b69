package report

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/vocab"
)

// TestUnreachableCutByABound: a state not reached because a bound other
// than depth cut the tree is a warning at most, however strict the rule.
func TestUnreachableCutByABound(t *testing.T) {
	m := &Model{Path: "m.scxml", Status: Modified, Result: &incremental.Result{
		NewlyUnreachable: []incremental.StateRef{{State: "S", Line: 3, CutBy: "states"}, {State: "T", Line: 9}},
	}}
	g := Evaluate(vocab.Gate{vocab.RuleUnreachableState: vocab.ActionBlock}, []*Model{m})
	if len(g.Findings) != 2 || g.Conclusion != Failure {
		t.Fatalf("gate %+v", g)
	}
	if f := g.Findings[0]; f.Subject != "S" || f.Level != vocab.ActionWarn || !strings.Contains(f.Message, "states bound") {
		t.Errorf("a bound-qualified claim: %+v, want a warning naming the bound", f)
	}
	if f := g.Findings[1]; f.Subject != "T" || f.Level != vocab.ActionBlock {
		t.Errorf("a proven claim: %+v, want it to block", f)
	}
	m.NewlyUnreachable = m.NewlyUnreachable[:1]
	if g := Evaluate(vocab.Gate{vocab.RuleUnreachableState: vocab.ActionBlock}, []*Model{m}); g.Conclusion != Neutral {
		t.Errorf("only a bound-qualified claim: conclusion %s, want neutral", g.Conclusion)
	}
}
