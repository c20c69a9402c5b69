package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// SemanticsVersion names what setbot computes from a model: the flattened
// machine, the tree the engine builds, the analyses on it and the tests
// generated from it. Every cached tree, test suite and analysis result is
// keyed by it, so a build reuses what another build stored only when they
// agree on it.
//
// Bump it with any change to what the flattener, the engine, the analyses
// or the test generator output for a model (a refactoring that changes no
// output needs no bump). TestSemanticsGolden fails when the output for a
// bundled or benchmark model changed and this was not bumped; bump it, then
// run go test ./engine -run TestSemanticsGolden -update and commit the
// golden file with the change. A change it cannot see (say, to an analysis
// only) needs the bump all the same.
const SemanticsVersion = "setbot-semantics-10"

// EncodingVersion starts every encoded tree; the digit is the format
// version. Cache keys of trees include it, so that a tree stored in another
// format is not even looked up. Format 8 writes each distinct string once
// (state names, transition keys, events, the (state, event) pairs of the
// traces) and refers to it by number after: a tree of AQS at depth 12 took
// 223 bytes a state in format 7, most of them repeated names. Format 9
// follows the version with the kind of encoding: a whole tree, or a delta
// against the base tree MSE copied it from (delta.go).
const EncodingVersion = "SET9"

// options writes the options that shaped a tree: the bounds of the tree in
// the bounds table's order (vocab.Settings), the time budgets, whether the
// machine ran closed, and the reading of time.
func (w *writer) options(o Options) {
	closed := 0
	if o.Closed {
		closed = 1
	}
	var v []int
	for _, s := range vocab.Settings(vocab.StageTree) {
		v = append(v, *o.Limit(s.Bound))
	}
	w.ints(append(v, int(o.Timeout), int(o.SolverTimeout), closed)...)
	w.str(string(o.Time))
}

// options reads what writer.options wrote.
func (r *reader) options() Options {
	var o Options
	tree := vocab.Settings(vocab.StageTree)
	v := r.ints(len(tree) + 3)
	for i, s := range tree {
		*o.Limit(s.Bound) = v[i]
	}
	rest := v[len(tree):]
	o.Timeout, o.SolverTimeout, o.Closed = time.Duration(rest[0]), time.Duration(rest[1]), rest[2] == 1
	o.Time = vocab.Time(r.str())
	return o
}

// summary reads what precedes a tree's nodes: the options it was built
// under, its statistics and the bounds it hit.
func (r *reader) summary(s *SET) {
	s.Options = r.options()
	st := r.ints(9)
	s.Stats = Stats{States: st[0], Paths: st[1], Depth: st[2], Subsumed: st[3], Reused: st[4], New: st[5], SolverCalls: st[6], Unknown: st[7], Ms: int64(st[8])}
	for i, k := 0, r.count(); i < k; i++ {
		bound := r.str()
		v := r.ints(2)
		s.Bounds = append(s.Bounds, BoundHit{Bound: vocab.Bound(bound), Limit: int64(v[0]), Count: v[1]})
	}
}

// ErrEncoding is wrapped by every error decoding a tree.
var ErrEncoding = errors.New("malformed encoded tree")

// The byte after EncodingVersion says what follows it.
const (
	encodedWhole = 'W' // the whole tree
	encodedDelta = 'D' // what a tree adds to the base MSE copied it from (delta.go)
)

// MarshalBinary encodes the tree: its term table in creation order, then
// the nodes in breadth-first order with their edges, MLM states,
// transitions named by key, canonical forms (which MSE imports when it
// copies a node) and the bounds each input's step met (which keep MSE from
// copying it). DecodeSET rebuilds an identical tree (its Dump
// is byte-for-byte the same) given the same machine.
func (s *SET) MarshalBinary() ([]byte, error) {
	w := &writer{}
	w.b = append(w.b, EncodingVersion...)
	w.b = append(w.b, encodedWhole)
	w.header(s)
	w.uint(len(s.Nodes))
	for i, n := range s.Nodes {
		if n.ID != i {
			return nil, fmt.Errorf("encoding the tree: node %d has ID %d", i, n.ID)
		}
		w.uint(parentRef(n))
		w.node(n)
	}
	return w.b, nil
}

