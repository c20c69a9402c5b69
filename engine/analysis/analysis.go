// Package analysis reads a symbolic execution tree (docs/architecture.md
// §Analyses on the tree; Zurowska and Dingel, Symbolic Execution of UML-RT
// State Machines, 2011, §4.4): what is reachable and what is not, within the bounds the
// tree was built under; invariants checked in every state; which outputs
// can be produced; and where statechart priority resolves a
// nondeterministic choice. Every claim about something reached comes with
// a concrete test that reaches it.
package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// Report is everything the analyses found.
type Report struct {
	// Proven is true when no bound cut the tree: then "unreachable" means
	// unreachable. Otherwise it means unreachable within the bounds, and
	// WithinDepth gives the depth bound when that is the one that was hit.
	Proven      bool `json:"proven"`
	WithinDepth int  `json:"within_depth,omitempty"`

	States         []StateReach     `json:"states"`      // statechart states
	MLMStates      []Reach          `json:"mlm_states"`  // flattened states
	Transitions    []Reach          `json:"transitions"` // statechart transitions
	Outputs        []Reach          `json:"outputs"`     // output events that can be sent
	Invariants     []InvariantCheck `json:"invariants"`  // declared and implied by ranges
	Nondeterminism []Conflict       `json:"nondeterminism"`
}

// Reach is one thing and whether (and how) the tree reaches it.
type Reach struct {
	Name    string        `json:"name"`
	Line    int           `json:"line,omitempty"`
	Reached bool          `json:"reached"`
	Depth   int           `json:"depth,omitempty"` // inputs of the shortest witness
	Witness *testgen.Test `json:"witness,omitempty"`
}

// StateReach is a statechart state: Reached says some execution enters it
// (even if the same macrostep leaves it again), Stable that some
// configuration the machine rests in at the end of a macrostep contains
// it, each with a shortest witness. A state reached but never stable is
// transient: the machine only passes through it.
type StateReach struct {
	Reach
	Stable        bool          `json:"stable"`
	StableDepth   int           `json:"stable_depth,omitempty"`
	StableWitness *testgen.Test `json:"stable_witness,omitempty"`
}

// Transient reports whether the state is entered but never stable.
func (s StateReach) Transient() bool { return s.Reached && !s.Stable }

// InvariantCheck is the result for one invariant.
type InvariantCheck struct {
	Invariant string        `json:"invariant"`
	Implied   string        `json:"implied_by,omitempty"` // a variable's declared range
	Holds     bool          `json:"holds"`
	State     string        `json:"state,omitempty"` // where it is first violated
	Witness   *testgen.Test `json:"witness,omitempty"`
	// CutBy qualifies an invariant that holds: vocab.BoundNumber when it
	// holds only where the conversions it makes are exact.
	CutBy vocab.Bound `json:"cut_by,omitempty"`
}

// Conflict is a pair of statechart transitions that compete for one event
// in one configuration and whose conditions can both hold: the statechart
// takes the first by priority, which may not be what the author meant.
type Conflict struct {
	State   string        `json:"state"`
	Event   string        `json:"event"`
	Taken   string        `json:"taken"`
	Shadows string        `json:"shadows"`
	Line    int           `json:"line,omitempty"`
	Witness *testgen.Test `json:"witness,omitempty"`
}

// Invariant is a named predicate over the machine variables.
type Invariant struct {
	Text    string
	Expr    ast.Expr
	Implied string // set for the range of a variable
}

// Analyze runs every analysis on set.
func Analyze(set *engine.SET, invariants []Invariant, newSolver engine.NewSolver) (*Report, error) {
	a := New(set, newSolver)
	defer a.Close()
	r := &Report{Proven: len(set.Bounds) == 0}
	for _, b := range set.Bounds {
		if b.Bound == vocab.BoundDepth {
			r.WithinDepth = int(b.Limit)
		}
	}
	err := a.reach(r)
	if err != nil {
		return nil, err
	}
	if r.Outputs, err = a.Outputs(); err != nil {
		return nil, err
	}
	if r.Nondeterminism, err = a.Nondeterminism(); err != nil {
		return nil, err
	}
	if r.Invariants, err = a.Invariants(append(invariants, RangeInvariants(set.Machine)...)); err != nil {
		return nil, err
	}
	return r, nil
}

