package scxml

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/jexl"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"
)

// varTypes gives the type of each variable of m.
func varTypes(m *model.Model) map[string]ast.Type {
	types := make(map[string]ast.Type, len(m.Vars))
	for _, v := range m.Vars {
		types[v.Name] = v.Type
	}
	return types
}

// unknownStates warns of every In() of a state the model does not have:
// ECMAScript's In is false for it (SCXML's ECMAScript data model, B.2,
// asks only whether the state is in the configuration), and so is
// setbot's, in every executor.
func (ck *checker) unknownStates(all []code) {
	warn := func(n ast.Node) bool {
		if in, ok := n.(*ast.InState); ok && ck.m.State(in.State) == nil {
			ck.warns.Add(ck.fset.Position(in.Start), "In('%s') names no state of the model, so it is false: name a state, or remove the In()", in.State)
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

// checker is the phase of type inference, checking and lowering
// (checkCode). It takes the model with its code read, expanded and
// inlined, and from reading what the types need: the <data> facts, the
// functions, the dialect and Commons SCXML's <var>s, the blocks as read
// before lowering (source) and the lowerer that lowers them again.
type checker struct {
	*diag
	dataFacts
	m   *model.Model
	inv invocation
	low *lowerer
	// source holds the statements of every block of executable content
	// as read, before lowerBlock, so that a block can be lowered again
	// once the types show more of its elements to fail (failNonArrays).
	source map[*ast.Block][]ast.Stmt
	// funcs are the functions the scripts declare, externals the black-box
	// functions (names that are bound, declareGlobals and failUnbound).
	funcs     map[string]*ast.FuncDecl
	externals map[string]*lang.Signature
	// jexl is the dialect of a model with datamodel="jexl" (vet), and
	// commonsVars the names Commons SCXML's <var> actions declare.
	jexl        *jexl.Dialect
	commonsVars []*ast.Ident
	// grown holds the arrays without a setbot:type that growArrays gave
	// room to grow.
	grown map[string]bool
}

func (ck *checker) allCode() []code { return allCode(ck.m, ck.inv) }

// checkCode collects the events, then type-checks every guard and action in
// document order, inferring the parameters of events the model raises or
// sends without declaring them and the types of variables declared without
// a value. A model without errors is then lowered (checkAll).
func (ck *checker) checkCode() {
	all := ck.allCode()
	if ck.failNonArrays(all) {
		all = ck.allCode()
	}
	if ck.failUnbound(all) {
		all = ck.allCode()
	}
	ck.unknownStates(all)
	ck.source = nil // failNonArrays was the last to lower a block again
	ck.collectEvents(all)
	ck.undefinedData(all)
	ck.inferInputParams(all)
	ck.expandForwards(all)
	ck.dataTruths(all)
	ck.declareLoopVars(all)
	ck.declareCommonsVars()
	ck.declareGlobals(all)
	vars := varTypes(ck.m)
	inferred := make(map[string]bool)
	env := func(c code) *lang.Env {
		return &lang.Env{
			Vars:  vars,
			Param: ck.paramLookup(c.trans),
			// A history state is never active: In() of it is false; so is
			// In() of no state at all (unknownStates warns of it).
			State: func(string) bool { return true },
			Event: func(name string) (map[string]ast.Type, bool) {
				ev := ck.m.EventByName(name)
				if ev == nil || !(ev.Declared || inferred[name]) {
					return nil, false
				}
				return ev.ParamTypes(), true
			},
		}
	}
	// Infer the parameters of undeclared raised and sent events, and the
	// types of variables declared without a value, to a fixpoint, so that
	// the order of code in the file does not matter (a guard may read a
	// parameter that a later raise defines).
	for progress := true; progress; {
		progress = false
		for _, c := range all {
			if !ck.infersParams(c.body, inferred) {
				continue
			}
			if info, errs := lang.CheckBlock(env(c), ck.fset, c.body); len(errs) == 0 && ck.inferParams(c.body, info, inferred) {
				progress = true
			}
		}
		if ck.dropUnreadInits(all, env, vars) {
			progress = true
		}
		if ck.widenParams(all, env, inferred) {
			progress = true
		}
		if ck.inferVarTypes(all, env, vars) {
			progress = true
		}
		if ck.growArrays(all, env, vars) {
			progress = true
		}
	}
	ck.reportMixedKinds(all, env)
	// An assignment that inference already reported is not reported again.
	reported := make(map[source.Position]bool)
	for _, e := range ck.errs {
		reported[e.Pos] = true
	}
	keep := func(errs source.ErrorList) source.ErrorList {
		return slices.DeleteFunc(errs, func(e *source.Error) bool { return reported[e.Pos] })
	}
	ck.checkAll(all, env, keep)
}

// checkAll type-checks every guard and action of all with its env, keeping
// the errors keep keeps, and lowers each one as soon as it is checked while
// the model has no error (lowerPiece): a piece's checker results are then
// dropped before the next is checked, so that reading holds the results of
// one piece at a time, not of the whole model. What the rule for decimals
// takes in is kept (decimalFacts). A model with errors is not returned, so
// that the pieces lowered before the first error do not matter; a model
// without them has every piece lowered, and its variables and events are
// lowered last (lowerVars).
func (ck *checker) checkAll(all []code, env func(code) *lang.Env, keep func(source.ErrorList) source.ErrorList) {
	decimals := make([]*lang.Info, 0, 2*len(all))
	for i, c := range all {
		all[i] = code{} // once lowered, the piece as read is garbage
		var condInfo *lang.Info
		if c.cond != nil {
			info, errs := lang.CheckCond(env(c), ck.fset, c.cond)
			ck.errs = append(ck.errs, keep(errs)...)
			vet(ck.diag, ck.jexl, c.cond, info, true)
			decimals = append(decimals, decimalFacts(info))
			condInfo = info
		}
		info, errs := lang.CheckBlock(env(c), ck.fset, c.body)
		ck.errs = append(ck.errs, keep(errs)...)
		vet(ck.diag, ck.jexl, c.body, info, false)
		decimals = append(decimals, decimalFacts(info))
		if len(errs) == 0 {
			ck.checkArgs(c.body)
		}
		if len(ck.errs) == 0 {
			ck.lowerPiece(c, condInfo, info)
		}
	}
	ck.errs = append(ck.errs, lang.CheckDecimals(ck.fset, append(slices.Clip(ck.dataInfos), decimals...))...)
	ck.checkIDs()
	if len(ck.errs) == 0 {
		ck.lowerVars()
	}
}

// decimalFacts returns what of info the rule for decimals
// (lang.CheckDecimals) takes in, without the types of every expression.
func decimalFacts(info *lang.Info) *lang.Info {
	return &lang.Info{Inexact: info.Inexact, DecimalArith: info.DecimalArith}
}

// paramLookup returns the parameter types code on t may read: those of the
// events t's descriptors match, or, for eventless and entry/exit code, of
// any event (it runs after whichever event started the macrostep).
func (ck *checker) paramLookup(t *model.Transition) func(string) (ast.Type, bool) {
	if t != nil && t == t.Source.Initial {
		return nil
	}
	return func(name string) (ast.Type, bool) {
		named := false
		for _, ev := range ck.m.Events {
			if t != nil && !t.Eventless() && !t.Matches(ev.Name) {
				continue
			}
			if p, ok := ev.Param(name); ok {
				return p.Type, true
			}
			named = named || len(ev.Params) > 0
		}
		if name == ast.DataParam && !named {
			// _event.data of events that carry no data is undefined.
			return ast.UndefType, true
		}
		return ast.Type{}, false
	}
}

// collectEvents registers every event the model names and decides its
// kinds (docs/architecture.md §Inputs).
func (ck *checker) collectEvents(all []code) {
	ck.codeEvents(all)
	ck.platformEvents()
	generated := model.Internal | model.Self | model.Timer | model.Invoked
	named := ck.transitionEvents()
	for _, ev := range ck.m.Events {
		if ev.Kinds&generated == 0 && (named[ev.Name] || ev.Declared) {
			ev.Kinds |= model.Input
		}
	}
	sort.Slice(ck.m.Events, func(i, j int) bool { return ck.m.Events[i].Name < ck.m.Events[j].Name })
}

// ensureEvent returns the model's event called name, adding it, first
// named at pos, if the model has none.
func (ck *checker) ensureEvent(name string, pos source.Pos) *model.Event {
	ev := ck.m.EventByName(name)
	if ev == nil {
		ev = &model.Event{Name: name, Pos: pos}
		ck.m.AddEvent(ev)
	}
	return ev
}

// codeEvents registers the events the code raises and sends, with their
// kinds: raised events are internal, sent ones outputs, timers or sent
// to the machine itself.
func (ck *checker) codeEvents(all []code) {
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.Raise:
				ck.ensureEvent(s.Event, s.RaisePos).Kinds |= model.Internal
			case *ast.Send:
				if s.Event == parser.ForwardEvent {
					return true // expandForwards
				}
				ev := ck.ensureEvent(s.Event, s.SendPos)
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
func (ck *checker) platformEvents() {
	for _, s := range ck.m.States() {
		for _, t := range s.Transitions {
			if t.CondFails {
				ck.ensureEvent(model.ErrorExecution, t.Pos).Kinds |= model.Internal
			}
		}
		for _, inv := range s.Invokes {
			if inv.OK != nil {
				ck.ensureEvent(model.ErrorExecution, inv.Pos).Kinds |= model.Internal
			}
		}
		if s.Kind != model.Final || s.Parent.Kind == model.Root {
			continue
		}
		ck.ensureEvent("done.state."+s.Parent.ID, s.Pos).Kinds |= model.Internal
		if gp := s.Parent.Parent; gp != nil && gp.Kind == model.Parallel {
			ck.ensureEvent("done.state."+gp.ID, gp.Pos).Kinds |= model.Internal
		}
	}
}

// transitionEvents registers the events the transitions' descriptors
// name, and returns their names.
func (ck *checker) transitionEvents() map[string]bool {
	named := make(map[string]bool)
	// A descriptor names an event of its own only when it matches no event
	// the model declares or generates: "grp.*" with grp.on and grp.off
	// declared is a family, not an event called grp.
	known := append([]*model.Event(nil), ck.m.Events...)
	for _, s := range ck.m.States() {
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
				if family && ck.m.EventByName(name) == nil {
					continue
				}
				ck.ensureEvent(name, t.Pos)
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
func (ck *checker) undefinedData(all []code) {
	content, bare := make(map[string]bool), make(map[string][]*[]*ast.Arg)
	for _, c := range all {
		ast.Inspect(c.body, func(n ast.Node) bool {
			var args *[]*ast.Arg
			switch s := n.(type) {
			case *ast.Raise:
				args = &s.Args
			case *ast.Send:
				args = &s.Args
			default:
				return true
			}
			name, _, _ := raiseOrSend(n)
			if ev := ck.m.EventByName(name); ev == nil || ev.Declared {
				return true
			}
			switch {
			case len(*args) == 0:
				bare[name] = append(bare[name], args)
			case len(*args) == 1 && (*args)[0].Name == ast.DataParam:
				content[name] = true
			}
			return true
		})
	}
	for name, list := range bare {
		if !content[name] {
			continue
		}
		for _, args := range list {
			*args = []*ast.Arg{{Name: ast.DataParam, Value: &ast.Absent{}}}
		}
	}
}

// anyNode reports whether f holds for a node of the tree n. The phases
// that infer types check a piece of code only where it holds a node they
// look at: checking is most of what reading costs, and most pieces have
// nothing for most phases.
func anyNode(n ast.Node, f func(ast.Node) bool) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		found = found || x != nil && f(x)
		return !found
	})
	return found
}

// infersParams reports whether body raises or sends an event that is
// neither declared nor inferred yet: whether inferParams may learn from it.
func (ck *checker) infersParams(body *ast.Block, inferred map[string]bool) bool {
	return anyNode(body, func(n ast.Node) bool {
		name, _, _ := raiseOrSend(n)
		if name == "" {
			return false
		}
		ev := ck.m.EventByName(name)
		return !ev.Declared && !inferred[name]
	})
}

// inferParams records the parameter types of undeclared events from the
// raises and sends in body that pass arguments to an event not inferred
// yet; it reports whether it learnt anything.
func (ck *checker) inferParams(body *ast.Block, info *lang.Info, inferred map[string]bool) bool {
	learnt := false
	ast.Inspect(body, func(n ast.Node) bool {
		name, args, _ := raiseOrSend(n)
		if name == "" {
			return true
		}
		ev := ck.m.EventByName(name)
		if ev.Declared || inferred[name] {
			return true
		}
		inferred[name] = true
		learnt = true
		for _, a := range args {
			t := info.Types[a.Value]
			if !t.IsComposite() {
				// A value that may be undefined makes a parameter that may
				// be: <content expr="x"> of an undefined x gives the event
				// undefined data (SCXML §5.10's _event.data).
				t = ast.Type{Kind: t.Kind, Kinds: t.Kinds, Absent: t.MayBeAbsent()}
			}
			ev.Params = append(ev.Params, model.Param{Name: a.Name, Type: t})
		}
		sort.Slice(ev.Params, func(i, j int) bool { return ev.Params[i].Name < ev.Params[j].Name })
		return true
	})
	return learnt
}

// widenParams gives a parameter of an inferred event (inferParams) that
// the raises and sends pass values of several scalar kinds the type of
// all of them (lang.Mixed): the first raise or send gave it its type, and
// a variable may widen after. It reports whether it widened any.
func (ck *checker) widenParams(all []code, env func(code) *lang.Env, inferred map[string]bool) bool {
	passes := func(n ast.Node) bool {
		name, args, _ := raiseOrSend(n)
		return len(args) > 0 && inferred[name] && !ck.m.EventByName(name).Declared
	}
	widened := false
	for _, c := range all {
		if !anyNode(c.body, passes) {
			continue
		}
		info, _ := lang.CheckBlock(env(c), ck.fset, c.body)
		ast.Inspect(c.body, func(n ast.Node) bool {
			if !passes(n) {
				return true
			}
			name, args, _ := raiseOrSend(n)
			ev := ck.m.EventByName(name)
			for _, a := range args {
				t := info.Types[a.Value]
				absent := t.MayBeAbsent()
				t.Absent = false
				for i, p := range ev.Params {
					if p.Name != a.Name {
						continue
					}
					if t.Kind == ast.Undef {
						// undefined alone: the parameter may be undefined
						if !p.Type.MayBeAbsent() && !p.Type.IsComposite() {
							ev.Params[i].Type.Absent, widened = true, true
						}
						continue
					}
					if p.Type.Kind == ast.Undef && !t.IsComposite() {
						// undefined first (a <data> not yet assigned), a value here
						ev.Params[i].Type = ast.Type{Kind: t.Kind, Kinds: t.Kinds, Absent: true}
						widened = true
						continue
					}
					if absent && !p.Type.MayBeAbsent() && !t.IsComposite() {
						ev.Params[i].Type.Absent = true
						p.Type.Absent, widened = true, true
					}
					if lang.Assignable(p.Type, t) == "" {
						continue
					}
					if w, ok := ast.Widen(p.Type, t); ok {
						w.Absent = p.Type.Absent
						ev.Params[i].Type = w
						widened = true
					}
				}
			}
			return true
		})
	}
	return widened
}

// checkArgs checks that every raise or send passes all the event's
// parameters (the type checker has already refused unknown names and wrong
// types, since it knows every declared or inferred event).
func (ck *checker) checkArgs(body *ast.Block) {
	ast.Inspect(body, func(n ast.Node) bool {
		name, args, pos := raiseOrSend(n)
		if name == "" {
			return true
		}
		ev := ck.m.EventByName(name)
		given := make(map[string]bool)
		for _, a := range args {
			given[a.Name] = true
		}
		for _, p := range ev.Params {
			if !given[p.Name] {
				ck.errs.Add(ck.fset.Position(pos), "%s of %q does not pass parameter %q", kindWord(n), name, p.Name)
			}
		}
		return true
	})
}

func raiseOrSend(n ast.Node) (string, []*ast.Arg, source.Pos) {
	switch s := n.(type) {
	case *ast.Raise:
		return s.Event, s.Args, s.RaisePos
	case *ast.Send:
		return s.Event, s.Args, s.SendPos
	}
	return "", nil, source.NoPos
}

func kindWord(n ast.Node) string {
	if _, ok := n.(*ast.Raise); ok {
		return "raise"
	}
	return "send"
}

// checkIDs reports transitions whose identities collide (an explicit
// setbot:id equal to another transition's identity).
func (ck *checker) checkIDs() {
	seen := make(map[string]*model.Transition)
	for _, s := range ck.m.States() {
		for _, t := range s.Transitions {
			if prev, dup := seen[t.ID]; dup {
				ck.errs.Add(ck.fset.Position(t.Pos), "transition identity %q is also used at %s; give one a different setbot:id",
					t.ID, ck.fset.Position(prev.Pos))
				continue
			}
			seen[t.ID] = t
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
func (ck *checker) failNonArrays(all []code) bool {
	changed := false
	vars := varTypes(ck.m)
	for _, c := range all {
		stmts, ok := ck.source[c.body]
		if !ok || !anyNode(c.body, func(n ast.Node) bool { _, ok := n.(*ast.ForEach); return ok }) {
			continue
		}
		env := &lang.Env{Vars: vars, Param: ck.paramLookup(c.trans), State: func(string) bool { return true }}
		info, _ := lang.CheckBlock(env, ck.fset, c.body)
		bad := make(map[source.Pos]*ast.Raise)
		ast.Inspect(c.body, func(n ast.Node) bool {
			if f, ok := n.(*ast.ForEach); ok && bad[f.ForPos] == nil {
				if t := info.Types[f.Array]; t.Kind != ast.Invalid && t.Kind != ast.Undef && t.Kind != ast.Array {
					bad[f.ForPos] = ck.low.fail(ck.file.Offset(f.Array.Pos()), fmt.Sprintf("<foreach> array %q is %s, not an array", printer.ExprString(f.Array), t))
				}
			}
			return true
		})
		if len(bad) == 0 {
			continue
		}
		stmts = replaceForEach(stmts, bad)
		blk := &ast.Block{Lbrace: c.body.Lbrace, Stmts: ck.low.lowerBlock(stmts)}
		ck.source[blk] = stmts
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
