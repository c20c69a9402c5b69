package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestDynamicSend: a <send> with eventexpr, targetexpr, typeexpr or
// idlocation, and a <cancel> with sendidexpr, become chains of fixed sends
// and cancels over the values the expressions can take.
func TestDynamicSend(t *testing.T) {
	tests := []struct{ name, data, content, want string }{
		{"constant event", `<data id="v" expr="'go'"/>`, `<send eventexpr="v"/>`, `send go();`},
		{"event from assignments", `<data id="v" expr="'a'"/>`, `<assign location="v" expr="'b'"/><send eventexpr="v"/>`,
			`v = 'b'; if (v == 'a') { send a(); } else { send b(); }`},
		{"event maybe undefined", `<data id="v"/>`, `<assign location="v" expr="'b'"/><send eventexpr="v"/><raise event="after"/>`,
			`v = 'b'; _absent_v = 0; if (v == 'b') { send b(); raise after(); } else { raise platform error.execution(); }`},
		{"invalid event name", `<data id="v" expr="'a b'"/>`, `<send eventexpr="v"/>`, `raise platform error.execution();`},
		{"literal target", ``, `<send event="e" targetexpr="'#_internal'"/>`, `raise e();`},
		{"own session", `<data id="v" expr="'#_scxml_setbot-session'"/>`, `<send event="e" targetexpr="v"/>`, `send e();`},
		{"target by class", `<data id="v" expr="'#_'"/>`, `<assign location="v" expr="v + 'parent'"/><send event="e" targetexpr="v"/><raise event="after"/>`,
			`v = v + 'parent'; if (v == '#_internal') { raise e(); raise after(); } ` +
				`else if (v == '#_scxml_setbot-session') { send e(); raise after(); } ` +
				`else if (v.startsWith('#_scxml_')) { raise platform error.communication(); raise after(); } ` +
				`else if (v == '#_out') { send e() to "#_out"; raise after(); } ` +
				`else if (v == '#_parent') { send e() to "#_parent"; raise after(); } ` +
				`else if (v.startsWith('#_')) { raise platform error.communication(); raise after(); } ` +
				`else { raise platform error.execution(); }`},
		{"typeexpr", `<data id="v" expr="'scxml'"/>`, `<send event="e" typeexpr="v"/>`,
			`if (v == 'http://www.w3.org/TR/scxml/#SCXMLEventProcessor' || v == 'scxml') { send e(); } else { raise platform error.execution(); }`},
		{"reply to the origin", ``, `<send event="e" targetexpr="_event.origin" typeexpr="_event.origintype"/>`,
			`if (_event._absent_origintype == 0 && (!(_event._absent_origintype == 0) || _event.origintype == 'http://www.w3.org/TR/scxml/#SCXMLEventProcessor') || ` +
				`_event._absent_origintype == 0 && (!(_event._absent_origintype == 0) || _event.origintype == 'scxml')) { ` +
				`if (_event._absent_origin == 0 && (!(_event._absent_origin == 0) || _event.origin == '#_scxml_setbot-session')) { send e(); } else { raise platform error.execution(); } } ` +
				`else { raise platform error.execution(); }`},
		{"delayexpr literal", ``, `<send event="e" delayexpr="'2s'"/>`, `send e() after '2s';`},
		{"idlocation", `<data id="v"/>`, `<send event="e" idlocation="v"/>`, `v = '_send.v.1'; _absent_v = 0; send e() id "_send.v.1";`},
		{"idlocation of a failing send", `<data id="v"/>`, `<send event="e" target="baz" idlocation="v"/><raise event="after"/>`,
			`v = '_send.v.1'; _absent_v = 0; raise platform error.execution() id "_send.v.1";`},
		{"sendidexpr", `<data id="v" expr="'t1'"/>`, `<send event="e" id="t1" delay="1s"/><send event="e" id="t2" delay="1s"/><cancel sendidexpr="v"/>`,
			`send e() after '1s' id "t1"; send e() after '1s' id "t2"; if (v == 't1') { cancel "t1"; }`},
		{"sendidexpr of a generated id", `<data id="v"/><data id="w" expr="'t1'"/>`,
			`<send event="e" delay="1s" idlocation="v"/><assign location="w" expr="w + ''"/><cancel sendidexpr="w"/>`,
			`v = '_send.v.1'; _absent_v = 0; send e() after '1s' id "_send.v.1"; w = w + ''; if (w == '_send.v.1') { cancel "_send.v.1"; }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel>` + tt.data + `</datamodel><state id="a"><onentry>` + tt.content +
				`</onentry><transition event="*"/></state><state id="b"><onentry><send event="e" target="#_out"/></onentry></state></scxml>`
			_, got := entryCode(t, doc)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestComputedNumbers: the values of a computed send follow ints where +
// makes them strings, as ECMAScript does ('e.' + 0 is "e.0", 1 + 2 + 'a'
// is "3a"): int literals, their negations, int variables whose every
// assignment is known, and elements of arrays no code writes, read at
// whatever index. A number alone, a value computed otherwise and a table
// the code writes stay refused.
func TestComputedNumbers(t *testing.T) {
	const table = `<data id="t" expr="[[1, 5], [2, -1]]"/><data id="k" expr="1"/>`
	const str = `(n >= 0 ? String(n) : '-' + String(-n))` // String(n), as the lowering writes it
	tests := []struct{ name, data, content, want string }{
		{"numbers added first", ``, `<send eventexpr="1 + 2 + 'a'"/>`, `send "3a"();`},
		{"numbers added to a string", ``, `<send eventexpr="'a' + 1 + 2"/>`, `send a12();`},
		{"negative", `<data id="n" expr="-1"/>`, `<send eventexpr="'e' + n"/>`, `send "e-1"();`},
		{"negated", `<data id="n" expr="-1"/>`, `<send eventexpr="'e' + -n"/>`, `send e1();`},
		{"int variable", `<data id="n" expr="0"/>`, `<assign location="n" expr="2"/><send eventexpr="'e.' + n"/>`,
			`n = 2; if ('e.' + ` + str + ` == 'e.0') { send "e.0"(); } else { send "e.2"(); }`},
		{"constant table", table, `<send eventexpr="'take.' + t[k][1]"/>`,
			`if (!(0 <= k && k < t.length)) { raise platform error.execution(); } else { ` +
				`if ('take.' + ((k == 0 ? t[0][1] : t[1][1]) >= 0 ? String(k == 0 ? t[0][1] : t[1][1]) : '-' + String(-(k == 0 ? t[0][1] : t[1][1]))) == 'take.-1') { send "take.-1"(); } ` +
				`else { send "take.5"(); } }`},
		{"variable from a table", table + `<data id="left" expr="0"/>`, `<assign location="left" expr="t[k - 1][0]"/><send eventexpr="'take.' + left"/>`,
			`if (!(0 <= k - 1 && k - 1 < t.length)) { raise platform error.execution(); } else { left = k - 1 == 0 ? t[0][0] : t[1][0]; ` +
				`if ('take.' + (left >= 0 ? String(left) : '-' + String(-left)) == 'take.0') { send "take.0"(); } ` +
				`else if ('take.' + (left >= 0 ? String(left) : '-' + String(-left)) == 'take.1') { send "take.1"(); } else { send "take.2"(); } }`},
		{"targetexpr", `<data id="n" expr="1"/>`, `<assign location="n" expr="2"/><send event="e" targetexpr="'#_out' + n"/>`,
			`n = 2; if ('#_out' + ` + str + ` == '#_out1') { send e() to "#_out1"; } else { send e() to "#_out2"; }`},
		{"assigned by a function", `<data id="v" expr="'a'"/>`, `<script>function f() { v = 'b' } function g(v) { v = 'c' }</script><send eventexpr="v"/>`,
			`if (v == 'a') { send a(); } else { send b(); }`},
		{"sendidexpr", `<data id="n" expr="1"/>`, `<send event="e" id="t1" delay="1s"/><send event="e" id="t2" delay="1s"/><cancel sendidexpr="'t' + n"/>`,
			`send e() after '1s' id "t1"; send e() after '1s' id "t2"; if ('t' + ` + str + ` == 't1') { cancel "t1"; }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel>` + tt.data + `</datamodel><state id="a"><onentry>` + tt.content +
				`</onentry><transition event="*"/></state></scxml>`
			_, got := entryCode(t, doc)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestComputedNumbersRefused: what the values of a computed send do not
// follow stays refused, with the eventexpr's position; an eventexpr that
// is a number, with a message of its own.
func TestComputedNumbersRefused(t *testing.T) {
	const table = `<data id="t" expr="[[1, 5], [2, 1]]"/><data id="k" expr="1"/>`
	tests := []struct{ name, data, content string }{
		{"a number alone", `<data id="n" expr="1"/>`, `<send eventexpr="n"/>`}, // its own message, below
		{"an int computed", `<data id="n" expr="1"/>`, `<assign location="n" expr="n * 2"/><send eventexpr="'e' + n"/>`},
		{"an int incremented", `<data id="n" expr="1"/>`, `<script>n++</script><send eventexpr="'e' + n"/>`},
		{"a decimal", `<data id="n" expr="1"/>`, `<assign location="n" expr="0.5"/><send eventexpr="'e' + n"/>`},
		{"an int that may be undefined", `<data id="n"/>`, `<assign location="n" expr="1"/><send eventexpr="'e' + n"/>`},
		{"an int from the event", `<data id="n" expr="1"/>`, `<assign location="n" expr="_event.data"/><send eventexpr="'e' + n"/>`},
		{"a table written", table, `<assign location="t[0][0]" expr="7"/><send eventexpr="'e' + t[k][0]"/>`},
		{"a table written by a function", table, `<script>function w() { t[1][0] = 7 }</script><send eventexpr="'e' + t[k][0]"/>`},
		{"a row shared", table + `<data id="r" expr="[0, 0]"/>`, `<assign location="r" expr="t[0]"/><send eventexpr="'e' + t[k][0]"/>`},
		{"a table shared", table + `<data id="u" expr="[]"/>`, `<assign location="u" expr="t"/><send eventexpr="'e' + t[k][0]"/>`},
		{"a row read whole", table, `<send eventexpr="'e' + t[k]"/>`},
		{"assigned a function's parameter", `<data id="v" expr="'a'"/>`, `<script>function f(x) { v = x }</script><send eventexpr="v"/>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel>` + tt.data + `</datamodel><state id="a"><onentry>` + "\n" + tt.content +
				`</onentry><transition event="*"/></state></scxml>`
			_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
			want := "setbot cannot tell which events it names"
			if tt.name == "a number alone" {
				want = `eventexpr "n" may be a number, and setbot takes only strings for event names`
			}
			if len(errs) == 0 || !strings.HasPrefix(errs[0].Error(), "m.scxml:2:") || !strings.Contains(errs[0].Error(), want) {
				t.Errorf("errors %v, want the first at m.scxml:2 with %q", errs, want)
			}
		})
	}
}

// TestComputedPassedRefused: the value of a variable the invoking machine
// passes is the parent's, which the child's values do not follow (they
// took the child's placeholder for it as its only value).
func TestComputedPassedRefused(t *testing.T) {
	doc := head + `<state id="s"><invoke><param name="n" expr="2"/><content><scxml initial="c"><datamodel><data id="n" expr="1"/></datamodel>` +
		`<state id="c"><onentry><send eventexpr="'got.' + n" target="#_parent"/></onentry></state></scxml></content></invoke>` +
		`<transition event="got.2" target="f"/></state><final id="f"/></scxml>`
	_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if want := `m.scxml:1:250: eventexpr "'got.' + n" reads n, which the invoking machine's <param> sets: setbot cannot tell which events it names`; len(errs) == 0 || !strings.Contains(errs.Error(), want) {
		t.Errorf("errors %v, want one with %q", errs, want)
	}
}

// TestComparedNamesAreInputs: a name a cond compares _event.name with is
// an input where a descriptor matches it, and the descriptor's own name
// stays one (it stands for the names compared with none); a name no
// descriptor matches, and one the machine raises, are no inputs.
func TestComparedNamesAreInputs(t *testing.T) {
	doc := head + `<datamodel><data id="n" expr="2"/></datamodel><state id="a">
<onentry><raise event="x.1"/></onentry>
<transition event="taken.*" cond="_event.name == 'taken.0' || _event.name == 'taken.' + n || _event.name != 'other'" target="b"/>
<transition event="x.*" cond="_event.name === 'x.1'" target="b"/></state><state id="b"/></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for name, input := range map[string]bool{"taken": true, "taken.0": true, "taken.2": true, "x.1": false, "other": false} {
		ev := m.EventByName(name)
		if got := ev != nil && ev.Kinds&model.Input != 0; got != input {
			t.Errorf("%s: input %v, want %v", name, got, input)
		}
	}
}
