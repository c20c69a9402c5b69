// Package report renders what an analysis found (ARCHITECTURE.md §8): the
// pull-request comment in markdown with a Mermaid diagram, the stable JSON
// document, JUnit XML of the tests, and the check run's summary and
// annotations; and it applies the gate rules to the findings.
package report

import (
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/model/mlm"
)

// Analysis is one run of setbot over a pair of commits: what `setbot
// analyze` prints and what the bot posts.
type Analysis struct {
	Repo   string   `json:"repo,omitempty"`
	Base   string   `json:"base"` // full commit SHA
	Head   string   `json:"head"`
	Models []*Model `json:"models"` // sorted by Path
	Gate   Gate     `json:"gate"`
}

// Model statuses.
const (
	Added    = "added"
	Modified = "modified"
	Renamed  = "renamed"
	Deleted  = "deleted"
)

// Model is what happened to one model file. Its JSON is the `setbot diff`
// object (the embedded Result, absent when the model was deleted or does
// not load) plus the fields below.
type Model struct {
	Path       string `json:"path"`               // at head; at base for a deleted model
	OldPath    string `json:"old_path,omitempty"` // at base, for a renamed model
	Status     string `json:"status"`             // added, modified, renamed, deleted
	BaseCached bool   `json:"base_cached"`        // the base SET came from the cache
	HeadCached bool   `json:"head_cached"`        // the head SET came from the cache
	// ResultCached: the whole analysis of this pair came from the cache and
	// nothing was executed in this run; the statistics are those of the run
	// that computed it.
	ResultCached bool `json:"result_cached"`
	// Computed says where the trees came from in the run that computed the
	// result: with ResultCached, the comment describes that run, so that a
	// result served again renders the same comment (and costs no edit).
	Computed struct{ BaseCached, HeadCached bool } `json:"-"`

	// Errors are the reasons the model could not be analysed (it does not
	// parse or flatten at head, or a bound made the analysis fail).
	Errors []Diagnostic `json:"errors,omitempty"`
	// Warnings are the places of the head model whose code SCXML makes an
	// error at run time (an expression that is no ECMAScript, an assignment
	// to a system variable): setbot raises error.execution there.
	Warnings []Diagnostic `json:"warnings,omitempty"`

	*incremental.Result

	// Invariants are the configured invariants and those implied by
	// declared ranges, checked on the head tree.
	Invariants []analysis.InvariantCheck `json:"invariants,omitempty"`

	// HeadMachine is the flattened head model (nil when deleted or broken),
	// for the diagram and source lines; it is not part of the JSON.
	HeadMachine *mlm.Machine `json:"-"`
}

// Diagnostic is an error located in a model file.
type Diagnostic struct {
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
}

// Gate conclusions, as GitHub's check runs name them.
const (
	Success = "success"
	Neutral = "neutral"
	Failure = "failure"
)

// Gate is the verdict of the gate rules on the findings.
type Gate struct {
	Conclusion string    `json:"conclusion"` // success, neutral or failure
	Findings   []Finding `json:"findings"`
}

// Gate rules: the finding kinds a rule can be set for.
const (
	RuleUnreachableState   = "unreachable_state"   // a state entered at base is never entered at head
	RuleTransientState     = "transient_state"     // a state the head enters but never rests in
	RuleInvariantViolation = "invariant_violation" // an invariant fails on the head tree
	RuleBoundHit           = "bound_hit"           // a bound cut the head tree
	RuleModelError         = "model_error"         // the head model does not load or cannot be analysed
	RuleRuntimeError       = "runtime_error"       // head code that SCXML makes an error at run time: it raises error.execution
)

// Rule actions.
const (
	Block = "block"
	Warn  = "warn"
	Off   = "off"
)

// Rules maps a rule name to its action (block, warn or off); a rule that is
// absent takes its default (DefaultRules).
type Rules map[string]string

// DefaultRules are the gate's defaults.
var DefaultRules = Rules{
	RuleUnreachableState:   Block,
	RuleTransientState:     Off,
	RuleInvariantViolation: Block,
	RuleBoundHit:           Warn,
	RuleModelError:         Block,
	RuleRuntimeError:       Warn,
}

// Finding is one thing the gate looked at.
type Finding struct {
	Rule    string `json:"rule"`
	Level   string `json:"level"` // block or warn
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Subject string `json:"subject,omitempty"` // the state, invariant or bound
	Message string `json:"message"`

	// uncertain: a bound leaves the claim open, so it warns at most.
	uncertain bool
}
