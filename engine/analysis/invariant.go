package analysis

import (
	"fmt"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// ParseInvariant reads a predicate over the machine's variables.
func ParseInvariant(m *mlm.Machine, text string) (Invariant, error) {
	fset := source.NewFileSet()
	file := fset.AddFile("invariant", []byte(text))
	e, errs := parser.ParseExpr(parser.NewSnippet(file, text))
	if len(errs) > 0 {
		return Invariant{}, fmt.Errorf("invariant %q: %v", text, errs[0].Msg)
	}
	vars := make(map[string]ast.Type)
	for _, v := range m.Vars {
		vars[v.Name] = v.Type
	}
	info, errs := lang.CheckExpr(&lang.Env{Vars: vars}, fset, e, ast.Bool)
	if len(errs) > 0 {
		return Invariant{}, fmt.Errorf("invariant %q: %v", text, errs[0].Msg)
	}
	// Lowered as a guard is: conversions, mixed arithmetic and the like
	// become what the executors evaluate.
	return Invariant{Text: printer.ExprString(e), Expr: lower.Expr(e, info, true)}, nil
}

// RangeInvariants are the invariants a variable's declared range implies.
func RangeInvariants(m *mlm.Machine) []Invariant {
	var out []Invariant
	for _, v := range m.Vars {
		if !v.Type.Ranged || lower.Reserved(v.Name) {
			continue // a variable the lowering made holds a range by construction
		}
		id := &ast.Ident{Name: v.Name}
		e := &ast.Binary{X: &ast.Binary{X: &ast.IntLit{Value: v.Type.Lo}, Op: ast.LEQ, Y: id},
			Op: ast.LAND, Y: &ast.Binary{X: id, Op: ast.LEQ, Y: &ast.IntLit{Value: v.Type.Hi}}}
		out = append(out, Invariant{Text: printer.ExprString(e), Expr: e, Implied: v.Name + ": " + v.Type.String()})
	}
	return out
}

// Invariants checks each invariant in every state of the tree, in
// breadth-first order, so a violation comes with a shortest witness. A
// violation is a value the invariant is false at where the conversions it
// makes are exact; where a state allows a value that a conversion of it
// does not compute exactly (a NaN, in ECMAScript), an invariant found to
// hold holds only where they are, and says so (cut by the number bound).
func (a *Analyzer) Invariants(invs []Invariant) ([]InvariantCheck, error) {
	tab := a.set.Terms
	out := make([]InvariantCheck, 0, len(invs))
	for _, inv := range invs {
		c := InvariantCheck{Invariant: inv.Text, Implied: inv.Implied, Holds: true}
		for _, n := range a.set.Nodes {
			if err := a.canceled(); err != nil {
				return nil, err
			}
			t, exact, err := a.set.EvalExact(n, inv.Expr, nil, nil)
			if err != nil {
				return nil, fmt.Errorf("invariant %s: %w", inv.Text, err)
			}
			violated := tab.And(exact, tab.Not(t))
			bad, err := a.check(n.PC, violated)
			if err != nil {
				return nil, err
			}
			if bad != solver.Sat {
				// Where the conversions may be inexact, or the solver
				// cannot tell whether they are or whether the invariant
				// fails (string theory), the invariant holds qualified.
				if always, known := tab.BoolValue(exact); c.CutBy == "" && !(known && always) {
					inexact, err := a.check(n.PC, tab.Not(exact))
					if err != nil {
						return nil, err
					}
					if inexact != solver.Unsat || bad == solver.Unknown {
						c.CutBy = vocab.BoundNumber
					}
				}
				continue
			}
			gen, err := a.generator()
			if err != nil {
				return nil, err
			}
			w, err := gen.TestWhere(n, []solver.Term{violated})
			if err != nil {
				return nil, err
			}
			c.Holds, c.State, c.Witness, c.CutBy = false, n.State.Name, w, ""
			break
		}
		out = append(out, c)
	}
	return out, nil
}
