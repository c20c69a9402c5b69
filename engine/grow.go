package engine

import (
	"fmt"
	"math/big"
	"sort"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
)

// Growing the tables of black-box functions follows the SolveTab algorithm
// of Boudhiba, Gaston, Le Gall and Prevosto ("Symbolic execution of
// transition systems with function summaries", TAP 2017, §4, Algorithm 1).
// A path that the tables' summaries make infeasible may still be feasible
// for the function itself: the table just has no row that fits. For each
// transition that the tree without summaries fires and the tree with them
// does not, GrowTables asks the solver for inputs of the calls on the way
// (the path condition without summaries) that are new to the tables
// (NoCorres: not all of a path's calls already have their row), preferring
// inputs computed from results the tables already hold (Dep: a call whose
// argument is another call's result takes that result from the other's
// table), runs the functions' commands on them, adds the rows, and tries
// the summaries again. Attempts bounds the rounds, the paper's m.

// A Runner computes a black-box function on inputs: its command.
type Runner func(f *model.Function, in []ast.Expr) (ast.Expr, error)

// Growth is a row GrowTables added to a function's table.
type Growth struct {
	Function string
	Row      *model.Row
}

// GrowResult is what GrowTables did.
type GrowResult struct {
	Rows     []Growth // rows added, in the order they were computed
	Attempts int      // rounds used
	// Open is the number of MLM transitions fired when black boxes are
	// unconstrained, Summarised the number fired under the final tables.
	Open, Summarised int
}

// GrowTables enlarges the tables of m's black-box functions that have a
// command (run computes them), within attempts rounds, and returns the rows
// it added; m's functions hold them afterwards.
func GrowTables(m *mlm.Machine, opts Options, newSolver NewSolver, attempts int, run Runner) (*GrowResult, error) {
	open, err := Explore(unsummarised(m), opts, newSolver)
	if err != nil {
		return nil, err
	}
	res := &GrowResult{}
	openFired := firedBy(open)
	res.Open = len(openFired)
	slv, err := newSolver(open.Terms)
	if err != nil {
		return nil, err
	}
	defer slv.Close()
	tab := open.Terms
	for {
		sum, err := Explore(m, opts, newSolver)
		if err != nil {
			return nil, err
		}
		have := firedBy(sum)
		res.Summarised = len(have)
		if res.Attempts >= attempts {
			return res, nil
		}
		grew := false
		for _, key := range sortedKeys(openFired) {
			if have[key] != nil || res.Attempts >= attempts {
				continue
			}
			n := openFired[key]
			calls := summarisedCalls(m, tab, n.PC)
			if len(calls) == 0 {
				continue // infeasible for another reason than a table
			}
			res.Attempts++
			rows, err := solveTab(m, tab, slv, n.PC, calls, run)
			if err != nil {
				return nil, err
			}
			if len(rows) > 0 {
				grew = true
				res.Rows = append(res.Rows, rows...)
			}
		}
		if !grew {
			return res, nil
		}
	}
}

// solveTab is one round of SolveTab on the path condition pc with the
// calls calls: it finds new inputs and adds their rows.
func solveTab(m *mlm.Machine, tab *solver.Table, slv solver.Solver, pc []solver.Term, calls []*solver.Call, run Runner) ([]Growth, error) {
	noCorres := tab.Bool(false)
	for _, c := range calls {
		noCorres = tab.Or(noCorres, noCorres1(tab, m.Source.Function(c.Fun), c))
	}
	var vars []solver.Term
	for _, c := range calls {
		vars = append(vars, c.Result)
		for _, a := range c.Args {
			vars = append(vars, tab.Vars(a)...)
		}
	}
	conj := append(append([]solver.Term(nil), pc...), noCorres)
	res, values, err := slv.Model(append(conj, dep(m, tab, calls)...), vars)
	if err != nil {
		return nil, err
	}
	if res != solver.Sat {
		if res, values, err = slv.Model(conj, vars); err != nil || res != solver.Sat {
			return nil, err
		}
	}
	val := func(x solver.Term) (solver.Value, bool) { v, ok := values[x]; return v, ok }
	var out []Growth
	for _, c := range calls {
		f := m.Source.Function(c.Fun)
		if f.Command == "" || run == nil {
			continue
		}
		in := make([]ast.Expr, len(c.Args))
		ok := true
		for i, a := range c.Args {
			v, good := tab.Eval(a, val)
			if !good {
				ok = false
				break
			}
			in[i] = literal(v)
		}
		if !ok || hasRow(f, in) {
			continue
		}
		r, err := run(f, in)
		if err != nil {
			return out, fmt.Errorf("computing %s: %w", f.Name, err)
		}
		row := &model.Row{In: in, Out: r, Grown: true}
		f.Rows = append(f.Rows, row)
		out = append(out, Growth{Function: f.Name, Row: row})
	}
	return out, nil
}

