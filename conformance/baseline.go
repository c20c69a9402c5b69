package conformance

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// BaselineCheck compares a run with a baseline: the tests judged right
// by an earlier one.
type BaselineCheck struct {
	File   string   `json:"file"`
	Right  int      `json:"right"`  // tests right in the baseline
	Now    int      `json:"now"`    // tests judged right now
	Lost   []Lost   `json:"lost"`   // tests of the baseline no longer right
	Gained []string `json:"gained"` // tests right now and not in the baseline
}

// Lost is a test of the baseline that is no longer right.
type Lost struct {
	ID      string `json:"id"`
	Verdict string `json:"verdict"` // its verdict now, or not_run when the run left it out
	Reason  string `json:"reason,omitempty"`
}

// Regressed reports whether fewer tests are right than in the baseline,
// or a test right in the baseline is no longer right.
func (b *BaselineCheck) Regressed() bool { return b.Now < b.Right || len(b.Lost) > 0 }

// CompareBaseline compares the report with the ids of a baseline read
// from file, and keeps the comparison in r.Baseline for the writers.
func (r *Report) CompareBaseline(file string, right []string) *BaselineCheck {
	b := &BaselineCheck{File: file, Right: len(right), Lost: []Lost{}, Gained: []string{}}
	byID := make(map[string]Result, len(r.Results))
	for _, res := range r.Results {
		byID[res.ID] = res
		if res.Verdict == Right {
			b.Now++
			if !slices.Contains(right, res.ID) {
				b.Gained = append(b.Gained, res.ID)
			}
		}
	}
	for _, id := range right {
		res, ok := byID[id]
		switch {
		case !ok:
			b.Lost = append(b.Lost, Lost{ID: id, Verdict: "not_run"})
		case res.Verdict != Right:
			v, _ := res.Verdict.MarshalText()
			b.Lost = append(b.Lost, Lost{ID: id, Verdict: string(v), Reason: res.Reason})
		}
	}
	r.Baseline = b
	return b
}

func (b *BaselineCheck) writeText(sb *strings.Builder) {
	fmt.Fprintf(sb, "baseline %s: %d right then, %d now", b.File, b.Right, b.Now)
	if b.Regressed() {
		sb.WriteString(" (REGRESSED)")
	}
	sb.WriteString("\n")
	for _, l := range b.Lost {
		if l.Verdict == "not_run" {
			fmt.Fprintf(sb, "  no longer right: %s (not run: outside this selection, or not in the manifest)\n", l.ID)
			continue
		}
		fmt.Fprintf(sb, "  no longer right: %s (%s: %s)\n", l.ID, strings.ToUpper(l.Verdict), l.Reason)
	}
	if len(b.Gained) > 0 {
		fmt.Fprintf(sb, "  newly right: %s\n", strings.Join(b.Gained, ", "))
	}
}

// ReadBaseline reads the ids of the tests a baseline file says are right:
// either one id per line (blank lines and # comments ignored), or the
// output of setbot conformance --format json, whose tests judged right it
// takes.
func ReadBaseline(file string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading the baseline: %w", err)
	}
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '{' {
		var rep struct {
			Tests []struct {
				ID      string  `json:"id"`
				Verdict Verdict `json:"verdict"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(trimmed, &rep); err != nil {
			return nil, fmt.Errorf("%s: not a conformance JSON report: %w", file, err)
		}
		ids := []string{}
		for _, t := range rep.Tests {
			if t.Verdict == Right {
				ids = append(ids, t.ID)
			}
		}
		return ids, nil
	}
	ids := []string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		switch f := strings.Fields(text); len(f) {
		case 0:
		case 1:
			if slices.Contains(ids, f[0]) {
				return nil, fmt.Errorf("%s:%d: test %s listed twice", file, line, f[0])
			}
			ids = append(ids, f[0])
		default:
			return nil, fmt.Errorf("%s:%d: want one test id per line, found %q", file, line, strings.TrimSpace(text))
		}
	}
	return ids, sc.Err()
}
