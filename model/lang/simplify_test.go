package lang

import (
	"math"
	"reflect"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"
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
		e := mustParseExpr(t, tt.src)
		before := ast.RewriteExpr(e, func(x ast.Expr) ast.Expr { return x })
		got := Simplify(e)
		if s := printer.ExprString(got); s != tt.want {
			t.Errorf("Simplify(%s) = %s, want %s", tt.src, s, tt.want)
		}
		if !reflect.DeepEqual(e, before) {
			t.Errorf("Simplify(%s) modified its input", tt.src)
		}
	}

	// -9223372036854775807 - 1 folds to the minimum int64; negating it
	// would overflow.
	minInt := Simplify(mustParseExpr(t, "-9223372036854775807 - 1"))
	if !ast.Equal(minInt, intLit(math.MinInt64)) {
		t.Errorf("min int64 = %s", sexpr(minInt))
	}
	neg := unary(ast.SUB, intLit(math.MinInt64))
	if got := Simplify(neg); !ast.Equal(got, neg) {
		t.Errorf("Simplify(-min) = %s", sexpr(got))
	}
	if got := Simplify(binary(intLit(math.MinInt64), ast.QUO, intLit(-1))); !ast.Equal(got, binary(intLit(math.MinInt64), ast.QUO, intLit(-1))) {
		t.Errorf("Simplify(min / -1) = %s", sexpr(got))
	}
}
