package scxml

import (
	"slices"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"
)

// comparedNames are the event names that the code of m compares
// _event.name with (==, ===, != or !==: a string literal, or an
// expression whose values vs knows, 'taken.' + i) and that a descriptor of
// one of its transitions matches, each with the position of its first
// comparison. The environment can send each of them: where the inputs held
// only a descriptor's own name (taken for taken.*), a transition whose cond
// asks for _event.name == 'taken.0' could not be taken, and setbot would
// call it unreachable although the environment takes it by sending
// taken.0. So each is an input of its own (collectEvents) and a name
// _event.name may hold (eventNames), beside the descriptor's name, which
// stands for the names compared with none.
func comparedNames(m *model.Model, all []code, vs *values) map[string]source.Pos {
	var trans []*model.Transition
	for _, s := range m.States() {
		trans = append(trans, s.Transitions...)
	}
	first := make(map[string]source.Pos)
	note := func(name string, pos source.Pos) {
		if !validEventName(name) || !slices.ContainsFunc(trans, func(t *model.Transition) bool { return t.Matches(name) }) {
			return
		}
		if p, seen := first[name]; !seen || pos < p {
			first[name] = pos
		}
	}
	// The names _event.name may hold are not known yet, and not needed:
	// names computed from _event.name are eventNames' to follow.
	vs.names = nil
	for _, c := range all {
		for _, n := range c.nodes() {
			ast.Inspect(n, func(n ast.Node) bool {
				if e := comparedWithName(n); e != nil {
					// The values it knows, where it knows only some
					// (c ? 'a' : _event.data), are inputs all the same.
					vals, _, _ := vs.of(e)
					for _, v := range vals {
						note(v, e.Pos())
					}
				}
				return true
			})
		}
	}
	return first
}

// comparedWithName returns the operand that n compares _event.name with,
// if n is such a comparison.
func comparedWithName(n ast.Node) ast.Expr {
	b, ok := n.(*ast.Binary)
	if !ok || (b.Op != ast.EQL && b.Op != ast.NEQ && b.Op != ast.SEQL && b.Op != ast.SNEQ) {
		return nil
	}
	if isEventName(b.X) {
		return b.Y
	}
	if isEventName(b.Y) {
		return b.X
	}
	return nil
}

// isEventName reports whether e reads _event.name.
func isEventName(e ast.Expr) bool {
	f, ok := e.(*ast.EventField)
	return ok && f.Field == "name"
}
