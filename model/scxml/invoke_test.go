package scxml_test

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
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
	if gen.ID != "s.1" || gen.Src != "" || lang.BlockString(gen.Start) != "where = 's.1'; _absent_where = 0;" {
		t.Errorf("second invoke: id %q src %q start %q; want the generated id s.1 stored in where", gen.ID, gen.Src, lang.BlockString(gen.Start))
	}
	reply := m.EventByName("reply")
	if reply == nil || reply.Kinds != model.Invoked || len(reply.Params) != 1 || reply.Params[0].Name != "v" || reply.Params[0].Type.Kind != lang.Int {
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
		{"typeexpr", state(`<invoke typeexpr="t"><content><scxml><final id="f"/></scxml></content></invoke>`), nil,
			`m.scxml:2:9: <invoke typeexpr> is not supported: setbot composes the machines a model invokes before it runs, so it must know them from the document; write type="..." with a constant`},
		{"id and idlocation", head + `<datamodel><data id="v"/></datamodel><state id="s">` + "\n" + `<invoke id="a" idlocation="v"><content><scxml><final id="f"/></scxml></content></invoke></state></scxml>`, nil,
			`m.scxml:2:16: <invoke> has both id and idlocation: keep one (SCXML §6.4.1)`},
		{"no machine", state(`<invoke/>`), nil,
			`m.scxml:2:1: <invoke> names no machine: write src="file:NAME.scxml" or the child <scxml> inside <content>`},
		{"error in the child", state(`<invoke><content>` + "\n" + `<scxml><state id="c"><transition cond="nope" target="c"/></state></scxml></content></invoke>`), nil,
			`m.scxml:3:40: undeclared name nope`},
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
