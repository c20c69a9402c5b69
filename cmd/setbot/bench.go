package main

import (
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/engine"
)

func newBenchCmd() *cobra.Command {
	var fe frontEndFlags
	var ef engineFlags
	var runs int
	cmd := &cobra.Command{
		Use:   "bench FILE...",
		Short: "Measure symbolic execution on models and print a table",
		Long: `bench explores each model --runs times (after one warm-up run) and prints, per
model, the tree's size and the median wall time: states, paths, solver calls,
milliseconds and symbolic states per second. The exploration runs on one
goroutine, so the rate is a one-core rate. The bundled benchmark models are in
testdata/bench (see its README):

  setbot bench testdata/bench/*.scxml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runs < 1 {
				return fmt.Errorf("--runs must be at least 1")
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(w, "model\tMLM states\tMLM transitions\tdepth\tstates\tpaths\tsubsumed\tsolver calls\tms\tstates/s\t")
			for _, path := range args {
				m, errs := fe.load(path)
				if len(errs) > 0 {
					for _, e := range errs {
						fmt.Fprintln(cmd.ErrOrStderr(), e)
					}
					return exitError{code: exitFindings}
				}
				var times []time.Duration
				var set *engine.SET
				for i := 0; i <= runs; i++ {
					start := time.Now()
					s, err := engine.Explore(m, ef.options(), newZ3)
					if err != nil {
						return fmt.Errorf("exploring %s: %w", path, err)
					}
					if i > 0 { // the first run warms up
						times = append(times, time.Since(start))
					}
					set = s
				}
				sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
				med := times[len(times)/2]
				st := set.Stats
				fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.0f\t\n", strings.TrimSuffix(m.Name, ".scxml"),
					len(m.States), len(m.Transitions), ef.depth, st.States, st.Paths, st.Subsumed, st.SolverCalls,
					med.Milliseconds(), float64(st.States)/med.Seconds())
			}
			return w.Flush()
		},
	}
	cmd.Flags().IntVar(&runs, "runs", 5, "timed runs per model (the median is printed)")
	fe.register(cmd)
	ef.register(cmd)
	return cmd
}
