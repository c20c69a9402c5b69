package solver

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"unicode/utf8"
)

// AppendBinary appends the table's terms to b, in creation order, so that
// ReadTable rebuilds a table whose terms have the same indexes; then the
// black-box calls (Apply) and the concretising conjuncts (Concretise) it
// remembers, in term order.
func (t *Table) AppendBinary(b []byte) []byte {
	b = t.appendTerms(b)
	var calls, pins []Term
	for x := Term(1); int(x) < len(t.nodes); x++ {
		if _, ok := t.calls[x]; ok {
			calls = append(calls, x)
		}
		if t.pins[x] {
			pins = append(pins, x)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(calls)))
	for _, x := range calls {
		c := t.calls[x]
		b = binary.AppendUvarint(b, uint64(x))
		b = binary.AppendUvarint(b, uint64(len(c.Fun)))
		b = append(b, c.Fun...)
		b = binary.AppendUvarint(b, uint64(len(c.Args)))
		for _, a := range c.Args {
			b = binary.AppendUvarint(b, uint64(a))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(pins)))
	for _, x := range pins {
		b = binary.AppendUvarint(b, uint64(x))
	}
	return b
}

func (t *Table) appendTerms(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(t.nodes)-1))
	for _, n := range t.nodes[1:] {
		b = append(b, byte(n.op), byte(n.sort))
		switch n.op {
		case OpInt, OpBool:
			b = binary.AppendVarint(b, n.val)
		case OpVar, OpStr, OpRat:
			b = binary.AppendUvarint(b, uint64(len(n.name)))
			b = append(b, n.name...)
		default:
			b = binary.AppendUvarint(b, uint64(n.a))
			b = binary.AppendUvarint(b, uint64(n.b))
			b = binary.AppendUvarint(b, uint64(n.c))
		}
	}
	return b
}

// errTable is wrapped by every decoding error.
var errTable = errors.New("malformed term table")

// ReadTable decodes a table written by AppendBinary from the front of b and
// returns the rest of b. It checks what it reads (operators, sorts, operands
// that refer to earlier terms of the right sort, string constants in UTF-8,
// no duplicates) so that a damaged encoding is an error, never a table that
// breaks later.
func ReadTable(b []byte) (*Table, []byte, error) {
	count, k := binary.Uvarint(b)
	if k <= 0 || count > uint64(len(b)) {
		return nil, nil, fmt.Errorf("%w: bad term count", errTable)
	}
	r := &tableReader{b: b[k:], t: NewTable()}
	r.t.nodes = make([]node, 1, count+1)
	for i := uint64(0); i < count; i++ {
		n, err := r.node(i + 1)
		if err != nil {
			return nil, nil, err
		}
		if _, dup := r.t.index[n]; dup {
			return nil, nil, fmt.Errorf("%w: duplicate term %d", errTable, i+1)
		}
		r.t.index[n] = Term(len(r.t.nodes))
		r.t.appendNode(n)
	}
	if err := r.calls(); err != nil {
		return nil, nil, err
	}
	if err := r.pins(); err != nil {
		return nil, nil, err
	}
	return r.t, r.b, nil
}

// tableReader reads a table's encoding from the front of b into t.
type tableReader struct {
	b []byte
	t *Table
}

// operand reads a reference to a term already read.
func (r *tableReader) operand() (Term, error) {
	v, k := binary.Uvarint(r.b)
	if k <= 0 || v >= uint64(len(r.t.nodes)) {
		return 0, fmt.Errorf("%w: operand out of range at term %d", errTable, len(r.t.nodes))
	}
	r.b = r.b[k:]
	return Term(v), nil
}

// number reads a count or a length, which cannot exceed what is left.
func (r *tableReader) number(what string) (uint64, error) {
	v, k := binary.Uvarint(r.b)
	if k <= 0 || v > uint64(len(r.b)) {
		return 0, fmt.Errorf("%w: bad %s", errTable, what)
	}
	r.b = r.b[k:]
	return v, nil
}

// node reads term i (1-based) and checks it.
func (r *tableReader) node(i uint64) (node, error) {
	if len(r.b) < 2 {
		return node{}, fmt.Errorf("%w: truncated at term %d", errTable, i)
	}
	n := node{op: Op(r.b[0]), sort: Sort(r.b[1])}
	r.b = r.b[2:]
	if n.sort != IntSort && n.sort != BoolSort && n.sort != StringSort && n.sort != RealSort {
		return n, fmt.Errorf("%w: bad sort at term %d", errTable, i)
	}
	switch n.op {
	case OpInt, OpBool:
		v, k := binary.Varint(r.b)
		if k <= 0 {
			return n, fmt.Errorf("%w: truncated constant at term %d", errTable, i)
		}
		r.b, n.val = r.b[k:], v
		if !(n.op == OpInt && n.sort == IntSort || n.op == OpBool && n.sort == BoolSort && n.val&^1 == 0) {
			return n, fmt.Errorf("%w: bad constant at term %d", errTable, i)
		}
	case OpVar, OpStr, OpRat:
		l, k := binary.Uvarint(r.b)
		if k <= 0 || l > uint64(len(r.b)-k) {
			return n, fmt.Errorf("%w: truncated text at term %d", errTable, i)
		}
		n.name = string(r.b[k : k+int(l)])
		r.b = r.b[k+int(l):]
		if n.op == OpStr && (n.sort != StringSort || !utf8.ValidString(n.name)) {
			return n, fmt.Errorf("%w: bad string constant at term %d", errTable, i)
		}
		if n.op == OpRat && (n.sort != RealSort || !canonicalRat(n.name)) {
			return n, fmt.Errorf("%w: bad rational constant at term %d", errTable, i)
		}
	default:
		var err error
		if n.a, err = r.operand(); err == nil {
			if n.b, err = r.operand(); err == nil {
				n.c, err = r.operand()
			}
		}
		if err != nil {
			return n, err
		}
		if !r.t.wellSorted(n) {
			return n, fmt.Errorf("%w: unknown operator %d or operands of the wrong sorts at term %d", errTable, n.op, i)
		}
	}
	return n, nil
}

