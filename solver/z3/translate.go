package z3

import (
	"fmt"

	"github.com/setbot/setbot/solver"
)

var opName = map[solver.Op]string{
	solver.OpInt: "int", solver.OpBool: "bool", solver.OpVar: "var",
	solver.OpNeg: "-", solver.OpAdd: "+", solver.OpSub: "-", solver.OpMul: "*",
	solver.OpDiv: "/", solver.OpRem: "%", solver.OpEq: "==", solver.OpLt: "<",
	solver.OpLe: "<=", solver.OpNot: "!", solver.OpAnd: "&&", solver.OpOr: "||",
	solver.OpIte: "?:", solver.OpStr: "string", solver.OpConcat: "concat",
	solver.OpLength: "length", solver.OpIndexOf: "indexOf", solver.OpLastIndexOf: "lastIndexOf", solver.OpStartsWith: "startsWith",
	solver.OpEndsWith: "endsWith", solver.OpIncludes: "includes", solver.OpSubstring: "substring",
	solver.OpCharAt: "charAt", solver.OpBitAnd: "&", solver.OpBitOr: "|", solver.OpBitXor: "^",
	solver.OpBitNot: "~", solver.OpShl: "<<", solver.OpShr: ">>", solver.OpUShr: ">>>",
	solver.OpIsInt: "Number.isInteger", solver.OpFloor: "Math.floor", solver.OpDigits: "String", solver.OpNumeral: "str.to_int",
}

// translate returns x as a Z3 term, memoised: the result holds the
// reference owned by s.memo.
func (s *Solver) translate(x solver.Term) (ast, error) {
	if a, ok := s.memo[x]; ok {
		return a, nil
	}
	mark := len(s.temps)
	a, err := s.build(x)
	// Once the result holds its own reference, the intermediate terms
	// built for it can go.
	if err == nil {
		s.ctx.incRef(a)
		s.memo[x] = a
		s.noteDefs(x)
	}
	s.releaseTemps(mark)
	return a, err
}

// hold keeps an intermediate term alive until its translate returns.
func (s *Solver) hold(a ast, err error) (ast, error) {
	if err != nil {
		return nil, err
	}
	s.ctx.incRef(a)
	s.temps = append(s.temps, a)
	return a, nil
}

func (s *Solver) releaseTemps(mark int) {
	for _, a := range s.temps[mark:] {
		s.ctx.decRef(a)
	}
	s.temps = s.temps[:mark]
}

// mk builds an intermediate term, held until its translate returns.
func (s *Solver) mk(k kind, args ...ast) (ast, error) {
	return s.hold(s.ctx.mk(k, args...))
}

// build translates the node x, whose operands are translated first.
func (s *Solver) build(x solver.Term) (ast, error) {
	tab := s.tab
	if x <= 0 || int(x) > tab.Len() {
		return nil, fmt.Errorf("z3: invalid term %d", x)
	}
	if a, ok, err := s.buildReal(x); ok {
		return a, err
	}
	switch tab.Op(x) {
	case solver.OpInt, solver.OpBool, solver.OpStr, solver.OpVar:
		return s.buildLeaf(x)
	}
	if err := s.checkSorts(x); err != nil {
		return nil, err
	}
	a0, a1, a2 := tab.Args(x)
	var args [3]ast
	for i, t := range []solver.Term{a0, a1, a2} {
		if t == 0 {
			break
		}
		a, err := s.translate(t)
		if err != nil {
			return nil, err
		}
		args[i] = a
	}
	return s.buildOp(x, args)
}

// buildLeaf translates a constant or a variable.
func (s *Solver) buildLeaf(x solver.Term) (ast, error) {
	tab := s.tab
	switch tab.Op(x) {
	case solver.OpInt:
		v, _ := tab.IntValue(x)
		return s.hold(s.ctx.mkInt(v, s.intSort))
	case solver.OpBool:
		v, _ := tab.BoolValue(x)
		return s.hold(s.ctx.mkBool(v))
	case solver.OpStr:
		v, _ := tab.StringValue(x)
		return s.hold(s.ctx.mkString(v))
	}
	switch tab.Sort(x) {
	case solver.IntSort:
		return s.hold(s.ctx.mkVar(tab.Name(x), s.intSort))
	case solver.BoolSort:
		return s.hold(s.ctx.mkVar(tab.Name(x), s.boolSort))
	case solver.StringSort:
		return s.hold(s.ctx.mkVar(tab.Name(x), s.strSort))
	}
	return nil, fmt.Errorf("z3: variable %s has invalid sort", tab.Name(x))
}

