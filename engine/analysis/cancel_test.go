package analysis_test

import (
	"context"
	"errors"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/model/load"
)

// TestAnalysesStop: once told to stop, every analysis that walks the tree
// returns engine.ErrCanceled instead of going on; until then they answer.
func TestAnalysesStop(t *testing.T) {
	m, err := load.File(context.Background(), "../../examples/crossing.scxml", load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := engine.Explore(m, engine.Options{MaxDepth: 4}, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	invs := analysis.RangeInvariants(m)
	if len(invs) == 0 {
		t.Fatal("the model declares no range")
	}
	done := make(chan struct{})
	an := analysis.New(set, newZ3)
	defer an.Close()
	an.SetCancel(done)
	if _, err := an.Invariants(invs); err != nil {
		t.Fatalf("before the end: %v", err)
	}
	close(done)
	for what, run := range map[string]func() error{
		"invariants":     func() error { _, err := an.Invariants(invs); return err },
		"nondeterminism": func() error { _, err := an.Nondeterminism(); return err },
		"witness":        func() error { _, err := an.Witness(set.Nodes[len(set.Nodes)-1]); return err },
		"outputs":        func() error { _, err := an.Outputs(); return err },
	} {
		if err := run(); !errors.Is(err, engine.ErrCanceled) {
			t.Errorf("%s after the end: %v, want %v", what, err, engine.ErrCanceled)
		}
	}
}