// parentRef is how a node names its parent: its ID plus one, 0 for none.
func parentRef(n *Node) int {
	if n.Parent == nil {
		return 0
	}
	return n.Parent.ID + 1
}

// header writes what precedes a tree's nodes: the machine's hash, the term
// table, the options, statistics and bounds, and the start edge. It returns
// the term table's encoding.
func (w *writer) header(s *SET) []byte {
	w.str(s.Machine.Hash)
	start := len(w.b)
	w.b = s.Terms.AppendBinary(w.b)
	table := w.b[start:len(w.b):len(w.b)]
	w.options(s.Options)
	st := s.Stats
	w.ints(st.States, st.Paths, st.Depth, st.Subsumed, st.Reused, st.New, st.SolverCalls, st.Unknown, int(st.Ms))
	w.uint(len(s.Bounds))
	for _, bh := range s.Bounds {
		w.str(string(bh.Bound))
		w.ints(int(bh.Limit), bh.Count)
	}
	w.edge(s.Start)
	return table
}

// node writes n but for its parent: the edge from the parent, the state,
// valuation, path condition and timers, then what exploring it decided
// (nodeDecisions).
func (w *writer) node(n *Node) {
	if n.Parent != nil {
		w.edge(n.In)
	}
	w.str(n.State.Name)
	var pv, ppc []solver.Term
	if n.Parent != nil {
		pv, ppc = n.Parent.Vals, n.Parent.PC
	}
	w.termsLike(n.Vals, pv)
	w.termsLike(n.PC, ppc)
	w.uint(len(n.Timers))
	for _, tm := range n.Timers {
		w.str(tm.Event)
		w.args(tm.Args)
		w.str(tm.ID)
		w.uint(int(tm.Due))
	}
	w.uint(n.Depth)
	w.decisions(n)
	w.bools(n.canon != nil)
	if n.canon != nil {
		w.canon(n.canon)
	}
	w.steps(n)
}

// decisions writes what exploring n decided of it: its subsumer, the
// bound that cut it, whether it was expanded and whether it was copied.
func (w *writer) decisions(n *Node) {
	subsumed := 0
	if n.Subsumed != nil {
		subsumed = n.Subsumed.ID + 1
	}
	w.uint(subsumed)
	w.str(string(n.Cut))
	w.bools(n.Expanded, n.Reused)
}

// steps writes the bounds n's input steps met.
func (w *writer) steps(n *Node) {
	w.uint(len(n.steps))
	for _, sb := range n.steps {
		w.str(sb.Event)
		w.str(string(sb.Bound))
		w.bools(sb.Timer, sb.HasLimit)
		w.ints(sb.Slot, sb.Count, int(sb.Limit))
	}
}

// DecodeSET rebuilds a tree of machine m from MarshalBinary's encoding. The
// encoding names the machine's hash: a tree of another machine is refused.
// Damage is an error wrapping ErrEncoding, never a panic.
func DecodeSET(m *mlm.Machine, data []byte) (set *SET, err error) {
	defer decoding(&set, &err)
	r := &reader{b: data}
	r.magic(encodedWhole)
	return r.whole(m, m.Hash), nil
}

// decoding turns a decoding failure, as reader.fail raises it, into
// DecodeSET's or DecodeDelta's error.
func decoding(set **SET, err *error) {
	if p := recover(); p != nil {
		e, ok := p.(decodeError)
		if !ok {
			panic(p)
		}
		*set, *err = nil, fmt.Errorf("%w: %s", ErrEncoding, string(e))
	}
}

