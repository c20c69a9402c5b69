package solver

import (
	"math"
	"math/big"
	"reflect"
	"testing"
)

func TestHashConsing(t *testing.T) {
	tab := NewTable()
	build := func() []Term {
		x := tab.Var("x", IntSort)
		y := tab.Var("y", IntSort)
		b := tab.Var("b", BoolSort)
		return []Term{
			x, y, b, tab.Int(3), tab.Bool(true),
			tab.Add(x, y), tab.Mul(tab.Sub(x, tab.Int(1)), y), tab.Div(x, y), tab.Rem(x, y),
			tab.Neg(x), tab.Lt(x, y), tab.Le(y, x), tab.Eq(x, y), tab.Not(b),
			tab.And(b, tab.Lt(x, y)), tab.Or(b, tab.Eq(x, tab.Int(2))), tab.Ite(b, x, y),
		}
	}
	first := build()
	n := tab.Len()
	second := build()
	if !reflect.DeepEqual(first, second) {
		t.Errorf("same construction gave different terms:\n%v\n%v", first, second)
	}
	if tab.Len() != n {
		t.Errorf("rebuilding created terms: %d, then %d", n, tab.Len())
	}
	seen := map[Term]int{}
	for i, x := range first {
		if x <= 0 {
			t.Errorf("term %d is invalid: %d", i, x)
		}
		if j, ok := seen[x]; ok {
			t.Errorf("terms %d and %d are equal (%s)", j, i, tab.String(x))
		}
		seen[x] = i
	}
	if tab.Var("x", IntSort) == tab.Var("x", BoolSort) {
		t.Error("variables of different sorts are equal")
	}
	if tab.Int(1) == tab.Bool(true) {
		t.Error("1 == true")
	}
}

func TestAccessors(t *testing.T) {
	tab := NewTable()
	x := tab.Var("x", IntSort)
	b := tab.Var("b", BoolSort)
	sum := tab.Add(x, tab.Int(2))
	ite := tab.Ite(b, sum, x)
	if tab.Op(x) != OpVar || tab.Sort(x) != IntSort || tab.Name(x) != "x" {
		t.Errorf("x: op %d sort %v name %q", tab.Op(x), tab.Sort(x), tab.Name(x))
	}
	if tab.Sort(b) != BoolSort || tab.Sort(tab.Lt(x, sum)) != BoolSort || tab.Sort(ite) != IntSort {
		t.Error("wrong sorts")
	}
	if a, c, d := tab.Args(ite); a != b || c != sum || d != x {
		t.Errorf("Args(ite) = %d %d %d", a, c, d)
	}
	if a, c, d := tab.Args(sum); a != x || c != tab.Int(2) || d != 0 {
		t.Errorf("Args(sum) = %d %d %d", a, c, d)
	}
	if v, ok := tab.IntValue(tab.Int(-4)); !ok || v != -4 {
		t.Errorf("IntValue(-4) = %d, %v", v, ok)
	}
	if _, ok := tab.IntValue(x); ok {
		t.Error("IntValue(x) ok")
	}
	if v, ok := tab.BoolValue(tab.Bool(true)); !ok || !v {
		t.Errorf("BoolValue(true) = %v, %v", v, ok)
	}
	if _, ok := tab.BoolValue(tab.Int(1)); ok {
		t.Error("BoolValue(1) ok")
	}
	if !tab.IsConst(tab.Int(0)) || !tab.IsConst(tab.Bool(false)) || tab.IsConst(x) || tab.IsConst(sum) {
		t.Error("IsConst")
	}
	for s, want := range map[Sort]string{IntSort: "int", BoolSort: "bool", 0: "invalid"} {
		if s.String() != want {
			t.Errorf("Sort(%d).String() = %q", s, s.String())
		}
	}
}

