package scxml

import (
	"fmt"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"
)

// declareCode is the phase between inlining and type inference. It takes
// the model m of a document read as inv says, with its code inlined, the
// blocks of that code as read before lowering (asRead) and the lowerer,
// the functions (funcs, externals) and Commons SCXML's <var>s; it makes
// the elements that the data model shows to fail raise error.execution
// (failNonArrays, failUnbound, guardPastEnd), collects the events and their kinds,
// infers what the code shows of the input parameters, expands the
// forwards of _event, and declares the variables that loops, Commons
// SCXML's <var>s and assignments to undeclared names make. It gives every
// guard and action of m, for the checker, the guard of reads past the
// end of an array, which the checker runs again, and the input parameters
// whose kinds only the kinds the checker infers of variables tell
// (inferInputParams).
func declareCode(d *diag, m *model.Model, inv invocation, low *lowerer, asRead map[*ast.Block][]ast.Stmt, compared map[string]source.Pos,
	funcs map[string]*ast.FuncDecl, externals map[string]*lower.Signature, commonsVars []*ast.Ident) (all []code, pe *pastEnd, untyped []untypedParam) {
	dc := &declarer{diag: d, m: m, inv: inv, low: low, source: asRead, funcs: funcs, externals: externals, commonsVars: commonsVars,
		pe: &pastEnd{diag: d, m: m, low: low, source: asRead, inRange: make(map[source.Pos]bool), dicts: make(map[source.Pos]bool)}}
	all = allCode(m, inv)
	if dc.failNonArrays(all) {
		all = allCode(m, inv)
	}
	if dc.failUnbound(all) {
		all = allCode(m, inv)
	}
	if _, ok := dc.pe.guardPastEnd(all); ok {
		all = allCode(m, inv)
	}
	dc.unknownStates(all)
	dc.collectEvents(all, compared)
	dc.undefinedData(all)
	if dc.partialData(all) {
		all = allCode(m, inv)
	}
	untyped = dc.inferInputParams(all)
	dc.expandForwards(all)
	dc.dataTruths(all)
	dc.declareLoopVars(all)
	dc.declareCommonsVars()
	dc.declareGlobals(all)
	return all, dc.pe, untyped
}

// declarer holds what declareCode needs besides the model.
type declarer struct {
	*diag
	m   *model.Model
	inv invocation
	low *lowerer
	// source holds the statements of every block of executable content
	// as read, before lowerBlock, so that a block can be lowered again
	// once the types show more of its elements to fail (failNonArrays).
	source map[*ast.Block][]ast.Stmt
	// funcs are the functions the scripts declare, externals the black-box
	// functions: names that are bound (declareGlobals, failUnbound).
	funcs     map[string]*ast.FuncDecl
	externals map[string]*lower.Signature
	// commonsVars are the names Commons SCXML's <var> actions declare.
	commonsVars []*ast.Ident
	// pe guards reads past the end of an array (guardPastEnd).
	pe *pastEnd
}

// unknownStates warns of every In() of a state the model does not have:
// ECMAScript's In is false for it (SCXML's ECMAScript data model, B.2,
// asks only whether the state is in the configuration), and so is
// setbot's, in every executor.
func (dc *declarer) unknownStates(all []code) {
	warn := func(n ast.Node) bool {
		if in, ok := n.(*ast.InState); ok && dc.m.State(in.State) == nil {
			dc.warns.Add(dc.fset.Position(in.Start), "In('%s') names no state of the model, so it is false: name a state, or remove the In()", in.State)
		}
		return true
	}
	for _, c := range all {
		if c.cond != nil {
			ast.Inspect(c.cond, warn)
		}
		if c.body != nil {
			ast.Inspect(c.body, warn)
		}
	}
}