// direct maps the operators that translate to one Z3 operator on the
// operands in order to that operator and its number of operands.
var direct = map[solver.Op]struct {
	k     kind
	arity int
}{
	solver.OpNeg: {kNeg, 1}, solver.OpAdd: {kAdd, 2}, solver.OpSub: {kSub, 2}, solver.OpMul: {kMul, 2},
	solver.OpEq: {kEq, 2}, solver.OpNot: {kNot, 1}, solver.OpAnd: {kAnd, 2}, solver.OpOr: {kOr, 2},
	solver.OpIte: {kIte, 3}, solver.OpConcat: {kConcat, 2}, solver.OpLength: {kLength, 1},
	solver.OpIsInt: {kIsInt, 1}, solver.OpFloor: {kFloor, 1}, solver.OpDigits: {kDigits, 1},
	solver.OpNumeral: {kNumeral, 1}, solver.OpIncludes: {kContains, 2},
	solver.OpCharAt: {kAt, 2}, // "" out of range, as charAt
}

// buildOp translates the operator of x applied to its translated operands.
func (s *Solver) buildOp(x solver.Term, args [3]ast) (ast, error) {
	tab := s.tab
	op := tab.Op(x)
	a0, a1, _ := tab.Args(x)
	a, b, c := args[0], args[1], args[2]
	if d, ok := direct[op]; ok {
		return s.mk(d.k, args[:d.arity]...)
	}
	switch op {
	case solver.OpDiv:
		if tab.Sort(x) == solver.RealSort {
			return s.realDiv(a, b, a1)
		}
		return s.divRem(true, a, b, a1)
	case solver.OpRem:
		return s.divRem(false, a, b, a1)
	case solver.OpLt:
		if tab.Sort(a0) == solver.StringSort {
			return s.mk(kStrLt, a, b)
		}
		return s.mk(kLt, a, b)
	case solver.OpLe:
		if tab.Sort(a0) == solver.StringSort {
			return s.mk(kStrLe, a, b)
		}
		return s.mk(kLe, a, b)
	case solver.OpIndexOf:
		// SMT-LIB's str.indexof(a, b, 0) is indexOf, also for an empty b
		// (z3_api.h says -1 when a is empty too; Z3 follows the standard).
		return s.mk(kIndex, a, b, s.zero)
	case solver.OpStartsWith:
		return s.mk(kPrefix, b, a)
	case solver.OpEndsWith:
		return s.mk(kSuffix, b, a)
	case solver.OpSubstring:
		return s.substring(a, b, c)
	case solver.OpLastIndexOf:
		return s.lastIndexOf(x, a, b)
	case solver.OpBitAnd, solver.OpBitOr, solver.OpBitXor, solver.OpBitNot, solver.OpShl, solver.OpShr, solver.OpUShr:
		return s.bitOp(op, a, b)
	}
	return nil, fmt.Errorf("z3: term %d has invalid operator %d", x, op)
}

