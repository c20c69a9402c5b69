package scxml_test

import (
	"regexp"
	"testing"

	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// onentry wraps executable content in the entry actions of one state, on
// the document's second line.
func onentry(content string) string {
	return head + `<datamodel><data id="x" expr="0"/></datamodel><state id="a"><onentry>` + "\n" + content + "</onentry></state></scxml>"
}

// cond puts a transition with the given cond on the document's second line.
func cond(c string) string {
	return head + `<datamodel><data id="x" expr="0"/></datamodel><state id="a">` + "\n" + `<transition event="e" cond="` + c + `"/></state></scxml>`
}

// TestRefusalHints walks the constructs setbot refuses and checks that
// each refusal says, in one line, what to write instead: the message is
// "what is refused: what to do", lower case, with no trailing period.
func TestRefusalHints(t *testing.T) {
	tests := []struct {
		construct string
		doc       string
		want      string
	}{
		{"invoke", head + "<state id=\"a\">\n<invoke type=\"scxml\" src=\"child.scxml\"/></state></scxml>",
			"m.scxml:2:27: <invoke> src \"child.scxml\" cannot be read: the model was given without its directory; write the value inline"},
		{"invoke in executable content", onentry(`<invoke/>`),
			"m.scxml:2:1: <invoke> is not executable content: move it into the <state> or <parallel> whose child session it is"},
		{"donedata object", head + "<state id=\"a\"><final id=\"f\"><donedata>\n<content>{\"p\": 1}</content></donedata></final></state></scxml>",
			"m.scxml:2:10: <content> holding an object or array is not supported yet: send the values as <param name=\"...\" expr=\"...\"/>"},
		{"sendid and sendidexpr", onentry(`<cancel sendid="a" sendidexpr="'a'"/>`),
			"m.scxml:2:20: <cancel> has both sendid and sendidexpr: keep one"},
		{"cancel without sendid", onentry(`<cancel/>`),
			"m.scxml:2:1: <cancel> needs a sendid: add sendid=\"...\", the id of the <send> to cancel"},
		{"content outside send", onentry(`<content>1</content>`),
			"m.scxml:2:1: <content> is not allowed in executable content: move it into a <send> or a <donedata>"},
		{"finalize", onentry(`<finalize/>`),
			"m.scxml:2:1: <finalize> belongs in an <invoke>: move it there"},
		{"param outside send", onentry(`<param name="p" expr="1"/>`),
			"m.scxml:2:1: <param> is not allowed in executable content: move it into a <send>"},
		{"content and param in send", onentry(`<send event="e"><param name="p" expr="1"/><content>123</content></send>`),
			"m.scxml:2:43: <content> in a <send> with namelist or <param>: keep one, the <content> or the named values"},
		{"other child of send", onentry(`<send event="e"><raise event="f"/></send>`),
			"m.scxml:2:17: unexpected <raise> in <send>: a <send> holds only <param> or one <content>"},
		{"send without event", onentry(`<send target="#_parent"/>`),
			"m.scxml:2:1: <send> needs an event: add event=\"...\""},
		{"eventexpr computed", onentry(`<send eventexpr="'e' + x * 2"/>`),
			"m.scxml:2:18: eventexpr \"'e' + x * 2\": setbot cannot tell which events it names (the value is computed at run time); name the event in event=\"...\" (one <send> per event, under <if> where it varies), or assign the variable only string constants"},
		{"two shapes with a parameter named as a string's property", onentry(`<send event="f"><content expr="'a'"/></send><send event="f"><param name="length" expr="1"/></send>`),
			"m.scxml:2:61: event f carries a <content> in some sends and <param>s in others, and a string, number or boolean content has a property length of its own, which the parameter of that name would read: rename the parameter"},
		{"event and eventexpr", onentry(`<send event="e" eventexpr="'e'"/>`),
			"m.scxml:2:17: <send> has both event and eventexpr: keep one"},
		{"target and targetexpr", onentry(`<send event="e" target="#_parent" targetexpr="'#_parent'"/>`),
			"m.scxml:2:35: <send> has both target and targetexpr: keep one"},
		{"idlocation of an int", onentry(`<send event="e" idlocation="x"/>`),
			"m.scxml:2:1: idlocation x holds int values, and a send id is a string: store the id in a variable of its own (a <data> without expr)"},
		{"send type", onentry(`<send event="e" type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor"/>`),
			"m.scxml:2:23: send type \"http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor\" (the Basic HTTP event processor) is not supported: omit type, and send to \"#_parent\" or \"#_name\" for an output"},
		{"delayed send to an external target", onentry(`<send event="e" target="#_other" delay="1s"/>`),
			"m.scxml:2:1: a delayed <send> to external target \"#_other\" is not supported: delay an event to the machine itself, and send to \"#_other\" when it arrives"},
		{"assign to a field", onentry(`<assign location="x.y" expr="1"/>`),
			"m.scxml:2:20: x is an int, not an object: assign .y of an object, declared with an object literal such as {y: ...} as its initial value"},
		{"assign with markup", onentry(`<assign location="x"><scxml/></assign>`),
			"m.scxml:2:22: <assign> holding markup is not supported: write the value in expr or as text"},
		{"param location a field", onentry(`<send event="e"><param name="p" location="x.y"/></send>`),
			"m.scxml:2:43: x is an int, not an object: read .y of an object, declared with an object literal such as {y: ...} as its initial value"},
		{"script src without a directory", onentry(`<script src="a.js"/>`),
			"m.scxml:2:14: <script src> \"a.js\" cannot be read: the model was given without its directory; write the value inline"},
		{"data src URL", head + "<datamodel>\n<data id=\"x\" src=\"http://example.com/x.json\"/></datamodel><state id=\"a\"/></scxml>",
			"m.scxml:2:19: <data src> \"http://example.com/x.json\" is not supported: name a file relative to the model (src=\"file:NAME\"), or write the value inline"},
		{"unknown binding", "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"\n binding=\"lazy\"><state id=\"a\"/></scxml>",
			"m.scxml:2:11: binding \"lazy\" is no SCXML binding: write binding=\"early\" or binding=\"late\", or omit it (early)"},
		{"array bound late", "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" binding=\"late\"><state id=\"a\"><datamodel>\n<data id=\"xs\" expr=\"[1]\"/></datamodel></state></scxml>",
			"m.scxml:2:1: xs is bound late, so it is undefined until its state is entered, and an array or object that may be undefined is not modelled: " +
				"move its <data> into the <datamodel> of <scxml>, which is bound when the machine starts"},
		{"initial value of another kind than declared", head + "<datamodel>\n<data id=\"s\" expr=\"0\" setbot:type=\"string\"/></datamodel><state id=\"a\"/></scxml>",
			"m.scxml:2:36: variable \"s\" is declared string but its initial value is int: give it an initial value of type string, or none (it is then undefined until assigned)"},
		{"a variable of two kinds", cond(`x == 0`)[:len(cond(`x == 0`))-len("</state></scxml>")] + `<onentry><assign location="x" expr="[1]"/></onentry></state></scxml>`,
			"m.scxml:2:74: x is given a value of kind array here, and its initial value at m.scxml:1:118 is int: a variable may hold values of several kinds, but not arrays or objects among them; " +
				"use one variable per kind, or assign x before every read of it in the same block, so that no read can see its initial value (the read at m.scxml:2:29 may see it)"},
		{"xpath data model", "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\"\n datamodel=\"xpath\"><state id=\"a\"/></scxml>",
			"m.scxml:2:13: datamodel \"xpath\" is not supported: write datamodel=\"ecmascript\" or omit it (setbot reads ecmascript-style expressions)"},
		{"unknown attribute", head + "\n<state id=\"a\" colour=\"red\"/></scxml>",
			"m.scxml:2:15: unsupported attribute \"colour\" on <state> (it takes id and initial): remove it, or move it to a namespace of its own"},
		{"unknown element", head + "\n<state id=\"a\"><bogus/></state></scxml>",
			"m.scxml:2:15: unexpected <bogus> in <state>: remove it, or move it to a namespace of its own"},
		{"action directly in a state", head + "\n<state id=\"a\"><raise event=\"e\"/></state></scxml>",
			"m.scxml:2:15: unexpected <raise> in <state>: move it into an <onentry>, <onexit> or <transition>"},
		{"transition type", head + "<state id=\"a\"><initial>\n<transition type=\"local\" target=\"b\"/></initial><state id=\"b\"/></state></scxml>",
			"m.scxml:2:19: transition type \"local\" is not valid: write type=\"internal\" or type=\"external\""},
		{"cond on an initial transition", head + "<state id=\"a\"><initial>\n<transition cond=\"true\" target=\"b\"/></initial><state id=\"b\"/></state></scxml>",
			"m.scxml:2:13: the <transition> of <initial> takes no cond: remove it (it is taken on default entry, unconditionally)"},
		{"other attribute on an initial transition", head + "<state id=\"a\"><initial>\n<transition port=\"1\" target=\"b\"/></initial><state id=\"b\"/></state></scxml>",
			"m.scxml:2:13: unsupported attribute \"port\" on <transition> (it takes target and type): remove it, or move it to a namespace of its own"},
		{"encoding", "<?xml version=\"1.0\" encoding=\"x-klingon\"?>\n" + head + "<state id=\"a\"/></scxml>",
			"m.scxml:1:31: encoding \"x-klingon\" is not supported: save the document as UTF-8, or name an encoding such as ISO-8859-1, windows-1252 or UTF-16"},
		{"DOCTYPE", "<!DOCTYPE scxml>\n" + head + "<state id=\"a\"/></scxml>",
			"m.scxml:1:1: a DOCTYPE or other <!...> declaration is not allowed: remove it (setbot expands no entities)"},

		// The action language, in conds, exprs and scripts.
		{"int compared with a string", cond(`x == 'a'`),
			"m.scxml:2:31: mismatched types int and string for ==: compare values of one type"},
		{"_ioprocessors", cond(`_ioprocessors['basichttp'] == 1`),
			"m.scxml:2:29: _ioprocessors['basichttp']: setbot has only the SCXML event processor; read _ioprocessors['scxml'].location"},
		{"a part of _ioprocessors", cond(`_ioprocessors.scxml == 1`),
			"m.scxml:2:29: _ioprocessors: of its parts, the SCXML event processor's location is modelled; read _ioprocessors['scxml'].location"},
		{"two stored events compared", head + "<datamodel>\n<data id=\"e1\"/><data id=\"e2\"/></datamodel><state id=\"a\"><onentry><assign location=\"e1\" expr=\"_event\"/><assign location=\"e2\" expr=\"_event\"/></onentry><transition cond=\"e1 == e2\"/></state></scxml>",
			"m.scxml:2:171: == between two stored _event objects compares the events they were taken from, which is not modelled: compare each with _event, or compare their fields stored at the time (e.g. _event.name)"},
		{"a field of a stored event", head + "<datamodel>\n<data id=\"e1\"/></datamodel><state id=\"a\"><onentry><assign location=\"e1\" expr=\"_event\"/></onentry><transition cond=\"e1.name == 'x'\"/></state></scxml>",
			"m.scxml:2:116: e1 holds an _event object, whose fields are read only through _event: store the field you need while the event is processed, e.g. v = _event.name"},
		{"_event as event data", head + "<state id=\"a\"><onentry><send event=\"x\"><param name=\"e\" expr=\"_event\"/></send></onentry></state></scxml>",
			"m.scxml:1:149: _event as a part of an array, an object or an event's data is not modelled: put its fields there, e.g. _event.name"},
		{"in with a computed field", cond(`x in _event`),
			"m.scxml:2:29: the left of in is x: name the field in quotes, e.g. 'name' in _event"},
		{"_event.data as a whole", head + `<setbot:event name="e"><setbot:param name="p" type="int"/></setbot:event><state id="a">` + "\n" + `<transition event="e" cond="_event.data == 1"/></state></scxml>`,
			"m.scxml:2:29: _event.data as a whole is an object here (the event has named parameters): objects are not supported yet; read one parameter, _event.data.NAME"},
		{"an unknown _event field", cond(`_event.origin_type == 'x'`),
			"m.scxml:2:29: member access _event.origin_type: _event has the fields name, type, sendid, origin, origintype, invokeid and data.NAME; read one of those"},
		{"arithmetic on undefined", cond(`undefined + 1 == 1`),
			"m.scxml:2:29: undefined may be undefined or null, and operator + needs a value: write a value instead"},
		{"string method on an int", cond(`x.length == 1`),
			"m.scxml:2:29: x is int: .length needs a string"},
		{"member access", cond(`x.size == 1`),
			"m.scxml:2:29: x is an int, not an object: read .size of an object, declared with an object literal such as {size: ...} as its initial value"},
		{"index expression", cond(`x[0] == 1`),
			"m.scxml:2:30: x is an int, not an array: index an array, declared with an array literal such as [1, 2] as its initial value"},
		{"mixed array", head + "<datamodel>\n<data id=\"xs\">[1, 'a']</data></datamodel><state id=\"a\"/></scxml>",
			"m.scxml:2:19: array elements of mixed types int and string: an array holds values of one type (and undefined); use one array per type"},
		{"array too small", head + "<datamodel>\n<data id=\"xs\" expr=\"[1, 2, 3]\" setbot:type=\"int[2]\"/></datamodel><state id=\"a\"/></scxml>",
			"m.scxml:2:45: variable \"xs\" is declared int[2], which cannot hold its initial value: it holds at most 2 elements and the value up to 3; declare a larger bound, e.g. setbot:type=\"int[3]\""},
		{"array past its declared bound", head + "<datamodel>\n<data id=\"xs\" expr=\"[1]\" setbot:type=\"int[1]\"/></datamodel><state id=\"a\"><onentry><assign location=\"xs\" expr=\"[1, 2]\"/></onentry></state></scxml>",
			"m.scxml:2:111: cannot assign [1, 2] to xs: it holds at most 1 elements and the value has at least 2; declare a larger bound, e.g. setbot:type=\"int[2]\""},
		{"unshift", onentry(`<script>xs.unshift(1)</script>`),
			"m.scxml:2:9: unsupported call xs.unshift(...): of the methods that change an array in place setbot models push; write the new array with concat, e.g. xs = [x].concat(xs)"},
		{"call", cond(`Math.cbrt(x) == 1`),
			"m.scxml:2:29: unsupported call Math.cbrt(...): setbot models functions declared in a <script> or with setbot:function, In('state'), Number(x), Boolean(x), String(x), parseInt(x), Math.abs, min, max, sign, pow, floor, ceil, round and trunc, the string methods (charAt, endsWith, includes, indexOf, lastIndexOf, replace, slice, startsWith, substr, substring) and concat; write what it computes with those, operators and ?:"},
		{"unknown function", cond(`f(x) == x`),
			"m.scxml:2:29: call of f, a function the model does not define (its host's): setbot reads such a call as a black box of unknown result where its use gives the type (compared with a literal, in a condition, in arithmetic), and here it does not; declare it, <setbot:function name=\"f\" returns=\"int\"/> (or bool, decimal, string), or compare its result with a literal"},
		{"function expression", head + "<datamodel>\n<data id=\"f\" expr=\"[function(a) {return a + 1;}]\"/></datamodel><state id=\"a\"/></scxml>",
			"m.scxml:2:21: function expression: a function is not a value in setbot; declare it by name at the top of a <script>: function f(a) { ... }"},
		{"function with a side effect in a branch of ?:", onentry(`<script>function f() { x = 1; return 2 }</script><assign location="x" expr="x == 0 ? f() : 3"/>`),
			"m.scxml:2:86: call of f, which assigns x (at m.scxml:2:24), where setbot cannot run it before the code that uses its value: in a transition's cond, a loop's condition, the right of && or ||, or a branch of ?:; call it in a statement of its own, var v = f(...), and use v here"},
		{"recursive function with a side effect", onentry(`<script>function f(n) { x = n; if (n > 0) { f(n - 1) } }</script>`),
			"m.scxml:2:9: function f calls itself and assigns x (at m.scxml:2:25): setbot runs such a function's effects by inlining its body, which recursion would make endless; write it with a loop"},
		{"function called with too many arguments", onentry(`<script>function f(a) { return a } x = f(1, 2)</script>`),
			"m.scxml:2:40: call of f with 2 arguments: it is declared with 1 parameters"},
		{"function declared twice", onentry(`<script>function f() { return 1 }</script><script>function f() { return 2 }</script>`),
			"m.scxml:2:51: function f declared twice (first at m.scxml:2:9), as two different functions: rename one"},
		{"Math.pow with a variable exponent", onentry(`<assign location="x" expr="Math.pow(2, x)"/>`),
			"m.scxml:2:28: call of Math.pow with exponent x: setbot models Math.pow with a constant exponent from 0 to 64; multiply it out otherwise"},
		{"rounding a string", onentry(`<assign location="x" expr="Math.floor('1.5')"/>`),
			"m.scxml:2:28: rounding a string with Math.floor is not modelled: setbot rounds numbers; convert the value first"},
		{"return", onentry(`<script>return</script>`),
			"m.scxml:2:9: return outside a function: return is allowed only in a function; elsewhere code runs to its end, so put what follows under if"},
		{"statement keyword as a value", onentry(`<if cond="x &lt; return"/>`),
			"m.scxml:2:18: return is a statement, not a value: write an expression"},
		{"duplicate parameter", onentry(`<send event="e"><param name="p" expr="1"/><param name="p" expr="2"/></send>`),
			"m.scxml:2:43: duplicate argument p: pass each parameter once"},
		{"decimal into an int", head + `<datamodel><data id="x" expr="0" setbot:type="int"/></datamodel><state id="a"><onentry>` + "\n" + `<assign location="x" expr="1.5"/></onentry></state></scxml>`,
			"m.scxml:2:28: cannot use decimal value as int in assignment to x: declare x decimal (setbot:type=\"decimal\"), or scale the value to an int"},
		{"decimal division", onentry(`<script>var d = 1.5; d = d / 3</script>`),
			"m.scxml:2:28: division of a decimal by 3: setbot divides decimals exactly only by a power of two (2, 4, 0.5, ...), where ECMAScript's quotient is exact too; multiply instead (x * 0.5), or scale to ints and use integer division"},
		{"decimal remainder", onentry(`<script>var d = 1.5; d = d % 2</script>`),
			"m.scxml:2:28: operator % on a decimal is not modelled: scale the values to ints (count tenths) and take the remainder of those"},
		{"arithmetic with an inexact decimal", head + `<datamodel><data id="d" expr="0.1"/></datamodel><state id="a"><onentry>` + "\n" + `<assign location="d" expr="d + 0.5"/></onentry></state></scxml>`,
			"m.scxml:2:30: arithmetic on decimals in a model with the literal 0.1 (at 1:118), which ECMAScript rounds in binary while setbot computes exactly (0.1 + 0.2 == 0.3 is false in ECMAScript): use halves, quarters, ... (0.5, 0.25) or scale to an int (count tenths)"},
		{"hexadecimal literal", onentry(`<assign location="x" expr="0x1F"/>`),
			"m.scxml:2:28: invalid integer literal 0x1F: write integers in decimal"},
		{"power operator", onentry(`<assign location="x" expr="x ** 2"/>`),
			"m.scxml:2:30: unsupported operator '**': multiply it out, e.g. x * x"},
		{"increment in an expression", cond(`++x == 2`),
			"m.scxml:2:29: ++ inside an expression: write it as a statement of its own"},
		{"assignment in a cond", cond(`x = 1`),
			"m.scxml:2:31: assignment inside an expression: compare with ==, or assign in a statement of its own"},
		{"var of a machine variable in a block", onentry(`<script>if (x == 0) { var x = 1 }</script>`),
			"m.scxml:2:27: local x shadows the machine variable x: drop the declaration to assign the variable, or rename the local"},
	}
	// A hint follows the first ": " after the position; lower case, one
	// line, no trailing period.
	shape := regexp.MustCompile(`^m\.scxml:\d+:\d+: [^A-Z\n][^\n]*?: [^\n]*[^.\n]$`)
	for _, tc := range tests {
		t.Run(tc.construct, func(t *testing.T) {
			_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(tc.doc), scxml.Options{})
			if len(errs) == 0 {
				t.Fatalf("%s is accepted", tc.construct)
			}
			if got := errs[0].Error(); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			for _, e := range errs {
				if !shape.MatchString(e.Error()) {
					t.Errorf("%q is not one line of the form \"what: hint\"", e.Error())
				}
			}
			if !shape.MatchString(tc.want) {
				t.Errorf("want %q is not one line of the form \"what: hint\"", tc.want)
			}
		})
	}
}
