// Package lower turns checked code of the action language (package lang)
// into the form the executors run, as a compiler's middle end follows
// go/types: lowering (lower.go) makes truthiness explicit and carries a
// value that may be undefined or null as a pair of a value and a tag, an
// array or object as its scalar leaves (lowercomp.go) and a value of
// several kinds as tagged alternatives (lowermixed.go); inlining
// (inline.go) unfolds the calls of the functions a model's script
// declares, to a bound, those with effects as statements (effects.go),
// and turns a host call whose value is used into an
// unconstrained value (hostvalue.go). The passes read the checker's
// results (lang.Info) and never change a tree: each returns a new one
// (docs/architecture.md §The action language).
package lower
