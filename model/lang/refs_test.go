package lang

import "testing"
import "github.com/setbot/setbot/model/lang/ast"
import "github.com/setbot/setbot/model/lang/printer"

// refEnv adds to testEnv ev and ev2 (stored _event objects), io (a stored
// _ioprocessors) and o, an object {f: int}.
func refEnv() *Env {
	env := testEnv()
	env.Vars["ev"] = ast.EventType
	env.Vars["ev2"] = ast.EventType
	env.Vars["io"] = ast.IOProcessorsType
	env.Vars["o"] = ast.ObjectType([]ast.Field{{Name: "f", Type: ast.IntType}})
	return env
}

func TestCheckRefs(t *testing.T) {
	tests := []struct {
		src  string
		want ast.Kind
		errs string
	}{
		{"_event", ast.EventRef, ""},
		{"_ioprocessors", ast.IOProcessorsRef, ""},
		{"ev == _event && _event === ev && io == _ioprocessors && ev != undefined", ast.Bool, ""},
		{"io == ev", ast.Bool, ""},
		{"typeof _ioprocessors", ast.String, ""},
		{"'f' in o && 'g' in o && 'name' in _event && 'data' in _event && 'scxml' in io", ast.Bool, ""},
		{"ev == ev2", ast.Bool, "t.scxml:1:4: == between two stored _event objects compares the events they were taken from, which is not modelled: compare each with _event, or compare their fields stored at the time (e.g. _event.name)"},
		{"ev.name", ast.Invalid, "t.scxml:1:1: ev holds an _event object, whose fields are read only through _event: store the field you need while the event is processed, e.g. v = _event.name"},
		{"io['scxml']", ast.Invalid, "t.scxml:1:1: io holds _ioprocessors, whose parts are read only through _ioprocessors: read _ioprocessors['scxml'].location"},
		{"[_event]", ast.Invalid, "t.scxml:1:2: _event as a part of an array, an object or an event's data is not modelled: put its fields there, e.g. _event.name"},
		{"{p: _ioprocessors}", ast.Invalid, "t.scxml:1:5: _ioprocessors as a part of an array, an object or an event's data is not modelled: put its location there, _ioprocessors['scxml'].location"},
		{"io + 1", ast.Invalid, "t.scxml:1:4: operator + needs int operands, found _ioprocessors and int"},
		{"io == 1", ast.Bool, "t.scxml:1:4: mismatched types _ioprocessors and int for ==: compare values of one type"},
		{"a in o", ast.Bool, "t.scxml:1:1: the left of in is a: name the field in quotes, e.g. 'name' in _event"},
		{"'f' in a", ast.Bool, "t.scxml:1:5: in needs an object on its right, and a is an int: test the field of an object, or of _event"},
		{"'f' in [1]", ast.Bool, "t.scxml:1:5: in on an array: compare the index with its length, i < [1].length"},
		{"'f' in ev", ast.Bool, "t.scxml:1:8: ev may be undefined or null, and in needs a value: give it one first (e.g. an expr on its <data>)"},
	}
	for _, tt := range tests {
		_, _, errs := checkExpr(t, refEnv(), tt.src, tt.want)
		if errs != tt.errs {
			t.Errorf("CheckExpr(%q) errors:\n%s\nwant:\n%s", tt.src, errs, tt.errs)
		}
	}
}

func TestCheckRefStmts(t *testing.T) {
	tests := []struct{ src, errs string }{
		{"ev = _event; io = _ioprocessors; var e = _event; var i = io", ""},
		{"io = _event", "t.scxml:1:6: cannot use _event value as _ioprocessors in assignment to io"},
		{"ev = _ioprocessors", "t.scxml:1:6: cannot use _ioprocessors value as _event in assignment to ev"},
		{"raise e(p: _event)", "t.scxml:1:12: _event as a part of an array, an object or an event's data is not modelled: put its fields there, e.g. _event.name"},
	}
	for _, tt := range tests {
		_, _, errs := checkStmts(t, refEnv(), tt.src)
		if errs != tt.errs {
			t.Errorf("CheckBlock(%q) errors:\n%s\nwant:\n%s", tt.src, errs, tt.errs)
		}
	}
}

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
		e, info, errs := checkExpr(t, refEnv(), tt.src, ast.Invalid)
		if errs != "" {
			t.Errorf("CheckExpr(%q): %s", tt.src, errs)
			continue
		}
		cond := info.Types[e].Kind == ast.Bool || tt.src == "io" || tt.src == "ev" || tt.src == "_event"
		if got := printer.ExprString(LowerExpr(e, info, cond)); got != tt.want {
			t.Errorf("LowerExpr(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
	stmts := []struct{ src, want string }{
		{"ev = _event", "ev = _event ? 1 : 0; _absent_ev = _event ? 0 : 1;"},
		{"io = _ioprocessors", "io = 0;"},
		{"var e = _event; b = e == _event", "var e = _event ? 1 : 0; int _absent_e = _event ? 0 : 1; b = !(_absent_e == 0) && !_event || _absent_e == 0 && _event && e == (_event ? 1 : 0);"},
	}
	for _, tt := range stmts {
		b, info, errs := checkStmts(t, refEnv(), tt.src)
		if errs != "" {
			t.Errorf("CheckBlock(%q): %s", tt.src, errs)
			continue
		}
		if got := printer.BlockString(LowerBlock(b, info)); got != tt.want {
			t.Errorf("LowerBlock(%q) = %s, want %s", tt.src, got, tt.want)
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
