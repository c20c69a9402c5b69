package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/analysis"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// checkBalanced fails when a Markdown or HTML construct is left open.
func checkBalanced(t *testing.T, body string) {
	t.Helper()
	if o, c := strings.Count(body, "<details>"), strings.Count(body, "</details>"); o != c {
		t.Errorf("%d <details> opened, %d closed", o, c)
	}
	if o, c := strings.Count(body, "<summary>"), strings.Count(body, "</summary>"); o != c {
		t.Errorf("%d <summary> opened, %d closed", o, c)
	}
	fences := 0
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "```") {
			fences++
		}
	}
	if fences%2 != 0 {
		t.Errorf("%d code fence lines: one is left open", fences)
	}
	if !utf8.ValidString(body) {
		t.Error("the body is not valid UTF-8: a character was cut")
	}
}

// genSCXML writes a model of groups compound states of size atomic states
// each: every state moves on to the next and resets to the first of its
// group, and the groups form a ring. variant changes one guard.
func genSCXML(groups, size int, variant bool) []byte {
	var b strings.Builder
	b.WriteString(`<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="g0">` + "\n")
	b.WriteString(`<datamodel><data id="n" expr="0"/></datamodel>` + "\n")
	for g := range groups {
		fmt.Fprintf(&b, "<state id=\"g%d\" initial=\"g%d.s0\">\n", g, g)
		fmt.Fprintf(&b, "  <transition event=\"hop\" target=\"g%d\"/>\n", (g+1)%groups)
		for s := range size {
			cond := "n &lt; 5"
			if variant && g == 0 && s == 0 {
				cond = "n &lt; 4"
			}
			fmt.Fprintf(&b, "  <state id=\"g%d.s%d\">\n", g, s)
			fmt.Fprintf(&b, "    <transition event=\"next\" cond=\"%s\" target=\"g%d.s%d\"><assign location=\"n\" expr=\"n + 1\"/></transition>\n",
				cond, g, (s+1)%size)
			fmt.Fprintf(&b, "    <transition event=\"reset\" target=\"g%d.s0\"><assign location=\"n\" expr=\"0\"/></transition>\n", g)
			b.WriteString("  </state>\n")
		}
		b.WriteString("</state>\n")
	}
	b.WriteString("</scxml>\n")
	return []byte(b.String())
}

func loadBytes(t testing.TB, name string, src []byte) *mlm.Machine {
	t.Helper()
	m, err := load.Bytes(context.Background(), name, src, load.Options{})
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	return m
}

var (
	bigOnce  sync.Once
	bigModel *Model
)

// bigChange is a real analysis of a change to a generated model with 180
// states and 340 transitions, explored to depth 3.
func bigChange(t testing.TB) *Model {
	bigOnce.Do(func() {
		base := loadBytes(t, "big.scxml", genSCXML(20, 8, false))
		head := loadBytes(t, "big.scxml", genSCXML(20, 8, true))
		r, err := incremental.Analyze(context.Background(), base, head,
			incremental.Request{Engine: engine.Options{MaxDepth: 3}, Solver: newZ3})
		if err != nil {
			t.Fatal(err)
		}
		r.Base.Ms, r.Head.Ms = 0, 0
		bigModel = withResult(&Model{Path: "models/big.scxml", Status: Modified, HeadMachine: head}, r)
	})
	if bigModel == nil {
		t.Fatal("the generated model could not be analysed")
	}
	return bigModel
}

// hugeAnalysis repeats the fixture's models under n sets of paths, with
// the big generated model.
func hugeAnalysis(t testing.TB, n int) *Analysis {
	fx := fixtureAnalysis(t)
	var models []*Model
	for i := range n {
		for _, m := range fx.Models {
			c := *m
			c.Path = fmt.Sprintf("models/copy%03d/%s", i, strings.TrimPrefix(m.Path, "models/"))
			models = append(models, &c)
		}
	}
	models = append(models, bigChange(t))
	return &Analysis{Base: baseSHA, Head: headSHA, Models: models, Gate: judge(nil, models)}
}

func TestMarkdownFits(t *testing.T) {
	a := fixtureAnalysis(t)
	body := Markdown(a, Options{})
	if !strings.HasPrefix(body, Marker+"\n") {
		t.Errorf("the comment does not start with the marker: %q", body[:40])
	}
	if strings.Contains(body, "shortened") {
		t.Error("a report that fits was shortened")
	}
	checkBalanced(t, body)
	for _, want := range []string{"❌ setbot: blocked", "`b79b934`..`4f0e9a8`", "(renamed from `models/old/triangle_audit.scxml`)",
		"(deleted)", "```mermaid", "No change in behaviour", "newly unreachable", "`volume != 7` is violated"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q", want)
		}
	}
}

