// Package engine symbolically executes a Mealy-like machine (Alg. 1 of
// Khalil and Dingel, Incremental symbolic execution, 2015, with the action
// code executed symbolically as Zurowska and Dingel, Symbolic execution of
// UML-RT state machines, 2011, does) and builds its symbolic execution tree
// (SET).
//
// One edge of the tree is one input step: an input event from the
// environment (or a pending timer firing) and everything the machine does
// until it is stable again, run-to-completion: the MLM transition the input
// fires, then those fired by the internal events and self-sends it queued.
// Nodes are stable symbolic states (MLM state, valuation, path condition,
// pending timers); their queues are empty by construction. Exploration is
// breadth-first, children are ordered by the (transition key, decision path)
// sequence of their edge, and parameters get fresh variables named by
// their depth (x@3), so a model and options always give the same tree.
package engine

import (
	"errors"
	"fmt"
	"runtime/metrics"
	"strings"
	"time"

	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/vocab"
)

// The defaults of the bounds are the table's (vocab.Settings).
const (
	// DefaultSolverTimeout bounds one solver query when there is no
	// wall-clock budget: a query Z3 cannot decide (nonlinear integer
	// arithmetic, say) ends Unknown, counted in Stats.Unknown and reported
	// as such, instead of holding the analysis for ever.
	DefaultSolverTimeout = 10 * time.Second
)

// Options bound the exploration. Every bound that cuts the tree is
// reported in SET.Bounds.
type Options struct {
	MaxDepth      int           // input events per path
	MaxStates     int           // symbolic states in the tree
	LoopBound     int           // iterations of one loop execution
	MaxMicrosteps int           // queued events processed in one input step
	Timeout       time.Duration // wall-clock budget; 0 means none
	SolverTimeout time.Duration // per query; 0 means the wall-clock budget, or DefaultSolverTimeout without one
	// Closed runs the machine as a closed system: the environment sends
	// it no input event, so only its timers and the events it raises or
	// sends itself drive it (docs/architecture.md §Inputs), as in the W3C tests.
	Closed bool
	// Time is how delays are read: timed (the default) or untimed.
	Time vocab.Time
	// Cancel, when closed, stops the exploration with ErrCanceled (a
	// context's Done channel): a tree nobody waits for is not finished.
	Cancel <-chan struct{}
	// Interrupt, when closed, stops the exploration as a bound does: the
	// tree so far is returned, cut by vocab.BoundInterrupt (a user's
	// Ctrl-C, who wants to see what was found).
	Interrupt <-chan struct{}
	// Progress, when set, is called every few hundred states with the
	// exploration's progress.
	Progress func(Progress)
	// MaxMemory is the heap, in bytes, the exploration may see in use; 0
	// means no budget. Beyond it the exploration stops as the time budget
	// does, the rest of the tree cut by vocab.BoundMemory. The heap is read
	// before every MemoryCheckEvery-th state expanded, so it can pass the
	// budget by what those add, and a smaller tree never reads it.
	MaxMemory int64
	// Heap, when set, reads the heap MaxMemory bounds. Without it the
	// process's heap is read (HeapInUse): in one process that heap is
	// shared by the analyses running beside this one, so one of them can
	// be cut by what another holds.
	Heap func() int64
	// Jobs is how many workers expand the nodes of a level at once, each
	// with its own solver (parallel.go); 0 or 1 means the exploring
	// goroutine expands them alone. The tree is the same for any number:
	// only the time it takes depends on it.
	Jobs int
}

// MemoryCheckEvery is how many states an exploration expands between two
// readings of the heap (Options.MaxMemory): a reading costs a few
// microseconds, a state rarely less.
const MemoryCheckEvery = 1024

// HeapInUse returns the bytes of the process's heap that hold objects now,
// live or not yet collected: the heap's peak is the largest of these, and
// it is what the host's memory must hold.
func HeapInUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// Progress is how far an exploration has got.
type Progress struct {
	States  int           // symbolic states so far
	Depth   int           // depth of the state being expanded
	Elapsed time.Duration // since the exploration started
}

// Limit returns the option that holds bound b, a bound of the tree
// (vocab.StageTree); nil for another. It is the one place that maps the
// bounds table's rows onto the fields of Options.
func (o *Options) Limit(b vocab.Bound) *int {
	switch b {
	case vocab.BoundDepth:
		return &o.MaxDepth
	case vocab.BoundStates:
		return &o.MaxStates
	case vocab.BoundLoop:
		return &o.LoopBound
	case vocab.BoundMicrosteps:
		return &o.MaxMicrosteps
	}
	return nil
}

