package solver

import (
	"math/big"

	"github.com/setbot/setbot/model/lang/ecma"
)

// Reals are exact rationals: the action language's decimals. A constant
// holds its value as big.Rat's canonical text ("3/2"), so that equal
// values are one term. Neg, Add, Sub, Mul and Div work on reals when their
// first operand is one (both operands have one sort); x / 0 = 0 as for
// ints. An int meets a real only through ToReal.

// Rat returns the rational constant v.
func (t *Table) Rat(v *big.Rat) Term {
	return t.intern(node{op: OpRat, sort: RealSort, name: v.RatString()})
}

// RatValue returns the value of a rational constant.
func (t *Table) RatValue(x Term) (*big.Rat, bool) {
	n := &t.nodes[x]
	if n.op != OpRat {
		return nil, false
	}
	r, _ := new(big.Rat).SetString(n.name)
	return r, true
}

// ToReal returns the int x as a real.
func (t *Table) ToReal(x Term) Term {
	if v, ok := t.IntValue(x); ok {
		return t.Rat(new(big.Rat).SetInt64(v))
	}
	return t.intern(node{op: OpToReal, sort: RealSort, a: x})
}

// IsInt returns whether the real x is an integer (ECMAScript's
// Number.isInteger): with a scale, it says that a real lies on a grid.
func (t *Table) IsInt(x Term) Term {
	if r, ok := t.RatValue(x); ok {
		return t.Bool(r.IsInt())
	}
	if t.Op(x) == OpToReal {
		return t.Bool(true)
	}
	return t.intern(node{op: OpIsInt, sort: BoolSort, a: x})
}

// Floor returns the greatest int not above the real x.
func (t *Table) Floor(x Term) Term {
	if r, ok := t.RatValue(x); ok {
		if f, fits := floorRat(r); fits {
			return t.Int(f)
		}
	}
	if t.Op(x) == OpToReal {
		return t.nodes[x].a
	}
	return t.intern(node{op: OpFloor, sort: IntSort, a: x})
}

// floorRat returns the greatest integer not above r, and whether it fits
// an int64.
func floorRat(r *big.Rat) (int64, bool) {
	q := new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: rounds toward -inf for a positive divisor
	return q.Int64(), q.IsInt64()
}

// realOp returns the real operation op on x and y (y 0 for Neg), folded.
func (t *Table) realOp(op Op, x, y Term) Term {
	a, aok := t.RatValue(x)
	var b *big.Rat
	bok := false
	if y != 0 {
		b, bok = t.RatValue(y)
	}
	if aok && (bok || op == OpNeg) {
		return t.Rat(ratOp(op, a, b))
	}
	isRat := func(r *big.Rat, ok bool, v int64) bool { return ok && r.Cmp(big.NewRat(v, 1)) == 0 }
	switch op {
	case OpNeg:
		if t.Op(x) == OpNeg {
			return t.nodes[x].a
		}
		return t.intern(node{op: OpNeg, sort: RealSort, a: x})
	case OpAdd:
		switch {
		case isRat(a, aok, 0):
			return y
		case isRat(b, bok, 0):
			return x
		}
	case OpSub:
		switch {
		case isRat(b, bok, 0):
			return x
		case x == y:
			return t.Rat(new(big.Rat))
		}
	case OpMul:
		switch {
		case isRat(a, aok, 0) || isRat(b, bok, 0):
			return t.Rat(new(big.Rat))
		case isRat(a, aok, 1):
			return y
		case isRat(b, bok, 1):
			return x
		}
	case OpDiv:
		switch {
		case isRat(b, bok, 0):
			return t.Rat(new(big.Rat))
		case isRat(b, bok, 1):
			return x
		}
	}
	return t.intern(node{op: op, sort: RealSort, a: x, b: y})
}

// ratOp computes a real operation on constants.
func ratOp(op Op, a, b *big.Rat) *big.Rat {
	r := new(big.Rat)
	switch op {
	case OpNeg:
		return r.Neg(a)
	case OpAdd:
		return r.Add(a, b)
	case OpSub:
		return r.Sub(a, b)
	case OpMul:
		return r.Mul(a, b)
	case OpDiv:
		return ecma.Quo(a, b)
	}
	panic("solver: unexpected real operator")
}

// evalReal computes a term of RealSort other than a variable or ?:.
func (t *Table) evalReal(x Term, val func(Term) (Value, bool)) (Value, bool) {
	n := &t.nodes[x]
	realValue := func(r *big.Rat) (Value, bool) { return Value{Sort: RealSort, Rat: r}, true }
	switch n.op {
	case OpRat:
		r, _ := t.RatValue(x)
		return realValue(r)
	case OpToReal:
		a, ok := t.Eval(n.a, val)
		if !ok {
			return Value{}, false
		}
		return realValue(new(big.Rat).SetInt64(a.Int))
	case OpNeg:
		a, ok := t.Eval(n.a, val)
		if !ok {
			return Value{}, false
		}
		return realValue(ratOp(OpNeg, a.rat(), nil))
	}
	a, ok1 := t.Eval(n.a, val)
	b, ok2 := t.Eval(n.b, val)
	if !ok1 || !ok2 {
		return Value{}, false
	}
	return realValue(ratOp(n.op, a.rat(), b.rat()))
}

// rat returns a real value's rational; the zero Value's is 0.
func (v Value) rat() *big.Rat {
	if v.Rat == nil {
		return new(big.Rat)
	}
	return v.Rat
}
