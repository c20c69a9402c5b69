package main

import (
	"path/filepath"

	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/setbot/setbot/internal/blackbox"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

// timeUsage is the --time flag's help.
const timeUsage = "how delayed sends are read: timed (each timer fires at its deadline, in deadline order, inputs come between) or untimed (a timer may fire at any moment after it is set)"

// newZ3 is the solver every command uses.
func newZ3(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }

// engineFlags are the bounds of symbolic execution, and its workers.
type engineFlags struct {
	limits     vocab.Limits // the bounds of the tree, and its time budget
	jobs       int
	time       string
	progress   bool
	invariants []string
	// growTables is the number of rounds of SolveTab that may add rows to
	// black-box functions' tables by running their commands from repo;
	// saveTables writes the rows back.
	growTables int
	repo       string
	saveTables bool
}

func (f *engineFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	f.limits = vocab.Limits{}
	limitFlags(fl, f.limits, nil, vocab.StageTree, vocab.StageBudget)
	fl.StringVar(&f.time, "time", string(vocab.TimeTimed), timeUsage)
	fl.BoolVar(&f.progress, "progress", false, "show the exploration's progress on stderr even when it is not a terminal")
	jobsFlag(cmd, &f.jobs)
	fl.IntVar(&f.growTables, "grow-tables", 0, "let black-box functions' commands compute new rows of their tables, in at most this many rounds (0: the tables as they are)")
	fl.StringVar(&f.repo, "repo", ".", "the repository root that black-box functions' commands are relative to, and run in")
	fl.BoolVar(&f.saveTables, "save-tables", false, "append the rows --grow-tables computed to the functions' tables")
}

func (f *engineFlags) options() engine.Options {
	return engine.Options{Time: vocab.Time(f.time), Jobs: explorationJobs(f.jobs)}.Bounded(f.limits)
}

// depth is the depth bound the flags ask for.
func (f *engineFlags) depth() int { return f.limits.Int(vocab.BoundDepth) }

// loopBound is the loop bound the flags ask for, which the reader inlines
// calls of script functions as deep as.
func (f *engineFlags) loopBound() int { return f.limits.Int(vocab.BoundLoop) }

// jobsFlag registers --jobs, the workers of an exploration.
func jobsFlag(cmd *cobra.Command, jobs *int) {
	cmd.Flags().IntVar(jobs, "jobs", 0, "explore with this many workers, one solver each (0: one per idle CPU, the CPUs less the load average, at least 1; 1 where the load is unknown); the results are the same for any number")
}

// explorationJobs is the number of workers --jobs asks for.
func explorationJobs(jobs int) int {
	if jobs == 0 {
		load, ok := loadAverage()
		return idleCPUs(runtime.NumCPU(), load, ok)
	}
	return jobs
}

// idleCPUs is the default number of workers: one per CPU that other work
// leaves idle (cpus less the one-minute load average, rounded), at least 1.
// A second worker pays only on a core of its own: on a 2-core machine
// busy with other processes, two workers took 0.7-2.1 times the wall time
// of one and 10-30 % more CPU (docs/performance.md, Workers). Where the
// load is not known (known false), one worker: never slower than --jobs 1.
func idleCPUs(cpus int, load float64, known bool) int {
	if !known {
		return 1
	}
	return max(1, min(cpus, int(math.Round(float64(cpus)-load))))
}

// explore loads a model and builds its tree.
func explore(cmd *cobra.Command, fe *frontEndFlags, ef *engineFlags, path string) (*engine.SET, error) {
	m, err := fe.load(cmd.Context(), path, ef.loopBound())
	if err != nil {
		return nil, modelErrors(cmd.ErrOrStderr(), err)
	}
	// Ctrl-C stops the exploration as a bound does: what it found is
	// shown, cut by the interrupt. A second Ctrl-C ends the process.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	go func() { <-ctx.Done(); stop() }() // the first Ctrl-C is ours; the next one, the default's
	opts := ef.options()
	opts.Interrupt = ctx.Done()
	p := newProgress(cmd.ErrOrStderr(), ef.progress)
	if p != nil {
		opts.Progress = p.show
	}
	if ef.growTables > 0 && len(m.Source.Functions) > 0 {
		if _, err := engine.GrowTables(m, opts, newZ3, ef.growTables, blackbox.Command(ctx, ef.repo, blackbox.DefaultTimeout)); err != nil {
			stop()
			return nil, fmt.Errorf("growing the tables of %s: %w", path, err)
		}
		m.Hash = mlm.Hash(m) // the rows are part of the machine
		if ef.saveTables {
			n, err := blackbox.SaveRows(filepath.Dir(path), m.Source.Functions)
			if err != nil {
				stop()
				return nil, err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "setbot: %d computed rows appended to the tables\n", n)
		}
	}
	set, err := engine.Explore(m, opts, newZ3)
	stop()
	if p != nil {
		p.done()
	}
	var start *engine.StartError
	switch {
	case errors.As(err, &start):
		// The model is at fault, as for a model that does not flatten.
		fmt.Fprintln(cmd.ErrOrStderr(), start)
		return nil, exitError{code: exitFindings}
	case err != nil:
		return nil, fmt.Errorf("exploring %s: %w", path, err)
	}
	return set, nil
}

// interrupted reports whether Ctrl-C cut the tree.
func interrupted(set *engine.SET) bool {
	return slices.ContainsFunc(set.Bounds, func(b engine.BoundHit) bool { return b.Bound == vocab.BoundInterrupt })
}

// progress shows an exploration's progress on one line of a terminal.
type progress struct {
	w     io.Writer
	last  time.Time
	shown bool
}

// newProgress returns a progress line on w when w is a terminal, or when
// asked; nil otherwise.
func newProgress(w io.Writer, asked bool) *progress {
	if f, ok := w.(*os.File); !asked && (!ok || !term.IsTerminal(int(f.Fd()))) {
		return nil
	}
	return &progress{w: w}
}

func (p *progress) show(s engine.Progress) {
	if time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last, p.shown = time.Now(), true
	rate := float64(s.States) / max(s.Elapsed.Seconds(), 1e-3)
	fmt.Fprintf(p.w, "\rsetbot: exploring: %d states, depth %d, %.0f states/s, %s (Ctrl-C stops and shows what was found)\x1b[K",
		s.States, s.Depth, rate, s.Elapsed.Round(100*time.Millisecond))
}

// done clears the progress line.
func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// inputDomainHelp says, on two lines with the second indented, what the
// input domain admits beyond the parameters' types and ranges
// (model.MaxInputString, model.DecimalInputScale).
func inputDomainHelp(indent string) string {
	return fmt.Sprintf("a string holds at most %d code points and a decimal is a multiple of\n%s2^-%d (1/%d) below 2^%d in magnitude (a double, as are the sums of two)",
		model.MaxInputString, indent, model.DecimalInputScale, 1<<model.DecimalInputScale, model.DecimalInputBits)
}

// exploreLong is explore's --help.
var exploreLong = `explore flattens a model, executes it symbolically (every input event with
symbolic parameters, every path through guards and actions) and builds its
symbolic execution tree, then reports:

  - reachability: every state and transition of the statechart (and of the
    flattened machine) reached, with a shortest witness test, and those never
    reached: "unreachable" when no bound cut the tree, otherwise "unreachable
    within N events" (or within the bounds that were hit). A statechart state
    is reached when some execution enters it, even if the same macrostep
    leaves it again; it is stable when the machine rests in it at the end of
    a macrostep (each with its own witness). One reached but never stable is
    transient: the machine only passes through it (a choice point, say);
  - invariants: each --invariant, and the range of every ranged variable, in
    every state, with a witness test for a violation;
  - outputs: which output events can be sent, and the shortest way to each;
  - nondeterminism: pairs of transitions that compete for an event and can
    both be enabled, where priority silently picks one.

The environment sends every event of the input alphabet with any arguments of
the input domain: values of the parameters' types and ranges, where
` + inputDomainHelp("") + `.
What is unreachable is unreachable for those inputs. A delayed send is a
timer: by default (--time timed) it fires at its deadline, timers in
deadline order (ties in the order they were set), and the environment's
inputs come at any times between them; --time untimed lets a timer fire at
any moment after it is set, an over-approximation.

Formats: text, json (stats {states, paths, depth, subsumed, solver_calls, ms},
unreachable (never entered), transient (entered, never stable), bounds_hit,
functions (black-box functions: signature, table, rows, those computed by
--grow-tables marked) and the full report, whose states each have reached and
stable), dot (the tree, for Graphviz).

Black-box functions (setbot:function) are read through their tables'
summaries (Boudhiba, Gaston, Le Gall and Prevosto, "Symbolic execution of
transition systems with function summaries", TAP 2017): a call's result must
be one of the table's rows, so what the tree does not reach, it does not
reach up to the tables. --grow-tables N runs the functions' commands (from
--repo, no shell, with a timeout) on inputs the tables lack, in at most N
rounds of the paper's SolveTab. Where the solver cannot decide a branch, it
is taken with concrete values (concolic execution, Ahmadi and Dingel,
ESEC/FSE 2019), and a state not reached is "not reached", not unreachable.
Calls of script functions are inlined as deep as --loop-bound (deeper
nesting meets "bound hit: call"); parseInt, Number of a string and String of
a decimal stop a path where ECMAScript's value is NaN or beyond the range
setbot computes exactly ("bound hit: number"; README, "Functions").
On a terminal (or with --progress) the exploration shows its progress on
stderr. Ctrl-C stops it as a bound does: what it found is printed, with the
tree cut by the interrupt ("bound hit: interrupt"), and the exit code is 130;
a second Ctrl-C ends setbot at once.

Exit code 0, or 1 when the model has errors or an invariant is violated, 130
when interrupted.`

func newExploreCmd() *cobra.Command {
	var fe frontEndFlags
	var ef engineFlags
	var format string
	cmd := &cobra.Command{
		Use:   "explore FILE",
		Short: "Symbolically execute a model and analyse its symbolic execution tree",
		Long:  exploreLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" && format != "dot" {
				return fmt.Errorf("unknown --format %q (want text, json or dot)", format)
			}
			set, err := explore(cmd, &fe, &ef, args[0])
			if err != nil {
				return err
			}
			if format == "dot" {
				if err := writeTreeDOT(cmd.OutOrStdout(), set); err != nil || !interrupted(set) {
					return err
				}
				return exitError{code: exitInterrupted}
			}
			var invs []analysis.Invariant
			for _, text := range ef.invariants {
				inv, err := analysis.ParseInvariant(set.Machine, text)
				if err != nil {
					return err
				}
				invs = append(invs, inv)
			}
			rep, err := analysis.Analyze(set, invs, newZ3)
			if err != nil {
				return fmt.Errorf("analysing %s: %w", args[0], err)
			}
			out := cmd.OutOrStdout()
			if format == "json" {
				err = writeExploreJSON(out, set, rep)
			} else {
				err = writeExploreText(out, set, rep)
			}
			if err != nil {
				return err
			}
			if interrupted(set) {
				return exitError{code: exitInterrupted}
			}
			for _, inv := range rep.Invariants {
				if !inv.Holds {
					return exitError{code: exitFindings}
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json or dot")
	cmd.Flags().StringArrayVar(&ef.invariants, "invariant", nil, "a predicate over the variables to check in every state (repeatable)")
	fe.register(cmd)
	ef.register(cmd)
	return cmd
}

type unreachableJSON struct {
	State  string `json:"state"`
	Line   int    `json:"line,omitempty"`
	Within int    `json:"within_depth,omitempty"`
}

func writeExploreJSON(w io.Writer, set *engine.SET, rep *analysis.Report) error {
	unreachable := []unreachableJSON{}
	for _, s := range rep.States {
		if !s.Reached {
			unreachable = append(unreachable, unreachableJSON{State: s.Name, Line: s.Line, Within: rep.WithinDepth})
		}
	}
	bounds := set.Bounds
	if bounds == nil {
		bounds = []engine.BoundHit{}
	}
	transient := []unreachableJSON{}
	for _, s := range rep.States {
		if s.Transient() {
			transient = append(transient, unreachableJSON{State: s.Name, Line: s.Line, Within: rep.WithinDepth})
		}
	}
	out := struct {
		Stats       engine.Stats      `json:"stats"`
		Unreachable []unreachableJSON `json:"unreachable"`
		Transient   []unreachableJSON `json:"transient"`
		BoundsHit   []engine.BoundHit `json:"bounds_hit"`
		Functions   []functionJSON    `json:"functions,omitempty"`
		Report      *analysis.Report  `json:"report"`
	}{set.Stats, unreachable, transient, bounds, functionsJSON(set.Machine.Source.Functions), rep}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

// qualifier says how far an "unreachable" claim goes.
func qualifier(rep *analysis.Report) string {
	switch {
	case rep.Proven:
		return "unreachable"
	case rep.WithinDepth > 0:
		return fmt.Sprintf("unreachable within %d events", rep.WithinDepth)
	}
	return "unreachable within the bounds"
}

func writeExploreText(w io.Writer, set *engine.SET, rep *analysis.Report) error {
	var b strings.Builder
	st := set.Stats
	fmt.Fprintf(&b, "%s: %d symbolic states, %d paths, depth %d, %d subsumed, %d solver calls, %d ms\n",
		set.Machine.Name, st.States, st.Paths, st.Depth, st.Subsumed, st.SolverCalls, st.Ms)
	for _, bh := range set.Bounds {
		if bh.Bound == vocab.BoundConcretised {
			branches := bh.Count
			if engine.Concretised(set, set.Nodes[0]) {
				branches-- // the start's pin (engine's pinStart)
				fmt.Fprintf(&b, "start: black boxes read as the machine starts, before any input, decide how it starts; the tree follows one way, with concrete values for them from a model of its path; what it does not reach is not reached, not shown unreachable\n")
			}
			if branches > 0 {
				fmt.Fprintf(&b, "concolic: %d branches the solver could not decide were taken with concrete values from a model of the path (Ahmadi and Dingel, ESEC/FSE 2019); what the tree does not reach is not reached, not shown unreachable\n", branches)
			}
			writeConcretised(&b, set)
			continue
		}
		if bh.Bound == vocab.BoundTable {
			fmt.Fprintf(&b, "summaries: %d calls of black-box functions read through their tables (the largest has %d rows); what the tree does not reach, it does not reach up to the tables\n", bh.Count, bh.Limit)
			continue
		}
		fmt.Fprintf(&b, "bound hit: %s (limit %s) cut %d paths\n", bh.Bound, bh.Bound.FormatLimit(bh.Limit), bh.Count)
	}
	writeFunctions(&b, set.Machine.Source.Functions)
	if st.Unknown > 0 {
		fmt.Fprintf(&b, "solver: %d queries undecided within the time limit; the paths they could not rule out are kept, "+
			"so a state reached only through them is not proven reachable (raise --timeout)\n", st.Unknown)
	}
	q := qualifier(rep)
	if slices.ContainsFunc(set.Bounds, func(b engine.BoundHit) bool { return b.Bound == vocab.BoundConcretised }) {
		q = "not reached (a branch was concretised, so this is no proof)"
	}
	section := func(title string, list []analysis.Reach) {
		var missing []string
		for _, r := range list {
			if !r.Reached {
				s := r.Name
				if r.Line > 0 {
					s += fmt.Sprintf(" (line %d)", r.Line)
				}
				missing = append(missing, s)
			}
		}
		if len(missing) > 0 {
			fmt.Fprintf(&b, "%s %s:\n  %s\n", title, q, strings.Join(missing, "\n  "))
		}
	}
	states := make([]analysis.Reach, len(rep.States))
	var transient []string
	for i, s := range rep.States {
		states[i] = s.Reach
		if s.Transient() {
			transient = append(transient, fmt.Sprintf("%s (line %d): entered after %s, %s",
				s.Name, s.Line, inputs(s.Witness), strings.Replace(q, "unreachable", "never stable", 1)))
		}
	}
	section("states", states)
	if len(transient) > 0 {
		fmt.Fprintf(&b, "states the machine only passes through (transient):\n  %s\n", strings.Join(transient, "\n  "))
	}
	section("transitions", rep.Transitions)
	section("flattened states", rep.MLMStates)
	for _, o := range rep.Outputs {
		if o.Reached {
			fmt.Fprintf(&b, "output %s: first after %d events (%s)\n", o.Name, o.Depth, inputs(o.Witness))
		} else {
			fmt.Fprintf(&b, "output %s: never sent (%s)\n", o.Name, q)
		}
	}
	for _, inv := range rep.Invariants {
		name := inv.Invariant
		if inv.Implied != "" {
			name += " (range of " + inv.Implied + ")"
		}
		switch {
		case inv.Holds && inv.CutBy != "":
			fmt.Fprintf(&b, "invariant %s: holds in every state explored where the conversions it makes are exact (the %s bound: it claims nothing of a NaN)\n", name, inv.CutBy)
		case inv.Holds:
			fmt.Fprintf(&b, "invariant %s: holds in every state explored\n", name)
		default:
			fmt.Fprintf(&b, "invariant %s: VIOLATED in %s after %s\n", name, inv.State, inputs(inv.Witness))
		}
	}
	for _, c := range rep.Nondeterminism {
		fmt.Fprintf(&b, "nondeterminism in %s on %s: %s shadows %s (line %d), e.g. after %s\n",
			c.State, c.Event, c.Taken, c.Shadows, c.Line, inputs(c.Witness))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// inputs prints a test's input sequence.
func inputs(t *testgen.Test) string {
	if t == nil || len(t.Steps) == 0 {
		return "the start"
	}
	var parts []string
	for _, s := range t.Steps {
		parts = append(parts, testgen.FormatEvent(s.Event, s.Timer, s.Args))
	}
	return strings.Join(parts, ", ")
}

// writeTreeDOT draws the tree: a node per symbolic state, an edge per step.
func writeTreeDOT(w io.Writer, set *engine.SET) error {
	var b strings.Builder
	b.WriteString("digraph SET {\n  node [shape=box, fontname=monospace];\n")
	for _, n := range set.Nodes {
		label := fmt.Sprintf("%d: %s", n.ID, n.State.Name)
		for i, v := range set.Machine.Vars {
			label += fmt.Sprintf("\n%s = %s", v.Name, set.Terms.String(n.Vals[i]))
		}
		style := ""
		switch {
		case n.Subsumed != nil:
			label += fmt.Sprintf("\nsubsumed by %d", n.Subsumed.ID)
			style = ", style=dashed"
		case n.Cut != "":
			label += "\ncut by " + string(n.Cut)
			style = ", style=dotted"
		}
		fmt.Fprintf(&b, "  n%d [label=%s%s];\n", n.ID, dotString(label), style)
		if n.Parent != nil {
			fmt.Fprintf(&b, "  n%d -> n%d [label=%s];\n", n.Parent.ID, n.ID, dotString(n.In.Event))
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func dotString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\l`).Replace(s) + `\l"`
}

// writeFunctions lists the black-box functions, how the tree read them
// and the rows computed for them.
func writeFunctions(b *strings.Builder, fs []*model.Function) {
	if len(fs) == 0 {
		return
	}
	b.WriteString("black-box functions (function summaries: Boudhiba, Gaston, Le Gall and Prevosto, TAP 2017):\n")
	for _, f := range fs {
		var params []string
		for _, p := range f.Params {
			params = append(params, p.String())
		}
		fmt.Fprintf(b, "  %s(%s) -> %s: ", f.Name, strings.Join(params, ", "), f.Result)
		if !f.Summarised() {
			b.WriteString("no table: every call is an unconstrained value\n")
			continue
		}
		var grown []string
		for _, r := range f.Rows {
			if r.Grown {
				var in []string
				for _, e := range r.In {
					in = append(in, model.FormatValue(e))
				}
				grown = append(grown, fmt.Sprintf("%s(%s) = %s", f.Name, strings.Join(in, ", "), model.FormatValue(r.Out)))
			}
		}
		fmt.Fprintf(b, "summarised by %s, %d rows", f.Table, len(f.Rows))
		if len(grown) > 0 {
			fmt.Fprintf(b, ", of which %d computed by %s: %s", len(grown), f.Command, strings.Join(grown, "; "))
		}
		b.WriteString("\n")
	}
}

// functionJSON is a black-box function in explore's JSON: its signature,
// its table and the rows of it, those computed by its command marked.
type functionJSON struct {
	Name    string    `json:"name"`
	Params  []string  `json:"params"`
	Returns string    `json:"returns"`
	Table   string    `json:"table,omitempty"`
	Command string    `json:"command,omitempty"`
	Rows    []rowJSON `json:"rows,omitempty"`
}

type rowJSON struct {
	In       []string `json:"in"`
	Out      string   `json:"out"`
	Computed bool     `json:"computed,omitempty"`
}

func functionsJSON(fs []*model.Function) []functionJSON {
	var out []functionJSON
	for _, f := range fs {
		j := functionJSON{Name: f.Name, Params: []string{}, Returns: f.Result.String(), Table: f.Table, Command: f.Command}
		for _, p := range f.Params {
			j.Params = append(j.Params, p.String())
		}
		for _, r := range f.Rows {
			row := rowJSON{In: []string{}, Out: model.FormatValue(r.Out), Computed: r.Grown}
			for _, e := range r.In {
				row.In = append(row.In, model.FormatValue(e))
			}
			j.Rows = append(j.Rows, row)
		}
		out = append(out, j)
	}
	return out
}

// writeConcretised lists the paths that took a branch with concrete values:
// how many, and the flattened states they end in.
func writeConcretised(b *strings.Builder, set *engine.SET) {
	n, leaves := 0, 0
	var ends []string
	for _, x := range set.Leaves() {
		leaves++
		if engine.Concretised(set, x) {
			n++
			if !slices.Contains(ends, x.State.Name) {
				ends = append(ends, x.State.Name)
			}
		}
	}
	slices.Sort(ends)
	fmt.Fprintf(b, "  concretised paths: %d of %d, ending in %s\n", n, leaves, strings.Join(ends, ", "))
}
