package lang_test

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/langtest"
	"github.com/setbot/setbot/model/lang/simplify"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func ident(name string) *ast.Ident    { return &ast.Ident{Name: name} }
func cond(c, a, b ast.Expr) *ast.Cond { return &ast.Cond{Cond: c, Then: a, Else: b} }
func TestExprString(t *testing.T) {
	a, b, c, d, e := ident("a"), ident("b"), ident("c"), ident("d"), ident("e")
	tests := []struct {
		e    ast.Expr
		want string
	}{
		{langtest.IntLit(5), "5"},
		{langtest.IntLit(-5), "-5"},
		{&ast.BoolLit{Value: true}, "true"},
		{&ast.EventParam{Name: "x"}, "_event.data.x"},
		{&ast.InState{State: "S1"}, "In('S1')"},
		{&ast.InState{State: "it's a \\ \"b\"\n\t"}, `In('it\'s a \\ "b"\n\t')`},
		{langtest.Unary(ast.SUB, langtest.IntLit(5)), "-5"},
		{langtest.Unary(ast.SUB, langtest.IntLit(-5)), "-(-5)"},
		{langtest.Unary(ast.SUB, langtest.Unary(ast.SUB, a)), "- -a"},
		{langtest.Unary(ast.NOT, langtest.Unary(ast.NOT, a)), "!!a"},
		{langtest.Unary(ast.NOT, langtest.Unary(ast.SUB, a)), "!-a"},
		{langtest.Unary(ast.NOT, a), "!a"},
		{langtest.Unary(ast.NOT, langtest.Binary(a, ast.LAND, b)), "!(a && b)"},
		{langtest.Unary(ast.SUB, langtest.Binary(a, ast.ADD, b)), "-(a + b)"},
		{langtest.Unary(ast.NOT, cond(a, b, c)), "!(a ? b : c)"},
		{langtest.Binary(a, ast.SUB, langtest.IntLit(-5)), "a - (-5)"},
		{langtest.Binary(a, ast.ADD, langtest.IntLit(-5)), "a + (-5)"},
		{langtest.Binary(a, ast.MUL, langtest.IntLit(-5)), "a * -5"},
		{langtest.Binary(a, ast.SUB, langtest.Unary(ast.SUB, b)), "a - -b"},
		{langtest.Binary(langtest.IntLit(-5), ast.SUB, a), "-5 - a"},
		{langtest.Binary(langtest.Unary(ast.SUB, a), ast.MUL, b), "-a * b"},
		{langtest.Binary(langtest.Binary(a, ast.ADD, b), ast.MUL, c), "(a + b) * c"},
		{langtest.Binary(a, ast.ADD, langtest.Binary(b, ast.MUL, c)), "a + b * c"},
		{langtest.Binary(langtest.Binary(a, ast.SUB, b), ast.SUB, c), "a - b - c"},
		{langtest.Binary(a, ast.SUB, langtest.Binary(b, ast.SUB, c)), "a - (b - c)"},
		{langtest.Binary(a, ast.SUB, langtest.Binary(b, ast.ADD, c)), "a - (b + c)"},
		{langtest.Binary(a, ast.LAND, langtest.Binary(b, ast.LOR, c)), "a && (b || c)"},
		{langtest.Binary(langtest.Binary(a, ast.LAND, b), ast.LOR, c), "a && b || c"},
		{langtest.Binary(langtest.Binary(a, ast.EQL, b), ast.EQL, c), "a == b == c"},
		{langtest.Binary(a, ast.EQL, langtest.Binary(b, ast.EQL, c)), "a == (b == c)"},
		{langtest.Binary(langtest.Binary(&ast.StrLit{Value: "f"}, ast.IN, a), ast.EQL, langtest.Binary(b, ast.IN, &ast.EventField{})), "'f' in a == b in _event"},
		{langtest.Binary(&ast.StrLit{Value: "f"}, ast.IN, langtest.Binary(a, ast.ADD, b)), "'f' in a + b"},
		{langtest.Binary(&ast.SysVar{Name: "_ioprocessors"}, ast.SEQL, a), "_ioprocessors === a"},
		{langtest.Binary(langtest.Binary(a, ast.LSS, b), ast.EQL, langtest.Binary(c, ast.GEQ, d)), "a < b == c >= d"},
		{langtest.Binary(a, ast.ADD, cond(c, d, e)), "a + (c ? d : e)"},
		{langtest.Binary(cond(c, d, e), ast.ADD, a), "(c ? d : e) + a"},
		{cond(cond(a, b, c), d, e), "(a ? b : c) ? d : e"},
		{cond(a, cond(b, c, d), e), "a ? b ? c : d : e"},
		{cond(a, b, cond(c, d, e)), "a ? b : c ? d : e"},
		{cond(langtest.Binary(a, ast.LOR, b), langtest.Binary(c, ast.ADD, langtest.IntLit(1)), d), "a || b ? c + 1 : d"},
		{langtest.IntLit(math.MinInt64), "(-9223372036854775807 - 1)"},
		{langtest.Unary(ast.SUB, langtest.IntLit(math.MinInt64)), "-(-9223372036854775807 - 1)"},
		{langtest.Binary(a, ast.SUB, langtest.IntLit(math.MinInt64)), "a - (-9223372036854775807 - 1)"},
	}
	for _, tt := range tests {
		if got := printer.ExprString(tt.e); got != tt.want {
			t.Errorf("ExprString(%s) = %s, want %s", langtest.Sexpr(tt.e), got, tt.want)
		}
	}
}

