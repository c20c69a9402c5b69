package main

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"syscall"
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
model, the tree's size, the median wall time and the median CPU time of the
process (the exploration's goroutine and the garbage collector's): states,
paths, solver calls, milliseconds, CPU milliseconds, and symbolic states per
second and per CPU-second. The exploration has --jobs workers (default one
per idle CPU: the CPUs less the load average, at least 1); --jobs 1 gives a
one-core rate, though the collector may use another core, which the CPU
time counts. The bundled benchmark models are in
testdata/bench (see its README):

  setbot bench testdata/bench/*.scxml

setbot bench curve measures how exploration and analysis scale with the
depth bound, and what a second worker gains.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runs < 1 {
				return fmt.Errorf("--runs must be at least 1")
			}
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(w, "model\tMLM states\tMLM transitions\tdepth\tstates\tpaths\tsubsumed\tsolver calls\tms\tCPU ms\tstates/s\tstates/CPU-s\t")
			for _, path := range args {
				m, err := fe.load(cmd.Context(), path, ef.loopBound())
				if err != nil {
					return modelErrors(cmd.ErrOrStderr(), err)
				}
				var times, cpus []time.Duration
				var st engine.Stats
				for i := 0; i <= runs; i++ {
					runtime.GC() // the previous run's garbage is not this run's
					start, cpu := time.Now(), cpuTime()
					s, err := engine.Explore(m, ef.options(), newZ3)
					if err != nil {
						return fmt.Errorf("exploring %s: %w", path, err)
					}
					if i > 0 { // the first run warms up
						times = append(times, time.Since(start))
						cpus = append(cpus, cpuTime()-cpu)
					}
					st = s.Stats
				}
				med, cpu := median(times), median(cpus)
				fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.0f\t%.0f\t\n", strings.TrimSuffix(m.Name, ".scxml"),
					len(m.States), len(m.Transitions), ef.depth(), st.States, st.Paths, st.Subsumed, st.SolverCalls,
					med.Milliseconds(), cpu.Milliseconds(), float64(st.States)/med.Seconds(), float64(st.States)/cpu.Seconds())
			}
			return w.Flush()
		},
	}
	cmd.Flags().IntVar(&runs, "runs", 5, "timed runs per model (the medians are printed)")
	cmd.AddCommand(newCurveCmd())
	fe.register(cmd)
	ef.register(cmd)
	return cmd
}

// median is the middle of xs once sorted (the upper one of an even
// number).
func median[T cmp.Ordered](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
