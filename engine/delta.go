package engine

import (
	"fmt"
	"slices"

	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
)

// A tree MSE built copies most of its nodes from the base tree (AQS at
// depth 12, one guard changed: 24,319 of 25,378): a copy is the base node
// with its terms imported into the new tree's table, and only what
// exploring it decided (its subsumer, cut, expansion, canonical form and
// the bounds its steps met) is the new tree's own. So the tree can be
// stored as a delta against the base tree's encoding: its term table,
// then every node either whole, as MarshalBinary writes it, or as the base
// node it copies and those decisions. DecodeDelta rebuilds from the delta
// and the base's encoding the tree DecodeSET rebuilds from MarshalBinary's
// (the same Dump, the same encoding again).
//
// The base is decoded with the head's machine (reader.lenient) and its
// terms are imported into a copy of the head's table, as MSE imported them;
// the writer keeps a node as a copy only where that import gives the node
// exactly, so the delta never depends on how MSE copied.

// origin is the base tree MSE built a tree from, and what it copied.
type origin struct {
	base   *SET
	from   []*Node // by node ID: the base node it was copied from, nil for none
	copied int     // the non-nil ones
}

// DeltaBase returns the base tree a delta of s refers to: the tree MSE
// copied most of s's nodes from, as it was given to ExploreMSE. It is nil
// when s was not built by MSE, or copied less than half its nodes (a
// delta would save little), or copied under renamed names.
func (s *SET) DeltaBase() *SET {
	if s.origin == nil || 2*s.origin.copied < len(s.Nodes) {
		return nil
	}
	return s.origin.base
}

// A delta node is written as its parent, then 0 and the node as writer.node
// writes it, or the base node's ID plus one and the node's decisions, then
// its canonical form: none, the base node's imported, or its own.
const (
	canonNone = iota
	canonImported
	canonOwn
)

// MarshalDelta encodes s as a delta against its DeltaBase, whose encoding
// is stored under baseKey: the encoding names that key (DeltaOf), and
// DecodeDelta needs the base's encoding to rebuild s. It fails when s has
// no DeltaBase.
func (s *SET) MarshalDelta(baseKey string) ([]byte, error) {
	base := s.DeltaBase()
	if base == nil {
		return nil, fmt.Errorf("encoding the tree as a delta: it was not copied from a base tree")
	}
	w := &writer{}
	w.b = append(w.b, EncodingVersion...)
	w.b = append(w.b, encodedDelta)
	w.str(baseKey)
	w.str(base.Machine.Hash)
	table := w.header(s)
	imp, err := newImporter(base.Terms, table)
	if err != nil {
		return nil, err
	}
	w.uint(len(s.Nodes))
	from := s.origin.from
	imp.copyOf = make([]*Node, len(s.Nodes))
	prev := 0
	for i, n := range s.Nodes {
		if n.ID != i {
			return nil, fmt.Errorf("encoding the tree: node %d has ID %d", i, n.ID)
		}
		w.uint(parentRef(n))
		var b *Node
		if i < len(from) {
			b = from[i]
		}
		if b == nil || !imp.nodeLike(n, b) {
			w.uint(0)
			w.node(n)
			continue
		}
		imp.copyOf[i] = b
		// Copies come mostly in the base's order: the difference from
		// the last copy's base node is one byte.
		w.uint(zigzag(b.ID-prev) + 1)
		prev = b.ID
		w.decisions(n)
		switch {
		case n.canon == nil:
			w.uint(canonNone)
		case b.canon != nil && imp.like(n.canon, b.canon):
			w.uint(canonImported)
		default:
			w.uint(canonOwn)
			w.canon(n.canon)
		}
		w.steps(n)
	}
	return w.b, nil
}

// DeltaOf returns the key of the base tree a delta refers to, and false
// when data is not a delta (a whole tree, or no tree of this version).
func DeltaOf(data []byte) (baseKey string, ok bool) {
	v := len(EncodingVersion)
	if len(data) <= v || string(data[:v]) != EncodingVersion || data[v] != encodedDelta {
		return "", false
	}
	var set *SET
	var err error
	func() {
		defer decoding(&set, &err)
		r := &reader{b: data[v+1:]}
		baseKey = r.str()
	}()
	return baseKey, err == nil
}