func TestMarkdownTruncation(t *testing.T) {
	huge := hugeAnalysis(t, 40)
	const url = "https://github.com/acme/controllers/runs/42"
	for _, limit := range []int{0, 40000, 12000, 3000, 600, 120} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			want := limit
			if want == 0 {
				want = MaxComment
			}
			for _, opts := range []Options{{Limit: limit, CheckRunURL: url}, {Limit: limit}} {
				body := Markdown(huge, opts)
				if n := utf8.RuneCountInString(body); n > want {
					t.Errorf("%d characters, limit %d", n, want)
				}
				if !strings.HasPrefix(body, Marker) {
					t.Error("the marker is missing")
				}
				checkBalanced(t, body)
				pointer := "Run `setbot analyze` locally for the full report."
				if opts.CheckRunURL != "" {
					pointer = "The full report is in the [check run](" + url + ")."
				}
				if limit >= 600 && !strings.HasSuffix(strings.TrimSpace(body), pointer) {
					t.Errorf("the body does not end with the note pointing to %q:\n…%s", pointer, body[max(0, len(body)-300):])
				}
				if limit >= 600 && !strings.Contains(body, "This report was shortened") {
					t.Error("no note says the report was shortened")
				}
			}
		})
	}
}

// TestMarkdownDropOrder checks that detail goes in order: the diagrams
// first, then the test details, then the change tables.
func TestMarkdownDropOrder(t *testing.T) {
	a := fixtureAnalysis(t)
	full := Markdown(a, Options{})
	n := utf8.RuneCountInString(full)
	count := func(s, sub string) int { return strings.Count(s, sub) }

	one := Markdown(a, Options{Limit: n - 1})
	if count(one, "```mermaid") >= count(full, "```mermaid") {
		t.Error("a report one character too long kept all its diagrams")
	}
	if count(one, "with their inputs</summary>") != count(full, "with their inputs</summary>") {
		t.Error("test details went before the diagrams")
	}

	noDiagrams := n
	for _, d := range strings.Split(full, "<details><summary>State diagram")[1:] {
		noDiagrams -= utf8.RuneCountInString(d[:strings.Index(d, "</details>")])
	}
	tests := Markdown(a, Options{Limit: noDiagrams - 400})
	if count(tests, "```mermaid") != 0 {
		t.Error("diagrams kept while test details went")
	}
	if count(tests, "| Change | Subject | Line |") != count(full, "| Change | Subject | Line |") {
		t.Error("change tables went before the test details")
	}
	if count(tests, "with their inputs</summary>") == count(full, "with their inputs</summary>") {
		t.Error("no test details went")
	}
}

func TestMarkdownCountsRunes(t *testing.T) {
	a := fixtureAnalysis(t)
	full := Markdown(a, Options{})
	// The headline's emoji and the ⚠ and → signs take more bytes than
	// characters: a limit of exactly the length in characters fits.
	n := utf8.RuneCountInString(full)
	if len(full) == n {
		t.Fatal("the report has no multi-byte characters to test with")
	}
	if got := Markdown(a, Options{Limit: n}); got != full {
		t.Error("a report exactly at the limit in characters was shortened")
	}
}

func TestMarkdownBigModelDiagram(t *testing.T) {
	m := bigChange(t)
	a := &Analysis{Base: baseSHA, Head: headSHA, Models: []*Model{m}, Gate: judge(nil, []*Model{m})}
	body := Markdown(a, Options{})
	checkBalanced(t, body)
	if !strings.Contains(body, fmt.Sprintf("%d transitions drawn, ", MaxDiagramEdges)) || !strings.Contains(body, "left out to keep the diagram legible") {
		t.Errorf("the diagram of a model with 340 transitions does not say how many were left out")
	}
	if !strings.Contains(body, "⚠ next [n #lt; 4]") {
		t.Error("the changed transition is not drawn, or not marked")
	}
}

func TestMarkdownEscapes(t *testing.T) {
	m := &Model{Path: "models/x|y.scxml", Status: Modified, Errors: []Diagnostic{
		{Path: "models/x|y.scxml", Line: 2, Column: 1, Message: "bad <script>alert(1)</script> @octocat #12 *x* `t` | [a](b)"},
	}}
	a := &Analysis{Base: baseSHA, Head: headSHA, Models: []*Model{m}, Gate: judge(nil, []*Model{m})}
	body := Markdown(a, Options{})
	for _, bad := range []string{"<script>", " @octocat", " #12", "*x*", "[a](b)"} {
		if strings.Contains(body, bad) {
			t.Errorf("the comment contains %q unescaped:\n%s", bad, body)
		}
	}
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "| ❌") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 4 {
			t.Errorf("a pipe in a finding breaks its table row: %s", line)
		}
	}
}

