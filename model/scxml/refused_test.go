package scxml_test

import (
	"testing"

	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestRefused checks that the errors about constructs setbot does not
// support are marked as refusals where they are made, and that those
// about a broken model are not.
func TestRefused(t *testing.T) {
	tests := []struct {
		name    string
		doc     string
		refused bool
	}{
		{"another data model", `<scxml xmlns="http://www.w3.org/2005/07/scxml" datamodel="xpath"><state id="a"/></scxml>`, true},
		{"another invoke type", head + `<state id="a"><invoke type="http"/></state></scxml>`, true},
		{"operator outside the language", head + `<datamodel><data id="x" expr="1"/></datamodel><state id="a"><onentry><script>x = x ** 2;</script></onentry></state></scxml>`, true},
		{"statement outside the language", head + `<state id="a"><onentry><script>try { } catch (e) { }</script></onentry></state></scxml>`, true},
		{"call outside the language", head + `<datamodel><data id="x" expr="[1]"/></datamodel><state id="a"><onentry><assign location="x" expr="getReading()"/></onentry></state></scxml>`, true},
		{"an event computed at run time", head + `<datamodel><data id="i" expr="1"/></datamodel><state id="a"><onentry><send eventexpr="'e.' + i * 2"/></onentry><transition event="e.1" target="a"/></state></scxml>`, true},
		{"an expression statement", head + `<datamodel><data id="x" expr="1"/></datamodel><state id="a"><onentry><script>x + 1;</script></onentry></state></scxml>`, true},
		{"a string added to a number", head + `<datamodel><data id="x" expr="1"/></datamodel><state id="a"><onentry><assign location="x" expr="x - 'a'"/></onentry></state></scxml>`, true},
		{"unknown target", head + `<state id="a"><transition event="e" target="nowhere"/></state></scxml>`, false},
		{"malformed XML", head + `<state id="a"></scxml>`, false},
		{"undeclared name", head + `<state id="a"><onentry><if cond="false || y"/></onentry></state></scxml>`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(tt.doc), scxml.Options{})
			if len(errs) == 0 {
				t.Fatal("no error")
			}
			for _, e := range errs {
				if e.Refused != tt.refused {
					t.Errorf("%v: Refused = %v, want %v", e, e.Refused, tt.refused)
				}
			}
		})
	}
}

// TestExpectUnreachable reads setbot:expect on the states that take it.
func TestExpectUnreachable(t *testing.T) {
	doc := head + `<state id="a"><transition event="e" target="pass"/></state>` +
		`<final id="pass"/><final id="fail" setbot:expect="unreachable"/>` +
		`<parallel id="p" setbot:expect=" unreachable "><state id="p1"/></parallel></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for id, want := range map[string]bool{"a": false, "pass": false, "fail": true, "p": true, "p1": false} {
		if got := m.Lookup(id).ExpectUnreachable; got != want {
			t.Errorf("%s: ExpectUnreachable = %v, want %v", id, got, want)
		}
	}
	_, errs = scxml.Read(source.NewFileSet(), "m.scxml", []byte(head+`<state id="a" setbot:expect="reachable"/></scxml>`), scxml.Options{})
	want := `m.scxml:1:117: setbot:expect "reachable" is not an expectation setbot knows: write setbot:expect="unreachable" (no execution is meant to enter the state)`
	if len(errs) != 1 || errs[0].Error() != want {
		t.Errorf("errors = %v, want %s", errs, want)
	}
}
