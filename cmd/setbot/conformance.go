package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/conformance"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/vocab"
)

var conformanceLong = `conformance runs the W3C SCXML IRP tests of DIR: DIR/manifest.xml lists the
tests (id, conformance="mandatory|optional", manual="true|false", start
documents such as 355/test355.txml, read as DIR/test355.scxml). By default it
runs the mandatory automatic ones, the set implementations report on; --all
runs every test of the manifest.

Each start document is read, flattened and started as setbot check does, then
explored as setbot explore does (default bounds, Z3, --timeout per document).
A test is a closed statechart ending in the final state pass when the
processor is right and in fail otherwise; setbot explores every execution, so
its oracle is: pass entered by some execution, fail entered by none. A test
of several start documents (test 403 has three) gets the first of WRONG,
NEEDS_TIME, ERROR, REFUSED, MISSING and RIGHT that one of them gets:

  RIGHT       pass entered, fail never entered; when a bound cut the tree,
              the reason says fail was not entered within the bounds
  WRONG       fail entered by some execution (the reason gives the shortest
              inputs that enter it), or pass never entered and no bound cut
              the tree. Tests setbot is known to get wrong are marked
              [known wrong: why], and are still wrong
  NEEDS_TIME  wrong, in a test that uses delayed sends (<send delay> or
              delayexpr): setbot's untimed abstraction lets timers of
              different names fire in any order, where the test relies on
              their deadlines, so the verdict is no evidence either way; it
              is never counted as right
  REFUSED     setbot does not read, flatten or start the document: the
              first error, without its position
  ERROR       the exploration failed, neither pass nor fail was entered
              within the bounds (the time budget, say), or the document has
              no state pass (a manual test)
  MISSING     a start document is not in DIR

The text format prints a line per test (id, verdict, reason), the summary
("N mandatory automatic tests: R judged right, W judged wrong, T need timed
semantics, F refused, E errors, M missing", with how many of the right ones
hold only within bounds and how many of the wrong ones are known, when any),
the known-wrong tests, and the refusal reasons grouped and counted, most
common first (a name in double quotes before a reason's hint is elided, so
that one reason is one line). The json format prints dir, all, summary,
counts, refusals, tests (each with its files, their verdicts, bounds hit and
ms) and, with --baseline, baseline; only the ms fields vary between runs.

--baseline FILE compares with an earlier run: FILE lists the ids judged right
then, one per line (# comments), or is the output of --format json.

Exit code 0; 1 when a test is judged wrong (known or not), or, with
--baseline, when fewer tests are judged right than FILE lists or a test FILE
lists is no longer right; 2 when DIR, its manifest or FILE cannot be read.`

func newConformanceCmd() *cobra.Command {
	var all bool
	var format, baseline, timeSem string
	var timeout time.Duration
	var jobs int
	cmd := &cobra.Command{
		Use:   "conformance DIR",
		Short: "Judge the W3C SCXML conformance tests (IRP) of a directory",
		Long:  conformanceLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return fmt.Errorf("unknown --format %q (want text or json)", format)
			}
			var right []string
			if baseline != "" {
				var err error
				if right, err = conformance.ReadBaseline(baseline); err != nil {
					return err
				}
			}
			rep, err := conformance.Run(args[0], conformance.Options{
				All:       all,
				Engine:    engine.Options{Timeout: timeout, Time: vocab.Time(timeSem)},
				Workers:   jobs,
				NewSolver: newZ3,
			})
			if err != nil {
				return err
			}
			regressed := baseline != "" && rep.CompareBaseline(baseline, right).Regressed()
			out := cmd.OutOrStdout()
			if format == "json" {
				err = rep.WriteJSON(out)
			} else {
				err = rep.WriteText(out)
			}
			if err != nil {
				return err
			}
			if regressed || rep.Counts().Wrong > 0 {
				return exitError{code: exitFindings}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&all, "all", false, "run every test of the manifest, not only the mandatory automatic ones")
	fl.StringVar(&format, "format", "text", "output format: text or json")
	fl.StringVar(&baseline, "baseline", "", "exit 1 when tests this file lists as right are no longer right")
	fl.DurationVar(&timeout, "timeout", conformance.DefaultTimeout, "wall-clock budget of each test document")
	fl.IntVar(&jobs, "jobs", 0, "documents checked at once (0: one per CPU)")
	fl.StringVar(&timeSem, "time", string(vocab.TimeTimed), timeUsage)
	return cmd
}
