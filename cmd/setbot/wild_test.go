package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// writeModel writes a model into a fresh directory and returns its path.
func writeModel(t *testing.T, name string, src []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// earlyDraftsModel uses what the early working drafts and other tools
// write: initialstate, an invoke's targettype, an empty event attribute
// and In() of a state the model does not have.
const earlyDraftsModel = `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initialstate="b">
  <datamodel><data name="n" expr="1"/></datamodel>
  <state id="a"/>
  <state id="b">
    <transition event="go" cond="In('nowhere')" target="a"/>
    <transition event="go" cond="n == 1" target="c"/>
  </state>
  <state id="c">
    <invoke targettype="scxml"><content><scxml initial="k"><state id="k"/></scxml></content></invoke>
    <transition event=" " target="d"/>
  </state>
  <state id="d"/>
</scxml>
`

// TestEarlyDrafts: the model loads with a warning for each construct,
// starts in initialstate's state, reads In('nowhere') as false and the
// empty event as none, in the flattened machine, the reference
// interpreter and the exploration alike.
func TestEarlyDrafts(t *testing.T) {
	path := writeModel(t, "drafts.scxml", []byte(earlyDraftsModel))
	code, out, _ := runCLI(t, "check", path)
	want := []string{
		path + ":1:62: warning: initialstate is the name the early SCXML working drafts (2005 to 2007) gave to initial, read as initial: rename it initial",
		path + ":2:20: warning: name is the name the early SCXML working drafts (2005 to 2007) gave to id on <data>, read as id: rename it id",
		path + ":5:34: warning: In('nowhere') names no state of the model, so it is false: name a state, or remove the In()",
		path + ":9:13: warning: targettype is the attribute of the early SCXML working drafts (2005 to 2007), ignored here: an <invoke> without type invokes an SCXML machine (SCXML 1.0 names the attribute type)",
		path + ":10:24: warning: empty event attribute, read as an eventless transition (SCXML's algorithm takes an empty event list for none): omit the attribute",
	}
	if code != 0 || out != strings.Join(want, "\n")+"\n" {
		t.Errorf("check: exit %d\n%s\nwant exit 0\n%s", code, out, strings.Join(want, "\n"))
	}
	for _, ref := range []bool{false, true} {
		args := []string{path, "go"}
		if ref {
			args = append([]string{"--reference"}, args...)
		}
		code, out, errs := runSimulate(t, args...)
		if code != 0 || !strings.HasSuffix(out, "d\n") || !strings.Contains(out, "b\n> go()") {
			t.Errorf("simulate (reference %v): exit %d, want the start in b and go to end in d\n%s%s", ref, code, out, errs)
		}
	}
	code, out, errs := runCLI(t, "explore", "--format", "json", path)
	var rep struct {
		Unreachable []struct{ State string } `json:"unreachable"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("explore: exit %d\n%s%s", code, out, errs)
	}
	var unreachable []string
	for _, u := range rep.Unreachable {
		unreachable = append(unreachable, u.State)
	}
	// a only In('nowhere') leads to; the child of c, which the eventless
	// transition leaves in the macrostep that enters it, never starts.
	if strings.Join(unreachable, " ") != "a c.0.k" {
		t.Errorf("explore: unreachable %v, want a and c.0.k", unreachable)
	}
}

// TestEarlyDraftRefusals: what SCXML 1.0 has no reading of is refused at
// its place, naming the draft and what to write.
func TestEarlyDraftRefusals(t *testing.T) {
	const head = `<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0">`
	for _, tc := range []struct{ name, doc, want string }{
		{"transition in scxml", head + "<state id=\"a\"/>\n<transition event=\"e\" target=\"a\"/></scxml>",
			":2:1: <transition> is not allowed in <scxml> (the SCXML working drafts of 2008 and 2009 read <scxml> as the root state, with an <initial> as a state has, and tools of that time still write it so; SCXML 1.0 makes it a wrapper of the states): wrap the states in a <state> and put the transition there"},
		{"onentry in scxml", head + "<state id=\"a\"/>\n<onentry/></scxml>",
			":2:1: <onentry> is not allowed in <scxml> (the SCXML working drafts"},
		{"final state with children", head + "\n<state id=\"a\" final=\"true\"><state id=\"b\"/></state></scxml>",
			":2:15: final=\"true\" on <state> is of the early SCXML working drafts (2005 to 2007), and on a state with child states or inside another state it has no SCXML 1.0 reading"},
		{"exit", head + "<state id=\"a\"><transition event=\"e\" target=\"a\">\n<exit/></transition></state></scxml>",
			":2:1: <exit> is of the early SCXML working drafts (2005 to 2007), where it ends the session: make the transition target a <final> child of <scxml> instead"},
		{"initial twice", `<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a"` + "\n" + ` initialstate="a"><state id="a"/></scxml>`,
			":2:2: <scxml> has both initial and initialstate (the early working drafts' name for initial): remove initialstate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeModel(t, "m.scxml", []byte(tc.doc))
			code, out, _ := runCLI(t, "check", path)
			if code != exitFindings || !strings.HasPrefix(out, path+tc.want) {
				t.Errorf("exit %d\n%s\nwant exit 1 and\n%s%s", code, out, path, tc.want)
			}
		})
	}
}

// TestEncodedModels: a model saved as ISO-8859-1 or UTF-16 loads, runs as
// its UTF-8 text does, and its warnings count columns in characters.
func TestEncodedModels(t *testing.T) {
	doc := func(label string) string {
		return `<?xml version="1.0" encoding="` + label + `"?>` + "\n" +
			`<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a"><datamodel><data id="s" expr="'ü'"/></datamodel>` + "\n" +
			`<state id="a"><transition event="go" cond="s == 'ü' &amp;&amp; !In('zß')" target="b"/></state><state id="b"/></scxml>`
	}
	encode := map[string]func(string) ([]byte, error){
		"ISO-8859-1": func(s string) ([]byte, error) { return charmap.ISO8859_1.NewEncoder().Bytes([]byte(s)) },
		"UTF-16": func(s string) ([]byte, error) {
			return unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
		},
	}
	for label, enc := range encode {
		t.Run(label, func(t *testing.T) {
			src, err := enc(doc(label))
			if err != nil {
				t.Fatal(err)
			}
			path := writeModel(t, "m.scxml", src)
			// In is character 65 of line 3 in any encoding.
			code, out, _ := runCLI(t, "check", path)
			if want := path + ":3:65: warning: In('zß') names no state"; code != 0 || !strings.HasPrefix(out, want) {
				t.Errorf("check: exit %d\n%s\nwant %s", code, out, want)
			}
			for _, ref := range []string{"--time=timed", "--reference"} {
				if code, out, errs := runSimulate(t, ref, path, "go"); code != 0 || !strings.HasSuffix(out, "b\n") {
					t.Errorf("simulate %s: exit %d\n%s%s", ref, code, out, errs)
				}
			}
			if code, out, errs := runCLI(t, "explore", path); code != 0 || strings.Contains(out, "states unreachable") {
				t.Errorf("explore: exit %d, want every state reached\n%s%s", code, out, errs)
			}
		})
	}
	path := writeModel(t, "m.scxml", []byte(strings.Replace(doc("UTF-8"), "UTF-8", "x-martian", 1)))
	if code, out, _ := runCLI(t, "check", path); code != exitFindings || !strings.HasPrefix(out, path+`:1:31: encoding "x-martian" is not supported`) {
		t.Errorf("unknown encoding: exit %d\n%s", code, out)
	}
}

// TestEmptyDataExpr: <data expr=""> holds no expression, so the variable
// starts undefined and error.execution is raised (SCXML §5.3), with a
// warning, in every executor.
func TestEmptyDataExpr(t *testing.T) {
	path := writeModel(t, "m.scxml", []byte(`<scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a">
<datamodel><data id="y" expr=""/></datamodel>
<state id="a"><transition event="error.execution" cond="y === undefined" target="b"/></state><state id="b"/></scxml>`))
	code, out, _ := runCLI(t, "check", path)
	if want := path + `:2:25: warning: <data> expr "" is no ECMAScript expression (it is empty; omit expr for a variable that starts undefined)`; code != 0 || !strings.HasPrefix(out, want) {
		t.Errorf("check: exit %d\n%s\nwant %s", code, out, want)
	}
	for _, ref := range []string{"--time=timed", "--reference"} {
		if code, out, errs := runSimulate(t, ref, path); code != 0 || !strings.HasSuffix(out, "b\n") {
			t.Errorf("simulate %s: exit %d, want the start to end in b\n%s%s", ref, code, out, errs)
		}
	}
	if code, out, errs := runCLI(t, "explore", path); code != 0 || !strings.Contains(out, "a (line 3): entered after the start, never stable") {
		t.Errorf("explore: exit %d, want a transient\n%s%s", code, out, errs)
	}
}

// TestDraftFinal: final="true" on a <state> of the early drafts is a
// <final> where the state has no transitions, and a <state> at the top
// level where it has some (Apache Commons SCXML 0.x keeps taking them), in
// the flattened machine, the reference interpreter and the exploration.
func TestDraftFinal(t *testing.T) {
	path := writeModel(t, "m.scxml", []byte(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="main">
<state id="main" final="true"><transition event="go" target="exit"/></state>
<state id="exit" final="true"><transition event="never" target="main"/></state>
<state id="end" final="true"/></scxml>`))
	code, out, _ := runCLI(t, "check", path)
	want := []string{
		path + ":2:18: warning: final=\"true\" on a <state> with transitions is of the early SCXML working drafts (2005 to 2007), whose engines (Apache Commons SCXML 0.x) keep taking its transitions",
		path + ":3:18: warning: final=\"true\" on a <state> with transitions",
		path + ":4:17: warning: final=\"true\" on <state> is the early SCXML working drafts' (2005 to 2007) final state, read as a <final>: write <final>",
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != len(want) {
		t.Fatalf("check: exit %d\n%s", code, out)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("check line %d:\n%s\nwant prefix\n%s", i, lines[i], w)
		}
	}
	for _, ref := range []string{"--time=timed", "--reference"} {
		if code, out, errs := runSimulate(t, ref, path, "go"); code != 0 || !strings.HasSuffix(out, "exit\n") || !strings.Contains(out, "main\n") {
			t.Errorf("simulate %s: exit %d, want main, then exit after go\n%s%s", ref, code, out, errs)
		}
	}
	if code, out, errs := runCLI(t, "explore", path); code != 0 || !strings.Contains(out, "end (line 4)") {
		t.Errorf("explore: exit %d, want end unreachable\n%s%s", code, out, errs)
	}
}

// TestDefaultJEXL: a document that names no data model and compares with a
// JEXL word operator is read as the jexl data model, with a warning, in
// every executor.
func TestDefaultJEXL(t *testing.T) {
	path := writeModel(t, "m.scxml", []byte(`<scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" initial="a">
<datamodel><data id="n" expr="0"/></datamodel>
<state id="a"><transition event="go" cond="n lt 2" target="a"><assign location="n" expr="n + 1"/></transition>
<transition event="go" cond="n eq 2" target="b"/></state><final id="b"/></scxml>`))
	code, out, _ := runCLI(t, "check", path)
	if want := path + `:3:46: warning: lt is JEXL's comparison, in a document that names no data model: read as datamodel="jexl"`; code != 0 || !strings.HasPrefix(out, want) || strings.Count(out, "\n") != 1 {
		t.Errorf("check: exit %d\n%s\nwant %s", code, out, want)
	}
	for _, ref := range []string{"--time=timed", "--reference"} {
		if code, out, errs := runSimulate(t, ref, path, "go", "go", "go"); code != 0 || !strings.HasSuffix(out, "b (halted)\n") {
			t.Errorf("simulate %s: exit %d, want b after three go\n%s%s", ref, code, out, errs)
		}
	}
	if code, out, errs := runCLI(t, "explore", path); code != 0 || strings.Contains(out, "unreachable") {
		t.Errorf("explore: exit %d, want b reached\n%s%s", code, out, errs)
	}
}
