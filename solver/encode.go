package solver

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// AppendBinary appends the table's terms to b, in creation order, so that
// ReadTable rebuilds a table whose terms have the same indexes.
func (t *Table) AppendBinary(b []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(t.nodes)-1))
	for _, n := range t.nodes[1:] {
		b = append(b, byte(n.op), byte(n.sort))
		switch n.op {
		case OpInt, OpBool:
			b = binary.AppendVarint(b, n.val)
		case OpVar:
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
// that refer to earlier terms of the right sort, no duplicates) so that a
// damaged encoding is an error, never a table that breaks later.
func ReadTable(b []byte) (*Table, []byte, error) {
	count, k := binary.Uvarint(b)
	if k <= 0 || count > uint64(len(b)) {
		return nil, nil, fmt.Errorf("%w: bad term count", errTable)
	}
	b = b[k:]
	t := NewTable()
	t.nodes = make([]node, 1, count+1)
	operand := func(want Sort) (Term, error) {
		v, k := binary.Uvarint(b)
		if k <= 0 || v >= uint64(len(t.nodes)) {
			return 0, fmt.Errorf("%w: operand out of range at term %d", errTable, len(t.nodes))
		}
		b = b[k:]
		x := Term(v)
		if want != 0 && (x == 0 || t.nodes[x].sort != want) {
			return 0, fmt.Errorf("%w: operand of the wrong sort at term %d", errTable, len(t.nodes))
		}
		return x, nil
	}
	for i := uint64(0); i < count; i++ {
		if len(b) < 2 {
			return nil, nil, fmt.Errorf("%w: truncated at term %d", errTable, i+1)
		}
		n := node{op: Op(b[0]), sort: Sort(b[1])}
		b = b[2:]
		if n.sort != IntSort && n.sort != BoolSort {
			return nil, nil, fmt.Errorf("%w: bad sort at term %d", errTable, i+1)
		}
		var err error
		switch n.op {
		case OpInt, OpBool:
			v, k := binary.Varint(b)
			if k <= 0 {
				return nil, nil, fmt.Errorf("%w: truncated constant at term %d", errTable, i+1)
			}
			b, n.val = b[k:], v
		case OpVar:
			l, k := binary.Uvarint(b)
			if k <= 0 || l > uint64(len(b)-k) {
				return nil, nil, fmt.Errorf("%w: truncated name at term %d", errTable, i+1)
			}
			n.name = string(b[k : k+int(l)])
			b = b[k+int(l):]
		case OpNeg, OpAdd, OpSub, OpMul, OpDiv, OpRem, OpEq, OpLt, OpLe, OpNot, OpAnd, OpOr, OpIte:
			if n.a, err = operand(0); err == nil {
				if n.b, err = operand(0); err == nil {
					n.c, err = operand(0)
				}
			}
			if err == nil && n.a == 0 {
				err = fmt.Errorf("%w: missing operand at term %d", errTable, i+1)
			}
		default:
			err = fmt.Errorf("%w: bad operator %d at term %d", errTable, n.op, i+1)
		}
		if err != nil {
			return nil, nil, err
		}
		if _, dup := t.index[n]; dup {
			return nil, nil, fmt.Errorf("%w: duplicate term %d", errTable, i+1)
		}
		t.index[n] = Term(len(t.nodes))
		t.nodes = append(t.nodes, n)
	}
	return t, b, nil
}
