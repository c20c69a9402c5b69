package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// userText gathers what a user reads: the README, docs, the examples and
// the data READMEs, and every command's help.
func userText(t *testing.T) map[string]string {
	t.Helper()
	texts := make(map[string]string)
	var files []string
	for _, glob := range []string{"../../README.md", "../../docs/*.md", "../../examples/*", "../../testdata/*/README.md"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	for _, f := range files {
		texts[f] = string(readFile(t, f))
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		texts["setbot "+c.CommandPath()+" --help"] = c.Long + "\n" + c.Short + "\n" + c.UsageString()
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
	return texts
}

// TestPlainWords checks that no user-facing text calls a paper a "seed"
// (papers are cited by authors, title and year, docs/background.md), and
// that the glossary explains the words the reports use.
func TestPlainWords(t *testing.T) {
	seed := regexp.MustCompile(`(?i)\bseeds?\b`)
	for name, text := range userText(t) {
		if loc := seed.FindStringIndex(text); loc != nil {
			t.Errorf("%s says %q", name, text[max(0, loc[0]-40):min(len(text), loc[1]+40)])
		}
	}
	bg := string(readFile(t, "../../docs/background.md"))
	for _, term := range []string{"Khalil", "Zurowska", "Rapos", "**MLM", "**SET", "**MSE", "**DSE", "**Subsumption",
		"**T_updated", "**T_impacted", "**M1", "**M2", "**NTSCD"} {
		if !strings.Contains(bg, term) {
			t.Errorf("docs/background.md does not explain %s", term)
		}
	}
}

// TestREADMELinksStayInside checks that every link of the README is to a
// file of the repository.
func TestREADMELinksStayInside(t *testing.T) {
	readme := string(readFile(t, "../../README.md"))
	if strings.Contains(readme, "../shared") {
		t.Error("the README refers to a file outside the repository (../shared)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`\]\(([^)\s]+)\)`).FindAllStringSubmatch(readme, -1) {
		target, _, _ := strings.Cut(m[1], "#")
		if target == "" {
			continue
		}
		path := filepath.Join(root, target)
		if strings.Contains(target, "://") || !strings.HasPrefix(path, root+string(filepath.Separator)) {
			t.Errorf("link %s leaves the repository", m[1])
			continue
		}
		if _, err := os.Stat(path); err != nil {
			t.Errorf("link %s: %v", m[1], err)
		}
	}
}
