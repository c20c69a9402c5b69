package engine_test

import (
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/vocab"
)

// TestTermBoundCutsGrowingValues: a script whose value grows with every
// statement (a polynomial of the input, a string that doubles) is cut by
// the term bound at the statement that crosses it, reported with its
// limit, and no state the tree keeps holds a larger value; the same
// model with a short script is explored whole, to s2.
func TestTermBoundCutsGrowingValues(t *testing.T) {
	for _, tc := range []struct {
		name  string
		model []byte
		cut   bool
	}{
		{"a polynomial of 10,000 statements", hostile.SymbolicScript(ast.MaxStmts), true},
		{"a string doubled 60 times", hostile.Doubles(60), true},
		{"a polynomial of 50 statements", hostile.SymbolicScript(50), false},
		{"a string doubled 5 times", hostile.Doubles(5), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := load.Bytes(t.Context(), "h.scxml", tc.model, load.Options{})
			if err != nil {
				t.Fatal(err)
			}
			set := explore(t, m, engine.Options{MaxDepth: 3})
			reached := false
			for _, n := range set.Nodes {
				reached = reached || n.State.Name == "s2"
				for i, v := range n.Vals {
					if size := set.Terms.Size(v); size > vocab.MaxTermSize {
						t.Errorf("node %d keeps %s of size %d, beyond the term bound %d", n.ID, m.Vars[i].Name, size, vocab.MaxTermSize)
					}
				}
			}
			if !tc.cut {
				if len(set.Bounds) != 0 || !reached {
					t.Fatalf("bounds %+v, s2 reached %v: want no bound and s2 reached", set.Bounds, reached)
				}
				return
			}
			if len(set.Bounds) != 1 || set.Bounds[0] != (engine.BoundHit{Bound: vocab.BoundTerm, Limit: vocab.MaxTermSize, Count: 1}) {
				t.Fatalf("bounds %+v, want the term bound (limit %d) cutting one path", set.Bounds, vocab.MaxTermSize)
			}
			if reached {
				t.Error("s2 reached past the statement the term bound cut")
			}
		})
	}
}
