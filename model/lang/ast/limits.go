package ast

import "fmt"

// The limits on one expression and one script. Every pass over the tree
// (checker, inliner, lowering, printer, simplifier, the executors and the
// translation into solver terms) recurses on its nesting, and each keeps
// memory for each node: the limits are enforced once, where the tree is
// made (and again where inlining makes it deeper), so that no text can
// exhaust the stack and every pass stays proportional to the text.
const (
	// MaxNesting bounds how deep expressions and statements nest, in the
	// parser and in the tree it returns: each operand of an operator,
	// element of a literal, argument, parenthesis and statement inside
	// another counts a level, so that x + 1 + 1 ... is as deep as it is
	// long. Real models stay within a few dozen levels; a thousand levels
	// take a few hundred kilobytes of any pass's stack, and little of the
	// solver's.
	MaxNesting = 1000
	// MaxNodes bounds the nodes of one expression (operators, operands
	// and literals; an expression in a script is counted alone).
	MaxNodes = 100000
	// MaxStmts bounds the statements of one script, blocks aside.
	MaxStmts = 10000
)

// A LimitError is where a tree exceeds a limit, the message saying so,
// and what to do about it ("" when the message says all).
type LimitError struct {
	At        Node
	Msg, hint string
}

// String returns the message with its hint.
func (e *LimitError) String() string {
	if e.hint == "" {
		return e.Msg
	}
	return e.Msg + ": " + e.hint
}

// OverLimit returns where the tree rooted at n first exceeds MaxNesting or
// nodes nodes in one expression, or nil (the parser counts statements).
// It does not recurse: the tree may be as deep as the text is long.
func OverLimit(n Node, nodes int) *LimitError {
	type item struct {
		n      Node
		depth  int
		inExpr bool // n is part of an expression, not its outermost node
	}
	var (
		// The walk is depth first: the nodes of an outermost expression
		// come one after the other.
		root  Node
		count int
		stack = []item{{n: n, depth: 1}}
		kids  []Node
	)
	add := func(c Node) {
		if c != nil {
			kids = append(kids, c)
		}
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		_, isExpr := it.n.(Expr)
		if it.depth > MaxNesting {
			what := "statements"
			if isExpr {
				what = "expression"
			}
			return &LimitError{At: it.n, Msg: fmt.Sprintf("%s nested more than %d deep", what, MaxNesting)}
		}
		if isExpr {
			if !it.inExpr {
				root, count = it.n, 0
			}
			if count++; count > nodes {
				return &LimitError{root, fmt.Sprintf("expression of more than %d operators and operands", nodes), "compute it in steps, in locals"}
			}
		}
		kids = kids[:0]
		EachChild(it.n, add)
		// Pushed last to first, so that the first child comes out first
		// and the error is the first in the text.
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{n: kids[i], depth: it.depth + 1, inExpr: isExpr})
		}
	}
	return nil
}
