package report

import (
	"embed"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"text/template"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/gate"
	"github.com/setbot/setbot/internal/clip"
	"github.com/setbot/setbot/vocab"
)

// Marker is the hidden marker that identifies setbot's one comment on a
// pull request, so that it is found and edited in place.
const Marker = "<!-- setbot:report -->"

// GitHub's limits, in characters (see runes).
const (
	MaxComment = 65536 // the body of an issue or pull-request comment
	MaxSummary = 65535 // the summary of a check run
)

// Options shape the Markdown of the comment and the check run.
type Options struct {
	// CheckRunURL is where the full report lives, for the note that ends
	// a shortened comment; may be empty.
	CheckRunURL string
	// Limit is the most characters the body may have; 0 means MaxComment
	// (Markdown) or MaxSummary (CheckRun).
	Limit int
	// PageURL is the report page's address (a signed link the server
	// serves, docs/report-page.md); the body starts with a link to it. May
	// be empty.
	PageURL string
}

// pageLink is the line that starts a body with a link to the report page,
// "" without one.
func pageLink(opts Options) string {
	if opts.PageURL == "" {
		return ""
	}
	return "[See the change](" + linkTarget(opts.PageURL) + "): the statechart with the change drawn, and every witness and test playable step by step (a link that expires).\n\n"
}

// How much of the report stays in the page when it is too long.
const (
	maxFindingsShown = 30
	maxChangeRows    = 50
	maxTransitions   = 40
	maxTestRows      = 25
	maxReachRows     = 50
	maxErrorRows     = 20
)

// Markdown renders the pull-request comment (docs/architecture.md §Reports). It
// starts with Marker and stays within opts.Limit characters: when the full
// report does not fit, detail is left out block by block (the state
// diagrams first, then test details, then change tables, then whole model
// sections), never in the middle of a Markdown or HTML construct, and a
// note at the end points to the check run.
func Markdown(a *Analysis, opts Options) string {
	limit := opts.Limit
	if limit <= 0 {
		limit = MaxComment
	}
	pointer := "Run `setbot analyze` locally for the full report."
	if opts.CheckRunURL != "" {
		pointer = "The full report is in the [check run](" + linkTarget(opts.CheckRunURL) + ")."
	}
	return page(a, Marker+"\n"+pageLink(opts), limit, pointer)
}

// linkTarget keeps a URL from ending a Markdown link early.
func linkTarget(url string) string {
	return strings.NewReplacer(" ", "%20", "(", "%28", ")", "%29", "<", "%3C", ">", "%3E").Replace(url)
}

//go:embed templates/*.tmpl
var templateFS embed.FS

var pageTemplates = template.Must(template.New("page").
	Funcs(template.FuncMap{"code": code, "text": text}).
	ParseFS(templateFS, "templates/*.tmpl"))

// exec runs one template and tidies its blank lines: at most one in a row,
// none at the start, exactly one line break at the end.
func exec(name string, data any) string {
	var b strings.Builder
	if err := pageTemplates.ExecuteTemplate(&b, name, data); err != nil {
		// The templates are fixed and their data is built here: an error
		// is a bug in this package.
		panic(fmt.Sprintf("report: template %s: %v", name, err))
	}
	return strings.Trim(blankLines.ReplaceAllString(b.String(), "\n\n"), "\n") + "\n"
}

var blankLines = regexp.MustCompile(`\n[ \t]*(\n[ \t]*)+\n`)

// detail is how much of a model's section is shown.
type detail int

const (
	full      detail = iota
	noDiagram        // the state diagram left out
	noTests          // and the test details
	noTables         // and the change table and transition lists
	brief            // one line
	levels
)

