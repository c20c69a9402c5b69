// Package solver holds the symbolic terms the executor builds (hash-consed,
// folded on construction) and the interface to a decision procedure for
// them. Package solver/z3 implements it with Z3's C API.
//
// Integers are mathematical. Division and remainder follow C: the quotient
// is truncated toward zero and the remainder takes the dividend's sign;
// division by zero is defined as x / 0 = 0 and x % 0 = x, so that every
// expression has a value (the simulator uses the same definition).
//
// Strings are sequences of Unicode code points, as Z3's string theory counts
// them. The string methods and ECMAScript's 32-bit bit operators have the
// semantics of package ecma, which folding and Eval compute with.
package solver

import (
	"cmp"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/setbot/setbot/model/lang/ecma"

	"github.com/setbot/setbot/model/lang/arith"
)

// Sort is the type of a term.
type Sort uint8

// The sorts.
const (
	IntSort Sort = iota + 1
	BoolSort
	StringSort
	RealSort // exact rationals: the action language's decimals
)

func (s Sort) String() string {
	switch s {
	case IntSort:
		return "int"
	case BoolSort:
		return "bool"
	case StringSort:
		return "string"
	case RealSort:
		return "real"
	}
	return "invalid"
}

// Op is a term's operator.
type Op uint8

// The operators. Comparisons are normalised to Eq, Lt and Le; != is Not(Eq).
// New operators go at the end: the binary encoding stores their numbers.
const (
	OpInvalid     Op = iota
	OpInt            // integer constant
	OpBool           // boolean constant
	OpVar            // free variable
	OpNeg            // -a
	OpAdd            // a + b
	OpSub            // a - b
	OpMul            // a * b
	OpDiv            // a / b (C semantics, x/0 = 0)
	OpRem            // a % b (C semantics, x%0 = x)
	OpEq             // a == b (any sort)
	OpLt             // a < b (int or string)
	OpLe             // a <= b (int or string)
	OpNot            // !a
	OpAnd            // a && b
	OpOr             // a || b
	OpIte            // a ? b : c
	OpStr            // string constant
	OpConcat         // a + b on strings
	OpLength         // a.length
	OpIndexOf        // a.indexOf(b)
	OpStartsWith     // a.startsWith(b)
	OpEndsWith       // a.endsWith(b)
	OpIncludes       // a.includes(b)
	OpSubstring      // a.substring(b, c)
	OpCharAt         // a.charAt(b)
	OpBitAnd         // a & b (ECMAScript's 32-bit operators)
	OpBitOr          // a | b
	OpBitXor         // a ^ b
	OpBitNot         // ~a
	OpShl            // a << b
	OpShr            // a >> b
	OpUShr           // a >>> b
	OpRat            // rational constant (RealSort)
	OpToReal         // an int as a real
	OpIsInt          // whether the real a is an integer
	OpFloor          // the greatest int not above the real a (Math.floor)
	OpDigits         // the decimal digits of the int a >= 0 ("" for a < 0: SMT-LIB's str.from_int)
	OpNumeral        // the int the string a writes in decimal digits (-1 for "" or another character: SMT-LIB's str.to_int)
	OpLastIndexOf    // a.lastIndexOf(b) (last, so that the operators' numbers stay those of encoded trees)
)

// Term is a hash-consed term: an index into its Table. Equal terms of one
// table have equal indexes. The zero Term is invalid.
type Term int32

type node struct {
	op      Op
	sort    Sort
	a, b, c Term
	val     int64  // OpInt value, OpBool 0 or 1
	name    string // OpVar's name, OpStr's value, OpRat's value (big.Rat's RatString)
}

// Table creates and stores terms. It is not safe for concurrent use.
type Table struct {
	nodes  []node
	scalar []bool  // by term: EvalScalar decides it (see scalarNode)
	size   []int32 // by term: Size
	index  map[node]Term
	vars   [][]Term       // by term: its free variables once asked for (noVars when none), nil before
	calls  map[Term]*Call // the variables that are black-box calls (Apply)
	pins   map[Term]bool  // the conjuncts that concretise a path (Concretise)
}

// noVars is the free variables of a term that has none, once computed.
var noVars = []Term{}

// NewTable returns an empty table.
func NewTable() *Table {
	return &Table{nodes: []node{{}}, scalar: []bool{false}, size: []int32{0}, index: make(map[node]Term), vars: [][]Term{nil}}
}

// Size returns the size of x written out as a tree: its operators and
// operands, counting a subterm as often as it occurs (x * x counts x
// twice), so that it bounds the depth of x and the work of any walk that
// does not share subterms. It saturates at the largest int32. The
// executors bound it (vocab.MaxTermSize).
func (t *Table) Size(x Term) int { return int(t.size[x]) }