// TestPrintMinInt checks that the one int64 without a literal prints as an
// expression that folds back to it.
func TestPrintMinInt(t *testing.T) {
	e, errs := langtest.ParseExpr(printer.ExprString(langtest.IntLit(math.MinInt64)))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got := simplify.Expr(e); !ast.Equal(got, langtest.IntLit(math.MinInt64)) {
		t.Errorf("simplify.Expr(%s) = %s", printer.ExprString(e), langtest.Sexpr(got))
	}
}

func TestBlockString(t *testing.T) {
	a, x := ident("a"), ident("x")
	i := ident("i")
	tests := []struct {
		s    ast.Stmt
		want string
	}{
		{&ast.Assign{Target: x, Op: ast.ASSIGN, Value: langtest.IntLit(1)}, "x = 1;"},
		{&ast.Assign{Target: x, Op: ast.REM_ASSIGN, Value: a}, "x %= a;"},
		{&ast.IncDec{Target: x, Op: ast.DEC}, "x--;"},
		{&ast.Decl{Name: x, Value: langtest.IntLit(1)}, "var x = 1;"},
		{&ast.Decl{Name: x, Type: ast.BoolType, Value: a}, "bool x = a;"},
		{&ast.Decl{Name: x, Type: ast.RangeType(0, 5)}, "int x;"},
		{&ast.Raise{Event: "e", Args: []*ast.Arg{{Name: "p", Value: langtest.IntLit(1)}, {Name: "q", Value: a}}}, "raise e(p: 1, q: a);"},
		{&ast.Raise{Event: "a.b.if"}, "raise a.b.if();"},
		{&ast.Raise{Event: "1x"}, `raise "1x"();`},
		{&ast.Raise{Event: "a..b"}, `raise "a..b"();`},
		{&ast.Send{Event: "done.state.my-state"}, `send "done.state.my-state"();`},
		{&ast.Send{Event: "e", Target: `o"x`, Delay: &ast.StrLit{Value: "1s"}}, `send e() to "o\"x" after '1s';`},
		{&ast.Send{Event: "e", Delay: &ast.StrLit{Value: "2s"}}, `send e() after '2s';`},
		{&ast.Send{Event: "e", Delay: &ast.StrLit{Value: "2s"}, ID: `t"1`}, `send e() after '2s' id "t\"1";`},
		{&ast.Cancel{SendID: "t1"}, `cancel "t1";`},
		{&ast.Assume{Cond: a}, "assume(a);"},
		{&ast.Bound{Name: vocab.BoundArray, Limit: 4, Cond: a}, "bound array 4 (a);"},
		{&ast.Block{}, "{}"},
		{&ast.Block{Stmts: []ast.Stmt{&ast.IncDec{Target: x, Op: ast.INC}, &ast.Block{}}}, "{ x++; {} }"},
		{&ast.If{Cond: a, Then: &ast.Block{}}, "if (a) {}"},
		{&ast.If{Cond: a, Then: &ast.Block{}, Else: &ast.If{Cond: x, Then: &ast.Block{Stmts: []ast.Stmt{&ast.IncDec{Target: x, Op: ast.INC}}}}},
			"if (a) {} else if (x) { x++; }"},
		{&ast.While{Cond: a, Body: &ast.Block{Stmts: []ast.Stmt{&ast.IncDec{Target: x, Op: ast.INC}}}}, "while (a) { x++; }"},
		{&ast.For{Init: &ast.Decl{Name: i, Type: ast.IntType, Value: langtest.IntLit(0)}, Cond: langtest.Binary(i, ast.LSS, langtest.IntLit(3)),
			Post: &ast.IncDec{Target: i, Op: ast.INC}, Body: &ast.Block{}}, "for (int i = 0; i < 3; i++) {}"},
		{&ast.For{Body: &ast.Block{}}, "for (;;) {}"},
	}
	for _, tt := range tests {
		if got := printer.BlockString(&ast.Block{Stmts: []ast.Stmt{tt.s}}); got != tt.want {
			t.Errorf("BlockString = %s, want %s", got, tt.want)
		}
	}
	if got := printer.BlockString(&ast.Block{}); got != "" {
		t.Errorf("BlockString(empty) = %q, want \"\"", got)
	}
}