// page puts a report together within limit characters; prefix starts it
// (the marker, or nothing) and pointer says where the full report is.
func page(a *Analysis, prefix string, limit int, pointer string) string {
	models := sortedModels(a.Models)
	worst := worstLevels(a.Gate.Findings)
	states := stateFindings(a.Gate)
	memo := make([][levels]string, len(models))
	diagrams := make([]*diagramResult, len(models))
	section := func(i int, d detail) string {
		if memo[i][d] == "" {
			if d < noDiagram && diagrams[i] == nil {
				if r, ok := diagram(models[i], MaxDiagramEdges); ok {
					diagrams[i] = &r
				} else {
					diagrams[i] = &diagramResult{}
				}
			}
			var dg *diagramResult
			if d < noDiagram && diagrams[i].Source != "" {
				dg = diagrams[i]
			}
			memo[i][d] = exec("model", newModelView(models[i], d, worst[models[i].Path], states[models[i].Path], dg))
		}
		return memo[i][d]
	}

	header := prefix + exec("header", newHeaderView(a, models, maxFindingsShown))
	level := make([]detail, len(models))
	total := runes(header)
	for i := range models {
		total += 1 + runes(section(i, full))
	}
	if total <= limit {
		return assemble(header, models, level, section, 0, "")
	}

	note := exec("note", pointer)
	budget := limit - 1 - runes(note)
	for d := noDiagram; d <= brief && total > budget; d++ {
		for i := len(models) - 1; i >= 0 && total > budget; i-- {
			total += runes(section(i, d)) - runes(section(i, level[i]))
			level[i] = d
		}
	}
	// The line that counts the models left out, as long as it can get.
	more := 1 + max(runes(exec("more", moreView{N: len(models)})), runes(exec("more", moreView{N: len(models), All: true})))
	dropped := 0
	for dropped < len(models) && total > budget {
		i := len(models) - 1 - dropped
		total -= 1 + runes(section(i, level[i]))
		dropped++
		if dropped == 1 {
			total += more
		}
	}
	if total <= budget {
		return assemble(header, models[:len(models)-dropped], level, section, dropped, note)
	}
	// No model section fits: fewer rows of the findings table.
	for rows := min(maxFindingsShown, len(a.Gate.Findings)); rows >= 0; rows-- {
		header = prefix + exec("header", newHeaderView(a, models, rows))
		if runes(header)+more <= budget {
			return assemble(header, nil, nil, section, len(models), note)
		}
	}
	// Not even that: the headline and the note, line by line as far as
	// they go.
	var b strings.Builder
	n := 0
	for _, line := range strings.SplitAfter(header+"\n"+note, "\n") {
		if n+runes(line) > limit {
			break
		}
		b.WriteString(line)
		n += runes(line)
	}
	return b.String()
}

func assemble(header string, models []*Model, level []detail, section func(int, detail) string, dropped int, note string) string {
	var b strings.Builder
	b.WriteString(header)
	for i := range models {
		b.WriteString("\n" + section(i, level[i]))
	}
	if dropped > 0 {
		b.WriteString("\n" + exec("more", moreView{N: dropped, All: len(models) == 0}))
	}
	if note != "" {
		b.WriteString("\n" + note)
	}
	return b.String()
}

// worstLevels maps a path to its worst finding level.
func worstLevels(fs []Finding) map[string]vocab.Action {
	out := make(map[string]vocab.Action)
	for _, f := range fs {
		if f.Level == vocab.ActionBlock || out[f.Path] == "" {
			out[f.Path] = f.Level
		}
	}
	return out
}

// cappedLines says, a line each, which settings of .setbot.yml the
// server's ceilings lowered for m.
func cappedLines(m *Model) []string {
	var lines []string
	for _, c := range m.Capped {
		lines = append(lines, fmt.Sprintf("⚠️ %s: %s asks for %s; the server's ceiling, %s, applies",
			code(c.Setting), code(".setbot.yml"), text(c.Asked), text(c.Ceiling)))
	}
	return lines
}

// errorLines are the rows of a model's errors, refusals marked, at most
// maxErrorRows of them.
func errorLines(m *Model) []string {
	var out []string
	for i, e := range m.Errors {
		if i == maxErrorRows {
			out = append(out, fmt.Sprintf("… and %d more", len(m.Errors)-i))
			break
		}
		where := ""
		if e.Line > 0 {
			where = fmt.Sprintf("line %d", e.Line)
			if e.Column > 0 {
				where += fmt.Sprintf(":%d", e.Column)
			}
			where = "**" + where + "**: "
		}
		if e.Path != "" && e.Path != m.Path {
			where = code(e.Path) + " " + where // a machine the model invokes
		}
		icon := "❌ "
		if e.Refused {
			icon = "🚫 "
		}
		out = append(out, icon+where+text(e.Message))
	}
	return out
}

// errorsLead says that errors stop the head from being analysed, and why
// they may not block: refusals, a new file, a base that could not be read.
func errorsLead(m *Model) string {
	lead := plural(len(m.Errors), "error stops", "errors stop") + " the head version from being analysed"
	if refused(m.Errors) {
		lead += " (🚫: a construct setbot does not support, which does not make the model broken)"
	}
	switch {
	case m.Status == Added:
		return lead + "; the file is new, and its first version does not block unless the gate asks (new_model_error, model_refused):"
	case len(m.BaseErrors) > 0:
		return lead + "; the base version could not be read either (" + text(baseUnread(m)) + "), and errors it has too are not the change's:"
	}
	return lead + ":"
}

