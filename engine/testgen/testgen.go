// Package testgen turns paths of a symbolic execution tree into concrete
// tests (Zurowska and Dingel, Symbolic execution of UML-RT state machines, 2011;
// Rapos, Effects of model evolution, 2012): the input sequence of the path with parameter
// values from a model of its path condition, and the expected outputs of
// each step and the final configuration as the oracle.
//
// A test's identity is the sequence of (transition key, decision path) of
// the transitions it fires, so it names the same behaviour across versions
// of a model. Values are computed in a table of terms filled in the order
// the paths are solved, never in the explorer's, so the same tree always
// gives the same values, however it was built.
package testgen

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"iter"
	"math/big"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// Test is one concrete test. The tests of a suite share what their paths
// share (steps, with their arguments, outputs and fired transitions, and
// identity strings): treat them as read-only.
type Test struct {
	ID       string   `json:"id"`
	Identity []string `json:"identity"` // per step: the fired "key#path"s
	Steps    []Step   `json:"steps"`
	Final    []string `json:"final"` // the expected final configuration
	// Rows are the rows of black-box functions' tables the test relies
	// on, "f(1, 2) = 3 (table.csv:4:1)": its path exists for the function
	// only if the function gives those results.
	Rows []string     `json:"rows,omitempty"`
	Leaf *engine.Node `json:"-"`
}

// Step is one input and what it must produce.
type Step struct {
	Event string `json:"event"`
	Timer bool   `json:"timer,omitempty"` // a pending timer fires (no arguments)
	// At is when the step happens, in milliseconds from the start, under
	// timed semantics for a machine that sets timers (nil otherwise): an
	// input is sent then, a timer fires then.
	At      *int64         `json:"at,omitempty"`
	Args    map[string]any `json:"args"`
	Outputs []Output       `json:"outputs"`
	Fired   []Fired        `json:"fired"`
	Config  []string       `json:"configuration"`
}

// Output is an expected output event.
type Output struct {
	Event  string         `json:"event"`
	Target string         `json:"target"`
	Args   map[string]any `json:"args"`
}

// Fired is an MLM transition a step takes, with its decision path.
type Fired struct {
	Key  string `json:"key"`
	Path string `json:"path"`
}

// Generator solves paths of one tree.
type Generator struct {
	set       *engine.SET
	tab       *solver.Table
	newSolver engine.NewSolver
	slv       solver.Solver // started when a path first needs it
	memo      map[solver.Term]solver.Term
	// recent holds the parameter values of the last paths solved, most
	// recent first: neighbouring leaves share most of their path, so a
	// recent solution often satisfies the next path condition as it is,
	// and checking that costs an evaluation instead of a solver call.
	recent []map[solver.Term]any
	// base holds the previous version's tests by ID: a path with the
	// identity of one keeps its values while they satisfy the path.
	base map[string][]*Test
	// steps holds, by node ID, what the tests through a node share.
	steps []*shared
	// domains holds the input domain conditions of parameters (inDomain).
	domains map[domainKey][]solver.Term
}

// recentModels is how many recent solutions are tried before the solver.
const recentModels = 16

// shared is what the tests through one node share of its step: the
// identity, the fired transitions, and the steps built so far with the
// values they read. Tests are the tree's paths, so most of their steps
// are steps of other tests too, and are held once.
type shared struct {
	identity string
	fired    []Fired
	reads    []solver.Term // the parameters the step's arguments and outputs read
	built    []builtStep   // the most recent last
}

// builtStep is a step built under values of its node's reads.
type builtStep struct {
	vals []any
	step Step
}

// stepVariants is how many steps built under different values a node
// keeps for the next tests through it.
const stepVariants = 4

// NewGenerator returns a generator for set; Close releases its solver.
func NewGenerator(set *engine.SET, newSolver engine.NewSolver) (*Generator, error) {
	g := newGenerator(set, newSolver)
	if err := g.start(); err != nil {
		return nil, err
	}
	return g, nil
}

// newGenerator returns a generator whose solver starts when a path first
// needs it.
func newGenerator(set *engine.SET, newSolver engine.NewSolver) *Generator {
	return &Generator{set: set, tab: solver.NewTable(), newSolver: newSolver,
		memo: make(map[solver.Term]solver.Term), steps: make([]*shared, len(set.Nodes)),
		domains: make(map[domainKey][]solver.Term)}
}