// checkSorts reports operands of the wrong sort (the Table does not check).
func (s *Solver) checkSorts(x solver.Term) error {
	tab := s.tab
	a, b, c := tab.Args(x)
	op := tab.Op(x)
	want := func(ts []solver.Term, sorts ...solver.Sort) error {
		for i, t := range ts {
			if t <= 0 || int(t) > tab.Len() {
				return fmt.Errorf("z3: operator %s has invalid operand %d", opName[op], t)
			}
			if got := tab.Sort(t); got != sorts[i] {
				return fmt.Errorf("z3: operator %s: operand %d is %s, want %s", opName[op], i+1, got, sorts[i])
			}
		}
		return nil
	}
	I, B, S, R := solver.IntSort, solver.BoolSort, solver.StringSort, solver.RealSort
	valid := func(t solver.Term) bool { return int(t) > 0 && int(t) <= tab.Len() }
	isReal := tab.Sort(x) == R || op == solver.OpLt || op == solver.OpLe
	if isReal && valid(a) && tab.Sort(a) == R {
		switch op {
		case solver.OpNeg:
			return want([]solver.Term{a}, R)
		case solver.OpAdd, solver.OpSub, solver.OpMul, solver.OpDiv, solver.OpLt, solver.OpLe:
			return want([]solver.Term{a, b}, R, R)
		}
	}
	switch op {
	case solver.OpLt, solver.OpLe:
		if valid(a) && tab.Sort(a) == S {
			return want([]solver.Term{a, b}, S, S)
		}
		return want([]solver.Term{a, b}, I, I)
	case solver.OpEq:
		if valid(a) {
			s := tab.Sort(a)
			return want([]solver.Term{a, b}, s, s)
		}
		return want([]solver.Term{a, b}, I, I)
	case solver.OpIte:
		if valid(b) {
			s := tab.Sort(b)
			if s != tab.Sort(x) {
				return fmt.Errorf("z3: operator ?: has sort %s but branch of sort %s", tab.Sort(x), s)
			}
			return want([]solver.Term{a, b, c}, B, s, s)
		}
		return want([]solver.Term{a, b, c}, B, I, I)
	}
	if sorts, ok := operandSorts[op]; ok {
		return want([]solver.Term{a, b, c}[:len(sorts)], sorts...)
	}
	return nil
}

// operandSorts are the sorts of the operands of the operators whose
// operands' sorts are fixed (checkSorts checks the others).
var operandSorts = func() map[solver.Op][]solver.Sort {
	I, B, S, R := solver.IntSort, solver.BoolSort, solver.StringSort, solver.RealSort
	return map[solver.Op][]solver.Sort{
		solver.OpNeg: {I}, solver.OpBitNot: {I},
		solver.OpAdd: {I, I}, solver.OpSub: {I, I}, solver.OpMul: {I, I}, solver.OpDiv: {I, I}, solver.OpRem: {I, I},
		solver.OpBitAnd: {I, I}, solver.OpBitOr: {I, I}, solver.OpBitXor: {I, I},
		solver.OpShl: {I, I}, solver.OpShr: {I, I}, solver.OpUShr: {I, I},
		solver.OpConcat: {S, S}, solver.OpIndexOf: {S, S}, solver.OpLastIndexOf: {S, S}, solver.OpStartsWith: {S, S},
		solver.OpEndsWith: {S, S}, solver.OpIncludes: {S, S},
		solver.OpLength: {S}, solver.OpIsInt: {R}, solver.OpFloor: {R}, solver.OpDigits: {I}, solver.OpNumeral: {S},
		solver.OpSubstring: {S, I, I}, solver.OpCharAt: {S, I},
		solver.OpNot: {B}, solver.OpAnd: {B, B}, solver.OpOr: {B, B},
	}
}()

// divRem encodes C division (div) or remainder (!div) of x by y, whose
// term is yt, with Z3's Euclidean div and mod. For y != 0 these satisfy
// x = y*div(x, y) + mod(x, y) with 0 <= mod(x, y) < |y|, so they agree
// with C when x >= 0, whatever y's sign. By the zero convention, x / 0 = 0
// and x % 0 = x.
func (s *Solver) divRem(div bool, x, y ast, yt solver.Term) (ast, error) {
	b := builder{s: s}
	var r ast
	if c, ok := s.tab.IntValue(yt); ok && c != 0 {
		r = b.divRemConst(div, x, y)
	} else {
		r = b.divRemVar(div, x, y)
	}
	return r, b.err
}

// divRemConst encodes x / y or x % y for a non-zero constant y. C's
// quotient and remainder are odd in the dividend, so
//
//	x / y = x >= 0 ? div(x, y) : -div(-x, y)
//	x % y = x >= 0 ? mod(x, y) : -mod(-x, y)
//
// (measured faster in Z3 than the encoding of divRemVar for constants).
func (b *builder) divRemConst(div bool, x, y ast) ast {
	k := kMod
	if div {
		k = kDiv
	}
	return b.mk(kIte, b.mk(kLe, b.s.zero, x), b.mk(k, x, y), b.mk(kNeg, b.mk(k, b.mk(kNeg, x), y)))
}