// stateFindings maps a path and a state to the gate's finding about the
// state's reachability, counted or not: the reachability lines say how the
// gate took each.
func stateFindings(g Verdict) map[string]map[string]Finding {
	out := make(map[string]map[string]Finding)
	for _, fs := range [][]Finding{g.Findings, g.NotGated} {
		for _, f := range fs {
			switch f.Rule {
			case vocab.RuleUnreachableState, vocab.RuleNewModelUnreachable, vocab.RuleExpectedReached:
			default:
				continue
			}
			if out[f.Path] == nil {
				out[f.Path] = make(map[string]Finding)
			}
			out[f.Path][f.Subject] = f
		}
	}
	return out
}

// findingIcon marks a finding by its level; one the gate did not count is
// information.
func findingIcon(f Finding) string {
	if f.Level == vocab.ActionOff {
		return "ℹ️"
	}
	return levelIcon(f.Level)
}

// whyNot says, after a finding, why it does not block; "" when it does.
func whyNot(f Finding) string {
	if f.Reason == "" {
		return ""
	}
	switch {
	case f.Level == vocab.ActionOff:
		return " (not gated: " + f.Reason.Text() + ")"
	case f.Reason == vocab.ReasonRule:
		return " (not blocking: the gate's " + string(f.Rule) + " rule warns)"
	}
	return " (not blocking: " + f.Reason.Text() + ")"
}

// moreView says how many model sections were left out, and whether that
// is all of them.
type moreView struct {
	N   int
	All bool
}

type headerView struct {
	Icon, Verdict, Summary string
	Findings               []findingRow
	MoreFindings           int
}

type findingRow struct{ Icon, Text, Where string }

// ruleTitles name the rules in prose, singular and plural.
var ruleTitles = map[vocab.Rule][2]string{
	vocab.RuleUnreachableState:    {"newly unreachable state", "newly unreachable states"},
	vocab.RuleTransientState:      {"transient state", "transient states"},
	vocab.RuleInvariantViolation:  {"invariant violation", "invariant violations"},
	vocab.RuleBoundHit:            {"bound hit", "bounds hit"},
	vocab.RuleModelError:          {"model error", "model errors"},
	vocab.RuleRuntimeError:        {"run-time error", "run-time errors"},
	vocab.RuleOutputLost:          {"lost output", "lost outputs"},
	vocab.RuleNondeterminism:      {"new nondeterministic choice", "new nondeterministic choices"},
	vocab.RuleModelRefused:        {"refused model", "refused models"},
	vocab.RuleExpectedReached:     {"expected-unreachable state reached", "expected-unreachable states reached"},
	vocab.RuleNewModelUnreachable: {"unreachable state (no base)", "unreachable states (no base)"},
	vocab.RuleNewModelError:       {"model error (no base)", "model errors (no base)"},
}

// ruleOrder is the order in which counts are given.
var ruleOrder = []vocab.Rule{vocab.RuleUnreachableState, vocab.RuleExpectedReached, vocab.RuleTransientState, vocab.RuleInvariantViolation,
	vocab.RuleOutputLost, vocab.RuleNondeterminism, vocab.RuleModelError, vocab.RuleModelRefused, vocab.RuleRuntimeError,
	vocab.RuleNewModelUnreachable, vocab.RuleNewModelError, vocab.RuleBoundHit}

// counts spells how many findings of each rule there are at a level ("" for
// any level), e.g. "1 newly unreachable state, 2 bounds hit".
func counts(fs []Finding, level vocab.Action) string {
	n := make(map[vocab.Rule]int)
	for _, f := range fs {
		if level == "" || f.Level == level {
			n[f.Rule]++
		}
	}
	var parts []string
	for _, r := range ruleOrder {
		if n[r] > 0 {
			parts = append(parts, plural(n[r], ruleTitles[r][0], ruleTitles[r][1]))
		}
	}
	return strings.Join(parts, ", ")
}

func levelIcon(level vocab.Action) string {
	switch level {
	case vocab.ActionBlock:
		return "❌"
	case vocab.ActionWarn:
		return "⚠️"
	}
	return "✅"
}

