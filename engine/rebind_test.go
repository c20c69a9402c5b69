package engine_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/load"
)

// TestRebind: a tree rebound to an equal machine read from other text is
// the same tree, node for node, whose states and transitions are the new
// machine's (their positions in the new text), and the original is left
// as it was.
func TestRebind(t *testing.T) {
	data, err := os.ReadFile("../examples/crossing.scxml")
	if err != nil {
		t.Fatal(err)
	}
	base := machine(t, "../examples/crossing.scxml")
	// Three lines more at the top: the same machine, other lines.
	shifted := strings.Replace(string(data), "?>", "?>\n<!-- a -->\n<!-- b -->\n<!-- c -->", 1)
	head, err := load.Bytes(context.Background(), "moved/crossing.scxml", []byte(shifted), load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if head.Hash != base.Hash {
		t.Fatalf("the machines differ: %.12s, %.12s", base.Hash, head.Hash)
	}
	set := explore(t, base, engine.Options{MaxDepth: 6})
	before := set.Dump()
	re, err := set.Rebind(head)
	if err != nil {
		t.Fatal(err)
	}
	if re.Dump() != before || set.Dump() != before {
		t.Fatal("the rebound tree is not the tree, or the tree changed")
	}
	if re.Machine != head || set.Machine != base {
		t.Fatal("the trees' machines are not the head's and the base's")
	}
	lines := 0
	for i, n := range re.Nodes {
		if n.ID != i || n.State != head.State(n.State.Name) {
			t.Fatalf("node %d: ID %d, state not the head's", i, n.ID)
		}
		if n.Parent != nil && re.Nodes[n.Parent.ID] != n.Parent || n.Subsumed != nil && re.Nodes[n.Subsumed.ID] != n.Subsumed {
			t.Fatalf("node %d: parent or subsumer outside the rebound tree", i)
		}
		for _, c := range n.Children {
			if c.Parent != n {
				t.Fatalf("node %d: a child whose parent is another node", i)
			}
		}
		if n.In == nil {
			continue
		}
		for j, f := range n.In.Fired {
			if !slices.Contains(head.Transitions, f.T) {
				t.Fatalf("node %d: transition %s not the head's", i, f.T.Key)
			}
			if bl, hl := base.Source.Line(set.Nodes[i].In.Fired[j].T.Pos), head.Source.Line(f.T.Pos); hl != bl+3 {
				t.Fatalf("node %d: transition %s at line %d, want %d (the head's)", i, f.T.Key, hl, bl+3)
			}
			lines++
		}
	}
	if lines == 0 {
		t.Fatal("no transition fired")
	}
	other := machine(t, "../examples/triangle.scxml")
	if _, err := set.Rebind(other); err == nil {
		t.Error("a tree was rebound to another machine")
	}
}
