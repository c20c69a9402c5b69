package z3

import (
	"testing"

	langast "github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// TestDeepestTerm: the deepest term a path can build, a value at the term
// bound read by an expression as deep as the reader allows, is
// translated and decided without exhausting the Go or the C stack, and
// every walk of it (printing, free variables, substitution, the binary
// encoding) ends.
func TestDeepestTerm(t *testing.T) {
	tab := solver.NewTable()
	s := newSolver(t, tab)
	y := tab.Var("y", solver.IntSort)
	c := tab.Var("b", solver.BoolSort)
	v := tab.Var("x", solver.IntSort)
	for i := 0; tab.Size(c)+tab.Size(v) < vocab.MaxTermSize+langast.MaxNesting; i++ {
		c = tab.Not(tab.And(c, tab.Lt(y, tab.Int(int64(i)))))
		v = tab.Add(v, y)
	}
	q := tab.And(c, tab.Lt(v, tab.Int(0)))
	if r, err := s.Check([]solver.Term{q}); err != nil || r != solver.Sat {
		t.Fatalf("the deepest term: %v, %v; want sat", r, err)
	}
	if len(tab.String(q)) < tab.Size(q) || len(tab.Vars(q)) != 3 {
		t.Errorf("printing or the free variables of the deepest term went wrong")
	}
	if tab.Subst(q, map[solver.Term]solver.Term{y: tab.Int(-1)}) == q {
		t.Error("substituting y in the deepest term changed nothing")
	}
	if _, _, err := solver.ReadTable(tab.AppendBinary(nil)); err != nil {
		t.Fatal(err)
	}
}
