// Package vocab defines, once, the words that setbot's configuration, engine, reports and bot
// share: the gate's rules and their actions, with the defaults, the analysis strategies and
// the bounds that cut an exploration.
//
// Each word is a string type whose values are the words users write in .setbot.yml and read in
// the JSON report, so the types change neither. The package sits below every other package of
// setbot and imports none of them, so any of them may use it without breaking the one-way data
// flow (docs/architecture.md §Data flow).
package vocab

import (
	"maps"
	"slices"
	"strconv"
	"time"
)

// A Rule names a kind of finding the gate can act on: a key of the gate in .setbot.yml and the
// rule of a finding in the report.
type Rule string

// The gate rules.
const (
	RuleUnreachableState   Rule = "unreachable_state"   // a state entered at base is never entered at head
	RuleTransientState     Rule = "transient_state"     // a state the head enters but never rests in
	RuleInvariantViolation Rule = "invariant_violation" // an invariant fails on the head tree
	RuleBoundHit           Rule = "bound_hit"           // a bound cut the head tree
	RuleModelError         Rule = "model_error"         // the head model does not load or cannot be analysed, where the base version did
	RuleModelRefused       Rule = "model_refused"       // the head model uses a construct setbot does not support (another data model, ...)
	RuleRuntimeError       Rule = "runtime_error"       // head code that SCXML makes an error at run time: it raises error.execution
	RuleOutputLost         Rule = "output_lost"         // an output the base sends is never sent at head
	RuleNondeterminism     Rule = "nondeterminism"      // the change makes two transitions compete for an event where both can fire
	// RuleExpectedReached: a state meant to be unreachable (setbot:expect, expect_unreachable)
	// is entered at head, where the base never entered it.
	RuleExpectedReached Rule = "expected_unreachable_reached"
	// The rules of a model with no base version to compare with: one the change adds, or one
	// whose base version could not be read.
	RuleNewModelUnreachable Rule = "new_model_unreachable" // a state no execution enters
	RuleNewModelError       Rule = "new_model_error"       // the model does not load or cannot be analysed
)

// Rules lists the gate rules, in documentation order.
var Rules = []Rule{RuleUnreachableState, RuleTransientState, RuleInvariantViolation, RuleBoundHit, RuleModelError, RuleModelRefused,
	RuleRuntimeError, RuleOutputLost, RuleNondeterminism, RuleExpectedReached, RuleNewModelUnreachable, RuleNewModelError}

