package engine

import (
	"testing"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

// TestPureReadersAgree: the executor's one-term evaluation read on a run
// (the condition that no transition fires) and read on a node of the tree
// (SET.EvalExact) give the same value on every node, and the conversions
// are inexact on a run exactly where EvalExact says they are not exact.
func TestPureReadersAgree(t *testing.T) {
	m := loadFile(t, "../examples/radio.scxml")
	set, err := Explore(m, Options{MaxDepth: 3}, func(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) })
	if err != nil {
		t.Fatal(err)
	}
	tab := set.Terms
	slv, err := z3.New(tab)
	if err != nil {
		t.Fatal(err)
	}
	defer slv.Close()
	x := &executor{m: m, tab: tab, varIdx: make(map[string]int), bounds: make(map[vocab.Bound]int), limits: make(map[vocab.Bound]int64)}
	vars := make(map[string]ast.Type)
	for i, v := range m.Vars {
		x.varIdx[v.Name] = i
		vars[v.Name] = v.Type
	}
	inexact := 0 // evaluations whose exactness is not simply true
	for _, tc := range []struct {
		text string
		want ast.Kind
	}{
		{"volume > 2 ? parseInt(String(volume)) != 7 : volume < 5", ast.Bool},
		{"volume <= 9 || Number(String(volume)) < 10", ast.Bool},
		{"parseInt(String(volume)) + 1", ast.Int},
		// beyond 2^53 from volume 1 on: inexact there, not where && stops
		{"volume > 2 && Number(String(volume * 100000000000000000)) > 0", ast.Bool},
	} {
		text := tc.text
		e := parseExpr(t, vars, text, tc.want)
		for _, n := range set.Nodes {
			want, exact, err := set.EvalExact(n, e, nil, nil)
			if err != nil {
				t.Fatalf("%s on node %d: %v", text, n.ID, err)
			}
			env := &runEnv{x: x, r: &run{state: n.State, vals: n.Vals, pc: n.PC}}
			if got := x.pure(e, tab.Bool(true), env); got != want {
				t.Errorf("%s on node %d: %s on the run, %s on the node", text, n.ID, tab.String(got), tab.String(want))
			}
			var cut solver.Term = tab.Bool(false)
			for _, c := range env.cuts {
				cut = tab.Or(cut, c)
			}
			if v, ok := tab.BoolValue(exact); !ok || !v {
				inexact++
			}
			// cut ⇔ ¬exact: neither both nor neither may hold.
			for _, conj := range [][]solver.Term{{cut, exact}, {tab.Not(cut), tab.Not(exact)}} {
				if r, err := slv.Check(conj); err != nil || r != solver.Unsat {
					t.Errorf("%s on node %d: cuts %s and exactness %s disagree (%v, %v)", text, n.ID, tab.String(cut), tab.String(exact), r, err)
				}
			}
		}
	}
	if x.err != nil {
		t.Fatal(x.err)
	}
	if inexact == 0 {
		t.Error("no conversion was inexact anywhere: the test checks nothing of exactness")
	}
}

// parseExpr parses and checks text over vars, of kind want, lowered as a
// guard is.
func parseExpr(t *testing.T, vars map[string]ast.Type, text string, want ast.Kind) ast.Expr {
	t.Helper()
	fset := source.NewFileSet()
	file := fset.AddFile("expr", []byte(text))
	e, errs := parser.ParseExpr(parser.NewSnippet(file, text))
	if len(errs) > 0 {
		t.Fatalf("%s: %v", text, errs[0].Msg)
	}
	info, errs := lang.CheckExpr(&lang.Env{Vars: vars}, fset, e, want)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", text, errs[0].Msg)
	}
	return lower.Expr(e, info, true)
}