// An Analyzer runs analyses on one tree, sharing one solver and one test
// generator among them; Analyze runs them all, and a caller that wants
// only some (the incremental analysis of a change) runs those.
type Analyzer struct {
	set       *engine.SET
	m         *mlm.Machine
	src       *model.Model
	newSolver engine.NewSolver
	slv       solver.Solver      // started when first asked (solver)
	gen       *testgen.Generator // started when first asked (generator)
	// possible's: the path condition cut to the condition's variables, and
	// the answers for those cuts, which many nodes share; the presolver
	// decides what it can of them before the solver is asked (or started).
	slicer    *engine.Slicer
	answers   map[string]solver.Result
	presolver *engine.Presolver
	// cancel, when closed, stops the analyses between two nodes.
	cancel <-chan struct{}
}

// New starts an analyzer of set; Close releases its solvers. The solvers
// start when an analysis first needs them: many need none, or only one.
func New(set *engine.SET, newSolver engine.NewSolver) *Analyzer {
	return &Analyzer{set: set, newSolver: newSolver, m: set.Machine, src: set.Machine.Source,
		slicer: engine.NewSlicer(set.Terms), answers: make(map[string]solver.Result), presolver: engine.NewPresolver(set.Terms)}
}

// SetCancel makes the analyses stop with engine.ErrCanceled once done is
// closed (a context's Done channel), between two nodes of the tree: a
// long one stops at once instead of going on with solvers that answer
// Unknown.
func (a *Analyzer) SetCancel(done <-chan struct{}) { a.cancel = done }

// canceled returns engine.ErrCanceled once the analyses are told to stop.
func (a *Analyzer) canceled() error {
	select {
	case <-a.cancel:
		return engine.ErrCanceled
	default:
		return nil
	}
}

// Close releases the analyzer's solvers.
func (a *Analyzer) Close() {
	if a.gen != nil {
		a.gen.Close()
	}
	if a.slv != nil {
		a.slv.Close()
	}
}

// solver returns the analyzer's solver, started on first use.
func (a *Analyzer) solver() (solver.Solver, error) {
	if a.slv == nil {
		slv, err := a.newSolver(a.set.Terms)
		if err != nil {
			return nil, fmt.Errorf("starting the solver: %w", err)
		}
		a.slv = slv
	}
	return a.slv, nil
}

// generator returns the analyzer's test generator, started on first use.
func (a *Analyzer) generator() (*testgen.Generator, error) {
	if a.gen == nil {
		gen, err := testgen.NewGenerator(a.set, a.newSolver)
		if err != nil {
			return nil, err
		}
		a.gen = gen
	}
	return a.gen, nil
}

// Witness is a shortest test that reaches n.
func (a *Analyzer) Witness(n *engine.Node) (*testgen.Test, error) {
	if err := a.canceled(); err != nil {
		return nil, err
	}
	gen, err := a.generator()
	if err != nil {
		return nil, err
	}
	return gen.Test(n)
}

// reach finds, breadth-first (so with a shortest witness), every MLM
// state, statechart state (entered, and stable) and statechart transition
// the tree reaches.
func (a *Analyzer) reach(r *Report) error {
	firstMLM := make(map[string]*engine.Node)
	firstTrans := make(map[string]*engine.Node)
	for _, n := range a.set.Nodes {
		if _, ok := firstMLM[n.State.Name]; !ok {
			firstMLM[n.State.Name] = n
		}
		in := n.In
		if in == nil {
			in = a.set.Start
		}
		for _, f := range in.Fired {
			for _, step := range f.T.Origins {
				for _, id := range strings.Split(step, "+") {
					if _, ok := firstTrans[id]; !ok {
						firstTrans[id] = n
					}
				}
			}
		}
	}
	var err error
	for _, s := range a.m.States {
		if s.Invoking || s.Ending {
			// A composed machine passes through it within a step, by
			// construction: the tree never rests there.
			continue
		}
		if r.MLMStates, err = a.add(r.MLMStates, s.Name, a.lineOf(s.Pos), firstMLM[s.Name]); err != nil {
			return err
		}
	}
	reach := a.set.Reachability()
	for _, s := range a.src.ScopedStates() {
		if s.Kind == model.Root || s.Kind == model.History {
			continue
		}
		sr, err := a.state(s, reach)
		if err != nil {
			return err
		}
		r.States = append(r.States, sr)
		scope := strings.TrimSuffix(s.ID, s.State.ID) // "sub." in a machine the model invokes
		for _, t := range s.Transitions {
			if r.Transitions, err = a.add(r.Transitions, scope+t.ID, a.lineOf(t.Pos), firstTrans[scope+t.ID]); err != nil {
				return err
			}
		}
	}
	return nil
}