// collectEvents registers every event the model names, the names its code
// compares _event.name with (compared, comparedNames) included, and
// decides their kinds (docs/architecture.md §Inputs).
func (dc *declarer) collectEvents(all []code, compared map[string]source.Pos) {
	dc.codeEvents(all)
	dc.platformEvents()
	generated := model.Internal | model.Self | model.Timer | model.Invoked
	named := dc.transitionEvents()
	// After the descriptors: a name compared makes no family of them.
	for name, pos := range compared {
		ensureEvent(dc.m, name, pos)
		named[name] = true
	}
	for _, ev := range dc.m.Events {
		if ev.Kinds&generated == 0 && (named[ev.Name] || ev.Declared) {
			ev.Kinds |= model.Input
		}
	}
	sort.Slice(dc.m.Events, func(i, j int) bool { return dc.m.Events[i].Name < dc.m.Events[j].Name })
}

// ensureEvent returns the event of m called name, adding it, first
// named at pos, if m has none.
func ensureEvent(m *model.Model, name string, pos source.Pos) *model.Event {
	ev := m.EventByName(name)
	if ev == nil {
		ev = &model.Event{Name: name, Pos: pos}
		m.AddEvent(ev)
	}
	return ev
}

// codeEvents registers the events the code raises and sends, with their
// kinds: raised events are internal, sent ones outputs, timers or sent
// to the machine itself.
func (dc *declarer) codeEvents(all []code) {
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.Raise:
				ensureEvent(dc.m, s.Event, s.RaisePos).Kinds |= model.Internal
			case *ast.Send:
				if s.Event == parser.ForwardEvent {
					return true // expandForwards
				}
				ev := ensureEvent(dc.m, s.Event, s.SendPos)
				switch {
				case s.Target != "":
					ev.Kinds |= model.Output
				case s.Delay != nil:
					ev.Kinds |= model.Timer
				default:
					ev.Kinds |= model.Self
				}
			}
			return true
		})
	}
}

// platformEvents registers the internal events the platform raises:
// error.execution where a condition or an invoke may fail, and the
// done.state events of the final states.
func (dc *declarer) platformEvents() {
	for _, s := range dc.m.States() {
		for _, t := range s.Transitions {
			if t.CondFails {
				ensureEvent(dc.m, model.ErrorExecution, t.Pos).Kinds |= model.Internal
			}
		}
		for _, inv := range s.Invokes {
			if inv.OK != nil {
				ensureEvent(dc.m, model.ErrorExecution, inv.Pos).Kinds |= model.Internal
			}
		}
		if s.Kind != model.Final || s.Parent.Kind == model.Root {
			continue
		}
		ensureEvent(dc.m, "done.state."+s.Parent.ID, s.Pos).Kinds |= model.Internal
		if gp := s.Parent.Parent; gp != nil && gp.Kind == model.Parallel {
			ensureEvent(dc.m, "done.state."+gp.ID, gp.Pos).Kinds |= model.Internal
		}
	}
}

// transitionEvents registers the events the transitions' descriptors
// name, and returns their names.
func (dc *declarer) transitionEvents() map[string]bool {
	named := make(map[string]bool)
	// A descriptor names an event of its own only when it matches no event
	// the model declares or generates: "grp.*" with grp.on and grp.off
	// declared is a family, not an event called grp.
	known := append([]*model.Event(nil), dc.m.Events...)
	for _, s := range dc.m.States() {
		for _, t := range s.Transitions {
			for _, d := range t.Events {
				name := strings.TrimSuffix(strings.TrimSuffix(d, ".*"), ".")
				if name == "*" || name == "" {
					continue
				}
				family := false
				for _, ev := range known {
					if ev.Name != name && model.DescriptorMatches(d, ev.Name) {
						family = true
					}
				}
				if family && dc.m.EventByName(name) == nil {
					continue
				}
				ensureEvent(dc.m, name, t.Pos)
				named[name] = true
			}
		}
	}
	return named
}

