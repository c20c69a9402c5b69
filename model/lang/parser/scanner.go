package parser

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/setbot/setbot/model/lang/ast"
)

// A scanner splits a snippet into tokens. It works on bytes and reports
// lexical errors through errh; it never stops early.
type scanner struct {
	text string
	off  int // offset of the next unread byte
	errh func(off int, msg string)
	// refh, when set, receives the errors about constructs outside the
	// language (source.Error.Refused); errh does otherwise.
	refh func(off int, msg string)
}

// A lexeme is one scanned token. lit is the identifier or keyword text, the
// digits of an INT, the decoded value of a STRING, or the offending text of
// an ILLEGAL token.
type lexeme struct {
	off int
	nl  bool // a line break separates the token from the previous one
	tok ast.Token
	lit string
}

func (s *scanner) error(off int, format string, args ...any) {
	s.errh(off, fmt.Sprintf(format, args...))
}

// refuse reports a construct outside the language.
func (s *scanner) refuse(off int, format string, args ...any) {
	if s.refh == nil {
		s.error(off, format, args...)
		return
	}
	s.refh(off, fmt.Sprintf(format, args...))
}

// scan returns the next token; at the end of the text it returns EOF, as
// often as it is called.
func (s *scanner) scan() lexeme {
	nl := s.skipSpace()
	t := lexeme{off: s.off, nl: nl}
	if s.off >= len(s.text) {
		t.tok = ast.EOF
		return t
	}
	c := s.text[s.off]
	switch {
	case ast.IsLetter(c):
		t.lit = s.scanWhile(ast.IsIdentChar)
		t.tok = ast.Lookup(t.lit)
		return t
	case ast.IsDigit(c):
		t.tok, t.lit = s.scanNumber()
		return t
	case c == '\'' || c == '"':
		t.tok, t.lit = s.scanString(c)
		return t
	case c == '.' && s.peek(1) == '.':
		s.off += 2
		t.tok = ast.RANGE
		return t
	case c == '.' && ast.IsDigit(s.peek(1)):
		t.tok, t.lit = s.scanNumber()
		return t
	}
	t.tok, t.lit = s.scanOperator()
	return t
}

func (s *scanner) peek(n int) byte {
	if s.off+n < len(s.text) {
		return s.text[s.off+n]
	}
	return 0
}

func (s *scanner) scanWhile(ok func(byte) bool) string {
	start := s.off
	for s.off < len(s.text) && ok(s.text[s.off]) {
		s.off++
	}
	return s.text[start:s.off]
}

// skipSpace skips white space and comments and reports whether they
// contained a line break.
func (s *scanner) skipSpace() (nl bool) {
	for s.off < len(s.text) {
		switch c := s.text[s.off]; {
		case c == '\n' || c == '\r':
			nl = true
			s.off++
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			s.off++
		case c == '/' && s.peek(1) == '/':
			for s.off < len(s.text) && s.text[s.off] != '\n' && s.text[s.off] != '\r' {
				s.off++
			}
		case c == '/' && s.peek(1) == '*':
			end := strings.Index(s.text[s.off+2:], "*/")
			if end < 0 {
				s.error(s.off, "unterminated comment")
				s.off = len(s.text)
				return nl
			}
			body := s.text[s.off+2 : s.off+2+end]
			nl = nl || strings.ContainsAny(body, "\n\r")
			s.off += 2 + end + 2
		default:
			return nl
		}
	}
	return nl
}

// scanNumber scans a number literal: a decimal integer (INT), or one with
// a fraction or an exponent (DECIMAL: 1.5, 2e3, 2.5E-1). Other bases and
// leading zeros are scanned whole and reported, so that the parser sees one
// ILLEGAL token.
func (s *scanner) scanNumber() (ast.Token, string) {
	start := s.off
	s.scanWhile(ast.IsDigit)
	isDecimal := false
	if s.peek(0) == '.' && ast.IsDigit(s.peek(1)) {
		isDecimal = true
		s.off++
		s.scanWhile(ast.IsDigit)
	}
	if c := s.peek(0); (c == 'e' || c == 'E') && (ast.IsDigit(s.peek(1)) || (s.peek(1) == '+' || s.peek(1) == '-') && ast.IsDigit(s.peek(2))) {
		isDecimal = true
		s.off += 2
		s.scanWhile(ast.IsDigit)
	}
	s.scanWhile(ast.IsIdentChar)
	lit := s.text[start:s.off]
	switch {
	case isDecimal && strings.Trim(lit, "0123456789.eE+-") != "":
		s.error(start, "invalid number literal %s: write decimals as 1.5 or 2e3", lit)
	case isDecimal && len(lit) > 1 && lit[0] == '0' && ast.IsDigit(lit[1]):
		s.error(start, "invalid number literal %s: write it without leading zeros", lit)
	case isDecimal:
		return ast.DECIMAL, lit
	case strings.Trim(lit, "0123456789") != "":
		s.error(start, "invalid integer literal %s: write integers in decimal", lit)
	case len(lit) > 1 && lit[0] == '0':
		s.error(start, "invalid integer literal %s: write it without leading zeros", lit)
	default:
		return ast.INT, lit
	}
	return ast.ILLEGAL, lit
}

