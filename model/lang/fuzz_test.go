package lang_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/parser"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/langtest"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/simplify"
)

// The fuzz targets check that parsing never panics, that what parses
// prints and parses back to the same tree, and that the later passes
// accept any tree the parser returns, even an incomplete one.

func FuzzParseExpr(f *testing.F) {
	for _, src := range exprCorpus {
		f.Add(src)
	}
	for _, src := range []string{"", "a b", "(((a", "x = 1", "'s", "/* c", "a.b.c(1)", "1e99", "In(x)"} {
		f.Add(src)
	}
	// Chains and nests just within MaxNesting and just past it.
	for _, n := range []int{ast.MaxNesting - 2, ast.MaxNesting + 1} {
		f.Add("x" + strings.Repeat(" + 1", n))
		f.Add(strings.Repeat("(", n) + "x" + strings.Repeat(")", n))
		f.Add("o" + strings.Repeat(".f[0]", n/2))
		f.Add(strings.Repeat("a ? b : ", n) + "c")
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, errs := langtest.ParseExpr(src)
		if e == nil {
			t.Fatal("nil expression")
		}
		checkErrors(t, errs)
		printer.ExprString(e)
		simplify.Expr(e)
		lang.Uses(e)
		lang.CheckExpr(langtest.Env(), nil, e, ast.Bool)
		if len(errs) == 0 {
			checkExprRoundTrip(t, e)
			checkSimplifiedRoundTrip(t, simplify.Expr(e))
		}
	})
}

// checkSimplifiedRoundTrip checks that a simplified expression prints as
// text that simplifies back to it: folded negative literals print as
// negations, and the minimum int64 as a subtraction.
func checkSimplifiedRoundTrip(t *testing.T, e ast.Expr) {
	t.Helper()
	s := printer.ExprString(e)
	e2, errs := langtest.ParseExpr(s)
	if len(errs) == 1 && strings.Contains(errs[0].Msg, "nested more than") {
		return // parentheses around negative literals add nesting
	}
	if len(errs) > 0 {
		t.Fatalf("%s (printed from %s) does not parse: %v", s, langtest.Sexpr(e), errs)
	}
	if e2 = simplify.Expr(e2); !ast.Equal(e, e2) {
		t.Errorf("%s simplifies to %s, want %s", s, langtest.Sexpr(e2), langtest.Sexpr(e))
	}
}

func FuzzParseStmts(f *testing.F) {
	for _, src := range stmtCorpus {
		f.Add(src)
	}
	for _, src := range []string{"a = 1 b = 2", "if (a) {", "for (;;", "raise e(1)", "x = 'a", "}", "var x",
		"function f(a, b) { if (a) { return b; } var i = 0; while (i < a) { i++; } return i; } x = f(1, 2)",
		"function g(n) { return n <= 1 ? 1 : n * g(n - 1); } y = g(x) + Math.max(1, x)", "return", "x = Math.pow(x, 3)"} {
		f.Add(src)
	}
	for _, n := range []int{ast.MaxNesting / 2, ast.MaxNesting + 1} {
		f.Add(strings.Repeat("if (a) ", n) + "x = x" + strings.Repeat(" + 1", n))
		f.Add("function f(a) { return a" + strings.Repeat(" + a", n/2) + "; } x = f(f(f(x)))")
	}
	f.Add(strings.Repeat("x = x + 1;\n", ast.MaxStmts+1))
	f.Fuzz(func(t *testing.T, src string) {
		b, errs := langtest.ParseStmts(src)
		if b == nil {
			t.Fatal("nil block")
		}
		checkErrors(t, errs)
		printer.BlockString(b)
		lang.Uses(b)
		lang.Defs(b)
		// The functions the code declares, inlined into it.
		in := &lower.Inliner{Funcs: map[string]*ast.FuncDecl{}, Fset: source.NewFileSet()}
		for _, s := range b.Stmts {
			if fd, ok := s.(*ast.FuncDecl); ok {
				in.Funcs[fd.Name.Name] = fd
			}
		}
		lang.CheckBlock(langtest.Env(), nil, in.Block(b))
		lang.CheckBlock(langtest.Env(), nil, b)
		ast.RewriteBlock(b, simplify.Expr)
		if len(errs) == 0 {
			checkStmtsRoundTrip(t, b)
		}
	})
}

func checkErrors(t *testing.T, errs []*source.Error) {
	t.Helper()
	if len(errs) > parser.MaxErrors {
		t.Errorf("%d errors, more than %d", len(errs), parser.MaxErrors)
	}
	for _, e := range errs {
		if e == nil || e.Msg == "" {
			t.Errorf("empty error in %v", errs)
		}
	}
}