// exprCorpus and stmtCorpus are valid sources for the round-trip tests.
var exprCorpus = []string{
	"a", "0", "9223372036854775807", "true != false", "_event.data.x", "_event.data.to",
	"In('S')", `In("it's")`, `In('a\\b\n\t\'')`,
	"a - -5", "- -a", "-(-a)", "!!a", "!-a", "-!a", "+a", "-(a + b)", "!(a && b)",
	"a ? b ? c : d : e", "(a ? b : c) ? d : e", "a ? b : c ? d : e", "(a ? b : c) + 1",
	"a * (b ? c : d)", "!(a ? b : c)", "a ? -1 : +2",
	"(a + b) * (c - d) / e % f", "a - (b + c)", "a - b + c", "a / (b * c)", "((a))",
	"a == (b == c)", "(a == b) == c", "a < (b < c)", "a && (b || c)", "(a && b) && c", "a && (b && c)",
	"x % 2 == 0 || !(y > 3) && In('S')", "a === b && c !== d",
	"[1, 2, 3]", "[]", "[[1], [a + 1, -2]]", "{a: 1, b: 'x', if: [true]}", "{}", "a[i + 1][0].f.g", "(a ? b : c)[0]",
	"[1, 2][0]", "-a[0]", "(-a)[0]", "a.length + o.length", "_event.data.p[0].q", "{a: {b: []}}.a",
}

var stmtCorpus = []string{
	"a = 1; b = 2", "a += 1; a -= 2; a *= 3; a /= 4; a %= 5", "x++; x--; ++x; --x",
	"var x = 1; let y = true; int z = 2; bool w = false; int n; bool m",
	"if (a) b = 1", "if (a) { b = 1 } else c = 2",
	"if (a) b = 1; else if (c) d = 2; else e = 3", "if (a) if (b) c = 1; else d = 2",
	"if (a) ;", "if (a) {} else {}", "while (i < 3) i++",
	"for (int i = 0; i < 3; i++) s += i", "for (;;) {}", "for (i = 0; ; i += 2) {}", "for (; c;) {}",
	"for (let i = 0; i < n;) ++i", "for (int i; ; ) ;",
	"raise e()", "raise a.b.c(x: 1, y: a + 1)", "raise error.send()", `raise "done.state.my-state"()`,
	`raise "a\"b"()`, `send e() to "out" after "1s"`, `send e(if: 1, to: true) to 'o\'k'`, `send e() after "2s"`,
	`send e() after "2s" id "t1"`, `cancel "t1"`, `cancel = 1`,
	"assume(a > 0)", "bound array 4 (a <= 4)", "{ a = 1; { b = 2 } }", "{}", "{ {} }", "a = 1\nb = 2 // c\n/* d */ c = 3",
	"a = b\n-c", "a = b\n++c", "a = - -b - -c", "x = _event.data.x ? In('S') : !b",
	"a[0] = 1; o.f.g += 2; m[i][j]++; --a[1]; o['f'] = [1, {b: 2}]",
	"for (x of a) s += x", "for (x, i of [1, 2]) { raise e(v: x, i: i) }", "for (of of of) {}", "for (x of a) for (y of x) {}",
	"for (x, i of a; !stop) { stop = x > 2 }", "for (let x, i of a) { s += x * i }", "for (let of of of) {}",
}

func TestRoundTripExpr(t *testing.T) {
	for _, src := range exprCorpus {
		e, errs := langtest.ParseExpr(src)
		if len(errs) > 0 {
			t.Errorf("ParseExpr(%q): %v", src, errs)
			continue
		}
		checkExprRoundTrip(t, e)
	}
}

