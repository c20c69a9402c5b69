package scxml_test

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// files serves src files from a map, as a repository at a commit does.
func files(m map[string]string) func(string) ([]byte, error) {
	return func(rel string) ([]byte, error) {
		if s, ok := m[rel]; ok {
			return []byte(s), nil
		}
		return nil, &fs.PathError{Op: "open", Path: rel, Err: fs.ErrNotExist}
	}
}

const child = `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="c0">
<datamodel><data id="n" expr="0"/></datamodel>
<state id="c0"><onentry><send target="#_parent" event="reply"><param name="v" expr="n + 1"/></send></onentry>
<transition event="stop" target="cf"/></state><final id="cf"/></scxml>`

// TestInvokeRead: the reader reads an invoke's child from src or inline
// <content>, its id, params and finalize, and makes what the child sends
// its parent (with the child's parameter types) and done.invoke.ID events
// of the parent that it can receive, not inputs.
func TestInvokeRead(t *testing.T) {
	doc := head + `<datamodel><data id="k" expr="2"/><data id="where"/></datamodel>
<state id="s"><invoke id="w" src="file:sub/child.scxml" autoforward="true"><param name="n" expr="k * 10"/>
<finalize><assign location="k" expr="_event.data.v"/></finalize></invoke>
<invoke idlocation="where"><content><scxml initial="x"><final id="x"/></scxml></content></invoke>
<transition event="reply" target="t"/></state><state id="t"/></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{ReadFile: files(map[string]string{"sub/child.scxml": child})})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	invs := m.Invokes()
	if len(invs) != 2 {
		t.Fatalf("%d invokes, want 2", len(invs))
	}
	w, gen := invs[0], invs[1]
	if w.ID != "w" || w.Src != "sub/child.scxml" || !w.Autoforward || w.Finalize == nil || len(w.Params) != 1 || w.Params[0].Name != "n" {
		t.Errorf("first invoke: id %q src %q autoforward %v finalize %v params %v", w.ID, w.Src, w.Autoforward, w.Finalize, w.Params)
	}
	if v := w.Child.Var("n"); v == nil || !v.Passed {
		t.Errorf("the child's n is not marked as set by a param: %+v", v)
	}
	if gen.ID != "s.1" || gen.Src != "" || printer.BlockString(gen.Start) != "where = 's.1'; _absent_where = 0;" {
		t.Errorf("second invoke: id %q src %q start %q; want the generated id s.1 stored in where", gen.ID, gen.Src, printer.BlockString(gen.Start))
	}
	reply := m.EventByName("reply")
	if reply == nil || reply.Kinds != model.Invoked || len(reply.Params) != 1 || reply.Params[0].Name != "v" || reply.Params[0].Type.Kind != ast.Int {
		t.Fatalf("event reply: %+v; want an invoked event with an int parameter v", reply)
	}
	for _, name := range []string{"done.invoke.w", "done.invoke.s.1"} {
		if ev := m.EventByName(name); ev == nil || ev.Kinds != model.Invoked {
			t.Errorf("event %s: %+v; want an invoked event", name, ev)
		}
	}
	if ev := w.Child.EventByName("stop"); ev == nil || ev.Kinds&model.Input == 0 || !w.Child.Invoked {
		t.Errorf("the child's stop is %+v (invoked %v); want an input of an invoked machine, from its parent", ev, w.Child.Invoked)
	}
}

// TestInvokeFails: an invoke whose type is computed starts its child only
// where the value names the SCXML type, and one whose namelist names no
// variable always fails when it runs, which the model says as a warning.
func TestInvokeFails(t *testing.T) {
	doc := head + `<datamodel><data id="ty" expr="'scxml'"/></datamodel><state id="s">
<invoke typeexpr="ty"><content><scxml><final id="f"/></scxml></content></invoke>
<invoke namelist="nothing"><content><scxml><final id="g"/></scxml></content></invoke></state></scxml>`
	m, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	invs := m.Invokes()
	if got := printer.ExprString(invs[0].OK); !strings.Contains(got, "ty == 'scxml'") {
		t.Errorf("typeexpr: OK is %s; want a test of ty against the SCXML types", got)
	}
	if lit, ok := invs[1].OK.(*ast.BoolLit); !ok || lit.Value || len(invs[1].Params) != 0 {
		t.Errorf("namelist of nothing: OK %v params %v; want false and no param", invs[1].OK, invs[1].Params)
	}
	want := `m.scxml:3:19: namelist entry "nothing" names no variable of the data model: the invoke raises error.execution when it runs, and starts nothing`
	if len(m.Warnings) != 1 || m.Warnings[0].Error() != want {
		t.Errorf("warnings %v, want %s", m.Warnings, want)
	}
	// A srcexpr whose values name one file that exists invokes it where it
	// has that value.
	doc = head + `<datamodel><data id="f" expr="'nothing'"/></datamodel><state id="s"><onentry><assign location="f" expr="'file:c.scxml'"/></onentry>
<invoke srcexpr="f"/></state></scxml>`
	m2, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(doc), scxml.Options{ReadFile: files(map[string]string{"c.scxml": child})})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if inv := m2.Invokes()[0]; inv.Src != "c.scxml" || inv.Child == nil || printer.ExprString(inv.OK) != "f == 'file:c.scxml'" {
		t.Errorf("srcexpr: src %q OK %s; want c.scxml where f == 'file:c.scxml'", inv.Src, printer.ExprString(inv.OK))
	}
	if ev := m.EventByName(model.ErrorExecution); ev == nil || ev.Kinds&model.Internal == 0 {
		t.Errorf("error.execution is %+v; want an internal event of the parent", ev)
	}
}

// TestInvokeErrors: what setbot does not invoke is refused at its position
// with what to write instead.
func TestInvokeErrors(t *testing.T) {
	state := func(inner string) string { return head + "<state id=\"s\">\n" + inner + "</state></scxml>" }
	self := state(`<invoke src="file:m.scxml"/>`)
	tests := []struct {
		name, doc string
		files     map[string]string
		want      string
	}{
		{"http type", state(`<invoke type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor" src="x.scxml"/>`), nil,
			`m.scxml:2:15: <invoke type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor"> is not supported: setbot invokes SCXML machines only (type="scxml" or "http://www.w3.org/TR/scxml/"); model another kind of service as the environment, through outputs and input events`},
		{"missing file", state(`<invoke src="file:gone.scxml"/>`), map[string]string{},
			`m.scxml:2:14: <invoke> src "gone.scxml": cannot read the file: file does not exist`},
		{"url", state(`<invoke src="http://example.com/c.scxml"/>`), map[string]string{},
			`m.scxml:2:14: <invoke> src "http://example.com/c.scxml" is not supported: name a file relative to the model (src="file:NAME.scxml"), or write the child <scxml> inside <content>`},
		{"itself", self, map[string]string{"m.scxml": self},
			`m.scxml:2:14: <invoke> src "file:m.scxml" invokes a machine that is already running in this chain of invokes (m.scxml -> m.scxml): setbot composes a fixed set of machines, so a machine cannot invoke itself`},
		{"through another", state(`<invoke src="a.scxml"/>`), map[string]string{"a.scxml": state(`<invoke src="m.scxml"/>`)},
			`a.scxml:2:14: <invoke> src "m.scxml" invokes a machine that is already running in this chain of invokes (m.scxml -> a.scxml -> m.scxml): setbot composes a fixed set of machines, so a machine cannot invoke itself`},
		{"srcexpr of two files", head + `<datamodel><data id="f" expr="'a.scxml'"/></datamodel><state id="s">` + "\n" +
			`<transition event="e"><assign location="f" expr="'b.scxml'"/></transition><invoke srcexpr="f"/></state></scxml>`,
			map[string]string{"a.scxml": child, "b.scxml": child},
			`m.scxml:2:92: <invoke srcexpr> "f" may name 2 machines ("a.scxml", "b.scxml"): setbot composes one machine per invoke; write one <invoke src> per machine, in states that tell them apart`},
		{"srcexpr computed", head + `<datamodel><data id="n" expr="1"/></datamodel><state id="s">` + "\n" +
			`<invoke srcexpr="'c' + n * 2 + '.scxml'"/></state></scxml>`, map[string]string{},
			`m.scxml:2:18: <invoke srcexpr> "'c' + n * 2 + '.scxml'": setbot cannot tell which files it names (the value is computed at run time); write src="file:NAME.scxml", or assign the variable only string constants`},
		{"typeexpr of nothing", state(`<invoke typeexpr="t"><content><scxml><final id="f"/></scxml></content></invoke>`), nil,
			`m.scxml:2:19: undeclared name t`},
		{"id and idlocation", head + `<datamodel><data id="v"/></datamodel><state id="s">` + "\n" + `<invoke id="a" idlocation="v"><content><scxml><final id="f"/></scxml></content></invoke></state></scxml>`, nil,
			`m.scxml:2:16: <invoke> has both id and idlocation: keep one (SCXML §6.4.1)`},
		{"no machine", state(`<invoke/>`), nil,
			`m.scxml:2:1: <invoke> names no machine: write src="file:NAME.scxml" or the child <scxml> inside <content>`},
		{"error in the child", state(`<invoke><content>` + "\n" + `<scxml><state id="c"><transition cond="false || nope" target="c"/></state></scxml></content></invoke>`), nil,
			`m.scxml:3:49: undeclared name nope`},
		{"duplicate id", state(`<invoke id="a" src="c.scxml"/><invoke id="a" src="c.scxml"/>`), map[string]string{"c.scxml": child},
			`m.scxml:2:31: duplicate invoke id "a": give each <invoke> its own id`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := scxml.Options{}
			if tc.files != nil {
				opts.ReadFile = files(tc.files)
			}
			_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(tc.doc), opts)
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if !slices.Contains(got, tc.want) {
				t.Errorf("errors:\n%s\nwant among them:\n%s", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}