// magic reads the encoding's version and the kind of encoding, which must
// be kind.
func (r *reader) magic(kind byte) {
	v := len(EncodingVersion)
	if len(r.b) <= v || string(r.b[:v]) != EncodingVersion {
		r.fail("not an encoded tree of this version")
	}
	if r.b[v] != kind {
		r.fail("an encoding of kind %q, not %q", r.b[v], kind)
	}
	r.b = r.b[v+1:]
}

// whole reads a whole tree of machine m, whose hash the encoding must name
// (m's own, unless the reader is lenient).
func (r *reader) whole(m *mlm.Machine, hash string) *SET {
	s := r.header(m, hash)
	count := r.count()
	if count == 0 {
		r.fail("no root node")
	}
	s.Nodes = make([]*Node, 0, count)
	nodes := make([]Node, count) // one allocation, not one a node
	for i := 0; i < count; i++ {
		n := &nodes[i]
		r.parent(s, n, i)
		r.node(s, n, i)
		s.Nodes = append(s.Nodes, n)
	}
	r.end()
	if !r.lenient { // a delta's base is read for its nodes alone
		linkChildren(s.Nodes)
	}
	return s
}

// end fails unless the whole encoding was read.
func (r *reader) end() {
	if len(r.b) != 0 {
		r.fail("%d bytes after the last node", len(r.b))
	}
}

// header reads what writer.header wrote, for machine m of the hash given;
// the term table's encoding is kept in r.table.
func (r *reader) header(m *mlm.Machine, hash string) *SET {
	if h := r.str(); h != hash {
		r.fail("the tree is of machine %.12s, not %.12s", h, hash)
	}
	terms, rest, err := solver.ReadTable(r.b)
	if err != nil {
		r.fail("%v", err)
	}
	r.table = r.b[:len(r.b)-len(rest)]
	r.b, r.nterms, r.m = rest, terms.Len(), m
	s := &SET{Machine: m, Terms: terms}
	r.trans = transitionsByKey(m)
	r.summary(s)
	// Every tree the engine builds has a start edge and a root; a damaged
	// encoding that drops them would make the tree's readers dereference
	// nil.
	if s.Start = r.edge(); s.Start == nil {
		r.fail("no start edge")
	}
	return s
}

// parent reads n's parent, the i-th node's, among the nodes read before.
func (r *reader) parent(s *SET, n *Node, i int) {
	n.ID = i
	if p := r.uint(); p > 0 {
		if p > i {
			r.fail("node %d: parent %d is not earlier", i, p-1)
		}
		n.Parent = s.Nodes[p-1]
	} else if i > 0 {
		r.fail("node %d has no parent", i)
	}
}

// node reads what writer.node wrote into n, the i-th node.
func (r *reader) node(s *SET, n *Node, i int) {
	if n.Parent != nil {
		if n.In = r.edge(); n.In == nil {
			r.fail("node %d: no edge from its parent", i)
		}
	}
	n.State = r.state()
	var pv, ppc []solver.Term
	if n.Parent != nil {
		pv, ppc = n.Parent.Vals, n.Parent.PC
	}
	n.Vals = r.termsLike(pv)
	if len(n.Vals) != len(r.m.Vars) && !r.lenient {
		r.fail("node %d: %d values for %d variables", i, len(n.Vals), len(r.m.Vars))
	}
	n.PC = r.termsLike(ppc)
	for j, k := 0, r.count(); j < k; j++ {
		n.Timers = append(n.Timers, Timer{Event: r.str(), Args: r.args(), ID: r.str(), Due: r.optTerm()})
	}
	n.Depth = r.uint()
	r.decisions(s, n, i)
	if r.int() != 0 {
		n.canon = r.canon()
		if len(n.canon) < canonicalTerms(n) {
			r.fail("node %d: a canonical form of %d terms, fewer than the %d of its key", i, len(n.canon), canonicalTerms(n))
		}
	}
	r.steps(n)
}

// decisions reads what writer.decisions wrote into n, the i-th node.
func (r *reader) decisions(s *SET, n *Node, i int) {
	if sub := r.uint(); sub > 0 {
		if sub > i {
			r.fail("node %d: subsumed by a later node", i)
		}
		n.Subsumed = s.Nodes[sub-1]
	}
	n.Cut = vocab.Bound(r.str())
	n.Expanded, n.Reused = r.int() != 0, r.int() != 0
}

