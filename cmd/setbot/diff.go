package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/pipeline"
	"github.com/setbot/setbot/report"
	"github.com/setbot/setbot/vocab"
)

// diffFlags are the flags of diff.
type diffFlags struct {
	fe               frontEndFlags
	ef               engineFlags
	strategy, format string
	coverage         vocab.Coverage
	cacheFile        string
	fresh            bool
}

func newDiffCmd() *cobra.Command {
	f := diffFlags{coverage: vocab.CoverageTransition}
	cmd := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Analyse what a change of a model does to its executions",
		Long: `diff compares two versions of a model: the classified changes (states added,
removed or renamed; transitions added, removed, retargeted, with trigger, guard
or action changed; a priority changed between two transitions that compete
for one event; entry and exit actions; variables; event parameters; the
initial configuration) with their places in both files; the flattened
transitions they update and those they impact, with Khalil & Dingel's (2015)
measures M1 (share of maximal paths avoiding every change) and M2 (mean
position of the first change on the others); the head version's symbolic
execution tree; the test-suite delta (retained, changed oracle, obsolete,
new); the states that became unreachable (no execution enters them),
transient (entered, but the machine never rests in them) or reachable; the
outputs the base sends and the head never does; and the pairs of
transitions that take the same event where both conditions can hold, so that
only priority decides (marked when the base had them too).

Strategies: auto (the default) reuses the base tree whole when the machines
are identical, uses MSE (memoized symbolic execution: executes only what the
change makes new, with a result identical to a full run) when the machine
starts as before, and a full run otherwise; --strategy mse, dse or full
overrides it. DSE (dependency-based) explores only the updated and impacted
transitions fully, so its tree is partial: states it does not reach are
confirmed by a full tree before they are reported unreachable (and outputs it
does not send before they are reported lost).

Tests are chosen by --coverage, as analyze's: transition (the default: a few
paths that together fire every transition the tree fires), path (one test per
path, which on a large tree costs many times the analysis) or state.

--cache FILE keeps the trees and tests in a cache, the file and keys of
analyze's --cache: a tree either command built before is not built again, and
the same two versions compared again build no tree (strategy cached). --fresh
recomputes everything and refreshes the cache. Without --cache nothing is
written.

Formats: text, json (strategy, strategy_reason, changes, impact {changed,
impacted, m1, m2}, base and head {states, paths, ms}, reused_states,
new_states, tests {retained, changed, obsolete, new}, newly_unreachable,
newly_reachable, newly_transient, bounds_hit, outputs_lost, nondeterminism,
and test_delta with the tests themselves; docs/report-json.md describes
each).`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(cmd, args[0], args[1])
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.strategy, "strategy", string(vocab.StrategyAuto), "auto, mse, dse or full")
	fl.StringVar(&f.format, "format", "text", "output format: text or json")
	fl.Var((*coverageValue)(&f.coverage), "coverage", coverageUsage)
	fl.StringVar(&f.cacheFile, "cache", "", "keep the trees and tests in this SQLite cache file, shared with analyze's --cache (default: none)")
	fl.BoolVar(&f.fresh, "fresh", false, "with --cache: ignore what the cache holds, recompute everything, refresh the cache")
	f.fe.register(cmd)
	f.ef.register(cmd)
	return cmd
}

// run loads the two versions, compares them and prints the analysis.
func (f *diffFlags) run(cmd *cobra.Command, oldPath, newPath string) error {
	if f.format != "text" && f.format != "json" {
		return fmt.Errorf("unknown --format %q (want text or json)", f.format)
	}
	asked, ok := vocab.ParseStrategy(f.strategy)
	if !ok {
		return fmt.Errorf("unknown --strategy %q (want %s)", f.strategy, strings.Join(vocab.Names(vocab.Strategies), ", "))
	}
	opts := pipeline.CompareOptions{Strategy: asked, Coverage: f.coverage, Engine: f.ef.options(), Solver: newZ3, Fresh: f.fresh,
		Analyses: incremental.CheckOutputs | incremental.CheckNondeterminism}
	if f.cacheFile != "" {
		store, err := openCache(f.cacheFile, cmd.ErrOrStderr())
		if err != nil {
			return err
		}
		if store != nil {
			defer store.Close()
			opts.Cache = store
		}
	}
	var ms [2]*mlm.Machine
	failed := false
	for i, path := range []string{oldPath, newPath} {
		m, err := f.fe.load(cmd.Context(), path, f.ef.loopBound())
		if err != nil {
			if err := modelErrors(cmd.ErrOrStderr(), err); !errors.As(err, new(exitError)) {
				return err
			}
			failed = true
		}
		ms[i] = m
	}
	if failed {
		return exitError{code: exitFindings}
	}
	res, err := pipeline.Compare(context.Background(), ms[0], ms[1], opts)
	if err != nil {
		return err
	}
	if f.format == "json" {
		return report.WriteChangeJSON(cmd.OutOrStdout(), res)
	}
	return writeDiffText(cmd.OutOrStdout(), res)
}