// DecodeDelta rebuilds a tree of machine m from MarshalDelta's encoding and
// base, the encoding of the base tree it names (MarshalBinary's; a delta
// against a delta is refused). Damage to either is an error wrapping
// ErrEncoding, never a panic.
func DecodeDelta(m *mlm.Machine, data, base []byte) (set *SET, err error) {
	defer decoding(&set, &err)
	r := &reader{b: data}
	r.magic(encodedDelta)
	r.str() // the base's key, DeltaOf's
	br := &reader{b: base, lenient: true}
	br.magic(encodedWhole)
	b := br.whole(m, r.str())
	s := r.header(m, m.Hash)
	imp, err := newImporter(b.Terms, r.table)
	if err != nil {
		r.fail("%v", err)
	}
	count := r.count()
	if count == 0 {
		r.fail("no root node")
	}
	s.Nodes = make([]*Node, 0, count)
	nodes := make([]Node, count)
	imp.copyOf = make([]*Node, count)
	prev := 0
	for i := 0; i < count; i++ {
		n := &nodes[i]
		r.parent(s, n, i)
		if k := r.uint(); k == 0 {
			r.node(s, n, i)
		} else {
			id := prev + unzigzag(k-1)
			if id < 0 || id >= len(b.Nodes) || n.Parent == nil {
				r.fail("node %d: a copy of base node %d of %d", i, id, len(b.Nodes))
			}
			prev = id
			imp.copyOf[i] = b.Nodes[id]
			r.copied(s, n, i, b.Nodes[id], imp)
		}
		s.Nodes = append(s.Nodes, n)
	}
	r.end()
	linkChildren(s.Nodes)
	return s, nil
}

// copied reads into n, the i-th node, what MarshalDelta wrote of a copy
// of b: n is b with its terms imported, and the decisions read.
func (r *reader) copied(s *SET, n *Node, i int, b *Node, imp *importer) {
	if b.Parent == nil || b.State == nil {
		r.fail("node %d: a copy of base node %d, a root or of a state the machine lacks", i, b.ID)
	}
	n.State, n.Depth = b.State, b.Depth
	n.In = imp.edge(r, b.In)
	n.Vals = imp.termsLike(r, n, b, n.Vals, b.Vals, n.Parent.Vals, b.Parent.Vals)
	if len(n.Vals) != len(r.m.Vars) {
		r.fail("node %d: %d values for %d variables", i, len(n.Vals), len(r.m.Vars))
	}
	n.PC = imp.termsLike(r, n, b, n.PC, b.PC, n.Parent.PC, b.Parent.PC)
	if len(b.Timers) > 0 {
		n.Timers = make([]Timer, len(b.Timers))
		for j, t := range b.Timers {
			n.Timers[j] = Timer{Event: t.Event, Args: imp.args(r, t.Args), ID: t.ID, Due: imp.term(r, t.Due)}
		}
	}
	r.decisions(s, n, i)
	switch r.uint() {
	case canonNone:
	case canonImported:
		if b.canon == nil {
			r.fail("node %d: the canonical form of base node %d, which has none", i, b.ID)
		}
		n.canon = imp.canon(r, b.canon)
	case canonOwn:
		n.canon = r.canon()
	default:
		r.fail("node %d: a bad canonical form", i)
	}
	if n.canon != nil && len(n.canon) < canonicalTerms(n) {
		r.fail("node %d: a canonical form of %d terms, fewer than the %d of its key", i, len(n.canon), canonicalTerms(n))
	}
	r.steps(n)
}

// importer imports the terms of a base tree into a copy of the head's
// table, as MSE imported them into the head's: a term the head holds is
// found, whatever was imported before, since tables hold each term once.
type importer struct {
	from  *solver.Table
	into  *solver.Table // a copy of the head's table: imports may grow it
	n     solver.Term   // the head's last term: an import beyond it is none of the head's
	memo  map[solver.Term]solver.Term
	dense []solver.Term // by base term, 0 for not yet
	// copyOf is, by node ID, the base node each node of the tree is a
	// copy of, nil for one written whole.
	copyOf []*Node
	// canons are the imported canonical forms, by their base form's first
	// term (the base's nodes of one form share it).
	canons map[*solver.Term][]solver.Term
}