// steps reads what writer.steps wrote into n.
func (r *reader) steps(n *Node) {
	for j, k := 0, r.count(); j < k; j++ {
		sb := stepBound{Event: r.str(), Bound: vocab.Bound(r.str())}
		sb.Timer, sb.HasLimit = r.int() != 0, r.int() != 0
		sb.Slot, sb.Count, sb.Limit = r.int(), r.int(), int64(r.int())
		n.steps = append(n.steps, sb)
	}
}

// linkChildren sets the children of nodes whose parents are set, in the
// nodes' order, all in one allocation.
func linkChildren(nodes []*Node) {
	if len(nodes) < 2 {
		return
	}
	count := make([]int32, len(nodes))
	for _, n := range nodes[1:] {
		count[n.Parent.ID]++
	}
	all := make([]*Node, 0, len(nodes)-1)
	for i, n := range nodes {
		if k := int(count[i]); k > 0 {
			n.Children = all[len(all) : len(all) : len(all)+k]
			all = all[:len(all)+k]
		}
	}
	for _, n := range nodes[1:] {
		n.Parent.Children = append(n.Parent.Children, n)
	}
}

// writer appends an encoding to b. Strings go through a table: the first
// occurrence of a string is written as 0 and its bytes, every later one
// as its number in the table plus one.
type writer struct {
	b    []byte
	strs map[string]int
	// canons numbers the canonical forms written (writer.canon), by their
	// terms' encoding; scratch is where canon encodes one.
	canons  map[string]int
	scratch []byte
}

func (w *writer) uint(v int) { w.b = binary.AppendUvarint(w.b, uint64(v)) }

func (w *writer) ints(vs ...int) {
	for _, v := range vs {
		w.b = binary.AppendVarint(w.b, int64(v))
	}
}

func (w *writer) bools(vs ...bool) {
	for _, v := range vs {
		n := 0
		if v {
			n = 1
		}
		w.ints(n)
	}
}

func (w *writer) str(s string) {
	if id, ok := w.strs[s]; ok {
		w.uint(id + 1)
		return
	}
	if w.strs == nil {
		w.strs = make(map[string]int)
	}
	w.strs[s] = len(w.strs)
	w.uint(0)
	w.uint(len(s))
	w.b = append(w.b, s...)
}

func (w *writer) terms(ts []solver.Term) {
	w.uint(len(ts))
	for _, t := range ts {
		w.uint(int(t))
	}
}

// termsLike writes ts against like, the parent's: 0 when they are like
// (the decoded node then shares them, as the explorer's do), 2k+1 and k
// terms when they are like followed by those k (a path condition is its
// parent's and the conditions of the step), else 2n+2 and ts's n terms.
func (w *writer) termsLike(ts, like []solver.Term) {
	rest := ts
	switch {
	case like != nil && len(ts) >= len(like) && slices.Equal(ts[:len(like)], like):
		rest = ts[len(like):]
		w.uint(2*len(rest) + min(len(rest), 1)) // 0 for like itself
	default:
		w.uint(2*len(ts) + 2)
	}
	for _, t := range rest {
		w.uint(int(t))
	}
}

// canon writes a canonical form through a table of lists, as str writes
// strings: many states share one (AQS at depth 12: 3,274 forms for 25,738
// states).
func (w *writer) canon(ts []solver.Term) {
	w.scratch = w.scratch[:0]
	for _, t := range ts {
		w.scratch = binary.AppendUvarint(w.scratch, uint64(t))
	}
	if id, ok := w.canons[string(w.scratch)]; ok {
		w.uint(id + 1)
		return
	}
	if w.canons == nil {
		w.canons = make(map[string]int)
	}
	w.canons[string(w.scratch)] = len(w.canons)
	w.uint(0)
	w.terms(ts)
}

