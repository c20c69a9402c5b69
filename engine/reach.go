package engine

import "github.com/setbot/setbot/model/mlm"

// Reachability says which statechart states a tree reaches, in the two
// senses a statechart has (docs/architecture.md §Analyses on the tree):
//
//   - a state is entered when some execution enters it, even if the same
//     macrostep leaves it again (a choice point classified at once, a state
//     an eventless transition leaves straight away);
//   - a state is stable when it is part of a configuration at the end of a
//     macrostep: one the machine rests in, waiting for its next input.
//
// Every stable state was entered. "Unreachable" means never entered; a
// state entered but never stable is transient. Each map gives the first
// node, breadth-first, whose step did it (the root for the start), so the
// path to that node is a shortest witness.
type Reachability struct {
	Entered map[string]*Node
	Stable  map[string]*Node
}

// Reachability computes the states s enters and rests in.
func (s *SET) Reachability() Reachability {
	r := Reachability{Entered: make(map[string]*Node), Stable: make(map[string]*Node)}
	src := s.Machine.Source
	// A transition's entered states, an MLM state's stable ones, are first
	// reached where the transition first fires, the state is first reached:
	// each is read once.
	fired := make(map[*mlm.Transition]bool)
	rested := make(map[*mlm.State]bool)
	for _, n := range s.Nodes {
		in := n.In
		if in == nil {
			in = s.Start
		}
		for _, f := range in.Fired {
			if fired[f.T] {
				continue
			}
			fired[f.T] = true
			for _, id := range f.T.Entered {
				if _, ok := r.Entered[id]; !ok {
					r.Entered[id] = n
				}
			}
		}
		if rested[n.State] {
			continue
		}
		rested[n.State] = true
		for _, id := range n.State.Atomic {
			// The ids of an invoked machine's states are scoped (sub.s0).
			for _, anc := range src.Ancestors(id) {
				if _, ok := r.Stable[anc]; !ok {
					r.Stable[anc] = n
				}
			}
		}
	}
	return r
}
