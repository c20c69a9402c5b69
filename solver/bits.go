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
	// The operands as ECMAScript sees them (left, right); for shifts the
	// right one is the count.
	l, r := ecma.ToInt32(a), ecma.ToInt32(b)
	switch op {
	case OpBitAnd:
		switch {
		case aok && l == 0, bok && r == 0:
			return t.Int(0)
		case aok && l == -1 && t.isInt32(y):
			return y
		case bok && r == -1 && t.isInt32(x), x == y && t.isInt32(x):
			return x
		}
	case OpBitOr:
		switch {
		case aok && l == -1, bok && r == -1:
			return t.Int(-1)
		case aok && l == 0 && t.isInt32(y):
			return y
		case bok && r == 0 && t.isInt32(x), x == y && t.isInt32(x):
			return x
		}
	case OpBitXor:
		switch {
		case x == y:
			return t.Int(0)
		case aok && l == 0 && t.isInt32(y):
			return y
		case bok && r == 0 && t.isInt32(x):
			return x
		}
	case OpShl, OpShr, OpUShr:
		count := ecma.ToUint32(b) & 31
		switch {
		case aok && l == 0:
			return t.Int(0)
		case aok && l == -1 && op == OpShr:
			return t.Int(-1)
		case bok && count == 0 && op != OpUShr && t.isInt32(x),
			bok && count == 0 && op == OpUShr && t.Op(x) == OpUShr:
			return x
		case bok && int64(count) != b:
			return t.bitOp(op, x, t.Int(int64(count)))
		}
	}
	return t.intern(node{op: op, sort: IntSort, a: x, b: y})
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
