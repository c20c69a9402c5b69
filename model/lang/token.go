package lang

// Token is a lexical token of the language.
type Token int

// The tokens.
const (
	ILLEGAL Token = iota
	EOF

	IDENT  // a, _event
	INT    // 42
	STRING // 'S1' or "out"

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

	keywordBeg
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
	keywordEnd
)

var tokenText = [...]string{
	ILLEGAL: "ILLEGAL", EOF: "EOF", IDENT: "IDENT", INT: "INT", STRING: "STRING",
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
	for t := keywordBeg + 1; t < keywordEnd; t++ {
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
