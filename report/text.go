package report

import (
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/setbot/setbot/engine/testgen"
)

// runes counts characters as GitHub does for its body limits. GitHub
// measures a comment body and a check-run summary in characters (Unicode
// code points, the length of a Ruby string), not in bytes or UTF-16 units:
// an emoji made of one code point counts 1. This is an assumption about
// GitHub's implementation, not something its documentation states.
func runes(s string) int { return utf8.RuneCountInString(s) }

// code returns s as a Markdown code span: backticks inside are fenced by a
// longer run, line breaks become spaces.
func code(s string) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\r", " ")), " ")
	if s == "" {
		return "` `"
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// cell makes Markdown safe inside a table cell: a pipe ends the cell even
// inside a code span unless it is escaped (GFM applies the escape first).
func cell(md string) string { return strings.ReplaceAll(md, "|", `\|`) }

// codeCell is a code span inside a table cell.
func codeCell(s string) string { return cell(code(s)) }

var textEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "|", `\|`, "~", `\~`, "@", `\@`, "#", `\#`, "!", `\!`,
	"&", "&amp;", "\r", " ", "\n", " ",
)

// text escapes free text (a diagnostic, a reason) for inline Markdown:
// no emphasis, links, HTML, mentions or issue references sneak in.
func text(s string) string { return textEscaper.Replace(s) }

// plain escapes text for an HTML context such as <summary>.
func plain(s string) string { return html.EscapeString(s) }

// plural returns "1 state" or "2 states".
func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// longestRun is the length of the longest run of r in s.
func longestRun(s string, r rune) int {
	longest, run := 0, 0
	for _, c := range s {
		if c == r {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// short returns the abbreviated form of a commit SHA.
func short(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// shorten shortens s to at most n characters, marking the cut.
func shorten(s string, n int) string {
	if runes(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// call spells one input or output event with its arguments, as
// name(a=1, b=true); args are sorted by name.
func call(event string, args map[string]any) string { return testgen.FormatEvent(event, false, args) }

// inputs spells a test's input sequence on one line.
func inputs(t *Test) string {
	parts := make([]string, len(t.Steps))
	for i, s := range t.Steps {
		parts[i] = stepInput(s)
	}
	if len(parts) == 0 {
		return "(no input)"
	}
	return strings.Join(parts, ", ")
}

func stepInput(s Step) string { return testgen.FormatEvent(s.Event, s.Timer, s.Args) }