// appendNode stores n as the next term.
func (t *Table) appendNode(n node) {
	size := int64(1)
	for _, a := range [3]Term{n.a, n.b, n.c} {
		size += int64(t.size[a]) // 0 for no operand
	}
	t.nodes = append(t.nodes, n)
	t.scalar = append(t.scalar, t.scalarNode(n))
	t.size = append(t.size, int32(min(size, math.MaxInt32)))
	t.vars = append(t.vars, nil)
}

// Len returns the number of distinct terms created.
func (t *Table) Len() int { return len(t.nodes) - 1 }

func (t *Table) intern(n node) Term {
	if id, ok := t.index[n]; ok {
		return id
	}
	id := Term(len(t.nodes))
	t.appendNode(n)
	t.index[n] = id
	return id
}

// A Tail is the terms a table created from one term on, in creation order,
// detached from the table: terms it creates later are not in it. It is how
// terms built in one table reach another (Table.Adopt), and may be read on
// another goroutine than the table's once handed over.
type Tail struct {
	first Term
	nodes []node
	// What the table knows of them besides their nodes, by index in nodes
	// (nil when none has it): the black-box call a variable stands for,
	// and the conjuncts that concretise a path.
	calls []*Call
	pins  []bool
}

// Tail returns the terms t created from first on.
func (t *Table) Tail(first Term) Tail {
	n := len(t.nodes)
	tl := Tail{first: first, nodes: t.nodes[first:n:n]}
	if len(t.calls) > 0 || len(t.pins) > 0 {
		for x := first; int(x) < n; x++ {
			if c, ok := t.calls[x]; ok {
				if tl.calls == nil {
					tl.calls = make([]*Call, n-int(first))
				}
				tl.calls[x-first] = c
			}
			if t.pins[x] {
				if tl.pins == nil {
					tl.pins = make([]bool, n-int(first))
				}
				tl.pins[x-first] = true
			}
		}
	}
	return tl
}

// First returns the first term of tl, in its table.
func (tl Tail) First() Term { return tl.first }

// Len returns the number of terms in tl.
func (tl Tail) Len() int { return len(tl.nodes) }

// Adopt makes in t the i-th term of tl, whose operands to maps to terms of
// t (to is indexed by the terms of tl's table, and holds every term before
// tl.First()+i), and returns it. The term is not refolded: its table's
// constructors built it from operands of the same shape, and folding looks
// only at their shape, so it is the term t's constructors would build.
// Adopting a tail's terms in order creates those t lacks, in that order.
//
// A variable that stands for a black-box call stays one (with its
// arguments mapped), and a conjunct that concretised a path stays marked,
// as Import keeps them.
func (t *Table) Adopt(tl Tail, i int, to []Term) Term {
	n := tl.nodes[i]
	if n.a != 0 {
		n.a = to[n.a]
	}
	if n.b != 0 {
		n.b = to[n.b]
	}
	if n.c != 0 {
		n.c = to[n.c]
	}
	x := t.intern(n)
	if tl.calls != nil && tl.calls[i] != nil {
		if _, ok := t.calls[x]; !ok {
			c := tl.calls[i]
			args := make([]Term, len(c.Args))
			for j, a := range c.Args {
				args[j] = to[a]
			}
			if t.calls == nil {
				t.calls = make(map[Term]*Call)
			}
			t.calls[x] = &Call{Fun: c.Fun, Args: args, Result: x}
		}
	}
	if tl.pins != nil && tl.pins[i] {
		t.Concretise(x)
	}
	return x
}

// scalarNode reports whether a node and all its operands are ints and
// bools under operators EvalScalar computes: the terms of models without
// strings and decimals, and most terms of any model.
func (t *Table) scalarNode(n node) bool {
	switch n.op {
	case OpInt, OpBool:
		return true
	case OpVar:
		return n.sort == IntSort || n.sort == BoolSort
	case OpNeg, OpNot, OpBitNot, OpAdd, OpSub, OpMul, OpDiv, OpRem, OpEq, OpLt, OpLe, OpAnd, OpOr, OpIte,
		OpBitAnd, OpBitOr, OpBitXor, OpShl, OpShr, OpUShr:
		return t.scalar[n.a] && (n.b == 0 || t.scalar[n.b]) && (n.c == 0 || t.scalar[n.c])
	}
	return false
}

// IsScalar reports whether EvalScalar can compute x: x and its subterms
// are ints and bools.
func (t *Table) IsScalar(x Term) bool { return t.scalar[x] }

// Op returns x's operator.
func (t *Table) Op(x Term) Op { return t.nodes[x].op }

// Sort returns x's sort.
func (t *Table) Sort(x Term) Sort { return t.nodes[x].sort }