func (w *writer) args(as []Arg) {
	w.uint(len(as))
	for _, a := range as {
		w.str(a.Name)
		w.uint(int(a.Value))
	}
}

func (w *writer) edge(e *Edge) {
	if e == nil {
		w.bools(false)
		return
	}
	w.bools(true)
	w.str(e.Event)
	w.bools(e.Timer)
	w.args(e.Args)
	w.uint(len(e.Fired))
	for _, f := range e.Fired {
		w.str(f.T.Key)
		w.str(f.Path)
	}
	w.uint(len(e.Outputs))
	for _, o := range e.Outputs {
		w.str(o.Event)
		w.str(o.Target)
		w.args(o.Args)
	}
	w.uint(len(e.Trace))
	for _, t := range e.Trace {
		w.str(t)
	}
	w.uint(int(e.Elapsed))
	w.uint(e.Slot + 1)
}

// decodeError carries a decoding failure to DecodeSET's recover.
type decodeError string

type reader struct {
	b []byte
	// lenient reads the base tree of a delta (DecodeDelta) with the
	// head's machine: a state or transition the head lacks is nil, not
	// damage, and a node's values need not be the machine's variables.
	// Only the nodes the delta copies need them, and it checks those.
	lenient bool
	// table is the encoding of the term table read (reader.header).
	table  []byte
	nterms int // the table's size: term operands are checked against it
	m      *mlm.Machine
	trans  map[string]*mlm.Transition
	// strs are the strings read so far, by number (writer.str); transOf
	// and stateOf the machine's transition and state of each, looked up
	// the first time a string names one.
	strs    []string
	transOf []*mlm.Transition
	stateOf []*mlm.State
	// The slabs edges and their lists are carved from (carve).
	edgeSlab  []Edge
	argSlab   []Arg
	firedSlab []Fired
	traceSlab []string
	// canons are the canonical forms read so far (writer.canon).
	canons [][]solver.Term
}

func (r *reader) fail(format string, args ...any) { panic(decodeError(fmt.Sprintf(format, args...))) }

func (r *reader) uint() int {
	v, k := binary.Uvarint(r.b)
	if k <= 0 || v > math.MaxInt32 {
		r.fail("bad number")
	}
	r.b = r.b[k:]
	return int(v)
}

// count reads a length: each element takes at least one byte, so a count
// above the bytes left is damage (and would allocate without limit).
func (r *reader) count() int {
	n := r.uint()
	if n > len(r.b) {
		r.fail("count %d exceeds the %d bytes left", n, len(r.b))
	}
	return n
}

func (r *reader) ints(k int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = r.int()
	}
	return out
}

// int reads one of writer.ints's numbers.
func (r *reader) int() int {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail("bad number")
	}
	r.b = r.b[n:]
	return int(v)
}

// slabSize is how many edges, or elements of an edge's lists, the reader
// allocates at once: a tree's edges are as many as its nodes, each with a
// few short lists.
const slabSize = 1024

// carve returns n elements of the slab, allocating a new one when it is
// used up. The result's capacity is n: an append to it copies, and never
// writes into the next one's elements.
func carve[T any](slab *[]T, n int) []T {
	if len(*slab)+n > cap(*slab) {
		*slab = make([]T, 0, max(slabSize, n))
	}
	start := len(*slab)
	*slab = (*slab)[:start+n]
	return (*slab)[start : start+n : start+n]
}

func (r *reader) str() string { return r.strs[r.strID()] }

// strID reads a string (writer.str) and returns its number in the table.
func (r *reader) strID() int {
	if v := r.uint(); v > 0 {
		if v > len(r.strs) {
			r.fail("string %d of %d", v, len(r.strs))
		}
		return v - 1
	}
	n := r.count()
	r.strs = append(r.strs, string(r.b[:n]))
	r.b = r.b[n:]
	return len(r.strs) - 1
}

// transition reads a transition's key and returns the machine's transition
// of that key.
func (r *reader) transition() *mlm.Transition {
	return readRef(r, &r.transOf, func(key string) *mlm.Transition { return r.trans[key] }, "transition")
}

