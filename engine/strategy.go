package engine

import "github.com/setbot/setbot/solver"

// A strategy is how the explorer comes by a node's children, as a
// searcher is what KLEE's executor asks for the next state to run
// (Cadar, Dunbar and Engler, "KLEE: Unassisted and Automatic Generation of
// High-Coverage Tests for Complex Systems Programs", 2008). The walk is
// the same for every strategy, breadth first over one tree: full executes
// every step; MSE (the reuser, mse.go) copies a step's children from the
// base tree where that computes the same, and decides subsumption through
// the base tree's decisions (docs/architecture.md, MSE = full SE); DSE
// (dse.go) keeps one representative of the paths that fire no transition
// of interest (docs/architecture.md, DSE and candidates). The explorer
// calls its strategy at each point where they differ, never asks which one
// it has.
type strategy interface {
	// started is told the tree's root and the pairs its start processed.
	started(root *Node, trace []string)
	// counterpart is n's node in the base tree, nil for none.
	counterpart(n *Node) *Node
	// copied appends n's children for in, the ord-th input, copied from
	// b, n's counterpart, and reports whether it did; when not, the step
	// is executed.
	copied(kids []child, b, n *Node, in input, ord int) ([]child, bool)
	// attached is told c, made of k, became a child of parent.
	attached(parent, c *Node, k child)
	// kept is the children, sorted, the tree keeps.
	kept(kids []child) []child
	// canonOf is the canonical form of the node copied from b, nil when
	// it must be computed.
	canonOf(b *Node) []solver.Term
	// subsumer decides subsumption of n (canonical key and path condition
	// pc) without the solver, and reports whether it could.
	subsumer(n *Node, key string, pc []solver.Term) (*Node, bool)
	// indexed is told n became a candidate of subsumption under key, and
	// reports whether it is new to this tree (no base node's).
	indexed(n *Node, key string) (fresh bool)
	// forWorker is the strategy of a worker's explorer, we (parallel.go).
	forWorker(we *explorer) strategy
}

// full is Explore's strategy: every step executed, every child kept.
// MSE and DSE embed it for what they do as it does.
type full struct{}

var (
	_ strategy = full{}
	_ strategy = dse{}
	_ strategy = (*reuser)(nil)
)

func (full) started(*Node, []string)                                         {}
func (full) counterpart(*Node) *Node                                         { return nil }
func (full) copied(kids []child, _, _ *Node, _ input, _ int) ([]child, bool) { return kids, false }
func (full) attached(_, _ *Node, _ child)                                    {}
func (full) kept(kids []child) []child                                       { return kids }
func (full) canonOf(*Node) []solver.Term                                     { return nil }
func (full) subsumer(*Node, string, []solver.Term) (*Node, bool)             { return nil, false }
func (full) indexed(*Node, string) bool                                      { return true }
func (full) forWorker(*explorer) strategy                                    { return full{} }