// noCorres1 is the paper's NoCorres1: the call's inputs are none of the
// table's.
func noCorres1(tab *solver.Table, f *model.Function, c *solver.Call) solver.Term {
	all := tab.Bool(true)
	for _, row := range f.Rows {
		differs := tab.Bool(false)
		for i, in := range row.In {
			differs = tab.Or(differs, tab.Not(tab.Eq(c.Args[i], LiteralTerm(tab, in))))
		}
		all = tab.And(all, differs)
	}
	return all
}

// dep is the paper's Dep: a call whose arguments read another call's
// result takes that result from the other function's table
// (CorresRes).
func dep(m *mlm.Machine, tab *solver.Table, calls []*solver.Call) []solver.Term {
	var out []solver.Term
	for _, c := range calls {
		for _, other := range calls {
			if other == c || !readsVar(tab, c.Args, other.Result) {
				continue
			}
			corres := tab.Bool(false)
			for _, row := range m.Source.Function(other.Fun).Rows {
				corres = tab.Or(corres, tab.Eq(other.Result, LiteralTerm(tab, row.Out)))
			}
			out = append(out, corres)
		}
	}
	return out
}

func readsVar(tab *solver.Table, args []solver.Term, v solver.Term) bool {
	for _, a := range args {
		for _, x := range tab.Vars(a) {
			if x == v {
				return true
			}
		}
	}
	return false
}

func hasRow(f *model.Function, in []ast.Expr) bool {
	for _, row := range f.Rows {
		same := true
		for i := range in {
			if !ast.Equal(row.In[i], in[i]) {
				same = false
			}
		}
		if same {
			return true
		}
	}
	return false
}

func literal(v solver.Value) ast.Expr {
	switch v.Sort {
	case solver.BoolSort:
		return &ast.BoolLit{Value: v.Bool}
	case solver.StringSort:
		return &ast.StrLit{Value: v.Str}
	case solver.RealSort:
		return &ast.DecLit{Value: new(big.Rat).Set(v.Rat)}
	}
	return &ast.IntLit{Value: v.Int}
}

// summarisedCalls returns the calls of functions with a table in the terms.
func summarisedCalls(m *mlm.Machine, tab *solver.Table, terms []solver.Term) []*solver.Call {
	var out []*solver.Call
	for _, c := range tab.Calls(terms...) {
		if f := m.Source.Function(c.Fun); f != nil && f.Summarised() {
			out = append(out, c)
		}
	}
	return out
}

// unsummarised returns m with its black-box functions unconstrained: the
// over-approximation whose paths the tables may cut.
func unsummarised(m *mlm.Machine) *mlm.Machine {
	src := *m.Source
	src.Functions = nil
	for _, f := range m.Source.Functions {
		g := *f
		g.Table, g.Rows = "", nil
		src.Functions = append(src.Functions, &g)
	}
	c := *m
	c.Source = &src
	return &c
}

// firedBy returns, for every MLM transition the tree fires, the first node
// (breadth-first, so a shallowest one) whose step fires it.
func firedBy(s *SET) map[string]*Node {
	out := make(map[string]*Node)
	for _, n := range s.Nodes {
		if n.In == nil {
			continue
		}
		for _, f := range n.In.Fired {
			if _, ok := out[f.T.Key]; !ok {
				out[f.T.Key] = n
			}
		}
	}
	return out
}

func sortedKeys(m map[string]*Node) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