// Args returns x's operands (unused ones are 0).
func (t *Table) Args(x Term) (a, b, c Term) { n := &t.nodes[x]; return n.a, n.b, n.c }

// Name returns a variable's name.
func (t *Table) Name(x Term) string { return t.nodes[x].name }

// IntValue returns the value of an integer constant.
func (t *Table) IntValue(x Term) (int64, bool) {
	n := &t.nodes[x]
	return n.val, n.op == OpInt
}

// BoolValue returns the value of a boolean constant.
func (t *Table) BoolValue(x Term) (bool, bool) {
	n := &t.nodes[x]
	return n.val != 0, n.op == OpBool
}

// StringValue returns the value of a string constant.
func (t *Table) StringValue(x Term) (string, bool) {
	n := &t.nodes[x]
	if n.op != OpStr {
		return "", false
	}
	return n.name, true
}

// IsConst reports whether x is a constant.
func (t *Table) IsConst(x Term) bool {
	op := t.nodes[x].op
	return op == OpInt || op == OpBool || op == OpStr || op == OpRat
}

// Int returns the integer constant v.
func (t *Table) Int(v int64) Term { return t.intern(node{op: OpInt, sort: IntSort, val: v}) }

// Bool returns the boolean constant v.
func (t *Table) Bool(v bool) Term {
	var n int64
	if v {
		n = 1
	}
	return t.intern(node{op: OpBool, sort: BoolSort, val: n})
}

// Str returns the string constant s. s is read as UTF-8, each invalid byte
// standing for U+FFFD as in a conversion to []rune, so that equal sequences
// of code points are one constant.
func (t *Table) Str(s string) Term {
	if !utf8.ValidString(s) {
		s = string([]rune(s))
	}
	return t.intern(node{op: OpStr, sort: StringSort, name: s})
}

// Var returns the variable of the given name and sort.
func (t *Table) Var(name string, s Sort) Term { return t.intern(node{op: OpVar, sort: s, name: name}) }

// Neg returns -x.
func (t *Table) Neg(x Term) Term {
	if t.Sort(x) == RealSort {
		return t.realOp(OpNeg, x, 0)
	}
	if v, ok := t.IntValue(x); ok {
		if n, ok := arith.Neg(v); ok {
			return t.Int(n)
		}
	}
	if t.Op(x) == OpNeg {
		return t.nodes[x].a
	}
	return t.intern(node{op: OpNeg, sort: IntSort, a: x})
}

// Add returns x + y.
func (t *Table) Add(x, y Term) Term {
	if t.Sort(x) == RealSort {
		return t.realOp(OpAdd, x, y)
	}
	a, aok := t.IntValue(x)
	b, bok := t.IntValue(y)
	switch {
	case aok && bok:
		if s, ok := arith.Add(a, b); ok {
			return t.Int(s)
		}
	case aok && a == 0:
		return y
	case bok && b == 0:
		return x
	}
	return t.intern(node{op: OpAdd, sort: IntSort, a: x, b: y})
}

// Sub returns x - y.
func (t *Table) Sub(x, y Term) Term {
	if t.Sort(x) == RealSort {
		return t.realOp(OpSub, x, y)
	}
	a, aok := t.IntValue(x)
	b, bok := t.IntValue(y)
	switch {
	case aok && bok:
		if d, ok := arith.Sub(a, b); ok {
			return t.Int(d)
		}
	case bok && b == 0:
		return x
	case x == y:
		return t.Int(0)
	}
	return t.intern(node{op: OpSub, sort: IntSort, a: x, b: y})
}

// Mul returns x * y.
func (t *Table) Mul(x, y Term) Term {
	if t.Sort(x) == RealSort {
		return t.realOp(OpMul, x, y)
	}
	a, aok := t.IntValue(x)
	b, bok := t.IntValue(y)
	switch {
	case aok && bok:
		if p, ok := arith.Mul(a, b); ok {
			return t.Int(p)
		}
	case aok && a == 0, bok && b == 0:
		return t.Int(0)
	case aok && a == 1:
		return y
	case bok && b == 1:
		return x
	}
	return t.intern(node{op: OpMul, sort: IntSort, a: x, b: y})
}

// Div returns x / y with C semantics and x / 0 = 0; on reals, the exact
// quotient (x / 0 = 0 too).
func (t *Table) Div(x, y Term) Term {
	if t.Sort(x) == RealSort {
		return t.realOp(OpDiv, x, y)
	}
	a, aok := t.IntValue(x)
	b, bok := t.IntValue(y)
	if bok {
		switch {
		case b == 1:
			return x
		case aok:
			if q, ok := arith.Quo(a, b); ok {
				return t.Int(q)
			}
		case b == 0:
			return t.Int(0) // x / 0 = 0
		}
	}
	return t.intern(node{op: OpDiv, sort: IntSort, a: x, b: y})
}

