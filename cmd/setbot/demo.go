package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/setbot/setbot/internal/demo"
	"github.com/setbot/setbot/report"
	htmlreport "github.com/setbot/setbot/report/html"
)

func newDemoCmd() *cobra.Command {
	var f analyzeFlags
	var dir string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Build a small git repository of model changes and analyse them",
		Long: `demo builds a git repository (in a new temporary directory, or --dir) whose
history changes a statechart model three times: a harmless edit (comments and
layout: the machine is the same and its tree is reused), a change that adds
behaviour (new paths, new tests), and a change that makes a state unreachable
(which the gate blocks). It runs setbot analyze over each commit and its
parent, prints the three reports, and says where the repository is, so you
can try more commands on it. No network and no GitHub are needed.

It also writes the report page of each analysis (see analyze --html) and says
where they are: in the repository's .git/setbot-pages unless --html is given.

The demo's cache lives in the repository's .git directory unless --cache is
given; the commands the demo suggests at the end name it, so that running
analyze on the demo repository again is served from it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := f.check(); err != nil {
				return err
			}
			if dir == "" {
				d, err := os.MkdirTemp("", "setbot-demo-")
				if err != nil {
					return err
				}
				dir = d
			}
			commits, err := demo.Build(dir)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("cache") {
				f.cacheFile = filepath.Join(dir, ".git", "setbot-cache.db")
			}
			if !cmd.Flags().Changed("html") {
				f.html = filepath.Join(dir, ".git", "setbot-pages")
			}
			f.repo = dir
			out := cmd.OutOrStdout()
			var pages []string
			for i := 1; i < len(commits); i++ {
				f.base, f.head = commits[i-1].SHA, commits[i].SHA
				fmt.Fprintf(out, "━━━ %d/%d  %s ━━━\n$ setbot analyze --repo %s --base %.7s --head %.7s\n\n",
					i, len(commits)-1, commits[i].Subject, dir, f.base, f.head)
				a, err := f.run(cmd.Context(), cmd.ErrOrStderr())
				if err != nil {
					return err
				}
				if err := f.write(out, a); err != nil {
					return err
				}
				pages = append(pages, filepath.Join(f.html, htmlreport.FileName(a)))
				status := 0
				if a.Gate.Conclusion == report.Failure {
					status = exitFindings
				}
				fmt.Fprintf(out, "\n(gate: %s; setbot analyze would exit with status %d)\n\n", a.Gate.Conclusion, status)
			}
			// The commands name the demo's cache: without --cache, analyze
			// would use the user's and explore everything again.
			cache := "--cache " + f.cacheFile
			if f.noCache {
				cache = "--no-cache"
			}
			fmt.Fprintf(out, "The report pages (open them in a browser; the last shows the state the change made unreachable, in red, and its witness step by step):\n")
			for _, p := range pages {
				fmt.Fprintf(out, "  %s\n", p)
			}
			fmt.Fprintf(out, "The demo repository is %s (model: %s).\nTry, for example:\n", dir, demo.ModelPath)
			fmt.Fprintf(out, "  setbot analyze --repo %s %s --base HEAD~3 --head HEAD --format json\n", dir, cache)
			fmt.Fprintf(out, "  setbot analyze --repo %s %s --base HEAD~1 --fresh\n", dir, cache)
			if !f.noCache {
				fmt.Fprintf(out, "  setbot runs %s --repo %s\n", cache, dir)
			}
			fmt.Fprintf(out, "  cd %s && git log --stat\n", dir)
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "build the repository here (must not exist or be empty; default: a new temporary directory)")
	f.register(cmd, false)
	// The demo's cache is the repository's, not the user's.
	c := cmd.Flags().Lookup("cache")
	c.DefValue, c.Usage = "", "the SQLite cache file (default: setbot-cache.db in the demo repository's .git directory)"
	h := cmd.Flags().Lookup("html")
	h.Usage = "write the report pages into this directory (default: setbot-pages in the demo repository's .git directory)"
	return cmd
}
