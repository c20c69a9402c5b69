package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"
)

// surveyFlags are the options of survey.
type surveyFlags struct {
	fe       frontEndFlags
	limit    time.Duration
	depth    int
	jobs     int
	top      int
	format   string
	progress bool
}

// surveyFile is what survey found of one document.
type surveyFile struct {
	Path      string `json:"path"`
	DataModel string `json:"datamodel"`
	Loaded    bool   `json:"loaded"`
	Explored  bool   `json:"explored"`
	// Reason is the first error without its position, as refusals are
	// counted; Error is the same error as check prints it.
	Reason string   `json:"reason,omitempty"`
	Error  string   `json:"error,omitempty"`
	Bounds []string `json:"bounds_hit,omitempty"`
	MS     int64    `json:"ms"`
}

// surveyRow counts the documents of one data model.
type surveyRow struct {
	DataModel string        `json:"datamodel"`
	Files     int           `json:"files"`
	Loaded    int           `json:"loaded"`
	Explored  int           `json:"explored"`
	Refused   int           `json:"refused"`
	Reasons   []reasonCount `json:"reasons,omitempty"`
}

// reasonCount is one refusal reason and the number of files it refused.
type reasonCount struct {
	Reason string `json:"reason"`
	Files  int    `json:"files"`
}

// defaultSurvey is survey with its flags' defaults, as check --summary
// runs it.
var defaultSurvey = surveyFlags{limit: 30 * time.Second, depth: int(vocab.BoundDepth.Default()), top: 5, format: "text"}

// noDataModel names the documents without a datamodel attribute.
const noDataModel = "(none)"

// surveySolverShare is how many of one solver query the time limit of a
// file holds: a query the solver cannot decide leaves nine tenths of the
// limit to the rest of the file, and the exploration ends that share
// before the limit, so that what follows it ends within the limit too.
const surveySolverShare = 10

