package scxml_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// varsOf lists the variables of m as "name: type = init".
func varsOf(m *model.Model) string {
	var vars []string
	for _, v := range m.Vars {
		vars = append(vars, v.Name+": "+v.Type.String()+" = "+printer.ExprString(v.Init))
	}
	return strings.Join(vars, "\n")
}

// entryOf prints the entry blocks of state id, one per line.
func entryOf(m *model.Model, id string) string {
	var blocks []string
	for _, b := range m.State(id).OnEntry {
		blocks = append(blocks, printer.BlockString(b))
	}
	return strings.Join(blocks, "\n")
}

// TestLateBinding: with binding="late", the <data> of a state is undefined
// until the state is first entered, when a block before its <onentry>
// assigns it under a flag; the <data> of <scxml> is bound at the start.
func TestLateBinding(t *testing.T) {
	late := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" binding="late">`
	tests := []struct {
		name        string
		doc         string
		vars, entry string // entry: of the state a
	}{
		{"a value read at entry, and none",
			late + `<datamodel><data id="t" expr="1"/></datamodel><state id="a"><datamodel><data id="x" expr="t + 1"/><data id="u"/></datamodel>` +
				`<onentry><assign location="t" expr="2"/></onentry><transition event="go" cond="x === 3 &amp;&amp; u === undefined" target="a"/></state></scxml>`,
			"t: int = 1\nx: int = 0\n_absent_x: int[0..2] = 1\nu: int = 0\n_absent_u: int[0..2] = 1\n_bound_a: bool = false",
			"if (!_bound_a) { _bound_a = true; x = t + 1; _absent_x = 0; u = 0; _absent_u = 1; }\nt = 2;"},
		{"early binding folds the same value",
			head + `<datamodel><data id="t" expr="1"/></datamodel><state id="a"><datamodel><data id="x" expr="t + 1"/></datamodel></state></scxml>`,
			"t: int = 1\nx: int = 2", ""},
		{"explicit early binding",
			strings.Replace(late, "late", "early", 1) + `<state id="a"><datamodel><data id="x" expr="1"/></datamodel></state></scxml>`,
			"x: int = 1", ""},
		{"only the root's data",
			late + `<datamodel><data id="x" expr="1"/></datamodel><state id="a"/></scxml>`,
			"x: int = 1", ""},
		{"a type declared, in range",
			late + `<state id="a"><datamodel><data id="x" expr="3" setbot:type="int[0..5]"/></datamodel></state></scxml>`,
			"x: int[0..5] = 0\n_absent_x: int[0..2] = 1\n_bound_a: bool = false",
			"if (!_bound_a) { _bound_a = true; x = 3; _absent_x = 0; }"},
		{"a flag for a state whose id is no identifier, and one whose name is taken",
			late + `<datamodel><data id="_bound_s_1" expr="0"/></datamodel><state id="a"><state id="s.1"><datamodel><data id="x" expr="true"/></datamodel></state></state></scxml>`,
			"_bound_s_1: int = 0\nx: bool = false\n_absent_x: int[0..2] = 1\n_bound_s_1_2: bool = false", ""},
		{"no ECMAScript: an error raised at the entry",
			late + `<state id="a"><datamodel><data id="x" expr="return 1"/></datamodel></state></scxml>`,
			"x: int = 0\n_absent_x: int[0..2] = 1\n_bound_a: bool = false",
			"if (!_bound_a) { _bound_a = true; raise platform error.execution(); x = 0; _absent_x = 1; }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(tc.doc), scxml.Options{})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got := varsOf(m); got != tc.vars {
				t.Errorf("variables:\n%s\nwant:\n%s", got, tc.vars)
			}
			if got := entryOf(m, "a"); got != tc.entry {
				t.Errorf("entry of a:\n%s\nwant:\n%s", got, tc.entry)
			}
		})
	}
}

// TestLateBindingErrors: what late binding cannot hold is refused.
func TestLateBindingErrors(t *testing.T) {
	late := `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:setbot="https://setbot.dev/scxml" binding="late">`
	tests := []struct{ name, doc, want string }{
		{"out of the declared range",
			late + `<state id="a"><datamodel>` + "\n" + `<data id="x" expr="9" setbot:type="int[0..5]"/></datamodel></state></scxml>`,
			`m.scxml:2:36: initial value 9 of "x" is outside int[0..5]`},
		{"an object",
			late + `<state id="a"><datamodel>` + "\n" + `<data id="o" expr="{f: 1}"/></datamodel></state></scxml>`,
			"m.scxml:2:1: o is bound late, so it is undefined until its state is entered"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(tc.doc), scxml.Options{})
			if len(errs) == 0 || !strings.HasPrefix(errs[0].Error(), tc.want) {
				t.Errorf("errors %v, want one starting %q", errs, tc.want)
			}
		})
	}
}

