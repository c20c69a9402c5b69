package scxml_test

import (
	"testing"
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
