package lang_test

import (
	"testing"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/parser"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/langtest"
	"github.com/setbot/setbot/model/lang/simplify"
)

// A literal reads as ECMAScript reads it, and prints as written; one that
// folding makes prints in the shortest form that reads back as it.
func TestDecimalLiteralValues(t *testing.T) {
	tests := []struct{ src, want string }{
		{"0.1 == 0.10000000000000001", "true"},
		{"1e-400 == 0", "true"},
		{"0.1 < 0.1000000000000000055511151231257827021181583404541015625", "false"},
		{"-0.1", "-0.1"},
		{"Number(3)", "3.0"},
		{"0.5 * 2.5", "1.25"},
	}
	for _, tt := range tests {
		e, errs := langtest.ParseExpr(tt.src)
		if len(errs) > 0 {
			t.Fatalf("ParseExpr(%q): %v", tt.src, errs)
		}
		if got := printer.ExprString(simplify.Expr(e)); got != tt.want {
			t.Errorf("%s folds to %s, want %s", tt.src, got, tt.want)
		}
	}
	e, _ := langtest.ParseExpr("x > 0.1")
	if got := printer.ExprString(e); got != "x > 0.1" {
		t.Errorf("x > 0.1 prints as %s", got)
	}
}

func TestDecimalRoundTrip(t *testing.T) {
	for _, src := range []string{"1.5", "-0.25 * d", "d > 20.5", "Number(a) + .5", "1e3 - d", "d / 2 == 0.75", "c ? 1 : 2.5"} {
		e, errs := langtest.ParseExpr(src)
		if len(errs) > 0 {
			t.Fatalf("ParseExpr(%q): %v", src, errs)
		}
		again, errs := langtest.ParseExpr(printer.ExprString(e))
		if len(errs) > 0 || !ast.Equal(e, again) {
			t.Errorf("%q prints as %q, which parses to another tree", src, printer.ExprString(e))
		}
	}
}