// TestUnreadInitialValue: a variable that the code gives values of
// another kind than its <data> value holds that kind, undefined at the
// start, where no read can see the <data> value; otherwise it holds both
// kinds (lang.Mixed), where the operations on it say which it holds.
func TestUnreadInitialValue(t *testing.T) {
	doc := func(data, states string) string {
		return head + `<datamodel><data id="v" expr="27"/><data id="n" expr="0"/>` + data + "</datamodel>\n" + states + `<state id="z"/></scxml>`
	}
	tests := []struct {
		name, doc string
		want      string // the variable v, or the first error
	}{
		{"assigned before the send that reads it (W3C 173)",
			doc("", `<state id="a"><onentry><assign location="v" expr="'#_internal'"/><send targetexpr="v" event="e"/></onentry><transition event="e" target="z"/></state>`),
			"v: string = ''\n_absent_v: int[0..2] = 1"},
		{"read in a nested if, and in another block that assigns it first",
			doc("", `<state id="a"><onentry><assign location="v" expr="'a'"/><if cond="n == 0"><assign location="n" expr="v.length"/></if></onentry>`+
				`<transition event="e" target="z"><assign location="v" expr="'bc'"/><assign location="n" expr="v.length"/></transition></state>`),
			"v: string = ''\n_absent_v: int[0..2] = 1"},
		{"assigned and read in the body of a foreach",
			doc(`<data id="xs" expr="[1, 2]"/>`, `<state id="a"><onentry><foreach array="xs" item="i"><assign location="v" expr="'a'"/><assign location="n" expr="n + v.length"/></foreach></onentry></state>`),
			"v: string = ''\n_absent_v: int[0..2] = 1"},
		{"an int and a decimal are one kind",
			doc("", `<state id="a"><onentry><assign location="n" expr="v"/><assign location="v" expr="0.5"/></onentry></state>`),
			"v: decimal = 27.0"},
		{"read in a guard",
			doc("", `<state id="a"><onentry><assign location="v" expr="'a'"/></onentry>`+"\n"+`<transition event="e" cond="v == 'a'" target="z"/></state>`),
			"_as_int_v: int = 27\n_as_string_v: string = ''\n_absent_v: int[-1..0] = 0"},
		{"read before the assignment",
			doc("", `<state id="a"><onentry>`+"\n"+`<assign location="n" expr="typeof v == 'number' ? 1 : 0"/><assign location="v" expr="'a'"/></onentry></state>`),
			"_as_int_v: int = 27\n_as_string_v: string = ''\n_absent_v: int[-1..0] = 0"},
		{"assigned in a branch, read after it",
			doc("", `<state id="a"><onentry><if cond="n == 0"><assign location="v" expr="'a'"/></if>`+"\n"+`<assign location="n" expr="v.length"/></onentry></state>`),
			"m.scxml:3:28: v holds an int or a string, and .length of it is not modelled"},
		{"a value that reads the variable",
			doc("", `<state id="a"><onentry>`+"\n"+`<assign location="v" expr="v === 27 ? 'a' : 'b'"/><send targetexpr="v" event="e"/></onentry></state>`),
			"m.scxml:3:69: v holds an int or a string, and .startsWith of it is not modelled"},
		{"another <data> reads it",
			doc(`<data id="w" expr="v"/>`, `<state id="a"><onentry><assign location="v" expr="'a'"/></onentry></state>`),
			"_as_int_v: int = 27\n_as_string_v: string = ''\n_absent_v: int[-1..0] = 0"},
		{"a value computed at the start",
			head + `<datamodel><data id="v" expr="_sessionid.length"/></datamodel><state id="a"><onentry><assign location="v" expr="'a'"/></onentry></state></scxml>`,
			"_as_int_v: int = 0\n_as_string_v: string = ''\n_absent_v: int[-1..0] = 0"},
		{"a declared type",
			head + `<datamodel><data id="v" expr="27" setbot:type="int"/></datamodel><state id="a"><onentry><assign location="v" expr="'a'"/></onentry></state></scxml>`,
			"cannot use string value as int in assignment to v"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(tc.doc), scxml.Options{})
			got := ""
			if len(errs) > 0 {
				got = errs[0].Error()
			} else {
				var vs []string
				for _, line := range strings.Split(varsOf(m), "\n") {
					if strings.HasPrefix(line, "v:") || strings.HasPrefix(line, "_absent_v:") || strings.HasPrefix(line, "_as_") && strings.Contains(line, "_v:") {
						vs = append(vs, line)
					}
				}
				got = strings.Join(vs, "\n")
			}
			if got != tc.want && !(len(errs) > 0 && strings.Contains(got, tc.want)) {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
