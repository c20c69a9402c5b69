package report

import (
	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/vocab"
)

// The JSON document of docs/report-json.md is written from the types of
// this file and of analysis.go, and from nothing else. Where the core's
// type is already what the document says (a change, a test's step, output
// and fired transition), the report writes it as it is, by an alias, and
// a kind of thing is defined once; elsewhere NewChangeAnalysis converts.
// A field may be added to these types; none may be renamed, removed or
// given another meaning without a new SchemaVersion. TestJSONDoc holds
// every one of them, aliases included, to the document, so a change in
// the core that would change the document fails it.

// SchemaVersion is the version of the JSON document, its schema_version.
// It changes only when a field is removed, renamed or changes its type or
// meaning, so that a reader written for one version can refuse another;
// adding a field does not change it.
const SchemaVersion = 1

// ChangeAnalysis is what a change does to one model: the `setbot diff
// --format json` object, and the part of a model's object from strategy
// to nondeterminism_partial.
type ChangeAnalysis struct {
	Strategy       vocab.Strategy `json:"strategy"`
	StrategyReason string         `json:"strategy_reason"`
	Changes        []Change       `json:"changes"`
	Impact         Impact         `json:"impact"`
	Base           Size           `json:"base"`
	Head           Size           `json:"head"`
	ReusedStates   int            `json:"reused_states"`
	NewStates      int            `json:"new_states"`
	SolverCalls    int            `json:"solver_calls"`
	// SolverUnknown counts the head tree's queries the solver could not
	// decide within its time limit.
	SolverUnknown    int        `json:"solver_unknown,omitempty"`
	Tests            Counts     `json:"tests"`
	TestsPartial     bool       `json:"tests_partial,omitempty"` // DSE: obsolete is an upper bound
	TestDelta        *TestDelta `json:"test_delta"`
	NewlyUnreachable []StateRef `json:"newly_unreachable"`
	NewlyReachable   []StateRef `json:"newly_reachable"`
	NewlyTransient   []StateRef `json:"newly_transient"`
	// NoBase says the model has no base version: everything in it is new.
	NoBase      bool       `json:"no_base,omitempty"`
	ConfirmedBy string     `json:"confirmed_by,omitempty"` // the strategy that confirmed DSE's candidates
	BoundsHit   []BoundHit `json:"bounds_hit"`

	Invariants     []InvariantCheck `json:"invariants,omitempty"`
	OutputsLost    []OutputRef      `json:"outputs_lost"`
	Nondeterminism []Conflict       `json:"nondeterminism"`
	// NondeterminismPartial: the conflicts were looked for on DSE's
	// partial tree, so there may be more.
	NondeterminismPartial bool `json:"nondeterminism_partial,omitempty"`
}

// Change is one classified source-level change, as diffmap classifies
// it: the report writes diffmap's own type (its JSON names are the
// report's), so that a kind of change is defined once.
type Change = diffmap.Change

// TransitionPlace is a transition, by its identity at head, and its places
// in the two files.
type TransitionPlace = diffmap.TransitionPlace

// Position is a place in a model file, both 1-based.
type Position = diffmap.Position

// Impact is the change impact on the flattened machine: the updated and
// the impacted transitions by key, and the measures M1 and M2.
type Impact struct {
	Changed  []string `json:"changed"`
	Impacted []string `json:"impacted"`
	M1       float64  `json:"m1"`
	M2       float64  `json:"m2"`
}

// Size is a tree's size and the time it took.
type Size struct {
	States int   `json:"states"`
	Paths  int   `json:"paths"`
	Ms     int64 `json:"ms"`
}

// Counts counts the test delta.
type Counts struct {
	Retained int `json:"retained"`
	Changed  int `json:"changed"`
	Obsolete int `json:"obsolete"`
	New      int `json:"new"`
}

// TestDelta is the test-suite delta with the tests themselves.
type TestDelta struct {
	Retained []Test `json:"retained"`
	Changed  []Test `json:"changed"`
	Obsolete []Test `json:"obsolete"`
	New      []Test `json:"new"`
}

// Test is a concrete test: the inputs of one path of the tree, and the
// expected outputs and final configuration.
type Test struct {
	ID       string   `json:"id"`
	Identity []string `json:"identity"` // per step: the fired "key#path"s
	Steps    []Step   `json:"steps"`
	Final    []string `json:"final"` // the expected final configuration
	// Rows are the black-box functions' table rows the test relies on.
	Rows []string `json:"rows,omitempty"`
}

// Step is one input of a test and what it must produce; Output an
// expected output event; Fired a flattened transition a step takes, with
// its decision path. The report writes testgen's own types (their JSON
// names are the report's), so that a test's parts are defined once. A
// step's Args hold int64, bool, string or sim.Decimal values (a decimal is
// written as a JSON number with a point).
type (
	Step   = testgen.Step
	Output = testgen.Output
	Fired  = testgen.Fired
)

// StateRef names a statechart state in a claim about reachability.
type StateRef struct {
	State string `json:"state"`
	Line  int    `json:"line,omitempty"`
	// Within is the depth bound the claim is qualified by (0: proven).
	Within int `json:"within_depth,omitempty"`
	// CutBy names a bound other than depth that cut the head tree.
	CutBy vocab.Bound `json:"cut_by,omitempty"`
}

// OutputRef is an output the base sends and the head never does.
type OutputRef struct {
	Output      string      `json:"output"` // "EVENT to TARGET"
	Within      int         `json:"within_depth,omitempty"`
	CutBy       vocab.Bound `json:"cut_by,omitempty"`
	BaseWitness *Test       `json:"base_witness,omitempty"`
}

// Conflict is a pair of transitions that compete for one event in a
// configuration of the head where both conditions can hold.
type Conflict struct {
	State   string `json:"state"`
	Event   string `json:"event"`
	Taken   string `json:"taken"`
	Shadows string `json:"shadows"`
	Line    int    `json:"line,omitempty"`
	Witness *Test  `json:"witness,omitempty"`
	AtBase  bool   `json:"at_base,omitempty"`
}

// BoundHit is a bound that cut the head tree.
type BoundHit struct {
	Bound vocab.Bound `json:"bound"`
	Limit int64       `json:"limit"`
	Count int         `json:"count"` // paths cut
}

// InvariantCheck is an invariant checked on the head tree.
type InvariantCheck struct {
	Invariant string `json:"invariant"`
	Implied   string `json:"implied_by,omitempty"` // a variable's declared range
	Holds     bool   `json:"holds"`
	State     string `json:"state,omitempty"` // where it is first violated
	Witness   *Test  `json:"witness,omitempty"`
	// CutBy qualifies an invariant that holds: "number" when it holds
	// only where the conversions it makes are exact.
	CutBy vocab.Bound `json:"cut_by,omitempty"`
}
