// Package analysis runs one analysis of the bot (docs/server.md, "Analyses
// in child processes") either in the server's process or in a child of
// it: the server's binary re-executed with a hidden subcommand, the job's
// inputs sent on its standard input and the result read from its standard
// output, so that a runtime fatal error (a stack overflow, a concurrent
// map write) or an out-of-memory kill ends that one analysis, not the
// server and the jobs beside it.
//
// Both ways run Run, which calls the pipeline and renders what the server
// posts: the check run's conclusion, title, summary and annotations and the
// pull request's comment, so that nothing but plain data crosses the pipe.
// Every GitHub call stays in the server: the one question the pipeline may
// ask (may a fork's pull request run commands?) goes back up the pipe. The
// child gets no secret: its environment is the server's without SETBOT_*
// or GitHub variables, and the store's location (a PostgreSQL URL may hold
// a password) comes on its standard input.
package analysis

import (
	"bytes"
	"context"
	"errors"
	"time"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/config"
	"github.com/setbot/setbot/pipeline"
	"github.com/setbot/setbot/report"
	htmlreport "github.com/setbot/setbot/report/html"
	"github.com/setbot/setbot/vcs"
	"github.com/setbot/setbot/vocab"
)

// Pass is what an analysis does with the repository.
type Pass int

const (
	// Change analyses a pull request or merge group: from Base to Head.
	Change Pass = iota
	// Warm fills the cache with the trees of every model at Head.
	Warm
	// Verify recomputes every model at Head and compares it with the cache.
	Verify
)

// Request is one analysis: the pipeline's inputs that are data.
type Request struct {
	Pass Pass
	// Dir is the repository's clone, which the server fetched.
	Dir string
	// Base and Head are the commits of a Change; Head alone is the commit
	// of a Warm or Verify.
	Base, Head string
	// GateFrom is pipeline.Options.GateFrom.
	GateFrom string
	// Store says where the cache is; the zero Store is none.
	Store Store
	// Strategy, Fresh, Jobs, Ceilings, MaxMemory and Repo are the
	// pipeline's options of the same names.
	Strategy  vocab.Strategy
	Fresh     bool
	Jobs      int
	Ceilings  *config.Ceilings
	MaxMemory int64
	Repo      string
	// CheckRunURL is the check run's address, for the comment's link.
	CheckRunURL string
	// PageURL, when set, is where the server will serve the analysis's
	// report page (a signed link, docs/report-page.md): the comment and the
	// check run link to it, and the outcome carries the page.
	PageURL string
	// AskRefusal says that the server wants to be asked, before the first
	// black-box command runs, whether commands may run
	// (pipeline.Options.RefuseCommands).
	AskRefusal bool
	// Debug has the child send its debug records too.
	Debug bool
}

// Store is where the cache is: a SQLite file the server has open, or a
// PostgreSQL URL.
type Store struct {
	Path, URL string
	MaxBytes  int64
}

// open opens the cache s names (nil, nil for none), for a child process:
// the server checked the file when it opened it.
func (s Store) open(ctx context.Context, opts cache.Options) (cache.Backend, error) {
	opts.MaxBytes, opts.Opened = s.MaxBytes, true
	switch {
	case s.URL != "":
		return cache.OpenPostgres(ctx, s.URL, opts)
	case s.Path != "":
		return cache.Open(s.Path, opts)
	}
	return nil, nil
}

// Result is what an analysis found.
type Result struct {
	// Change is the outcome of a Change pass.
	Change *Outcome
	// Checks are the models of a Warm or Verify pass.
	Checks []pipeline.ModelCheck
	// Err is why the pass failed ("" if it did not); ConfigRev, when set,
	// says it failed because the configuration at that revision does not
	// parse (a pipeline.ConfigError).
	Err, ConfigRev string
}

// Outcome is a change's analysis as the server posts it.
type Outcome struct {
	Conclusion, Title, Summary string
	Annotations                []report.Annotation
	// Comment is the pull request's comment.
	Comment string
	// Page is the report page (package report/html), rendered here, where
	// the flattened models are, when the request has a PageURL; the server
	// stores it and serves it at that address.
	Page []byte
	// Timings are the analyses this run computed, for the server's metrics.
	Timings []Timing
}

// Timing is how long one model's base and head trees took.
type Timing struct {
	Strategy vocab.Strategy
	Seconds  float64
}

// Error is the error of a failed pass as the pipeline returned it.
func (r *Result) Error() error {
	switch {
	case r.Err == "":
		return nil
	case r.ConfigRev != "":
		return &pipeline.ConfigError{Rev: r.ConfigRev, Err: errors.New(r.Err)}
	}
	return errors.New(r.Err)
}

// Run runs the pass req asks for on repo. opts carries what is not data
// (the cache, the solver, the logger, the refusal callback); Run sets the
// rest from req.
func Run(ctx context.Context, repo *vcs.Repo, req *Request, opts pipeline.Options) *Result {
	opts.Strategy, opts.Fresh, opts.Jobs, opts.Ceilings, opts.MaxMemory, opts.Repo = req.Strategy, req.Fresh, req.Jobs, req.Ceilings, req.MaxMemory, req.Repo
	opts.GateFrom = req.GateFrom
	res := &Result{}
	var err error
	switch req.Pass {
	case Change:
		var a *report.Analysis
		if a, err = pipeline.Analyze(ctx, repo, req.Base, req.Head, opts); err == nil {
			res.Change = outcome(ctx, a, req)
		}
	case Warm:
		res.Checks, err = pipeline.Warm(ctx, repo, req.Head, opts)
	case Verify:
		res.Checks, err = pipeline.Verify(ctx, repo, req.Head, opts)
	}
	if err != nil {
		res.Err = err.Error()
		var ce *pipeline.ConfigError
		if errors.As(err, &ce) {
			res.ConfigRev, res.Err = ce.Rev, ce.Err.Error()
		}
	}
	return res
}

// page renders the report page of a; nil when it cannot. The page is an
// addition to the check run and the comment: a page that fails to render,
// even by a bug that panics, must not cost them.
func page(ctx context.Context, a *report.Analysis) (out []byte) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	var b bytes.Buffer
	if err := htmlreport.Write(ctx, &b, a, htmlreport.Options{}); err != nil {
		return nil
	}
	return b.Bytes()
}

// outcome renders a change's analysis as the server posts it.
func outcome(ctx context.Context, a *report.Analysis, req *Request) *Outcome {
	a.Repo = req.Repo
	var p []byte
	if req.PageURL != "" {
		p = page(ctx, a)
	}
	ro := report.Options{CheckRunURL: req.CheckRunURL}
	if p != nil {
		ro.PageURL = req.PageURL // no link to a page that is not there
	}
	out := report.CheckRun(a, ro)
	o := &Outcome{Conclusion: a.Gate.Conclusion, Title: out.Title, Summary: out.Summary, Annotations: out.Annotations,
		Comment: report.Markdown(a, ro), Page: p}
	for _, m := range a.Models {
		if m.ChangeAnalysis != nil && !m.ResultCached {
			o.Timings = append(o.Timings, Timing{Strategy: m.Strategy, Seconds: float64(m.Base.Ms+m.Head.Ms) / float64(time.Second/time.Millisecond)})
		}
	}
	return o
}