// divRemVar encodes x / y or x % y for a symbolic y with a single pair
// div(x, y), mod(x, y) (one division axiom in Z3, measured faster than
// divRemConst's two on nonlinear problems). C agrees with Euclidean
// division when x >= 0 or the division is exact; otherwise (x < 0 and
// mod(x, y) > 0) C's remainder is mod(x, y) - |y| and its quotient is
// div(x, y) + sign(y).
func (b *builder) divRemVar(div bool, x, y ast) ast {
	zero := b.s.zero
	mod := b.mk(kMod, x, y)
	e := mod
	if div {
		e = b.mk(kDiv, x, y)
	}
	adjust := b.mk(kAnd, b.mk(kLt, x, zero), b.mk(kNot, b.mk(kEq, mod, zero)))
	pos := b.mk(kLt, zero, y)
	var fixed, byZero ast
	if div {
		one := b.hold(b.s.ctx.mkInt(1, b.s.intSort))
		fixed = b.mk(kIte, pos, b.mk(kAdd, e, one), b.mk(kSub, e, one))
		byZero = zero
	} else {
		fixed = b.mk(kIte, pos, b.mk(kSub, e, y), b.mk(kAdd, e, y))
		byZero = x
	}
	return b.mk(kIte, b.mk(kEq, y, zero), byZero, b.mk(kIte, adjust, fixed, e))
}

// substring encodes x.substring(i, j): both indexes clamped to [0, n], n
// the length of x, then the part from the lower to the higher one. Z3's
// str.substr(x, lo, hi - lo) is that part for 0 <= lo <= hi <= n.
func (s *Solver) substring(x, i, j ast) (ast, error) {
	b := builder{s: s}
	n := b.mk(kLength, x)
	clamp := func(v ast) ast {
		return b.mk(kIte, b.mk(kLt, v, s.zero), s.zero, b.mk(kIte, b.mk(kLt, n, v), n, v))
	}
	ci, cj := clamp(i), clamp(j)
	ordered := b.mk(kLe, ci, cj)
	lo := b.mk(kIte, ordered, ci, cj)
	hi := b.mk(kIte, ordered, cj, ci)
	r := b.mk(kExtract, x, lo, b.mk(kSub, hi, lo))
	return r, b.err
}

// bitKinds maps the bit operators to their Z3 constructors on 32-bit
// vectors.
var bitKinds = map[solver.Op]kind{solver.OpBitAnd: kBVAnd, solver.OpBitOr: kBVOr, solver.OpBitXor: kBVXor,
	solver.OpBitNot: kBVNot, solver.OpShl: kBVShl, solver.OpShr: kBVAShr, solver.OpUShr: kBVLShr}

// bitOp encodes ECMAScript's bit operator op on x (and y, unless op is ~).
// int2bv takes an integer modulo 2^32, which is ToInt32 and ToUint32 both
// (they differ only in how the 32 bits are read back); a shift count is
// masked to its low 5 bits; the result is read back signed, except for
// >>>'s.
func (s *Solver) bitOp(op solver.Op, x, y ast) (ast, error) {
	b := builder{s: s}
	args := []ast{b.mk(kToBV32, x)}
	switch op {
	case solver.OpBitNot:
	case solver.OpShl, solver.OpShr, solver.OpUShr:
		mask := b.hold(s.ctx.mkInt(31, s.bvSort))
		args = append(args, b.mk(kBVAnd, b.mk(kToBV32, y), mask))
	default:
		args = append(args, b.mk(kToBV32, y))
	}
	back := kSigned
	if op == solver.OpUShr {
		back = kUnsigned
	}
	r := b.mk(back, b.mk(bitKinds[op], args...))
	return r, b.err
}

// builder builds intermediate terms, held until their translate returns,
// and keeps the first error (after which it builds nothing).
type builder struct {
	s   *Solver
	err error
}

func (b *builder) hold(a ast, err error) ast {
	if b.err != nil {
		return nil
	}
	if a, b.err = b.s.hold(a, err); b.err != nil {
		return nil
	}
	return a
}

func (b *builder) mk(k kind, args ...ast) ast {
	if b.err != nil {
		return nil
	}
	return b.hold(b.s.ctx.mk(k, args...))
}
