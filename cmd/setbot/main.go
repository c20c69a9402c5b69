// Command setbot is setbot's one binary: it checks and flattens statechart
// models, and (in later commands) analyses what a change to them does.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/setbot/setbot/internal/buildinfo"
	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1 // the models have errors (or, later, a gate tripped)
	exitUsage    = 2 // the command line is wrong, or a file cannot be read
	// exitInterrupted: Ctrl-C stopped the work; what it had found was
	// printed, cut by the interrupt (128 + SIGINT, as shells report it).
	exitInterrupted = 130
)

// exitError carries an exit code through cobra; its message, if any, has
// already been printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line and returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	var ee exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintf(stderr, "setbot: %v\n", err)
		return exitUsage
	}
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "setbot",
		Short: "Regression analysis for statechart models kept in git",
		Long: `setbot reads statechart models (W3C SCXML), flattens them into a Mealy-like
machine, and analyses what a change does to every execution of the machine.`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: checkFlags,
		Version:           buildinfo.Read().String(),
	}
	root.SetVersionTemplate("setbot {{.Version}}\n")
	root.AddCommand(newVersionCmd(), newCheckCmd(), newSurveyCmd(), newMLMCmd(), newExploreCmd(), newTestsCmd(), newSimulateCmd(), newBenchCmd(), newDiffCmd(), newEvaluateCmd(), newAnalyzeCmd(), newConformanceCmd(), newDemoCmd(), newRunsCmd(), newServeCmd(), newHealthcheckCmd(), newInternalAnalyzeCmd())
	return root
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print setbot's version and the commit it was built from (as --version does)",
		Long: `version prints the module version setbot was installed at (go install
github.com/setbot/setbot/cmd/setbot@v1.2.3 records v1.2.3), or "(devel)" for a build
in a checkout, and the commit the build recorded, with ", modified" when the checkout
had uncommitted changes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintf(cmd.OutOrStdout(), "setbot %s\n", cmd.Root().Version)
			return nil
		},
	}
}