// newHeaderView builds the headline and a table of at most rows findings.
func newHeaderView(a *Analysis, models []*Model, rows int) headerView {
	v := headerView{Icon: "✅", Verdict: "no regressions found"}
	switch a.Gate.Conclusion {
	case Failure:
		v.Icon, v.Verdict = "❌", "blocked"
	case Neutral:
		v.Icon, v.Verdict = "⚠️", "passed with warnings"
	}
	var blocks, warns int
	for _, f := range a.Gate.Findings {
		switch f.Level {
		case vocab.ActionBlock:
			blocks++
		case vocab.ActionWarn:
			warns++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s analysed", plural(len(models), "model", "models"))
	if a.Repo != "" {
		fmt.Fprintf(&b, " in %s", code(a.Repo))
	}
	fmt.Fprintf(&b, ", %s..%s: ", code(short(a.Base)), code(short(a.Head)))
	switch {
	case blocks+warns == 0:
		b.WriteString("no findings.")
	case warns == 0:
		fmt.Fprintf(&b, "%s (%s).", plural(blocks, "blocking finding", "blocking findings"), counts(a.Gate.Findings, vocab.ActionBlock))
	case blocks == 0:
		fmt.Fprintf(&b, "%s (%s).", plural(warns, "warning", "warnings"), counts(a.Gate.Findings, vocab.ActionWarn))
	default:
		fmt.Fprintf(&b, "%s (%s) and %s (%s).", plural(blocks, "blocking finding", "blocking findings"),
			counts(a.Gate.Findings, vocab.ActionBlock), plural(warns, "warning", "warnings"), counts(a.Gate.Findings, vocab.ActionWarn))
	}
	if n := len(a.Gate.NotGated); n > 0 {
		fmt.Fprintf(&b, " %s not gated (%s).", plural(n, "finding", "findings"), reasonCounts(a.Gate.NotGated))
	}
	v.Summary = b.String()
	if rows == 0 {
		return v
	}
	// Blocking findings first: they are what the table must not lose; those
	// the gate did not count last.
	fs := slices.Concat(a.Gate.Findings, a.Gate.NotGated)
	sort.SliceStable(fs, func(i, j int) bool { return levelRank(fs[i].Level) < levelRank(fs[j].Level) })
	for i, f := range fs {
		if i == rows {
			v.MoreFindings = len(fs) - i
			break
		}
		where := f.Path
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		v.Findings = append(v.Findings, findingRow{Icon: findingIcon(f),
			Text:  cell("**" + findingTitle(f) + "**: " + text(f.Message) + text(whyNot(f))),
			Where: codeCell(where)})
	}
	return v
}

// findingTitle names a finding's rule; one the base already had is not
// new.
func findingTitle(f Finding) string {
	if f.Reason == vocab.ReasonAtBase && f.Rule == vocab.RuleNondeterminism {
		return "nondeterministic choice"
	}
	return ruleTitles[f.Rule][0]
}

// levelRank orders levels for the findings table: block, warn, off.
func levelRank(l vocab.Action) int {
	return slices.Index(vocab.Actions, l)
}

// reasonCounts spells how many findings there are for each reason, e.g.
// "2 already at the base, 1 expected".
func reasonCounts(fs []Finding) string {
	n := make(map[vocab.Reason]int)
	var order []vocab.Reason
	for _, f := range fs {
		if n[f.Reason] == 0 {
			order = append(order, f.Reason)
		}
		n[f.Reason]++
	}
	parts := make([]string, len(order))
	for i, r := range order {
		parts[i] = fmt.Sprintf("%d %s", n[r], reasonShort[r])
	}
	return strings.Join(parts, ", ")
}

// reasonShort names the reasons a finding is not gated for, after a count.
var reasonShort = map[vocab.Reason]string{
	vocab.ReasonAtBase:   "already at the base",
	vocab.ReasonExpected: "expected unreachable",
}

type modelView struct {
	Heading, Lead string
	Errors        []string
	R             *ChangeAnalysis

	Brief, Unchanged      bool
	ShowTables, ShowTests bool
	BriefLine             string

	ChangesLine        string
	ChangeRows         []changeRow
	MoreChanges        int
	TransitionsSummary string
	Updated, Impacted  []string
	MoreTransitions    int

	ReuseLine, TestsLine, TestsSummary string
	TestRows                           []testRow
	MoreTests                          int

	Reach, Invariants, Bounds []string
	Outputs, Choices          []string
	Diagram                   *diagramResult

	// Capped says which settings of .setbot.yml the server's ceilings
	// lowered.
	Capped []string

	// Growth says what the black-box functions' commands computed;
	// GrownTables holds the rows to commit, by table.
	Growth      []string
	GrownTables []grownTable
}

// grownTable is the rows to append to one table file, as a fenced block.
type grownTable struct{ Table, Fence, Lines string }

type changeRow struct{ Kind, Subject, Line string }

type testRow struct{ ID, What, Steps, Final string }

func newModelView(m *Model, d detail, worst vocab.Action, states map[string]Finding, dg *diagramResult) modelView {
	v := modelView{R: m.ChangeAnalysis, Brief: d == brief, ShowTables: d < noTables, ShowTests: d < noTests, Diagram: dg}
	v.Heading = modelHeading(m, worst)
	if m.Status == Deleted {
		v.Lead = "The model was deleted: nothing is left to analyse, and its tests are gone with it."
	}
	if len(m.Through) > 0 {
		files := make([]string, len(m.Through))
		for i, f := range m.Through {
			files[i] = code(f)
		}
		v.Lead = "The model's file is unchanged; it reads " + strings.Join(files, ", ") +
			" (a machine it invokes, its data or scripts), which the change modified."
	}
	v.Errors = errorLines(m)
	v.Capped = cappedLines(m)
	v.Growth, v.GrownTables = growthView(m.TableGrowth)
	if len(m.Errors) > 0 && m.ChangeAnalysis == nil {
		v.Lead = errorsLead(m)
	}
	r := m.ChangeAnalysis
	if r == nil {
		return v
	}
	v.TestsLine = fmt.Sprintf("%d retained · %d changed oracle · %d obsolete · %d new",
		r.Tests.Retained, r.Tests.Changed, r.Tests.Obsolete, r.Tests.New)
	if r.TestsPartial {
		v.TestsLine += " (a partial tree: obsolete is an upper bound)"
	}
	var failing []string
	for _, c := range m.Invariants {
		if !c.Holds {
			failing = append(failing, "❌ "+invariantLine(c))
		}
	}
	v.Choices = choiceLines(r)
	v.Unchanged = len(r.Changes) == 0 && !r.NoBase && len(m.Errors) == 0 && len(v.GrownTables) == 0 && len(r.NewlyUnreachable) == 0 &&
		len(r.NewlyReachable) == 0 && len(r.NewlyTransient) == 0 && len(failing) == 0 && len(r.BoundsHit) == 0 &&
		len(r.OutputsLost) == 0 && newConflicts(r) == 0
	if v.Brief {
		v.BriefLine = briefLine(m, len(failing))
		return v
	}
	if v.Unchanged {
		return v
	}

	v.changes(m, r)
	v.ReuseLine = reuseLine(m)
	v.TestsSummary, v.TestRows, v.MoreTests = testRows(r.TestDelta)
	fresh := "in a new model"
	if len(m.BaseErrors) > 0 {
		fresh = "with no base version to compare with"
	}
	v.Reach = reachLines(r, states, fresh)
	v.Invariants = invariantLines(m.Invariants, failing)
	for _, o := range r.OutputsLost {
		v.Outputs = append(v.Outputs, outputLine(o))
	}
	v.Outputs = capRows(v.Outputs)
	for _, b := range r.BoundsHit {
		v.Bounds = append(v.Bounds, fmt.Sprintf("⚠️ the %s bound (%s) cut %s of the head tree: its results hold only within it (raise it with %s)",
			code(string(b.Bound)), b.Bound.FormatLimit(b.Limit), plural(b.Count, "path", "paths"), b.Bound.Setting()))
	}
	return v
}

// modelHeading is the heading of a model's section: its level, its path
// and what the change did to its file.
func modelHeading(m *Model, worst vocab.Action) string {
	h := levelIcon(worst) + " " + code(m.Path)
	if m.Status == Deleted {
		h = "🗑️ " + code(m.Path)
	}
	switch m.Status {
	case Renamed:
		h += " (renamed from " + code(m.OldPath) + ")"
	case "":
	default:
		h += " (" + text(m.Status) + ")"
	}
	return h
}

// changes fills in the source-level changes and the flattened transitions
// they updated and impacted.
func (v *modelView) changes(m *Model, r *ChangeAnalysis) {
	v.ChangesLine = changesLine(r)
	if r.NoBase {
		why := "there is no base version"
		switch {
		case m.Status == Added:
			why = "the file was added: " + why
		case len(m.BaseErrors) > 0:
			why = "the base version could not be read (" + text(baseUnread(m)) + "): it is compared with nothing"
		}
		v.ChangesLine = fmt.Sprintf("%s, so everything in it is new (%s).", why,
			plural(len(r.Impact.Changed), "flattened transition", "flattened transitions"))
	}
	for i, c := range r.Changes {
		if i == maxChangeRows {
			v.MoreChanges = len(r.Changes) - i
			break
		}
		v.ChangeRows = append(v.ChangeRows, changeRow{Kind: kindText(c.Kind), Subject: codeCell(c.Subject), Line: changeLine(c)})
	}
	v.TransitionsSummary = plain(fmt.Sprintf("%s updated and %s impacted",
		plural(len(r.Impact.Changed), "flattened transition", "flattened transitions"),
		plural(len(r.Impact.Impacted), "transition", "transitions")))
	n := 0
	for _, k := range r.Impact.Changed {
		if n < maxTransitions {
			v.Updated = append(v.Updated, k)
		}
		n++
	}
	for _, k := range r.Impact.Impacted {
		if n < maxTransitions {
			v.Impacted = append(v.Impacted, k)
		}
		n++
	}
	v.MoreTransitions = max(0, n-maxTransitions)

}

// invariantLines says which invariants fail (failing, already written),
// which hold only where their conversions are exact, and how many hold.
func invariantLines(invs []InvariantCheck, failing []string) []string {
	// An invariant that holds only where its conversions are exact is
	// told apart from those that hold outright.
	var qualified []string
	for _, c := range invs {
		if c.Holds && c.CutBy != "" {
			qualified = append(qualified, "⚠️ "+code(c.Invariant)+" holds only where the conversions it makes are exact (the "+code(string(c.CutBy))+" bound): it claims nothing of values such as a NaN")
		}
	}
	lines := failing
	held := len(invs) - len(failing) - len(qualified)
	switch {
	case held > 0 && len(failing)+len(qualified) == 0:
		lines = []string{"✅ " + plural(held, "invariant holds", "invariants hold") + " in every state explored"}
	case held == 1:
		lines = append(lines, "✅ the other invariant holds")
	case held > 1:
		lines = append(lines, fmt.Sprintf("✅ the %d other invariants hold", held))
	}
	lines = append(lines, qualified...)
	return lines
}

// growthView says what the commands of black-box functions computed and
// which rows to commit, by table, at most maxTestRows of them.
func growthView(g *TableGrowth) ([]string, []grownTable) {
	if g == nil {
		return nil, nil
	}
	var lines []string
	switch {
	case g.Refused != "":
		lines = append(lines, "The black-box functions' commands did not run: "+text(clip.Cut(g.Refused, MaxGrowthError, " … (cut)"))+
			". The analysis used the rows the tables hold.")
	case len(g.Rows) == 0:
		lines = append(lines, "The black-box functions' commands were allowed to run and computed no row.")
	default:
		them := "them"
		if len(g.Rows) == 1 {
			them = "it"
		}
		lines = append(lines, fmt.Sprintf("The black-box functions' commands computed %s, which the analysis used "+
			"(a test that relies on a row lists it among its rows). The repository's tables do not hold %s yet: append the lines below to commit %s.",
			plural(len(g.Rows), "row", "rows"), them, them))
	}
	for _, e := range g.Errors {
		lines = append(lines, "⚠️ "+text(clip.Cut(e, MaxGrowthError, " … (cut)"))+"; the analysis went on with the rows it had")
	}
	var tables []grownTable
	index := map[string]int{}
	for i, row := range g.Rows {
		if i == maxTestRows {
			lines = append(lines, fmt.Sprintf("… and %d more rows in the JSON report", len(g.Rows)-i))
			break
		}
		j, ok := index[row.Table]
		if !ok {
			j = len(tables)
			index[row.Table] = j
			tables = append(tables, grownTable{Table: code(row.Table)})
		}
		tables[j].Lines += row.CSV + "\n"
	}
	for i := range tables {
		tables[i].Fence = fence(tables[i].Lines)
	}
	return lines, tables
}

// fence is a code fence longer than any run of backticks in s.
func fence(s string) string {
	return strings.Repeat("`", max(3, longestRun(s, '`')+1))
}

func kindText(k diffmap.Kind) string { return strings.ReplaceAll(string(k), "_", " ") }

func changeLine(c Change) string {
	switch {
	case c.New != nil:
		return fmt.Sprint(c.New.Line)
	case c.Old != nil:
		return fmt.Sprintf("%d (base)", c.Old.Line)
	}
	return ""
}

func changesLine(r *ChangeAnalysis) string {
	src := "none in the source"
	if len(r.Changes) > 0 {
		src = plural(len(r.Changes), "in the source", "in the source")
	}
	// The impact measures in a reviewer's words (docs/background.md): M1 is
	// how much behaviour the change leaves alone, M2 how late in a run it
	// comes.
	return fmt.Sprintf("%s; %s of the flattened machine (one per configuration and event) updated, %s impacted "+
		"(their behaviour depends on an updated one); %s of the machine's complete runs avoid every change (M1), "+
		"and the others meet their first change %s of the way along on average (M2).",
		src, plural(len(r.Impact.Changed), "transition", "transitions"),
		plural(len(r.Impact.Impacted), "transition", "transitions"), percent(r.Impact.M1), percent(r.Impact.M2))
}

func percent(x float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", x), "0"), ".") + "%"
}

func reuseLine(m *Model) string {
	r := m.ChangeAnalysis
	where := func(cached bool) string {
		if cached {
			return "from the cache"
		}
		return "computed"
	}
	base, head := m.BaseCached, m.HeadCached
	if m.ResultCached {
		base, head = m.Computed.BaseCached, m.Computed.HeadCached
	}
	undecided := ""
	if r.SolverUnknown > 0 {
		undecided = fmt.Sprintf(" ⚠️ %s undecided within the solver's time limit: a state reached only through them is not proven reachable.",
			plural(r.SolverUnknown, "solver query", "solver queries"))
	}
	if r.NoBase {
		return fmt.Sprintf("No base version: executed %s, %s. Tree %s.",
			plural(r.NewStates, "state", "states"), plural(r.SolverCalls, "solver call", "solver calls"), where(head)) + undecided
	}
	return fmt.Sprintf("Reused %s of the base tree, executed %s, %s. Base tree %s, head tree %s.",
		plural(r.ReusedStates, "state", "states"), plural(r.NewStates, "new state", "new states"),
		plural(r.SolverCalls, "solver call", "solver calls"), where(base), where(head)) + undecided
}

// testRows lists the new and changed-oracle tests, new first.
func testRows(d *TestDelta) (summary string, rows []testRow, more int) {
	if d == nil || len(d.New)+len(d.Changed) == 0 {
		return "", nil, 0
	}
	add := func(what string, ts []Test) {
		for _, t := range ts {
			if len(rows) == maxTestRows {
				more++
				continue
			}
			var steps []string
			for i, s := range t.Steps {
				line := fmt.Sprintf("%d. %s", i+1, code(stepInput(s)))
				var outs []string
				for _, o := range s.Outputs {
					outs = append(outs, code(call(o.Event, o.Args)))
				}
				if len(outs) > 0 {
					line += " → " + strings.Join(outs, ", ")
				}
				steps = append(steps, line)
			}
			if len(steps) == 0 {
				steps = []string{"(no input)"}
			}
			rows = append(rows, testRow{ID: codeCell(t.ID), What: what, Steps: cell(strings.Join(steps, "<br>")),
				Final: codeCell(strings.Join(t.Final, ", "))})
		}
	}
	add("new", d.New)
	add("changed oracle", d.Changed)
	var parts []string
	if len(d.New) > 0 {
		parts = append(parts, plural(len(d.New), "new test", "new tests"))
	}
	if len(d.Changed) > 0 {
		parts = append(parts, plural(len(d.Changed), "test with a changed oracle", "tests with a changed oracle"))
	}
	return plain(strings.Join(parts, " and ") + ", with their inputs"), rows, more
}

// reachLines lists the reachability changes, newly unreachable first.
// The gate's finding about each state (states) gives its mark and why it
// does not block; fresh qualifies the unreachable states of a model with
// no base version.
func reachLines(r *ChangeAnalysis, states map[string]Finding, fresh string) []string {
	var out []string
	mark := func(state, icon string) (string, string) {
		if f, ok := states[state]; ok {
			return findingIcon(f), text(whyNot(f))
		}
		return icon, ""
	}
	for _, s := range r.NewlyUnreachable {
		if s.CutBy != "" {
			out = append(out, fmt.Sprintf("⚠️ %s%s: not reached before the %s bound cut the tree (it may still be reachable)", code(s.State), lineSuffix(s.Line), s.CutBy))
			continue
		}
		icon, why := mark(s.State, "❌")
		if r.NoBase {
			out = append(out, fmt.Sprintf("%s %s%s: %s %s%s", icon, code(s.State), lineSuffix(s.Line), gate.Unreachable(s.Within), fresh, why))
			continue
		}
		out = append(out, fmt.Sprintf("%s %s%s: newly %s%s", icon, code(s.State), lineSuffix(s.Line), gate.Unreachable(s.Within), why))
	}
	for _, s := range r.NewlyTransient {
		out = append(out, fmt.Sprintf("↪️ %s%s: entered but %s (transient: the machine only passes through it)",
			code(s.State), lineSuffix(s.Line), gate.NeverStable(s.Within)))
	}
	for _, s := range r.NewlyReachable {
		f, ok := states[s.State]
		switch {
		case ok:
			out = append(out, fmt.Sprintf("%s %s%s: reachable, though declared unreachable%s", findingIcon(f), code(s.State), lineSuffix(s.Line), text(whyNot(f))))
		case !r.NoBase:
			out = append(out, fmt.Sprintf("➕ %s%s: newly reachable", code(s.State), lineSuffix(s.Line)))
		}
	}
	return capRows(out)
}

// refused reports whether every one of a non-empty list of errors is a
// refusal.
func refused(ds []Diagnostic) bool {
	for _, d := range ds {
		if !d.Refused {
			return false
		}
	}
	return len(ds) > 0
}

// baseUnread says why a model's base version could not be read: its first
// error, where it is.
func baseUnread(m *Model) string {
	e := m.BaseErrors[0]
	msg := e.Message
	if e.Line > 0 {
		msg = fmt.Sprintf("line %d: %s", e.Line, msg)
	}
	if n := len(m.BaseErrors) - 1; n > 0 {
		msg += fmt.Sprintf("; and %d more", n)
	}
	return msg
}

func capRows(out []string) []string {
	if len(out) > maxReachRows {
		n := len(out) - maxReachRows
		out = append(out[:maxReachRows], fmt.Sprintf("… and %d more", n))
	}
	return out
}

func lineSuffix(line int) string {
	if line > 0 {
		return fmt.Sprintf(" (line %d)", line)
	}
	return ""
}

func outputLine(o OutputRef) string {
	if o.CutBy != "" {
		return fmt.Sprintf("⚠️ %s: sent at base, not sent before the %s bound cut the head tree (it may still be)", code(o.Output), o.CutBy)
	}
	never := "never sent at head"
	if o.Within > 0 {
		never = fmt.Sprintf("not sent at head within %d events", o.Within)
	}
	s := fmt.Sprintf("⚠️ %s: sent at base, %s", code(o.Output), never)
	if o.BaseWitness != nil {
		s += "; the base sends it after " + code(inputs(o.BaseWitness))
	}
	return s
}

// newConflicts counts the conflicts the change made.
func newConflicts(r *ChangeAnalysis) int {
	n := 0
	for _, c := range r.Nondeterminism {
		if !c.AtBase {
			n++
		}
	}
	return n
}

// choiceLines lists the conflicts the change made, and counts those the
// base has too.
func choiceLines(r *ChangeAnalysis) []string {
	var out []string
	for _, c := range r.Nondeterminism {
		if c.AtBase {
			continue
		}
		s := fmt.Sprintf("⚠️ on %s in %s, %s and %s%s can both fire: priority takes %s", code(c.Event), code(c.State),
			code(c.Taken), code(c.Shadows), lineSuffix(c.Line), code(c.Taken))
		if c.Witness != nil {
			s += ", reached by " + code(inputs(c.Witness))
		}
		out = append(out, s)
	}
	out = capRows(out)
	if old := len(r.Nondeterminism) - newConflicts(r); old > 0 {
		out = append(out, plural(old, "choice of this kind was", "choices of this kind were")+" already in the base version")
	}
	if len(out) > 0 && r.NondeterminismPartial {
		out = append(out, "looked for on a partial (DSE) tree: there may be more")
	}
	return out
}

func invariantLine(c InvariantCheck) string {
	s := code(c.Invariant)
	if c.Implied != "" {
		s += " (implied by " + code(c.Implied) + ")"
	}
	s += " is violated"
	if c.State != "" {
		s += " in " + code(c.State)
	}
	if c.Witness != nil {
		s += ", reached by " + code(inputs(c.Witness))
	}
	return s
}

func briefLine(m *Model, failing int) string {
	r := m.ChangeAnalysis
	parts := []string{code(string(r.Strategy)), plural(len(r.Changes), "change", "changes")}
	if n := len(r.NewlyUnreachable); n > 0 {
		parts = append(parts, plural(n, "newly unreachable state", "newly unreachable states"))
	}
	if n := len(r.NewlyReachable); n > 0 && !r.NoBase {
		parts = append(parts, plural(n, "newly reachable state", "newly reachable states"))
	}
	if n := len(r.NewlyTransient); n > 0 {
		parts = append(parts, plural(n, "transient state", "transient states"))
	}
	if failing > 0 {
		parts = append(parts, plural(failing, "invariant violated", "invariants violated"))
	}
	if n := len(r.OutputsLost); n > 0 {
		parts = append(parts, plural(n, "lost output", "lost outputs"))
	}
	if n := newConflicts(r); n > 0 {
		parts = append(parts, plural(n, "new nondeterministic choice", "new nondeterministic choices"))
	}
	if n := len(r.BoundsHit); n > 0 {
		parts = append(parts, plural(n, "bound hit", "bounds hit"))
	}
	return strings.Join(parts, "; ") + "; tests: " + fmt.Sprintf("%d retained · %d changed oracle · %d obsolete · %d new.",
		r.Tests.Retained, r.Tests.Changed, r.Tests.Obsolete, r.Tests.New)
}
