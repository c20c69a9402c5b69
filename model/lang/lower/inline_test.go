package lower

import (
	"fmt"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/parser"

	"github.com/setbot/setbot/model/lang/simplify"

	"github.com/setbot/setbot/model/lang/langtest"
)

// inliner parses the functions of src, as a <script> declares them.
func inliner(t *testing.T, src string) *Inliner {
	t.Helper()
	fset := source.NewFileSet()
	b, errs := parser.ParseStmts(parser.NewSnippet(fset.AddFile("s.js", []byte(src)), src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in := &Inliner{Funcs: map[string]*ast.FuncDecl{}, Fset: fset}
	for _, s := range b.Stmts {
		f := s.(*ast.FuncDecl)
		in.Funcs[f.Name.Name] = f
	}
	return in
}

func TestInline(t *testing.T) {
	in := inliner(t, `
function inc(a) { return a + 1; }
function abs(a) { if (a < 0) { return -a; } return a; }
function tri(n) { var s = 0; for (var i = 1; i <= n; i++) { s += i; } return s; }
function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }
function pick(c, a, b) { var r = b; if (c) { r = a; } return r; }
function none() { }
`)
	tests := []struct {
		call, want string
		over       bool // the call may nest deeper than CallBound
	}{
		{"inc(x)", "x + 1", false},
		{"inc(inc(2))", "4", false},
		{"abs(x)", "x < 0 ? -x : x", false},
		{"tri(4)", "10", false},
		{"fact(5)", "120", false},
		{"pick(ok, 1, 2)", "ok ? 1 : 2", false},
		{"none()", "undefined", false},
		{"Math.max(x, 3, y)", "y > (3 > x ? 3 : x) ? y : 3 > x ? 3 : x", false},
		{"Math.min(x, 3)", "3 < x ? 3 : x", false},
		{"Math.pow(x, 3)", "x * x * x", false},
		{"Math.pow(x, 0)", "1", false},
		{"Math.sign(x)", "x > 0 ? 1 : x < 0 ? -1 : 0", false},
		{"Math.abs(-4)", "4", false},
		{"fact(n)", "", true},
		{"tri(n)", "", true},
	}
	for _, tc := range tests {
		e, errs := parser.ParseExpr(parser.NewSnippet(source.NewFileSet().AddFile("e.js", []byte(tc.call)), tc.call))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		v, over := in.Expr(e)
		if len(in.Errs) > 0 {
			t.Fatalf("%s: %v", tc.call, in.Errs)
		}
		if (over != nil) != tc.over {
			t.Errorf("%s: bound condition %v, want one: %v", tc.call, over, tc.over)
		}
		if got := printer.ExprString(simplify.Expr(v)); tc.want != "" && got != tc.want {
			t.Errorf("%s = %s, want %s", tc.call, got, tc.want)
		}
	}
}

func TestInlineErrors(t *testing.T) {
	in := inliner(t, `
function set(a) { x = a; return 1; }
function notify() { raise e(); return 1; }
function two(a, b) { return a + b; }
function loop(n) { return loop(n); }
function poke(o) { o.x = 2; return 0; }
function bump(o) { o.n++; return 0; }
`)
	for call, want := range map[string]string{
		"set(1)":       "e.js:1:1: call of set, which assigns x (at s.js:2:19), where setbot cannot run it before the code that uses its value",
		"notify()":     "e.js:1:1: call of notify, which raises e (at s.js:3:21), where setbot cannot run it before the code that uses its value",
		"two(1, 2, 3)": "e.js:1:1: call of two with 3 arguments: it is declared with 2 parameters",
		"loop(1)":      "s.js:5:1: function loop never returns without calling a function",
		"poke(1)":      "s.js:6:20: function poke writes o.x, a part of its parameter or local o",
		"bump(1)":      "s.js:7:20: function bump writes o.n, a part of its parameter or local o",
	} {
		in.Errs = nil
		e, _ := parser.ParseExpr(parser.NewSnippet(in.Fset.AddFile("e.js", []byte(call)), call))
		in.Expr(e)
		if len(in.Errs) == 0 {
			t.Errorf("%s: no error", call)
			continue
		}
		if got := in.Errs[0].Error(); len(got) < len(want) || got[:len(want)] != want {
			t.Errorf("%s: %s, want %s...", call, got, want)
		}
	}
}

// TestInlineGrowthBounded: nested built-ins that copy their arguments, and
// a function that uses its parameter twice nested in itself, would grow
// exponentially; the inliner stops with an error instead.
func TestInlineGrowthBounded(t *testing.T) {
	paths := "function paths(a) {" + strings.Repeat(" if (a > 1) { a = a - 1; } else { a = a + 1; } if (a == 7) { return 1; }", 30) + " return a; }"
	in := inliner(t, "function twice(a) { return a + a; }\n"+paths)
	for _, call := range []string{
		"paths(x)",
		strings.Repeat("Math.max(", 40) + "x" + strings.Repeat(", 1)", 40),
		strings.Repeat("twice(", 40) + "x" + strings.Repeat(")", 40),
	} {
		in.Errs = nil
		e, errs := parser.ParseExpr(parser.NewSnippet(in.Fset.AddFile("e.js", []byte(call)), call))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		in.Expr(e)
		if len(in.Errs) != 1 || !strings.Contains(in.Errs[0].Msg, "more than") {
			t.Errorf("%.20s...: errors %v", call, in.Errs)
		}
	}
}

// TestInlineDeepens: a function whose body is deep, called inside itself,
// makes an expression deeper than any text of the model; the inliner
// refuses it at the call with the depth limit's message.
func TestInlineDeepens(t *testing.T) {
	body := "a" + strings.Repeat(" + 1", ast.MaxNesting*2/3)
	in := inliner(t, "function f(a) { return "+body+"; }")
	for _, tc := range []struct {
		call string
		err  bool
	}{
		{"f(x)", false},
		{"f(f(x))", true},
	} {
		fset := source.NewFileSet()
		in.Fset, in.Errs = fset, nil
		e, errs := parser.ParseExpr(parser.NewSnippet(fset.AddFile("e.js", []byte(tc.call)), tc.call))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		v, _ := in.Expr(e)
		want := ""
		if tc.err {
			want = fmt.Sprintf("e.js:1:1: expression nested more than %d deep once its calls are inlined: compute the value in steps, in locals", ast.MaxNesting)
		}
		if got := langtest.ErrText(in.Errs); got != want {
			t.Errorf("%s: errors %q, want %q", tc.call, got, want)
		}
		if lim := ast.OverLimit(v, MaxInlined); lim != nil {
			t.Errorf("%s: the inlined tree exceeds the limits: %s", tc.call, lim)
		}
	}
}
