package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/internal/evaluation"
	"github.com/setbot/setbot/model/mlm"
)

func newEvaluateCmd() *cobra.Command {
	var fe frontEndFlags
	var ef engineFlags
	var runs int
	cmd := &cobra.Command{
		Use:   "evaluate BASE VERSION...",
		Short: "Reproduce Khalil & Dingel's (2015) Tables 3-5: MSE and DSE against full SE on versions of a model",
		Long: `evaluate explores every VERSION of the BASE model by full symbolic execution,
by MSE (reusing BASE's tree), by DSE and by auto, --runs times each,
interleaved, and prints a table in the layout of Khalil & Dingel's (2015) Tables 3-5:
per version the changed and impacted transitions, M1 and M2, the SE:MSE
ratios of time, new states and new paths, the SE:DSE ratios of time, states
and paths, auto's choice and time(auto)/time(full), and whether MSE's tree is
full SE's, node for node; then the average and standard deviation of the
savings. Each time is the fastest of its runs. The versions used in docs/evaluation.md are in
testdata/versions:

  setbot evaluate testdata/bench/aqs.scxml testdata/versions/aqs/*.scxml`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runs < 1 {
				return fmt.Errorf("--runs must be at least 1")
			}
			var ms []*mlm.Machine
			for _, path := range args {
				m, err := fe.load(cmd.Context(), path, ef.loopBound())
				if err != nil {
					return modelErrors(cmd.ErrOrStderr(), err)
				}
				ms = append(ms, m)
			}
			var names []string
			for _, p := range args[1:] {
				names = append(names, strings.TrimSuffix(filepath.Base(p), ".scxml"))
			}
			rows, err := evaluation.Evaluate(ms[0], names, ms[1:],
				incremental.Request{Engine: ef.options(), Solver: newZ3}, runs, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			title := fmt.Sprintf("%s (%s): %d versions, depth %d, fastest of %d interleaved runs", ms[0].Name, args[0], len(rows), ef.depth(), runs)
			return evaluation.WriteTable(cmd.OutOrStdout(), title, rows)
		},
	}
	cmd.Flags().IntVar(&runs, "runs", 3, "timed runs of each technique per version (the fastest is printed)")
	fe.register(cmd)
	ef.register(cmd)
	return cmd
}