// Rem returns x % y with C semantics and x % 0 = x.
func (t *Table) Rem(x, y Term) Term {
	a, aok := t.IntValue(x)
	b, bok := t.IntValue(y)
	if bok {
		switch {
		case b == 0:
			return x // x % 0 = x
		case b == 1 || b == -1:
			return t.Int(0)
		case aok:
			r, _ := arith.Rem(a, b) // defined for every b but 0
			return t.Int(r)
		}
	}
	return t.intern(node{op: OpRem, sort: IntSort, a: x, b: y})
}

// Eq returns x == y (operands of one sort).
func (t *Table) Eq(x, y Term) Term {
	if x == y {
		return t.Bool(true)
	}
	if t.IsConst(x) && t.IsConst(y) {
		return t.Bool(false) // distinct constants of one sort
	}
	// Operands stay in the order written: ordering them by index would make
	// a term's shape depend on the order the table was filled in.
	return t.intern(node{op: OpEq, sort: BoolSort, a: x, b: y})
}

// Ne returns x != y.
func (t *Table) Ne(x, y Term) Term { return t.Not(t.Eq(x, y)) }

// Lt returns x < y, on two ints, two reals or two strings.
func (t *Table) Lt(x, y Term) Term {
	if c, ok := t.compare(x, y); ok {
		return t.Bool(c < 0)
	}
	if s, ok := t.StringValue(y); (ok && s == "") || x == y {
		return t.Bool(false)
	}
	return t.intern(node{op: OpLt, sort: BoolSort, a: x, b: y})
}

// Le returns x <= y, on two ints, two reals or two strings.
func (t *Table) Le(x, y Term) Term {
	if c, ok := t.compare(x, y); ok {
		return t.Bool(c <= 0)
	}
	if s, ok := t.StringValue(x); (ok && s == "") || x == y {
		return t.Bool(true)
	}
	return t.intern(node{op: OpLe, sort: BoolSort, a: x, b: y})
}

// compare compares two constants of one ordered sort: integers by value,
// strings lexicographically by code point (Go compares the UTF-8 bytes,
// which is the same order). ECMAScript compares strings by UTF-16 code
// unit: on text within the Basic Multilingual Plane that is the same order
// too.
func (t *Table) compare(x, y Term) (int, bool) {
	if a, ok := t.IntValue(x); ok {
		if b, ok := t.IntValue(y); ok {
			return cmp.Compare(a, b), true
		}
	}
	if a, ok := t.StringValue(x); ok {
		if b, ok := t.StringValue(y); ok {
			return ecma.CompareStrings(a, b), true
		}
	}
	if a, ok := t.RatValue(x); ok {
		if b, ok := t.RatValue(y); ok {
			return a.Cmp(b), true
		}
	}
	return 0, false
}

// Gt returns x > y, as y < x.
func (t *Table) Gt(x, y Term) Term { return t.Lt(y, x) }

// Ge returns x >= y, as y <= x.
func (t *Table) Ge(x, y Term) Term { return t.Le(y, x) }

// Not returns !x, pushing the negation through comparisons.
func (t *Table) Not(x Term) Term {
	n := t.nodes[x]
	switch n.op {
	case OpBool:
		return t.Bool(n.val == 0)
	case OpNot:
		return n.a
	case OpLt:
		return t.Le(n.b, n.a)
	case OpLe:
		return t.Lt(n.b, n.a)
	}
	return t.intern(node{op: OpNot, sort: BoolSort, a: x})
}

// Negated returns the term Not(x) returns when the table holds it already,
// without creating it: whether a set of terms holds x's negation is asked
// of many terms whose negation was never built, and so is in no set. The
// comparison Not turns x < y into, y <= x, is one the constructors do not
// fold, since they did not fold x.
func (t *Table) Negated(x Term) (Term, bool) {
	n := t.nodes[x]
	var m node
	switch n.op {
	case OpBool:
		m = node{op: OpBool, sort: BoolSort, val: 1 - n.val}
	case OpNot:
		return n.a, true
	case OpLt:
		m = node{op: OpLe, sort: BoolSort, a: n.b, b: n.a}
	case OpLe:
		m = node{op: OpLt, sort: BoolSort, a: n.b, b: n.a}
	default:
		m = node{op: OpNot, sort: BoolSort, a: x}
	}
	id, ok := t.index[m]
	return id, ok
}

