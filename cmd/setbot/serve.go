package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/bot/analysis"
	"github.com/setbot/setbot/bot/server"
	"github.com/setbot/setbot/config"
)

func newServeCmd() *cobra.Command {
	var configFile string
	cmd := &cobra.Command{
		Use:   "serve [--config FILE]",
		Short: "Run the GitHub bot: webhooks in, PR comments and check runs out",
		Long: `serve runs setbot as a GitHub App (or with a plain token): it receives webhooks on
POST /webhook, verifies their HMAC SHA-256 signature, writes a job to the
database before answering 202 (a SQLite file, or with store: postgres://... a
PostgreSQL database that several replicas share behind one webhook URL), and a bounded pool of workers analyses each pull
request as setbot analyze does: one comment per pull request, edited in place,
and a check run named "setbot" whose conclusion is the gate's (failure blocks
the merge when the check is required). Gate rules come from .setbot.yml on the
pull request's base branch.

Events: pull_request (opened, synchronize, reopened, ready_for_review); push to
the default branch (warms the cache); check_run and check_suite rerequested;
merge_group checks_requested; issue_comment "/setbot rerun", "/setbot full" and
"/setbot help" from users with write access (acknowledged with a reaction).
Scheduled full re-analyses (schedules in the configuration) recompute every
model without the cache and report any difference as a check run.

Other endpoints: GET /healthz, GET /readyz (database ping), GET /metrics
(Prometheus). SIGTERM or SIGINT drains: running jobs get shutdown_timeout to
finish while /readyz and new deliveries answer 503, then the server stops and
closes the database; queued jobs run after a restart (or on another replica). Jobs GitHub turns away
(rate limits, outages) are queued again for later rather than failed. Each analysis
runs in a child process of the server (analysis_process: child), so that one that
dies of a fatal error or of the out-of-memory killer fails its own job only.

The configuration file (YAML, strict) is optional: the listen address, paths,
the PostgreSQL store (SETBOT_DATABASE_URL), workers, timeouts, logging and
GitHub credentials also come from SETBOT_* environment variables, which
override the file (cache_max_bytes, analysis_process, ceilings, shutdown_timeout,
max_body_bytes, job_lease, sweep_interval and schedules are set in the file only). A webhook secret
is required. See docs/server.md for every setting and docs/github-app.md for
creating and installing the GitHub App.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.LoadServer(configFile, os.Environ())
			if err != nil {
				fmt.Fprintln(cmd.ErrOrStderr(), err)
				return exitError{code: exitUsage}
			}
			exe, err := analyzerBinary()
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return server.Run(ctx, cfg, server.Options{Solver: newZ3, LogOut: cmd.ErrOrStderr(),
				Analyzer: &analysis.Command{Path: exe, Args: []string{internalAnalyze}}})
		},
	}
	cmd.Flags().StringVar(&configFile, "config", "", "the server configuration file (YAML); default: none, settings from the environment")
	return cmd
}

// analyzerBinary is the binary of the analyses' child processes: this
// process's own. /proc/self/exe is it even after an upgrade replaced the
// file (a child of another version would not understand its server).
func analyzerBinary() (string, error) {
	const self = "/proc/self/exe"
	if _, err := os.Stat(self); err == nil {
		return self, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("finding setbot's own binary, to run analyses in child processes: %w", err)
	}
	return exe, nil
}

// internalAnalyze is the hidden subcommand the server runs each analysis
// with, in a child process (bot/analysis).
const internalAnalyze = "internal-analyze"

// newInternalAnalyzeCmd is the child process of one analysis: the request
// on standard input, the result on standard output, log records on
// standard error. Its one argument names the analysis for ps.
func newInternalAnalyzeCmd() *cobra.Command {
	return &cobra.Command{
		Use:    internalAnalyze + " LABEL",
		Short:  "Run one analysis for setbot serve (internal)",
		Hidden: true,
		Args:   cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if code := analysis.Main(newZ3, cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()); code != 0 {
				return exitError{code: code}
			}
			return nil
		},
	}
}

func newHealthcheckCmd() *cobra.Command {
	var url string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "healthcheck [--url URL]",
		Short: "Exit 0 when a setbot server answers its health endpoint (for container HEALTHCHECKs)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			client := &http.Client{Timeout: timeout}
			resp, err := client.Get(url)
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "setbot: %v\n", err)
				return exitError{code: exitFindings}
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				fmt.Fprintf(cmd.ErrOrStderr(), "setbot: %s answered %s\n", url, resp.Status)
				return exitError{code: exitFindings}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&url, "url", "http://127.0.0.1:8080/healthz", "the endpoint to probe")
	cmd.Flags().DurationVar(&timeout, "timeout", 5*time.Second, "how long to wait for the answer")
	return cmd
}
