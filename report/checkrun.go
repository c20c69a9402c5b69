package report

import (
	"fmt"

	"github.com/setbot/setbot/vocab"
)

// Annotation levels, as GitHub names them.
const (
	LevelNotice  = "notice"
	LevelWarning = "warning"
	LevelFailure = "failure"
)

// MaxNotices caps the notice annotations on changed lines: findings are
// what a reviewer must see; the changes are already in the diff.
const MaxNotices = 25

// Annotation is a check-run annotation on a line of a model file.
type Annotation struct {
	Path      string // repository-relative, as Model.Path
	StartLine int
	EndLine   int
	Level     string // notice, warning or failure (GitHub's annotation_level)
	Title     string
	Message   string
}

// CheckRunOutput is the output of the setbot check run.
type CheckRunOutput struct {
	Title       string
	Summary     string // Markdown, within the limit
	Annotations []Annotation
}

// CheckRun renders the check run's output: a title that counts the
// findings, the same summary as the comment (without Marker, within
// opts.Limit or MaxSummary), one annotation per finding (failure for a
// blocking one, warning otherwise; on line 1 when the finding has no line,
// never past the end of its file),
// and notice annotations on the lines the pull request changed, at most
// MaxNotices of them. GitHub takes 50 annotations per request: sending
// them in batches is the caller's job.
func CheckRun(a *Analysis, opts Options) CheckRunOutput {
	limit := opts.Limit
	if limit <= 0 {
		limit = MaxSummary
	}
	// The check run is where the comment points: its own note points to the
	// command line instead.
	out := CheckRunOutput{
		Title:   checkTitle(a),
		Summary: page(a, pageLink(opts), limit, "Run `setbot analyze --format json` locally for the full report."),
	}
	for _, f := range a.Gate.Findings {
		level := LevelWarning
		if f.Level == vocab.ActionBlock {
			level = LevelFailure
		}
		line := a.findingLine(f)
		title := ruleTitles[f.Rule][0]
		if f.Subject != "" {
			title += ": " + f.Subject
		}
		out.Annotations = append(out.Annotations, Annotation{Path: f.Path, StartLine: line, EndLine: line,
			Level: level, Title: title, Message: f.Message})
	}
	notices := 0
	for _, m := range sortedModels(a.Models) {
		if m.ChangeAnalysis == nil {
			continue
		}
		for _, c := range m.Changes {
			if c.New == nil || c.New.Line <= 0 {
				continue
			}
			if notices == MaxNotices {
				return out
			}
			notices++
			out.Annotations = append(out.Annotations, Annotation{Path: m.Path, StartLine: c.New.Line, EndLine: c.New.Line,
				Level: LevelNotice, Title: "changed: " + kindText(c.Kind),
				Message: fmt.Sprintf("%s: %s (setbot analyses what this change does to every execution)", kindText(c.Kind), c.Subject)})
		}
	}
	return out
}

// checkTitle counts the models and the findings, e.g. "2 models analysed:
// 1 newly unreachable state".
func checkTitle(a *Analysis) string {
	n := 0
	for _, m := range a.Models {
		if m != nil {
			n++
		}
	}
	title := plural(n, "model", "models") + " analysed: "
	if c := counts(a.Gate.Findings, ""); c != "" {
		return title + c
	}
	return title + "no findings"
}
