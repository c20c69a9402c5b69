package scxml

import (
	"maps"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/source"
)

// maxComputedValues caps the values an eventexpr computed from parts
// (a + b, s.replace(...)) may take before setbot gives up listing them;
// maxNameRounds caps the rounds of eventNames, each of which computes
// names from those of the last.
const (
	maxComputedValues = 64
	maxNameRounds     = 16
)

// eventNames sets vs.all to every name _event.name can hold, as far as the
// model tells it before its events are collected (collectEvents): the
// events it declares, the events its descriptors name, the events its
// raises and sends name, and the platform's error and done.state events;
// the names its code compares _event.name with (compared, comparedNames);
// then, until none is new, the values of its eventexprs, those computed
// from _event.name included. vs.all is nil (and vs.endless set where the
// names grow without end) where it cannot tell them: in a machine that
// invokes others, whose events setbot does not list.
func (xp *expander) eventNames(vs *values, compared map[string]source.Pos) {
	vs.owner = make(map[*ast.Block]*model.Transition)
	for _, s := range xp.m.States() {
		for _, t := range s.Transitions {
			vs.owner[t.Body] = t
		}
	}
	if len(xp.m.Invokes()) > 0 {
		return
	}
	set := map[string]bool{model.ErrorExecution: true, model.ErrorCommunication: true, "error.platform": true}
	for _, ev := range xp.m.Events {
		set[ev.Name] = true
	}
	for name := range compared {
		set[name] = true
	}
	for _, s := range xp.m.States() {
		set["done.state."+s.ID] = true
		for _, t := range s.Transitions {
			for _, d := range t.Events {
				if name := strings.TrimSuffix(strings.TrimSuffix(d, ".*"), "."); name != "*" && name != "" {
					set[name] = true
				}
			}
		}
	}
	for round := 0; ; round++ {
		vs.all = slices.Sorted(maps.Keys(set))
		n := len(set)
		for _, blk := range xp.ph.blocks {
			vs.block(blk)
			ast.Inspect(blk, func(n ast.Node) bool {
				switch s := n.(type) {
				case *ast.Raise:
					set[s.Event] = true
				case *ast.Send:
					xp.sendNames(s, vs, set)
				}
				return true
			})
		}
		if len(set) == n {
			return
		}
		if round == maxNameRounds {
			vs.all, vs.endless = nil, true
			return
		}
	}
}

// sendNames adds to set the names of the events s may send.
func (xp *expander) sendNames(s *ast.Send, vs *values, set map[string]bool) {
	d := xp.ph.sends[s]
	switch {
	case d == nil:
		set[s.Event] = true
	case d.eventExpr == nil:
		set[d.event] = true
	default:
		if vals, _, ok := vs.of(d.eventExpr); ok {
			for _, v := range vals {
				set[v] = true
			}
		}
	}
}

// block sets the names _event.name may hold in blk: those of vs.all that
// the transition whose code it is takes, or all of them.
func (vs *values) block(blk *ast.Block) {
	vs.names = vs.all
	if t := vs.owner[blk]; t != nil && !t.Eventless() && vs.all != nil {
		vs.names = slices.DeleteFunc(slices.Clone(vs.all), func(n string) bool { return !t.Matches(n) })
	}
}

// computed adds to set the values of x: a + b of strings or numbers, the
// negation of a number, or a string method that gives a string, where the
// values of its parts are known and its arguments literals (at most
// maxComputedValues of them).
func (vs *values) computed(x ast.Expr, set map[value]bool, seen map[string]bool) bool {
	switch x := x.(type) {
	case *ast.Binary:
		if x.Op != ast.ADD {
			return false
		}
		l, ok1 := vs.part(x.X, seen)
		r, ok2 := vs.part(x.Y, seen)
		if !ok1 || !ok2 || len(l)*len(r) > maxComputedValues {
			return false
		}
		for _, a := range l {
			for _, c := range r {
				v, ok := plus(a, c)
				if !ok {
					return false
				}
				set[v] = true
			}
		}
		return true
	case *ast.Unary:
		return vs.negated(x, set, seen)
	case *ast.Method:
		recv, ok := vs.part(x.X, seen)
		if !ok || !x.Call {
			return false
		}
		for _, v := range recv {
			if v.num {
				return false
			}
			m := *x
			m.X = &ast.StrLit{ValuePos: x.X.Pos(), Value: v.str}
			r, ok := lower.FoldString(&m)
			if !ok {
				return false
			}
			set[value{str: r}] = true
		}
		return true
	}
	return false
}

// part returns the values of e, a part of a value computed (computed),
// where they are known, not undefined, and at most maxComputedValues.
func (vs *values) part(e ast.Expr, seen map[string]bool) ([]value, bool) {
	// A part that reads a variable whose values are being collected (x = x
	// + 'b') may take values not collected yet, without end.
	s, undef, cycle := make(map[value]bool), false, vs.cycle
	vs.cycle = false
	ok := vs.into(e, s, &undef, seen)
	ok = ok && !vs.cycle && !undef && len(s) <= maxComputedValues
	vs.cycle = vs.cycle || cycle
	return slices.Collect(maps.Keys(s)), ok
}