func TestRoundTripStmts(t *testing.T) {
	for _, src := range stmtCorpus {
		b, errs := langtest.ParseStmts(src)
		if len(errs) > 0 {
			t.Errorf("ParseStmts(%q): %v", src, errs)
			continue
		}
		checkStmtsRoundTrip(t, b)
	}
}

// checkExprRoundTrip checks that the printed e parses to an equal tree
// that prints the same.
func checkExprRoundTrip(t *testing.T, e ast.Expr) {
	t.Helper()
	s1 := printer.ExprString(e)
	e2, errs := langtest.ParseExpr(s1)
	if len(errs) > 0 {
		t.Errorf("%s (printed from %s) does not parse: %v", s1, langtest.Sexpr(e), errs)
		return
	}
	if !ast.Equal(e, e2) {
		t.Errorf("%s parses to %s, want %s", s1, langtest.Sexpr(e2), langtest.Sexpr(e))
	}
	if s2 := printer.ExprString(e2); s2 != s1 {
		t.Errorf("printing is not a fixed point: %s, then %s", s1, s2)
	}
}

// checkStmtsRoundTrip checks that the printed b parses to an equal tree
// that prints the same.
func checkStmtsRoundTrip(t *testing.T, b *ast.Block) {
	t.Helper()
	s1 := printer.BlockString(b)
	b2, errs := langtest.ParseStmts(s1)
	if len(errs) > 0 {
		t.Errorf("%q does not parse: %v", s1, errs)
		return
	}
	if !ast.Equal(b, b2) {
		t.Errorf("%q parses to %s, want %s", s1, printer.BlockString(b2), s1)
	}
	if s2 := printer.BlockString(b2); s2 != s1 {
		t.Errorf("printing is not a fixed point: %s, then %s", s1, s2)
	}
}

// TestGolden checks the printer against testdata/print: each NAME.in
// prints as NAME.golden, one top-level statement a line, which parses back
// to the same tree.
func TestGolden(t *testing.T) {
	ins, err := filepath.Glob(filepath.Join("testdata", "print", "*.in"))
	if err != nil || len(ins) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range ins {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		b, errs := langtest.ParseStmts(string(src))
		if len(errs) > 0 {
			t.Errorf("%s: %v", in, errs)
			continue
		}
		var buf bytes.Buffer
		for _, st := range b.Stmts {
			buf.WriteString(printer.BlockString(&ast.Block{Stmts: []ast.Stmt{st}}) + "\n")
		}
		golden := strings.TrimSuffix(in, ".in") + ".golden"
		if *update {
			if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); got != string(want) {
			t.Errorf("%s: got\n%s\nwant\n%s", in, got, want)
		}
		checkStmtsRoundTrip(t, b)
	}
}

// TestRoundTripNearLimit checks that printing never nests deeper than the
// source did: the deepest instance of each pattern that parses below the
// nesting limit reprints into text that parses too.
func TestRoundTripNearLimit(t *testing.T) {
	patterns := []struct {
		stmts             bool
		open, mid, closer string
	}{
		{false, "- ", "a", ""},
		{false, "!", "a", ""},
		{false, "-(", "a", ")"},
		{false, "a - -", "b", ""},
		{false, "a ? ", "b", " : c"},
		{false, "a ? b : ", "c", ""},
		{false, "(", "a", ") + 1"},
		{false, "!(a && ", "b", ")"},
		{true, "if (a) ", "x = 1", ""},
		{true, "if (a) {} else ", "x = 1", ""},
		{true, "if (a) {} else if (b) ", "x = 1", ""},
		{true, "{ ", "x = 1", " }"},
		{true, "while (a) for (;;) ", "x++", ""},
	}
	for _, p := range patterns {
		var deepest string
		for n := 1; n <= ast.MaxNesting; n++ {
			src := strings.Repeat(p.open, n) + p.mid + strings.Repeat(p.closer, n)
			var errs source.ErrorList
			if p.stmts {
				_, errs = langtest.ParseStmts(src)
			} else {
				_, errs = langtest.ParseExpr(src)
			}
			if len(errs) > 0 {
				break
			}
			deepest = src
		}
		if p.stmts {
			checkStmtsRoundTrip(t, langtest.MustParseStmts(t, deepest))
		} else {
			checkExprRoundTrip(t, langtest.MustParseExpr(t, deepest))
		}
	}
}
