package lang

import (
	"testing"

	"github.com/setbot/setbot/model/source"
)

// decimalEnv adds to lowerEnv d (decimal), du (decimal|undefined) and an
// event f with a decimal parameter v.
func decimalEnv() *Env {
	env := lowerEnv()
	env.Vars["d"] = DecimalType
	env.Vars["du"] = DecimalType.OrAbsent()
	env.Event = func(name string) (map[string]Type, bool) {
		switch name {
		case "e":
			return map[string]Type{"p": IntType, "q": BoolType}, true
		case "f":
			return map[string]Type{"v": DecimalType}, true
		}
		return nil, false
	}
	return env
}

func TestParseDecimal(t *testing.T) {
	tests := []struct{ lit, want string }{
		{"1.5", "3/2"}, {".5", "1/2"}, {"2e3", "2000"}, {"2.5E-1", "1/4"}, {"0.1", "1/10"}, {"1e+2", "100"},
	}
	for _, tt := range tests {
		r, err := ParseDecimal(tt.lit)
		if err != nil || r.RatString() != tt.want {
			t.Errorf("ParseDecimal(%q) = %v, %v; want %s", tt.lit, r, err, tt.want)
		}
	}
}

func TestDecimalRoundTrip(t *testing.T) {
	for _, src := range []string{"1.5", "-0.25 * d", "d > 20.5", "Number(a) + .5", "1e3 - d", "d / 2 == 0.75", "c ? 1 : 2.5"} {
		e, errs := parseExpr(src)
		if len(errs) > 0 {
			t.Fatalf("ParseExpr(%q): %v", src, errs)
		}
		again, errs := parseExpr(ExprString(e))
		if len(errs) > 0 || !Equal(e, again) {
			t.Errorf("%q prints as %q, which parses to another tree", src, ExprString(e))
		}
	}
}

func TestCheckDecimalTypes(t *testing.T) {
	tests := []struct {
		src  string
		want Type
	}{
		{"1.5", DecimalType}, {"d + 1", DecimalType}, {"1 * d", DecimalType}, {"-d", DecimalType},
		{"d / 2", DecimalType}, {"d / 0.25", DecimalType}, {"a / 2", IntType}, {"b ? a : d", DecimalType},
		{"d > 20.5", BoolType}, {"a == 1.0", BoolType}, {"Number(a)", DecimalType}, {"typeof d", StringType},
	}
	for _, tt := range tests {
		e, info, errs := checkExpr(t, decimalEnv(), tt.src, Invalid)
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
		{"Number(s)", "t.scxml:1:8: s is a string: Number() of it is not modelled; setbot's Number() takes a number"},
		{"s.charAt(1.5)", "t.scxml:1:10: 1.5 is decimal: an argument of .charAt needs an int"},
	}
	for _, tt := range tests {
		_, _, errs := checkExpr(t, decimalEnv(), tt.src, Invalid)
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
		_, _, errs := checkStmts(t, decimalEnv(), tt.src)
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
	}
	for _, tt := range tests {
		fs := source.NewFileSet()
		var infos []*Info
		for i, src := range tt.srcs {
			f := fs.AddFile("t"+string(rune('0'+i))+".scxml", []byte(src))
			e, errs := ParseExpr(NewSnippet(f, src))
			if len(errs) > 0 {
				t.Fatalf("ParseExpr(%q): %v", src, errs)
			}
			info, errs := CheckExpr(decimalEnv(), fs, e, Invalid)
			if len(errs) > 0 {
				t.Fatalf("CheckExpr(%q): %v", src, errs)
			}
			infos = append(infos, info)
		}
		if got := errText(CheckDecimals(fs, infos)); got != tt.want {
			t.Errorf("CheckDecimals(%q):\n%s\nwant:\n%s", tt.srcs, got, tt.want)
		}
	}
}

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
	}
	for _, tt := range exprs {
		e, info, errs := checkExpr(t, decimalEnv(), tt.src, Invalid)
		if errs != "" {
			t.Errorf("CheckExpr(%q): %s", tt.src, errs)
			continue
		}
		cond := info.Types[e].Kind != String
		if got := ExprString(LowerExpr(e, info, cond)); got != tt.want {
			t.Errorf("LowerExpr(%q) = %s, want %s", tt.src, got, tt.want)
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
		b, info, errs := checkStmts(t, decimalEnv(), tt.src)
		if errs != "" {
			t.Errorf("CheckBlock(%q): %s", tt.src, errs)
			continue
		}
		if got := BlockString(LowerBlock(b, info)); got != tt.want {
			t.Errorf("LowerBlock(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}
