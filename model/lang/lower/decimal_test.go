package lower

import (
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/langtest"
)

func TestLowerDecimals(t *testing.T) {
	exprs := []struct{ src, want string }{
		{"d", "d != 0.0"},
		{"d + a > 1", "d + Number(a) > 1.0"},
		{"a == 1.0", "Number(a) == 1.0"},
		{"b ? a : d", "(b ? Number(a) : d) != 0.0"},
		{"du == 2", "_absent_du == 0 && du == 2.0"},
		{"u == d", "_absent_u == 0 && Number(u) == d"},
		{"typeof d", "'number'"},
		{"1 + 0.5 == 1.5", "true"},
		// parseInt keeps whether it had the radix 10: without one, a "0x"
		// prefix is base 16, so the two forms differ.
		{"parseInt(s) > 0", "parseInt(s) > 0"},
		{"parseInt(s, 10) > 0", "parseInt(s, 10) > 0"},
		{"parseInt(s, 5 + 5) > 0", "parseInt(s, 10) > 0"},
	}
	for _, tt := range exprs {
		e, info, errs := langtest.CheckExpr(t, langtest.DecimalEnv(), tt.src, ast.Invalid)
		if errs != "" {
			t.Errorf("CheckExpr(%q): %s", tt.src, errs)
			continue
		}
		cond := info.Types[e].Kind != ast.String
		if got := printer.ExprString(Expr(e, info, cond)); got != tt.want {
			t.Errorf("Expr(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
	stmts := []struct{ src, want string }{
		{"d = 1", "d = 1.0;"},
		{"d = a", "d = Number(a);"},
		{"d += 1", "d += 1.0;"},
		{"du = 3", "du = 3.0; _absent_du = 0;"},
		{"du = undefined", "du = 0.0; _absent_du = 1;"},
		{"raise f(v: a)", "raise f(v: Number(a));"},
		{"d = -0.5", "d = -0.5;"},
	}
	for _, tt := range stmts {
		b, info, errs := langtest.CheckStmts(t, langtest.DecimalEnv(), tt.src)
		if errs != "" {
			t.Errorf("CheckBlock(%q): %s", tt.src, errs)
			continue
		}
		if got := printer.BlockString(Block(b, info)); got != tt.want {
			t.Errorf("Block(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}
