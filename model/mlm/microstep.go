package mlm

import (
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/simplify"
)

// microstep runs SCXML's microstep on a branch: record history, exit
// (innermost first), transition content (in selection order), enter
// (outermost first), with the done.state events that entering final states
// raises. The code is appended to the branch's action, with In() resolved
// against the configuration as it is when that code runs.
func (f *flattener) microstep(b *branch, ts []*model.Transition) {
	c := b.cfg
	exit := f.exitSet(ts, c)
	exitOrder := make([]*model.State, 0, len(exit))
	for s := range exit {
		exitOrder = append(exitOrder, s)
	}
	sort.Slice(exitOrder, func(i, j int) bool { return exitOrder[i].Order > exitOrder[j].Order })
	for _, s := range exitOrder {
		for _, h := range s.HistoryStates() {
			var rec []*model.State
			for _, a := range c.states() {
				if h.Deep && a.IsAtomic() && a.IsDescendant(s) || !h.Deep && a.Parent == s {
					rec = append(rec, a)
				}
			}
			c.hist[h] = rec
		}
	}
	for _, s := range exitOrder {
		f.exec(b, s.OnExit...)
		c.set(s, false)
		b.stmts = append(b.stmts, cancelMarks(s)...)
	}
	origin := ""
	for i, t := range ts {
		f.exec(b, t.Body)
		if i > 0 {
			origin += "+"
		}
		origin += t.ID
	}
	b.origins = append(b.origins, origin)
	b.last = ts[0].Pos

	e := &entry{f: f, c: c, enter: make(map[*model.State]bool), defaultEntry: make(map[*model.State]bool),
		historyContent: make(map[*model.State]*ast.Block)}
	for _, t := range ts {
		for _, s := range t.Targets {
			e.addDescendants(s)
		}
		dom := f.domain(t, c)
		for _, s := range f.effectiveTargets(t, c) {
			e.addAncestors(s, dom)
		}
	}
	enterOrder := make([]*model.State, 0, len(e.enter))
	for s := range e.enter {
		enterOrder = append(enterOrder, s)
	}
	byOrder(enterOrder)
	for _, s := range enterOrder {
		c.set(s, true)
		b.entered = append(b.entered, s.ID)
		f.exec(b, s.OnEntry...)
		if e.defaultEntry[s] && s.Initial != nil {
			f.exec(b, s.Initial.Body)
		}
		if hc := e.historyContent[s]; hc != nil {
			f.exec(b, hc)
		}
		if s.Kind != model.Final {
			continue
		}
		parent := s.Parent
		if parent.Kind == model.Root {
			b.halted = true
			continue
		}
		f.exec(b, &ast.Block{Stmts: []ast.Stmt{s.DoneRaise()}})
		if gp := parent.Parent; gp != nil && gp.Kind == model.Parallel && c.inFinal(gp) {
			b.stmts = append(b.stmts, &ast.Raise{RaisePos: s.Pos, Event: "done.state." + gp.ID, Platform: true})
		}
	}
	if b.halted {
		// The interpreter exits: the remaining states run their exit
		// actions, innermost first, and nothing else happens.
		rest := c.states()
		for i := len(rest) - 1; i >= 0; i-- {
			f.exec(b, rest[i].OnExit...)
			b.stmts = append(b.stmts, cancelMarks(rest[i])...)
		}
	}
}

// stopCode is exitInterpreter in configuration c, for a parent that cancels
// the machine: every active state exits, innermost first, running its exit
// actions (In() resolved as the states leave) and cancelling its invokes.
func (f *flattener) stopCode(c *config) []ast.Stmt {
	b := &branch{cfg: c.clone(), defs: make(map[string]bool), known: make(map[string]ast.Expr)}
	rest := b.cfg.states()
	for i := len(rest) - 1; i >= 0; i-- {
		f.exec(b, rest[i].OnExit...)
		b.cfg.set(rest[i], false)
		b.stmts = append(b.stmts, cancelMarks(rest[i])...)
	}
	return b.stmts
}

