package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/vcs"
)

func newRunsCmd() *cobra.Command {
	var cacheFile, repo, format string
	var limit int
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List the analyses recorded in the cache",
		Long: `runs lists the analyses of models that setbot analyze and setbot serve
recorded in the cache, newest first: when, the repository (owner/name for the
bot, the URL for a repository analyze cloned, the directory of a local one),
the two commits, the model file, the strategy that built the head tree, where
the trees came from, the sizes of both trees, the states reused from the base
tree, the solver calls and the wall time. --repo picks one repository's runs:
give a local repository as a directory (., a path inside it). The cache keeps them for its run retention
(90 days unless the server configures another).

Formats: text (a table) and json ({"runs": [{"repo", "base", "head", "path",
"strategy", "base_cached", "head_cached", "base_states", "head_states",
"reused_states", "solver_calls", "ms", "created"}]}, created in RFC 3339).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if format != "text" && format != "json" {
				return fmt.Errorf("unknown --format %q (want text or json)", format)
			}
			if _, err := os.Stat(cacheFile); errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("no cache at %s: nothing was analysed with it yet", cacheFile)
			}
			store, err := cache.Open(cacheFile, cache.Options{})
			if err != nil {
				return err
			}
			defer store.Close()
			runs, err := store.Runs(cmd.Context(), runsRepo(repo), limit)
			if err != nil {
				return err
			}
			if format == "json" {
				return writeRunsJSON(cmd.OutOrStdout(), runs)
			}
			return writeRunsText(cmd.OutOrStdout(), runs)
		},
	}
	cmd.Flags().StringVar(&cacheFile, "cache", defaultPath("cache.db"), "the SQLite cache file")
	cmd.Flags().StringVar(&repo, "repo", "", "only the runs of this repository: owner/name, a URL, or a local repository's directory (or one inside it)")
	cmd.Flags().IntVar(&limit, "limit", 50, "at most this many runs (0: all)")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	return cmd
}

// runsRepo is the name the runs of a repository are recorded under: a
// local repository's directory (analyze records its work tree root, so any
// directory in it names it), or spec as given.
func runsRepo(spec string) string {
	if spec == "" {
		return ""
	}
	if st, err := os.Stat(spec); err != nil || !st.IsDir() {
		return spec
	}
	repo, err := vcs.Open(spec)
	if err != nil {
		return spec
	}
	defer repo.Close()
	return repo.Dir()
}

func writeRunsText(w io.Writer, runs []cache.Run) error {
	if len(runs) == 0 {
		_, err := fmt.Fprintln(w, "no runs recorded")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "when\trepository\tcommits\tmodel\tstrategy\ttrees\tbase states\thead states\treused\tsolver calls\tms\t")
	for _, r := range runs {
		repo := r.Repo
		if repo == "" {
			repo = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.7s..%.7s\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t\n", r.Created.Local().Format("2006-01-02 15:04"),
			repo, r.Base, r.Head, r.Path, r.Strategy, treesFrom(r), r.BaseStates, r.HeadStates, r.ReusedStates, r.SolverCalls, r.Ms)
	}
	return tw.Flush()
}

// treesFrom says where a run's trees came from.
func treesFrom(r cache.Run) string {
	var from []string
	for _, side := range []struct {
		name   string
		cached bool
	}{{"base", r.BaseCached}, {"head", r.HeadCached}} {
		if side.cached {
			from = append(from, side.name+" cached")
		}
	}
	if len(from) == 0 {
		return "explored"
	}
	return strings.Join(from, ", ")
}

func writeRunsJSON(w io.Writer, runs []cache.Run) error {
	type run struct {
		Repo         string `json:"repo"`
		Base         string `json:"base"`
		Head         string `json:"head"`
		Path         string `json:"path"`
		Strategy     string `json:"strategy"`
		BaseCached   bool   `json:"base_cached"`
		HeadCached   bool   `json:"head_cached"`
		BaseStates   int    `json:"base_states"`
		HeadStates   int    `json:"head_states"`
		ReusedStates int    `json:"reused_states"`
		SolverCalls  int    `json:"solver_calls"`
		Ms           int64  `json:"ms"`
		Created      string `json:"created"`
	}
	out := struct {
		Runs []run `json:"runs"`
	}{Runs: []run{}}
	for _, r := range runs {
		out.Runs = append(out.Runs, run{Repo: r.Repo, Base: r.Base, Head: r.Head, Path: r.Path, Strategy: r.Strategy,
			BaseCached: r.BaseCached, HeadCached: r.HeadCached, BaseStates: r.BaseStates, HeadStates: r.HeadStates,
			ReusedStates: r.ReusedStates, SolverCalls: r.SolverCalls, Ms: r.Ms, Created: r.Created.UTC().Format(time.RFC3339)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
