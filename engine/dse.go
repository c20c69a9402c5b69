package engine

import (
	"github.com/setbot/setbot/engine/depend"
	"github.com/setbot/setbot/model/mlm"
)

// ExploreDSE builds a partial SET of m (dependency-based symbolic
// execution, Alg. 3 of Khalil and Dingel, Incremental symbolic execution,
// 2015): a step that fires a transition of interest (interest holds keys;
// DSEInterest computes them) keeps every path; of every other transition
// one representative path is kept. A state the partial tree reaches is
// reachable; one it does not reach may still be. A nil interest keeps
// every path (the full tree); an empty one, one path of each transition.
func ExploreDSE(m *mlm.Machine, interest map[string]bool, opts Options, newSolver NewSolver) (*SET, error) {
	return explore(m, opts, newSolver, func(e *explorer) {
		if interest != nil {
			e.strat = dse{interest: interest}
		}
	})
}

// DSEInterest returns the keys of the transitions ExploreDSE explores fully
// on a changed machine, whose dependence analysis is head: T_ofInterest of
// Khalil and Dingel, Incremental symbolic execution, 2015, the updated
// transitions (keys) and the impacted ones (depend.Impacted), and with
// them, transitively, every transition they are control or data dependent
// on in head. DSE keeps one path of every other transition, and the one it
// keeps must not decide whether, or with which values, a transition of
// interest is reached; the paper explores T_ofInterest alone and accepts
// that it can miss behaviour.
func DSEInterest(head *depend.Analysis, updated map[string]bool, impacted []*mlm.Transition) map[string]bool {
	interest := make(map[string]bool, len(updated)+len(impacted))
	var todo []string
	for k := range updated {
		interest[k] = true
		todo = append(todo, k)
	}
	for _, t := range impacted {
		if !interest[t.Key] {
			interest[t.Key] = true
			todo = append(todo, t.Key)
		}
	}
	into := make(map[string][]string)
	for _, deps := range [][]depend.Dep{head.Control, head.Data} {
		for _, d := range deps {
			into[d.To.Key] = append(into[d.To.Key], d.From.Key)
		}
	}
	for len(todo) > 0 {
		k := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, from := range into[k] {
			if !interest[from] {
				interest[from] = true
				todo = append(todo, from)
			}
		}
	}
	return interest
}

// dse is DSE's strategy: every step executed, and of the children only
// representatives kept.
type dse struct {
	full
	interest map[string]bool // the transitions explored fully (read only)
}

// kept is DSE's pruning (Alg. 3 of Khalil and Dingel, Incremental symbolic
// execution, 2015, lines 14-37) of a node's children, sorted: a step that
// fires a transition of interest keeps all its paths; of the others, only
// the first path of each first transition is kept.
func (d dse) kept(kids []child) []child {
	var out []child
	seen := make(map[string]bool)
	for _, k := range kids {
		interesting := len(k.edge.Fired) == 0
		for _, f := range k.edge.Fired {
			if d.interest[f.T.Key] {
				interesting = true
			}
		}
		if !interesting {
			first := k.edge.Event + "\x00" + k.edge.Fired[0].T.Key
			if seen[first] {
				continue
			}
			seen[first] = true
		}
		out = append(out, k)
	}
	return out
}

// forWorker is d: a worker reads the same transitions of interest.
func (d dse) forWorker(*explorer) strategy { return d }
