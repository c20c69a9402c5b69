package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// architectureDoc is the repository's own design document, which comments
// cite by section: "docs/architecture.md §Stable keys".
const architectureDoc = "docs/architecture.md"

// headings returns the text of every markdown heading of doc.
func headings(doc string) []string {
	var hs []string
	inFence := false
	for line := range strings.Lines(doc) {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		if h := strings.TrimSpace(strings.TrimLeft(line, "#")); h != "" {
			hs = append(hs, h)
		}
	}
	return hs
}

// citedSections returns what follows each section citation of the
// architecture document in text (whitespace collapsed, so that a heading a
// comment wraps across lines reads whole): the sections "§Storage, §The
// bot; see" give "Storage, §The bot; see" and "The bot; see". A mention
// without a section (the name alone, or followed by ", and") gives nothing.
func citedSections(text string) []string {
	text = strings.Join(strings.Fields(text), " ")
	var out []string
	for rest := text; ; {
		i := strings.Index(rest, architectureDoc)
		if i < 0 {
			return out
		}
		rest = rest[i+len(architectureDoc):]
		// The name, then sections: " §A, §B", or ", A" (a heading).
		after := strings.TrimPrefix(rest, ",")
		after = strings.TrimPrefix(after, " ")
		if !strings.HasPrefix(after, "§") {
			if strings.HasPrefix(rest, ", ") && after != "" && 'A' <= after[0] && after[0] <= 'Z' {
				out = append(out, after)
			}
			continue
		}
		for strings.HasPrefix(after, "§") {
			after = strings.TrimPrefix(after, "§")
			out = append(out, after)
			j := strings.Index(after, "§")
			if j < 0 || j > 60 || strings.Contains(after[:j], architectureDoc) {
				break
			}
			after = after[j:]
		}
	}
}

// namesHeading reports whether cited starts with one of the headings hs,
// as a whole word.
func namesHeading(cited string, hs []string) bool {
	for _, h := range hs {
		if rest, ok := strings.CutPrefix(cited, h); ok {
			if rest == "" || !isWordByte(rest[0]) {
				return true
			}
		}
	}
	return false
}

func isWordByte(b byte) bool {
	return b == '_' || b == '-' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// copyWord is the word the team's shared reading list numbers its copies
// of the papers with. It is spelled in two halves, as the shared design's
// name is below, so that this file does not cite a paper that way itself.
const copyWord = "se" + "ed"

// paperByNumber matches a paper cited by the number of its copy in the
// reading list (the word, then three digits) instead of by authors, title
// and year; badCitation matches the shared design's name and folder.
var (
	paperByNumber = regexp.MustCompile(`(?i)\b` + copyWord + `s?\s+(\d{3}|§)`)
	badCitation   = regexp.MustCompile(`\b` + "ARCHITECTURE" + `\.md\b|shared/` + copyWord + `s`)
)

// commentProblems returns what is wrong with the citations in the comment
// text of one file.
func commentProblems(text string, hs []string) []string {
	var probs []string
	for _, c := range citedSections(text) {
		if !namesHeading(c, hs) {
			probs = append(probs, "cites "+architectureDoc+" §"+c[:min(len(c), 40)]+"..., which has no such heading")
		}
	}
	if m := paperByNumber.FindString(text); m != "" {
		probs = append(probs, "cites a paper as "+m+": cite it by authors, title and year")
	}
	if m := badCitation.FindString(text); m != "" {
		probs = append(probs, "cites "+m+", which the repository does not have: cite "+architectureDoc+" by section")
	}
	return probs
}

// TestArchitectureCitations checks every comment of every Go file: a
// citation of docs/architecture.md by section names one of its headings,
// no paper is cited by its number in a reading list, and no comment cites
// a design document outside the repository.
func TestArchitectureCitations(t *testing.T) {
	hs := headings(string(readFile(t, "../../"+architectureDoc)))
	if len(hs) < 10 {
		t.Fatalf("%s has %d headings", architectureDoc, len(hs))
	}
	files := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "../.." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		var text strings.Builder
		for _, g := range f.Comments {
			text.WriteString(g.Text() + "\n")
		}
		for _, p := range commentProblems(text.String(), hs) {
			t.Errorf("%s %s", strings.TrimPrefix(path, "../../"), p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("walked %d Go files; is the repository root ../..?", files)
	}
}

// TestCitationCheckFails checks that the check above can fail: each bad
// comment gives a problem, each good one none.
func TestCitationCheckFails(t *testing.T) {
	hs := []string{"Data flow", "Stable keys", "The bot", "Storage"}
	for _, c := range []struct {
		text string
		bad  int
	}{
		{"keys (docs/architecture.md §Stable keys): the", 0},
		{"keys (docs/architecture.md §Stable\nkeys): wrapped", 0},
		{"queue (docs/architecture.md §Storage, §The bot; see Backend)", 0},
		{"graph (docs/architecture.md, Stable keys): comma form", 0},
		{"see docs/architecture.md for the whole", 0},
		{"in docs/architecture.md, and in the README", 0},
		{"a random " + copyWord + " 42 and " + copyWord + "s from 1", 0},
		{"keys (docs/architecture.md §Stable key): singular", 1},
		{"keys (docs/architecture.md §Stable keysets)", 1},
		{"queue (docs/architecture.md §Storage, §The robot)", 1},
		{"graph (docs/architecture.md, Keys)", 1},
		{"Alg. 1 of " + copyWord + " 000", 1},
		{"tests (" + copyWord + "s 002 and 003)", 1},
		{"flow (" + "ARCHITECTURE" + ".md §1)", 1},
	} {
		if got := commentProblems(c.text, hs); len(got) != c.bad {
			t.Errorf("%q: %d problems %q, want %d", c.text, len(got), got, c.bad)
		}
	}
}