// TestFolding checks constant folding and the algebraic simplifications of
// every operator: each case builds a term and the term it must equal
// (hash-consing makes equal terms equal indexes).
func TestFolding(t *testing.T) {
	tab := NewTable()
	x := tab.Var("x", IntSort)
	y := tab.Var("y", IntSort)
	b := tab.Var("b", BoolSort)
	c := tab.Var("c", BoolSort)
	i, T, F := tab.Int, tab.Bool(true), tab.Bool(false)
	const maxI, minI = math.MaxInt64, math.MinInt64
	tests := []struct {
		name      string
		got, want Term
	}{
		{"neg", tab.Neg(i(5)), i(-5)},
		{"neg neg", tab.Neg(tab.Neg(x)), x},
		{"neg max", tab.Neg(i(maxI)), i(-maxI)},
		{"add", tab.Add(i(2), i(3)), i(5)},
		{"add negative", tab.Add(i(-2), i(-3)), i(-5)},
		{"add to max", tab.Add(i(maxI-1), i(1)), i(maxI)},
		{"add to min", tab.Add(i(minI+1), i(-1)), i(minI)},
		{"0+x", tab.Add(i(0), x), x},
		{"x+0", tab.Add(x, i(0)), x},
		{"sub", tab.Sub(i(2), i(5)), i(-3)},
		{"sub to min", tab.Sub(i(-1), i(maxI)), i(minI)},
		{"x-0", tab.Sub(x, i(0)), x},
		{"x-x", tab.Sub(x, x), i(0)},
		{"mul", tab.Mul(i(-4), i(6)), i(-24)},
		{"mul big", tab.Mul(i(1<<31), i(1<<31)), i(1 << 62)},
		{"mul to min", tab.Mul(i(1<<62), i(-2)), i(minI)},
		{"0*x", tab.Mul(i(0), x), i(0)},
		{"x*0", tab.Mul(x, i(0)), i(0)},
		{"1*x", tab.Mul(i(1), x), x},
		{"x*1", tab.Mul(x, i(1)), x},
		{"div", tab.Div(i(7), i(2)), i(3)},
		{"div negative dividend", tab.Div(i(-7), i(2)), i(-3)},
		{"div negative divisor", tab.Div(i(7), i(-2)), i(-3)},
		{"div both negative", tab.Div(i(-7), i(-2)), i(3)},
		{"div min by 2", tab.Div(i(minI), i(2)), i(minI / 2)},
		{"div by zero", tab.Div(i(7), i(0)), i(0)},
		{"x/0", tab.Div(x, i(0)), i(0)},
		{"x/1", tab.Div(x, i(1)), x},
		{"rem", tab.Rem(i(7), i(3)), i(1)},
		{"rem negative dividend", tab.Rem(i(-7), i(3)), i(-1)},
		{"rem negative divisor", tab.Rem(i(7), i(-3)), i(1)},
		{"rem both negative", tab.Rem(i(-7), i(-3)), i(-1)},
		{"rem by zero", tab.Rem(i(7), i(0)), i(7)},
		{"x%0", tab.Rem(x, i(0)), x},
		{"x%1", tab.Rem(x, i(1)), i(0)},
		{"x%-1", tab.Rem(x, i(-1)), i(0)},
		{"min%-1", tab.Rem(i(minI), i(-1)), i(0)},
		{"eq same", tab.Eq(x, x), T},
		{"eq constants", tab.Eq(i(1), i(2)), F},
		{"eq equal constants", tab.Eq(i(2), i(2)), T},
		{"eq bools", tab.Eq(T, F), F},
		{"ne", tab.Ne(x, y), tab.Not(tab.Eq(x, y))},
		{"ne constants", tab.Ne(i(1), i(2)), T},
		{"lt", tab.Lt(i(1), i(2)), T},
		{"lt false", tab.Lt(i(2), i(2)), F},
		{"x<x", tab.Lt(x, x), F},
		{"le", tab.Le(i(2), i(2)), T},
		{"le false", tab.Le(i(3), i(2)), F},
		{"x<=x", tab.Le(x, x), T},
		{"gt", tab.Gt(x, y), tab.Lt(y, x)},
		{"ge", tab.Ge(x, y), tab.Le(y, x)},
		{"not true", tab.Not(T), F},
		{"not false", tab.Not(F), T},
		{"not not", tab.Not(tab.Not(b)), b},
		{"not lt", tab.Not(tab.Lt(x, y)), tab.Le(y, x)},
		{"not le", tab.Not(tab.Le(x, y)), tab.Lt(y, x)},
		{"not not eq", tab.Not(tab.Ne(x, y)), tab.Eq(x, y)},
		{"and true", tab.And(T, b), b},
		{"and true right", tab.And(b, T), b},
		{"and false", tab.And(F, b), F},
		{"and false right", tab.And(b, F), F},
		{"and same", tab.And(b, b), b},
		{"or true", tab.Or(T, b), T},
		{"or true right", tab.Or(b, T), T},
		{"or false", tab.Or(F, b), b},
		{"or false right", tab.Or(b, F), b},
		{"or same", tab.Or(c, c), c},
		{"ite true", tab.Ite(T, x, y), x},
		{"ite false", tab.Ite(F, x, y), y},
		{"ite same", tab.Ite(b, x, x), x},
		{"ite bool", tab.Ite(F, b, c), c},
		{"nested", tab.Add(tab.Mul(i(2), i(3)), tab.Div(i(9), tab.Sub(i(4), i(1)))), i(9)},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, tab.String(tc.got), tab.String(tc.want))
		}
	}
}