// state is one statechart state's reachability, with a witness for each
// sense (one test when the same node shows both).
func (a *Analyzer) state(s model.Scoped, reach engine.Reachability) (StateReach, error) {
	list, err := a.add(nil, s.ID, a.lineOf(s.Pos), reach.Entered[s.ID])
	if err != nil {
		return StateReach{}, err
	}
	sr := StateReach{Reach: list[0]}
	n := reach.Stable[s.ID]
	if n == nil {
		return sr, nil
	}
	sr.Stable, sr.StableDepth, sr.StableWitness = true, n.Depth, sr.Witness
	if n != reach.Entered[s.ID] {
		if sr.StableWitness, err = a.Witness(n); err != nil {
			return StateReach{}, err
		}
	}
	return sr, nil
}

// lineOf is the line of p in the model's file; 0 in another file (a
// machine the model invokes through src).
func (a *Analyzer) lineOf(p source.Pos) int { return a.src.Line(p) }

func (a *Analyzer) add(list []Reach, name string, line int, n *engine.Node) ([]Reach, error) {
	r := Reach{Name: name, Line: line}
	if n != nil {
		t, err := a.Witness(n)
		if err != nil {
			return nil, err
		}
		r.Reached, r.Depth, r.Witness = true, n.Depth, t
	}
	return append(list, r), nil
}

// Sent maps each output a tree sends, as "EVENT to TARGET", to the first
// node (breadth first, so with a shortest path) whose step sends it.
func Sent(set *engine.SET) map[string]*engine.Node {
	type output struct{ event, target string }
	first := make(map[output]*engine.Node)
	for _, n := range set.Nodes {
		e := n.In
		if e == nil {
			e = set.Start
		}
		for _, o := range e.Outputs {
			k := output{o.Event, o.Target}
			if _, ok := first[k]; !ok {
				first[k] = n
			}
		}
	}
	out := make(map[string]*engine.Node, len(first))
	for k, n := range first {
		// Two outputs may read alike ("a to b" to c, a to "b to c"): the
		// first node still wins, whatever the map's order.
		key := k.event + " to " + k.target
		if m, ok := out[key]; !ok || n.ID < m.ID {
			out[key] = n
		}
	}
	return out
}

// Outputs lists every output the tree sends, with a shortest witness,
// and every declared output event it never sends, sorted by name.
func (a *Analyzer) Outputs() ([]Reach, error) {
	first := Sent(a.set)
	order := make([]string, 0, len(first))
	for key := range first {
		order = append(order, key)
	}
	for _, ev := range a.m.Events {
		if ev.Kinds&model.Output == 0 {
			continue
		}
		if !slices.ContainsFunc(order, func(key string) bool { return strings.HasPrefix(key, ev.Name+" to ") }) {
			order = append(order, ev.Name)
		}
	}
	sort.Strings(order)
	var out []Reach
	var err error
	for _, key := range order {
		if out, err = a.add(out, key, 0, first[key]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// possible reports whether pc ∧ c is satisfiable, for a satisfiable pc (a
// node's, maybe with the domain of fresh inputs); a check the solver
// cannot decide is not reported as a finding.
func (a *Analyzer) possible(pc []solver.Term, c solver.Term) (bool, error) {
	res, err := a.check(pc, c)
	return res == solver.Sat, err
}

// check decides pc ∧ c, for a satisfiable pc.
func (a *Analyzer) check(pc []solver.Term, c solver.Term) (solver.Result, error) {
	tab := a.set.Terms
	if v, ok := tab.BoolValue(c); ok {
		if v {
			return solver.Sat, nil
		}
		return solver.Unsat, nil
	}
	query := append(a.slicer.Slice(pc, tab.Vars(c)), c)
	key := engine.ConjKey(query)
	if res, ok := a.answers[key]; ok {
		return res, nil
	}
	if res := a.presolver.Check(query[:len(query)-1], c); res != solver.Unknown {
		a.answers[key] = res
		return res, nil
	}
	slv, err := a.solver()
	if err != nil {
		return solver.Unknown, err
	}
	res, err := slv.Check(query)
	if err != nil {
		return solver.Unknown, err
	}
	a.answers[key] = res
	return res, nil
}