// And returns x && y.
func (t *Table) And(x, y Term) Term {
	if v, ok := t.BoolValue(x); ok {
		if v {
			return y
		}
		return x
	}
	if v, ok := t.BoolValue(y); ok {
		if v {
			return x
		}
		return y
	}
	if x == y {
		return x
	}
	return t.intern(node{op: OpAnd, sort: BoolSort, a: x, b: y})
}

// Or returns x || y.
func (t *Table) Or(x, y Term) Term {
	if v, ok := t.BoolValue(x); ok {
		if v {
			return x
		}
		return y
	}
	if v, ok := t.BoolValue(y); ok {
		if v {
			return y
		}
		return x
	}
	if x == y {
		return x
	}
	return t.intern(node{op: OpOr, sort: BoolSort, a: x, b: y})
}

// Ite returns c ? x : y.
func (t *Table) Ite(c, x, y Term) Term {
	if v, ok := t.BoolValue(c); ok {
		if v {
			return x
		}
		return y
	}
	if x == y {
		return x
	}
	return t.intern(node{op: OpIte, sort: t.Sort(x), a: c, b: x, c: y})
}

// Vars returns the free variables of x, sorted by term index.
func (t *Table) Vars(x Term) []Term {
	if vs := t.vars[x]; vs != nil {
		return vs
	}
	n := t.nodes[x]
	var out []Term
	switch n.op {
	case OpVar:
		out = []Term{x}
	case OpInt, OpBool, OpStr, OpRat:
	default:
		set := make(map[Term]bool)
		for _, a := range []Term{n.a, n.b, n.c} {
			if a != 0 {
				for _, v := range t.Vars(a) {
					set[v] = true
				}
			}
		}
		for v := range set {
			out = append(out, v)
		}
		sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	}
	if out == nil {
		out = noVars
	}
	t.vars[x] = out
	return out
}

// VarsInOrder returns x's free variables in order of first occurrence in a
// left-to-right walk: the order canonical renaming uses.
func (t *Table) VarsInOrder(x Term, seen map[Term]bool, out []Term) []Term {
	n := t.nodes[x]
	if n.op == OpVar {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
		return out
	}
	for _, a := range []Term{n.a, n.b, n.c} {
		if a != 0 && len(t.Vars(a)) > 0 {
			out = t.VarsInOrder(a, seen, out)
		}
	}
	return out
}

// Subst replaces variables by terms, rebuilding (and refolding) x.
func (t *Table) Subst(x Term, m map[Term]Term) Term { return t.Substitution(m).Apply(x) }

// A Substitution replaces variables by terms in any number of terms,
// sharing the work on their common subterms.
type Substitution struct {
	t    *Table
	m    map[Term]Term
	memo map[Term]Term
}

// Substitution returns the substitution of the variables m maps.
func (t *Table) Substitution(m map[Term]Term) *Substitution {
	return &Substitution{t: t, m: m, memo: make(map[Term]Term)}
}

// Reset makes s the substitution of the variables m maps, keeping its
// memory for the new work.
func (s *Substitution) Reset(m map[Term]Term) {
	s.m = m
	clear(s.memo)
}

// Apply returns x with the variables replaced, rebuilt (and refolded).
func (s *Substitution) Apply(x Term) Term {
	if r, ok := s.memo[x]; ok {
		return r
	}
	t := s.t
	n := t.nodes[x]
	var r Term
	switch n.op {
	case OpVar:
		r = x
		if y, ok := s.m[x]; ok {
			r = y
		}
	case OpInt, OpBool, OpStr, OpRat:
		r = x
	default:
		if len(t.Vars(x)) == 0 {
			r = x
			break
		}
		a, b, c := n.a, n.b, n.c
		if a != 0 {
			a = s.Apply(a)
		}
		if b != 0 {
			b = s.Apply(b)
		}
		if c != 0 {
			c = s.Apply(c)
		}
		r = t.rebuild(n.op, a, b, c)
	}
	s.memo[x] = r
	return r
}