// ruleHelp says, in a reviewer's words, what each rule's findings mean: a
// one-line summary and what to do about one. The SARIF report's rules carry
// them, so code scanning explains a finding where it shows it.
var ruleHelp = map[Rule][2]string{
	RuleUnreachableState: {"A state that some execution entered before the change is entered by none after it.",
		"Some sequence of inputs reached this state at the base commit; at the head no sequence within the analysis bounds does. " +
			"Check the guards and targets of the transitions into it that the change touched, or remove the state if it is meant to go."},
	RuleTransientState: {"A state the machine enters but never rests in.",
		"Every step that enters this state leaves it again before the next input, as a choice point does. " +
			"If the machine should be able to wait in it, check its eventless transitions and their conditions."},
	RuleInvariantViolation: {"An invariant declared in .setbot.yml fails in some reachable state.",
		"The report gives the shortest sequence of inputs that reaches a state where the predicate is false."},
	RuleBoundHit: {"A bound cut the analysis, so its claims hold only within that bound.",
		"Paths longer than the depth bound, or beyond the state, loop, time or memory bounds, were not explored. " +
			"Raise the bound named in the message (for example --depth or .setbot.yml's depth) if the claims must reach further; " +
			"a bound beyond the server's ceiling needs the server's operator."},
	RuleModelError: {"The model, which the base version could read, does not read, flatten or start, so it cannot be analysed.",
		"Fix the error at the position given; setbot check prints the same errors locally."},
	RuleModelRefused: {"The model uses a construct setbot does not support, so it is not analysed.",
		"The model may be valid SCXML, for another data model (xpath, lua, ...) or with a feature outside setbot's action language: " +
			"setbot refuses it rather than guess. Rewrite the construct as the message says if the model should be analysed."},
	RuleRuntimeError: {"Code that SCXML makes an error at run time: the machine raises error.execution there.",
		"The model loads, but this expression or assignment fails when it runs (an expression that is no ECMAScript, " +
			"an assignment to a system variable, ...); setbot check prints these places as warnings."},
	RuleOutputLost: {"An output that some execution sent before the change is sent by none after it.",
		"An event sent to another component (a <send> with a target) at the base commit is never sent at the head within the bounds."},
	RuleNondeterminism: {"Two transitions can both fire on the same event and only document order decides which.",
		"The change lets two transitions take the same event in one configuration where both conditions can hold; " +
			"make the conditions exclusive if the choice matters."},
	RuleExpectedReached: {"A state meant to be unreachable is entered by some execution after the change.",
		"The state is declared unreachable (setbot:expect=\"unreachable\" or expect_unreachable in .setbot.yml), the base never entered it, " +
			"and the head does: the report gives the inputs. A W3C-style test that reaches its fail state is a failing test."},
	RuleNewModelUnreachable: {"A state of a model with no base version (added by the change, or whose base could not be read) is entered by no execution.",
		"Nothing is compared: this is the model's first analysable version. Mark states meant to be unreachable with setbot:expect=\"unreachable\" " +
			"or expect_unreachable in .setbot.yml, or check the transitions into the state."},
	RuleNewModelError: {"A model with no base version (added by the change, or whose base could not be read) does not read, flatten or start.",
		"Fix the error at the position given if the file is meant to be a model; a fixture meant to be invalid can be left out with ignore in .setbot.yml."},
}

// Summary says in one sentence what a finding of rule r means.
func (r Rule) Summary() string { return ruleHelp[r][0] }

// Help says what a finding of rule r means and what to do about it.
func (r Rule) Help() string { return ruleHelp[r][1] }

// An Action is what the gate does with the findings of a rule; a finding's level is the action
// taken on it.
type Action string

// The gate actions.
const (
	ActionBlock Action = "block" // the check fails
	ActionWarn  Action = "warn"  // the check is neutral
	ActionOff   Action = "off"   // the finding does not affect the check (the level of those the gate lists without counting)
)

// Actions lists the gate actions, in documentation order.
var Actions = []Action{ActionBlock, ActionWarn, ActionOff}

// RuleActions maps each rule to its action: the gate's rules, as .setbot.yml's gate
// sets them.
type RuleActions map[Rule]Action

// defaults holds every rule's default action: what blocks a merge when .setbot.yml says nothing.
var defaults = RuleActions{
	RuleUnreachableState:   ActionBlock,
	RuleTransientState:     ActionOff,
	RuleInvariantViolation: ActionBlock,
	RuleBoundHit:           ActionWarn,
	RuleModelError:         ActionBlock,
	RuleModelRefused:       ActionWarn,
	RuleRuntimeError:       ActionWarn,
	RuleOutputLost:         ActionWarn,
	RuleNondeterminism:     ActionWarn,
	// A state meant to be unreachable that the change makes reachable is a regression.
	RuleExpectedReached: ActionBlock,
	// Adding a model does not block on its first version unless a team asks.
	RuleNewModelUnreachable: ActionWarn,
	RuleNewModelError:       ActionWarn,
}

// DefaultRuleActions returns a new map holding every rule's default action:
// what blocks a merge when .setbot.yml says nothing.
func DefaultRuleActions() RuleActions {
	return maps.Clone(defaults)
}

// Action returns the action of rule r: g's when it holds a valid one, the default
// otherwise.
func (g RuleActions) Action(r Rule) Action {
	if a := g[r]; slices.Contains(Actions, a) {
		return a
	}
	return defaults[r]
}

