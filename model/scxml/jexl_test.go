package scxml_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// jexlDoc is a jexl model with the given data and the code of one state.
func jexlDoc(data, code string) string {
	return `<scxml xmlns="http://www.w3.org/2005/07/scxml" xmlns:cs="https://commons.apache.org/scxml" datamodel="jexl" initial="a">
<datamodel><data id="n" expr="2"/><data id="s" expr="'ab'"/><data id="b" expr="true"/><data id="d" expr="1.5"/><data id="l" expr="[1, 2]"/>` + data + `</datamodel>
<state id="a">` + code + `</state><final id="z"/></scxml>`
}

// TestJexlLoads checks that the dialect's constructs read, and that its
// semantics where JEXL and ECMAScript agree load without error.
func TestJexlLoads(t *testing.T) {
	codes := []string{
		`<transition event="e" cond="n eq 2 and not empty(s) or n ge 3" target="z"/>`,
		`<transition event="e" cond="size(s) lt 3 and l.size() ne 0 and s.length() le 2" target="z"/>`,
		`<onentry><assign location="s" expr="'s is ' + s + ', and ' + s"/></onentry>`,
		`<onentry><assign location="n" expr="n div 2 + n mod (1 + 1) + 7L"/></onentry>`,
		`<onentry><cs:var name="t" expr="n + 1"/><assign location="n" expr="t"/></onentry>`,
		`<onentry><script>var k = 3; n = k * 2;</script></onentry>`,
		`<transition event="e" cond="s.contains('a') and In('a')" target="z"/>`,
		`<transition event="e" cond="empty(n) or empty(d)" target="z"/>`,
	}
	for _, code := range codes {
		_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(jexlDoc("", code)), scxml.Options{})
		if len(errs) > 0 {
			t.Errorf("%s: %v", code, errs)
		}
	}
}

// TestJexlDataContent checks that the text of a <data> is read as Commons
// SCXML reads it: JSON where it begins with { or [, and otherwise a string
// (5 is the string '5', not a number), never as JEXL.
func TestJexlDataContent(t *testing.T) {
	data := `<data id="v"> 5 </data><data id="j">{ "k" : [1, 2], "s" : "a\nb" }</data>`
	code := `<transition event="e" cond="v eq '5' and j.k[0] eq 1 and j.s ne ''" target="z"/>`
	if _, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(jexlDoc(data, code)), scxml.Options{}); len(errs) > 0 {
		t.Errorf("%v", errs)
	}
	code = `<transition event="e" cond="v eq 5" target="z"/>`
	if _, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(jexlDoc(data, code)), scxml.Options{}); len(errs) == 0 || !strings.Contains(errs[0].Msg, "mismatched types string and int") {
		t.Errorf("v eq 5 with v the string '5': %v, want a mismatch of string and int", errs)
	}
}

// TestJexlVet checks that what JEXL means otherwise than ECMAScript is
// refused at its position, naming the JEXL construct.
func TestJexlVet(t *testing.T) {
	tests := []struct {
		code, col, names string
	}{
		{`<onentry><assign location="s" expr="s + s"/></onentry>`, "3:53", "adds them as numbers"},
		{`<onentry><assign location="s" expr="'x: ' + d"/></onentry>`, "3:57", "+"},
		{`<transition event="e" cond="s" target="z"/>`, "3:43", "not a boolean"},
		{`<transition event="e" cond="n and b" target="z"/>`, "3:43", "not a boolean"},
		{`<transition event="e" cond="empty(b)" target="z"/>`, "3:43", "empty() of bool"},
		{`<transition event="e" cond="empty(l)" target="z"/>`, "3:43", "empty() of"},
		{`<transition event="e" cond="s.size() eq 2" target="z"/>`, "3:44", ".size() of string"},
		{`<transition event="e" cond="l.length() eq 2" target="z"/>`, "3:44", ".length() of"},
		{`<transition event="e" cond="n === 2.0" target="z"/>`, "3:45", "Java classes"},
		{`<transition event="e" cond="s =~ 'a.*'" target="z"/>`, "3:45", "operator =~"},
		{`<onentry><assign location="n" expr="10 div n"/></onentry>`, "3:54", "which may be 0"},
	}
	for _, tt := range tests {
		_, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(jexlDoc("", tt.code)), scxml.Options{})
		if len(errs) == 0 {
			t.Errorf("%s: no error", tt.code)
			continue
		}
		e := errs[0]
		if got := strings.TrimPrefix(e.Pos.String(), "m.scxml:"); got != tt.col || !e.Refused || !strings.Contains(e.Msg, tt.names) {
			t.Errorf("%s: %v (refused %v), want a refusal at %s naming %q", tt.code, e, e.Refused, tt.col, tt.names)
		}
	}
}

// TestJexlCorpus counts the jexl models of the Apache Commons SCXML corpus
// (kept outside the repository; skipped where it is absent) that load, and
// checks that none makes the reader fail otherwise than by an error.
func TestJexlCorpus(t *testing.T) {
	dir := "../../../shared/corpora/wild/apache+commons-scxml"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("corpus absent:", err)
	}
	files, loaded := 0, 0
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(src), `datamodel="jexl"`) {
			return err
		}
		files++
		if _, errs := scxml.ReadFile(source.NewFileSet(), path, scxml.Options{}); len(errs) == 0 {
			loaded++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d jexl models load", loaded, files)
	if files > 0 && loaded*100 < 60*files {
		t.Errorf("%d of %d jexl models load, under 60 %%", loaded, files)
	}
}