func (t *Table) rebuild(op Op, a, b, c Term) Term {
	switch op {
	case OpNeg:
		return t.Neg(a)
	case OpAdd:
		return t.Add(a, b)
	case OpSub:
		return t.Sub(a, b)
	case OpMul:
		return t.Mul(a, b)
	case OpDiv:
		return t.Div(a, b)
	case OpRem:
		return t.Rem(a, b)
	case OpEq:
		return t.Eq(a, b)
	case OpLt:
		return t.Lt(a, b)
	case OpLe:
		return t.Le(a, b)
	case OpNot:
		return t.Not(a)
	case OpAnd:
		return t.And(a, b)
	case OpOr:
		return t.Or(a, b)
	case OpIte:
		return t.Ite(a, b, c)
	case OpConcat:
		return t.Concat(a, b)
	case OpLength:
		return t.Length(a)
	case OpIndexOf:
		return t.IndexOf(a, b)
	case OpLastIndexOf:
		return t.LastIndexOf(a, b)
	case OpStartsWith:
		return t.StartsWith(a, b)
	case OpEndsWith:
		return t.EndsWith(a, b)
	case OpIncludes:
		return t.Includes(a, b)
	case OpSubstring:
		return t.Substring(a, b, c)
	case OpCharAt:
		return t.CharAt(a, b)
	case OpBitNot:
		return t.BitNot(a)
	case OpBitAnd, OpBitOr, OpBitXor, OpShl, OpShr, OpUShr:
		return t.bitOp(op, a, b)
	case OpToReal:
		return t.ToReal(a)
	case OpIsInt:
		return t.IsInt(a)
	case OpFloor:
		return t.Floor(a)
	case OpDigits:
		return t.Digits(a)
	case OpNumeral:
		return t.Numeral(a)
	}
	panic(fmt.Sprintf("solver: rebuild of operator %d", op))
}

// Import copies x, a term of src, into t, creating its subterms in a
// left-to-right order: two tables that import the same terms in the same
// order are identical, whatever else src holds.
func (t *Table) Import(src *Table, x Term, memo map[Term]Term) Term {
	if r, ok := memo[x]; ok {
		return r
	}
	n := src.nodes[x]
	var r Term
	switch n.op {
	case OpInt:
		r = t.Int(n.val)
	case OpBool:
		r = t.Bool(n.val != 0)
	case OpStr:
		r = t.Str(n.name)
	case OpRat:
		r = t.intern(n)
	case OpVar:
		r = t.Var(n.name, n.sort)
		if c, ok := src.calls[x]; ok {
			args := make([]Term, len(c.Args))
			for i, a := range c.Args {
				args[i] = t.Import(src, a, memo)
			}
			r = t.Apply(c.Fun, n.sort, args)
		}
	default:
		a, b, c := n.a, n.b, n.c
		if a != 0 {
			a = t.Import(src, a, memo)
		}
		if b != 0 {
			b = t.Import(src, b, memo)
		}
		if c != 0 {
			c = t.Import(src, c, memo)
		}
		r = t.rebuild(n.op, a, b, c)
	}
	if src.pins[x] {
		t.Concretise(r)
	}
	memo[x] = r
	return r
}

// Eval computes x's value with the variables' values from val, with the
// same semantics the constructors fold with (C arithmetic, package ecma's
// string and bit operations); ok is false when a variable has no value or
// the arithmetic leaves the int64 range.
func (t *Table) Eval(x Term, val func(Term) (Value, bool)) (Value, bool) {
	n := &t.nodes[x]
	if n.sort == RealSort && n.op != OpVar && n.op != OpIte {
		return t.evalReal(x, val)
	}
	switch n.op {
	case OpInt:
		return Value{Sort: IntSort, Int: n.val}, true
	case OpBool:
		return Value{Sort: BoolSort, Bool: n.val != 0}, true
	case OpStr:
		return Value{Sort: StringSort, Str: n.name}, true
	case OpVar:
		return val(x)
	case OpIte, OpAnd, OpOr:
		return t.evalLazy(n, val)
	case OpNot, OpNeg, OpBitNot, OpLength, OpIsInt, OpDigits, OpNumeral, OpFloor:
		return t.evalUnary(n, val)
	case OpSubstring:
		a, ok1 := t.Eval(n.a, val)
		b, ok2 := t.Eval(n.b, val)
		c, ok3 := t.Eval(n.c, val)
		return Value{Sort: StringSort, Str: ecma.Substring(a.Str, b.Int, c.Int)}, ok1 && ok2 && ok3
	}
	a, ok1 := t.Eval(n.a, val)
	b, ok2 := t.Eval(n.b, val)
	if !ok1 || !ok2 {
		return Value{}, false
	}
	switch n.op {
	case OpEq, OpLt, OpLe:
		return Value{Sort: BoolSort, Bool: compareValues(n.op, a, b)}, true
	case OpConcat, OpIndexOf, OpLastIndexOf, OpStartsWith, OpEndsWith, OpIncludes, OpCharAt:
		return evalString(n.op, a, b), true
	case OpBitAnd, OpBitOr, OpBitXor, OpShl, OpShr, OpUShr, OpAdd, OpSub, OpMul, OpDiv, OpRem:
		v, ok := intOp(n.op, a.Int, b.Int)
		return Value{Sort: IntSort, Int: v}, ok
	}
	return Value{}, false
}

