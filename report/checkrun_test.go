package report

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/setbot/setbot/vocab"
)

func TestCheckRun(t *testing.T) {
	a := fixtureAnalysis(t)
	out := CheckRun(a, Options{})
	if want := "6 models analysed: 1 newly unreachable state, 1 invariant violation, 4 lost outputs, 3 model errors, 1 bound hit"; out.Title != want {
		t.Errorf("title %q, want %q", out.Title, want)
	}
	if strings.Contains(out.Summary, Marker) {
		t.Error("the summary carries the comment's marker")
	}
	if n := utf8.RuneCountInString(out.Summary); n > MaxSummary {
		t.Errorf("summary of %d characters", n)
	}
	if comment := Markdown(a, Options{}); comment != Marker+"\n"+out.Summary {
		t.Error("the summary is not the comment without its marker")
	}
	levels := map[vocab.Action]string{vocab.ActionBlock: LevelFailure, vocab.ActionWarn: LevelWarning}
	for i, f := range a.Gate.Findings {
		an := out.Annotations[i]
		wantLine := max(f.Line, 1)
		if an.Path != f.Path || an.StartLine != wantLine || an.EndLine != wantLine || an.Level != levels[f.Level] || an.Message != f.Message {
			t.Errorf("annotation %d = %+v for finding %+v", i, an, f)
		}
	}
	notices := out.Annotations[len(a.Gate.Findings):]
	var want []string
	for _, m := range sortedModels(a.Models) {
		if m.ChangeAnalysis != nil {
			for _, c := range m.Changes {
				if c.New != nil {
					want = append(want, fmt.Sprintf("%s:%d", m.Path, c.New.Line))
				}
			}
		}
	}
	var got []string
	for _, n := range notices {
		if n.Level != LevelNotice {
			t.Errorf("annotation %+v after the findings is not a notice", n)
		}
		got = append(got, fmt.Sprintf("%s:%d", n.Path, n.StartLine))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("notices on %v, want %v", got, want)
	}
}

func TestCheckRunLimits(t *testing.T) {
	huge := hugeAnalysis(t, 40)
	out := CheckRun(huge, Options{})
	if n := utf8.RuneCountInString(out.Summary); n > MaxSummary {
		t.Errorf("summary of %d characters, limit %d", n, MaxSummary)
	}
	checkBalanced(t, out.Summary)
	if !strings.HasSuffix(strings.TrimSpace(out.Summary), "Run `setbot analyze --format json` locally for the full report.") {
		t.Error("a shortened summary does not end with the note")
	}
	notices := 0
	for _, an := range out.Annotations {
		if an.Level == LevelNotice {
			notices++
		}
		if an.StartLine < 1 || an.EndLine < an.StartLine {
			t.Errorf("annotation on lines %d-%d", an.StartLine, an.EndLine)
		}
	}
	if notices != MaxNotices {
		t.Errorf("%d notices, want the cap %d", notices, MaxNotices)
	}
	if len(out.Annotations) != len(huge.Gate.Findings)+MaxNotices {
		t.Errorf("%d annotations, want one per finding (%d) and %d notices", len(out.Annotations), len(huge.Gate.Findings), MaxNotices)
	}
	small := CheckRun(huge, Options{Limit: 5000})
	if n := utf8.RuneCountInString(small.Summary); n > 5000 {
		t.Errorf("summary of %d characters, limit 5000", n)
	}
}

func TestCheckRunTitle(t *testing.T) {
	m := &Model{Path: "a.scxml", Status: Modified}
	a := &Analysis{Models: []*Model{m}, Gate: judge(nil, []*Model{m})}
	if got := CheckRun(a, Options{}).Title; got != "1 model analysed: no findings" {
		t.Errorf("title %q", got)
	}
}