func newSurveyCmd() *cobra.Command {
	var f surveyFlags
	cmd := &cobra.Command{
		Use:   "survey DIR...",
		Short: "Count which SCXML documents of a tree setbot reads, and why it refuses the others",
		Long: `survey walks each DIR (or takes each FILE) for SCXML documents: every *.scxml
file, and every *.xml file whose root element is <scxml>. It loads each one as
check does (reading, flattening and starting the machine) and explores it as
explore does, each file within --timeout (30 s by default; a file that takes
longer is cut, and counted as it stood; one solver query takes at most a tenth
of it, the exploration stops that much before the limit so that the file's
report ends within it, and a branch it does not decide is concretised) and half the machine's memory (as
analyze's --max-memory by default), then prints a table per data model
(the datamodel attribute of the document's <scxml>, "(none)" without one):
the files, how many loaded, how many were explored, how many were refused,
and the most common reasons of refusal, each the first error of a file
without its position, with the number of files it refused.

It is the first command to run on a team's models: it shows at once what of
theirs setbot reads. --format json prints the same table and every file's
result for machines. On a terminal (or with --progress) it shows on stderr
which file it is at. The exit code is 0 whatever the files hold, 2 when a
DIR cannot be read or holds no SCXML document.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return f.run(cmd, args) },
	}
	fl := cmd.Flags()
	fl.DurationVar(&f.limit, "timeout", defaultSurvey.limit, "give each file at most this long to load and explore (0 means no limit)")
	depth, _ := vocab.BoundDepth.Settable()
	fl.IntVar(&f.depth, depth.Flag, defaultSurvey.depth, depth.Help)
	fl.IntVar(&f.top, "top", defaultSurvey.top, "list this many of the most common refusal reasons per data model")
	fl.StringVar(&f.format, "format", defaultSurvey.format, "output format: text or json")
	fl.BoolVar(&f.progress, "progress", false, "show which file survey is at on stderr even when it is not a terminal")
	jobsFlag(cmd, &f.jobs)
	f.fe.register(cmd)
	return cmd
}

// run surveys the arguments and prints the table.
func (f *surveyFlags) run(cmd *cobra.Command, args []string) error {
	if f.format != "text" && f.format != "json" {
		return fmt.Errorf("unknown --format %q (want text or json)", f.format)
	}
	paths, err := surveyPaths(args)
	if err != nil {
		return err
	}
	files := f.survey(cmd.Context(), cmd.ErrOrStderr(), paths)
	rows, total := surveyTable(files, f.top)
	if f.format == "json" {
		return writeSurveyJSON(cmd.OutOrStdout(), f.limit, rows, total, files)
	}
	return writeSurveyText(cmd.OutOrStdout(), rows, total)
}

// surveyPaths lists the SCXML documents under the arguments, each with its
// data model, in lexical order.
func surveyPaths(args []string) ([]surveyFile, error) {
	var out []surveyFile
	for _, arg := range args {
		err := filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil && path == arg:
				return err
			case err != nil:
				return nil // a directory below that cannot be read is left out
			}
			ext := strings.ToLower(filepath.Ext(path))
			if d.IsDir() || (ext != ".scxml" && ext != ".xml") {
				return nil
			}
			// A file that cannot be read is counted, refused by the load.
			src, _ := os.ReadFile(path)
			dm, isSCXML := scxml.DataModel(src)
			if !isSCXML && ext != ".scxml" {
				return nil
			}
			out = append(out, surveyFile{Path: path, DataModel: dataModelName(dm)})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no SCXML document under %s (survey reads *.scxml, and *.xml whose root is <scxml>)", strings.Join(args, " "))
	}
	return out, nil
}

// dataModelName is the data model a table row counts a document under:
// Qt's cplusplus:Class:header is cplusplus.
func dataModelName(attr string) string {
	name, _, _ := strings.Cut(strings.ToLower(attr), ":")
	if name == "" {
		return noDataModel
	}
	return name
}

// survey loads and explores every file in turn, showing progress on w.
func (f *surveyFlags) survey(ctx context.Context, w io.Writer, files []surveyFile) []surveyFile {
	show := f.progress
	if out, ok := w.(*os.File); ok && term.IsTerminal(int(out.Fd())) {
		show = true
	}
	for i := range files {
		if show {
			fmt.Fprintf(w, "setbot: survey: %d/%d %s\n", i+1, len(files), files[i].Path)
		}
		start := time.Now()
		f.surveyOne(ctx, &files[i])
		files[i].MS = time.Since(start).Milliseconds()
	}
	return files
}

// surveyOne loads and explores one file within the time limit. The
// exploration stops at the limit by its time bound; the context, a tenth
// later (at least a second, so that a loaded machine's exploration meets
// its own bound first), stops a load or an exploration that has not;
// should either still go on, the file is left to it at half the limit
// again and counted as not answering.
func (f *surveyFlags) surveyOne(ctx context.Context, file *surveyFile) {
	backup := f.limit + max(f.limit/10, time.Second)
	if f.limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, backup)
		defer cancel()
	}
	done := make(chan surveyFile, 1)
	go func(r surveyFile) {
		defer func() {
			// A file that makes setbot fail is counted with the failure,
			// and the survey goes on to the next.
			if p := recover(); p != nil {
				r.Loaded, r.Explored = false, false
				r.Reason = fmt.Sprintf("setbot failed on this file (please report it): %v", p)
				r.Error = r.Path + ": " + r.Reason
				done <- r
			}
		}()
		f.loadAndExplore(ctx, &r)
		done <- r
	}(*file)
	var grace <-chan time.Time
	if f.limit > 0 {
		grace = time.After(backup + f.limit/2)
	}
	select {
	case r := <-done:
		*file = r
	case <-grace:
		file.Reason = fmt.Sprintf("no answer within %s", f.limit)
		file.Error = file.Path + ": " + file.Reason
	}
}

// loadAndExplore is check and explore of one file, as those commands do
// them: the first error refuses the file.
func (f *surveyFlags) loadAndExplore(ctx context.Context, r *surveyFile) {
	start := time.Now()
	m, err := f.fe.load(ctx, r.Path, 0)
	if err != nil {
		r.Reason, r.Error = surveyReason(r.Path, err)
		return
	}
	// The heap is bounded as analyze's is by default: half the machine's
	// memory, so that one large model does not end the survey.
	opts := engine.Options{MaxDepth: f.depth, Jobs: explorationJobs(f.jobs), Interrupt: ctx.Done(), MaxMemory: physicalMemory() / 2}
	if f.limit > 0 {
		// A query the solver cannot decide in a tenth of the limit is
		// left undecided (the concretised bound), as explore leaves one
		// of its own limit, so that one query does not take the file's
		// time. No query runs past the exploration's own time (its
		// deadline), which ends that tenth before the limit: what
		// follows the exploration of a tree it cut (its summary) ends
		// within the limit (_virtualRadio.scxml answered at 30.0 s of a
		// 30 s limit without it).
		opts.SolverTimeout = max(f.limit/surveySolverShare, time.Millisecond)
		opts.Timeout = max(f.limit-time.Since(start)-opts.SolverTimeout, time.Millisecond)
	}
	set, err := engine.Explore(m, opts, newZ3)
	var startErr *engine.StartError
	switch {
	case errors.As(err, &startErr):
		// The machine does not start: check refuses it.
		r.Reason, r.Error = startErr.Msg, startErr.Error()
		return
	case err != nil:
		r.Loaded = true
		r.Reason, r.Error = surveyReason(r.Path, err)
		return
	}
	r.Loaded, r.Explored = true, true
	for _, b := range set.Bounds {
		r.Bounds = append(r.Bounds, string(b.Bound))
	}
}

// place matches a file position inside a message.
var place = regexp.MustCompile(`\S+:\d+:\d+`)

// surveyReason is a file's first error, without its position and with the
// positions inside it replaced, so that the same refusal in two files
// counts once; and the error as check prints it.
func surveyReason(path string, err error) (reason, full string) {
	var errs source.ErrorList
	if errors.As(err, &errs) && len(errs) > 0 {
		reason, full = errs[0].Msg, errs[0].Error()
	} else {
		full = err.Error()
		reason = strings.TrimPrefix(full, path+": ")
	}
	return place.ReplaceAllString(reason, "(a place)"), full
}

// surveyTable counts the files per data model, the largest first, with
// each one's top reasons, and the total.
func surveyTable(files []surveyFile, top int) ([]surveyRow, surveyRow) {
	byName := map[string]*surveyRow{}
	reasons := map[string]map[string]int{}
	total := surveyRow{DataModel: "all"}
	for _, f := range files {
		row := byName[f.DataModel]
		if row == nil {
			row = &surveyRow{DataModel: f.DataModel}
			byName[f.DataModel] = row
			reasons[f.DataModel] = map[string]int{}
		}
		for _, r := range []*surveyRow{row, &total} {
			r.Files++
			switch {
			case f.Explored:
				r.Loaded++
				r.Explored++
			case f.Loaded:
				r.Loaded++
			default:
				r.Refused++
			}
		}
		if f.Reason != "" {
			reasons[f.DataModel][f.Reason]++
		}
	}
	rows := make([]surveyRow, 0, len(byName))
	for name, row := range byName {
		row.Reasons = topReasons(reasons[name], top)
		rows = append(rows, *row)
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Files != rows[j].Files {
			return rows[i].Files > rows[j].Files
		}
		return rows[i].DataModel < rows[j].DataModel
	})
	all := map[string]int{}
	for _, m := range reasons {
		for r, n := range m {
			all[r] += n
		}
	}
	total.Reasons = topReasons(all, top)
	return rows, total
}

// topReasons are the n most common reasons, ties in text order.
func topReasons(counts map[string]int, n int) []reasonCount {
	out := make([]reasonCount, 0, len(counts))
	for r, c := range counts {
		out = append(out, reasonCount{Reason: r, Files: c})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Files != out[j].Files {
			return out[i].Files > out[j].Files
		}
		return out[i].Reason < out[j].Reason
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// writeSurveyText prints the table, then the reasons per data model.
func writeSurveyText(w io.Writer, rows []surveyRow, total surveyRow) error {
	var b strings.Builder
	width := len("data model")
	for _, r := range rows {
		width = max(width, len(r.DataModel))
	}
	line := func(name string, cols ...any) {
		fmt.Fprintf(&b, "%-*s %7v %7v %9v %8v\n", append([]any{width, name}, cols...)...)
	}
	line("data model", "files", "loaded", "explored", "refused")
	for _, r := range rows {
		line(r.DataModel, r.Files, r.Loaded, r.Explored, r.Refused)
	}
	line(total.DataModel, total.Files, total.Loaded, total.Explored, total.Refused)
	for _, r := range rows {
		if len(r.Reasons) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s: the most common reasons (files)\n", r.DataModel)
		for _, rc := range r.Reasons {
			fmt.Fprintf(&b, "%6d  %s\n", rc.Files, rc.Reason)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSurveyJSON prints the table and every file's result.
func writeSurveyJSON(w io.Writer, limit time.Duration, rows []surveyRow, total surveyRow, files []surveyFile) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		LimitMS    int64        `json:"limit_ms"`
		DataModels []surveyRow  `json:"datamodels"`
		Total      surveyRow    `json:"total"`
		Files      []surveyFile `json:"files"`
	}{limit.Milliseconds(), rows, total, files})
}