// A Reason says why a finding does not block: the gate lists every finding it looked at, and
// one that does not block says why, in the report and the PR comment.
type Reason string

// The reasons.
const (
	// ReasonAtBase: the base version has the same finding (matched through renames): the change
	// did not make it, so the gate does not count it.
	ReasonAtBase Reason = "at_base"
	// ReasonExpected: the state is declared unreachable, so its unreachability is not counted.
	ReasonExpected Reason = "expected"
	// ReasonRefused: the model uses a construct setbot does not support; it is not broken.
	ReasonRefused Reason = "refused"
	// ReasonNewModel: the change adds the model; the rules of a new model judge its first version.
	ReasonNewModel Reason = "new_model"
	// ReasonNoBase: the base version could not be read, so nothing is compared; the rules of a
	// new model apply.
	ReasonNoBase Reason = "no_base"
	// ReasonBound: a bound cut the head tree, so the claim is left open: it warns at most.
	ReasonBound Reason = "bound"
	// ReasonRule: the gate's rule for the finding is warn.
	ReasonRule Reason = "rule"
)

// Counted reports whether the gate counts a finding not blocking for reason r: a finding the
// base already had, or a state declared unreachable, is listed but never gated.
func (r Reason) Counted() bool { return r != ReasonAtBase && r != ReasonExpected }

// Text says the reason in a reviewer's words.
func (r Reason) Text() string {
	switch r {
	case ReasonAtBase:
		return "already at the base"
	case ReasonExpected:
		return "expected: the state is declared unreachable"
	case ReasonRefused:
		return "refused: setbot does not support a construct the model uses, which does not make it broken"
	case ReasonNewModel:
		return "new model: its first version does not block"
	case ReasonNoBase:
		return "the base version could not be read, so there is nothing to compare with"
	case ReasonBound:
		return "a bound leaves it open"
	case ReasonRule:
		return "the gate rule warns"
	}
	return ""
}

// A Strategy is how the engine gets the head version's symbolic execution tree.
type Strategy string

// The strategies.
const (
	StrategyAuto  Strategy = "auto"  // choose per change
	StrategyReuse Strategy = "reuse" // the base tree serves the head unchanged
	StrategyMSE   Strategy = "mse"   // memoized symbolic execution
	StrategyDSE   Strategy = "dse"   // dependency-based symbolic execution
	StrategyFull  Strategy = "full"  // explore from scratch
	// StrategyCached: the head tree was built before (by any strategy) and came from the
	// cache; nothing was explored. It is reported, never asked for.
	StrategyCached Strategy = "cached"
)

// Strategies lists the strategies a user may ask for, in documentation order.
var Strategies = []Strategy{StrategyAuto, StrategyMSE, StrategyDSE, StrategyFull}

// ParseStrategy returns the strategy a user may ask for named s, and whether there is one.
func ParseStrategy(s string) (Strategy, bool) {
	if slices.Contains(Strategies, Strategy(s)) {
		return Strategy(s), true
	}
	return "", false
}

// A Bound names a limit that cuts the exploration of a tree: a path that meets it stops there,
// and the results hold only within it. It names the bound in the report and on a cut node.
type Bound string