func (g *Generator) start() error {
	if g.slv != nil {
		return nil
	}
	slv, err := g.newSolver(g.tab)
	if err != nil {
		return fmt.Errorf("starting the solver: %w", err)
	}
	g.slv = slv
	return nil
}

// Close releases the solver.
func (g *Generator) Close() {
	if g.slv != nil {
		g.slv.Close()
	}
}

// Test returns the test that drives the machine from its start to n.
func (g *Generator) Test(n *engine.Node) (*Test, error) { return g.TestWhere(n, nil) }

// TestWhere returns a test that drives the machine to n with parameter
// values that also satisfy extra (terms of the tree's table): the witness
// of an invariant violation solves the violation too.
func (g *Generator) TestWhere(n *engine.Node, extra []solver.Term) (*Test, error) {
	path := n.Path()
	var vals map[solver.Term]any
	if len(extra) == 0 {
		vals = g.inherited(n, path)
	}
	if vals == nil {
		var err error
		if vals, err = g.solve(n, path, extra); err != nil {
			return nil, err
		}
	}
	return g.build(n, path, vals)
}

// build assembles the test of the path to n under the parameter values.
func (g *Generator) build(n *engine.Node, path []*engine.Node, vals map[solver.Term]any) (*Test, error) {
	t := &Test{Final: n.State.Atomic, Leaf: n,
		Identity: make([]string, 0, len(path)-1), Steps: make([]Step, 0, len(path)-1)}
	timed := g.set.Options.Time == vocab.TimeTimed && g.set.Machine.SetsTimers()
	var now int64
	for _, x := range path[1:] {
		sh := g.shared(x)
		st, err := g.step(x, sh, vals, len(t.Steps)+1)
		if err != nil {
			return nil, err
		}
		if timed {
			if x.In.Elapsed != 0 {
				v, err := g.value(x.In.Elapsed, vals)
				if err != nil {
					return nil, fmt.Errorf("the time of step %d: %w", len(t.Steps)+1, err)
				}
				dt, ok := v.(int64)
				if !ok {
					return nil, fmt.Errorf("the time of step %d is %v, not a number of milliseconds", len(t.Steps)+1, v)
				}
				now += dt
			}
			at := now
			st.At = &at
		}
		t.Identity = append(t.Identity, sh.identity)
		t.Steps = append(t.Steps, st)
	}
	t.ID = testID(t.Identity)
	rows, err := g.rows(n, vals)
	if err != nil {
		return nil, err
	}
	t.Rows = rows
	return t, nil
}

