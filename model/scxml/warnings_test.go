package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestFailingElements: an element that SCXML makes an error when it runs
// loads as a raise of error.execution that skips the rest of its block
// (SCXML §4.10, §5.4, §5.10, §6.2), and the reader warns, with the
// element's position, what will happen.
func TestFailingElements(t *testing.T) {
	const what = ": setbot raises error.execution here and skips the rest of the block, as the SCXML specification requires"
	tests := []struct {
		name, content, want, warning string
	}{
		{"illegal expr", `<assign location="x" expr="1"/><assign location="x" expr="return"/><raise event="f"/>`,
			`x = 1; raise platform error.execution();`,
			`m.scxml:1:215: <assign> expr "return" is no ECMAScript expression (it begins with return)` + what},
		{"undeclared object", `<assign location="foo.bar.baz " expr="1"/><raise event="f"/>`,
			`raise platform error.execution();`,
			`m.scxml:1:175: <assign> location "foo.bar.baz" names no place of the data model (no <data> declares foo)` + what},
		{"system variable", `<assign location="_sessionid" expr="'x'"/>`,
			`raise platform error.execution();`,
			`m.scxml:1:175: <assign> to the system variable _sessionid, which is read-only` + what},
		{"system variable's field", `<assign location="_event.name" expr="'x'"/>`,
			`raise platform error.execution();`,
			`m.scxml:1:175: <assign> to the system variable _event, which is read-only` + what},
		{"send type", `<send event="f" type="27"/><assign location="x" expr="2"/>`,
			`raise platform error.execution();`,
			`m.scxml:1:179: send type "27" is not supported (the SCXML event processor, the only one setbot has, is "http://www.w3.org/TR/scxml/#SCXMLEventProcessor")` + what},
		{"namelist", `<send event="f" namelist="&quot;foo"/><raise event="g"/>`,
			`raise platform error.execution();`,
			`m.scxml:1:183: namelist entry "foo is no location of the data model` + what},
		{"param expr", `<send event="f"><param name="p" expr="return"/></send>`,
			`raise platform error.execution();`,
			`m.scxml:1:195: <param> expr "return" is no ECMAScript expression (it begins with return)` + what},
		{"param location", `<send event="f"><param name="p" location="a.b"/></send>`,
			`raise platform error.execution();`,
			`m.scxml:1:199: <param> location "a.b" names no place of the data model (no <data> declares a)` + what},
		{"foreach over an int", `<foreach array="x" item="i"><assign location="x" expr="1"/></foreach><raise event="f"/>`,
			`raise platform error.execution();`,
			`m.scxml:1:173: <foreach> array "x" is int, not an array` + what},
		{"foreach over a string in an if", `<if cond="x == 1"><foreach array="'abc'" item="i"/></if><raise event="f"/>`,
			`if (x == 1) { raise platform error.execution(); } else { raise f(); }`,
			`m.scxml:1:191: <foreach> array "'abc'" is string, not an array` + what},
		{"under if", `<if cond="x == 1"><assign location="_name" expr="'n'"/></if><assign location="x" expr="2"/>`,
			`if (x == 1) { raise platform error.execution(); } else { x = 2; }`,
			`m.scxml:1:193: <assign> to the system variable _name, which is read-only` + what},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel><data id="x" expr="0"/></datamodel><state id="a"><onentry>` + tt.content +
				`</onentry><transition event="f g error.*"/></state></scxml>`
			m, got := entryCode(t, doc)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if len(m.Warnings) != 1 || m.Warnings[0].Error() != tt.warning {
				t.Errorf("warnings %v\nwant     %s", m.Warnings, tt.warning)
			}
		})
	}
}

// TestIllegalDataExpr: a <data> whose expr is no ECMAScript leaves the
// variable undefined and raises error.execution when the machine starts,
// where the variable would have been given its value (W3C test 277); a
// <data> whose value is x's is undefined, too.
func TestIllegalDataExpr(t *testing.T) {
	doc := head + `<datamodel><data id="x" expr="return"/><data id="y" expr="x"/></datamodel><state id="a">` +
		`<transition event="error.execution" cond="typeof x === 'undefined'"/></state></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := strings.Join(strings.Fields(printer.BlockString(m.Root.Initial.Body)), " ")
	if want := `raise platform error.execution();`; got != want {
		t.Errorf("start: got  %s\nwant %s", got, want)
	}
	want := `m.scxml:1:118: <data> expr "return" is no ECMAScript expression (it begins with return): setbot leaves x undefined and raises error.execution when the machine starts, as the SCXML specification requires`
	if len(m.Warnings) != 1 || m.Warnings[0].Error() != want {
		t.Errorf("warnings %v\nwant     %s", m.Warnings, want)
	}
}
