package z3

import (
	"fmt"
	"slices"

	"github.com/setbot/setbot/solver"
)

// Some operators are translated to a fresh Z3 constant and an axiom that
// defines it, a definition: lastIndexOf, which Z3 4.8's seq.last_indexof
// leaves unconstrained (its string solver has no axioms for it). The
// axiom determines the constant from the operands, so asserting it adds
// nothing but the operator's meaning; it is asserted in the scope of every
// conjunct whose translation holds the constant, and so it leaves with
// that scope.

// noteDefs records the definitions the translation of x needs: those of
// its operands, and its own.
func (s *Solver) noteDefs(x solver.Term) {
	var need []int
	a, b, c := s.tab.Args(x)
	for _, t := range []solver.Term{a, b, c} {
		for _, d := range s.defs[t] {
			if !slices.Contains(need, d) {
				need = append(need, d)
			}
		}
	}
	if d, ok := s.own[x]; ok {
		need = append(need, d)
	}
	if len(need) > 0 {
		s.defs[x] = need
	}
}

// define keeps the axiom ax, which defines the constant of x's
// translation.
func (s *Solver) define(x solver.Term, ax ast) {
	s.ctx.incRef(ax)
	s.axioms = append(s.axioms, ax)
	s.own[x] = len(s.axioms) - 1
}

// assertDefs asserts the definitions the translation of x needs.
func (s *Solver) assertDefs(x solver.Term) error {
	for _, d := range s.defs[x] {
		if err := s.ctx.assert(s.slv, s.axioms[d]); err != nil {
			return err
		}
	}
	return nil
}

// releaseDefs drops the definitions, with the memo that refers to them.
func (s *Solver) releaseDefs() {
	for _, a := range s.axioms {
		s.ctx.decRef(a)
	}
	s.axioms, s.own, s.defs = s.axioms[:0], nil, nil
}

// lastIndexOf translates x, a.lastIndexOf(b), to a fresh constant k
// defined, without quantifiers, by
//
//	!contains(a, b)                 => k == -1
//	contains(a, b) && b == ""       => k == a.length
//	contains(a, b) && b != ""       => a == pre + b + post && k == pre.length &&
//	                                   !contains(b.substring(1) + post, b)
//
// with fresh strings pre and post: b occurs at k, and at no later index,
// since an occurrence after k would lie in a after its index k, which is
// b.substring(1) + post. Each case determines k, as ECMAScript's
// lastIndexOf does. The axiom adds a consequence, a.indexOf(b) <= k,
// without which Z3 4.8 leaves a.lastIndexOf(b) < a.indexOf(b) unknown.
// The constants are named after x, so a translation made again after the
// memo is dropped is the same constant.
func (s *Solver) lastIndexOf(x solver.Term, a, b ast) (ast, error) {
	bl := builder{s: s}
	name := fmt.Sprintf("lastIndexOf!%d", x)
	k := bl.hold(s.ctx.mkVar(name, s.intSort))
	pre := bl.hold(s.ctx.mkVar(name+"!pre", s.strSort))
	post := bl.hold(s.ctx.mkVar(name+"!post", s.strSort))
	one := bl.hold(s.ctx.mkInt(1, s.intSort))
	empty := bl.hold(s.ctx.mkString(""))
	found := bl.mk(kContains, a, b)
	notFound := bl.mk(kEq, k, bl.mk(kSub, s.zero, one))
	atEnd := bl.mk(kEq, k, bl.mk(kLength, a))
	tail := bl.mk(kExtract, b, one, bl.mk(kSub, bl.mk(kLength, b), one))
	last := bl.mk(kAnd, bl.mk(kAnd,
		bl.mk(kEq, a, bl.mk(kConcat, bl.mk(kConcat, pre, b), post)),
		bl.mk(kEq, k, bl.mk(kLength, pre))),
		bl.mk(kNot, bl.mk(kContains, bl.mk(kConcat, tail, post), b)))
	ax := bl.mk(kIte, found, bl.mk(kIte, bl.mk(kEq, b, empty), atEnd, last), notFound)
	ax = bl.mk(kAnd, ax, bl.mk(kLe, bl.mk(kIndex, a, b, s.zero), k))
	if bl.err != nil {
		return nil, bl.err
	}
	s.define(x, ax)
	return k, nil
}
