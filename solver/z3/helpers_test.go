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

// gen builds random terms over a few int and bool variables.
type gen struct {
	tab   *solver.Table
	rnd   *rand.Rand
	ints  []solver.Term
	bools []solver.Term
}

func newGen(tab *solver.Table, seed int64, nInt, nBool int) *gen {
	g := &gen{tab: tab, rnd: rand.New(rand.NewSource(seed))}
	for i := 0; i < nInt; i++ {
		g.ints = append(g.ints, tab.Var(fmt.Sprintf("x%d", i), solver.IntSort))
	}
	for i := 0; i < nBool; i++ {
		g.bools = append(g.bools, tab.Var(fmt.Sprintf("b%d", i), solver.BoolSort))
	}
	return g
}

var intOps = []solver.Op{solver.OpNeg, solver.OpAdd, solver.OpSub, solver.OpMul, solver.OpDiv, solver.OpRem, solver.OpIte}
var boolOps = []solver.Op{solver.OpEq, solver.OpLt, solver.OpLe, solver.OpNot, solver.OpAnd, solver.OpOr, solver.OpIte}

// int returns a random integer term of the given depth.
func (g *gen) int(depth int) solver.Term {
	if depth == 0 || g.rnd.Intn(4) == 0 {
		if g.rnd.Intn(3) == 0 {
			return g.tab.Int(int64(g.rnd.Intn(11) - 5))
		}
		return g.ints[g.rnd.Intn(len(g.ints))]
	}
	return g.intOp(intOps[g.rnd.Intn(len(intOps))], depth)
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
	}
	panic("bad op")
}

// bool returns a random boolean term of the given depth.
func (g *gen) bool(depth int) solver.Term {
	if depth == 0 || g.rnd.Intn(4) == 0 {
		if len(g.bools) > 0 && g.rnd.Intn(2) == 0 {
			return g.bools[g.rnd.Intn(len(g.bools))]
		}
		return g.tab.Lt(g.ints[g.rnd.Intn(len(g.ints))], g.tab.Int(int64(g.rnd.Intn(11)-5)))
	}
	return g.boolOp(boolOps[g.rnd.Intn(len(boolOps))], depth)
}

func (g *gen) boolOp(op solver.Op, depth int) solver.Term {
	t := g.tab
	switch op {
	case solver.OpEq:
		if g.rnd.Intn(2) == 0 {
			return t.Eq(g.bool(depth-1), g.bool(depth-1))
		}
		return t.Eq(g.int(depth-1), g.int(depth-1))
	case solver.OpLt:
		return t.Lt(g.int(depth-1), g.int(depth-1))
	case solver.OpLe:
		return t.Le(g.int(depth-1), g.int(depth-1))
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

func (g *gen) valuation(span int) valuation {
	v := valuation{}
	for _, x := range g.ints {
		v[x] = solver.Value{Sort: solver.IntSort, Int: int64(g.rnd.Intn(2*span+1) - span)}
	}
	for _, x := range g.bools {
		v[x] = solver.Value{Sort: solver.BoolSort, Bool: g.rnd.Intn(2) == 0}
	}
	return v
}

// pins returns the equalities that fix the variables to v.
func pins(tab *solver.Table, v valuation) []solver.Term {
	var out []solver.Term
	for x, val := range v {
		if val.Sort == solver.IntSort {
			out = append(out, tab.Eq(x, tab.Int(val.Int)))
		} else {
			out = append(out, tab.Eq(x, tab.Bool(val.Bool)))
		}
	}
	return out
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
