package engine

import (
	"encoding/binary"
	"slices"

	"github.com/setbot/setbot/solver"
)

// Slicer cuts a path condition down to what matters for some variables.
// When pc is satisfiable, as a node's is, pc ∧ c is satisfiable exactly
// when Slice(pc, vars of c) ∧ c is: the conjuncts left out share no
// variable with c, directly or through others. A smaller conjunction is
// cheaper to decide, and many nodes share it, so its answer can be reused.
type Slicer struct {
	tab *solver.Table
	// reach[v] == gen marks the variables v reached in the current call:
	// a load, where a map (which it was) cost half of Slice's time, and
	// Slice runs on every state's path condition, which grows with depth.
	reach []uint32
	gen   uint32
	in    []bool // scratch
}

// NewSlicer returns a Slicer over tab's terms.
func NewSlicer(tab *solver.Table) *Slicer { return &Slicer{tab: tab} }

// reached reports whether the current call reached variable v.
func (s *Slicer) reached(v solver.Term) bool { return int(v) < len(s.reach) && s.reach[v] == s.gen }

// mark records that the current call reached variable v.
func (s *Slicer) mark(v solver.Term) {
	if int(v) >= len(s.reach) {
		n := max(int(v), s.tab.Len()) + 1
		s.reach = slices.Grow(s.reach, n-len(s.reach))[:n]
	}
	s.reach[v] = s.gen
}

// Slice returns the conjuncts of pc connected to vars through shared
// variables, in pc's order.
func (s *Slicer) Slice(pc []solver.Term, vars []solver.Term) []solver.Term {
	if len(vars) == 0 || len(pc) == 0 {
		return nil
	}
	s.gen++
	if s.gen == 0 { // wrapped: old marks could pass for new ones
		clear(s.reach)
		s.gen = 1
	}
	for _, v := range vars {
		s.mark(v)
	}
	in := s.in[:0]
	for range pc {
		in = append(in, false)
	}
	s.in = in
	for changed := true; changed; {
		changed = false
		for i, x := range pc {
			if in[i] {
				continue
			}
			vs := s.tab.Vars(x)
			touches := false
			for _, v := range vs {
				if s.reached(v) {
					touches = true
					break
				}
			}
			if touches {
				in[i] = true
				changed = true
				for _, v := range vs {
					s.mark(v)
				}
			}
		}
	}
	k := 0
	for _, ok := range in {
		if ok {
			k++
		}
	}
	if k == 0 {
		return nil
	}
	out := make([]solver.Term, 0, k)
	for i, x := range pc {
		if in[i] {
			out = append(out, x)
		}
	}
	return out
}

// ConjKey identifies a conjunction as a set of terms, for a cache of
// answers: the order and repetitions of conj do not matter.
func ConjKey(conj []solver.Term) string {
	var ids [16]solver.Term // most conjunctions fit: no allocation but the key's
	sorted := append(ids[:0], conj...)
	slices.Sort(sorted)
	var key [64]byte
	b := key[:0]
	for i, id := range sorted {
		if i > 0 && id == sorted[i-1] {
			continue
		}
		b = binary.AppendUvarint(b, uint64(uint32(id))) // prefix-free: the ids can be told apart
	}
	return string(b)
}