// Bounded returns the options with the bounds l sets: those of the tree and
// the wall-clock budget (l's time bound). What l leaves unset stays as it
// was.
func (o Options) Bounded(l vocab.Limits) Options {
	for _, s := range vocab.Settings(vocab.StageTree) {
		if v, ok := l[s.Bound]; ok {
			*o.Limit(s.Bound) = int(v)
		}
	}
	if v, ok := l[vocab.BoundTime]; ok {
		o.Timeout = time.Duration(v)
	}
	return o
}

// Shape names what of the options shapes a whole tree, as a tree's cache
// key holds it: each bound of the tree by its name in the table
// (vocab.Setting.CacheName), in the table's order, then the reading of
// time, as "depth=10 states=200000 loop=10 micro=100 time=timed". The
// wall-clock budgets, cancellation, interruption and progress only decide
// whether a tree is whole, or what is shown while it is built; the number
// of jobs, how fast.
func (o Options) Shape() string {
	var b strings.Builder
	for _, s := range vocab.Settings(vocab.StageTree) {
		fmt.Fprintf(&b, "%s=%d ", s.CacheName, *o.Limit(s.Bound))
	}
	b.WriteString("time=" + string(o.Time))
	return b.String()
}

// ErrCanceled is returned by an exploration stopped through Options.Cancel.
var ErrCanceled = errors.New("exploration canceled")

// WithDefaults returns the options with the defaults for what is unset:
// the bounds a tree is really built under (and cached by).
func (o Options) WithDefaults() Options {
	for _, s := range vocab.Settings(vocab.StageTree) {
		if p := o.Limit(s.Bound); *p <= 0 {
			*p = int(s.Default)
		}
	}
	if o.SolverTimeout <= 0 {
		// One query cannot usefully outlast the whole budget; the budget is
		// checked between states, so without this a query Z3 cannot decide
		// (bit operators on unbounded ints, say) would ignore --timeout.
		o.SolverTimeout = o.Timeout
		if o.Timeout <= 0 {
			o.SolverTimeout = DefaultSolverTimeout
		}
	}
	if o.Time == "" {
		o.Time = vocab.TimeTimed
	}
	if o.MaxMemory > 0 && o.Heap == nil {
		o.Heap = HeapInUse
	}
	return o
}

// SET is a symbolic execution tree.
type SET struct {
	Machine *mlm.Machine
	Terms   *solver.Table
	Options Options
	Start   *Edge   // what the machine does when it starts (no input)
	Nodes   []*Node // breadth-first order; Nodes[0] is the root
	Stats   Stats
	Bounds  []BoundHit
	// origin is, for a tree MSE built, the base tree it copied nodes from
	// (delta.go).
	origin *origin
}

// Stats describe an exploration.
type Stats struct {
	States      int   `json:"states"`
	Paths       int   `json:"paths"`
	Depth       int   `json:"depth"`
	Subsumed    int   `json:"subsumed"`
	Reused      int   `json:"reused_states"` // MSE: states copied from the base tree
	New         int   `json:"new_states"`    // states computed by this exploration
	SolverCalls int   `json:"solver_calls"`
	Unknown     int   `json:"solver_unknown"`
	Ms          int64 `json:"ms"`
}

// BoundHit says that a bound cut the tree, and how often.
type BoundHit struct {
	Bound vocab.Bound `json:"bound"` // depth, states, loop, microsteps, time, array
	Limit int64       `json:"limit"` // milliseconds for time; for array, the largest bound of an array that met it
	Count int         `json:"count"` // paths cut
}

// Node is a stable symbolic state.
type Node struct {
	ID       int
	Parent   *Node
	In       *Edge // the step from the parent; nil for the root
	Children []*Node
	State    *mlm.State
	Vals     []solver.Term // by index of Machine.Vars
	PC       []solver.Term // path condition, a conjunction, in path order
	Timers   []Timer       // pending timers, sorted by event
	Depth    int           // input events from the root

	Subsumed *Node       // the earlier state that subsumes this one (a leaf)
	Cut      vocab.Bound // the bound that stopped exploration here, if any
	Expanded bool        // its inputs were explored (it may still have no children)
	Reused   bool        // MSE: copied from the base tree rather than computed

	// canon is the node's canonical form (subsume.go), its terms then its
	// path condition, kept with the tree so that MSE imports it for a node
	// it copies instead of computing it again; nil when unknown.
	canon []solver.Term

	// steps is what bounds cut computing the node's children, by input:
	// MSE, copying an input's children from a base node instead of
	// executing the input, counts the cuts executing it would have made
	// (reuser.children). nil when no bound cut there.
	steps []stepBound
}

// stepBound says that executing one input of a node (the input as
// reuser.children matches it: the event, whether a timer fires it, and for
// a timer its slot) cut Count paths by Bound, under Limit (the executor's
// limit for the bound, where HasLimit; else the options').
type stepBound struct {
	Event    string
	Timer    bool
	Slot     int // for a timer; 0 for an input event
	Bound    vocab.Bound
	Count    int
	Limit    int64
	HasLimit bool
}