// undefinedData gives the raises and sends that pass nothing the argument
// _data: undefined where other raises or sends of the same event, which no
// <setbot:event> declares, pass its data as a whole (a <content>): the
// event's data is undefined then (SCXML §5.10), so its data is one
// parameter that may be undefined, not two shapes of the event.
func (dc *declarer) undefinedData(all []code) {
	content, bare := make(map[string]bool), make(map[string][]*[]*ast.Arg)
	shapes := make(map[string]*dataShapes)
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			name, _, _ := raiseOrSend(n)
			if name == "" {
				return true
			}
			args := argsOf(n)
			if ev := dc.m.EventByName(name); ev == nil || ev.Declared {
				return true
			}
			switch {
			case len(*args) == 0:
				bare[name] = append(bare[name], args)
			case len(*args) == 1 && (*args)[0].Name == ast.DataParam:
				content[name] = true
			}
			if shapes[name] == nil {
				shapes[name] = &dataShapes{}
			}
			shapes[name].add(args)
			return true
		})
	}
	dc.twoShapes(all, shapes)
	for name, list := range bare {
		if !content[name] {
			continue
		}
		for _, args := range list {
			*args = []*ast.Arg{{Name: ast.DataParam, Value: &ast.Absent{}}}
		}
	}
}

// failNonArrays replaces every <foreach> whose array is no array (an int,
// a string, an object) by the raise of error.execution it is when it runs
// (SCXML 2015, §4.6), with a warning, and lowers its block again from the
// statements as read. The type of the array is known only once the data
// model has been read; an array whose type is not known yet (a variable
// declared without a value, an inferred event parameter) is left to the
// checker. It runs before the events are collected, so that they include
// the error. It reports whether it replaced any foreach.
func (dc *declarer) failNonArrays(all []code) bool {
	changed := false
	vars := varTypes(dc.m)
	for _, c := range all {
		stmts, ok := dc.source[c.body]
		if !ok || !ast.Any(c.body, func(n ast.Node) bool { _, ok := n.(*ast.ForEach); return ok }) {
			continue
		}
		env := &lang.Env{Vars: vars, Param: paramLookup(dc.m, c.trans), State: func(string) bool { return true }}
		info, _ := lang.CheckBlock(env, dc.fset, c.body)
		bad := make(map[source.Pos]*ast.Raise)
		ast.Inspect(c.body, func(n ast.Node) bool {
			if f, ok := n.(*ast.ForEach); ok && bad[f.ForPos] == nil {
				if t := info.Types[f.Array]; t.Kind != ast.Invalid && t.Kind != ast.Undef && t.Kind != ast.Array {
					bad[f.ForPos] = dc.low.fail(dc.file.Offset(f.Array.Pos()), fmt.Sprintf("<foreach> array %q is %s, not an array", printer.ExprString(f.Array), t))
				}
			}
			return true
		})
		if len(bad) == 0 {
			continue
		}
		stmts = replaceForEach(stmts, bad)
		blk := &ast.Block{Lbrace: c.body.Lbrace, Stmts: dc.low.lowerBlock(stmts)}
		dc.source[blk] = stmts
		c.set(c.cond, blk)
		changed = true
	}
	return changed
}

// replaceForEach returns stmts with every <foreach> that starts at a
// position of with replaced by the statement there, at any depth.
func replaceForEach(stmts []ast.Stmt, with map[source.Pos]*ast.Raise) []ast.Stmt {
	out := make([]ast.Stmt, len(stmts))
	block := func(x *ast.Block) *ast.Block {
		return &ast.Block{Lbrace: x.Lbrace, Stmts: replaceForEach(x.Stmts, with)}
	}
	for i, s := range stmts {
		switch x := s.(type) {
		case *ast.ForEach:
			if r := with[x.ForPos]; r != nil {
				out[i] = r
				continue
			}
			y := *x
			y.Body = block(x.Body)
			s = &y
		case *ast.If:
			y := *x
			y.Then = block(x.Then)
			if x.Else != nil {
				y.Else = replaceForEach([]ast.Stmt{x.Else}, with)[0]
			}
			s = &y
		case *ast.Block:
			s = block(x)
		case *ast.While:
			y := *x
			y.Body = block(x.Body)
			s = &y
		case *ast.For:
			y := *x
			y.Body = block(x.Body)
			s = &y
		}
		out[i] = s
	}
	return out
}
