package lower

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/langtest"
)

// TestHostValues: a call of a host function is a black box whose result
// type its use gives; a use that gives none leaves the call, and a
// function used as two types is reported.
func TestHostValues(t *testing.T) {
	tests := []struct {
		expr string
		cond bool
		want map[string]ast.Kind // the host functions found, by result kind
	}{
		{"GetTotal(h) >= 21", false, map[string]ast.Kind{"GetTotal": ast.Int}},
		{"JSON.stringify(x) === '{}'", false, map[string]ast.Kind{"JSON.stringify": ast.String}},
		{"isReady()", true, map[string]ast.Kind{"isReady": ast.Bool}},
		{"!a.b.ok() || x > 1", true, map[string]ast.Kind{"a.b.ok": ast.Bool}},
		{"new Date() - t > 900", false, map[string]ast.Kind{"new Date": ast.Int}},
		{"Date.now() == 2.5", false, map[string]ast.Kind{"Date.now": ast.Int}}, // ECMAScript's time value, whatever the use
		{"Date.now()", false, map[string]ast.Kind{"Date.now": ast.Int}},
		{"u.now() == 2.5", false, map[string]ast.Kind{"u.now": ast.Decimal}},
		{"f() == x", false, map[string]ast.Kind{}},        // no type: left to the checker
		{"isReady()", false, map[string]ast.Kind{}},       // a value of no stated type
		{"Math.abs(x) > 1", false, map[string]ast.Kind{}}, // a built-in
		{"c ? s() == 'a' : n() < 3", true, map[string]ast.Kind{"s": ast.String, "n": ast.Int}},
	}
	for _, tc := range tests {
		in := inliner(t, "")
		e := langtest.MustParseExpr(t, tc.expr)
		if tc.cond {
			in.Cond(e)
		} else {
			in.Expr(e)
		}
		if len(in.Errs) > 0 {
			t.Errorf("%s: %v", tc.expr, in.Errs)
		}
		got := map[string]ast.Kind{}
		for n, h := range in.Hosts {
			got[n] = h.Result.Kind
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: host functions %v, want %v", tc.expr, got, tc.want)
			continue
		}
		for n, k := range tc.want {
			if got[n] != k {
				t.Errorf("%s: %s is %v, want %v", tc.expr, n, got[n], k)
			}
		}
	}
	in := inliner(t, "")
	in.Cond(langtest.MustParseExpr(t, "f() > 1 && f() == 'a'"))
	if len(in.Errs) != 1 || !strings.Contains(in.Errs[0].Msg, "host function f used as a string here and as an int") {
		t.Errorf("a host function of two types: %v", in.Errs)
	}
}

// TestHostValueRefusals: a host call whose use gives no type is refused
// with the hint to declare it (new Date() with the use that gives it one).
func TestHostValueRefusals(t *testing.T) {
	for src, want := range map[string]string{
		"x = f() == y;":      "call of f, a function the model does not define (its host's)",
		"x = new Date();":    "new Date() is a black box of the host's (the time)",
		"x = a.b.get() + 1;": "declare it, <setbot:function name=\"a.b.get\" returns=\"int\"/>",
	} {
		if _, _, errs := langtest.CheckStmts(t, langtest.Env(), src); !strings.Contains(errs, want) {
			t.Errorf("%s: %s, want %q", src, errs, want)
		}
	}
}
