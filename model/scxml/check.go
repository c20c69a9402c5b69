package scxml

import (
	"slices"
	"sort"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/jexl"
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

// checker is the phase of type inference, checking and lowering
// (checkCode). It takes the model with its code read, expanded, inlined
// and declared (declareCode), and from reading what the types need: the
// <data> facts and the dialect.
type checker struct {
	*diag
	dataFacts
	m   *model.Model
	inv invocation
	// jexl is the dialect of a model with datamodel="jexl" (vet).
	jexl *jexl.Dialect
	// grown holds the arrays without a setbot:type that growArrays gave
	// room to grow.
	grown map[string]bool
	// pe guards reads past the end of an array (guardPastEnd), as
	// declareCode did, once arrays have grown; the checker asks it which
	// reads it guarded.
	pe *pastEnd
	// untyped are the input parameters that only the kinds of globals
	// declared without a value may type (typeFromVars).
	untyped []untypedParam
}

func (ck *checker) allCode() []code { return allCode(ck.m, ck.inv) }

// checkCode type-checks all, every guard and action of the model in
// document order (declareCode gives them), inferring the parameters of
// events the model raises or sends without declaring them and the types of
// variables declared without a value. A model without errors is then
// lowered (checkAll).
func (ck *checker) checkCode(all []code) {
	vars := varTypes(ck.m)
	inferred := make(map[string]bool)
	env := func(c code) *lang.Env {
		return &lang.Env{
			Vars:         vars,
			FailingReads: c.trans != nil && c.cond != nil,
			Param:        paramLookup(ck.m, c.trans),
			// A history state is never active: In() of it is false; so is
			// In() of no state at all (unknownStates warns of it).
			State:   func(string) bool { return true },
			InRange: func(x *ast.Index) bool { return ck.pe.inRange[x.Lbrack] },
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
		if ck.hostAssigned(all, vars) {
			progress = true
		}
		if ck.typeFromVars() {
			progress = true
		}
		if ck.growArrays(all, env, vars) {
			progress = true
		}
		if ck.widenObjects(all, env, vars) {
			progress = true
		}
		if !progress && ck.forwardUntyped() {
			progress = true
		}
	}
	// An array that started empty has elements that are arrays or objects
	// only once it grew: their reads past the end are guarded now, and the
	// error.execution the guards raise registered, as collectEvents did for
	// the others.
	if at, ok := ck.pe.guardPastEnd(all); ok {
		all = ck.allCode()
		ensureEvent(ck.m, model.ErrorExecution, at).Kinds |= model.Internal
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
// one piece at a time, not of the whole model. What the rules for
// decimals and for sharing take in is kept (modelFacts). A model with
// errors is not returned, so that the pieces lowered before the first error do not matter; a model
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
			decimals = append(decimals, modelFacts(info))
			condInfo = info
		}
		info, errs := lang.CheckBlock(env(c), ck.fset, c.body)
		ck.errs = append(ck.errs, keep(errs)...)
		vet(ck.diag, ck.jexl, c.body, info, false)
		decimals = append(decimals, modelFacts(info))
		if len(errs) == 0 {
			ck.checkArgs(c.body)
		}
		if len(ck.errs) == 0 {
			ck.lowerPiece(c, condInfo, info)
		}
	}
	ck.errs = append(ck.errs, lang.CheckDecimals(ck.fset, append(slices.Clip(ck.dataInfos), decimals...))...)
	ck.errs = append(ck.errs, lang.CheckShared(ck.fset, append(slices.Clip(ck.dataInfos), decimals...))...)
	ck.checkIDs()
	if len(ck.errs) == 0 {
		ck.lowerVars()
	}
}

// modelFacts returns what of info the rules over the whole model's code
// take in (lang.CheckDecimals, lang.CheckShared), without the types of
// every expression.
func modelFacts(info *lang.Info) *lang.Info {
	return &lang.Info{Inexact: info.Inexact, DecimalArith: info.DecimalArith, Shares: info.Shares, PartWrites: info.PartWrites}
}

// paramLookup returns the parameter types code on t, a transition of m,
// may read: those of the
// events t's descriptors match, or, for eventless and entry/exit code, of
// any event (it runs after whichever event started the macrostep).
func paramLookup(m *model.Model, t *model.Transition) func(string) (ast.Type, bool) {
	if t != nil && t == t.Source.Initial {
		return nil
	}
	return func(name string) (ast.Type, bool) {
		named := false
		for _, ev := range m.Events {
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

// infersParams reports whether body raises or sends an event that is
// neither declared nor inferred yet: whether inferParams may learn from it.
func (ck *checker) infersParams(body *ast.Block, inferred map[string]bool) bool {
	return ast.Any(body, func(n ast.Node) bool {
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
		if !ast.Any(c.body, passes) {
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
