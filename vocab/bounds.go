package vocab

import (
	"slices"
	"strconv"
	"time"
)

// A Stage is the part of setbot that applies a bound a user sets.
type Stage string

// The stages.
const (
	// StageModel: reading and flattening a model. A model beyond the bound is an error at its
	// position; no tree is built.
	StageModel Stage = "model"
	// StageTree: the exploration. The bound shapes the tree, so the tree's cache key and its
	// encoding hold it, in the table's order.
	StageTree Stage = "tree"
	// StageBudget: a budget of the run. Where it cuts depends on the machine, so no key holds
	// it, and a tree it cut is never cached.
	StageBudget Stage = "budget"
)

// A Unit is what the value of a bound a user sets counts.
type Unit string

// The units.
const (
	UnitCount    Unit = "count"    // a whole number, written as one
	UnitDuration Unit = "duration" // a time.Duration in nanoseconds, written as Go writes one (90s, 5m); 0 means no limit
)

// A Setting is a bound a user sets: its row in the one table from which the command-line
// flags, the keys of .setbot.yml and of the server's ceilings, their validation, the
// tree's cache key and encoding, the help text and a report's advice are all derived.
// Flag, Key and CacheName are contracts: scripts pass the flags, repositories commit the
// keys, and caches hold trees under the names, so a row's words never change.
type Setting struct {
	Bound Bound
	Flag  string // the command-line flag, without "--"
	Key   string // the key under bounds in .setbot.yml, and under ceilings in the server's configuration
	// CacheName is the bound's name in a tree's cache key (StageTree only).
	CacheName string
	Stage     Stage
	Unit      Unit
	Default   int64 // what a tree is built under when nothing sets the bound
	Min       int64 // the least a flag or key may ask for
	// ZeroKey: .setbot.yml's key also takes 0, for the default (max_mlm_states took 0 before
	// it had a flag, and repositories wrote it).
	ZeroKey bool
	// Ceiling is the server's default ceiling: the most a repository's .setbot.yml gets when
	// the server's configuration sets no ceiling. The counts' are ten to a hundred times their
	// defaults (docs/server.md, "Ceilings and the memory budget").
	Ceiling int64
	Help    string // the flag's help
}

// settings is the table. Adding a bound a user sets is adding a row here, and, for a new
// StageTree or StageModel bound, the field of the executor's options that holds it
// (engine.Options.Limit, mlm.Options.Limit). A StageTree row changes the trees' encoding:
// bump engine.EncodingVersion with it.
//
// The microsteps bound has one default, 100, in every executor (the explorer, the flattened
// machine's simulator and the reference interpreter all read it here): with three defaults,
// simulate ran steps that explore called cut, and a state one command reached another called
// unreachable within its bounds.
var settings = []Setting{
	{Bound: BoundDepth, Flag: "depth", Key: "depth", CacheName: "depth", Stage: StageTree, Unit: UnitCount,
		Default: 10, Min: 1, Ceiling: 1000,
		Help: "explore paths of at most this many input events"},
	{Bound: BoundStates, Flag: "max-states", Key: "max_states", CacheName: "states", Stage: StageTree, Unit: UnitCount,
		Default: 200_000, Min: 1, Ceiling: 2_000_000,
		Help: "stop exploring a tree after this many symbolic states"},
	{Bound: BoundLoop, Flag: "loop-bound", Key: "loop_bound", CacheName: "loop", Stage: StageTree, Unit: UnitCount,
		Default: 10, Min: 1, Ceiling: 100,
		Help: "unroll each loop of the action code at most this many times, and inline calls of script functions this deep"},
	{Bound: BoundMicrosteps, Flag: "max-microsteps", Key: "max_microsteps", CacheName: "micro", Stage: StageTree, Unit: UnitCount,
		Default: 100, Min: 1, Ceiling: 10_000,
		Help: "process at most this many internal events in one input step"},
	{Bound: BoundMLMStates, Flag: "max-mlm-states", Key: "max_mlm_states", Stage: StageModel, Unit: UnitCount,
		Default: 10_000, Min: 1, ZeroKey: true, Ceiling: 100_000,
		Help: "refuse models whose flattened machine has more states than this"},
	{Bound: BoundMLMTransitions, Flag: "max-mlm-transitions", Key: "max_mlm_transitions", Stage: StageModel, Unit: UnitCount,
		Default: 200_000, Min: 1, ZeroKey: true, Ceiling: 2_000_000,
		Help: "refuse models whose flattened machine has more transitions than this"},
	{Bound: BoundTime, Flag: "timeout", Key: "timeout", Stage: StageBudget, Unit: UnitDuration,
		Default: 0, Min: 0, Ceiling: int64(10 * time.Minute),
		Help: "stop exploring a tree after this long (for example 30s; 0 means no limit)"},
}

// Settings returns the rows of the bounds a user sets at the given stages (every stage
// without one), in the table's order.
func Settings(stages ...Stage) []Setting {
	var out []Setting
	for _, s := range settings {
		if len(stages) == 0 || slices.Contains(stages, s.Stage) {
			out = append(out, s)
		}
	}
	return out
}

// Settable returns the row of bound b, and whether a user sets b.
func (b Bound) Settable() (Setting, bool) {
	for _, s := range settings {
		if s.Bound == b {
			return s, true
		}
	}
	return Setting{}, false
}

// Default returns the default of a bound a user sets (0 for another).
func (b Bound) Default() int64 {
	s, _ := b.Settable()
	return s.Default
}

// Where says where a user sets the bound: the key under bounds in .setbot.yml and the flag.
func (s Setting) Where() string {
	return "bounds." + s.Key + " in .setbot.yml, --" + s.Flag + " on the command line"
}

// Format writes a value of the bound as .setbot.yml and the flag write it: 200000, 1m30s.
func (s Setting) Format(v int64) string {
	if s.Unit == UnitDuration {
		return time.Duration(v).String()
	}
	return strconv.FormatInt(v, 10)
}

// Limits holds a value for some of the bounds a user sets; an absent bound is unset.
// It is a map: copy it with Clone before changing a copy.
type Limits map[Bound]int64

// DefaultLimits returns every bound a user sets at its default.
func DefaultLimits() Limits {
	l := make(Limits, len(settings))
	for _, s := range settings {
		l[s.Bound] = s.Default
	}
	return l
}

// Int returns the value of a count bound (0 when unset).
func (l Limits) Int(b Bound) int { return int(l[b]) }

// Duration returns the value of a duration bound (0 when unset).
func (l Limits) Duration(b Bound) time.Duration { return time.Duration(l[b]) }

// Clone returns a copy of l that shares nothing with it.
func (l Limits) Clone() Limits {
	out := make(Limits, len(l))
	for b, v := range l {
		out[b] = v
	}
	return out
}