// TestNotFolded checks what must stay symbolic: overflowing operations
// (integers are mathematical) and operations on variables.
func TestNotFolded(t *testing.T) {
	tab := NewTable()
	x := tab.Var("x", IntSort)
	y := tab.Var("y", IntSort)
	b := tab.Var("b", BoolSort)
	i := tab.Int
	const maxI, minI = math.MaxInt64, math.MinInt64
	tests := []struct {
		name string
		got  Term
		op   Op
	}{
		{"max+1", tab.Add(i(maxI), i(1)), OpAdd},
		{"min+-1", tab.Add(i(minI), i(-1)), OpAdd},
		{"max+max", tab.Add(i(maxI), i(maxI)), OpAdd},
		{"min-1", tab.Sub(i(minI), i(1)), OpSub},
		{"max- -1", tab.Sub(i(maxI), i(-1)), OpSub},
		{"0-min", tab.Sub(i(0), i(minI)), OpSub},
		{"mul overflow", tab.Mul(i(1<<32), i(1<<32)), OpMul},
		{"mul negative overflow", tab.Mul(i(-(1 << 32)), i(1<<32)), OpMul},
		{"min*-1", tab.Mul(i(minI), i(-1)), OpMul},
		{"-1*min", tab.Mul(i(-1), i(minI)), OpMul},
		{"-min", tab.Neg(i(minI)), OpNeg},
		{"min/-1", tab.Div(i(minI), i(-1)), OpDiv},
		{"x/y", tab.Div(x, y), OpDiv},
		{"x/-1", tab.Div(x, i(-1)), OpDiv},
		{"0/y", tab.Div(i(0), y), OpDiv},
		{"x/x", tab.Div(x, x), OpDiv}, // x may be 0
		{"x%y", tab.Rem(x, y), OpRem},
		{"x%x", tab.Rem(x, x), OpRem},
		{"7%y", tab.Rem(i(7), y), OpRem},
		{"-x", tab.Neg(x), OpNeg},
		{"x+y", tab.Add(x, y), OpAdd},
		{"x-y", tab.Sub(x, y), OpSub},
		{"x*y", tab.Mul(x, y), OpMul},
		{"x==y", tab.Eq(x, y), OpEq},
		{"x<y", tab.Lt(x, y), OpLt},
		{"x<=y", tab.Le(x, y), OpLe},
		{"x!=y", tab.Ne(x, y), OpNot},
		{"!b", tab.Not(b), OpNot},
		{"b&&x<y", tab.And(b, tab.Lt(x, y)), OpAnd},
		{"b||x<y", tab.Or(b, tab.Lt(x, y)), OpOr},
		{"b?x:y", tab.Ite(b, x, y), OpIte},
	}
	for _, tc := range tests {
		if op := tab.Op(tc.got); op != tc.op {
			t.Errorf("%s: %s has operator %d, want %d", tc.name, tab.String(tc.got), op, tc.op)
		}
	}
	// The overflowing sum keeps its operands.
	s := tab.Add(i(maxI), i(1))
	if a, c, _ := tab.Args(s); a != i(maxI) || c != i(1) {
		t.Errorf("Args(max+1) = %s, %s", tab.String(a), tab.String(c))
	}
}