// state reads a state's name and returns the machine's state of that name.
func (r *reader) state() *mlm.State {
	return readRef(r, &r.stateOf, r.m.State, "state")
}

// readRef reads a string's number and returns what find gives for the
// string, looked up once per number and kept in *of; a string find knows
// nothing of fails the read.
func readRef[T any](r *reader, of *[]*T, find func(string) *T, what string) *T {
	id := r.strID()
	if id >= len(*of) {
		*of = append(*of, make([]*T, len(r.strs)-len(*of))...)
	}
	if v := (*of)[id]; v != nil {
		return v
	}
	v := find(r.strs[id])
	if v == nil && r.lenient {
		return nil
	}
	if v == nil {
		r.fail("no MLM %s %q", what, r.strs[id])
	}
	(*of)[id] = v
	return v
}

func (r *reader) term() solver.Term {
	v := r.uint()
	if v < 1 || v > r.nterms {
		r.fail("term %d out of range", v)
	}
	return solver.Term(v)
}

// optTerm reads a term or 0, none.
func (r *reader) optTerm() solver.Term {
	if v := r.uint(); v > r.nterms {
		r.fail("term %d out of range", v)
	} else if v > 0 {
		return solver.Term(v)
	}
	return 0
}

func (r *reader) terms() []solver.Term {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]solver.Term, n)
	for i := range out {
		out[i] = r.term()
	}
	return out
}

// termsLike reads what writer.termsLike wrote.
func (r *reader) termsLike(like []solver.Term) []solver.Term {
	tag := r.uint()
	if tag%2 == 0 && tag > 0 {
		return r.termsN(tag/2-1, nil)
	}
	if like == nil {
		r.fail("the parent's terms, for a node without a parent")
	}
	if tag == 0 {
		return like
	}
	return r.termsN(tag/2, like)
}

// termsN reads n terms after a copy of prefix; nil for none at all.
func (r *reader) termsN(n int, prefix []solver.Term) []solver.Term {
	if n > len(r.b) {
		r.fail("count %d exceeds the %d bytes left", n, len(r.b))
	}
	if n+len(prefix) == 0 {
		return nil
	}
	out := make([]solver.Term, len(prefix)+n)
	for i := copy(out, prefix); i < len(out); i++ {
		out[i] = r.term()
	}
	return out
}

// canon reads what writer.canon wrote; nodes of one form share its
// terms, which no one changes.
func (r *reader) canon() []solver.Term {
	if v := r.uint(); v > 0 {
		if v > len(r.canons) {
			r.fail("canonical form %d of %d", v, len(r.canons))
		}
		return r.canons[v-1]
	}
	ts := r.terms()
	if ts == nil {
		ts = []solver.Term{} // known, if empty
	}
	r.canons = append(r.canons, ts)
	return ts
}

func (r *reader) args() []Arg {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := carve(&r.argSlab, n)
	for i := range out {
		out[i] = Arg{Name: r.str(), Value: r.term()}
	}
	return out
}

func (r *reader) edge() *Edge {
	if r.int() == 0 {
		return nil
	}
	e := &carve(&r.edgeSlab, 1)[0]
	*e = Edge{Event: r.str(), Timer: r.int() != 0, Args: r.args()}
	if k := r.count(); k > 0 {
		e.Fired = carve(&r.firedSlab, k)
		for i := range e.Fired {
			e.Fired[i] = Fired{T: r.transition(), Path: r.str()}
		}
	}
	for i, k := 0, r.count(); i < k; i++ {
		e.Outputs = append(e.Outputs, Output{Event: r.str(), Target: r.str(), Args: r.args()})
	}
	if k := r.count(); k > 0 {
		e.Trace = carve(&r.traceSlab, k)
		for i := range e.Trace {
			e.Trace[i] = r.str()
		}
	}
	e.Elapsed = r.optTerm()
	e.Slot = r.uint() - 1
	return e
}