func TestCheckDecimalTypes(t *testing.T) {
	tests := []struct {
		src  string
		want ast.Type
	}{
		{"1.5", ast.DecimalType}, {"d + 1", ast.DecimalType}, {"1 * d", ast.DecimalType}, {"-d", ast.DecimalType},
		{"d / 2", ast.DecimalType}, {"d / 0.25", ast.DecimalType}, {"a / 2", ast.IntType}, {"b ? a : d", ast.DecimalType},
		{"d > 20.5", ast.BoolType}, {"a == 1.0", ast.BoolType}, {"Number(a)", ast.DecimalType}, {"typeof d", ast.StringType},
		{"Number(s)", ast.DecimalType}, {"String(d)", ast.StringType}, {"parseInt(s)", ast.IntType}, {"parseInt(d)", ast.IntType},
		{"parseInt(a)", ast.IntType}, {"parseInt(s, 10)", ast.IntType}, {"parseInt(s, 5 + 5)", ast.IntType},
	}
	for _, tt := range tests {
		e, info, errs := langtest.CheckExpr(t, langtest.DecimalEnv(), tt.src, ast.Invalid)
		if errs != "" {
			t.Errorf("CheckExpr(%q): %s", tt.src, errs)
			continue
		}
		if got := info.Types[e]; got.String() != tt.want.String() {
			t.Errorf("CheckExpr(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestCheckDecimalErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"d % 2", "t.scxml:1:3: operator % on a decimal is not modelled: scale the values to ints (count tenths) and take the remainder of those"},
		{"d / 3", "t.scxml:1:3: division of a decimal by 3: setbot divides decimals exactly only by a power of two (2, 4, 0.5, ...), where ECMAScript's quotient is exact too; multiply instead (x * 0.5), or scale to ints and use integer division"},
		{"a / d", "t.scxml:1:3: division of a decimal by d: setbot divides decimals exactly only by a power of two (2, 4, 0.5, ...), where ECMAScript's quotient is exact too; multiply instead (x * 0.5), or scale to ints and use integer division"},
		{"d & 1", "t.scxml:1:3: operator & on a decimal is not modelled: ECMAScript's bit operators work on 32-bit ints; scale the value to an int"},
		{"~d", "t.scxml:1:1: operator ~ on a decimal is not modelled: ECMAScript's bit operators work on 32-bit ints; scale the value to an int"},
		{"d == 's'", "t.scxml:1:3: mismatched types decimal and string for ==: compare values of one type"},
		{"du + 1", "t.scxml:1:1: du may be undefined or null, and operator + needs a value: give it one first (e.g. an expr on its <data>)"},
		{"Number(b)", "t.scxml:1:8: b is a bool: Number() of it is not modelled; setbot's Number() takes a number or a string"},
		{"parseInt(s, 16)", "t.scxml:1:13: parseInt with radix 16: setbot models radix 10 only; leave the radix out or write 10"},
		{"parseInt(s, a)", "t.scxml:1:13: parseInt with radix a: setbot models radix 10 only; leave the radix out or write 10"},
		{"parseInt(b)", "t.scxml:1:1: parseInt of a bool is not modelled: setbot parses strings and truncates numbers"},
		{"parseInt(s, 10, 1)", "t.scxml:1:1: call of parseInt with 3 arguments: setbot models parseInt(s) and parseInt(s, 10)"},
		{"s.charAt(1.5)", "t.scxml:1:10: 1.5 is decimal: an argument of .charAt needs an int"},
	}
	for _, tt := range tests {
		_, _, errs := langtest.CheckExpr(t, langtest.DecimalEnv(), tt.src, ast.Invalid)
		if errs != tt.want {
			t.Errorf("CheckExpr(%q) errors:\n%s\nwant:\n%s", tt.src, errs, tt.want)
		}
	}
	stmts := []struct{ src, want string }{
		{"a = 1.5", "t.scxml:1:5: cannot use decimal value as int in assignment to a: declare a decimal (setbot:type=\"decimal\"), or scale the value to an int"},
		{"a += d", "t.scxml:1:6: a is an int, and a += d is a decimal: declare a decimal (setbot:type=\"decimal\")"},
		{"d %= 2", "t.scxml:1:3: operator % on a decimal is not modelled: scale the values to ints (count tenths) and take the remainder of those"},
		{"d = 1; d += 0.5; d++; raise f(v: 1)", ""},
		{"raise e(p: 1.5)", "t.scxml:1:12: cannot use decimal value as int in argument p of event e"},
	}
	for _, tt := range stmts {
		_, _, errs := langtest.CheckStmts(t, langtest.DecimalEnv(), tt.src)
		if errs != tt.want {
			t.Errorf("CheckBlock(%q) errors:\n%s\nwant:\n%s", tt.src, errs, tt.want)
		}
	}
}

// TestCheckDecimals checks the agreement rule: arithmetic on decimals is
// refused where the model has a literal no double holds.
func TestCheckDecimals(t *testing.T) {
	tests := []struct {
		srcs []string
		want string
	}{
		{[]string{"d > 0.1", "d == 0.3"}, ""},
		{[]string{"d + 0.5 > 2.25", "d * 2 < 1e3"}, ""},
		{[]string{"d + 0.5 > 2", "d == 0.1"}, "t0.scxml:1:3: arithmetic on decimals in a model with the literal 0.1 (at 1:6), which ECMAScript rounds in binary while setbot computes exactly (0.1 + 0.2 == 0.3 is false in ECMAScript): use halves, quarters, ... (0.5, 0.25) or scale to an int (count tenths)"},
		{[]string{"0.1 + 0.2 == 0.3"}, "t0.scxml:1:5: arithmetic on decimals in a model with the literal 0.1 (at 1:1), which ECMAScript rounds in binary while setbot computes exactly (0.1 + 0.2 == 0.3 is false in ECMAScript): use halves, quarters, ... (0.5, 0.25) or scale to an int (count tenths)"},
		{[]string{"a + 1 > 0", "d == 0.1"}, ""},
		// The written value decides, not the double it reads as.
		{[]string{"d + 1e-400 > 0"}, "t0.scxml:1:3: arithmetic on decimals in a model with the literal 1e-400 (at 1:5), which ECMAScript rounds in binary while setbot computes exactly (0.1 + 0.2 == 0.3 is false in ECMAScript): use halves, quarters, ... (0.5, 0.25) or scale to an int (count tenths)"},
		{[]string{"d + 0.1000000000000000055511151231257827021181583404541015625 > 0"}, ""},
	}
	for _, tt := range tests {
		fs := source.NewFileSet()
		var infos []*lang.Info
		for i, src := range tt.srcs {
			f := fs.AddFile("t"+string(rune('0'+i))+".scxml", []byte(src))
			e, errs := parser.ParseExpr(parser.NewSnippet(f, src))
			if len(errs) > 0 {
				t.Fatalf("ParseExpr(%q): %v", src, errs)
			}
			info, errs := lang.CheckExpr(langtest.DecimalEnv(), fs, e, ast.Invalid)
			if len(errs) > 0 {
				t.Fatalf("CheckExpr(%q): %v", src, errs)
			}
			infos = append(infos, info)
		}
		if got := langtest.ErrText(lang.CheckDecimals(fs, infos)); got != tt.want {
			t.Errorf("CheckDecimals(%q):\n%s\nwant:\n%s", tt.srcs, got, tt.want)
		}
	}
}