// newImporter imports from's terms into the table table encodes.
func newImporter(from *solver.Table, table []byte) (*importer, error) {
	into, _, err := solver.ReadTable(table)
	if err != nil {
		return nil, err
	}
	return &importer{from: from, into: into, n: solver.Term(into.Len()), memo: make(map[solver.Term]solver.Term),
		dense: make([]solver.Term, from.Len()+1)}, nil
}

// of returns the import of x, a base term (0 for 0).
func (imp *importer) of(x solver.Term) solver.Term {
	if x == 0 {
		return 0
	}
	if y := imp.dense[x]; y != 0 {
		return y
	}
	y := imp.into.Import(imp.from, x, imp.memo)
	imp.dense[x] = y
	return y
}

// term returns the import of x, which must be a term of the head's.
func (imp *importer) term(r *reader, x solver.Term) solver.Term {
	y := imp.of(x)
	if y > imp.n {
		r.fail("base term %d is none of the tree's", x)
	}
	return y
}

// terms returns the imports of xs.
func (imp *importer) terms(r *reader, xs []solver.Term) []solver.Term {
	out := make([]solver.Term, len(xs))
	for i, x := range xs {
		out[i] = imp.term(r, x)
	}
	return out
}

// termsLike returns the imports of xs, the values or the path condition
// of b, for n, a copy of b: pts and pxs are the parents' (n's parent's
// terms are its parent's imported, having been read before). Where b's
// terms are its parent's, or its parent's followed by more, only those
// more are imported; and n shares its parent's, as reader.termsLike's
// nodes do.
func (imp *importer) termsLike(r *reader, n, b *Node, ts, xs, pts, pxs []solver.Term) []solver.Term {
	k := 0
	if imp.copyOf[n.Parent.ID] == b.Parent && len(xs) >= len(pxs) && slices.Equal(xs[:len(pxs)], pxs) {
		k = len(pxs)
	}
	if k == len(xs) {
		if k > 0 || len(pts) == 0 {
			return pts
		}
	} else if len(xs) == len(pts) && imp.like(pts[k:], xs[k:]) {
		return pts
	}
	if len(xs) == 0 {
		return nil
	}
	out := make([]solver.Term, len(xs))
	copy(out, pts[:k])
	for i := k; i < len(xs); i++ {
		out[i] = imp.term(r, xs[i])
	}
	return out
}

// prefixLike reports whether ts are the imports of xs, for n, a copy of
// b, whose parents' terms are pts and pxs: where b's begin with b's
// parent's and n's parent is b's parent's copy, only the rest is compared
// (nothing when both nodes share their parents' slices, as explorer.add
// and reader.termsLike make them do when the step left them alone).
func (imp *importer) prefixLike(n, b *Node, ts, xs, pts, pxs []solver.Term) bool {
	if len(ts) != len(xs) {
		return false
	}
	if imp.copyOf[n.Parent.ID] != b.Parent || len(pxs) != len(pts) || len(xs) < len(pxs) {
		return imp.like(ts, xs)
	}
	if sameArray(ts, pts) && sameArray(xs, pxs) {
		return true
	}
	k := len(pxs)
	if !slices.Equal(xs[:k], pxs) || !slices.Equal(ts[:k], pts) {
		k = 0
	}
	return imp.like(ts[k:], xs[k:])
}

// sameArray reports whether a begins where b does and is as long: one
// slice, shared.
func sameArray(a, b []solver.Term) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// canon returns the import of a base node's canonical form: nodes of one
// form share it, as reader.canon's do.
func (imp *importer) canon(r *reader, xs []solver.Term) []solver.Term {
	if len(xs) == 0 {
		return []solver.Term{} // known, if empty
	}
	if ts, ok := imp.canons[&xs[0]]; ok && len(ts) == len(xs) {
		return ts
	}
	ts := imp.terms(r, xs)
	if imp.canons == nil {
		imp.canons = make(map[*solver.Term][]solver.Term)
	}
	imp.canons[&xs[0]] = ts
	return ts
}

