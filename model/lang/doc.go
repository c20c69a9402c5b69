// Package lang is setbot's small typed action and expression language: the
// language of guards and actions in every model format
// (docs/architecture.md §The action language). Its core is the subset on
// which ECMAScript and C agree, over mathematical integers and booleans,
// plus raise/send statements; around it, the parts of ECMAScript that
// statecharts use: exact decimals, strings and their common methods,
// undefined and null, typeof, 32-bit bit operators, _event's fields and the
// SCXML system variables.
//
// The passes are separate, in the manner of go/ast, go/parser, go/types,
// go/constant and go/printer: the trees are package lang/ast's, read by
// lang/parser and printed by lang/printer. This package is the type
// checker, split by construct as go/types is (check.go its entry points
// and state, expr.go expressions, stmt.go statements, assign.go
// assignments, call.go calls and conversions), with the rule on decimals
// a whole model follows (CheckDecimals) and the variables code reads and
// writes (Uses, Defs). Package lang/simplify folds constants, which the
// checker asks as go/types asks go/constant; package lang/lower turns
// checked code into what the executors run (lowering, inlining). The
// checker never changes a tree; the passes after it return new ones.
package lang
