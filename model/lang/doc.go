// Package lang is setbot's small typed action and expression language: the
// language of guards and actions in every model format
// (docs/architecture.md §The action language). Its core is the subset on
// which ECMAScript and C agree, over mathematical integers and booleans,
// plus raise/send statements; around it, the parts of ECMAScript that
// statecharts use: exact decimals, strings and their common methods,
// undefined and null, typeof, 32-bit bit operators, _event's fields and the
// SCXML system variables.
//
// The passes are separate, in the manner of go/scanner, go/parser, go/types
// and go/printer: the trees are package lang/ast's, their text package
// lang/printer's; this package holds the scanner and parser, the type
// checker, and the passes that lower checked code for the executors
// (lowering, inlining, simplification). The checker does not mutate the
// AST; rewriting functions return new trees.
package lang