func writeDiffText(w io.Writer, r *incremental.Result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "strategy: %s (%s)\n", r.Strategy, r.StrategyReason)
	if len(r.Changes) == 0 {
		b.WriteString("changes: none\n")
	}
	for _, c := range r.Changes {
		where := ""
		if c.New != nil {
			where = fmt.Sprintf(" (new line %d)", c.New.Line)
		} else if c.Old != nil {
			where = fmt.Sprintf(" (old line %d)", c.Old.Line)
		}
		fmt.Fprintf(&b, "change: %s %s%s\n", c.Kind, c.Subject, where)
	}
	fmt.Fprintf(&b, "impact: %d updated, %d impacted transitions, M1 %.1f, M2 %.1f\n",
		len(r.Impact.Changed), len(r.Impact.Impacted), r.Impact.M1, r.Impact.M2)
	for _, k := range r.Impact.Changed {
		fmt.Fprintf(&b, "  updated: %s\n", k)
	}
	for _, k := range r.Impact.Impacted {
		fmt.Fprintf(&b, "  impacted: %s\n", k)
	}
	fmt.Fprintf(&b, "base: %d states, %d paths; head: %d states, %d paths (%d reused, %d new, %d solver calls, %d ms)\n",
		r.Base.States, r.Base.Paths, r.Head.States, r.Head.Paths, r.ReusedStates, r.NewStates, r.SolverCalls, r.Head.Ms)
	fmt.Fprintf(&b, "tests: %d retained, %d changed oracle, %d obsolete, %d new\n",
		r.Tests.Retained, r.Tests.Changed, r.Tests.Obsolete, r.Tests.New)
	for _, s := range r.NewlyUnreachable {
		q := "unreachable"
		if s.Within > 0 {
			q = fmt.Sprintf("unreachable within %d events", s.Within)
		}
		fmt.Fprintf(&b, "NEWLY %s: %s (line %d)\n", strings.ToUpper(q), s.State, s.Line)
	}
	for _, s := range r.NewlyTransient {
		q := "never stable"
		if s.Within > 0 {
			q = fmt.Sprintf("never stable within %d events", s.Within)
		}
		fmt.Fprintf(&b, "newly transient: %s (line %d): entered, %s\n", s.State, s.Line, q)
	}
	for _, s := range r.NewlyReachable {
		fmt.Fprintf(&b, "newly reachable: %s (line %d)\n", s.State, s.Line)
	}
	for _, o := range r.OutputsLost {
		switch {
		case o.CutBy != "":
			fmt.Fprintf(&b, "output not sent: %s: sent at base, not before the %s bound cut the head tree (it may still be)\n", o.Output, o.CutBy)
		case o.Within > 0:
			fmt.Fprintf(&b, "OUTPUT LOST within %d events: %s\n", o.Within, o.Output)
		default:
			fmt.Fprintf(&b, "OUTPUT LOST: %s\n", o.Output)
		}
	}
	for _, c := range r.Nondeterminism {
		what := "NEW NONDETERMINISM"
		if c.AtBase {
			what = "nondeterminism (also at base)"
		}
		fmt.Fprintf(&b, "%s: on %s in %s, %s and %s (line %d) can both fire; priority takes %s\n",
			what, c.Event, c.State, c.Taken, c.Shadows, c.Line, c.Taken)
	}
	if r.NondeterminismPartial && len(r.Nondeterminism) > 0 {
		b.WriteString("  (looked for on DSE's partial tree: there may be more)\n")
	}
	for _, bh := range r.BoundsHit {
		fmt.Fprintf(&b, "bound hit: %s (limit %s) cut %d paths\n", bh.Bound, bh.Bound.FormatLimit(bh.Limit), bh.Count)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// coverageUsage is the --coverage flag's help.
const coverageUsage = "the tests' coverage criterion: path, transition or state"

// coverageValue is a --coverage flag's value: one of vocab.Coverages.
type coverageValue vocab.Coverage

func (c *coverageValue) String() string { return string(*c) }

func (c *coverageValue) Set(s string) error {
	cov, ok := vocab.ParseCoverage(s)
	if !ok {
		return fmt.Errorf("unknown coverage %q (want %s)", s, strings.Join(vocab.Names(vocab.Coverages), ", "))
	}
	*c = coverageValue(cov)
	return nil
}

func (c *coverageValue) Type() string { return "string" }