// evalLazy evaluates the operators that evaluate an operand only when
// the first decides it is needed: ite, && and ||.
func (t *Table) evalLazy(n *node, val func(Term) (Value, bool)) (Value, bool) {
	c, ok := t.Eval(n.a, val)
	if !ok {
		return Value{}, false
	}
	if n.op == OpIte {
		if c.Bool {
			return t.Eval(n.b, val)
		}
		return t.Eval(n.c, val)
	}
	if c.Bool == (n.op == OpOr) {
		return c, true
	}
	return t.Eval(n.b, val)
}

// evalUnary evaluates the operators of one operand.
func (t *Table) evalUnary(n *node, val func(Term) (Value, bool)) (Value, bool) {
	a, ok := t.Eval(n.a, val)
	switch n.op {
	case OpNot:
		return Value{Sort: BoolSort, Bool: !a.Bool}, ok
	case OpNeg:
		if !ok {
			return Value{}, false
		}
		return integerValue(arith.Neg(a.Int))
	case OpBitNot:
		return Value{Sort: IntSort, Int: ecma.BitNot(a.Int)}, ok
	case OpLength:
		return Value{Sort: IntSort, Int: ecma.Length(a.Str)}, ok
	case OpIsInt:
		return Value{Sort: BoolSort, Bool: a.rat().IsInt()}, ok
	case OpDigits:
		return Value{Sort: StringSort, Str: digits(a.Int)}, ok
	case OpNumeral:
		v, fits := numeral(a.Str)
		return Value{Sort: IntSort, Int: v}, ok && fits
	case OpFloor:
		if !ok {
			return Value{}, false
		}
		f, fits := floorRat(a.rat())
		return Value{Sort: IntSort, Int: f}, fits
	}
	return Value{}, false
}

// compareValues decides ==, < or <= on two values of one sort; strings
// compare in code point order, as compare says.
func compareValues(op Op, a, b Value) bool {
	var c int
	switch a.Sort {
	case BoolSort:
		if op == OpEq {
			return a.Bool == b.Bool
		}
		c = cmp.Compare(a.Int, b.Int)
	case StringSort:
		c = ecma.CompareStrings(a.Str, b.Str)
	case RealSort:
		c = a.rat().Cmp(b.rat())
	default:
		c = cmp.Compare(a.Int, b.Int)
	}
	switch op {
	case OpEq:
		return c == 0
	case OpLt:
		return c < 0
	}
	return c <= 0
}

// evalString evaluates the string operators of two operands.
func evalString(op Op, a, b Value) Value {
	switch op {
	case OpConcat:
		return Value{Sort: StringSort, Str: a.Str + b.Str}
	case OpIndexOf:
		return Value{Sort: IntSort, Int: ecma.IndexOf(a.Str, b.Str)}
	case OpLastIndexOf:
		return Value{Sort: IntSort, Int: ecma.LastIndexOf(a.Str, b.Str)}
	case OpStartsWith:
		return Value{Sort: BoolSort, Bool: ecma.StartsWith(a.Str, b.Str)}
	case OpEndsWith:
		return Value{Sort: BoolSort, Bool: ecma.EndsWith(a.Str, b.Str)}
	case OpIncludes:
		return Value{Sort: BoolSort, Bool: ecma.Includes(a.Str, b.Str)}
	}
	return Value{Sort: StringSort, Str: ecma.CharAt(a.Str, b.Int)}
}

// String prints x in the action language's syntax, fully parenthesised
// below the top level.
func (t *Table) String(x Term) string {
	var b strings.Builder
	t.write(&b, x, true)
	return b.String()
}

var opText = map[Op]string{OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpRem: "%",
	OpEq: "==", OpLt: "<", OpLe: "<=", OpAnd: "&&", OpOr: "||", OpConcat: "+",
	OpBitAnd: "&", OpBitOr: "|", OpBitXor: "^", OpShl: "<<", OpShr: ">>", OpUShr: ">>>"}

// calledAs is how String writes the operators of one operand that read
// as a call.
var calledAs = map[Op]string{OpToReal: "Number", OpIsInt: "Number.isInteger", OpFloor: "Math.floor", OpDigits: "String", OpNumeral: "str.to_int"}

// methodName names the operators printed as string methods.
var methodName = map[Op]string{OpIndexOf: "indexOf", OpLastIndexOf: "lastIndexOf", OpStartsWith: "startsWith",
	OpEndsWith: "endsWith", OpIncludes: "includes", OpSubstring: "substring", OpCharAt: "charAt"}

