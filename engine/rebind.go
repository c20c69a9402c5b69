package engine

import (
	"fmt"

	"github.com/setbot/setbot/model/mlm"
)

// Rebind returns s as the tree of m, a machine equal to s's (the same
// hash: the same states, variables, events, tables and transitions, read
// maybe from another file or from other text): the same nodes, terms,
// statistics and bounds, with m's states and transitions in place of
// s.Machine's. What is read on the copy through its machine (source
// lines, the statechart transitions that compete in a state, the table
// rows a path relies on) is then m's, not that of the machine s was built
// for. Node IDs are kept: a node of the copy is the node of s with its ID.
// s is left as it is; the copy shares its terms and values.
func (s *SET) Rebind(m *mlm.Machine) (*SET, error) {
	if m.Hash != s.Machine.Hash {
		return nil, fmt.Errorf("the tree is of machine %.12s, not %.12s", s.Machine.Hash, m.Hash)
	}
	trans := transitionsByKey(m)
	edge := func(e *Edge) (*Edge, error) {
		if e == nil {
			return nil, nil
		}
		c := *e
		c.Fired = make([]Fired, len(e.Fired))
		for i, f := range e.Fired {
			t := trans[f.T.Key]
			if t == nil {
				return nil, fmt.Errorf("no MLM transition %q", f.T.Key)
			}
			c.Fired[i] = Fired{T: t, Path: f.Path}
		}
		return &c, nil
	}
	out := *s
	out.Machine, out.Bounds = m, append([]BoundHit(nil), s.Bounds...)
	var err error
	if out.Start, err = edge(s.Start); err != nil {
		return nil, err
	}
	nodes := make([]Node, len(s.Nodes))
	out.Nodes = make([]*Node, len(s.Nodes))
	for i := range nodes {
		out.Nodes[i] = &nodes[i]
	}
	at := func(n *Node) *Node {
		if n == nil {
			return nil
		}
		return out.Nodes[n.ID]
	}
	// The children of all nodes in one array: Children slices of it.
	children := make([]*Node, 0, len(s.Nodes))
	for i, n := range s.Nodes {
		if n.ID != i {
			return nil, fmt.Errorf("node %d has ID %d", i, n.ID)
		}
		c := &nodes[i]
		*c = *n
		if c.State = m.State(n.State.Name); c.State == nil {
			return nil, fmt.Errorf("node %d: no MLM state %q", i, n.State.Name)
		}
		if c.In, err = edge(n.In); err != nil {
			return nil, fmt.Errorf("node %d: %w", i, err)
		}
		c.Parent, c.Subsumed = at(n.Parent), at(n.Subsumed)
		if n.Children != nil {
			start := len(children)
			for _, ch := range n.Children {
				children = append(children, at(ch))
			}
			c.Children = children[start:len(children):len(children)]
		}
	}
	return &out, nil
}

// transitionsByKey maps the keys of m's transitions, initial ones
// included, to them.
func transitionsByKey(m *mlm.Machine) map[string]*mlm.Transition {
	trans := make(map[string]*mlm.Transition, len(m.Transitions)+len(m.Initial))
	for _, t := range m.Initial {
		trans[t.Key] = t
	}
	for _, t := range m.Transitions {
		trans[t.Key] = t
	}
	return trans
}