// rows returns the table rows the path to n relies on.
func (g *Generator) rows(n *engine.Node, vals map[solver.Term]any) ([]string, error) {
	m := g.set.Machine.Source
	var out []string
	for _, c := range g.set.Terms.Calls(n.PC...) {
		f := m.Function(c.Fun)
		if f == nil {
			continue
		}
		args := make([]sim.Value, len(c.Args))
		var text []string
		for i, a := range c.Args {
			v, err := g.value(a, vals)
			if err != nil {
				return nil, err
			}
			args[i] = simValue(v)
			text = append(text, args[i].String())
		}
		if !f.Summarised() {
			v, err := g.value(c.Result, vals)
			if err != nil {
				return nil, err
			}
			r := fmt.Sprintf("%s(%s) = %s (assumed: %s has no table)", f.Name, strings.Join(text, ", "), simValue(v).String(), f.Name)
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
			continue
		}
		for _, row := range f.Rows {
			if !sim.RowMatches(row, args) {
				continue
			}
			r := fmt.Sprintf("%s(%s) = %s (%s)", f.Name, strings.Join(text, ", "), model.FormatValue(row.Out), rowOrigin(m, f, row))
			if !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// timerSlot tells apart, in a step's identity, which of several pending
// timers of one event fired into x: " (timer 2 of 2)" for the second set of
// two. Their steps may fire the same transitions, and the timer set (by
// which step, so due when) is what makes them two paths. A step that fires
// the only pending timer of its event says nothing, so that the identities
// of every other test stay as they were.
func timerSlot(x *engine.Node) string {
	e := x.In
	if !e.Timer || x.Parent == nil || e.Slot < 0 || e.Slot >= len(x.Parent.Timers) {
		return ""
	}
	ord, of := 0, 0
	for i, t := range x.Parent.Timers {
		if t.Event != e.Event {
			continue
		}
		if i < e.Slot {
			ord++
		}
		of++
	}
	if of < 2 {
		return ""
	}
	return fmt.Sprintf(" (timer %d of %d)", ord+1, of)
}

// testID names a test by its identity.
func testID(identity []string) string {
	sum := sha256.Sum256([]byte(strings.Join(identity, "\n")))
	return "t" + hex.EncodeToString(sum[:6])
}

// stepIdentity is a step's part of a test's identity: the transitions it
// fires with their decision paths.
func stepIdentity(event string, fired []Fired) string {
	if len(fired) == 0 {
		return "(" + event + " taken by no transition)"
	}
	id := make([]string, len(fired))
	for i, f := range fired {
		id[i] = f.Key + "#" + f.Path
	}
	return strings.Join(id, ", ")
}

// shared returns what the tests through x share of its step.
func (g *Generator) shared(x *engine.Node) *shared {
	if sh := g.steps[x.ID]; sh != nil {
		return sh
	}
	e, src := x.In, g.set.Terms
	sh := &shared{fired: make([]Fired, 0, len(e.Fired))}
	for _, f := range e.Fired {
		sh.fired = append(sh.fired, Fired{Key: f.T.Key, Path: f.Path})
	}
	sh.identity = stepIdentity(e.Event, sh.fired) + timerSlot(x)
	read := func(v solver.Term) {
		if !slices.Contains(sh.reads, v) {
			sh.reads = append(sh.reads, v)
		}
	}
	if !e.Timer {
		for _, a := range e.Args {
			read(a.Value)
		}
	}
	for _, o := range e.Outputs {
		for _, a := range o.Args {
			for _, v := range src.Vars(a.Value) {
				read(v)
			}
		}
	}
	g.steps[x.ID] = sh
	return sh
}

// step returns the step into x, the i-th of its path, under the
// parameter values: one built before under the same values of what it
// reads, or a new one.
func (g *Generator) step(x *engine.Node, sh *shared, vals map[solver.Term]any, i int) (Step, error) {
	for k := len(sh.built) - 1; k >= 0; k-- {
		b := sh.built[k]
		same := true
		for j, v := range sh.reads {
			if b.vals[j] != vals[v] {
				same = false
				break
			}
		}
		if same {
			return b.step, nil
		}
	}
	e := x.In
	st := Step{Event: e.Event, Timer: e.Timer, Args: make(map[string]any, len(e.Args)), Config: x.State.Atomic,
		Outputs: make([]Output, 0, len(e.Outputs)), Fired: sh.fired}
	if !e.Timer {
		for _, a := range e.Args {
			st.Args[a.Name] = vals[a.Value]
		}
	}
	for _, o := range e.Outputs {
		out := Output{Event: o.Event, Target: o.Target, Args: make(map[string]any, len(o.Args))}
		for _, a := range o.Args {
			v, err := g.value(a.Value, vals)
			if err != nil {
				return Step{}, fmt.Errorf("output %s of step %d: %w", o.Event, i, err)
			}
			out.Args[a.Name] = v
		}
		st.Outputs = append(st.Outputs, out)
	}
	b := builtStep{vals: make([]any, len(sh.reads)), step: st}
	for j, v := range sh.reads {
		b.vals[j] = vals[v]
	}
	if len(sh.built) == stepVariants {
		sh.built = append(sh.built[:0], sh.built[1:]...)
	}
	sh.built = append(sh.built, b)
	return st, nil
}

// inherited returns the values of the base test with the identity of the
// path to n when they satisfy its path condition (evaluated, no solver),
// or nil: a test keeps its values across versions while they still
// satisfy its path (docs/architecture.md §Analyses on the tree). Every parameter of the path
// needs a value of its sort; the test's values for parameters the path no
// longer has are dropped.
func (g *Generator) inherited(n *engine.Node, path []*engine.Node) map[solver.Term]any {
	if len(g.base) == 0 {
		return nil
	}
	identity := make([]string, len(path)-1)
	src := g.set.Terms
	for i, x := range path[1:] {
		identity[i] = g.shared(x).identity
		if x.In.Elapsed != 0 && len(src.Vars(x.In.Elapsed)) > 0 {
			return nil // the path's times are solved afresh
		}
	}
	for _, b := range g.base[testID(identity)] {
		if !slices.Equal(b.Identity, identity) || len(b.Steps) != len(identity) {
			continue
		}
		vals := make(map[solver.Term]any)
		ok := true
		for i, x := range path[1:] {
			if x.In.Timer {
				continue
			}
			for _, a := range x.In.Args {
				v, has := b.Steps[i].Args[a.Name]
				value, known := valueOf(v)
				if !has || !known || value.Sort != src.Sort(a.Value) {
					ok = false
					break
				}
				vals[a.Value] = v
			}
			if !ok {
				break
			}
		}
		if ok && holds(src, vals, n.PC) {
			g.remember(vals)
			return vals
		}
	}
	return nil
}

// remember makes vals the most recent solution.
func (g *Generator) remember(vals map[solver.Term]any) {
	g.recent = append([]map[solver.Term]any{vals}, g.recent...)
	if len(g.recent) > recentModels {
		g.recent = g.recent[:recentModels]
	}
}

// solve finds values for the parameters received along the path: from a
// model of the path condition for those it constrains, a fixed default
// (0, false, or the lower end of the range) for the others.
func (g *Generator) solve(n *engine.Node, path []*engine.Node, extra []solver.Term) (map[solver.Term]any, error) {
	params, ranges := g.pathParams(n, path)
	constrained := g.constrained(n, extra, ranges)
	var asked []solver.Term
	for _, p := range params {
		if constrained[p] {
			asked = append(asked, p)
		}
	}
	vals := make(map[solver.Term]any, len(params))
	if len(asked) > 0 {
		if reused := g.reuse(n.PC, extra, params, constrained); reused != nil {
			vals = reused
			asked = nil
		}
	}
	if len(asked) > 0 {
		if err := g.modelOf(n, extra, params, asked, vals); err != nil {
			return nil, err
		}
	}
	for _, p := range params {
		if _, ok := vals[p]; !ok {
			vals[p] = fallback(g.set.Terms.Sort(p), ranges[p])
		}
	}
	g.remember(vals)
	return vals, nil
}

// pathParams lists the values a test of the path chooses: the parameters
// received along it (with the declared types of those that have one), the
// times its steps come at, and the results of black-box calls without a
// table, which the test assumes as it does parameters.
func (g *Generator) pathParams(n *engine.Node, path []*engine.Node) ([]solver.Term, map[solver.Term]ast.Type) {
	src := g.set.Terms
	var params []solver.Term
	ranges := make(map[solver.Term]ast.Type)
	for _, x := range path[1:] {
		if x.In.Elapsed != 0 {
			for _, v := range src.Vars(x.In.Elapsed) {
				if !slices.Contains(params, v) {
					params = append(params, v)
				}
			}
		}
		if x.In.Timer {
			continue
		}
		ev := g.set.Machine.Event(x.In.Event)
		for _, a := range x.In.Args {
			params = append(params, a.Value)
			if p, ok := ev.Param(a.Name); ok {
				ranges[a.Value] = p.Type
			}
		}
	}
	for _, c := range src.Calls(n.PC...) {
		if f := g.set.Machine.Source.Function(c.Fun); f != nil && !f.Summarised() && !slices.Contains(params, c.Result) {
			params = append(params, c.Result)
		}
	}
	return params, ranges
}

// constrained returns the variables the path condition and extra
// constrain beyond their input domain.
func (g *Generator) constrained(n *engine.Node, extra []solver.Term, ranges map[solver.Term]ast.Type) map[solver.Term]bool {
	src := g.set.Terms
	out := make(map[solver.Term]bool)
	for _, c := range n.PC {
		vs := src.Vars(c)
		if len(vs) == 1 && g.inDomain(c, vs[0], ranges[vs[0]]) {
			continue
		}
		for _, v := range vs {
			out[v] = true
		}
	}
	for _, c := range extra {
		for _, v := range src.Vars(c) {
			out[v] = true
		}
	}
	return out
}

// modelOf asks the solver for a model of the path condition and extra,
// and writes into vals the values it gives the asked parameters.
func (g *Generator) modelOf(n *engine.Node, extra, params, asked []solver.Term, vals map[solver.Term]any) error {
	src := g.set.Terms
	if err := g.start(); err != nil {
		return err
	}
	var conj []solver.Term
	for _, c := range append(append([]solver.Term(nil), n.PC...), extra...) {
		conj = append(conj, g.tab.Import(src, c, g.memo))
	}
	for i, p := range asked {
		asked[i] = g.tab.Import(src, p, g.memo)
	}
	res, model, err := g.slv.Model(conj, asked)
	if err != nil {
		return err
	}
	if res != solver.Sat {
		return fmt.Errorf("the path to state %s could not be solved (%s)", n.State.Name, res)
	}
	for _, p := range params {
		if v, ok := model[g.memo[p]]; ok {
			if vals[p], err = plain(v); err != nil {
				return fmt.Errorf("parameter %s on the path to state %s: %w", src.Name(p), n.State.Name, err)
			}
		}
	}
	return nil
}

// reuse returns the constrained parameters' values of a recent solution
// that satisfies the path condition and extra, or nil. The order paths are
// solved in is fixed, so the values a suite gets stay deterministic.
func (g *Generator) reuse(pc, extra, params []solver.Term, constrained map[solver.Term]bool) map[solver.Term]any {
	src := g.set.Terms
	for _, model := range g.recent {
		if !holds(src, model, pc, extra) {
			continue
		}
		vals := make(map[solver.Term]any, len(params))
		for _, p := range params {
			if constrained[p] {
				vals[p] = model[p]
			}
		}
		return vals
	}
	return nil
}

// domainKey is a parameter with its type: the parameters of one name and
// sort received at one depth share a term (name@depth), whatever range
// their events give them.
type domainKey struct {
	v solver.Term
	t ast.Type
}

// inDomain reports whether c is one of the conditions that keep v, a
// parameter of type t, in the input domain (engine.InputDomain): those
// hold for the fallback values. Any other condition on v (a guard)
// constrains it. A parameter's conditions are built once: every path
// through its node asks for them.
func (g *Generator) inDomain(c, v solver.Term, t ast.Type) bool {
	key := domainKey{v, t}
	conds, ok := g.domains[key]
	if !ok {
		conds = engine.InputDomain(g.set.Terms, t, v)
		g.domains[key] = conds
	}
	return slices.Contains(conds, c)
}

func fallback(s solver.Sort, t ast.Type) any {
	switch s {
	case solver.BoolSort:
		return false
	case solver.StringSort:
		return ""
	case solver.RealSort:
		d, _ := sim.DecimalOf(big.NewRat(0, 1))
		if t.Ranged && (t.Lo > 0 || t.Hi < 0) {
			d, _ = sim.DecimalOf(big.NewRat(t.Lo, 1))
		}
		return d
	}
	if t.Ranged && !t.Contains(0) {
		return t.Lo
	}
	return int64(0)
}

// plain is a solver value as tests carry it: an int64, a bool, a string or
// a sim.Decimal; a rational without a finite decimal expansion is an error.
func plain(v solver.Value) (any, error) {
	switch v.Sort {
	case solver.BoolSort:
		return v.Bool, nil
	case solver.StringSort:
		return v.Str, nil
	case solver.RealSort:
		return sim.DecimalOf(v.Rat)
	}
	return v.Int, nil
}

// valueOf is the inverse of plain.
func valueOf(v any) (solver.Value, bool) {
	switch x := v.(type) {
	case int64:
		return solver.Value{Sort: solver.IntSort, Int: x}, true
	case bool:
		return solver.Value{Sort: solver.BoolSort, Bool: x}, true
	case string:
		return solver.Value{Sort: solver.StringSort, Str: x}, true
	case sim.Decimal:
		r, err := x.Rat()
		return solver.Value{Sort: solver.RealSort, Rat: r}, err == nil
	}
	return solver.Value{}, false
}

// value evaluates a term of the tree under the parameter values.
func (g *Generator) value(x solver.Term, vals map[solver.Term]any) (any, error) {
	src := g.set.Terms
	sub := make(map[solver.Term]solver.Term)
	for _, v := range src.Vars(x) {
		val, ok := vals[v]
		if !ok {
			if c, call := src.Applied(v); call {
				var err error
				if val, err = g.called(c, vals); err != nil {
					return nil, err
				}
				ok = true
			}
		}
		if !ok {
			return nil, fmt.Errorf("value of %s unknown", src.Name(v))
		}
		switch val := val.(type) {
		case bool:
			sub[g.tab.Import(src, v, g.memo)] = g.tab.Bool(val)
		case int64:
			sub[g.tab.Import(src, v, g.memo)] = g.tab.Int(val)
		case string:
			sub[g.tab.Import(src, v, g.memo)] = g.tab.Str(val)
		case sim.Decimal:
			r, err := val.Rat()
			if err != nil {
				return nil, err
			}
			sub[g.tab.Import(src, v, g.memo)] = g.tab.Rat(r)
		}
	}
	r := g.tab.Subst(g.tab.Import(src, x, g.memo), sub)
	if b, ok := g.tab.BoolValue(r); ok {
		return b, nil
	}
	if i, ok := g.tab.IntValue(r); ok {
		return i, nil
	}
	if s, ok := g.tab.StringValue(r); ok {
		return s, nil
	}
	if q, ok := g.tab.RatValue(r); ok {
		return sim.DecimalOf(q)
	}
	return nil, fmt.Errorf("%s does not fit in 64 bits", g.tab.String(r))
}

// Suite returns the tests for a coverage criterion: one per leaf for path
// coverage; for transition and state coverage, a smallest-first greedy
// choice of leaves that covers every MLM transition (or state) the tree
// reaches. Only the chosen leaves are solved.
func Suite(set *engine.SET, coverage vocab.Coverage, newSolver engine.NewSolver) ([]*Test, error) {
	return SuiteFrom(set, coverage, newSolver, nil)
}

// SuiteFrom returns the suite of set that follows base, a suite of the
// version before (docs/architecture.md §Analyses on the tree): a chosen leaf whose identity is
// that of a base test, and whose path condition that test's values still
// satisfy, keeps the values; only the other leaves are solved. With the
// same base, the same tree gives the same suite, however it was built.
func SuiteFrom(set *engine.SET, coverage vocab.Coverage, newSolver engine.NewSolver, base []*Test) ([]*Test, error) {
	n, seq, err := Tests(set, coverage, newSolver, base)
	if err != nil {
		return nil, err
	}
	tests := make([]*Test, 0, n)
	for t, err := range seq {
		if err != nil {
			return nil, err
		}
		tests = append(tests, t)
	}
	return tests, nil
}

// Tests returns how many tests the suite SuiteFrom returns holds, and a
// sequence that makes them one at a time, in order, holding none of them:
// a writer can stream a suite (Write). The sequence ends at the first
// error.
func Tests(set *engine.SET, coverage vocab.Coverage, newSolver engine.NewSolver, base []*Test) (int, iter.Seq2[*Test, error], error) {
	chosen, err := choose(set.Leaves(), coverage)
	if err != nil {
		return 0, nil, err
	}
	seq := func(yield func(*Test, error) bool) {
		g := newGenerator(set, newSolver)
		defer g.Close()
		if len(base) > 0 {
			g.base = make(map[string][]*Test, len(base))
			for _, b := range base {
				g.base[b.ID] = append(g.base[b.ID], b)
			}
		}
		for _, n := range chosen {
			t, err := g.Test(n)
			if !yield(t, err) || err != nil {
				return
			}
		}
	}
	return len(chosen), seq, nil
}

// choose returns the leaves a coverage criterion keeps, in tree order.
func choose(leaves []*engine.Node, coverage vocab.Coverage) ([]*engine.Node, error) {
	switch coverage {
	case vocab.CoveragePath, "":
		return leaves, nil
	case vocab.CoverageTransition:
		return cover(leaves, func(n *engine.Node) []string {
			var out []string
			for _, f := range n.In.Fired {
				out = append(out, f.T.Key)
			}
			return out
		}), nil
	case vocab.CoverageState:
		return cover(leaves, func(n *engine.Node) []string { return []string{n.State.Name} }), nil
	}
	return nil, fmt.Errorf("unknown coverage %q (want path, transition or state)", coverage)
}

// cover picks leaves greedily: each time the one whose path covers the
// most items not yet covered (the earliest, so the shortest, on a tie),
// until nothing new can be covered. The result keeps tree order.
func cover(leaves []*engine.Node, items func(*engine.Node) []string) []*engine.Node {
	// Leaves whose paths cover the same items are one candidate, the first
	// of them: the greedy choice below takes the first of equal gains, so
	// it never takes a later one. Items are numbered for speed, and a
	// path's items are a bit set, whose words name it.
	ids := make(map[string]int)
	type candidate struct {
		leaf  int
		items []int
	}
	var cands []candidate
	seen := make(map[string]bool)
	// A node's path's items, a bit set shared with its parent's when the
	// node adds none; each node's items are asked for once.
	paths := make(map[*engine.Node][]uint64)
	var path func(n *engine.Node) []uint64
	path = func(n *engine.Node) []uint64 {
		if n.Parent == nil {
			return nil // the root's step is the start, which every test takes
		}
		if set, ok := paths[n]; ok {
			return set
		}
		set := path(n.Parent)
		if its := items(n); len(its) > 0 {
			set = slices.Clone(set)
			for _, it := range its {
				id, ok := ids[it]
				if !ok {
					id = len(ids)
					ids[it] = id
				}
				for id/64 >= len(set) {
					set = append(set, 0)
				}
				set[id/64] |= 1 << (id % 64)
			}
		}
		paths[n] = set
		return set
	}
	var key []byte
	for i, l := range leaves {
		set := path(l)
		key = key[:0]
		for _, w := range set {
			key = binary.LittleEndian.AppendUint64(key, w)
		}
		key = bytes.TrimRight(key, "\x00") // the same set, however many words it was given
		if seen[string(key)] {
			continue
		}
		seen[string(key)] = true
		var list []int
		for k, w := range set {
			for ; w != 0; w &= w - 1 {
				list = append(list, k*64+bits.TrailingZeros64(w))
			}
		}
		cands = append(cands, candidate{i, list})
	}
	covered := make([]bool, len(ids))
	var picked []int
	for {
		best, gain := -1, 0
		for c, cand := range cands {
			n := 0
			for _, it := range cand.items {
				if !covered[it] {
					n++
				}
			}
			if n > gain {
				best, gain = c, n
			}
		}
		if best < 0 {
			if len(picked) == 0 && len(leaves) > 0 {
				picked = append(picked, 0) // the start alone covers the initial state
			}
			break
		}
		for _, it := range cands[best].items {
			covered[it] = true
		}
		picked = append(picked, cands[best].leaf)
	}
	sort.Ints(picked)
	out := make([]*engine.Node, len(picked))
	for i, p := range picked {
		out[i] = leaves[p]
	}
	return out
}

// holds reports whether every condition is true under the parameter values
// vals (int64, bool or string, by parameter term); a condition that reads a term
// without a value is not.
func holds(tab *solver.Table, vals map[solver.Term]any, conds ...[]solver.Term) bool {
	lookup := func(v solver.Term) (solver.Value, bool) { return valueOf(vals[v]) }
	for _, cs := range conds {
		for _, c := range cs {
			if v, ok := tab.Eval(c, lookup); !ok || !v.Bool {
				return false
			}
		}
	}
	return true
}

// called computes the result of a black-box call under the parameter
// values: the row of the function's table for its arguments' values.
func (g *Generator) called(c *solver.Call, vals map[solver.Term]any) (any, error) {
	f := g.set.Machine.Source.Function(c.Fun)
	if f == nil {
		return nil, fmt.Errorf("unknown function %s", c.Fun)
	}
	if !f.Summarised() {
		// No table: the path constrains the result nowhere, and any
		// value is one the tree allows.
		return fallback(g.set.Terms.Sort(c.Result), f.Result), nil
	}
	args := make([]sim.Value, len(c.Args))
	for i, a := range c.Args {
		v, err := g.value(a, vals)
		if err != nil {
			return nil, err
		}
		args[i] = simValue(v)
	}
	out, ok := sim.Lookup(f, args)
	if !ok {
		return nil, fmt.Errorf("%s has no row for the inputs the test takes, so the test's oracle is unknown", c.Fun)
	}
	return out.Plain(), nil
}

// simValue is a plain test value as the simulator holds it.
func simValue(v any) sim.Value {
	switch v := v.(type) {
	case bool:
		return sim.BoolValue(v)
	case string:
		return sim.StringValue(v)
	case sim.Decimal:
		r, _ := v.Rat()
		return sim.DecimalValue(r)
	case int64:
		return sim.IntValue(v)
	}
	return sim.Value{}
}
