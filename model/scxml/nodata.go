package scxml

import (
	"cmp"
	"maps"
	"slices"
	"sort"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"
)

// passes is one raise or send of an event: its arguments and where it is.
type passes struct {
	args *[]*ast.Arg
	pos  source.Pos
}

// partialData lets the raises and sends of an event that no
// <setbot:event> declares pass different parameters, as ECMAScript does:
// _event.data is the object of the parameters its send passed (SCXML
// §5.10), so a parameter that another send passes and this one does not
// is undefined there, and each such send passes it undefined; a raise or
// send that passes none gives the event no data at all, and reading a
// parameter of its undefined data throws a TypeError, error.execution in
// SCXML (§B.2). Such an event carries ast.NoDataParam besides, true where
// it was sent without data, and the reads of its parameters are guarded
// (guardNoData). An event whose data some sends pass whole (a <content>)
// is left to undefinedData. It reports whether it changed any code.
func (dc *declarer) partialData(all []code) bool {
	sends := make(map[string][]passes)
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			name, _, pos := raiseOrSend(n)
			if ev := dc.m.EventByName(name); ev == nil || ev.Declared {
				return true
			}
			sends[name] = append(sends[name], passes{argsOf(n), pos})
			return true
		})
	}
	nodata := make(map[string][]string)
	for _, name := range slices.Sorted(maps.Keys(sends)) {
		if params, bare := passAll(sends[name]); bare {
			nodata[name] = params
		}
	}
	return len(nodata) > 0 && dc.guardNoData(all, nodata)
}

// argsOf returns the arguments of n, a raise or a send.
func argsOf(n ast.Node) *[]*ast.Arg {
	if s, ok := n.(*ast.Send); ok {
		return &s.Args
	}
	return &n.(*ast.Raise).Args
}

// passAll makes every raise or send of list pass each parameter that one
// of them passes, undefined where it did not, and, where some pass none,
// ast.NoDataParam too. It returns the parameters, and whether some pass
// none.
func passAll(list []passes) ([]string, bool) {
	names := make(map[string]bool)
	bare := false
	for _, p := range list {
		for _, a := range *p.args {
			if a.Name == ast.DataParam {
				return nil, false
			}
			names[a.Name] = true
		}
		bare = bare || len(*p.args) == 0
	}
	params := slices.Sorted(maps.Keys(names))
	if len(params) == 0 {
		return nil, false
	}
	for _, p := range list {
		given := make(map[string]bool)
		for _, a := range *p.args {
			given[a.Name] = true
		}
		if bare {
			*p.args = append(*p.args, &ast.Arg{NamePos: p.pos, Name: ast.NoDataParam, Value: &ast.BoolLit{ValuePos: p.pos, Value: len(given) == 0}})
		}
		for _, n := range params {
			if !given[n] {
				*p.args = append(*p.args, &ast.Arg{NamePos: p.pos, Name: n, Value: &ast.Absent{ValuePos: p.pos}})
			}
		}
	}
	return params, bare
}

// guardNoData raises error.execution before each statement that reads a
// parameter of an event sent without data (partialData) where the event
// has none, in the code of the transitions that take the event alone, and
// makes their conds that read one fail there (failCond); such a read
// anywhere else (code that runs after any event, a part of a statement
// that may go unevaluated) is refused. It reports whether it guarded any.
func (dc *declarer) guardNoData(all []code, nodata map[string][]string) bool {
	guarded := false
	for _, c := range all {
		ev := ""
		for _, r := range dataReads(c.nodes()) {
			e, ok := dc.takesNoData(c, nodata, r)
			if !ok {
				ev = ""
				break
			}
			ev = cmp.Or(ev, e)
		}
		if ev == "" {
			continue
		}
		if c.cond != nil && dc.failCond(c.trans, ev) {
			// c is a copy, but guardBody sets c.cond back where it
			// found it: it must be the cond failCond wrote.
			c.cond, guarded = c.trans.Cond, true
		}
		if dc.guardBody(c, ev) {
			guarded = true
		}
	}
	if guarded && dc.m.EventByName(model.ErrorExecution) == nil {
		ensureEvent(dc.m, model.ErrorExecution, dc.m.Root.Pos)
		sort.Slice(dc.m.Events, func(i, j int) bool { return dc.m.Events[i].Name < dc.m.Events[j].Name })
	}
	if guarded {
		dc.m.EventByName(model.ErrorExecution).Kinds |= model.Internal
	}
	return guarded
}

// takesNoData returns the event sent without data whose parameters code c
// may read, "" for none; it refuses (ok false) code that may run on such an
// event and on others, whose _event.data setbot does not tell apart.
func (dc *declarer) takesNoData(c code, nodata map[string][]string, read *ast.EventParam) (ev string, ok bool) {
	anyEvent := c.trans == nil || c.trans.Eventless() || c.trans == c.trans.Source.Initial
	var taken, others []string
	for _, e := range dc.m.Events {
		switch {
		case !anyEvent && !c.trans.Matches(e.Name):
		case nodata[e.Name] != nil && slices.Contains(nodata[e.Name], read.Name):
			taken = append(taken, e.Name)
		default:
			others = append(others, e.Name)
		}
	}
	switch {
	case len(taken) == 0:
		return "", true
	case anyEvent || len(taken) > 1 || len(others) > 0:
		dc.refusef(dc.file.Offset(read.Start), "_event.data.%s is read where event %s, which is raised or sent without data too, and other events are processed: "+
			"where it has no data, reading it throws; read it in a transition that takes %s alone, or pass its data in every raise and send", read.Name, taken[0], taken[0])
		return "", false
	}
	return taken[0], true
}

