package ast

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Token is a lexical token of the language.
type Token int

// The tokens.
const (
	ILLEGAL Token = iota
	EOF

	IDENT   // a, _event
	INT     // 42
	STRING  // 'S1' or "out"
	DECIMAL // 1.5, 2e3

	ADD // +
	SUB // -
	MUL // *
	QUO // /
	REM // %

	LAND // &&
	LOR  // ||
	NOT  // !

	AND  // & (ECMAScript's 32-bit bit operators)
	OR   // |
	XOR  // ^
	TILD // ~
	SHL  // <<
	SHR  // >>
	USHR // >>>

	EQL  // ==
	NEQ  // !=
	SEQL // ===
	SNEQ // !==
	LSS  // <
	GTR  // >
	LEQ  // <=
	GEQ  // >=
	IN   // in: whether an object has a field (scanned as IDENT "in")

	ASSIGN     // =
	ADD_ASSIGN // +=
	SUB_ASSIGN // -=
	MUL_ASSIGN // *=
	QUO_ASSIGN // /=
	REM_ASSIGN // %=
	INC        // ++
	DEC        // --

	LPAREN    // (
	RPAREN    // )
	LBRACE    // {
	RBRACE    // }
	LBRACK    // [
	RBRACK    // ]
	COMMA     // ,
	SEMICOLON // ;
	COLON     // :
	QUESTION  // ?
	PERIOD    // .
	RANGE     // ..

	KeywordBeg
	TRUE
	FALSE
	IF
	ELSE
	WHILE
	FOR
	VAR
	LET
	INTKW  // int
	BOOLKW // bool
	RAISE
	SEND
	TO
	AFTER
	ASSUME
	KeywordEnd
)

var tokenText = [...]string{
	ILLEGAL: "ILLEGAL", EOF: "EOF", IDENT: "IDENT", INT: "INT", STRING: "STRING", DECIMAL: "DECIMAL",
	ADD: "+", SUB: "-", MUL: "*", QUO: "/", REM: "%",
	LAND: "&&", LOR: "||", NOT: "!",
	AND: "&", OR: "|", XOR: "^", TILD: "~", SHL: "<<", SHR: ">>", USHR: ">>>",
	EQL: "==", NEQ: "!=", SEQL: "===", SNEQ: "!==", LSS: "<", GTR: ">", LEQ: "<=", GEQ: ">=", IN: "in",
	ASSIGN: "=", ADD_ASSIGN: "+=", SUB_ASSIGN: "-=", MUL_ASSIGN: "*=", QUO_ASSIGN: "/=", REM_ASSIGN: "%=",
	INC: "++", DEC: "--",
	LPAREN: "(", RPAREN: ")", LBRACE: "{", RBRACE: "}", LBRACK: "[", RBRACK: "]",
	COMMA: ",", SEMICOLON: ";", COLON: ":", QUESTION: "?", PERIOD: ".", RANGE: "..",
	TRUE: "true", FALSE: "false", IF: "if", ELSE: "else", WHILE: "while", FOR: "for",
	VAR: "var", LET: "let", INTKW: "int", BOOLKW: "bool",
	RAISE: "raise", SEND: "send", TO: "to", AFTER: "after", ASSUME: "assume",
}

func (t Token) String() string {
	if t >= 0 && int(t) < len(tokenText) && tokenText[t] != "" {
		return tokenText[t]
	}
	return "token(?)"
}

var keywords = func() map[string]Token {
	m := make(map[string]Token)
	for t := KeywordBeg + 1; t < KeywordEnd; t++ {
		m[tokenText[t]] = t
	}
	return m
}()

// Lookup maps an identifier to its keyword token, or IDENT.
func Lookup(name string) Token {
	if t, ok := keywords[name]; ok {
		return t
	}
	return IDENT
}

// IsKeyword reports whether name is reserved.
func IsKeyword(name string) bool { _, ok := keywords[name]; return ok }

// Precedence returns the binary precedence of t (higher binds tighter), or
// 0 when t is not a binary operator, in ECMAScript's order. The ternary ?:
// sits below all of them.
func (t Token) Precedence() int {
	switch t {
	case LOR:
		return 1
	case LAND:
		return 2
	case OR:
		return 3
	case XOR:
		return 4
	case AND:
		return 5
	case EQL, NEQ, SEQL, SNEQ:
		return 6
	case LSS, GTR, LEQ, GEQ, IN:
		return 7
	case SHL, SHR, USHR:
		return 8
	case ADD, SUB:
		return 9
	case MUL, QUO, REM:
		return 10
	}
	return 0
}

// IsBitOp reports whether t is one of ECMAScript's binary bit operators,
// which work on 32-bit integers.
func (t Token) IsBitOp() bool { return AND <= t && t <= USHR && t != TILD }

// CompoundOp maps a compound assignment operator to its binary operator.
var CompoundOp = map[Token]Token{ADD_ASSIGN: ADD, SUB_ASSIGN: SUB, MUL_ASSIGN: MUL, QUO_ASSIGN: QUO, REM_ASSIGN: REM}

// Quote returns s quoted with q, escaped as the scanner reads it back: a
// line break, a tab and a character that does not print (a control
// character, a format character such as U+200B) are escaped, so that a
// printed literal stays on its line and says what it holds; bytes that are
// not UTF-8 are kept as they are.
func Quote(s string, q byte) string {
	var b strings.Builder
	b.WriteByte(q)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\' || r == rune(q):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError && n == 1, unicode.IsPrint(r):
			b.WriteString(s[i : i+n])
		default:
			fmt.Fprintf(&b, `\u{%x}`, r)
		}
		i += n
	}
	b.WriteByte(q)
	return b.String()
}

// FieldKey writes a field name as an object literal's key.
func FieldKey(name string) string {
	if IsIdent(name) {
		return name
	}
	return Quote(name, '\'')
}

func IsLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

func IsDigit(c byte) bool { return '0' <= c && c <= '9' }

func IsIdentChar(c byte) bool { return IsLetter(c) || IsDigit(c) }

// IsIdent reports whether s is an identifier or a keyword.
func IsIdent(s string) bool {
	if s == "" || !IsLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !IsIdentChar(s[i]) {
			return false
		}
	}
	return true
}
