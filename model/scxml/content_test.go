package scxml_test

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestSendContent: the <content> of a <send> is the event's data as a
// whole, the parameter ast.DataParam: its expr, or its text read as a
// literal, or else as a string.
func TestSendContent(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"number", `<send event="e"><content>123</content></send>`, `send e(_data: 123);`},
		{"negative", `<send event="e"><content> -7 </content></send>`, `send e(_data: -7);`},
		{"bool", `<send event="e"><content>true</content></send>`, `send e(_data: true);`},
		{"quoted string", `<send event="e"><content>'abc'</content></send>`, `send e(_data: 'abc');`},
		{"other text", `<send event="e"><content> some
		   text </content></send>`, `send e(_data: 'some text');`},
		{"expr", `<send event="e"><content expr="x + 1"/></send>`, `send e(_data: x + 1);`},
		{"illegal expr", `<send event="e"><content expr="return"/></send><assign location="x" expr="1"/>`, `raise platform error.execution();`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel><data id="x" expr="0"/></datamodel><state id="a"><onentry>` + tt.content +
				`</onentry><transition event="e error.*"/></state></scxml>`
			_, got := entryCode(t, doc)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestAssignContent: an <assign> without expr takes its value from its
// text, read as an expression, as a <data>'s is.
func TestAssignContent(t *testing.T) {
	doc := head + `<datamodel><data id="x" expr="0"/></datamodel><state id="a"><onentry><assign location="x"> x +
		123 </assign><assign location="x">return</assign></onentry><transition event="error.execution"/></state></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got := strings.Join(strings.Fields(printer.BlockString(m.State("a").OnEntry[0])), " ")
	if want := `x = x + 123; raise platform error.execution();`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].Msg, `<assign> content "return" is no ECMAScript expression`) {
		t.Errorf("warnings %v", m.Warnings)
	}
}

// TestDoneData: <donedata> gives the done.state event of the final
// state's parent its arguments; a value that SCXML makes an error leaves
// its parameter out and raises error.execution after the final state's
// onentry, before the done.state event; _event.data of an event without
// data is undefined.
func TestDoneData(t *testing.T) {
	tests := []struct{ name, donedata, cond, want, entry string }{
		{"params", `<param name="p" expr="x + 1"/><param name="q" location="x"/>`, `_event.data.p == 1`, `p: x + 1, q: x`, ``},
		{"content", `<content expr="x == 0"/>`, `_event.data`, `_data: x == 0`, ``},
		{"failing param", `<param name="p" location="a.b"/>`, `typeof _event.data === 'undefined'`, ``, `raise platform error.execution();`},
		{"failing content", `<content expr="return"/>`, `typeof _event.data === 'undefined'`, ``, `raise platform error.execution();`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel><data id="x" expr="0"/></datamodel><state id="s"><state id="a"><transition target="f"/></state>` +
				`<final id="f"><donedata>` + tt.donedata + `</donedata></final>` +
				`<transition event="done.state.s" cond="` + strings.ReplaceAll(tt.cond, "'", "&apos;") + `"/></state></scxml>`
			m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			f := m.State("f")
			var args []string
			for _, a := range f.DoneData {
				args = append(args, a.Name+": "+printer.ExprString(a.Value))
			}
			if got := strings.Join(args, ", "); got != tt.want {
				t.Errorf("done data %q, want %q", got, tt.want)
			}
			var entry []string
			for _, b := range f.OnEntry {
				entry = append(entry, strings.Join(strings.Fields(printer.BlockString(b)), " "))
			}
			if got := strings.Join(entry, " "); got != tt.entry {
				t.Errorf("onentry %q, want %q", got, tt.entry)
			}
			if (len(m.Warnings) > 0) != (tt.entry != "") {
				t.Errorf("warnings %v", m.Warnings)
			}
		})
	}
}