// failCond makes the cond of t, which reads a parameter of event ev sent
// without data too, false where ev has no data, and raise error.execution
// there each time it is evaluated (model.Transition.FailsWhen), as
// ECMAScript's TypeError on reading into undefined data does. It refuses a
// read the cond may not evaluate (under ?:, && or ||), and a cond that
// fails otherwise too. It reports whether it changed the cond.
func (dc *declarer) failCond(t *model.Transition, ev string) bool {
	always := evaluated(t.Cond, paramRead, nil)
	for _, r := range dataReads([]ast.Node{t.Cond}) {
		if !slices.Contains(always, r) || t.CondFails || t.FailsWhen != nil {
			dc.refusef(dc.file.Offset(r.Start), "_event.data.%s is read in a cond where event %s may have been raised or sent without data, and where it was, reading it throws; "+
				"setbot models that where the cond always reads it, outside ?:, && and ||, and nothing else in it fails: test it in the transition's executable content (an <if>)", r.Name, ev)
			return false
		}
	}
	if len(always) == 0 {
		return false
	}
	pos := t.Cond.Pos()
	dc.warnf(dc.file.Offset(always[0].Start), "_event.data.%s is read where event %s may have been raised or sent without data, and ECMAScript throws a TypeError on reading into its undefined data: "+
		"setbot takes this cond as false there and raises %s each time it is evaluated, as the SCXML specification requires", always[0].Name, ev, model.ErrorExecution)
	t.FailsWhen = &ast.EventParam{Start: pos, Name: ast.NoDataParam}
	t.Cond = &ast.Binary{X: &ast.Unary{OpPos: pos, Op: ast.NOT, X: &ast.EventParam{Start: pos, Name: ast.NoDataParam}}, OpPos: pos, Op: ast.LAND, Y: t.Cond}
	return true
}

// guardBody puts the guards of guardNoData in c's body, for event ev, and
// refuses the reads a guard does not cover.
func (dc *declarer) guardBody(c code, ev string) bool {
	stmts, ok := dc.source[c.body]
	if !ok {
		stmts = c.body.Stmts
	}
	stmts = slices.Clone(stmts)
	covered := make(map[*ast.EventParam]bool)
	var first *ast.EventParam // the first read guarded: one warning tells them all
	guarded := guardEach(&stmts, func(s ast.Stmt) []ast.Stmt {
		var reads []*ast.EventParam
		for _, e := range evaluatedBy(s) {
			reads = evaluated(e, paramRead, reads)
		}
		if len(reads) == 0 {
			return nil
		}
		for _, r := range reads {
			covered[r] = true
		}
		pos := reads[0].Start
		raise := dc.low.failure(dc.file.Offset(pos))
		if first == nil || pos < first.Start {
			first = reads[0]
		}
		return []ast.Stmt{&ast.If{IfPos: pos, Cond: &ast.EventParam{Start: pos, Name: ast.NoDataParam}, Then: &ast.Block{Stmts: []ast.Stmt{raise}}}}
	})
	for _, s := range stmts {
		for _, r := range dataReads([]ast.Node{s}) {
			if !covered[r] && r.Name != ast.NoDataParam {
				dc.refusef(dc.file.Offset(r.Start), "_event.data.%s is read where event %s may have been raised or sent without data, and where it was, reading it throws; setbot models that where the statement always reads it "+
					"(an assignment's value, an if's condition, a raise's or send's parameter, outside ?:, && and ||): read it into a variable there first", r.Name, ev)
				return false
			}
		}
	}
	if !guarded {
		return false
	}
	dc.low.warnFailure(dc.file.Offset(first.Start), "_event.data."+first.Name+" is read where event "+ev+
		" may have been raised or sent without data, and ECMAScript throws a TypeError on reading into its undefined data")
	blk := &ast.Block{Lbrace: c.body.Lbrace, Stmts: dc.low.lowerBlock(stmts)}
	dc.source[blk] = stmts
	c.set(c.cond, blk)
	return true
}

// evaluatedBy returns the expressions that running s evaluates first,
// before any effect: an assignment's or declaration's value, an if's
// condition, a raise's or send's arguments.
func evaluatedBy(s ast.Stmt) []ast.Expr {
	switch x := s.(type) {
	case *ast.Assign:
		return []ast.Expr{x.Value}
	case *ast.Decl:
		return []ast.Expr{x.Value}
	case *ast.If:
		return []ast.Expr{x.Cond}
	}
	var out []ast.Expr
	if _, args, _ := raiseOrSend(s); args != nil {
		for _, a := range args {
			out = append(out, a.Value)
		}
	}
	return out
}

// dataReads returns the reads of event parameters in nodes, but of the
// data as a whole.
func dataReads(nodes []ast.Node) []*ast.EventParam {
	var out []*ast.EventParam
	for _, n := range nodes {
		ast.Inspect(n, func(n ast.Node) bool {
			if p, ok := n.(*ast.EventParam); ok && isParamRead(p) {
				out = append(out, p)
			}
			return true
		})
	}
	return out
}

// paramRead returns e where it reads an event parameter (isParamRead).
func paramRead(e ast.Expr) (*ast.EventParam, bool) {
	p, ok := e.(*ast.EventParam)
	return p, ok && isParamRead(p)
}

// isParamRead reports whether p reads a parameter, not the data as a
// whole or whether there is any.
func isParamRead(p *ast.EventParam) bool { return p.Name != ast.DataParam && p.Name != ast.NoDataParam }
