package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/vocab"
)

// TestCheckHostileDeep runs setbot check on the models that crashed it or
// took a gigabyte (generated here, not committed): each exits 1 with one
// positioned error, never a crash; at the largest size the limits accept,
// the same shapes check clean.
func TestCheckHostileDeep(t *testing.T) {
	deep := fmt.Sprintf("expression nested more than %d deep", ast.MaxNesting)
	tests := []struct {
		name string
		src  []byte
		code int
		want string // the output, after the file's path
	}{
		{"sum of 1.2 MB", hostile.Sum(300000), 1, ":5:33: " + deep},
		{"expression of 0.8 MB", hostile.Sum(200000), 1, ":5:33: " + deep},
		{"parentheses 300,000 deep", hostile.Parens(300000), 1, fmt.Sprintf(":5:%d: %s", 33+ast.MaxNesting, deep)},
		{"script of 20,000 statements", hostile.Script(20000), 1,
			fmt.Sprintf(":%d:1: more than %d statements in one script: split it between transitions or states", 6+ast.MaxStmts, ast.MaxStmts)},
		{"largest sum", hostile.Sum(ast.MaxNesting - 2), 0, ""},
		{"largest script", hostile.Script(ast.MaxStmts), 0, ""},
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

// TestHostileTermsEndAtTheBound: a script that grows a value with every
// statement (x = x * y + 1 on an input y, 10,000 times; a string doubled
// 60 times), which took gigabytes and never ended, ends with the term bound
// reported and every claim qualified by it, through explore and analyze;
// the same model with a short script is explored whole.
func TestHostileTermsEndAtTheBound(t *testing.T) {
	dir := t.TempDir()
	bound := fmt.Sprintf("bound hit: term (limit %d) cut 1 paths\n", vocab.MaxTermSize)
	for i, tc := range []struct {
		src []byte
		cut bool
	}{{hostile.SymbolicScript(ast.MaxStmts), true}, {hostile.Doubles(60), true}, {hostile.SymbolicScript(50), false}} {
		path := filepath.Join(dir, fmt.Sprintf("m%d.scxml", i))
		if err := os.WriteFile(path, tc.src, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := runCLI(t, "explore", path)
		switch {
		case code != 0 || strings.TrimSpace(errs) != "":
			t.Errorf("explore %d: exit %d, errors %q", i, code, errs)
		case tc.cut && (!strings.Contains(out, bound) || !strings.Contains(out, "states unreachable within the bounds:\n  s1")):
			t.Errorf("explore %d: want the term bound and s1 unreachable within it, got\n%s", i, out)
		case !tc.cut && strings.Contains(out, "bound hit"):
			t.Errorf("explore %d: a bound hit on a short script:\n%s", i, out)
		}
	}

	r := newTestRepo(t)
	r.commit("base", map[string][]byte{"m.scxml": hostile.SymbolicScript(50)})
	r.commit("head", map[string][]byte{"m.scxml": hostile.SymbolicScript(ast.MaxStmts)})
	code, out, errs := runCLI(t, "analyze", "--repo", r.dir, "--base", "HEAD^", "--no-cache", "--format", "markdown")
	want := fmt.Sprintf("the `term` bound (%d) cut 1 path of the head tree", vocab.MaxTermSize)
	if code > 1 || !strings.Contains(out, want) || !strings.Contains(out, "`s2` (line 10013): not reached before the term bound cut the tree") {
		t.Errorf("analyze: exit %d, errors %q; want %q and s2 qualified by the bound in\n%s", code, errs, want, out)
	}
}
