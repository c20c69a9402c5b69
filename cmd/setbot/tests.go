package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/vocab"
)

func newTestsCmd() *cobra.Command {
	var fe frontEndFlags
	var ef engineFlags
	var coverage, format string
	cmd := &cobra.Command{
		Use:   "tests FILE",
		Short: "Generate concrete tests from a model's symbolic execution tree",
		Long: `tests builds the model's symbolic execution tree and turns paths into concrete
tests: the input events with parameter values solved by Z3 (in their declared
ranges; a parameter the path does not constrain gets 0, false, or the lower
end of its range), and as the oracle the outputs of each step and the final
configuration.

Coverage: path (a test per root-to-leaf path), transition (fewest paths that
fire every flattened transition the tree reaches), state (fewest paths that
visit every flattened state reached).

A test's id is derived from the sequence of (transition key, decision path)
it takes, so the same behaviour keeps its id across versions of the model.

Formats: json ({"tests": [{"id", "steps": [{"event", "args", "outputs"}],
"final"}]}, args named as setbot lowers parameters: xs.length, xs[0], p.f,
and _absent_s (0 a value, 1 undefined, 2 null) beside s), junit (Jenkins'
JUnit schema: a test case per test, named by its inputs in order, shortened,
then its id, its steps written as simulate reads events: e(xs.length=1,
xs[0]=4, s=undefined)), scion (SCION-style traces with the configuration
after each event, and each event's data as ECMAScript holds it, for an SCXML
harness: {"xs": [4]}, with an undefined parameter left out, null as null).

As with explore, a terminal (or --progress) shows the exploration's progress,
and Ctrl-C stops it: the tests of the tree so far are written, and the exit
code is 130.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !contains(testgen.Formats, format) {
				return fmt.Errorf("unknown --format %q (want %s)", format, strings.Join(testgen.Formats, ", "))
			}
			criterion, ok := vocab.ParseCoverage(coverage)
			if !ok {
				return fmt.Errorf("unknown --coverage %q (want %s)", coverage, strings.Join(vocab.Names(vocab.Coverages), ", "))
			}
			set, err := explore(cmd, &fe, &ef, args[0])
			if err != nil {
				return err
			}
			n, tests, err := testgen.Tests(set, criterion, newZ3, nil)
			if err != nil {
				return fmt.Errorf("generating tests for %s: %w", args[0], err)
			}
			for _, b := range set.Bounds {
				switch b.Bound {
				case vocab.BoundTable:
					fmt.Fprintf(cmd.ErrOrStderr(), "setbot: black-box functions were read through their tables (%d calls); a test that relies on a row lists it under rows\n", b.Count)
				case vocab.BoundConcretised:
					fmt.Fprintf(cmd.ErrOrStderr(), "setbot: %d branches the solver could not decide were taken with concrete values; the suite covers what they reached\n", b.Count)
				default:
					fmt.Fprintf(cmd.ErrOrStderr(), "setbot: bound hit: %s (limit %s) cut %d paths; the suite covers the tree within it\n",
						b.Bound, b.Bound.FormatLimit(b.Limit), b.Count)
				}
			}
			// The suite is written as it is made, never held whole.
			if err := testgen.Write(cmd.OutOrStdout(), format, testgen.SuiteInfo{
				Machine: set.Machine.Name, Initial: set.Nodes[0].State.Atomic, N: n,
				Elapsed: time.Duration(set.Stats.Ms) * time.Millisecond}, tests); err != nil {
				return fmt.Errorf("writing the tests of %s: %w", args[0], err)
			}
			if interrupted(set) {
				return exitError{code: exitInterrupted} // the suite of the tree so far was written
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&coverage, "coverage", string(vocab.CoveragePath), "coverage criterion: path, transition or state")
	cmd.Flags().StringVar(&format, "format", "json", "output format: json, junit or scion")
	fe.register(cmd)
	ef.register(cmd)
	return cmd
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