// markPrefix begins the send id of a cancel mark: no send of a model has
// a NUL in its id, so a mark left in place would cancel nothing.
const markPrefix = "\x00invoke "

// cancelMarks marks where the exit of s cancels its invokes, after its
// exit actions. The composer replaces each mark with what cancelling the
// child does, or drops it where the child does not run.
func cancelMarks(s *model.State) []ast.Stmt {
	var out []ast.Stmt
	for _, inv := range s.Invokes {
		out = append(out, &ast.Cancel{CancelPos: inv.Pos, SendID: markPrefix + inv.ID})
	}
	return out
}

// markOf returns the invoke id a cancel mark names, if st is one.
func markOf(st ast.Stmt) (string, bool) {
	if c, ok := st.(*ast.Cancel); ok && !c.Prefix {
		return strings.CutPrefix(c.SendID, markPrefix)
	}
	return "", false
}

// exec appends code to the branch. A block that declares locals keeps its
// own scope.
func (f *flattener) exec(b *branch, blocks ...*ast.Block) {
	for _, blk := range blocks {
		if blk == nil || len(blk.Stmts) == 0 {
			continue
		}
		folded := ast.RewriteBlock(blk, func(x ast.Expr) ast.Expr {
			if in, ok := x.(*ast.InState); ok {
				return &ast.BoolLit{ValuePos: in.Start, Value: b.cfg.has(f.m.State(in.State))}
			}
			return x
		})
		defs := lang.Defs(folded)
		for _, v := range defs {
			b.defs[v] = true
		}
		b.facts.forget(defs)
		track(b.known, folded.Stmts)
		scoped := false
		for _, s := range folded.Stmts {
			if _, ok := s.(*ast.Decl); ok {
				scoped = true
			}
		}
		if scoped {
			b.stmts = append(b.stmts, &ast.Block{Lbrace: blk.Pos(), Stmts: folded.Stmts})
		} else {
			b.stmts = append(b.stmts, folded.Stmts...)
		}
	}
}

// exitSet is SCXML's computeExitSet.
func (f *flattener) exitSet(ts []*model.Transition, c *config) map[*model.State]bool {
	out := make(map[*model.State]bool)
	for _, t := range ts {
		if len(t.Targets) == 0 {
			continue
		}
		dom := f.domain(t, c)
		if dom == nil {
			continue
		}
		for _, s := range c.descendants(dom) {
			out[s] = true
		}
	}
	return out
}

// domain is SCXML's getTransitionDomain; the document's initial transition
// has the root as its domain.
func (f *flattener) domain(t *model.Transition, c *config) *model.State {
	if t.Source.Kind == model.Root {
		return t.Source
	}
	targets := f.effectiveTargets(t, c)
	if len(targets) == 0 {
		return nil
	}
	if t.Type == model.TransitionInternal && t.Source.IsCompound() {
		inside := true
		for _, s := range targets {
			if !s.IsDescendant(t.Source) {
				inside = false
			}
		}
		if inside {
			return t.Source
		}
	}
	return lcca(append([]*model.State{t.Source}, targets...))
}

// lcca is SCXML's findLCCA: the least compound ancestor (or the root) of
// all the states.
func lcca(states []*model.State) *model.State {
	for _, anc := range states[0].ProperAncestors(nil) {
		if !anc.IsCompound() {
			continue
		}
		all := true
		for _, s := range states[1:] {
			if !s.IsDescendant(anc) {
				all = false
				break
			}
		}
		if all {
			return anc
		}
	}
	return nil
}

// effectiveTargets resolves history targets to what they recorded, or to
// their default transition's targets.
func (f *flattener) effectiveTargets(t *model.Transition, c *config) []*model.State {
	var out []*model.State
	for _, s := range t.Targets {
		if s.Kind != model.History {
			out = append(out, s)
			continue
		}
		if rec, ok := c.hist[s]; ok {
			out = append(out, rec...)
		} else if len(s.Transitions) > 0 {
			out = append(out, f.effectiveTargets(s.Transitions[0], c)...)
		}
	}
	return out
}

