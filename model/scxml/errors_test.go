package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

const head = `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml">`

// TestErrors feeds one document per class of bad input and checks the
// exact errors, each with file, line and column.
func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		{"malformed XML", head + "\n<state id=\"a\">\n</scxml>",
			[]string{"m.scxml:3:9: malformed XML: element <state> closed by </scxml>"}},
		{"DOCTYPE refused", "<!DOCTYPE scxml [<!ENTITY x \"y\">]>\n" + head + "<state id=\"a\"/></scxml>",
			[]string{"m.scxml:1:1: a DOCTYPE or other <!...> declaration is not allowed: remove it (setbot expands no entities)"}},
		{"not scxml", `<statechart/>`,
			[]string{"m.scxml:1:1: root element is <statechart>, want <scxml>"}},
		{"no states", head + `</scxml>`,
			[]string{"m.scxml:1:1: <scxml> has no states: add a <state> (SCXML allows a document without one, but its machine never does anything, so there is nothing to analyse)"}},
		{"invoke", head + "\n<state id=\"a\">\n  <invoke type=\"x\"/>\n</state></scxml>",
			[]string{"m.scxml:3:17: <invoke type=\"x\"> is not supported: setbot invokes SCXML machines only (type=\"scxml\" or \"http://www.w3.org/TR/scxml/\"); model another kind of service as the environment, through outputs and input events"}},
		{"foreach without item", head + "<state id=\"a\"><onentry>\n<foreach array=\"x\"/></onentry></state></scxml>",
			[]string{"m.scxml:2:1: <foreach> needs an array and an item: add array=\"...\" and item=\"...\""}},
		{"donedata outside final", head + "<state id=\"f\">\n <donedata/></state></scxml>",
			[]string{"m.scxml:2:2: <donedata> belongs in a <final>: move it there, or remove it"}},
		{"state in executable content", head + "<state id=\"a\"><onentry>\n<state id=\"b\"/></onentry></state></scxml>",
			[]string{"m.scxml:2:1: <state> is not allowed inside <onentry>: move it out"}},
		{"state in finalize", head + "<state id=\"a\"><invoke><content><scxml version=\"1.0\"><final id=\"z\"/></scxml></content><finalize>\n<state id=\"b\"/></finalize></invoke></state></scxml>",
			[]string{"m.scxml:2:1: <state> is not allowed inside <finalize>: move it out"}},
		{"unknown SCXML element", head + "<state id=\"a\"><bogus/></state></scxml>",
			[]string{"m.scxml:1:102: unexpected <bogus> in <state>: remove it, or move it to a namespace of its own"}},
		{"unknown attribute", head + "<state id=\"a\" colour=\"red\"/></scxml>",
			[]string{"m.scxml:1:102: unsupported attribute \"colour\" on <state> (it takes id and initial): remove it, or move it to a namespace of its own"}},
		{"unknown setbot attribute", head + "<state id=\"a\" setbot:colour=\"red\"/></scxml>",
			[]string{"m.scxml:1:102: unknown setbot attribute \"colour\" on <state> (it takes setbot:expect): remove it"}},
		{"foreign namespace ignored", `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:qt="http://theqtcompany.com/scxml/2015/06/">` +
			`<qt:editorinfo x="1"/><state id="a" qt:color="red"/></scxml>`, nil},
		{"duplicate id", head + "<state id=\"a\"/>\n<state id=\"a\"/></scxml>",
			[]string{"m.scxml:2:1: duplicate state id \"a\": give each state its own id"}},
		{"unknown target", head + "<state id=\"a\"><transition event=\"e\" target=\"nowhere\"/></state></scxml>",
			[]string{"m.scxml:1:132: unknown target state \"nowhere\""}},
		{"initial outside", head + "<state id=\"a\" initial=\"b\"><state id=\"c\"/></state><state id=\"b\"/></scxml>",
			[]string{"m.scxml:1:111: initial target \"b\" is not a descendant of \"a\""}},
		{"history defaults in a cycle", head + "<state id=\"a\">\n<history id=\"h1\"><transition target=\"h2\"/></history>\n" +
			"<history id=\"h2\"><transition target=\"h1\"/></history><state id=\"b\"/></state></scxml>",
			[]string{"m.scxml:2:1: the default transitions of history states lead in a cycle: h1 -> h2 -> h1; make one of them target a state that is not a history"}},
		{"history without default", head + "<state id=\"a\"><history id=\"h\"/><state id=\"b\"/></state></scxml>",
			[]string{"m.scxml:1:102: <history> \"h\" needs exactly one default <transition>, has 0"}},
		{"syntax error in cond, column through entities", head + "\n<state id=\"a\"><transition event=\"e\" cond=\"1 &lt; &lt; 2\"/></state></scxml>",
			[]string{"m.scxml:2:50: expected expression, found '<'"}},
		{"undeclared variable read on some values only", head + "<state id=\"a\"><onentry>\n<if cond=\"false || y\"/></onentry></state></scxml>",
			[]string{"m.scxml:2:20: undeclared name y"}},
		{"event parameter of no kind its uses tell", head + "<state id=\"a\"><transition event=\"go\" cond=\"_event.data.speed + 1 &gt; 1\"/></state></scxml>",
			[]string{"m.scxml:1:131: event parameter speed is not declared: declare it with a <setbot:param> of the event, or pass it in every send"}},
		{"event parameter whose uses disagree", head + "<state id=\"a\"><transition event=\"go\" cond=\"_event.data.speed == 1 || _event.data.speed == 'a'\"/></state></scxml>",
			[]string{"m.scxml:1:131: event parameter speed is not declared: declare it with a <setbot:param> of the event, or pass it in every send", "m.scxml:1:157: event parameter speed is not declared: declare it with a <setbot:param> of the event, or pass it in every send"}},
		{"two kinds in one variable", head + "<datamodel><data id=\"x\"/></datamodel><state id=\"a\"><onentry>\n<assign location=\"x\" expr=\"1\"/>\n<assign location=\"x\" expr=\"[2]\"/></onentry></state></scxml>",
			[]string{"m.scxml:3:28: x is given a value of type int[1] here and one of type int at m.scxml:2:28: a variable may hold values of several kinds, but not arrays or objects among them; use one variable per type"}},
		{"data not constant", head + "<setbot:event name=\"e\"><setbot:param name=\"p\" type=\"int\"/></setbot:event><datamodel>\n<data id=\"x\" expr=\"_event.data.p\"/></datamodel><state id=\"a\"/></scxml>",
			[]string{"m.scxml:2:20: no event parameters in scope"}},
		{"range excludes initial value", head + "<datamodel>\n<data id=\"x\" expr=\"500\" setbot:type=\"int[0..200]\"/></datamodel><state id=\"a\"/></scxml>",
			[]string{"m.scxml:2:38: initial value 500 of \"x\" is outside int[0..200]"}},
		{"bad type annotation", head + "<setbot:event name=\"e\">\n<setbot:param name=\"p\" type=\"float\"/></setbot:event><state id=\"a\"/></scxml>",
			[]string{"m.scxml:2:30: unknown type \"float\" in \"float\" (want int, int[lo..hi], decimal, bool, string, an array T[N] or an object {name: T, ...}, optionally with |undefined)"}},
		{"dynamic send", head + "<state id=\"a\"><onentry>\n<foreach array=\"[1]\" item=\"i\"><send event=\"x\" targetexpr=\"t\"/></foreach></onentry></state></scxml>",
			[]string{"m.scxml:2:59: undeclared name t"}},
		{"delayed external send", head + "<state id=\"a\"><onentry>\n<send event=\"x\" target=\"#_out\" delay=\"1s\"/></onentry></state></scxml>",
			[]string{"m.scxml:2:1: a delayed <send> to external target \"#_out\" is not supported: delay an event to the machine itself, and send to \"#_out\" when it arrives"}},
		{"assign to an expression", head + "<datamodel><data id=\"x\" expr=\"1\"/></datamodel><state id=\"a\"><onentry>\n<assign location=\"x.y\" expr=\"1\"/></onentry></state></scxml>",
			[]string{"m.scxml:2:20: x is an int, not an object: assign .y of an object, declared with an object literal such as {y: ...} as its initial value"}},
		{"script src absolute", head + "<state id=\"a\"><onentry>\n<script src=\"/a.js\"/></onentry></state></scxml>",
			[]string{"m.scxml:2:14: <script src> \"/a.js\" is not supported: name a file relative to the model (src=\"file:NAME\"), or write the value inline"}},
		{"raise without event", head + "<state id=\"a\"><onentry>\n<raise/></onentry></state></scxml>",
			[]string{"m.scxml:2:1: <raise> needs an event: add event=\"...\""}},
		{"a parameter of an event raised without data read after any event", head + "<datamodel><data id=\"x\"/></datamodel><state id=\"a\"><onentry>\n<raise event=\"r\"/><assign location=\"x\" expr=\"_event.data.n\"/></onentry>" +
			"<transition event=\"go\"><send event=\"r\" target=\"#_internal\"><param name=\"n\" expr=\"1\"/></send></transition></state></scxml>",
			[]string{"m.scxml:2:46: _event.data.n is read where event r, which is raised or sent without data too, and other events are processed: where it has no data, reading it throws; read it in a transition that takes r alone, or pass its data in every raise and send"}},
		{"a parameter of an event raised without data read under &&", head + "<datamodel><data id=\"x\" expr=\"0\"/></datamodel><state id=\"a\"><onentry>\n<raise event=\"r\"/></onentry>" +
			"<transition event=\"go\"><send event=\"r\" target=\"#_internal\"><param name=\"n\" expr=\"1\"/></send></transition>" +
			"<transition event=\"r\"><assign location=\"x\" expr=\"x &gt; 0 &amp;&amp; _event.data.n &gt; 0 ? 1 : 2\"/></transition></state></scxml>",
			[]string{"m.scxml:2:203: _event.data.n is read where event r may have been raised or sent without data, and where it was, reading it throws; setbot models that where the statement always reads it (an assignment's value, an if's condition, a raise's or send's parameter, outside ?:, && and ||): read it into a variable there first"}},
		{"raise of a declared event missing a parameter", head + "<setbot:event name=\"r\"><setbot:param name=\"n\" type=\"int\"/></setbot:event>" +
			"<state id=\"a\"><onentry>\n<raise event=\"r\"/></onentry></state></scxml>",
			[]string{"m.scxml:2:1: raise of \"r\" does not pass parameter \"n\""}},
		{"unsupported expression", head + "<state id=\"a\"><transition event=\"e\" cond=\"_event.sendid.length == 1 || 'x' == 1\"/></state></scxml>",
			[]string{"m.scxml:1:130: _event.sendid may be undefined or null, and .length needs a value: setbot's types do not narrow after a test, so compare it (=== undefined, == 'x') rather than compute with it",
				"m.scxml:1:163: mismatched types string and int for ==: compare values of one type"}},
		{"errors keep coming", head + "<datamodel><data id=\"x\" expr=\"1\"/></datamodel>\n" +
			"<state id=\"a\"><transition event=\"e\" cond=\"x &gt;\"/>\n<transition event=\"f\" cond=\"x || y\"/></state></scxml>",
			[]string{"m.scxml:2:46: expected expression, found end of input", "m.scxml:3:34: undeclared name y"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(tc.doc), scxml.Options{})
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestLimits(t *testing.T) {
	deep := head + strings.Repeat("<state>", 100) + strings.Repeat("</state>", 100) + "</scxml>"
	_, errs := scxml.Read(source.NewFileSet(), "deep.scxml", []byte(deep), scxml.Options{})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "deep.scxml:1:") || !strings.Contains(errs[0].Error(), "nested deeper than 64 levels") {
		t.Errorf("deep nesting: %v", errs)
	}
	big := head + "<state id=\"a\"/>" + strings.Repeat(" ", 2000) + "</scxml>"
	_, errs = scxml.Read(source.NewFileSet(), "big.scxml", []byte(big), scxml.Options{MaxBytes: 1000})
	if len(errs) != 1 || errs[0].Error() != "big.scxml: document is 2110 bytes, over the limit of 1000" {
		t.Errorf("size limit: %v", errs)
	}
}
