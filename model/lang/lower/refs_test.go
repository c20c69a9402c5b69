package lower

import (
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/langtest"
)

func TestLowerRefs(t *testing.T) {
	exprs := []struct{ src, want string }{
		// _event is the event being processed (undefined before the first);
		// a stored one is that event or an earlier one.
		{"ev == _event", "!(_absent_ev == 0) && !_event || _absent_ev == 0 && _event && ev == (_event ? 1 : 0)"},
		{"_event === ev", "(_event ? 0 : 1) == _absent_ev && (!_event || (_event ? 1 : 0) == ev)"},
		{"_event", "_event"},
		{"io == _ioprocessors", "io == 0"},
		{"io", "true"},
		{"ev", "_absent_ev == 0"},
		{"io != ev", "true"},
		{"typeof _ioprocessors", "'object'"},
		// in is decided by the type; of _event it reads the name, so that
		// the flattener reports it where no event is processed.
		{"'f' in o", "true"},
		{"'g' in o", "false"},
		{"'sendid' in _event", "_event.name == _event.name"},
		{"'x' in _event", "false"},
		{"'scxml' in _ioprocessors", "true"},
		{"'basichttp' in _ioprocessors", "false"},
	}
	for _, tt := range exprs {
		e, info, errs := langtest.CheckExpr(t, langtest.RefEnv(), tt.src, ast.Invalid)
		if errs != "" {
			t.Errorf("CheckExpr(%q): %s", tt.src, errs)
			continue
		}
		cond := info.Types[e].Kind == ast.Bool || tt.src == "io" || tt.src == "ev" || tt.src == "_event"
		if got := printer.ExprString(Expr(e, info, cond)); got != tt.want {
			t.Errorf("Expr(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
	stmts := []struct{ src, want string }{
		{"ev = _event", "ev = _event ? 1 : 0; _absent_ev = _event ? 0 : 1;"},
		{"io = _ioprocessors", "io = 0;"},
		{"var e = _event; b = e == _event", "var e = _event ? 1 : 0; int _absent_e = _event ? 0 : 1; b = !(_absent_e == 0) && !_event || _absent_e == 0 && _event && e == (_event ? 1 : 0);"},
	}
	for _, tt := range stmts {
		b, info, errs := langtest.CheckStmts(t, langtest.RefEnv(), tt.src)
		if errs != "" {
			t.Errorf("CheckBlock(%q): %s", tt.src, errs)
			continue
		}
		if got := printer.BlockString(Block(b, info)); got != tt.want {
			t.Errorf("Block(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestRefLeaves(t *testing.T) {
	got := Leaves(ast.EventType)
	if len(got) != 2 || got[0].Type != ast.RangeType(EventStale, EventCurrent) || !got[1].Tag {
		t.Errorf("Leaves(%s) = %v, want the identity in [%d..%d] and a tag", ast.EventType, got, EventStale, EventCurrent)
	}
	if got := Leaves(ast.IOProcessorsType); len(got) != 1 || got[0].Type != ast.RangeType(IOProcessorsID, IOProcessorsID) {
		t.Errorf("Leaves(%s) = %v, want one constant identity", ast.IOProcessorsType, got)
	}
}