// The bounds.
const (
	BoundDepth      Bound = "depth"      // input events per path
	BoundStates     Bound = "states"     // symbolic states per tree
	BoundLoop       Bound = "loop"       // iterations of one loop
	BoundMicrosteps Bound = "microsteps" // internal events per input step
	BoundTime       Bound = "time"       // wall-clock time per tree
	// BoundMemory: the heap an analysis may hold (the memory budget of a job, or of a run
	// of the command line); in one process the heap is shared by the analyses running beside
	// it, so where it cuts depends on them too.
	BoundMemory Bound = "memory"
	BoundArray  Bound = "array" // elements of an array, as its type declares
	// BoundKeys: the keys of an object written with a key computed when it runs (o[k] = v),
	// which are those of its initial value, or, for an object used as a dictionary ({} at
	// first), up to ast.DictLen entries: a path that writes another key, which ECMAScript
	// adds to the object, stops there.
	BoundKeys      Bound = "keys"
	BoundInterrupt Bound = "interrupt" // the user stopped the exploration (Ctrl-C)
	// BoundIndex: an element assigned at an index past the end of its array (which leaves
	// holes) or below 0 (which ECMAScript makes a property, not an element): setbot models an
	// element assigned within the array or just past its end, and a path that does otherwise
	// stops there.
	BoundIndex Bound = "index"
	// BoundCall: calls of a function declared in a <script> nested in one another, and
	// iterations of a loop inside such a function, which setbot inlines as deep as the loop
	// bound.
	BoundCall Bound = "call"
	// BoundTable: calls of a black-box function that no row of its table answers (its
	// summary, after Boudhiba et al., TAP 2017): a path that needs another row stops there.
	BoundTable Bound = "table"
	// BoundConcretised: branches the solver could not decide, taken with concrete values
	// (concolic execution, after Ahmadi and Dingel, ESEC/FSE 2019): what the tree does not
	// reach below them is "not reached", never "unreachable".
	BoundConcretised Bound = "concretised"
	// BoundSessions: sessions of one invoked machine that end (cancelled, or finished) within
	// one step, whose events setbot tells apart up to a fixed number: a path on which more end
	// stops there.
	BoundSessions Bound = "sessions"
	// BoundNumber: conversions between strings and numbers (parseInt, Number of a string,
	// String of a decimal) where ECMAScript's value is NaN, which setbot does not model, or
	// beyond the range setbot computes exactly (README, "Functions"): a path stops there.
	BoundNumber Bound = "number"
	// BoundTerm: the size of the symbolic value a statement stores in a variable (its
	// operators and operands written out as a tree; MaxTermSize): a path whose value
	// grows beyond it, such as a long chain of x = x * y + 1 on an input y, stops at the
	// statement that stores it, so that no walk of a term, the solver's included, grows
	// with the input.
	BoundTerm Bound = "term"
	// BoundMLMStates and BoundMLMTransitions: the states and the transitions of a model's
	// flattened machine (parallel regions multiply them). A model beyond one is an error at
	// its position, not a cut tree, so neither is in Bounds.
	BoundMLMStates      Bound = "mlm_states"
	BoundMLMTransitions Bound = "mlm_transitions"
)

// MaxTermSize is the term bound's limit: the largest size of a symbolic value (its
// operators and operands written out as a tree, a subterm counted as often as it occurs)
// the executors store in a variable. Every walk of a term, the solver translation and
// the solver's own included, is then as deep as the value a path keeps plus the
// expression that reads it, which the reader bounds (model/lang's limits): a Go stack
// holds that with room to spare, and Z3 decides a chain of 10,000 comparisons in about a
// second where one of 100,000 takes minutes. It is fixed, as the model's tree under its
// bounds does not depend on the run, so a cached tree it cut is the one any run builds.
const MaxTermSize = 10000

// Setting says where a user raises the bound: for a bound a user sets, its key under bounds in
// .setbot.yml and its command-line flag (Settings); for array, the array's declared size.
func (b Bound) Setting() string {
	if s, ok := b.Settable(); ok {
		return s.Where()
	}
	switch b {
	case BoundMemory:
		return "job_memory in the server's configuration, analyze's --max-memory on the command line"
	case BoundArray:
		return "the array's declared size (its type, such as int[32])"
	case BoundKeys:
		return "the object's keys (give every key the code writes in its initial value; a dictionary, {} at first, holds 8)"
	case BoundIndex:
		return "fixed: assign an element within the array or just past its end (a[a.length] = x, or a.push(x))"
	case BoundInterrupt:
		return "a run that is not interrupted"
	case BoundConcretised:
		return "a solver that decides the branch: simplify its non-linear arithmetic, or raise --timeout"
	case BoundTable:
		return "the rows of the black-box function's table (setbot:function table=...); its command computes more with functions.run_commands in .setbot.yml, --run-commands for analyze, --grow-tables for explore"
	case BoundSessions:
		return "fixed: setbot tells apart the events of 3 sessions of one invoke that end within one step (end fewer sessions per input event)"
	case BoundTerm:
		return "fixed: setbot follows values of at most " + strconv.Itoa(MaxTermSize) + " operators and operands (compute the value in fewer steps, or from fewer inputs)"
	case BoundNumber:
		return "values in the exact range of parseInt, Number and String (README, \"Functions\"): test a string before converting it"
	case BoundCall:
		return BoundLoop.Setting() + " (setbot inlines nested calls and loops inside a function as deep as the loop bound)"
	}
	return ""
}