// entry accumulates SCXML's computeEntrySet.
type entry struct {
	f              *flattener
	c              *config
	enter          map[*model.State]bool
	defaultEntry   map[*model.State]bool
	historyContent map[*model.State]*ast.Block
}

func (e *entry) addDescendants(s *model.State) {
	if s.Kind == model.History {
		if rec, ok := e.c.hist[s]; ok {
			for _, r := range rec {
				e.addDescendants(r)
			}
			for _, r := range rec {
				e.addAncestors(r, s.Parent)
			}
			return
		}
		if len(s.Transitions) == 0 {
			return
		}
		dt := s.Transitions[0]
		e.historyContent[s.Parent] = dt.Body
		for _, t := range dt.Targets {
			e.addDescendants(t)
		}
		for _, t := range dt.Targets {
			e.addAncestors(t, s.Parent)
		}
		return
	}
	e.enter[s] = true
	switch {
	case s.IsCompound():
		e.defaultEntry[s] = true
		if s.Initial == nil {
			return
		}
		for _, t := range s.Initial.Targets {
			e.addDescendants(t)
		}
		for _, t := range s.Initial.Targets {
			e.addAncestors(t, s)
		}
	case s.Kind == model.Parallel:
		e.enterRegions(s)
	}
}

func (e *entry) addAncestors(s, anc *model.State) {
	for _, a := range s.ProperAncestors(anc) {
		if a.Kind == model.Root {
			continue
		}
		e.enter[a] = true
		if a.Kind == model.Parallel {
			e.enterRegions(a)
		}
	}
}

// enterRegions enters by default every region of a parallel state that no
// state already chosen for entry lies in.
func (e *entry) enterRegions(p *model.State) {
	// The regions chosen already, found once: entering one region adds
	// states to no other.
	covered := make(map[*model.State]bool)
	for s := range e.enter {
		for s != nil && s.Parent != p {
			s = s.Parent
		}
		covered[s] = true
	}
	for _, child := range p.ChildStates() {
		if !covered[child] {
			e.addDescendants(child)
		}
	}
}

// track updates what is known of variables' values after stmts run: a
// top-level assignment of a value that folds to a constant makes it known;
// any other write makes it unknown.
func track(known map[string]ast.Expr, stmts []ast.Stmt) {
	subst := func(e ast.Expr) ast.Expr {
		return simplify.Expr(ast.RewriteExpr(e, func(x ast.Expr) ast.Expr {
			if id, ok := x.(*ast.Ident); ok {
				if v, ok := known[id.Name]; ok {
					return v
				}
			}
			return x
		}))
	}
	set := func(name string, e ast.Expr) {
		switch v := subst(e).(type) {
		case *ast.IntLit, *ast.BoolLit, *ast.StrLit:
			known[name] = v
		default:
			delete(known, name)
		}
	}
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.Assign:
			v := s.Value
			if op, ok := compound[s.Op]; ok {
				v = &ast.Binary{X: s.Target, OpPos: s.OpPos, Op: op, Y: s.Value}
			}
			set(s.Target.Name, v)
		case *ast.IncDec:
			op := ast.ADD
			if s.Op == ast.DEC {
				op = ast.SUB
			}
			set(s.Target.Name, &ast.Binary{X: s.Target, OpPos: s.OpPos, Op: op, Y: &ast.IntLit{Value: 1}})
		default:
			for _, v := range lang.Defs(s) {
				delete(known, v)
			}
		}
	}
}

var compound = map[ast.Token]ast.Token{ast.ADD_ASSIGN: ast.ADD, ast.SUB_ASSIGN: ast.SUB,
	ast.MUL_ASSIGN: ast.MUL, ast.QUO_ASSIGN: ast.QUO, ast.REM_ASSIGN: ast.REM}
