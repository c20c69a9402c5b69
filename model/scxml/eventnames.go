package scxml

import (
	"maps"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
)

// maxComputedValues caps the values an eventexpr computed from parts
// (a + b, s.replace(...)) may take before setbot gives up listing them.
const maxComputedValues = 64

// eventNames returns every name _event.name can hold, as far as the model
// tells it before its events are collected (collectEvents): the events it
// declares, the events its descriptors name, the events its raises and
// sends name (an eventexpr's values where the model tells them without
// _event.name), and the platform's error and done.state events. An event
// no transition matches starts no code, so that a name missing here is
// never read. Nil where invoked sessions send the machine events of their
// own.
func (b *builder) eventNames(vs *values) []string {
	if len(b.m.Invokes()) > 0 {
		return nil
	}
	set := map[string]bool{model.ErrorExecution: true, model.ErrorCommunication: true, "error.platform": true}
	for _, ev := range b.m.Events {
		set[ev.Name] = true
	}
	for _, s := range b.m.States() {
		set["done.state."+s.ID] = true
		for _, t := range s.Transitions {
			for _, d := range t.Events {
				if name := strings.TrimSuffix(strings.TrimSuffix(d, ".*"), "."); name != "*" && name != "" {
					set[name] = true
				}
			}
		}
	}
	vs.names = nil
	for _, blk := range b.deferred {
		ast.Inspect(blk, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.Raise:
				set[s.Event] = true
			case *ast.Send:
				if d := b.dynSends[s]; d == nil {
					set[s.Event] = true
				} else if d.eventExpr == nil {
					set[d.event] = true
				} else if vals, _, ok := vs.of(d.eventExpr); ok {
					for _, v := range vals {
						set[v] = true
					}
				}
			}
			return true
		})
	}
	return slices.Sorted(maps.Keys(set))
}

// computed adds to set the string values of x, a + b of strings or a
// string method that gives a string, where the values of its parts are
// known and its arguments literals (at most maxComputedValues of them).
func (vs *values) computed(x ast.Expr, set map[string]bool, seen map[string]bool) bool {
	// A part that reads a variable whose values are being collected (x = x
	// + 'b') may take values not collected yet, without end.
	part := func(e ast.Expr) ([]string, bool) {
		s, undef, cycle := make(map[string]bool), false, vs.cycle
		vs.cycle = false
		ok := vs.into(e, s, &undef, seen)
		ok = ok && !vs.cycle && !undef && len(s) <= maxComputedValues
		vs.cycle = vs.cycle || cycle
		return slices.Sorted(maps.Keys(s)), ok
	}
	switch x := x.(type) {
	case *ast.Binary:
		if x.Op != ast.ADD {
			return false
		}
		l, ok1 := part(x.X)
		r, ok2 := part(x.Y)
		if !ok1 || !ok2 || len(l)*len(r) > maxComputedValues {
			return false
		}
		for _, a := range l {
			for _, c := range r {
				set[a+c] = true
			}
		}
		return true
	case *ast.Method:
		recv, ok := part(x.X)
		if !ok || !x.Call {
			return false
		}
		for _, v := range recv {
			m := *x
			m.X = &ast.StrLit{ValuePos: x.X.Pos(), Value: v}
			r, ok := lang.FoldString(&m)
			if !ok {
				return false
			}
			set[r] = true
		}
		return true
	}
	return false
}

// reactsTo returns a value of an eventexpr computed from _event.name that
// eventNames did not list and that a transition of the model matches: an
// event setbot cannot tell all the names of, which it refuses.
func (b *builder) reactsTo(vals, all []string) string {
	for _, v := range vals {
		if slices.Contains(all, v) {
			continue
		}
		for _, s := range b.m.States() {
			for _, t := range s.Transitions {
				if !t.Eventless() && t.Matches(v) {
					return v
				}
			}
		}
	}
	return ""
}