// TestSrc: <data src> and <script src> read a file relative to the model
// through Options.ReadFile; errors in the file name it.
func TestSrc(t *testing.T) {
	files := fstest.MapFS{
		"v.txt":      {Data: []byte("2\n")},
		"lib/s.js":   {Data: []byte("x = x + 1\ny = y * 2\n")},
		"bad.txt":    {Data: []byte("\n 1 +\n")},
		"undecl.txt": {Data: []byte("zz")},
	}
	opts := scxml.Options{ReadFile: func(rel string) ([]byte, error) { return fs.ReadFile(files, rel) }}
	tests := []struct{ name, data, script, want string }{
		{"both", `src="file:v.txt"`, `src="lib/s.js"`, `x = x + 1; y = y * 2;`},
		{"missing", `src="file:none.txt"`, ``, `dir/m.scxml:1:117: <data src> "none.txt": cannot read the file: file does not exist`},
		{"syntax error in the file", `src="bad.txt"`, ``, `dir/bad.txt:3:1: expected expression, found end of input`},
		{"type error in the file", `src="undecl.txt"`, ``, `dir/undecl.txt:1:1: undeclared name zz`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := ``
			if tt.script != "" {
				script = `<onentry><script ` + tt.script + `/></onentry>`
			}
			doc := head + `<datamodel><data id="x" ` + tt.data + `/><data id="y" expr="1"/></datamodel><state id="a">` + script + `</state></scxml>`
			m, errs := scxml.Read(source.NewFileSet(), "dir/m.scxml", []byte(doc), opts)
			if len(errs) > 0 {
				if errs[0].Error() != tt.want {
					t.Errorf("got  %s\nwant %s", errs[0], tt.want)
				}
				return
			}
			if v := m.Var("x"); printer.ExprString(v.Init) != "2" {
				t.Errorf("x starts at %s, want 2", printer.ExprString(v.Init))
			}
			if got := strings.Join(strings.Fields(printer.BlockString(m.State("a").OnEntry[0])), " "); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestScriptGlobals: a script runs in the global scope. A top-level var of
// the top-level <script> that names no <data> is a variable of the data
// model, undefined until the script assigns it (W3C 302, 304); a top-level
// var of a <data> variable in any script assigns it (W3C 303).
func TestScriptGlobals(t *testing.T) {
	doc := head + `<script>var g = 1; let h = true; if (g == 1) { var loc = 2; g = loc }</script>` +
		`<datamodel><data id="x" expr="0"/></datamodel><state id="a"><onentry><script>var x = 2</script></onentry>` +
		`<transition cond="g == 2 &amp;&amp; h" event="e"/></state></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var vars []string
	for _, v := range m.Vars {
		vars = append(vars, v.Name+": "+v.Type.String())
	}
	if got, want := strings.Join(vars, ", "), "g: int, _absent_g: int[0..2], h: bool, _absent_h: int[0..2], x: int"; got != want {
		t.Errorf("vars %s, want %s", got, want)
	}
	got := strings.Join(strings.Fields(printer.BlockString(m.Root.Initial.Body)), " ")
	if want := `g = 1; _absent_g = 0; h = true; _absent_h = 0; if (g == 1) { var loc = 2; g = loc; _absent_g = 0; }`; got != want {
		t.Errorf("start: got  %s\nwant %s", got, want)
	}
	if got := strings.Join(strings.Fields(printer.BlockString(m.State("a").OnEntry[0])), " "); got != `x = 2;` {
		t.Errorf("onentry: got %s, want x = 2;", got)
	}
}

// TestFailingCond: a cond that is no ECMAScript is false and raises
// error.execution where it is evaluated: a transition's is marked
// (CondFails), for the flattener and the interpreter to raise the error;
// an <if>'s raises it and goes on with the next branch. Both are warned of.
func TestFailingCond(t *testing.T) {
	tests := []struct{ name, content, want string }{
		{"if", `<if cond="return"><raise event="a"/></if><raise event="z"/>`, `{ raise error.execution(); } raise z();`},
		{"if else", `<if cond="return"><raise event="a"/><else/><raise event="b"/></if>`, `{ raise error.execution(); { raise b(); } }`},
		{"elseif", `<if cond="x == 1"><raise event="a"/><elseif cond="return"/><raise event="b"/><else/><raise event="c"/></if>`,
			`if (x == 1) { raise a(); } else { raise error.execution(); { raise c(); } }`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := head + `<datamodel><data id="x" expr="0"/></datamodel><state id="a"><onentry>` + tt.content +
				`</onentry><transition event="*"/></state></scxml>`
			m, got := entryCode(t, doc)
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].Msg, `cond "return" is no ECMAScript expression`) {
				t.Errorf("warnings %v", m.Warnings)
			}
		})
	}
	doc := head + `<state id="a"><transition event="e" cond=" return 1" target="b"/><transition event="e" target="b"/></state><state id="b"/></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tr := m.State("a").Transitions
	if !tr[0].CondFails || printer.ExprString(tr[0].Cond) != "false" || tr[1].CondFails {
		t.Errorf("transitions: cond %v fails %v, fails %v", tr[0].Cond, tr[0].CondFails, tr[1].CondFails)
	}
	if ev := m.EventByName("error.execution"); ev == nil || ev.Kinds&model.Internal == 0 {
		t.Errorf("error.execution is not an internal event: %+v", ev)
	}
	if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0].Msg, "each time it is evaluated") {
		t.Errorf("warnings %v", m.Warnings)
	}
}
