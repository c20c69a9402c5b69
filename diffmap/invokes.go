package diffmap

import (
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// invokes finds the changed <invoke>s of the states both versions have:
// the i-th invoke of a state (its old id mapped through the renames) is
// compared with the i-th of the same state in the other version, and its
// id, src, params, finalize, autoforward and idlocation are what it
// changes. A change inside the child machine (its content) is the child's
// own changes, scoped by the invoke id (compareModels); an invoke whose id
// changed pairs no child, and its change names the id.
func (c *comparer) invokes() {
	for _, ns := range c.n.States() {
		os := c.oldState(ns.ID)
		if os == nil {
			continue
		}
		for i, ni := range ns.Invokes {
			if i >= len(os.Invokes) {
				c.add(InvokeChanged, ni.ID+": added", os.Pos, ni.Pos)
				continue
			}
			oi := os.Invokes[i]
			if what := invokeChanges(oi, ni); len(what) > 0 {
				c.add(InvokeChanged, ni.ID+": "+strings.Join(what, ", "), oi.Pos, ni.Pos)
			}
		}
		for _, oi := range os.Invokes[min(len(ns.Invokes), len(os.Invokes)):] {
			c.add(InvokeChanged, oi.ID+": removed", oi.Pos, ns.Pos)
		}
	}
}

// oldState returns the old version's state that became the new one of id.
func (c *comparer) oldState(id string) *model.State {
	for old, renamed := range c.d.Renamed {
		if renamed == id {
			id = old
			break
		}
	}
	return c.o.State(id)
}

// invokeChanges names what differs between two invokes of one state.
func invokeChanges(o, n *model.Invoke) []string {
	var what []string
	if o.ID != n.ID {
		what = append(what, "id "+o.ID+" > "+n.ID)
	}
	if o.Src != n.Src {
		what = append(what, "src")
	}
	if !slices.EqualFunc(o.Params, n.Params, func(a, b *ast.Arg) bool { return a.Name == b.Name && ast.Equal(a.Value, b.Value) }) {
		what = append(what, "param")
	}
	if !sameBlock(o.Finalize, n.Finalize) {
		what = append(what, "finalize")
	}
	if o.Autoforward != n.Autoforward {
		what = append(what, "autoforward")
	}
	if !sameBlock(o.Start, n.Start) {
		what = append(what, "idlocation")
	}
	return what
}

func sameBlock(a, b *ast.Block) bool {
	if a == nil || b == nil {
		return (a == nil || len(a.Stmts) == 0) && (b == nil || len(b.Stmts) == 0)
	}
	return ast.Equal(a, b)
}

// tables finds the black-box functions whose declaration or table changed
// (after Boudhiba et al., TAP 2017, a function is read through the rows of
// its table): a transition that calls one computes something else though
// its code is the same.
func (c *comparer) tables() {
	for _, nf := range c.n.Functions {
		of := c.o.Function(nf.Name)
		if of == nil {
			continue // a new function: its callers changed code
		}
		var what []string
		if !slices.Equal(of.Params, nf.Params) || of.Result != nf.Result {
			what = append(what, "signature")
		}
		if of.Table != nf.Table {
			what = append(what, "table file")
		}
		if of.Command != nf.Command {
			what = append(what, "command")
		}
		if !slices.EqualFunc(of.Rows, nf.Rows, sameRow) {
			what = append(what, "rows")
		}
		if len(what) > 0 {
			c.add(TableChanged, nf.Name+": "+strings.Join(what, ", "), of.Pos, nf.Pos)
		}
	}
}

func sameRow(a, b *model.Row) bool {
	return slices.EqualFunc(a.In, b.In, func(x, y ast.Expr) bool { return ast.Equal(x, y) }) && ast.Equal(a.Out, b.Out)
}