// TestCDivision compares folded division and remainder with Go's, which
// truncate like C, on all small operands, with the zero convention.
func TestCDivision(t *testing.T) {
	tab := NewTable()
	for a := int64(-12); a <= 12; a++ {
		for b := int64(-12); b <= 12; b++ {
			wq, wr := int64(0), a
			if b != 0 {
				wq, wr = a/b, a%b
			}
			if q := tab.Div(tab.Int(a), tab.Int(b)); q != tab.Int(wq) {
				t.Errorf("%d / %d = %s, want %d", a, b, tab.String(q), wq)
			}
			if r := tab.Rem(tab.Int(a), tab.Int(b)); r != tab.Int(wr) {
				t.Errorf("%d %% %d = %s, want %d", a, b, tab.String(r), wr)
			}
		}
	}
}

// TestEqOperandOrder checks that Eq keeps its operands in the order
// written (term.go: ordering them by index would make a term's shape
// depend on the order the table was filled in), while hash-consing.
func TestEqOperandOrder(t *testing.T) {
	tab := NewTable()
	x := tab.Var("x", IntSort)
	y := tab.Var("y", IntSort)
	b := tab.Var("b", BoolSort)
	sum := tab.Add(x, y)
	for _, p := range [][2]Term{{x, y}, {y, x}, {sum, x}, {x, sum}, {tab.Int(3), x}, {x, tab.Int(3)}, {b, tab.Lt(x, y)}, {tab.Bool(true), b}} {
		e := tab.Eq(p[0], p[1])
		if tab.Op(e) != OpEq {
			t.Errorf("Eq(%s, %s) has operator %d", tab.String(p[0]), tab.String(p[1]), tab.Op(e))
			continue
		}
		if a, c, _ := tab.Args(e); a != p[0] || c != p[1] {
			t.Errorf("Eq(%s, %s) has operands %s, %s", tab.String(p[0]), tab.String(p[1]), tab.String(a), tab.String(c))
		}
		if tab.Eq(p[0], p[1]) != e {
			t.Errorf("Eq(%s, %s) not hash-consed", tab.String(p[0]), tab.String(p[1]))
		}
		if tab.Eq(p[1], p[0]) == e {
			t.Errorf("Eq(%s, %s) == Eq(%s, %s): operands reordered", tab.String(p[0]), tab.String(p[1]), tab.String(p[1]), tab.String(p[0]))
		}
	}
}

func TestVars(t *testing.T) {
	tab := NewTable()
	z := tab.Var("z", IntSort) // created first: lowest index
	y := tab.Var("y", IntSort)
	x := tab.Var("x", IntSort)
	b := tab.Var("b", BoolSort)
	// (x + y) * z < x && b, in order of occurrence: x, y, z, b.
	term := tab.And(tab.Lt(tab.Mul(tab.Add(x, y), z), x), b)
	if got, want := tab.Vars(term), []Term{z, y, x, b}; !reflect.DeepEqual(got, want) {
		t.Errorf("Vars = %v, want %v (by index)", got, want)
	}
	if got, want := tab.VarsInOrder(term, map[Term]bool{}, nil), []Term{x, y, z, b}; !reflect.DeepEqual(got, want) {
		t.Errorf("VarsInOrder = %v, want %v", got, want)
	}
	// VarsInOrder continues a walk: seen variables are skipped.
	seen := map[Term]bool{}
	out := tab.VarsInOrder(tab.Lt(z, y), seen, nil)
	out = tab.VarsInOrder(term, seen, out)
	if want := []Term{z, y, x, b}; !reflect.DeepEqual(out, want) {
		t.Errorf("VarsInOrder (continued) = %v, want %v", out, want)
	}
	if vs := tab.Vars(tab.Add(tab.Int(1), tab.Int(2))); len(vs) != 0 {
		t.Errorf("Vars(constant) = %v", vs)
	}
	if vs := tab.Vars(x); !reflect.DeepEqual(vs, []Term{x}) {
		t.Errorf("Vars(x) = %v", vs)
	}
	if vs := tab.Vars(tab.Ite(b, x, tab.Sub(x, y))); !reflect.DeepEqual(vs, []Term{y, x, b}) {
		t.Errorf("Vars(ite) = %v", vs)
	}
}