// like reports whether ts are the imports of xs.
func (imp *importer) like(ts, xs []solver.Term) bool {
	if len(ts) != len(xs) {
		return false
	}
	for i, x := range xs {
		y := imp.dense[x]
		if y == 0 {
			y = imp.of(x)
		}
		if y != ts[i] {
			return false
		}
	}
	return true
}

// sameStrings is slices.Equal, at once for one slice shared (a copy's
// trace is its base node's).
func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || slices.Equal(a, b)
}

// zigzag maps a signed difference to a number writer.uint writes short.
func zigzag(d int) int {
	if d < 0 {
		return -2*d - 1
	}
	return 2 * d
}

func unzigzag(v int) int {
	if v%2 == 1 {
		return -(v + 1) / 2
	}
	return v / 2
}

func (imp *importer) args(r *reader, as []Arg) []Arg {
	if len(as) == 0 {
		return nil
	}
	out := carve(&r.argSlab, len(as))
	for i, a := range as {
		out[i] = Arg{Name: a.Name, Value: imp.term(r, a.Value)}
	}
	return out
}

func (imp *importer) argsLike(as, bs []Arg) bool {
	return slices.EqualFunc(as, bs, func(a, b Arg) bool { return a.Name == b.Name && a.Value == imp.of(b.Value) })
}

// edge returns the import of a base node's edge. The base was read with
// the head's machine (reader.lenient): its transitions are the head's,
// nil where the head lacks one, so the fired list is the base's, shared,
// as are the trace and outputs that carry no terms.
func (imp *importer) edge(r *reader, b *Edge) *Edge {
	e := &carve(&r.edgeSlab, 1)[0]
	*e = Edge{Event: b.Event, Timer: b.Timer, Args: imp.args(r, b.Args), Fired: b.Fired, Outputs: b.Outputs, Trace: b.Trace,
		Elapsed: imp.term(r, b.Elapsed), Slot: b.Slot}
	for _, f := range b.Fired {
		if f.T == nil {
			r.fail("a copy of an edge firing a transition the machine lacks")
		}
	}
	for i, o := range b.Outputs {
		if len(o.Args) == 0 {
			continue
		}
		if &e.Outputs[0] == &b.Outputs[0] { // still the base's
			e.Outputs = slices.Clone(b.Outputs)
		}
		e.Outputs[i].Args = imp.args(r, o.Args)
	}
	return e
}

// nodeLike reports whether n, a node of the head, is b, a base node, with
// its terms imported: all but the decisions and canonical form, which
// MarshalDelta writes.
func (imp *importer) nodeLike(n, b *Node) bool {
	if n.Parent == nil || b.Parent == nil || n.State.Name != b.State.Name || n.Depth != b.Depth ||
		!imp.prefixLike(n, b, n.Vals, b.Vals, n.Parent.Vals, b.Parent.Vals) ||
		!imp.prefixLike(n, b, n.PC, b.PC, n.Parent.PC, b.Parent.PC) || len(n.Timers) != len(b.Timers) {
		return false
	}
	for i, t := range n.Timers {
		u := b.Timers[i]
		if t.Event != u.Event || t.ID != u.ID || t.Due != imp.of(u.Due) || !imp.argsLike(t.Args, u.Args) {
			return false
		}
	}
	return imp.edgeLike(n.In, b.In)
}

func (imp *importer) edgeLike(e, b *Edge) bool {
	if e.Event != b.Event || e.Timer != b.Timer || e.Slot != b.Slot || e.Elapsed != imp.of(b.Elapsed) ||
		!imp.argsLike(e.Args, b.Args) || !sameStrings(e.Trace, b.Trace) || len(e.Fired) != len(b.Fired) || len(e.Outputs) != len(b.Outputs) {
		return false
	}
	for i, f := range e.Fired {
		if g := b.Fired[i]; f.T.Key != g.T.Key || f.Path != g.Path {
			return false
		}
	}
	for i, o := range e.Outputs {
		if p := b.Outputs[i]; o.Event != p.Event || o.Target != p.Target || !imp.argsLike(o.Args, p.Args) {
			return false
		}
	}
	return true
}
