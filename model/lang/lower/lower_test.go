package lower

import (
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/langtest"
)

func TestLowerExpr(t *testing.T) {
	tests := []struct{ src, want string }{
		// Truthiness made explicit.
		{"a", "a != 0"},
		{"s && !a", "s != '' && !(a != 0)"},
		{"b", "b"},
		{"u", "_absent_u == 0 && u != 0"},
		{"n", "false"},
		// Loose equality: undefined == null; a value equals only a value.
		{"u == undefined", "!(_absent_u == 0)"},
		{"u == null", "!(_absent_u == 0)"},
		{"u != undefined", "_absent_u == 0"},
		{"u == 2", "_absent_u == 0 && u == 2"},
		{"n == undefined", "!(_absent_n == 0)"},
		{"n == 1", "false"},
		// Strict equality compares tags.
		{"u === undefined", "_absent_u == 1 && !(_absent_u == 0)"},
		{"u === null", "_absent_u == 2 && !(_absent_u == 0)"},
		{"u === 2", "_absent_u == 0 && (!(_absent_u == 0) || u == 2)"},
		{"a === 2", "a == 2"},
		{"s !== 'x'", "s != 'x'"},
		// typeof.
		{"typeof a", "'number'"},
		{"typeof s == 'string'", "true"},
		{"typeof u", "_absent_u == 1 ? 'undefined' : _absent_u == 2 ? 'object' : 'number'"},
		{"typeof n", "_absent_n == 1 ? 'undefined' : _absent_n == 2 ? 'object' : 'undefined'"},
		// _event's fields that may be undefined carry their tags.
		{"_event.type == 'internal'", "_event.type == 'internal'"},
		{"_event.sendid == 's1'", "_event._absent_sendid == 0 && _event.sendid == 's1'"},
		{"typeof _event.origin === 'undefined'", "_event._absent_origin == 1"},
		{"!_event.origintype", "!(_event._absent_origintype == 0 && _event.origintype != '')"},
		{"_event.invokeid == undefined", "!(_event._absent_invokeid == 0)"},
		{"_event.invokeid === 'x'", "_event._absent_invokeid == 0 && (!(_event._absent_invokeid == 0) || _event.invokeid == 'x')"},
		{"_event && !_event", "_event && !_event"},
		// + with one string operand joins strings, the other converted.
		{"s + a == 'x1'", "s + (a >= 0 ? String(a) : '-' + String(-a)) == 'x1'"},
		// + of a string and a value that may be undefined or null spells it.
		{"s + u == 'x'", "(_absent_u == 0 ? s + (u >= 0 ? String(u) : '-' + String(-u)) : _absent_u == 1 ? s + 'undefined' : s + 'null') == 'x'"},
		{"n + s == 'x'", "(_absent_n == 1 ? 'undefined' + s : 'null' + s) == 'x'"},
		// lastIndexOf with a position searches a prefix; literals fold.
		{"s.lastIndexOf('.') == a", "s.lastIndexOf('.') == a"},
		{"s.lastIndexOf('.', a) == 1", "s.substring(0, (a < 0 ? 0 : a) + 1).lastIndexOf('.') == 1"},
		{"'a.b.c'.lastIndexOf('.', 2) == 1", "true"},
	}
	for _, tt := range tests {
		e, info, errs := langtest.CheckExpr(t, langtest.LowerEnv(), tt.src, ast.Invalid)
		if errs != "" {
			t.Errorf("CheckExpr(%q): %s", tt.src, errs)
			continue
		}
		cond := info.Types[e].Kind != ast.String // a condition unless it is a string
		if got := printer.ExprString(Expr(e, info, cond)); got != tt.want {
			t.Errorf("Expr(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestLowerBlock(t *testing.T) {
	tests := []struct{ src, want string }{
		{"u = 3", "u = 3; _absent_u = 0;"},
		{"u = undefined", "u = 0; _absent_u = 1;"},
		{"u = null", "u = 0; _absent_u = 2;"},
		{"u = b ? undefined : a", "u = b ? 0 : a; _absent_u = b ? 1 : 0;"},
		{"n = null", "n = 0; _absent_n = 2;"},
		{"var v = u; a = 1", "var v = u; int _absent_v = _absent_u; a = 1;"},
		{"if (u) { a = 1 }", "if (_absent_u == 0 && u != 0) { a = 1; }"},
		{"raise e(p: a)", "raise e(p: a);"},
		{"s += 'x'", "s += 'x';"},
	}
	for _, tt := range tests {
		b, info, errs := langtest.CheckStmts(t, langtest.LowerEnv(), tt.src)
		if errs != "" {
			t.Errorf("CheckBlock(%q): %s", tt.src, errs)
			continue
		}
		if got := printer.BlockString(Block(b, info)); got != tt.want {
			t.Errorf("Block(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestGlobalDecls(t *testing.T) {
	src := "var a = 1; let z = 2; { var b = true } int r = 3"
	b, _ := langtest.ParseStmts(src)
	isVar := func(name string) bool { return langtest.Env().Vars[name].Kind != ast.Invalid }
	got := printer.BlockString(parser.GlobalDecls(b, isVar))
	if want := "a = 1; var z = 2; { var b = true; } int r = 3;"; got != want {
		t.Errorf("GlobalDecls(%q) = %s, want %s", src, got, want)
	}
}