func TestCode(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a", "`a`"},
		{"a`b", "``a`b``"},
		{"`a", "`` `a ``"},
		{"a\nb", "`a b`"},
		{"", "` `"},
	}
	for _, tc := range tests {
		if got := code(tc.in); got != tc.want {
			t.Errorf("code(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestMarkdownTruncationNoFindings shortens a report with no findings
// table to fall back on.
func TestMarkdownTruncationNoFindings(t *testing.T) {
	huge := hugeAnalysis(t, 10)
	huge.Gate = judge(allRulesOff(), huge.Models)
	for _, limit := range []int{5000, 700} {
		body := Markdown(huge, Options{Limit: limit})
		if n := utf8.RuneCountInString(body); n > limit {
			t.Errorf("%d characters, limit %d", n, limit)
		}
		checkBalanced(t, body)
		if !strings.Contains(body, "✅ setbot: no regressions found") || !strings.Contains(body, "This report was shortened") {
			t.Errorf("limit %d:\n%s", limit, body)
		}
	}
	if body := Markdown(huge, Options{Limit: 700}); !strings.Contains(body, "… and 60 more models, left out for length.") {
		t.Errorf("the report does not say how many models were left out:\n%s", body)
	}
	if body := Markdown(huge, Options{Limit: 500}); !strings.Contains(body, "The 61 model sections were left out for length.") {
		t.Errorf("the report does not say that every section was left out:\n%s", body)
	}
}

// TestNewModelMarkdown checks how the comment shows a model with no base:
// no base row, no reuse of a base tree, and its never-entered states as
// unreachable in a new model.
func TestNewModelMarkdown(t *testing.T) {
	res := &incremental.Result{Strategy: vocab.StrategyFull, NoBase: true, NewStates: 6, SolverCalls: 3,
		Head:             incremental.Size{States: 6, Paths: 3},
		Changes:          []diffmap.Change{},
		NewlyUnreachable: []incremental.StateRef{{State: "Never", Line: 7}},
		TestDelta:        &testgen.Delta{}}
	body := Markdown(&Analysis{Models: []*Model{withResult(&Model{Path: "m.scxml", Status: Added}, res)}}, Options{})
	for _, want := range []string{"the file was added: there is no base version", "| head | 6 | 3 |",
		"No base version: executed 6 states, 3 solver calls. Tree computed.", "`Never` (line 7): unreachable in a new model"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	for _, bad := range []string{"| base |", "of the base tree", "newly unreachable`"} {
		if strings.Contains(body, bad) {
			t.Errorf("the comment has %q:\n%s", bad, body)
		}
	}
}

// TestUndecidedQueriesMarkdown: queries the solver left undecided qualify
// the head tree in the comment.
func TestUndecidedQueriesMarkdown(t *testing.T) {
	res := &incremental.Result{Strategy: vocab.StrategyFull, NoBase: true, NewStates: 2, SolverCalls: 3, SolverUnknown: 1,
		Head: incremental.Size{States: 2, Paths: 1}, Changes: []diffmap.Change{}, TestDelta: &testgen.Delta{}}
	body := Markdown(&Analysis{Models: []*Model{withResult(&Model{Path: "m.scxml", Status: Added}, res)}}, Options{})
	if want := "1 solver query undecided within the solver's time limit: a state reached only through them is not proven reachable"; !strings.Contains(body, want) {
		t.Errorf("the comment lacks %q:\n%s", want, body)
	}
}

// TestEveryRuleHasATitle checks that the comment can name every rule of
// the gate, and counts it in the headline.
func TestEveryRuleHasATitle(t *testing.T) {
	for _, r := range vocab.Rules {
		if ruleTitles[r][0] == "" || ruleTitles[r][1] == "" {
			t.Errorf("rule %s has no title in the comment", r)
		}
		if !slices.Contains(ruleOrder, r) {
			t.Errorf("rule %s is not counted in the headline", r)
		}
	}
}

// allRulesOff is a gate that turns every rule off.
func allRulesOff() vocab.RuleActions {
	g := vocab.RuleActions{}
	for _, r := range vocab.Rules {
		g[r] = vocab.ActionOff
	}
	return g
}

// TestGrowthErrorsAreCut: an error of a black-box command, which quotes
// what the repository's code printed, takes a bounded part of the
// comment and of the JSON.
func TestGrowthErrorsAreCut(t *testing.T) {
	res := &incremental.Result{Strategy: vocab.StrategyFull, NoBase: true, NewStates: 2,
		Head: incremental.Size{States: 2, Paths: 1}, Changes: []diffmap.Change{}, TestDelta: &testgen.Delta{}}
	long := "growing the tables: running bin/scale 2: exit status 3: " + strings.Repeat("é", 10000)
	g := &TableGrowth{Rows: []GrownRow{}, Errors: []string{}}
	g.AddError(long)
	if n := len(g.Errors[0]); n > MaxGrowthError+20 || !strings.HasSuffix(g.Errors[0], "(cut)") || !utf8.ValidString(g.Errors[0]) {
		t.Errorf("AddError kept %d bytes, want at most %d and a mark of the cut", n, MaxGrowthError)
	}
	m := withResult(&Model{Path: "m.scxml", Status: Added}, res)
	m.TableGrowth = &TableGrowth{Rows: []GrownRow{}, Errors: []string{long}}
	body := Markdown(&Analysis{Models: []*Model{m}}, Options{})
	if !strings.Contains(body, "running bin/scale 2") {
		t.Fatalf("the comment lacks the error:\n%s", body)
	}
	if n := strings.Count(body, "é"); n > MaxGrowthError/2 {
		t.Errorf("the comment quotes %d characters of the command's error", n)
	}
}

// TestQualifiedInvariantMarkdown: an invariant that holds only where the
// conversions it makes are exact is not counted with those that hold.
func TestQualifiedInvariantMarkdown(t *testing.T) {
	res := &incremental.Result{Strategy: vocab.StrategyFull, NoBase: true, NewStates: 2,
		Head: incremental.Size{States: 2, Paths: 1}, Changes: []diffmap.Change{}, TestDelta: &testgen.Delta{},
		Invariants: []analysis.InvariantCheck{
			{Invariant: "x >= 0", Holds: true},
			{Invariant: "parseInt(s) > 0", Holds: true, CutBy: vocab.BoundNumber},
		}}
	body := Markdown(&Analysis{Models: []*Model{withResult(&Model{Path: "m.scxml", Status: Added}, res)}}, Options{})
	for _, want := range []string{"✅ the other invariant holds", "`parseInt(s) > 0` holds only where the conversions it makes are exact"} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "2 invariants hold") {
		t.Errorf("the qualified invariant is counted with those that hold:\n%s", body)
	}
}

// TestCappedReported: a setting the server's ceiling lowered is a line
// under its model in the comment and the check run, and an entry in the
// model's JSON, with what it asked and the ceiling.
func TestCappedReported(t *testing.T) {
	res := &incremental.Result{Strategy: vocab.StrategyFull, NoBase: true, NewStates: 2,
		Head: incremental.Size{States: 2, Paths: 1}, Changes: []diffmap.Change{}, TestDelta: &testgen.Delta{},
		BoundsHit: []engine.BoundHit{{Bound: vocab.BoundMemory, Limit: 64 << 20, Count: 3}}}
	m := withResult(&Model{Path: "m.scxml", Status: Added}, res)
	m.Capped = []Capped{{Setting: "bounds.max_states", Asked: "1000000000000", Ceiling: "2000000"}}
	a := &Analysis{Models: []*Model{m}}
	a.Gate = judge(vocab.DefaultRuleActions(), a.Models)
	const line = "⚠️ `bounds.max_states`: `.setbot.yml` asks for 1000000000000; the server's ceiling, 2000000, applies"
	for name, body := range map[string]string{"comment": Markdown(a, Options{}), "check run": CheckRun(a, Options{}).Summary} {
		if !strings.Contains(body, line) {
			t.Errorf("the %s lacks the capped line:\n%s", name, body)
		}
		if !strings.Contains(body, "the `memory` bound (64MiB) cut 3 paths") {
			t.Errorf("the %s lacks the memory bound:\n%s", name, body)
		}
	}
	var doc struct {
		Models []struct {
			Capped []map[string]string `json:"capped"`
		} `json:"models"`
	}
	var out bytes.Buffer
	if err := WriteJSON(&out, a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	want := []map[string]string{{"setting": "bounds.max_states", "asked": "1000000000000", "ceiling": "2000000"}}
	if len(doc.Models) != 1 || !reflect.DeepEqual(doc.Models[0].Capped, want) {
		t.Errorf("JSON models %+v, want capped %v", doc.Models, want)
	}
}
