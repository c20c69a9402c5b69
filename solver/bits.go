package solver

import "github.com/setbot/setbot/model/lang/ecma"

// ECMAScript's 32-bit bit operators on integer terms (package ecma says
// how they convert their operands). Each folds to a constant when its
// operands are constants. Note that x | 0 is not x: it wraps x into 32
// bits. The identities that drop an operation apply only where the other
// operand is already a 32-bit result.

// BitAnd returns x & y.
func (t *Table) BitAnd(x, y Term) Term { return t.bitOp(OpBitAnd, x, y) }

// BitOr returns x | y.
func (t *Table) BitOr(x, y Term) Term { return t.bitOp(OpBitOr, x, y) }

// BitXor returns x ^ y.
func (t *Table) BitXor(x, y Term) Term { return t.bitOp(OpBitXor, x, y) }

// Shl returns x << y.
func (t *Table) Shl(x, y Term) Term { return t.bitOp(OpShl, x, y) }

// Shr returns x >> y, which shifts in copies of the sign bit.
func (t *Table) Shr(x, y Term) Term { return t.bitOp(OpShr, x, y) }

// UShr returns x >>> y, which shifts in zeros: the result is unsigned.
func (t *Table) UShr(x, y Term) Term { return t.bitOp(OpUShr, x, y) }

// BitNot returns ~x.
func (t *Table) BitNot(x Term) Term {
	if v, ok := t.IntValue(x); ok {
		return t.Int(ecma.BitNot(v))
	}
	if n := t.nodes[x]; n.op == OpBitNot && t.isInt32(n.a) {
		return n.a
	}
	return t.intern(node{op: OpBitNot, sort: IntSort, a: x})
}

var bitFuncs = map[Op]func(a, b int64) int64{
	OpBitAnd: ecma.BitAnd, OpBitOr: ecma.BitOr, OpBitXor: ecma.BitXor,
	OpShl: ecma.Shl, OpShr: ecma.Shr, OpUShr: ecma.UShr,
}

// bitOp builds x op y for a binary bit operator. A constant shift count is
// reduced modulo 32, so that x << 33 and x << 1 are one term.
func (t *Table) bitOp(op Op, x, y Term) Term {
	a, aok := t.IntValue(x)
	b, bok := t.IntValue(y)
	if aok && bok {
		return t.Int(bitFuncs[op](a, b))
	}
	if op == OpShl || op == OpShr || op == OpUShr {
		if r, ok := t.shiftIdentity(op, x, y); ok {
			return r
		}
	} else if r, ok := t.logicIdentity(op, x, y); ok {
		return r
	}
	return t.intern(node{op: op, sort: IntSort, a: x, b: y})
}

// logicIdentity simplifies x op y for &, | and ^ where one operand is the
// operator's absorbing element (0 for &, -1 for |) or its identity (-1
// for &, 0 for | and ^), as ECMAScript sees it (ToInt32), or both are one
// term (x & x = x | x = x, x ^ x = 0).
func (t *Table) logicIdentity(op Op, x, y Term) (Term, bool) {
	a, aok := t.IntValue(x)
	b, bok := t.IntValue(y)
	l, r := ecma.ToInt32(a), ecma.ToInt32(b)
	var absorb, ident int32 = 0, 0
	switch op {
	case OpBitAnd:
		absorb, ident = 0, -1
	case OpBitOr:
		absorb, ident = -1, 0
	case OpBitXor:
		if x == y {
			return t.Int(0), true
		}
	default:
		return 0, false
	}
	switch {
	case op != OpBitXor && (aok && l == absorb || bok && r == absorb):
		return t.Int(int64(absorb)), true
	case aok && l == ident && t.isInt32(y):
		return y, true
	case bok && r == ident && t.isInt32(x), op != OpBitXor && x == y && t.isInt32(x):
		return x, true
	}
	return 0, false
}

// shiftIdentity simplifies x op y for the shifts: of 0 (and -1 >> n), by
// a count of 0, and by a constant count not yet reduced modulo 32.
func (t *Table) shiftIdentity(op Op, x, y Term) (Term, bool) {
	a, aok := t.IntValue(x)
	b, bok := t.IntValue(y)
	l := ecma.ToInt32(a)
	count := ecma.ShiftCount(b)
	switch {
	case aok && l == 0:
		return t.Int(0), true
	case aok && l == -1 && op == OpShr:
		return t.Int(-1), true
	case bok && count == 0 && op != OpUShr && t.isInt32(x),
		bok && count == 0 && op == OpUShr && t.Op(x) == OpUShr:
		return x, true
	case bok && int64(count) != b:
		return t.bitOp(op, x, t.Int(int64(count))), true
	}
	return 0, false
}

// isInt32 reports whether x's value is surely in [-2^31, 2^31): it is such
// a constant or the result of a signed bit operator.
func (t *Table) isInt32(x Term) bool {
	switch n := t.nodes[x]; n.op {
	case OpInt:
		return int64(int32(n.val)) == n.val
	case OpBitAnd, OpBitOr, OpBitXor, OpBitNot, OpShl, OpShr:
		return true
	}
	return false
}
