package lang

import (
	"fmt"
	"slices"
)

// The limits on one expression and one script. Every pass over the tree
// (checker, inliner, lowering, printer, simplifier, the executors and the
// translation into solver terms) recurses on its nesting, and each keeps
// memory for each node: the limits are enforced once, where the tree is
// made (and again where inlining makes it deeper), so that no text can
// exhaust the stack and every pass stays proportional to the text.
const (
	// MaxDepth bounds how deep expressions and statements nest, in the
	// parser and in the tree it returns: each operand of an operator,
	// element of a literal, argument, parenthesis and statement inside
	// another counts a level, so that x + 1 + 1 ... is as deep as it is
	// long. Real models stay within a few dozen levels; a thousand levels
	// take a few hundred kilobytes of any pass's stack, and little of the
	// solver's.
	MaxDepth = 1000
	// MaxNodes bounds the nodes of one expression (operators, operands
	// and literals; an expression in a script is counted alone).
	MaxNodes = 100000
	// MaxStmts bounds the statements of one script.
	MaxStmts = 10000
)

// A limitError is where a tree exceeds a limit, the message saying so,
// and what to do about it ("" when the message says all).
type limitError struct {
	at        Node
	msg, hint string
}

// String returns the message with its hint.
func (e *limitError) String() string {
	if e.hint == "" {
		return e.msg
	}
	return e.msg + ": " + e.hint
}

// overLimit returns where the tree rooted at n first exceeds MaxDepth,
// nodes nodes in one expression, or MaxStmts statements, or nil. It does
// not recurse: the tree may be as deep as the text is long.
func overLimit(n Node, nodes int) *limitError {
	type item struct {
		n     Node
		depth int
		expr  int // index in roots of the expression n is part of, -1 for a statement
	}
	var (
		roots  []Node // the outermost expressions
		counts []int  // their nodes so far
		stmts  int
		stack  = []item{{n: n, depth: 1, expr: -1}}
		kids   []Node
	)
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		_, isExpr := it.n.(Expr)
		if it.depth > MaxDepth {
			what := "statements"
			if isExpr {
				what = "expression"
			}
			return &limitError{at: it.n, msg: fmt.Sprintf("%s nested more than %d deep", what, MaxDepth)}
		}
		switch _, isBlock := it.n.(*Block); {
		case isExpr:
			if it.expr < 0 {
				it.expr = len(roots)
				roots, counts = append(roots, it.n), append(counts, 0)
			}
			if counts[it.expr]++; counts[it.expr] > nodes {
				return &limitError{roots[it.expr], fmt.Sprintf("expression of more than %d operators and operands", nodes), "compute it in steps, in locals"}
			}
		case !isBlock:
			if stmts++; stmts > MaxStmts {
				return &limitError{it.n, fmt.Sprintf("more than %d statements in one script", MaxStmts), "split it between transitions or states"}
			}
		}
		kids = kids[:0]
		eachChild(it.n, func(c Node) {
			if c != nil {
				kids = append(kids, c)
			}
		})
		// Pushed last to first, so that the first child comes out first
		// and the error is the first in the text.
		for _, c := range slices.Backward(kids) {
			stack = append(stack, item{n: c, depth: it.depth + 1, expr: it.expr})
		}
	}
	return nil
}