func (t *Table) write(b *strings.Builder, x Term, top bool) {
	n := t.nodes[x]
	open := func() {
		if !top {
			b.WriteByte('(')
		}
	}
	closeP := func() {
		if !top {
			b.WriteByte(')')
		}
	}
	switch n.op {
	case OpInt:
		if n.val < 0 && !top {
			b.WriteString("(" + strconv.FormatInt(n.val, 10) + ")")
			return
		}
		b.WriteString(strconv.FormatInt(n.val, 10))
	case OpBool:
		b.WriteString(strconv.FormatBool(n.val != 0))
	case OpStr:
		quote(b, n.name)
	case OpRat:
		r, _ := t.RatValue(x)
		text, ok := ecma.FormatDecimal(r)
		if !ok {
			// No literal writes it: a quotient of two.
			text = "Number(" + r.Num().String() + ") / " + r.Denom().String()
		}
		if r.Sign() < 0 && !top || !ok {
			text = "(" + text + ")"
		}
		b.WriteString(text)
	case OpToReal, OpIsInt, OpFloor, OpDigits, OpNumeral:
		b.WriteString(calledAs[n.op] + "(")
		t.write(b, n.a, true)
		b.WriteString(")")
	case OpVar:
		b.WriteString(n.name)
	case OpNeg:
		b.WriteByte('-')
		t.write(b, n.a, false)
	case OpBitNot:
		b.WriteByte('~')
		t.write(b, n.a, false)
	case OpLength:
		t.write(b, n.a, false)
		b.WriteString(".length")
	case OpIndexOf, OpLastIndexOf, OpStartsWith, OpEndsWith, OpIncludes, OpSubstring, OpCharAt:
		t.write(b, n.a, false)
		b.WriteString("." + methodName[n.op] + "(")
		t.write(b, n.b, true)
		if n.c != 0 {
			b.WriteString(", ")
			t.write(b, n.c, true)
		}
		b.WriteByte(')')
	case OpNot:
		if t.Op(n.a) == OpEq {
			a, c, _ := t.Args(n.a)
			open()
			t.write(b, a, false)
			b.WriteString(" != ")
			t.write(b, c, false)
			closeP()
			return
		}
		b.WriteByte('!')
		t.write(b, n.a, false)
	case OpIte:
		open()
		t.write(b, n.a, false)
		b.WriteString(" ? ")
		t.write(b, n.b, false)
		b.WriteString(" : ")
		t.write(b, n.c, false)
		closeP()
	default:
		open()
		t.write(b, n.a, false)
		b.WriteString(" " + opText[n.op] + " ")
		t.write(b, n.b, false)
		closeP()
	}
}

// quote writes s as a string literal of the action language, escaped as its
// scanner reads it back.
func quote(b *strings.Builder, s string) {
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
}

// intOp computes a binary operator on two ints, as the constructors fold
// it (package arith); ok is false when the result leaves the int64 range.
func intOp(op Op, a, b int64) (int64, bool) {
	switch op {
	case OpAdd:
		return arith.Add(a, b)
	case OpSub:
		return arith.Sub(a, b)
	case OpMul:
		return arith.Mul(a, b)
	case OpDiv:
		return arith.Quo(a, b)
	case OpRem:
		return arith.Rem(a, b)
	}
	return bitFuncs[op](a, b), true
}

func integerValue(v int64, ok bool) (Value, bool) { return Value{Sort: IntSort, Int: v}, ok }

// EvalScalar is Eval for a term IsScalar accepts, on a compact valuation:
// a bool is 0 or 1. It computes what Eval computes, without carrying the
// values of the other sorts, which the counterexample checks of the
// executor make hot.
func (t *Table) EvalScalar(x Term, val func(Term) (int64, bool)) (int64, bool) {
	n := &t.nodes[x]
	switch n.op {
	case OpInt, OpBool:
		return n.val, true
	case OpVar:
		return val(x)
	case OpIte:
		c, ok := t.EvalScalar(n.a, val)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return t.EvalScalar(n.b, val)
		}
		return t.EvalScalar(n.c, val)
	case OpAnd, OpOr:
		a, ok := t.EvalScalar(n.a, val)
		if !ok || (a != 0) == (n.op == OpOr) {
			return a, ok
		}
		return t.EvalScalar(n.b, val)
	case OpNot:
		a, ok := t.EvalScalar(n.a, val)
		return 1 - a, ok
	case OpNeg:
		a, ok := t.EvalScalar(n.a, val)
		if !ok {
			return 0, false
		}
		return arith.Neg(a)
	case OpBitNot:
		a, ok := t.EvalScalar(n.a, val)
		return ecma.BitNot(a), ok
	}
	a, ok1 := t.EvalScalar(n.a, val)
	b, ok2 := t.EvalScalar(n.b, val)
	if !ok1 || !ok2 {
		return 0, false
	}
	switch n.op {
	case OpEq:
		return b2i(a == b), true
	case OpLt:
		return b2i(a < b), true
	case OpLe:
		return b2i(a <= b), true
	}
	return intOp(n.op, a, b)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
