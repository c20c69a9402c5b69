package lang_test

import (
	"testing"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/langtest"
)

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
		_, _, errs := langtest.CheckExpr(t, langtest.RefEnv(), tt.src, tt.want)
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
		_, _, errs := langtest.CheckStmts(t, langtest.RefEnv(), tt.src)
		if errs != tt.errs {
			t.Errorf("CheckBlock(%q) errors:\n%s\nwant:\n%s", tt.src, errs, tt.errs)
		}
	}
}
