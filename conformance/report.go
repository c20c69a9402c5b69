package conformance

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
)

// Counts are how many tests got each verdict.
type Counts struct {
	Tests             int `json:"tests"`
	Right             int `json:"right"`
	RightWithinBounds int `json:"right_within_bounds"` // of Right, those qualified by a bound
	Wrong             int `json:"wrong"`
	KnownWrong        int `json:"known_wrong"` // of Wrong, those on the known-wrong list
	NeedsTime         int `json:"needs_time"`
	Refused           int `json:"refused"`
	Errors            int `json:"errors"`
	Missing           int `json:"missing"`
}

// Counts counts the verdicts.
func (r *Report) Counts() Counts {
	var c Counts
	c.Tests = len(r.Results)
	for _, res := range r.Results {
		switch res.Verdict {
		case Right:
			c.Right++
			if res.Qualified {
				c.RightWithinBounds++
			}
		case Wrong:
			c.Wrong++
			if res.KnownWrong != "" {
				c.KnownWrong++
			}
		case NeedsTime:
			c.NeedsTime++
		case Refused:
			c.Refused++
		case Error:
			c.Errors++
		case Missing:
			c.Missing++
		}
	}
	return c
}

// Summary is the headline: "159 mandatory automatic tests: 45 judged
// right, 4 judged wrong, 0 need timed semantics, 109 refused, 0 errors,
// 1 missing", with the right ones qualified by a bound and the known-wrong
// ones said in parentheses when there are any.
func (r *Report) Summary() string {
	c := r.Counts()
	what := "mandatory automatic tests"
	if r.All {
		what = "tests (all of the manifest)"
	}
	right := fmt.Sprintf("%d judged right", c.Right)
	if c.RightWithinBounds > 0 {
		right += fmt.Sprintf(" (%d within bounds only)", c.RightWithinBounds)
	}
	wrong := fmt.Sprintf("%d judged wrong", c.Wrong)
	if c.KnownWrong > 0 {
		wrong += fmt.Sprintf(" (%d known)", c.KnownWrong)
	}
	return fmt.Sprintf("%d %s: %s, %s, %d need timed semantics, %d refused, %d errors, %d missing",
		c.Tests, what, right, wrong, c.NeedsTime, c.Refused, c.Errors, c.Missing)
}

// Refusal is one reason setbot refuses tests, with the tests it refuses.
type Refusal struct {
	Reason string   `json:"reason"`
	Count  int      `json:"count"`
	Tests  []string `json:"tests"`
}

// quoted matches what a refusal names in double quotes (a variable, a send
// type): such messages give one reason whatever the name.
var quoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// reasonKey is a refusal's reason with what its first clause (up to the
// first ": ", where the hint starts) names in double quotes elided; the
// hint is kept as it is.
func reasonKey(msg string) string {
	inQuote := false
	for i := 0; i < len(msg); i++ {
		switch {
		case msg[i] == '\\' && inQuote:
			i++
		case msg[i] == '"':
			inQuote = !inQuote
		case !inQuote && strings.HasPrefix(msg[i:], ": "):
			return quoted.ReplaceAllString(msg[:i], `"…"`) + msg[i:]
		}
	}
	return quoted.ReplaceAllString(msg, `"…"`)
}

// Refusals groups the refused tests by the first error of each refused
// document (reasonKey); most common first, then alphabetically.
func (r *Report) Refusals() []Refusal {
	byReason := make(map[string]*Refusal)
	for _, res := range r.Results {
		if res.Verdict != Refused {
			continue
		}
		for _, f := range res.Files {
			if f.Verdict != Refused {
				continue
			}
			reason := reasonKey(f.Reason)
			g := byReason[reason]
			if g == nil {
				g = &Refusal{Reason: reason}
				byReason[reason] = g
			}
			if !slices.Contains(g.Tests, res.ID) {
				g.Tests = append(g.Tests, res.ID)
				g.Count++
			}
		}
	}
	out := make([]Refusal, 0, len(byReason))
	for _, g := range byReason {
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b Refusal) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}

// WriteText writes the table (a line per test: id, verdict, reason), the
// summary, the known-wrong tests and the refusal reasons.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "test\tverdict\treason")
	for _, res := range r.Results {
		reason := res.Reason
		if res.KnownWrong != "" {
			reason += " [known wrong: " + res.KnownWrong + "]"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", res.ID, res.Verdict, reason)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	b.WriteString("\n" + r.Summary() + "\n")
	if known := r.ids(func(res Result) bool { return res.KnownWrong != "" }); len(known) > 0 {
		fmt.Fprintf(&b, "known wrong (still wrong, listed in conformance.KnownWrong): %s\n", strings.Join(known, ", "))
	}
	if refusals := r.Refusals(); len(refusals) > 0 {
		b.WriteString("refusal reasons:\n")
		for _, g := range refusals {
			fmt.Fprintf(&b, "  %3d  %s (%s)\n", g.Count, g.Reason, strings.Join(g.Tests, ", "))
		}
	}
	if r.Baseline != nil {
		r.Baseline.writeText(&b)
	}
	fmt.Fprintf(&b, "%d ms\n", r.Ms)
	_, err := io.WriteString(w, b.String())
	return err
}

// ids lists the ids of the tests that keep says.
func (r *Report) ids(keep func(Result) bool) []string {
	var out []string
	for _, res := range r.Results {
		if keep(res) {
			out = append(out, res.ID)
		}
	}
	return out
}

// WriteJSON writes the report as one JSON object: dir, all, summary,
// counts, refusals, tests (each with id, conformance, manual, verdict,
// reason, qualified, known_wrong and files), baseline when compared, ms.
func (r *Report) WriteJSON(w io.Writer) error {
	out := struct {
		Dir      string         `json:"dir"`
		All      bool           `json:"all"`
		Summary  string         `json:"summary"`
		Counts   Counts         `json:"counts"`
		Refusals []Refusal      `json:"refusals"`
		Tests    []Result       `json:"tests"`
		Baseline *BaselineCheck `json:"baseline,omitempty"`
		Ms       int64          `json:"ms"`
	}{r.Dir, r.All, r.Summary(), r.Counts(), r.Refusals(), r.Results, r.Baseline, r.Ms}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
