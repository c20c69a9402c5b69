package z3

import (
	"fmt"
	"math/big"
	"math/rand"
	"testing"

	"github.com/setbot/setbot/solver"
)

// newSolver returns a Solver closed at the end of the test.
func newSolver(t testing.TB, tab *solver.Table) *Solver {
	t.Helper()
	s, err := New(tab)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// gen builds random terms over a few int and bool variables and, after
// withStrings, string variables: then its terms also use the string
// operations and the bit operators, and its valuations hold integers
// beyond 32 bits and strings beyond ASCII.
type gen struct {
	tab      *solver.Table
	rnd      *rand.Rand
	ints     []solver.Term
	bools    []solver.Term
	strs     []solver.Term
	intOps   []solver.Op // what int and bool choose from
	boolOps  []solver.Op
	consts   []int64 // integer constants chosen half the time, besides -5..5
	bigShare int     // one integer value in bigShare is big (0: none)
}

func newGen(tab *solver.Table, seed int64, nInt, nBool int) *gen {
	g := &gen{tab: tab, rnd: rand.New(rand.NewSource(seed)), intOps: intOps, boolOps: boolOps}
	for i := 0; i < nInt; i++ {
		g.ints = append(g.ints, tab.Var(fmt.Sprintf("x%d", i), solver.IntSort))
	}
	for i := 0; i < nBool; i++ {
		g.bools = append(g.bools, tab.Var(fmt.Sprintf("b%d", i), solver.BoolSort))
	}
	return g
}

// withStrings adds n string variables, and the operators, constants and
// values that go with them.
func (g *gen) withStrings(n int) *gen {
	for i := 0; i < n; i++ {
		g.strs = append(g.strs, g.tab.Var(fmt.Sprintf("s%d", i), solver.StringSort))
	}
	g.intOps, g.boolOps, g.consts, g.bigShare = extIntOps, extBoolOps, intConstants, 4
	return g
}

var intOps = []solver.Op{solver.OpNeg, solver.OpAdd, solver.OpSub, solver.OpMul, solver.OpDiv, solver.OpRem, solver.OpIte}
var boolOps = []solver.Op{solver.OpEq, solver.OpLt, solver.OpLe, solver.OpNot, solver.OpAnd, solver.OpOr, solver.OpIte}

// The operators of a gen with strings, besides the ones above (no
// multiplication or division: with strings, they only slow Z3 down; no
// lastIndexOf, whose defined constant (defs.go) Z3 4.8 seldom decides
// under a bit operator: the tests that leave out bit operators add it).
var (
	bitOps       = []solver.Op{solver.OpBitAnd, solver.OpBitOr, solver.OpBitXor, solver.OpBitNot, solver.OpShl, solver.OpShr, solver.OpUShr}
	strIntOps    = []solver.Op{solver.OpLength, solver.OpIndexOf}
	strBoolOps   = []solver.Op{solver.OpStartsWith, solver.OpEndsWith, solver.OpIncludes}
	strOps       = []solver.Op{solver.OpConcat, solver.OpSubstring, solver.OpCharAt, solver.OpIte}
	extIntOps    = concat([]solver.Op{solver.OpNeg, solver.OpAdd, solver.OpSub, solver.OpIte}, bitOps, strIntOps)
	extBoolOps   = concat(boolOps, strBoolOps)
	intConstants = []int64{0, 1, -1, 2, 5, 31, 32, 33, -16, 1 << 31, 1<<32 + 5, -(1 << 33)}
	strConstants = []string{"", "a", "ab", "ba", "é", "日本", "a日b", `\u{e9}`, `'"\`, "\x00\x7f"}
	strAlphabet  = []rune{'a', 'b', 'é', '日', '\\', '\''}
	strValueLen  = 4 // longest random string value
	bigValueSpan = int64(1) << 34
)

func concat[T any](lists ...[]T) []T {
	var out []T
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// int returns a random integer term of the given depth.
func (g *gen) int(depth int) solver.Term {
	if depth <= 0 || g.rnd.Intn(4) == 0 {
		if g.rnd.Intn(3) == 0 {
			if len(g.consts) > 0 && g.rnd.Intn(2) == 0 {
				return g.tab.Int(g.consts[g.rnd.Intn(len(g.consts))])
			}
			return g.tab.Int(int64(g.rnd.Intn(11) - 5))
		}
		return g.ints[g.rnd.Intn(len(g.ints))]
	}
	return g.intOp(g.intOps[g.rnd.Intn(len(g.intOps))], depth)
}

// intOp returns a random term with operator op at the root (unless the
// Table folds it).
func (g *gen) intOp(op solver.Op, depth int) solver.Term {
	t := g.tab
	a, b := g.int(depth-1), g.int(depth-1)
	switch op {
	case solver.OpNeg:
		return t.Neg(a)
	case solver.OpAdd:
		return t.Add(a, b)
	case solver.OpSub:
		return t.Sub(a, b)
	case solver.OpMul:
		return t.Mul(a, b)
	case solver.OpDiv:
		return t.Div(a, b)
	case solver.OpRem:
		return t.Rem(a, b)
	case solver.OpIte:
		return t.Ite(g.bool(depth-1), a, b)
	case solver.OpBitAnd:
		return t.BitAnd(a, b)
	case solver.OpBitOr:
		return t.BitOr(a, b)
	case solver.OpBitXor:
		return t.BitXor(a, b)
	case solver.OpBitNot:
		return t.BitNot(a)
	case solver.OpShl:
		return t.Shl(a, b)
	case solver.OpShr:
		return t.Shr(a, b)
	case solver.OpUShr:
		return t.UShr(a, b)
	case solver.OpLength:
		return t.Length(g.str(depth - 1))
	case solver.OpIndexOf:
		return t.IndexOf(g.str(depth-1), g.str(depth-1))
	case solver.OpLastIndexOf:
		return t.LastIndexOf(g.str(depth-1), g.str(depth-1))
	}
	panic("bad op")
}

// str returns a random string term of the given depth.
func (g *gen) str(depth int) solver.Term {
	if depth <= 0 || g.rnd.Intn(4) == 0 {
		if g.rnd.Intn(3) == 0 {
			return g.tab.Str(strConstants[g.rnd.Intn(len(strConstants))])
		}
		return g.strs[g.rnd.Intn(len(g.strs))]
	}
	return g.strOp(strOps[g.rnd.Intn(len(strOps))], depth)
}

// strOp returns a random string term with operator op at the root (unless
// the Table folds it).
func (g *gen) strOp(op solver.Op, depth int) solver.Term {
	t := g.tab
	a := g.str(depth - 1)
	switch op {
	case solver.OpConcat:
		return t.Concat(a, g.str(depth-1))
	case solver.OpSubstring:
		return t.Substring(a, g.int(depth-1), g.int(depth-1))
	case solver.OpCharAt:
		return t.CharAt(a, g.int(depth-1))
	case solver.OpIte:
		return t.Ite(g.bool(depth-1), a, g.str(depth-1))
	}
	panic("bad op")
}

// bool returns a random boolean term of the given depth.
func (g *gen) bool(depth int) solver.Term {
	if depth <= 0 || g.rnd.Intn(4) == 0 {
		if len(g.bools) > 0 && g.rnd.Intn(2) == 0 {
			return g.bools[g.rnd.Intn(len(g.bools))]
		}
		return g.tab.Lt(g.ints[g.rnd.Intn(len(g.ints))], g.tab.Int(int64(g.rnd.Intn(11)-5)))
	}
	return g.boolOp(g.boolOps[g.rnd.Intn(len(g.boolOps))], depth)
}

// strings reports whether a comparison should take strings: half the
// time, with a gen with strings.
func (g *gen) strings() bool { return len(g.strs) > 0 && g.rnd.Intn(2) == 0 }

func (g *gen) boolOp(op solver.Op, depth int) solver.Term {
	t := g.tab
	switch op {
	case solver.OpEq:
		switch {
		case g.strings():
			return t.Eq(g.str(depth-1), g.str(depth-1))
		case g.rnd.Intn(2) == 0:
			return t.Eq(g.bool(depth-1), g.bool(depth-1))
		}
		return t.Eq(g.int(depth-1), g.int(depth-1))
	case solver.OpLt:
		if g.strings() {
			return t.Lt(g.str(depth-1), g.str(depth-1))
		}
		return t.Lt(g.int(depth-1), g.int(depth-1))
	case solver.OpLe:
		if g.strings() {
			return t.Le(g.str(depth-1), g.str(depth-1))
		}
		return t.Le(g.int(depth-1), g.int(depth-1))
	case solver.OpStartsWith:
		return t.StartsWith(g.str(depth-1), g.str(depth-1))
	case solver.OpEndsWith:
		return t.EndsWith(g.str(depth-1), g.str(depth-1))
	case solver.OpIncludes:
		return t.Includes(g.str(depth-1), g.str(depth-1))
	case solver.OpNot:
		return t.Not(g.bool(depth - 1))
	case solver.OpAnd:
		return t.And(g.bool(depth-1), g.bool(depth-1))
	case solver.OpOr:
		return t.Or(g.bool(depth-1), g.bool(depth-1))
	case solver.OpIte:
		return t.Ite(g.bool(depth-1), g.bool(depth-1), g.bool(depth-1))
	}
	panic("bad op")
}

// valuation assigns the variables random small values.
type valuation map[solver.Term]solver.Value

// Some integers are big when g.bigShare says so; the strings are short
// random words over strAlphabet.
func (g *gen) valuation(span int) valuation {
	v := valuation{}
	for _, x := range g.ints {
		n := int64(g.rnd.Intn(2*span+1) - span)
		if g.bigShare > 0 && g.rnd.Intn(g.bigShare) == 0 {
			n = g.rnd.Int63n(2*bigValueSpan+1) - bigValueSpan
		}
		v[x] = solver.Value{Sort: solver.IntSort, Int: n}
	}
	for _, x := range g.bools {
		v[x] = solver.Value{Sort: solver.BoolSort, Bool: g.rnd.Intn(2) == 0}
	}
	for _, x := range g.strs {
		r := make([]rune, g.rnd.Intn(strValueLen+1))
		for i := range r {
			r[i] = strAlphabet[g.rnd.Intn(len(strAlphabet))]
		}
		v[x] = solver.Value{Sort: solver.StringSort, Str: string(r)}
	}
	return v
}

// pins returns the equalities that fix the variables to v.
func pins(tab *solver.Table, v valuation) []solver.Term {
	var out []solver.Term
	for x, val := range v {
		out = append(out, tab.Eq(x, constant(tab, val)))
	}
	return out
}

// constant returns the constant term of value v.
func constant(tab *solver.Table, v solver.Value) solver.Term {
	switch v.Sort {
	case solver.IntSort:
		return tab.Int(v.Int)
	case solver.BoolSort:
		return tab.Bool(v.Bool)
	}
	return tab.Str(v.Str)
}

// evalInt evaluates an integer term exactly, with C division and the zero
// convention of package solver.
func evalInt(tab *solver.Table, x solver.Term, v valuation) *big.Int {
	a, b, c := tab.Args(x)
	switch tab.Op(x) {
	case solver.OpInt:
		n, _ := tab.IntValue(x)
		return big.NewInt(n)
	case solver.OpVar:
		return big.NewInt(v[x].Int)
	case solver.OpNeg:
		return new(big.Int).Neg(evalInt(tab, a, v))
	case solver.OpAdd:
		return new(big.Int).Add(evalInt(tab, a, v), evalInt(tab, b, v))
	case solver.OpSub:
		return new(big.Int).Sub(evalInt(tab, a, v), evalInt(tab, b, v))
	case solver.OpMul:
		return new(big.Int).Mul(evalInt(tab, a, v), evalInt(tab, b, v))
	case solver.OpDiv:
		p, q := evalInt(tab, a, v), evalInt(tab, b, v)
		if q.Sign() == 0 {
			return new(big.Int)
		}
		return new(big.Int).Quo(p, q) // truncated, like C
	case solver.OpRem:
		p, q := evalInt(tab, a, v), evalInt(tab, b, v)
		if q.Sign() == 0 {
			return p
		}
		return new(big.Int).Rem(p, q) // sign of the dividend, like C
	case solver.OpIte:
		if evalBool(tab, a, v) {
			return evalInt(tab, b, v)
		}
		return evalInt(tab, c, v)
	}
	panic(fmt.Sprintf("evalInt: operator %d", tab.Op(x)))
}

// evalBool evaluates a boolean term.
func evalBool(tab *solver.Table, x solver.Term, v valuation) bool {
	a, b, c := tab.Args(x)
	switch tab.Op(x) {
	case solver.OpBool:
		r, _ := tab.BoolValue(x)
		return r
	case solver.OpVar:
		return v[x].Bool
	case solver.OpEq:
		if tab.Sort(a) == solver.BoolSort {
			return evalBool(tab, a, v) == evalBool(tab, b, v)
		}
		return evalInt(tab, a, v).Cmp(evalInt(tab, b, v)) == 0
	case solver.OpLt:
		return evalInt(tab, a, v).Cmp(evalInt(tab, b, v)) < 0
	case solver.OpLe:
		return evalInt(tab, a, v).Cmp(evalInt(tab, b, v)) <= 0
	case solver.OpNot:
		return !evalBool(tab, a, v)
	case solver.OpAnd:
		return evalBool(tab, a, v) && evalBool(tab, b, v)
	case solver.OpOr:
		return evalBool(tab, a, v) || evalBool(tab, b, v)
	case solver.OpIte:
		if evalBool(tab, a, v) {
			return evalBool(tab, b, v)
		}
		return evalBool(tab, c, v)
	}
	panic(fmt.Sprintf("evalBool: operator %d", tab.Op(x)))
}

// linear returns random small linear atoms over vars.
func linearAtom(tab *solver.Table, rnd *rand.Rand, vars []solver.Term) solver.Term {
	n := 1 + rnd.Intn(3)
	var sum solver.Term
	for i := 0; i < n; i++ {
		c := int64(rnd.Intn(9) - 4)
		if c == 0 {
			c = 1
		}
		m := tab.Mul(tab.Int(c), vars[rnd.Intn(len(vars))])
		if sum == 0 {
			sum = m
		} else {
			sum = tab.Add(sum, m)
		}
	}
	k := tab.Int(int64(rnd.Intn(41) - 20))
	switch rnd.Intn(4) {
	case 0:
		return tab.Le(sum, k)
	case 1:
		return tab.Lt(k, sum)
	case 2:
		return tab.Ne(sum, k)
	}
	return tab.Le(k, sum)
}

// conjunction picks 5 to 10 atoms of pool.
func conjunction(rnd *rand.Rand, pool []solver.Term) []solver.Term {
	n := 5 + rnd.Intn(6)
	out := make([]solver.Term, n)
	for i := range out {
		out[i] = pool[rnd.Intn(len(pool))]
	}
	return out
}

// intVars returns n integer variables named prefix0, prefix1, ...
func intVars(tab *solver.Table, prefix string, n int) []solver.Term {
	out := make([]solver.Term, n)
	for i := range out {
		out[i] = tab.Var(fmt.Sprintf("%s%d", prefix, i), solver.IntSort)
	}
	return out
}