// scanString scans a string quoted with q and returns its decoded value.
func (s *scanner) scanString(q byte) (ast.Token, string) {
	start := s.off
	s.off++
	var b strings.Builder
	for {
		if s.off >= len(s.text) || s.text[s.off] == '\n' || s.text[s.off] == '\r' {
			s.error(start, "unterminated string literal")
			return ast.ILLEGAL, s.text[start:s.off]
		}
		c := s.text[s.off]
		s.off++
		switch c {
		case q:
			return ast.STRING, b.String()
		case '\\':
			if s.off >= len(s.text) || s.text[s.off] == '\n' || s.text[s.off] == '\r' {
				continue // reported as unterminated
			}
			switch e := s.text[s.off]; e {
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'u':
				r, n, msg := unicodeEscape(s.text[s.off+1:])
				if msg != "" {
					s.error(s.off-1, "%s", msg)
				} else {
					b.WriteRune(r)
				}
				s.off += n
			default:
				if r, _ := utf8.DecodeRuneInString(s.text[s.off:]); unicode.IsPrint(r) {
					s.error(s.off-1, "unknown escape sequence \\%c", r)
				} else {
					s.error(s.off-1, "unknown escape sequence \\ followed by %U", r)
				}
				b.WriteByte(e)
			}
			s.off++
		default:
			b.WriteByte(c)
		}
	}
}

// unicodeEscape decodes what follows "\\u" in a string literal, as
// ECMAScript writes a code point: {h...} (one to six hex digits, at most
// 10FFFF) or exactly four hex digits. It returns the code point and how many
// bytes it read, or a message saying what is wrong. A surrogate is refused:
// strings are sequences of code points (write \u{1F600}, not a pair).
func unicodeEscape(text string) (r rune, n int, msg string) {
	hex := func(from, most int) int {
		i := from
		for i < len(text) && i-from < most && strings.IndexByte("0123456789abcdefABCDEF", text[i]) >= 0 {
			i++
		}
		return i
	}
	var digits string
	if strings.HasPrefix(text, "{") {
		end := hex(1, 7)
		if end == len(text) || text[end] != '}' || end == 1 || end > 7 {
			return 0, end, `\u{` + text[1:end] + `: write \u{h...} with one to six hex digits`
		}
		digits, n = text[1:end], end+1
	} else {
		n = hex(0, 4)
		if n < 4 {
			return 0, n, `\u` + text[:n] + `: write four hex digits, or \u{h...}`
		}
		digits = text[:n]
	}
	v, _ := strconv.ParseUint(digits, 16, 32)
	switch {
	case v > unicode.MaxRune:
		return 0, n, `\u` + text[:n] + ` is beyond the last code point, 10FFFF`
	case 0xD800 <= v && v <= 0xDFFF:
		return 0, n, `\u` + text[:n] + ` is a surrogate: write the code point itself, \u{h...}`
	}
	return rune(v), n, ""
}

// CutString decodes the string literal that text starts with (quoted with
// ' or ", escaped as the action language escapes) and returns its value
// and the text after it; Quote writes what it reads.
func CutString(text string) (value, rest string, err error) {
	if text == "" || text[0] != '\'' && text[0] != '"' {
		return "", text, fmt.Errorf("no string literal at %q", text)
	}
	s := scanner{text: text, errh: func(_ int, msg string) {
		if err == nil {
			err = errors.New(msg)
		}
	}}
	_, value = s.scanString(text[0])
	if err != nil {
		return "", text, fmt.Errorf("string %s: %w", text[:s.off], err)
	}
	return value, text[s.off:], nil
}

// operators maps operator texts to tokens, longest first within each
// leading character (see scanOperator).
var operators = []struct {
	text string
	tok  ast.Token
}{
	{"===", ast.SEQL}, {"!==", ast.SNEQ}, {">>>", ast.USHR},
	{"&&", ast.LAND}, {"||", ast.LOR}, {"<<", ast.SHL}, {">>", ast.SHR},
	{"==", ast.EQL}, {"!=", ast.NEQ}, {"<=", ast.LEQ}, {">=", ast.GEQ},
	{"+=", ast.ADD_ASSIGN}, {"-=", ast.SUB_ASSIGN}, {"*=", ast.MUL_ASSIGN}, {"/=", ast.QUO_ASSIGN}, {"%=", ast.REM_ASSIGN},
	{"++", ast.INC}, {"--", ast.DEC},
	{"+", ast.ADD}, {"-", ast.SUB}, {"*", ast.MUL}, {"/", ast.QUO}, {"%", ast.REM},
	{"!", ast.NOT}, {"<", ast.LSS}, {">", ast.GTR}, {"=", ast.ASSIGN},
	{"&", ast.AND}, {"|", ast.OR}, {"^", ast.XOR}, {"~", ast.TILD},
	{"(", ast.LPAREN}, {")", ast.RPAREN}, {"{", ast.LBRACE}, {"}", ast.RBRACE}, {"[", ast.LBRACK}, {"]", ast.RBRACK},
	{",", ast.COMMA}, {";", ast.SEMICOLON}, {":", ast.COLON}, {"?", ast.QUESTION}, {".", ast.PERIOD},
}

func (s *scanner) scanOperator() (ast.Token, string) {
	rest := s.text[s.off:]
	for _, u := range unsupportedOperators {
		if strings.HasPrefix(rest, u.op) {
			s.refuse(s.off, "unsupported operator '%s': %s", u.op, u.hint)
			s.off += len(u.op)
			return ast.ILLEGAL, u.op
		}
	}
	for _, op := range operators {
		if strings.HasPrefix(rest, op.text) {
			s.off += len(op.text)
			return op.tok, op.text
		}
	}
	r, n := utf8.DecodeRuneInString(rest)
	s.error(s.off, "invalid character %q", r)
	s.off += n
	return ast.ILLEGAL, rest[:n]
}
