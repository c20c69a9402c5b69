package lang_test

import (
	"testing"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/langtest"
)

// The host objects' calls as statements parse into the language's own
// statements: a log into nothing, SCXML.raise and SCXML.send into raise
// and send.
func TestParseHostCalls(t *testing.T) {
	tests := []struct{ src, want string }{
		{`console.log("hello")`, ""},
		{`console.log ("[ping]", _event.data.count); x = 1`, "x = 1;"},
		{`console.error(x); console.warn(1, 2)`, ""},
		{`SCXML.raise("go")`, "raise go();"},
		{`SCXML.raise({name : "error.execution"})`, "raise error.execution();"},
		{`SCXML.raise({"name":"_knockout"}); ;`, "raise _knockout();"},
		{`SCXML.raise({name: "pong", data: {count: (n - 1)}})`, "raise pong(count: n - 1);"},
		{`SCXML.raise({"name" : "fallback", "data" : amount})`, "raise fallback(_data: amount);"},
		{`SCXML.raise({"event" : {"name" : "_terminate"}})`, "raise _terminate();"},
		{`SCXML.send({"event" : {"name" : "knockout"}})`, `send knockout() to "#_parent";`},
		{`SCXML.send({event: {name: "quit", data: {die_alone: 1}}, topic: "pong"})`, `send quit(die_alone: 1) to "#_pong";`},
		{`SCXML.send({name: "e", data: {a: 1}, target: "#_out"})`, `send e(a: 1) to "#_out";`},
		{`SCXML.send({event: {name: "e"}, type: "scxml"})`, "send e();"},
		{`if (n == 0) SCXML.raise({name: "quit"}); else x = 2`, "if (n == 0) { raise quit(); } else { x = 2; }"},
		// A call as a statement: its value is dropped.
		{`f(1)`, "var _call0 = f(1);"},
		{`x = 1; onLightOff()`, "x = 1; var _call7 = onLightOff();"},
		// new Array and new Object are literals.
		{`a = new Array(); o = new Object(); b = new Array(1, x); c = new Array('s'); d = new Object`, "a = []; o = {}; b = [1, x]; c = ['s']; d = {};"},
		// A function expression bound to a name declares the function.
		{`var f = function (a) { return a + 1; }`, "function f(a) { return a + 1; }"},
		{`g = function inner(a, b) { return a; }; x = g(1, 2)`, "function g(a, b) { return a; } x = g(1, 2);"},
	}
	for _, tt := range tests {
		b, errs := langtest.ParseStmts(tt.src)
		if len(errs) > 0 {
			t.Errorf("ParseStmts(%q): %v", tt.src, errs)
			continue
		}
		if got := printer.BlockString(b); got != tt.want {
			t.Errorf("ParseStmts(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestParseHostCallErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`console.dir(x)`, "t.scxml:1:1: unsupported call console.dir(...)"},
		{`SCXML.cancel({sendid: "a"})`, "t.scxml:1:1: unsupported call SCXML.cancel(...)"},
		{`SCXML.raise()`, "t.scxml:1:1: SCXML.raise takes one argument"},
		{`SCXML.raise(e)`, "t.scxml:1:1: SCXML.raise takes an object"},
		{`SCXML.raise({data: 1})`, "t.scxml:1:1: SCXML.raise without the event's name"},
		{`SCXML.raise({name: "a b"})`, `t.scxml:1:20: SCXML.raise of an invalid event name "a b"`},
		{`SCXML.raise({name: "take." + i})`, "t.scxml:1:20: SCXML.raise with a computed event name 'take.' + i"},
		{`SCXML.raise({name: "e", target: "x"})`, "t.scxml:1:25: SCXML.raise with field target: setbot reads the fields name and data of the event"},
		{`SCXML.raise({event: _event})`, "t.scxml:1:1: SCXML.raise of _event raises the event being processed again"},
		{`SCXML.send({event: "e"})`, "t.scxml:1:1: SCXML.send with event 'e': write the event as an object"},
		{`SCXML.send({name: "e", delay: "1s"})`, "t.scxml:1:24: SCXML.send with field delay"},
		{`SCXML.send({name: "e", topic: t})`, "t.scxml:1:31: SCXML.send with a computed topic t"},
		{`SCXML.send({name: "e", type: "basichttp"})`, `t.scxml:1:24: SCXML.send of type "basichttp"`},
		{`a = new Array(3)`, "t.scxml:1:9: new Array(n) makes an array of n holes"},
		{`a = new Array(n)`, "t.scxml:1:9: new Array(n) makes an array of n holes"},
		{`o = new Object(1)`, "t.scxml:1:9: new Object(value) is not modelled"},
		{`o.f = function (a) { return a; }`, "t.scxml:1:7: function expression: a function is not a value in setbot"},
		{`int f = function (a) { return a; }`, "t.scxml:1:9: function expression: a function is not a value in setbot"},
	}
	for _, tt := range tests {
		_, errs := langtest.ParseStmts(tt.src)
		if len(errs) == 0 {
			t.Errorf("ParseStmts(%q): no error, want %s", tt.src, tt.want)
			continue
		}
		if got := errs[0].Error(); len(got) < len(tt.want) || got[:len(tt.want)] != tt.want {
			t.Errorf("ParseStmts(%q): %s, want %s...", tt.src, got, tt.want)
		}
	}
}

// Any string is a field name; one that is no identifier is written
// ['key'], in code, in types and in the names of the lowered parts.
func TestFieldKeys(t *testing.T) {
	b, errs := langtest.ParseStmts(`o = {'take.1': 1, take: {'1': 2}}; o['take.1'] = 3`)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got, want := printer.BlockString(b), "o = {'take.1': 1, take: {'1': 2}}; o['take.1'] = 3;"; got != want {
		t.Errorf("printed %s, want %s", got, want)
	}
	for name, want := range map[string]string{"take": ".take", "take.1": "['take.1']", "1": "['1']", "it's": `['it\'s']`} {
		if got := printer.FieldSuffix(name); got != want {
			t.Errorf("FieldSuffix(%q) = %s, want %s", name, got, want)
		}
	}
}