func TestSubst(t *testing.T) {
	tab := NewTable()
	x := tab.Var("x", IntSort)
	y := tab.Var("y", IntSort)
	u := tab.Var("u", IntSort)
	v := tab.Var("v", IntSort)
	b := tab.Var("b", BoolSort)
	i := tab.Int
	tests := []struct {
		name      string
		term      Term
		m         map[Term]Term
		want      Term
		wantConst bool
	}{
		{"refold sum", tab.Add(x, y), map[Term]Term{x: i(1), y: i(2)}, i(3), true},
		{"partial", tab.Add(x, y), map[Term]Term{x: i(0)}, y, false},
		{"rename", tab.Lt(tab.Add(x, y), i(4)), map[Term]Term{x: u, y: v}, tab.Lt(tab.Add(u, v), i(4)), false},
		{"swap", tab.Sub(x, y), map[Term]Term{x: y, y: x}, tab.Sub(y, x), false},
		{"x<y with y:=x", tab.Lt(x, y), map[Term]Term{y: x}, tab.Bool(false), true},
		{"eq keeps order", tab.Eq(x, y), map[Term]Term{x: v, y: u}, tab.Eq(v, u), false},
		{"eq of constants", tab.Eq(x, y), map[Term]Term{x: i(1), y: i(2)}, tab.Bool(false), true},
		{"guard decides ite", tab.Ite(b, x, y), map[Term]Term{b: tab.Bool(false)}, y, false},
		{"division by zero", tab.Div(x, y), map[Term]Term{y: i(0)}, i(0), true},
		{"remainder by zero", tab.Rem(x, y), map[Term]Term{y: i(0)}, x, false},
		{"C remainder", tab.Rem(x, y), map[Term]Term{x: i(-7), y: i(2)}, i(-1), true},
		{"overflow stays symbolic", tab.Add(x, i(1)), map[Term]Term{x: i(math.MaxInt64)}, tab.Add(i(math.MaxInt64), i(1)), false},
		{"not", tab.Not(tab.And(b, tab.Le(x, y))), map[Term]Term{b: tab.Bool(true)}, tab.Lt(y, x), false},
		{"no variables", i(5), map[Term]Term{x: i(1)}, i(5), true},
		{"empty map", tab.Mul(x, y), nil, tab.Mul(x, y), false},
		{"shared subterm", tab.Mul(tab.Add(x, i(1)), tab.Add(x, i(1))), map[Term]Term{x: i(2)}, i(9), true},
	}
	for _, tc := range tests {
		got := tab.Subst(tc.term, tc.m)
		if got != tc.want {
			t.Errorf("%s: Subst(%s) = %s, want %s", tc.name, tab.String(tc.term), tab.String(got), tab.String(tc.want))
		}
		if tab.IsConst(got) != tc.wantConst {
			t.Errorf("%s: IsConst(%s) = %v", tc.name, tab.String(got), tab.IsConst(got))
		}
	}
}

func TestString(t *testing.T) {
	tab := NewTable()
	x := tab.Var("x", IntSort)
	y := tab.Var("y@3", IntSort)
	b := tab.Var("b", BoolSort)
	i := tab.Int
	tests := []struct {
		term Term
		want string
	}{
		{i(5), "5"},
		{i(-5), "-5"},
		{tab.Bool(true), "true"},
		{tab.Bool(false), "false"},
		{x, "x"},
		{y, "y@3"},
		{tab.Add(x, y), "x + y@3"},
		{tab.Add(x, i(-2)), "x + (-2)"},
		{tab.Mul(tab.Add(x, i(1)), tab.Sub(y, x)), "(x + 1) * (y@3 - x)"},
		{tab.Div(x, y), "x / y@3"},
		{tab.Rem(x, i(3)), "x % 3"},
		{tab.Neg(x), "-x"},
		{tab.Neg(tab.Add(x, y)), "-(x + y@3)"},
		{tab.Add(tab.Neg(x), y), "-x + y@3"},
		{tab.Neg(i(math.MinInt64)), "-(-9223372036854775808)"},
		{tab.Lt(x, y), "x < y@3"},
		{tab.Le(i(0), x), "0 <= x"},
		{tab.Eq(x, i(3)), "x == 3"},
		{tab.Ne(x, i(3)), "x != 3"},
		{tab.Not(b), "!b"},
		{tab.Not(tab.And(b, tab.Lt(x, y))), "!(b && (x < y@3))"},
		{tab.Or(b, tab.Ne(x, y)), "b || (x != y@3)"},
		{tab.Ite(b, x, i(-1)), "b ? x : (-1)"},
		{tab.Add(tab.Ite(b, x, y), i(1)), "(b ? x : y@3) + 1"},
		{tab.Gt(x, y), "y@3 < x"},
	}
	for _, tc := range tests {
		if got := tab.String(tc.term); got != tc.want {
			t.Errorf("String = %q, want %q", got, tc.want)
		}
	}
}