// calls reads the black-box calls: each a result variable, a function
// name and argument terms.
func (r *tableReader) calls() error {
	calls, err := r.number("call count")
	if err != nil {
		return err
	}
	for range calls {
		x, err := r.operand()
		if err != nil || x == 0 || r.t.nodes[x].op != OpVar {
			return fmt.Errorf("%w: a call's result is no variable", errTable)
		}
		l, err := r.number("function name")
		if err != nil || l > uint64(len(r.b)) {
			return fmt.Errorf("%w: truncated function name", errTable)
		}
		c := &Call{Fun: string(r.b[:l]), Result: x}
		r.b = r.b[l:]
		nargs, err := r.number("argument count")
		if err != nil {
			return err
		}
		for range nargs {
			a, err := r.operand()
			if err != nil || a == 0 {
				return fmt.Errorf("%w: bad call argument", errTable)
			}
			c.Args = append(c.Args, a)
		}
		if r.t.calls == nil {
			r.t.calls = make(map[Term]*Call)
		}
		r.t.calls[x] = c
	}
	return nil
}

// pins reads the concretising conjuncts.
func (r *tableReader) pins() error {
	pins, err := r.number("pin count")
	if err != nil {
		return err
	}
	for range pins {
		x, err := r.operand()
		if err != nil || x == 0 || r.t.nodes[x].sort != BoolSort {
			return fmt.Errorf("%w: bad concretising conjunct", errTable)
		}
		r.t.Concretise(x)
	}
	return nil
}

// wellSorted reports whether n's operator is known and n has its operands
// (the unused ones 0) of the sorts it takes, and its result sort.
func (t *Table) wellSorted(n node) bool {
	a, b, c := t.nodes[n.a].sort, t.nodes[n.b].sort, t.nodes[n.c].sort // 0 for no operand
	is := func(result, x, y, z Sort) bool { return n.sort == result && a == x && b == y && c == z }
	switch n.op {
	case OpEq:
		return a != 0 && is(BoolSort, a, a, 0)
	case OpLt, OpLe:
		return (a == IntSort || a == StringSort || a == RealSort) && is(BoolSort, a, a, 0)
	case OpIte:
		return b != 0 && is(b, BoolSort, b, b)
	}
	for _, sig := range signatures[n.op] {
		if is(sig[0], sig[1], sig[2], sig[3]) {
			return true
		}
	}
	return false
}

// signature is an operator's result sort and its operands' sorts (0 for
// no operand).
type signature [4]Sort

// signatures are the signatures of the operators whose operands' sorts
// do not depend on one another (wellSorted checks ==, <, <= and ?:).
var signatures = func() map[Op][]signature {
	I, B, S, R := IntSort, BoolSort, StringSort, RealSort
	return map[Op][]signature{
		OpNeg: {{I, I, 0, 0}, {R, R, 0, 0}}, OpBitNot: {{I, I, 0, 0}},
		OpAdd: {{I, I, I, 0}, {R, R, R, 0}}, OpSub: {{I, I, I, 0}, {R, R, R, 0}},
		OpMul: {{I, I, I, 0}, {R, R, R, 0}}, OpDiv: {{I, I, I, 0}, {R, R, R, 0}},
		OpRem: {{I, I, I, 0}}, OpBitAnd: {{I, I, I, 0}}, OpBitOr: {{I, I, I, 0}}, OpBitXor: {{I, I, I, 0}},
		OpShl: {{I, I, I, 0}}, OpShr: {{I, I, I, 0}}, OpUShr: {{I, I, I, 0}},
		OpToReal: {{R, I, 0, 0}}, OpIsInt: {{B, R, 0, 0}}, OpFloor: {{I, R, 0, 0}},
		OpDigits: {{S, I, 0, 0}}, OpNumeral: {{I, S, 0, 0}},
		OpNot: {{B, B, 0, 0}}, OpAnd: {{B, B, B, 0}}, OpOr: {{B, B, B, 0}},
		OpConcat: {{S, S, S, 0}}, OpLength: {{I, S, 0, 0}}, OpIndexOf: {{I, S, S, 0}}, OpLastIndexOf: {{I, S, S, 0}},
		OpStartsWith: {{B, S, S, 0}}, OpEndsWith: {{B, S, S, 0}}, OpIncludes: {{B, S, S, 0}},
		OpSubstring: {{S, S, I, I}}, OpCharAt: {{S, S, I, 0}},
	}
}()

// canonicalRat reports whether s is a rational as big.Rat's RatString
// writes it, so that one value has one constant.
func canonicalRat(s string) bool {
	r, ok := new(big.Rat).SetString(s)
	return ok && r.RatString() == s
}
