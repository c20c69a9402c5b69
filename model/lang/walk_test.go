package lang_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/langtest"
)

func TestInspect(t *testing.T) {
	b := langtest.MustParseStmts(t, "if (a) { raise e(p: x + 1) } else send f(q: !y)")
	var got []string
	ast.Inspect(b, func(n ast.Node) bool {
		switch x := n.(type) {
		case nil:
			got = append(got, "end")
		case *ast.Ident:
			got = append(got, x.Name)
		default:
			got = append(got, strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast."))
		}
		return true
	})
	want := "Block If a end Block Raise Binary x end IntLit end end end end Block Send Unary y end end end end end end"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("Inspect order:\n%s\nwant:\n%s", g, want)
	}

	// Returning false prunes the subtree, and f(nil) is not called for it.
	got = nil
	ast.Inspect(b, func(n ast.Node) bool {
		if n != nil {
			got = append(got, strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast."))
		}
		_, isIf := n.(*ast.If)
		return !isIf
	})
	if g := strings.Join(got, " "); g != "Block If" {
		t.Errorf("pruned Inspect = %s", g)
	}
}

func TestRewriteExpr(t *testing.T) {
	e := langtest.MustParseExpr(t, "a + b * (a ? 1 : c)")
	orig := printer.ExprString(e)
	snapshot := ast.RewriteExpr(e, func(x ast.Expr) ast.Expr { return x })
	if !reflect.DeepEqual(e, snapshot) {
		t.Fatal("identity rewrite differs from the input")
	}

	// Rename a to z, and record the order of the calls: bottom-up.
	var order []string
	got := ast.RewriteExpr(e, func(x ast.Expr) ast.Expr {
		order = append(order, printer.ExprString(x))
		if id, ok := x.(*ast.Ident); ok && id.Name == "a" {
			id.Name = "z" // f may change the copy it receives
		}
		return x
	})
	if s := printer.ExprString(got); s != "z + b * (z ? 1 : c)" {
		t.Errorf("rewritten = %s", s)
	}
	wantOrder := "a|b|a|1|c|z ? 1 : c|b * (z ? 1 : c)|z + b * (z ? 1 : c)"
	if o := strings.Join(order, "|"); o != wantOrder {
		t.Errorf("call order = %s, want %s", o, wantOrder)
	}
	if s := printer.ExprString(e); s != orig || !reflect.DeepEqual(e, snapshot) {
		t.Errorf("input modified: %s", s)
	}

	// Replacing a node by another kind.
	got = ast.RewriteExpr(e, func(x ast.Expr) ast.Expr {
		if c, ok := x.(*ast.Cond); ok {
			return c.Else
		}
		return x
	})
	if s := printer.ExprString(got); s != "a + b * c" {
		t.Errorf("rewritten = %s", s)
	}
	if ast.RewriteExpr(nil, func(x ast.Expr) ast.Expr { return x }) != nil {
		t.Error("RewriteExpr(nil) != nil")
	}
}

func TestRewriteBlock(t *testing.T) {
	src := "a = b + 1; a++; int c = a; if (a > 0) { raise e(p: a) } else if (b) {} " +
		"while (a < 3) a += 1; for (int i = a; i < a; i++) {} send f(q: a) to \"o\" after \"1s\" id \"t\"; cancel \"t\"; assume(a == a); bound array 2 (a <= 2)"
	b := langtest.MustParseStmts(t, src)
	snapshot := ast.RewriteBlock(b, func(x ast.Expr) ast.Expr { return x })
	if !reflect.DeepEqual(b, snapshot) {
		t.Fatal("identity rewrite differs from the input")
	}
	// Substitute 7 for the reads of a; assignment targets stay.
	got := ast.RewriteBlock(b, func(x ast.Expr) ast.Expr {
		if id, ok := x.(*ast.Ident); ok && id.Name == "a" {
			return &ast.IntLit{ValuePos: id.NamePos, Value: 7}
		}
		return x
	})
	want := "a = b + 1; a++; int c = 7; if (7 > 0) { raise e(p: 7); } else if (b) {} " +
		"while (7 < 3) { a += 1; } for (int i = 7; i < 7; i++) {} send f(q: 7) to \"o\" after '1s' id \"t\"; cancel \"t\"; assume(7 == 7); bound array 2 (7 <= 2);"
	if s := printer.BlockString(got); s != want {
		t.Errorf("rewritten:\n%s\nwant:\n%s", s, want)
	}
	if !reflect.DeepEqual(b, snapshot) {
		t.Error("input modified")
	}
	if ast.RewriteBlock(nil, func(x ast.Expr) ast.Expr { return x }) != nil {
		t.Error("RewriteBlock(nil) != nil")
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"a = 1", "a  =  1 // positions differ", true},
		{"a = 1", "a = 2", false},
		{"a = 1", "b = 1", false},
		{"a = 1", "a += 1", false},
		{"a = -1", "a = - 1", true},
		{"a = (b + c) * d", "a = (b+c)*d", true},
		{"a = b + c * d", "a = (b + c) * d", false},
		{"if (a) b = 1", "if (a) { b = 1 }", true},
		{"if (a) {}", "if (a) ;", true},
		{"if (a) {} else {}", "if (a) {}", false},
		{"if (a) {} else if (b) {}", "if (a) {} else { if (b) {} }", false},
		{"var x = 1", "let x = 1", true},
		{"var x = 1", "int x = 1", false},
		{"int x", "int x = 0", false},
		{"x++", "++x", true},
		{"x++", "x--", false},
		{"raise e(p: 1, q: 2)", "raise e(p: 1, q: 2)", true},
		{"raise e(p: 1, q: 2)", "raise e(q: 2, p: 1)", false},
		{"raise e(p: 1)", "raise e(p: 1, q: 2)", false},
		{"raise e()", "send e()", false},
		{`send e() to "a"`, `send e() to 'a'`, true},
		{`send e() to "a"`, `send e() to "b"`, false},
		{`send e() after "1s"`, `send e()`, false},
		{`send e() after "1s" id "a"`, `send e() after "1s" id 'a'`, true},
		{`send e() after "1s" id "a"`, `send e() after "1s"`, false},
		{`cancel "a"`, `cancel 'a'`, true},
		{`cancel "a"`, `cancel "b"`, false},
		{"for (;;) {}", "for (;;) {}", true},
		{"for (i = 0;;) {}", "for (;;) {}", false},
		{"for (; a;) {}", "for (;;) {}", false},
		{"for (;; i++) {}", "for (;; i--) {}", false},
		{"while (a) {}", "while (b) {}", false},
		{"assume(a)", "assume(a)", true},
		{"bound array 2 (a)", "bound array 2 (a)", true},
		{"bound array 2 (a)", "bound array 3 (a)", false},
		{"bound array 2 (a)", "bound loop 2 (a)", false},
		{"bound array 2 (a)", "assume(a)", false},
		{"x = In('A') && _event.data.p", "x = In(\"A\") && _event.data.p", true},
		{"x = In('A')", "x = In('B')", false},
		{"x = _event.data.p", "x = _event.data.q", false},
		{"x = a ? b : c", "x = a ? c : b", false},
		{"x = true", "x = 1", false},
		{"{ a = 1 }", "a = 1", false},
	}
	for _, tt := range tests {
		a, b := langtest.MustParseStmts(t, tt.a), langtest.MustParseStmts(t, tt.b)
		if got := ast.Equal(a, b); got != tt.want {
			t.Errorf("Equal(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := ast.Key(a) == ast.Key(b); got != tt.want {
			t.Errorf("Key(%q) == Key(%q) is %v, want %v:\n%s\n%s", tt.a, tt.b, got, tt.want, ast.Key(a), ast.Key(b))
		}
	}
	// The same child in another slot is another tree.
	step := func() ast.Stmt { return &ast.IncDec{Target: &ast.Ident{Name: "i"}, Op: ast.INC} }
	init, post := &ast.For{Init: step(), Body: &ast.Block{}}, &ast.For{Post: step(), Body: &ast.Block{}}
	if ast.Equal(init, post) || ast.Key(init) == ast.Key(post) {
		t.Errorf("for (i++;;) equals for (;; i++): %s", ast.Key(init))
	}
	// A decimal literal is its value, however written.
	if d1, d2 := langtest.MustParseExpr(t, "1.50"), langtest.MustParseExpr(t, "1.5"); !ast.Equal(d1, d2) || ast.Key(d1) != ast.Key(d2) {
		t.Errorf("1.50 and 1.5 differ: %s %s", ast.Key(d1), ast.Key(d2))
	}
	if !ast.Equal(nil, nil) || ast.Equal(nil, &ast.Block{}) || !ast.Equal(&ast.Block{}, &ast.Block{Stmts: []ast.Stmt{}}) {
		t.Error("Equal on nil and empty blocks")
	}
}

func TestUsesDefs(t *testing.T) {
	tests := []struct {
		src        string
		uses, defs string
	}{
		{"a = b + c", "b c", "a"},
		{"a += 1", "a", "a"},
		{"a++", "a", "a"},
		{"--a", "a", "a"},
		{"a = a", "a", "a"},
		{"a = _event.data.x && In('S')", "", "a"},
		{"int x = a; x++; b = x", "a", "b"},
		{"var x = x", "x", ""},
		{"x = 1; var x = 2; x = 3", "", "x"},
		{"{ int x = 1 } x = 2", "", "x"},
		{"if (c) { int t = 1; a = t } else b = t", "c t", "a b"},
		{"for (int i = 0; i < n; i++) s += i; i = 0", "n s", "i s"},
		{"while (k > 0) k--", "k", "k"},
		{`raise e(p: a, q: b + 1); send f(r: c) to "o"`, "a b c", ""},
		{"assume(z)", "z", ""},
		{"bound array 2 (z)", "z", ""},
		{"a = b; b = a", "a b", "a b"},
	}
	for _, tt := range tests {
		b := langtest.MustParseStmts(t, tt.src)
		if got := strings.Join(lang.Uses(b), " "); got != tt.uses {
			t.Errorf("Uses(%q) = %q, want %q", tt.src, got, tt.uses)
		}
		if got := strings.Join(lang.Defs(b), " "); got != tt.defs {
			t.Errorf("Defs(%q) = %q, want %q", tt.src, got, tt.defs)
		}
	}

	// A single statement or expression.
	e := langtest.MustParseExpr(t, "x > y ? x : z")
	if got := strings.Join(lang.Uses(e), " "); got != "x y z" {
		t.Errorf("Uses(expr) = %q", got)
	}
	if got := lang.Defs(e); len(got) != 0 {
		t.Errorf("Defs(expr) = %q", got)
	}
	d := langtest.MustParseStmts(t, "int x = y").Stmts[0]
	if got := strings.Join(lang.Uses(d), " "); got != "y" {
		t.Errorf("Uses(decl) = %q", got)
	}
}

// TestKeyIsEqual checks, on every node of the printer's corpora and
// golden inputs, that Key and Equal are one identity, and that a rewritten
// copy is equal to its original.
func TestKeyIsEqual(t *testing.T) {
	ins, err := filepath.Glob(filepath.Join("testdata", "print", "*.in"))
	if err != nil || len(ins) == 0 {
		t.Fatalf("no inputs: %v", err)
	}
	srcs := append([]string{}, stmtCorpus...)
	for _, e := range exprCorpus {
		srcs = append(srcs, "x = "+e)
	}
	for _, in := range ins {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(src))
	}
	var nodes []ast.Node
	for _, src := range srcs {
		ast.Inspect(langtest.MustParseStmts(t, src), func(n ast.Node) bool {
			if n != nil {
				nodes = append(nodes, n)
			}
			return true
		})
	}
	keys := make([]string, len(nodes))
	for i, n := range nodes {
		keys[i] = ast.Key(n)
		var c ast.Node
		switch x := n.(type) {
		case ast.Expr:
			c = ast.RewriteExpr(x, func(e ast.Expr) ast.Expr { return e })
		case *ast.Block:
			c = ast.RewriteBlock(x, func(e ast.Expr) ast.Expr { return e })
		case ast.Stmt:
			c = ast.RewriteBlock(&ast.Block{Stmts: []ast.Stmt{x}}, func(e ast.Expr) ast.Expr { return e }).Stmts[0]
		}
		if !ast.Equal(n, c) || ast.Key(c) != keys[i] {
			t.Errorf("a copy of %s differs from it", keys[i])
		}
	}
	for i := range nodes {
		for j := i + 1; j < len(nodes); j++ {
			if ast.Equal(nodes[i], nodes[j]) != (keys[i] == keys[j]) {
				t.Fatalf("Equal is %v for\n%s\n%s", ast.Equal(nodes[i], nodes[j]), keys[i], keys[j])
			}
		}
	}
	t.Logf("%d nodes", len(nodes))
}
