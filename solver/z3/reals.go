package z3

/*
#include <stdlib.h>
#include <z3.h>
*/
import "C"

import (
	"errors"
	"fmt"
	"math/big"
	"unsafe"

	"github.com/setbot/setbot/solver"
)

// Reals: the action language's decimals, Z3's real sort. Arithmetic and
// comparisons use the same constructors as for ints (Z3 picks the theory by
// sort; Z3_mk_div on reals is exact division).

func (x *context) realSort() ast {
	return C.Z3_sort_to_ast(x.c, C.Z3_mk_real_sort(x.c))
}

// mkRat returns the rational constant written as big.Rat's RatString
// ("3/2", "-4").
func (x *context) mkRat(v string, realSort ast) (ast, error) {
	cs := C.CString(v)
	defer C.free(unsafe.Pointer(cs))
	return x.result(C.Z3_mk_numeral(x.c, cs, C.Z3_sort(unsafe.Pointer(realSort))), "rational constant")
}

func (x *context) mkToReal(a ast) (ast, error) {
	return x.result(C.Z3_mk_int2real(x.c, a), "int2real")
}

// evalRat returns a's value in m (with model completion), a rational.
func (x *context) evalRat(m model, a ast) (*big.Rat, error) {
	out, err := x.eval(m, a)
	if err != nil {
		return nil, err
	}
	defer C.Z3_dec_ref(x.c, out)
	if !C.Z3_is_numeral_ast(x.c, out) {
		// An irrational algebraic number: the language cannot write one.
		return nil, errors.New("z3: eval: real value is not a rational numeral")
	}
	s := C.GoString(C.Z3_get_numeral_string(x.c, out))
	if err := x.err("numeral"); err != nil {
		return nil, err
	}
	r, ok2 := new(big.Rat).SetString(s)
	if !ok2 {
		return nil, fmt.Errorf("z3: eval: unreadable rational %q", s)
	}
	return r, nil
}

// buildReal translates the real constants and variables and int-to-real
// conversions; ok is false for any other term.
func (s *Solver) buildReal(x solver.Term) (a ast, ok bool, err error) {
	tab := s.tab
	switch tab.Op(x) {
	case solver.OpRat:
		r, _ := tab.RatValue(x)
		a, err = s.hold(s.ctx.mkRat(r.RatString(), s.realSort))
		return a, true, err
	case solver.OpVar:
		if tab.Sort(x) != solver.RealSort {
			return nil, false, nil
		}
		a, err = s.hold(s.ctx.mkVar(tab.Name(x), s.realSort))
		return a, true, err
	case solver.OpToReal:
		i, _, _ := tab.Args(x)
		if i <= 0 || int(i) > tab.Len() || tab.Sort(i) != solver.IntSort {
			return nil, true, fmt.Errorf("z3: operator Number(): operand is not an int")
		}
		ia, err := s.translate(i)
		if err != nil {
			return nil, true, err
		}
		a, err = s.hold(s.ctx.mkToReal(ia))
		return a, true, err
	}
	return nil, false, nil
}

// realDiv encodes x / y on reals with x / 0 = 0, as the solver package
// defines it; yt is y's term.
func (s *Solver) realDiv(x, y ast, yt solver.Term) (ast, error) {
	if c, ok := s.tab.RatValue(yt); ok && c.Sign() != 0 {
		return s.mk(kDiv, x, y)
	}
	b := builder{s: s}
	zero := b.hold(s.ctx.mkRat("0", s.realSort))
	r := b.mk(kIte, b.mk(kEq, y, zero), zero, b.mk(kDiv, x, y))
	return r, b.err
}