// is reports whether s is of the input with that event, timer flag and
// slot.
func (s stepBound) is(event string, timer bool, slot int) bool {
	return s.Event == event && s.Timer == timer && (!timer || s.Slot == slot)
}

// Leaf reports whether n has no children.
func (n *Node) Leaf() bool { return len(n.Children) == 0 }

// Path returns the nodes from the root to n.
func (n *Node) Path() []*Node {
	var out []*Node
	for x := n; x != nil; x = x.Parent {
		out = append(out, x)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// Timer is a pending delayed send to the machine. ID is its send id, which
// a cancel names ("" when the send has none). Under timed semantics Due is
// the time left until it fires, in milliseconds (an integer term, relative
// to the node's moment, so that states that differ only in when they
// happen are alike); untimed, it is 0 (no term).
type Timer struct {
	Event string
	Args  []Arg
	ID    string
	Due   solver.Term
}

// Arg is a named symbolic value.
type Arg struct {
	Name  string
	Value solver.Term
}

// Edge is one input step.
type Edge struct {
	Event   string  // the input event, or the timer that fired
	Timer   bool    // a pending timer fired
	Args    []Arg   // fresh parameters of an input, or the timer's stored values
	Fired   []Fired // MLM transitions taken: the input's, then run-to-completion
	Outputs []Output
	// Elapsed is the time from the parent's moment to this step, in
	// milliseconds (an integer term): a fresh variable for an input while
	// timers are pending, the timer's Due for a timer. 0 (no term) when
	// untimed, or for an input with nothing pending (it comes at once).
	Elapsed solver.Term
	// Slot is, for a timer, its index among the parent's pending timers
	// (which of several of one event fired); -1 for an input.
	Slot int

	// Trace lists every (state, event) the step processed, in order, as
	// "state\x00event", with "\x00-" appended where no transition took the
	// event: the step depends on the candidate transitions of exactly these
	// pairs.
	Trace []string
}

// Fired is one MLM transition taken, with the decision path through its
// guard and action ('t' or 'f' per evaluated branching point, in the order
// a C or ECMAScript evaluation meets them).
type Fired struct {
	T    *mlm.Transition
	Path string
}

// Output is an event sent to another target.
type Output struct {
	Event  string
	Target string
	Args   []Arg
}

// Leaves returns the leaves of the tree in breadth-first order.
func (s *SET) Leaves() []*Node {
	var out []*Node
	for _, n := range s.Nodes {
		if n.Leaf() {
			out = append(out, n)
		}
	}
	return out
}

// Dump prints the whole tree, one node per line with everything that
// defines it: two trees are the same tree exactly when their dumps are
// equal, whatever tables their terms live in.
func (s *SET) Dump() string {
	var b strings.Builder
	t := s.Terms
	args := func(as []Arg) {
		for _, a := range as {
			fmt.Fprintf(&b, " %s=%s", a.Name, t.String(a.Value))
		}
	}
	for _, n := range s.Nodes {
		fmt.Fprintf(&b, "%d %s d%d", n.ID, n.State.Name, n.Depth)
		if n.Cut != "" {
			b.WriteString(" cut:" + string(n.Cut))
		}
		if n.Parent != nil {
			fmt.Fprintf(&b, " <- %d %s", n.Parent.ID, n.In.Event)
			if n.In.Timer {
				fmt.Fprintf(&b, "(timer %d)", n.In.Slot)
			}
			if n.In.Elapsed != 0 {
				b.WriteString(" after " + t.String(n.In.Elapsed) + "ms")
			}
			args(n.In.Args)
			for _, f := range n.In.Fired {
				fmt.Fprintf(&b, " [%s #%s]", f.T.Key, f.Path)
			}
			for _, o := range n.In.Outputs {
				fmt.Fprintf(&b, " !%s>%s", o.Event, o.Target)
				args(o.Args)
			}
		}
		b.WriteString(" |")
		for _, v := range n.Vals {
			b.WriteString(" " + t.String(v))
		}
		b.WriteString(" |")
		for _, c := range n.PC {
			b.WriteString(" {" + t.String(c) + "}")
		}
		for _, tm := range n.Timers {
			b.WriteString(" timer:" + tm.Event)
			if tm.ID != "" {
				b.WriteString("#" + tm.ID)
			}
			args(tm.Args)
			if tm.Due != 0 {
				b.WriteString(" due " + t.String(tm.Due) + "ms")
			}
		}
		if n.Subsumed != nil {
			fmt.Fprintf(&b, " subsumed-by %d", n.Subsumed.ID)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
