package lang_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/parser"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/langtest"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/simplify"
)

func TestParseExpr(t *testing.T) {
	tests := []struct{ src, want string }{
		{"1", "1"},
		{"0", "0"},
		{"9223372036854775807", "9223372036854775807"},
		{"true", "true"},
		{"false", "false"},
		{"abc_1", "abc_1"},
		{"a + b * c", "(+ a (* b c))"},
		{"a * b + c", "(+ (* a b) c)"},
		{"a - b - c", "(- (- a b) c)"},
		{"a - (b - c)", "(- a (- b c))"},
		{"a / b % c * d", "(* (% (/ a b) c) d)"},
		{"(a + b) * c", "(* (+ a b) c)"},
		{"a < b == c >= d", "(== (< a b) (>= c d))"},
		{"a == b != c", "(!= (== a b) c)"},
		{"a <= b > c", "(> (<= a b) c)"},
		{"a || b && c", "(|| a (&& b c))"},
		{"a && b || c && d", "(|| (&& a b) (&& c d))"},
		{"a + 1 < b && c", "(&& (< (+ a 1) b) c)"},
		{"a === b", "(=== a b)"},
		{"a !== b", "(!== a b)"},
		{"a | b ^ c & d == e << 1", "(| a (^ b (& c (== d (<< e 1)))))"},
		{"~a >>> 2", "(>>> (~ a) 2)"},
		{"'a' + \"b\"", "(+ 'a' 'b')"},
		{"s.length + s.indexOf('x')", "(+ s.length s.indexOf('x'))"},
		{"typeof x == 'undefined'", "(== typeof x 'undefined')"},
		{"_event.name == _event.type", "(== _event.name _event.type)"},
		{"!a && b", "(&& (! a) b)"},
		{"!(a && b)", "(! (&& a b))"},
		{"!!a", "(! (! a))"},
		{"-a * b", "(* (- a) b)"},
		{"-5", "(- 5)"},
		{"- -a", "(- (- a))"},
		{"a - -5", "(- a (- 5))"},
		{"a % -b", "(% a (- b))"},
		{"+a", "a"},
		{"+-+a", "(- a)"},
		{"a ? b : c", "(? a b c)"},
		{"a ? b : c ? d : e", "(? a b (? c d e))"},
		{"a ? b ? c : d : e", "(? a (? b c d) e)"},
		{"(a ? b : c) ? d : e", "(? (? a b c) d e)"},
		{"a || b ? c + 1 : d", "(? (|| a b) (+ c 1) d)"},
		{"_event.data.x + 1", "(+ _event.data.x 1)"},
		{"_event . data . x", "_event.data.x"},
		{"_event.data.if", "_event.data.if"},
		{"_event.data['x'] + 1", "(+ _event.data.x 1)"},
		{"!_event", "(! _event)"},
		{"typeof _event.sendid === 'undefined'", "(=== typeof _event.sendid 'undefined')"},
		{"_event.origin + _event.origintype + _event.invokeid", "(+ (+ _event.origin _event.origintype) _event.invokeid)"},
		{"_ioprocessors.scxml.location", "_ioprocessors['scxml'].location"},
		{"_ioprocessors['http://www.w3.org/TR/scxml/#SCXMLEventProcessor'].location == _sessionid",
			"(== _ioprocessors['http://www.w3.org/TR/scxml/#SCXMLEventProcessor'].location _sessionid)"},

		{"In('S1')", "In[S1]"},
		{`In("S 2")`, "In[S 2]"},
		{`In('it\'s \\ \"q\" \n\t')`, "In[it's \\ \"q\" \n\t]"},
		{"In ( 'a' )", "In[a]"},
		{"In", "In"},
		{"a /* c */ + // c\n b", "(+ a b)"},
		{"a\n+\nb", "(+ a b)"},
		{"  a  ", "a"},
		// Arrays and objects.
		{"[1, 2, 3]", "(array 1 2 3)"},
		{"[]", "(array)"},
		{"[1, [2], ]", "(array 1 (array 2))"},
		{"{a: 1, 'b': x, if: true,}", "(object a:1 b:x if:true)"},
		{"{}", "(object)"},
		{"a[i + 1]", "([] a (+ i 1))"},
		{"a[0][1].f.g", "(. (. ([] ([] a 0) 1) f) g)"},
		{"o.f + a.length", "(+ (. o f) a.length)"},
		{"-a[0]", "(- ([] a 0))"},
		{"[1, 2][0]", "([] (array 1 2) 0)"},
		{"_event.data['p']", "_event.data.p"},
		{"_event.data.p[0].q", "(. ([] _event.data.p 0) q)"},
	}
	for _, tt := range tests {
		e, errs := langtest.ParseExpr(tt.src)
		if len(errs) > 0 {
			t.Errorf("ParseExpr(%q): %v", tt.src, errs)
			continue
		}
		if got := langtest.Sexpr(e); got != tt.want {
			t.Errorf("ParseExpr(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestParseStmts(t *testing.T) {
	tests := []struct{ src, want string }{
		{"", ""},
		{"  // only a comment\n", ""},
		{"a = 1", "a = 1;"},
		{"a = 1;", "a = 1;"},
		{"a = 1; b = 2", "a = 1; b = 2;"},
		{"a += 1; a -= 2; a *= 3; a /= 4; a %= 5", "a += 1; a -= 2; a *= 3; a /= 4; a %= 5;"},
		{"x++; x--; ++x; --x", "x++; x--; x++; x--;"},
		{"(a) = 1", "a = 1;"},
		{"x = a ? 1 : 2", "x = a ? 1 : 2;"},
		{"var x = 1; let y = true; int z = 2; bool w = false; int n; bool m",
			"var x = 1; var y = true; int z = 2; bool w = false; int n; bool m;"},
		{"if (a) b = 1", "if (a) { b = 1; }"},
		{"if (a) { b = 1 } else c = 2", "if (a) { b = 1; } else { c = 2; }"},
		{"if (a) b = 1; else if (c) d = 2; else e = 3",
			"if (a) { b = 1; } else if (c) { d = 2; } else { e = 3; }"},
		{"if (a) if (b) c = 1; else d = 2", "if (a) { if (b) { c = 1; } else { d = 2; } }"},
		{"if (a) ;", "if (a) {}"},
		{"if (a) {} else {}", "if (a) {} else {}"},
		{"while (i < 3) i++", "while (i < 3) { i++; }"},
		{"while (true) { a = 1; b = 2 }", "while (true) { a = 1; b = 2; }"},
		{"for (int i = 0; i < 3; i++) s += i", "for (int i = 0; i < 3; i++) { s += i; }"},
		{"for (;;) {}", "for (;;) {}"},
		{"var i; for (i = 0; i < 3; i++) s += i", "var i = 0; for (i = 0; i < 3; i++) { s += i; }"},
		{"let k; k = 'a'", "var k = 'a'; k = 'a';"},
		{"for (i = 0; ; i += 2) {}", "for (i = 0;; i += 2) {}"},
		{"for (let i = 0; i < n;) ++i", "for (var i = 0; i < n;) { i++; }"},
		{"for (; c;) {}", "for (; c;) {}"},
		{"for (x of a; !done) s += x", "for (x of a; !done) { s += x; }"},
		{"a.forEach(function (x, i) { s += x * i })", "for (let x, i of a) { s += x * i; }"},
		{"o.xs.forEach(function(x) {\n  s += x;\n});", "for (let x of o.xs) { s += x; }"},
		{"for (let x of a) s += x", "for (let x of a) { s += x; }"},
		{"raise e()", "raise e();"},
		{"raise a.b.c(x: 1, y: a + 1)", "raise a.b.c(x: 1, y: a + 1);"},
		{"raise error.send()", "raise error.send();"},
		{"raise e(x: 1,)", "raise e(x: 1);"},
		{`raise "done.state.my-state"()`, `raise "done.state.my-state"();`},
		{`raise 'plain.name'()`, "raise plain.name();"},
		{`send e() to "out" after "1s"`, `send e() to "out" after '1s';`},
		{`send e(x: 1) to 'out'`, `send e(x: 1) to "out";`},
		{`send e() after '2s'`, `send e() after '2s';`},
		{`send e() after "1s" id 't1'`, `send e() after '1s' id "t1";`},
		{`cancel 't1'`, `cancel "t1";`},
		{"cancel = 1; cancel++", "cancel = 1; cancel++;"},
		{"var id = 1; send e(id: id) after \"1s\" id \"id\"", `var id = 1; send e(id: id) after '1s' id "id";`},
		{`send e(if: 1, to: true)`, `send e(if: 1, to: true);`},
		{"assume(a > 0)", "assume(a > 0);"},
		{"bound array 16 (a.length + 1 <= 16)", "bound array 16 (a.length + 1 <= 16);"},
		{"bound = 1; bound++", "bound = 1; bound++;"},
		{"{ a = 1; { b = 2 } }", "{ a = 1; { b = 2; } }"},
		{";;a = 1;;", "a = 1;"},
		{"{ a = 1 }", "{ a = 1; }"},
		{"a = In('S') && _event.data.x > 0", "a = In('S') && _event.data.x > 0;"},
		// Implicit statement ends.
		{"a = 1\nb = 2", "a = 1; b = 2;"},
		{"a = 1\r\nb = 2", "a = 1; b = 2;"},
		{"a = 1 // c\nb = 2 /* x\n y */ c = 3", "a = 1; b = 2; c = 3;"},
		{"a = b\n-c", "a = b - c;"},
		{"a = b\n++c", "a = b; c++;"},
		{"if (a) x = 1\nelse x = 2", "if (a) { x = 1; } else { x = 2; }"},
		{"raise e()\nsend f()", "raise e(); send f();"},
		{`raise e() id "s1"`, `raise e() id "s1";`},
		{"raise e()\nid = 1", "raise e(); id = 1;"},
		{"send e()\nid = 1", "send e(); id = 1;"},
	}
	for _, tt := range tests {
		b, errs := langtest.ParseStmts(tt.src)
		if len(errs) > 0 {
			t.Errorf("ParseStmts(%q): %v", tt.src, errs)
			continue
		}
		if b.Lbrace != source.NoPos {
			t.Errorf("ParseStmts(%q): Lbrace = %d, want NoPos", tt.src, b.Lbrace)
		}
		if got := printer.BlockString(b); got != tt.want {
			t.Errorf("ParseStmts(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestParseExprErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"", "t.scxml:1:1: expected expression, found end of input"},
		{"a b", "t.scxml:1:3: expected end of expression, found 'b'"},
		{"a;", "t.scxml:1:2: expected end of expression, found ';'"},
		{"a &&", "t.scxml:1:5: expected expression, found end of input"},
		{"(a", "t.scxml:1:3: expected ')', found end of input"},
		{"(a;", "t.scxml:1:3: expected ')', found ';'"},
		{"a ? b", "t.scxml:1:6: expected ':', found end of input"},
		{"x = 1", "t.scxml:1:3: assignment inside an expression: compare with ==, or assign in a statement of its own"},
		{"x++", "t.scxml:1:2: ++ inside an expression: write it as a statement of its own"},
		{"--x", "t.scxml:1:1: -- inside an expression: write it as a statement of its own"},
		{"99999999999999999999", "t.scxml:1:1: integer literal 99999999999999999999 out of range: the largest is 9223372036854775807"},
		{"9223372036854775808", "t.scxml:1:1: integer literal 9223372036854775808 out of range: the largest is 9223372036854775807"},
		{"1.5x", "t.scxml:1:1: invalid number literal 1.5x: write decimals as 1.5 or 2e3"},
		{"01.5", "t.scxml:1:1: invalid number literal 01.5: write it without leading zeros"},
		{"1e999", "t.scxml:1:1: decimal literal 1e999 is outside the range of ECMAScript's numbers"},
		{"0x10", "t.scxml:1:1: invalid integer literal 0x10: write integers in decimal"},
		{"12ab", "t.scxml:1:1: invalid integer literal 12ab: write integers in decimal"},
		{"010", "t.scxml:1:1: invalid integer literal 010: write it without leading zeros"},
		{"_event", ""}, // a condition; the checker refuses it as a value
		{"_event[0]", "t.scxml:1:1: index expression _event[...]: of _event, only data can be indexed, with a parameter's name in quotes"},
		{"'abc'.foo()", "t.scxml:1:1: unsupported call 'abc'.foo(...): setbot models functions declared in a <script> or with setbot:function, In('state'), Number(x), Boolean(x), String(x), parseInt(x), Math.abs, min, max, sign, pow, floor, ceil, round and trunc, the string methods (charAt, endsWith, includes, indexOf, lastIndexOf, replace, slice, startsWith, substr, substring) and concat; write what it computes with those, operators and ?:"},
		{"In('abc", "t.scxml:1:4: unterminated string literal"},
		{"In('ab\nc')", "t.scxml:1:4: unterminated string literal\nt.scxml:2:2: unterminated string literal"},
		{`In('a\qb')`, "t.scxml:1:6: unknown escape sequence \\q"},
		{`In('a\u12')`, "t.scxml:1:6: \\u12: write four hex digits, or \\u{h...}"},
		{`In('\u{e9}\r')`, ""},
		{"a /* b", "t.scxml:1:3: unterminated comment"},
		{"_event.foo", "t.scxml:1:1: member access _event.foo: _event has the fields name, type, sendid, origin, origintype, invokeid and data.NAME; read one of those"},
		{"_event.data", ""}, // the data parameter
		{"_event.data[0]", "t.scxml:1:1: index expression _event.data[...]: name the parameter in quotes, _event.data['NAME'], or read _event.data.NAME"},
		{"a.", "t.scxml:1:3: expected name after '.', found end of input"},
		{"s.substr(1)", ""},
		{"s.replace(/a/g, 'b')", "t.scxml:1:1: unsupported call s.replace(/.../): a regular expression is not modelled; pass the text to find as a string, x.replace('text', 'new'), which replaces its first occurrence"},
		{"s.toUpperCase()", "t.scxml:1:1: unsupported call s.toUpperCase(...): case conversion is not modelled; compare with each spelling the string can have"},
		{"a[0", "t.scxml:1:4: expected ']', found end of input"},
		{"[1, , 2]", "t.scxml:1:5: hole in array literal: write undefined for a missing element"},
		{"[1 2]", "t.scxml:1:4: expected ',' or ']', found '2'"},
		{"{a 1}", "t.scxml:1:4: expected ':', found '1'"},
		{"{1: 2}", "t.scxml:1:2: expected field name, found '1'"},
		{"{a: 1, a: 2}", "t.scxml:1:8: duplicate field a in object literal: give each field once"},
		{"a.unshift(4)", "t.scxml:1:1: unsupported call a.unshift(...): of the methods that change an array in place setbot models push; write the new array with concat, e.g. a = [x].concat(a)"},
		{"_event.data[x]", "t.scxml:1:1: index expression _event.data[...]: name the parameter in quotes, _event.data['NAME'], or read _event.data.NAME"},
		{"In(s)", "t.scxml:1:4: expected string literal in In(), found 's'"},
		{"In('s', 't')", "t.scxml:1:7: expected ')', found ','"},
		{"a ** 2", "t.scxml:1:3: unsupported operator '**': multiply it out, e.g. x * x"},
		{"a ** 2", "t.scxml:1:3: unsupported operator '**': multiply it out, e.g. x * x"},
		{"a # b", "t.scxml:1:3: invalid character '#'"},
		{"a é", "t.scxml:1:3: invalid character 'é'"},
		{"a..b", "t.scxml:1:2: expected end of expression, found '..'"},
		{"typeof _event.data.x", ""},
		{"typeof\nx", ""},
		{"typeof - 1", ""},
		{"_ioprocessors['basichttp']", "t.scxml:1:1: _ioprocessors['basichttp']: setbot has only the SCXML event processor; read _ioprocessors['scxml'].location"},
		{"_ioprocessors['basichttp'].location", "t.scxml:1:1: _ioprocessors['basichttp']: setbot has only the SCXML event processor; read _ioprocessors['scxml'].location"},
		{"_ioprocessors", ""},
		{"'scxml' in _ioprocessors && 'name' in _event", ""},
		{"_ioprocessors.scxml", "t.scxml:1:1: _ioprocessors: of its parts, the SCXML event processor's location is modelled; read _ioprocessors['scxml'].location"},
		{"_ioprocessors.scxml.foo", "t.scxml:1:1: _ioprocessors: of its parts, the SCXML event processor's location is modelled; read _ioprocessors['scxml'].location"},
		{"_ioprocessors[0].location", "t.scxml:1:1: _ioprocessors: of its parts, the SCXML event processor's location is modelled; read _ioprocessors['scxml'].location"},
		{"_ioprocessors.scxml.location", ""},
		{"_ioprocessors['http://www.w3.org/TR/scxml/#SCXMLEventProcessor'].location", ""},
		{"_x.sessionid", "t.scxml:1:1: _x is not supported yet: of the system variables, _sessionid, _name, _ioprocessors['scxml'].location and _event's fields are modelled; compare with those"},
		{"_event.data['p']", ""},
		{"_event.data['p'] + 1", ""},
		{"_event.data[p]", "t.scxml:1:1: index expression _event.data[...]: name the parameter in quotes, _event.data['NAME'], or read _event.data.NAME"},

		{"function(x) { return x }", "t.scxml:1:1: function expression: a function is not a value in setbot; declare it by name at the top of a <script>: function f(a) { ... }"},
		{"if", "t.scxml:1:1: expected expression, found 'if'"},
		{"a +\n\n", "t.scxml:3:1: expected expression, found end of input"},
	}
	for _, tt := range tests {
		_, errs := langtest.ParseExpr(tt.src)
		if got := langtest.ErrText(errs); got != tt.want {
			t.Errorf("ParseExpr(%q) errors:\n%s\nwant:\n%s", tt.src, got, tt.want)
		}
	}
}

func TestParseStmtsErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a = 1 b = 2", "t.scxml:1:7: expected ';', found 'b'"},
		{"a = (1", "t.scxml:1:7: expected ')', found end of input"},
		{"a = 1 +", "t.scxml:1:8: expected expression, found end of input"},
		{"+= 1", "t.scxml:1:1: unexpected token '+='"},
		{"}", "t.scxml:1:1: unexpected token '}'"},
		{"a = 1 }", "t.scxml:1:7: unexpected token '}'"},
		{"else a = 1", "t.scxml:1:1: unexpected token 'else'"},
		{"a = 99999999999999999999", "t.scxml:1:5: integer literal 99999999999999999999 out of range: the largest is 9223372036854775807"},
		{"a = 'x", "t.scxml:1:5: unterminated string literal"},
		{"a = b = c", "t.scxml:1:7: assignment inside an expression: compare with ==, or assign in a statement of its own"},
		{"a = b++", "t.scxml:1:6: ++ inside an expression: write it as a statement of its own"},
		{"a = ++b", "t.scxml:1:5: ++ inside an expression: write it as a statement of its own"},
		{"if (a = 1) {}", "t.scxml:1:7: assignment inside an expression: compare with ==, or assign in a statement of its own"},
		{"a + 1", "t.scxml:1:1: expected assignment, found expression a + 1"},
		{"x\n++\ny", "t.scxml:1:1: expected assignment, found expression x"},
		{"foo() + 1", "t.scxml:1:1: expected assignment, found expression foo() + 1"},
		{"_sessionid = 'x'", "t.scxml:1:1: _sessionid is a system variable, which cannot be assigned (SCXML raises error.execution): assign a variable of your own"},
		{"_event.name += 'x'", "t.scxml:1:1: _event.name is part of the system variable _event, which cannot be assigned (SCXML raises error.execution): assign a variable of your own"},
		{"_event = 1", "t.scxml:1:1: _event is a system variable, which cannot be assigned (SCXML raises error.execution): assign a variable of your own"},
		{"_ioprocessors['http://www.w3.org/TR/scxml/#SCXMLEventProcessor'].location = 'x'", "t.scxml:1:1: _ioprocessors['http://www.w3.org/TR/scxml/#SCXMLEventProcessor'].location is part of the system variable _ioprocessors, which cannot be assigned (SCXML raises error.execution): assign a variable of your own"},
		{"_event.data.x = 1", "t.scxml:1:1: _event.data.x is part of the system variable _event, which cannot be assigned (SCXML raises error.execution): assign a variable of your own"},
		{"In('a')++", "t.scxml:1:1: cannot assign to In('a'): only variables, and their fields and elements, can be assigned"},
		{"++_event.data.x", "t.scxml:1:3: _event.data.x is part of the system variable _event, which cannot be assigned (SCXML raises error.execution): assign a variable of your own"},
		{"a.length = 2", "t.scxml:1:1: cannot assign to a.length: the length of an array changes with its elements; assign a whole array instead"},
		{"_event.data.x[0] = 1", "t.scxml:1:1: _event.data.x[0] is part of the system variable _event, which cannot be assigned (SCXML raises error.execution): assign a variable of your own"},
		{"for (x, 1 of a) {}", "t.scxml:1:9: expected index variable, found '1'"},
		{"for (x, i in a) {}", "t.scxml:1:11: expected 'of', found 'in'"},
		{"var x", "t.scxml:1:1: missing initial value in var declaration of x, which the statement after it does not assign a constant: write var x = 0, or = false"},
		{"let x\ny = 1", "t.scxml:1:1: missing initial value in let declaration of x, which the statement after it does not assign a constant: write let x = 0, or = false"},
		{"int 5 = 1", "t.scxml:1:5: expected variable name, found '5'"},
		{"int x = 1, y = 2", "t.scxml:1:10: expected ';', found ','"},
		{"raise e", "t.scxml:1:8: expected '(', found end of input"},
		{"raise e(1)", "t.scxml:1:9: expected argument name, found '1'"},
		{"raise e(x 1)", "t.scxml:1:11: expected ':', found '1'"},
		{"raise e(x: 1 y: 2)", "t.scxml:1:14: expected ')', found 'y'"},
		{"raise 5()", "t.scxml:1:7: expected event name, found '5'"},
		{"raise e.()", "t.scxml:1:9: expected name after '.', found '('"},
		{`raise ""()`, `t.scxml:1:7: invalid event name ""`},
		{`raise "a b"()`, `t.scxml:1:7: invalid event name "a b"`},
		{"raise e() to 'x'", "t.scxml:1:11: expected ';', found 'to'"},
		{"send e() to x", "t.scxml:1:13: expected string literal, found 'x'"},
		{`send e() after "1s" id t`, "t.scxml:1:24: expected string literal, found 't'"},
		{"if a {}", "t.scxml:1:4: expected '(', found 'a'"},
		{"while (a) ", "t.scxml:1:11: expected statement, found end of input"},
		{"assume a", "t.scxml:1:8: expected '(', found 'a'"},
		{"bound array (a)", "t.scxml:1:13: expected the bound's limit, found '('"},
		{"for (i = 0, j = 0; ; ) {}", "t.scxml:1:11: expected ';', found ','"},
		{"for (;; int i = 0) {}", "t.scxml:1:9: unexpected declaration in for post statement"},
		{"for (a + 1;;) {}", "t.scxml:1:6: expected assignment, found expression a + 1"},
		{"{ a = 1", "t.scxml:1:8: expected '}', found end of input"},
		{"break", "t.scxml:1:1: unsupported statement break: end the loop through its condition"},
		{"const x = 1", "t.scxml:1:1: unsupported statement const: declare it with var or let"},
		{"try { a = 1 } catch (e) { a = 2 }\nb = 1", "t.scxml:1:1: unsupported statement try: error events are not supported yet; write the body without it"},
		{"function f(1) {}", "t.scxml:1:12: expected parameter name, found '1'"},
		{"a = typeof b", ""},
	}
	for _, tt := range tests {
		_, errs := langtest.ParseStmts(tt.src)
		if got := langtest.ErrText(errs); got != tt.want {
			t.Errorf("ParseStmts(%q) errors:\n%s\nwant:\n%s", tt.src, got, tt.want)
		}
	}
}

// TestParseContinues checks that parsing goes on after errors, reporting
// later ones and keeping the statements that parse.
func TestParseContinues(t *testing.T) {
	src := "a = 1 +;\nb = 'x'.foo(1)\nif (c) { d = [1 2]; e = 2 }\nf = 3 g = 4\nh = 5"
	b, errs := langtest.ParseStmts(src)
	want := `t.scxml:1:8: expected expression, found ';'
t.scxml:2:5: unsupported call 'x'.foo(...): setbot models functions declared in a <script> or with setbot:function, In('state'), Number(x), Boolean(x), String(x), parseInt(x), Math.abs, min, max, sign, pow, floor, ceil, round and trunc, the string methods (charAt, endsWith, includes, indexOf, lastIndexOf, replace, slice, startsWith, substr, substring) and concat; write what it computes with those, operators and ?:
t.scxml:3:17: expected ',' or ']', found '2'
t.scxml:4:7: expected ';', found 'g'`
	if got := langtest.ErrText(errs); got != want {
		t.Errorf("errors:\n%s\nwant:\n%s", got, want)
	}
	if got, want := printer.BlockString(b), "a = 1 + _; b = _; if (c) { d = [1]; e = 2; } f = 3; h = 5;"; got != want {
		t.Errorf("partial block = %s, want %s", got, want)
	}
}

func TestParseLimits(t *testing.T) {
	deep := ast.MaxNesting + 100
	deepMsg := fmt.Sprintf("expression nested more than %d deep", ast.MaxNesting)
	stmtsMsg := fmt.Sprintf("statements nested more than %d deep", ast.MaxNesting)
	// An operator chain is parsed in a loop but nests in the tree: the
	// error is at the chain's start, the position of its deepest operator.
	tests := []struct {
		name  string
		stmts bool
		src   string
		col   int
		msg   string
	}{
		{"parens", false, strings.Repeat("(", deep) + "a" + strings.Repeat(")", deep), ast.MaxNesting + 1, deepMsg},
		{"unary", true, "a = " + strings.Repeat("!", deep) + "a", ast.MaxNesting + 3, deepMsg},
		{"ternary", true, "a = " + strings.Repeat("a ? b : ", deep) + "c", 7993, deepMsg},
		{"blocks", true, strings.Repeat("{", deep) + strings.Repeat("}", deep), ast.MaxNesting + 1, stmtsMsg},
		{"ifs", true, strings.Repeat("if (a) ", deep) + "b = 1", 6998, deepMsg},
		{"else ifs", true, "if (a) {}" + strings.Repeat(" else if (a) {}", deep), 14990, deepMsg},
		{"sum", false, "x" + strings.Repeat(" + 1", deep), 1, deepMsg},
		{"sum in a script", true, "y = 2;\nx = x" + strings.Repeat(" + 1", deep), 5, deepMsg},
		{"members", false, "o" + strings.Repeat(".f", deep), 1, deepMsg},
		{"indexes", false, "a" + strings.Repeat("[0]", deep), 1, deepMsg},
		{"elements", false, "[" + strings.Repeat("0, ", ast.MaxNodes) + "0]", 1,
			fmt.Sprintf("expression of more than %d operators and operands: compute it in steps, in locals", ast.MaxNodes)},
		{"statements", true, strings.Repeat("x = 1; ", ast.MaxStmts+1), 7*ast.MaxStmts + 1,
			fmt.Sprintf("more than %d statements in one script: split it between transitions or states", ast.MaxStmts)},
	}
	for _, tt := range tests {
		var errs source.ErrorList
		var tree ast.Node
		if tt.stmts {
			tree, errs = langtest.ParseStmts(tt.src)
		} else {
			tree, errs = langtest.ParseExpr(tt.src)
		}
		if e := ast.OverLimit(tree, ast.MaxNodes); e != nil {
			t.Errorf("%s: the tree returned exceeds the limits: %s", tt.name, e)
		}
		line := 1 + strings.Count(tt.src, "\n")
		want := fmt.Sprintf("t.scxml:%d:%d: %s", line, tt.col, tt.msg)
		if got := langtest.ErrText(errs); got != want {
			t.Errorf("%s: errors:\n%s\nwant:\n%s", tt.name, got, want)
		}
	}

	_, errs := langtest.ParseStmts(strings.Repeat("a = ;\n", 200))
	if len(errs) != parser.MaxErrors {
		t.Errorf("%d errors, want the cap %d", len(errs), parser.MaxErrors)
	}
}

// TestParseWithinLimits: what is just within every limit parses, and the
// passes after the parser (checker, printer, simplifier, inliner) take it.
func TestParseWithinLimits(t *testing.T) {
	for _, src := range []string{
		"x" + strings.Repeat(" + 1", ast.MaxNesting-3) + " > 0",
		strings.Repeat("(", ast.MaxNesting-2) + "x > 0" + strings.Repeat(")", ast.MaxNesting-2),
		"o" + strings.Repeat(".f", ast.MaxNesting-1),
	} {
		e, errs := langtest.ParseExpr(src)
		if len(errs) > 0 {
			t.Fatalf("%.40s...: %v", src, errs)
		}
		printer.ExprString(e)
		simplify.Expr(e)
		in := &lower.Inliner{Fset: source.NewFileSet()}
		lang.CheckExpr(langtest.Env(), nil, e, ast.Bool)
		if _, _ = in.Expr(e); len(in.Errs) > 0 {
			t.Errorf("%.40s...: inlining: %v", src, in.Errs)
		}
	}
	b, errs := langtest.ParseStmts(strings.Repeat("x = x + 1;\n", ast.MaxStmts))
	if len(errs) > 0 || len(b.Stmts) != ast.MaxStmts {
		t.Fatalf("%d statements: %d parsed, %v", ast.MaxStmts, len(b.Stmts), errs)
	}
	lang.CheckBlock(langtest.Env(), nil, b)
}

func TestIllegalExpr(t *testing.T) {
	for _, tc := range []struct {
		text string
		word string
	}{
		{"return", "return"},
		{" return 1", "return"},
		{"if (x) 1", "if"},
		{"var x = 1", "var"},
		{"returned", ""},
		{"x + 1", ""},
		{"function () {}", ""},
		{"'return'", ""},
		{"", ""},
	} {
		word, ok := parser.IllegalExpr(tc.text)
		if word != tc.word || ok != (tc.word != "") {
			t.Errorf("IllegalExpr(%q) = %q, %v; want %q", tc.text, word, ok, tc.word)
		}
	}
}
