package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/lang"
)

// TestCheckHostileDeep runs setbot check on the models that crashed it or
// took a gigabyte (generated here, not committed): each exits 1 with one
// positioned error, never a crash; at the largest size the limits accept,
// the same shapes check clean.
func TestCheckHostileDeep(t *testing.T) {
	deep := fmt.Sprintf("expression nested more than %d deep", lang.MaxDepth)
	tests := []struct {
		name string
		src  []byte
		code int
		want string // the output, after the file's path
	}{
		{"sum of 1.2 MB", hostile.Sum(300000), 1, ":5:33: " + deep},
		{"expression of 0.8 MB", hostile.Sum(200000), 1, ":5:33: " + deep},
		{"parentheses 300,000 deep", hostile.Parens(300000), 1, fmt.Sprintf(":5:%d: %s", 33+lang.MaxDepth, deep)},
		{"script of 20,000 statements", hostile.Script(20000), 1,
			fmt.Sprintf(":%d:1: more than %d statements in one script: split it between transitions or states", 6+lang.MaxStmts, lang.MaxStmts)},
		{"largest sum", hostile.Sum(lang.MaxDepth - 2), 0, ""},
		{"largest script", hostile.Script(lang.MaxStmts), 0, ""},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		path := filepath.Join(dir, fmt.Sprintf("m%d.scxml", i))
		if err := os.WriteFile(path, tt.src, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := runCLI(t, "check", path)
		want := ""
		if tt.want != "" {
			want = path + tt.want + "\n"
		}
		if code != tt.code || out != want || strings.TrimSpace(errs) != "" {
			t.Errorf("%s: exit %d, output %q, errors %q; want exit %d, output %q", tt.name, code, out, errs, tt.code, want)
		}
	}
}
