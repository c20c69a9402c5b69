package jexl

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/source"
)

// translate reads text as the snippet of a file of its own.
func translate(t *testing.T, text string) (parser.Snippet, source.ErrorList) {
	t.Helper()
	fset := source.NewFileSet()
	f := fset.AddFile("m.scxml", []byte(text))
	return New().Translate(parser.NewSnippet(f, text))
}

// TestTableWords checks every Word row of the table: the operator takes
// the word's place and keeps its position.
func TestTableWords(t *testing.T) {
	n := 0
	for _, r := range Table {
		if r.How != Word {
			continue
		}
		n++
		src := "a " + r.JEXL + " b"
		s, errs := translate(t, src)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", src, errs)
		}
		if want := "a " + r.Setbot + " b"; s.Text != want {
			t.Errorf("%s reads as %q, want %q", src, s.Text, want)
		}
		if got := s.Offsets[2]; got != 2 {
			t.Errorf("%s: the operator sits at offset %d, want 2 (the word's)", src, got)
		}
		if _, errs := parser.ParseExpr(s); len(errs) > 0 && r.JEXL != "not" {
			t.Errorf("%s does not parse: %v", s.Text, errs)
		}
	}
	if n != 11 {
		t.Errorf("%d word operators, want 11", n)
	}
}

func TestTranslate(t *testing.T) {
	tests := []struct{ jexl, want string }{
		{"x eq 2 and not empty(s)", "x == 2 && ! (!(s))"},
		{"size(s) gt 3", "((s).length) > 3"},
		{"s.length() + l.size()", "s.length + l.length"},
		{"s.contains('a') or s.startsWith('b')", "s.includes('a') || s.startsWith('b')"},
		{"1L + 2.5d", "1 + 2.5"},
		{"a ## comment\n+ b", "a           \n+ b"},
		{"a /* c */ + 'eq'", "a         + 'eq'"},
		{"x.eq", "x.eq"},
		{"var x = null; x = 1", "var x = null; x = 1"},
		{"In('s') && !In('t')", "In('s') && !In('t')"},
		{"empty(size(s))", "(!(((s).length)))"},
		{"c ? a:b", "c ? a:b"},
		{"{ 'a' : x ? y : z }", "{ 'a' : x ? y : z }"},
	}
	for _, tt := range tests {
		s, errs := translate(t, tt.jexl)
		if len(errs) > 0 {
			t.Errorf("%s: %v", tt.jexl, errs)
			continue
		}
		if s.Text != tt.want {
			t.Errorf("%s reads as %q, want %q", tt.jexl, s.Text, tt.want)
		}
		if len(s.Offsets) != len(s.Text) {
			t.Errorf("%s: %d offsets for %d bytes", tt.jexl, len(s.Offsets), len(s.Text))
		}
	}
}

// TestRefused checks that each JEXL construct outside the dialect is
// refused at its column, naming it.
func TestRefused(t *testing.T) {
	tests := []struct {
		jexl, col, names string
	}{
		{"x =~ y", "1:3", "operator =~"},
		{"x ?: y", "1:3", "operator ?:"},
		{"x?.f", "1:2", "operator ?."},
		{"1..3", "1:2", "operator .."},
		{"a & b", "1:3", "operator &"},
		{"a << 2", "1:3", "operator <<"},
		{"new('java.util.Date')", "1:1", "new"},
		{"function(x) { x }", "1:1", "function"},
		{"'t: ' + System.currentTimeMillis()", "1:16", "Java class's method .currentTimeMillis()"},
		{"s.substring(1)", "1:3", "method call .substring()"},
		{"s.length", "1:3", "x.length"},
		{"0x1F", "1:1", "number 0x1F"},
		{"017", "1:1", "number 017"},
		{"1.5f", "1:1", "number 1.5f"},
		{"'a\\nb'", "1:3", "escape \\n"},
		{"math:cos(x)", "1:1", "namespace function math:"},
		{"{ 'k' : 1, a : 2 }", "1:12", "map key a"},
		{"#pragma x 1", "1:1", "#..."},
		{"`x${y}`", "1:1", "template string"},
	}
	for _, tt := range tests {
		_, errs := translate(t, tt.jexl)
		if len(errs) == 0 {
			t.Errorf("%s: not refused", tt.jexl)
			continue
		}
		e := errs[0]
		if got := strings.TrimPrefix(e.Pos.String(), "m.scxml:"); got != tt.col || !e.Refused || !strings.Contains(e.Msg, tt.names) {
			t.Errorf("%s: %v (refused %v), want a refusal at %s naming %q", tt.jexl, e, e.Refused, tt.col, tt.names)
		}
	}
}

// TestTableNotes checks that every row says what it means, and that each
// refused operator names a row of the table.
func TestTableNotes(t *testing.T) {
	for _, r := range Table {
		if r.Note == "" || r.JEXL == "" || (r.How != Refused && r.Setbot == "") {
			t.Errorf("row %q is incomplete", r.JEXL)
		}
	}
	for _, o := range refusedOps {
		if o.row != "" && note(o.row) == "" {
			t.Errorf("operator %s names row %q, which the table lacks", o.op, o.row)
		}
	}
}

// FuzzTranslate checks that any text translates without a panic, every
// byte of the result keeping a position, and that a text without
// refusals parses without a panic.
func FuzzTranslate(f *testing.F) {
	for _, s := range []string{"x eq 2 and not empty(s)", "size(s.size()) + 'a\\'b'", "{ a : 1 }", "x.length(", "empty(", ")))", "0x", "1e", "'\\", "a ## b", "/* x", "s.contains(1)", "A.b()"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, errs := translate(t, text)
		if len(s.Offsets) != len(s.Text) {
			t.Fatalf("%q: %d offsets for %d bytes", text, len(s.Offsets), len(s.Text))
		}
		if len(errs) == 0 {
			parser.ParseStmts(s)
		}
	})
}
