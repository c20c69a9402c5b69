package scxml_test

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// TestEncodings reads one document saved in several encodings: each
// loads, and an error after a non-ASCII character on its line is at the
// character's column in a decoded document (its byte column in a UTF-8
// one, as go/token counts).
func TestEncodings(t *testing.T) {
	doc := func(label string) string {
		return `<?xml version="1.0" encoding="` + label + `"?>` + "\n" + head +
			`<datamodel><data id="s" expr="''"/></datamodel><state id="a"><onentry>` + "\n" +
			`<assign location="s" expr="'héllo'"/><if cond="s"><assign location="s" expr="'é' + (s ? t : s)"/></if></onentry></state></scxml>`
	}
	// t, the undeclared name (read in a branch of ?:: an error), is
	// character 89 of line 3, byte 91 in UTF-8.
	want := func(label string) string {
		if label == "UTF-8" {
			return "m.scxml:3:91: undeclared name t"
		}
		return "m.scxml:3:89: undeclared name t"
	}
	utf16 := func(e encoding.Encoding) func(string) []byte {
		return func(s string) []byte {
			b, err := e.NewEncoder().Bytes([]byte(s))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	latin1 := utf16(charmap.ISO8859_1)
	tests := []struct {
		label  string
		encode func(string) []byte
	}{
		{"UTF-8", func(s string) []byte { return []byte(s) }},
		{"ISO-8859-1", latin1},
		{"latin1", latin1},
		{"windows-1252", utf16(charmap.Windows1252)},
		{"UTF-16", utf16(unicode.UTF16(unicode.LittleEndian, unicode.UseBOM))},
		{"UTF-16", utf16(unicode.UTF16(unicode.BigEndian, unicode.UseBOM))},
		{"UTF-16LE", utf16(unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM))},
	}
	for _, tc := range tests {
		t.Run(tc.label, func(t *testing.T) {
			src := tc.encode(doc(tc.label))
			_, errs := scxml.Read(source.NewFileSet(), "m.scxml", src, scxml.Options{})
			if !strings.Contains(errs.Error(), want(tc.label)) {
				t.Fatalf("got %v, want %s", errs, want(tc.label))
			}
			ok := strings.Replace(doc(tc.label), " + (s ? t : s)", "", 1)
			if _, errs := scxml.Read(source.NewFileSet(), "m.scxml", tc.encode(ok), scxml.Options{}); len(errs) > 0 {
				t.Fatalf("%s does not load: %v", tc.label, errs)
			}
		})
	}
	// us-ascii is read as windows-1252 (as the WHATWG's table does), so a
	// document that is ASCII loads.
	if _, errs := scxml.Read(source.NewFileSet(), "m.scxml", []byte(strings.ReplaceAll(strings.Replace(doc("us-ascii"), " + (s ? t : s)", "", 1), "é", "e")), scxml.Options{}); len(errs) > 0 {
		t.Fatalf("us-ascii does not load: %v", errs)
	}
}
