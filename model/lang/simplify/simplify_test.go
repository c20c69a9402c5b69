package simplify_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/langtest"
	"github.com/setbot/setbot/model/lang/simplify"
)

func TestSimplify(t *testing.T) {
	tests := []struct{ src, want string }{
		{"!true", "false"},
		{"!false", "true"},
		{"!!x", "x"},
		{"!!!x", "!x"},
		{"true && x", "x"},
		{"false && x", "false"},
		{"x && true", "x"},
		{"x && false", "false"},
		{"x || false", "x"},
		{"false || x", "x"},
		{"true || x", "true"},
		{"x || true", "true"},
		{"x && y", "x && y"},
		{"true ? a : b", "a"},
		{"false ? a : b", "b"},
		{"c ? a : b", "c ? a : b"},
		{"c ? true : d", "c || d"},
		{"c ? false : d", "!c && d"},
		{"c ? d : true", "!c || d"},
		{"c ? d : false", "c && d"},
		{"'a' + 'b'", "'ab'"},
		{"'ab' == 'a' + 'b'", "true"},
		{"'a' != 'b'", "true"},
		{"'b' < 'ab'", "false"},
		{"'é' > 'z'", "true"},
		{"'a.b.c'.indexOf('.') + 'a.b.c'.lastIndexOf('.')", "4"},
		{"'a.b.c'.lastIndexOf('.', 2) + 'abc'.lastIndexOf('') + 'abc'.lastIndexOf('b', -1)", "3"},
		{"s.lastIndexOf('.')", "s.lastIndexOf('.')"},
		{"(c ? 'x' : d ? 'y' : 'z') == 'y'", "!c && d"},
		{"(c ? 'x' : 'y') != 'y'", "c"},
		{"(c ? 'x' : s) == 'y'", "!c && s == 'y'"},
		{"1 < 2 ? a : b", "a"},
		{"2 + 3 * 4", "14"},
		{"10 - 20", "-10"},
		{"-5", "-5"},
		{"- -5", "5"},
		{"a - -5", "a - (-5)"},
		{"7 / 2", "3"},
		{"-7 / 2", "-3"},
		{"7 / -2", "-3"},
		{"-7 % 2", "-1"},
		{"7 % -2", "1"},
		{"1 / 0", "1 / 0"},
		{"1 % 0", "1 % 0"},
		{"(2 - 2) + 1 / (1 - 1)", "0 + 1 / 0"},
		{"9223372036854775807 + 1", "9223372036854775807 + 1"},
		{"-9223372036854775807 - 2", "-9223372036854775807 - 2"},
		{"9223372036854775807 * 2", "9223372036854775807 * 2"},
		{"3 == 3", "true"},
		{"3 != 3", "false"},
		{"1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 4", "false"},
		{"true == false", "false"},
		{"true != false", "true"},
		{"a + 1 * 2", "a + 2"},
		{"a + (1 + 2)", "a + 3"},
		{"a + 1 + 2", "a + 1 + 2"},
		{"x && (1 > 2 || y)", "x && y"},
		{"In('S') || !(1 == 1)", "In('S')"},
		{"_event.data.p > 2 * 3", "_event.data.p > 6"},
	}
	for _, tt := range tests {
		e := langtest.MustParseExpr(t, tt.src)
		before := ast.RewriteExpr(e, func(x ast.Expr) ast.Expr { return x })
		got := simplify.Expr(e)
		if s := printer.ExprString(got); s != tt.want {
			t.Errorf("Expr(%s) = %s, want %s", tt.src, s, tt.want)
		}
		if !reflect.DeepEqual(e, before) {
			t.Errorf("Expr(%s) modified its input", tt.src)
		}
	}

	// -9223372036854775807 - 1 folds to the minimum int64; negating it
	// would overflow.
	minInt := simplify.Expr(langtest.MustParseExpr(t, "-9223372036854775807 - 1"))
	if !ast.Equal(minInt, langtest.IntLit(math.MinInt64)) {
		t.Errorf("min int64 = %s", langtest.Sexpr(minInt))
	}
	neg := langtest.Unary(ast.SUB, langtest.IntLit(math.MinInt64))
	if got := simplify.Expr(neg); !ast.Equal(got, neg) {
		t.Errorf("Expr(-min) = %s", langtest.Sexpr(got))
	}
	if got := simplify.Expr(langtest.Binary(langtest.IntLit(math.MinInt64), ast.QUO, langtest.IntLit(-1))); !ast.Equal(got, langtest.Binary(langtest.IntLit(math.MinInt64), ast.QUO, langtest.IntLit(-1))) {
		t.Errorf("Expr(min / -1) = %s", langtest.Sexpr(got))
	}
}