// TestAdoptInCreationOrder builds the same terms in two tables that already
// hold different ones, then makes a third table, which holds the first
// one's terms, adopt the second's new terms in their creation order: it
// gains exactly the terms the first table gained, in the same order, and
// every adopted term is the term built in the first table.
func TestAdoptInCreationOrder(t *testing.T) {
	build := func(tab *Table) []Term {
		x, y := tab.Var("x@1", IntSort), tab.Var("y@1", IntSort)
		s, r := tab.Var("s@1", StringSort), tab.Var("r", RealSort)
		return []Term{
			tab.And(tab.Lt(x, tab.Int(3)), tab.Not(tab.Eq(tab.Add(x, y), tab.Int(0)))),
			tab.Ite(tab.Le(y, x), tab.Sub(x, tab.Int(1)), tab.Mul(x, y)),
			tab.Includes(tab.Concat(s, tab.Str("é")), tab.Str("a")),
			tab.Lt(r, tab.Rat(big.NewRat(1, 3))),
		}
	}
	first, second, third := NewTable(), NewTable(), NewTable()
	first.Var("x@1", IntSort)
	first.Int(3)
	second.Str("unrelated")
	second.Var("y@1", IntSort)
	third.Var("x@1", IntSort)
	third.Int(3)
	before := first.Len()
	want := build(first)
	from := Term(second.Len() + 1)
	got := build(second)

	tl := second.Tail(from)
	to := make([]Term, from) // second's terms before the tail, in third
	to[second.Var("y@1", IntSort)] = third.Var("y@1", IntSort)
	for i := 0; i < tl.Len(); i++ {
		to = append(to, third.Adopt(tl, i, to))
	}
	if third.Len() != first.Len() {
		t.Fatalf("third has %d terms, want %d", third.Len(), first.Len())
	}
	for i, x := range got {
		if a, b := third.String(to[x]), first.String(want[i]); a != b {
			t.Errorf("term %d adopted as %s, want %s", i, a, b)
		}
	}
	// The terms first gained, but y@1 (which third held), are the terms
	// third gained, in the same order.
	var gained, adopted []string
	for x := Term(before + 1); int(x) <= first.Len(); x++ {
		if first.String(x) != "y@1" {
			gained = append(gained, first.String(x))
		}
	}
	for x := Term(4); int(x) <= third.Len(); x++ {
		adopted = append(adopted, third.String(x))
	}
	if !reflect.DeepEqual(adopted, gained) {
		t.Errorf("third gained\n%q\nwant\n%q", adopted, gained)
	}
}

// TestNegated: Negated finds the term Not returns exactly when the table
// holds it, and creates none.
func TestNegated(t *testing.T) {
	tab := NewTable()
	x, y := tab.Var("x", IntSort), tab.Var("y", IntSort)
	b := tab.Var("b", BoolSort)
	terms := []Term{
		tab.Lt(x, y), tab.Le(x, tab.Int(3)), tab.Eq(x, y), tab.Lt(tab.Add(x, y), tab.Int(0)),
		b, tab.And(b, tab.Eq(x, y)), tab.Bool(true), tab.Not(b),
	}
	for _, c := range terms {
		n := tab.Len()
		got, ok := tab.Negated(c)
		if tab.Len() != n {
			t.Fatalf("Negated(%s) created a term", tab.String(c))
		}
		want := tab.Not(c)
		existed := tab.Len() == n
		if ok != existed || ok && got != want {
			t.Errorf("Negated(%s) = %d, %v; Not gives %d, which the table held: %v", tab.String(c), got, ok, want, existed)
		}
		if got, ok := tab.Negated(c); !ok || got != want {
			t.Errorf("Negated(%s) after Not = %d, %v, want %d", tab.String(c), got, ok, want)
		}
	}
}
