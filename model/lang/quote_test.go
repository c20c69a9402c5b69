package lang_test

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/parser"
)

func TestCutString(t *testing.T) {
	tests := []struct {
		in, value, rest, err string
	}{
		{`'abc'`, "abc", "", ""},
		{`"it's", x`, "it's", ", x", ""},
		{`'a\'b, c=1)')`, "a'b, c=1)", ")", ""},
		{`'\\ \" \n \t \r'`, "\\ \" \n \t \r", "", ""},
		{`'\u{e9}\u00e9\u{1F600}'`, "éé😀", "", ""},
		{`'\u{110000}'`, "", "", `string '\u{110000}': \u{110000} is beyond the last code point, 10FFFF`},
		{`'\ud83d'`, "", "", `string '\ud83d': \ud83d is a surrogate: write the code point itself, \u{h...}`},
		{`'\u12'`, "", "", `string '\u12': \u12: write four hex digits, or \u{h...}`},
		{`'\u{}'`, "", "", `string '\u{}': \u{: write \u{h...} with one to six hex digits`},
		{`'\u{1234567}'`, "", "", `string '\u{1234567}': \u{1234567: write \u{h...} with one to six hex digits`},
		{`'\q'`, "", "", `string '\q': unknown escape sequence \q`},
		{`'abc`, "", "", `string 'abc: unterminated string literal`},
		{"'a\nb'", "", "", "string 'a: unterminated string literal"},
		{`abc`, "", "", `no string literal at "abc"`},
	}
	for _, tt := range tests {
		value, rest, err := parser.CutString(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err || err == nil && (value != tt.value || rest != tt.rest) {
			t.Errorf("CutString(%q) = %q, %q, %q; want %q, %q, %q", tt.in, value, rest, got, tt.value, tt.rest, tt.err)
		}
	}
}

func TestQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"on", `'on'`},
		{`it's a \ "b"`, `'it\'s a \\ "b"'`},
		{"a\nb\tc\rd", `'a\nb\tc\rd'`},
		{"é😀", `'é😀'`},
		{"\x00\x1b\u200b\u00a0", `'\u{0}\u{1b}\u{200b}\u{a0}'`},
		{"\xff", "'\xff'"},
	}
	for _, tt := range tests {
		if got := printer.ExprString(&ast.StrLit{Value: tt.in}); got != tt.want {
			t.Errorf("ExprString of the string %q = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestQuoteRoundTrip checks that CutString reads back what the printer
// writes for a string,
// for strings of quotes, commas, backslashes, controls and characters
// beyond ASCII, and that the literal holds no line break.
func TestQuoteRoundTrip(t *testing.T) {
	alphabet := []rune("'\",\\()=: a1\n\r\t\x00\x7fé€😀\u200b\U0002FFFF")
	rng := rand.New(rand.NewSource(1))
	for range 5000 {
		var b strings.Builder
		for range rng.Intn(12) {
			b.WriteRune(alphabet[rng.Intn(len(alphabet))])
		}
		s := b.String()
		q := printer.ExprString(&ast.StrLit{Value: s})
		if strings.ContainsAny(q, "\n\r") || !utf8.ValidString(q) {
			t.Fatalf("the string %q prints as %q: a line break or invalid UTF-8", s, q)
		}
		got, rest, err := parser.CutString(q + ", x")
		if err != nil || got != s || rest != ", x" {
			t.Fatalf("CutString(%s, printed from %q) = %q, %q, %v", q, s, got, rest, err)
		}
	}
}