// FormatLimit writes a limit of the bound with its unit, as a user reads it: the time bound's
// limit (and the interrupt's, when it came) is in milliseconds and reads "1m30s"; the memory
// bound's is in bytes and reads "6GiB"; the others are counts.
func (b Bound) FormatLimit(limit int64) string {
	switch b {
	case BoundTime, BoundInterrupt:
		return (time.Duration(limit) * time.Millisecond).String()
	case BoundMemory:
		return FormatBytes(limit)
	}
	return strconv.FormatInt(limit, 10)
}

// Budget reports whether b is a budget of the run rather than a bound of the tree: where the
// wall-clock time or the memory budget cuts a tree depends on the machine and on what runs
// beside it, so a tree it cut is not the model's tree under its bounds, and no cache keeps it
// as if it were (another run could get further).
func (b Bound) Budget() bool { return b == BoundTime || b == BoundMemory }

// FormatBytes writes a number of bytes in the largest binary unit that divides it, as the
// server's configuration reads sizes: 6GiB, 512MiB, 1000B.
func FormatBytes(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n != 0 && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// Bounds lists the bounds that cut a tree, in the order the report gives them.
var Bounds = []Bound{BoundDepth, BoundStates, BoundLoop, BoundMicrosteps, BoundTime, BoundMemory, BoundArray, BoundIndex, BoundKeys, BoundCall, BoundTable, BoundNumber, BoundTerm, BoundConcretised, BoundSessions, BoundInterrupt}

// A Coverage is the criterion that chooses a tree's tests: a key of .setbot.yml, a flag's value,
// and the tests' criterion in the report.
type Coverage string

// The coverage criteria.
const (
	CoveragePath       Coverage = "path"       // one test per path of the tree (per leaf)
	CoverageTransition Coverage = "transition" // few paths that together fire every transition the tree fires
	CoverageState      Coverage = "state"      // few paths that together reach every state the tree reaches
)

// Coverages lists the coverage criteria, in documentation order.
var Coverages = []Coverage{CoveragePath, CoverageTransition, CoverageState}

// ParseCoverage returns the coverage criterion named s, and whether there is one.
func ParseCoverage(s string) (Coverage, bool) {
	if slices.Contains(Coverages, Coverage(s)) {
		return Coverage(s), true
	}
	return "", false
}

// Names returns the words of ws as strings, in order: the choices an error message lists.
func Names[T ~string](ws []T) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = string(w)
	}
	return out
}

// A Time is how an exploration reads the delays of timers (delayed sends): a key of .setbot.yml
// and a flag's value.
type Time string

// The time semantics.
const (
	// TimeTimed: a timer fires at its deadline, timers in deadline order (ties in the order they
	// were set), and inputs happen at non-decreasing times between them.
	TimeTimed Time = "timed"
	// TimeUntimed: a timer may fire at any moment after it is set, before or after the others (an
	// over-approximation, which reports as reachable what only impossible timings reach).
	TimeUntimed Time = "untimed"
)

// Times lists the time semantics, the default first.
var Times = []Time{TimeTimed, TimeUntimed}
