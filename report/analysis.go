// Package report renders what an analysis found (docs/architecture.md §Reports): the
// pull-request comment in markdown with a Mermaid diagram, the stable JSON
// document, JUnit XML of the tests, and the check run's summary and
// annotations, with the verdict of the gate (package gate).
package report

import (
	"bytes"

	"github.com/setbot/setbot/gate"
	"github.com/setbot/setbot/internal/clip"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// Analysis is one run of setbot over a pair of commits: what `setbot
// analyze` prints and what the bot posts.
type Analysis struct {
	// SchemaVersion is the version of the JSON document; WriteJSON writes
	// SchemaVersion whatever it holds.
	SchemaVersion int      `json:"schema_version"`
	Repo          string   `json:"repo,omitempty"`
	Base          string   `json:"base"` // full commit SHA
	Head          string   `json:"head"`
	Models        []*Model `json:"models"` // sorted by Path
	Gate          Verdict  `json:"gate"`
}

// Model statuses.
const (
	Added    = "added"
	Modified = "modified"
	Renamed  = "renamed"
	Deleted  = "deleted"
)

// Model is what happened to one model file. Its JSON is the fields below
// and those of the `setbot diff` object (the embedded ChangeAnalysis,
// absent when the model was deleted or does not load).
type Model struct {
	Path    string `json:"path"`               // at head; at base for a deleted model
	OldPath string `json:"old_path,omitempty"` // at base, for a renamed model
	Status  string `json:"status"`             // added, modified, renamed, deleted
	// Through lists, for a model whose own file did not change, the files
	// it reads that did (a machine it invokes, its data or scripts): the
	// change reaches it through them.
	Through    []string `json:"through,omitempty"`
	BaseCached bool     `json:"base_cached"` // the base SET came from the cache
	HeadCached bool     `json:"head_cached"` // the head SET came from the cache
	// ResultCached: the whole analysis of this pair came from the cache and
	// nothing was executed in this run; the statistics are those of the run
	// that computed it.
	ResultCached bool `json:"result_cached"`
	// Computed says where the trees came from in the run that computed the
	// result: with ResultCached, the comment describes that run, so that a
	// result served again renders the same comment (and costs no edit).
	Computed struct{ BaseCached, HeadCached bool } `json:"-"`

	// Errors are the reasons the model could not be analysed (it does not
	// parse or flatten at head, or a bound made the analysis fail).
	Errors []Diagnostic `json:"errors,omitempty"`
	// BaseErrors are the reasons the base version could not be read (it
	// does not load or does not finish starting): the head is compared
	// with nothing, and the head's errors the base has too are not the
	// change's.
	BaseErrors []Diagnostic `json:"base_errors,omitempty"`
	// BaseWarnings are the base's places whose code raises
	// error.execution, to tell the head's new ones; not in the JSON.
	BaseWarnings []Diagnostic `json:"-"`
	// Warnings are the places of the head model whose code SCXML makes an
	// error at run time (an expression that is no ECMAScript, an assignment
	// to a system variable): setbot raises error.execution there.
	Warnings []Diagnostic `json:"warnings,omitempty"`

	// Capped lists the settings of .setbot.yml the server's ceilings
	// lowered for this model: the analysis used the ceiling.
	Capped []Capped `json:"capped,omitempty"`

	// TableGrowth is what running black-box functions' commands added to
	// the head's tables before the analysis; nil when no command ran.
	TableGrowth *TableGrowth `json:"table_growth,omitempty"`

	// ChangeAnalysis is what the change does to the model
	// (NewChangeAnalysis); nil when there is no analysis.
	*ChangeAnalysis

	// HeadMachine is the flattened head model (nil when deleted or broken),
	// for the diagram and source lines; it is not part of the JSON.
	HeadMachine *mlm.Machine `json:"-"`
	// Time is how the analysis read delayed sends, so that the report
	// page replays its tests as they were found; not part of the JSON.
	Time vocab.Time `json:"-"`
	// BaseMachine is the flattened base model (nil when there is none),
	// for the report page's removed transitions; not part of the JSON.
	BaseMachine *mlm.Machine `json:"-"`
	// Lines is the number of lines of each head file the model's findings
	// can be in (its own, the files it reads), by repository path, so that
	// no report points past the end of one; not part of the JSON.
	Lines map[string]int `json:"-"`
}

// LineCount is the number of lines of a text as an editor shows them: a
// final newline ends the last line and starts none.
func LineCount(text []byte) int {
	n := bytes.Count(text, []byte{'\n'})
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

// findingLine is the line to annotate for f: its own, moved back to the
// last line of the file when it is past it (an error at the end of a file
// that ends with a newline), and line 1 when it has none.
func (a *Analysis) findingLine(f Finding) int {
	line := f.Line
	for _, m := range a.Models {
		if n, ok := m.Lines[f.Path]; ok {
			line = min(line, n)
			break
		}
	}
	return max(line, 1)
}

// Capped is a setting of .setbot.yml asked beyond the server's ceiling
// (ceilings in the server's configuration): the analysis used the ceiling.
type Capped struct {
	Setting string `json:"setting"` // the key in .setbot.yml, such as bounds.max_states
	Asked   string `json:"asked"`   // the value asked for, as .setbot.yml writes it
	Ceiling string `json:"ceiling"` // the server's ceiling, which the analysis used
}

// TableGrowth is what the commands of the head's black-box functions
// computed (SolveTab, Boudhiba et al., TAP 2017), when the configuration
// lets them run (functions.run_commands). The analysis read the tables
// with these rows; the repository's table files do not hold them.
type TableGrowth struct {
	Rounds int        `json:"rounds"` // SolveTab rounds used
	Rows   []GrownRow `json:"rows"`
	// Errors say why growing stopped early: a command that failed, timed
	// out or printed no value of its type. The analysis went on with the
	// rows it had.
	Errors []string `json:"errors"`
	// Refused, when not "", says why the commands, which the
	// configuration allows, did not run (the server runs none for a pull
	// request from a fork): the analysis used the committed tables.
	Refused string `json:"refused,omitempty"`
}

// MaxGrowthError bounds one of TableGrowth.Errors, in bytes: an error
// quotes a command's arguments and standard error, which the repository's
// code chose, and it is shown in the pull request's comment.
const MaxGrowthError = 3000

// AddError adds an error to g, cut to MaxGrowthError bytes.
func (g *TableGrowth) AddError(msg string) {
	g.Errors = append(g.Errors, clip.Cut(msg, MaxGrowthError, " … (cut)"))
}

// GrownRow is one row a command computed.
type GrownRow struct {
	Function string   `json:"function"`
	Table    string   `json:"table"` // the table's file, repository-relative
	In       []string `json:"in"`
	Out      string   `json:"out"`
	CSV      string   `json:"csv"` // the line to append to the table
}

// Diagnostic is an error located in a model file.
type Diagnostic struct {
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Message string `json:"message"`
	// Refused: the error is about a construct setbot does not support
	// (another data model, a feature outside the action language); the
	// model is not broken.
	Refused bool `json:"refused,omitempty"`
}

// The gate's conclusions (package gate), which are GitHub's check-run
// conclusions.
const (
	Success = gate.Success
	Neutral = gate.Neutral
	Failure = gate.Failure
)

// Verdict is the verdict of the gate rules on the findings (package gate),
// as the report gives it.
type Verdict struct {
	Conclusion string    `json:"conclusion"` // success, neutral or failure
	Findings   []Finding `json:"findings"`   // those the gate counted: block or warn
	// NotGated are the findings the gate lists without counting them
	// (level off): those the base already had, and states declared
	// unreachable.
	NotGated []Finding `json:"not_gated"`
}

// Finding is one thing the gate looked at.
type Finding struct {
	Rule    vocab.Rule   `json:"rule"`
	Level   vocab.Action `json:"level"` // block or warn; off in not_gated
	Path    string       `json:"path"`
	Line    int          `json:"line,omitempty"`
	Subject string       `json:"subject,omitempty"` // the state, invariant or bound
	Message string       `json:"message"`
	// Reason says why the finding does not block; absent when it does.
	Reason vocab.Reason `json:"reason,omitempty"`
}
