package lang

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/setbot/setbot/model/source"
)

// maxErrors stops parsing after this many errors.
const maxErrors = 50

// ParseExpr parses src as exactly one expression.
//
// The result is never nil. When errors are returned it is incomplete:
// erroneous sub-expressions are replaced by the identifier _.
func ParseExpr(src Snippet) (Expr, source.ErrorList) {
	p := newParser(src)
	x := p.parseValue()
	if p.tok != EOF {
		p.errorExpected("end of expression")
	}
	if !p.withinLimits(x) {
		x = p.bad(0)
	}
	p.errs.Sort()
	return x, p.errs
}

// ParseFuncExpr parses src as a function expression bound to name,
// function (PARAMS...) { BODY } (SCXML's <data id="f" expr="function
// ...">): the declaration of a function called name.
func ParseFuncExpr(src Snippet, name *Ident) (*FuncDecl, source.ErrorList) {
	p := newParser(src)
	var f *FuncDecl
	if !p.isFuncExpr() {
		p.errorExpected("function expression")
	} else if s, ok := p.parseFuncExpr(name).(*FuncDecl); ok {
		f = s
	}
	if p.tok != EOF && len(p.errs) == 0 {
		p.errorExpected("end of function expression")
	}
	if f != nil && !p.withinLimits(f.Body) {
		f = nil
	}
	p.errs.Sort()
	return f, p.errs
}

// IsFuncExpr reports whether text, an expression's source, begins a
// function expression: function (...) or function NAME(...).
func IsFuncExpr(text string) bool {
	p := newParser(Snippet{Text: text})
	return p.isFuncExpr()
}

// ParseLocation parses src as a location that can be assigned: a variable,
// or a field or element of one (a, o.f, a[i].f). It returns the variable
// and the path below it; on errors the variable is nil.
func ParseLocation(src Snippet) (*Ident, []*Sel, source.ErrorList) {
	p := newParser(src)
	mark := len(p.errs)
	x := p.parseValue()
	if p.tok != EOF {
		p.errorExpected("end of location")
	}
	var target *Ident
	var path []*Sel
	if len(p.errs) == mark && p.withinLimits(x) {
		target, path = p.target(x, 0, mark)
	}
	p.errs.Sort()
	return target, path, p.errs
}

// ParseStmts parses src as a statement list. The returned Block has Lbrace
// NoPos.
//
// A statement ends with ';', a line break, a '}' or the end of the text, a
// lenient form of ECMAScript's automatic semicolon insertion. Parsing
// continues after an error. When errors are returned the block is
// incomplete: statements that could not be built are left out, and
// erroneous expressions are replaced by the identifier _.
func ParseStmts(src Snippet) (*Block, source.ErrorList) {
	p := newParser(src)
	var list []Stmt
	for p.tok != EOF {
		list = append(list, p.parseStmtList()...)
		if p.tok == RBRACE {
			p.error("unexpected token '}'")
			p.next()
		}
	}
	b := &Block{Stmts: list}
	if !p.withinLimits(b) {
		b.Stmts = nil
	}
	p.errs.Sort()
	return b, p.errs
}

// A parser is a recursive-descent parser with one token of lookahead.
type parser struct {
	src     Snippet
	sc      scanner
	errs    source.ErrorList
	lastErr int // offset of the last error, to drop errors cascading from it
	lexeme      // the current lexeme
	depth   int
	stmts   int              // statements parsed (MaxStmts)
	stopped bool             // too many errors or too deep: the rest reads as EOF
	bare    map[*Decl]string // var x; without a value, to its keyword (parseStmtList)
}

func newParser(src Snippet) *parser {
	p := &parser{src: src, lastErr: -1}
	p.sc = scanner{text: src.Text, errh: p.errorAt, refh: p.refuseAt}
	p.next()
	return p
}

func (p *parser) next() {
	t := p.sc.scan()
	if !p.stopped {
		p.lexeme = t
	}
}

// peek returns the token after the current one without consuming it; an
// error scanning it is reported when the parser reaches it.
func (p *parser) peek() Token {
	sc := p.sc
	sc.errh = func(int, string) {}
	return sc.scan().tok
}

// peekLit returns the literal of the token after the current one.
func (p *parser) peekLit() string {
	sc := p.sc
	sc.errh = func(int, string) {}
	return sc.scan().lit
}

// stop ends parsing: from now on the current token is EOF and errors are
// dropped.
func (p *parser) stop() {
	p.stopped = true
	p.lexeme = lexeme{off: len(p.src.Text), tok: EOF}
}

func (p *parser) pos(off int) source.Pos { return p.src.Pos(off) }

func (p *parser) errorAt(off int, msg string) { p.report(off, msg, false) }

// refuseAt reports a construct outside the language (source.Error.Refused).
func (p *parser) refuseAt(off int, msg string) { p.report(off, msg, true) }

func (p *parser) report(off int, msg string, refused bool) {
	if p.stopped || off == p.lastErr {
		return
	}
	p.lastErr = off
	p.errs = append(p.errs, &source.Error{Pos: p.src.position(off), Msg: msg, Refused: refused})
	if len(p.errs) >= maxErrors {
		p.stop()
	}
}

func (p *parser) error(format string, args ...any) {
	p.errorAt(p.off, fmt.Sprintf(format, args...))
}

func (p *parser) refuse(format string, args ...any) {
	p.refuseAt(p.off, fmt.Sprintf(format, args...))
}

func (p *parser) errorExpected(what string) {
	p.error("expected %s, found %s", what, p.found())
}

// found describes the current token for an error message.
func (p *parser) found() string {
	switch p.tok {
	case EOF:
		return "end of input"
	case STRING:
		return "string literal"
	case IDENT, INT, DECIMAL, ILLEGAL:
		return "'" + p.lit + "'"
	}
	return "'" + p.tok.String() + "'"
}

// expect consumes the current token if it is tok and reports an error
// otherwise. It returns the offset of the current token.
func (p *parser) expect(tok Token) int {
	off := p.off
	if p.tok != tok {
		p.errorExpected("'" + tok.String() + "'")
	} else {
		p.next()
	}
	return off
}

// enter counts one level of nesting and reports whether it is allowed;
// each call must be paired with leave.
func (p *parser) enter(what string) bool {
	p.depth++
	if p.depth > MaxNesting {
		p.error("%s nested more than %d deep", what, MaxNesting)
		p.stop()
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// withinLimits reports whether the tree n the parser built keeps to
// MaxNesting and MaxNodes, and reports where it does not: the
// parser counts the nesting it recurses on (enter), but builds a chain of
// operators or of member accesses in a loop, as deep as it is long. After
// the parser stopped, the tree is replaced all the same, silently.
func (p *parser) withinLimits(n Node) bool {
	e := overLimit(n, MaxNodes)
	if e == nil {
		return true
	}
	if !p.stopped && len(p.errs) < maxErrors {
		p.errs = append(p.errs, &source.Error{Pos: p.src.positionOf(e.at.Pos()), Msg: e.String()})
	}
	return false
}

// isName reports whether the current token can be a name after a '.', an
// event name segment or an argument name: an identifier or a keyword.
func (p *parser) isName() bool {
	return p.tok == IDENT || keywordBeg < p.tok && p.tok < keywordEnd
}

// bad is the placeholder for an erroneous expression.
func (p *parser) bad(off int) Expr { return &Ident{NamePos: p.pos(off), Name: "_"} }

// skipGroup skips tokens up to and including the bracket that closes
// depth open parentheses or brackets; the current token may open one more.
// It stops early at what cannot occur inside such a group: a brace, the
// end of the input, and a ';' unless semis is set (in a for header).
func (p *parser) skipGroup(depth int, semis bool) {
	for {
		switch p.tok {
		case EOF, LBRACE, RBRACE:
			return
		case SEMICOLON:
			if !semis {
				return
			}
		case LPAREN, LBRACK:
			depth++
		case RPAREN, RBRACK:
			depth--
		}
		p.next()
		if depth <= 0 {
			return
		}
	}
}

// closeParen consumes the ')' that closes a group, skipping to it after an
// error.
func (p *parser) closeParen() {
	if p.tok == RPAREN {
		p.next()
		return
	}
	p.errorExpected("')'")
	p.skipGroup(1, false)
}

// Expressions.

// parseValue parses an expression and rejects an assignment or increment
// written inside it, skipping over it.
func (p *parser) parseValue() Expr {
	x := p.parseExpr()
	for {
		switch {
		case isAssignOp(p.tok):
			p.error("assignment inside an expression: compare with ==, or assign in a statement of its own")
			p.next()
			p.parseExpr()
		case (p.tok == INC || p.tok == DEC) && !p.nl:
			p.error("%s inside an expression: write it as a statement of its own", p.tok)
			p.next()
		default:
			return x
		}
	}
}

func (p *parser) parseExpr() Expr {
	defer p.leave()
	if !p.enter("expression") {
		return p.bad(p.off)
	}
	x := p.parseBinary(1)
	if p.tok != QUESTION {
		return x
	}
	q := p.off
	p.next()
	then := p.parseExpr()
	p.expect(COLON)
	els := p.parseExpr()
	return &Cond{Cond: x, Question: p.pos(q), Then: then, Else: els}
}

// parseBinary parses a chain of binary operations whose operators have at
// least precedence prec1, left-associatively.
func (p *parser) parseBinary(prec1 int) Expr {
	x := p.parseUnary()
	for {
		op := p.tok
		if op == IDENT && p.lit == "in" {
			op = IN // ECMAScript reserves in: it is no name
		}
		prec := op.Precedence()
		if prec < prec1 {
			return x
		}
		off := p.off
		p.next()
		y := p.parseBinary(prec + 1)
		x = &Binary{X: x, OpPos: p.pos(off), Op: op, Y: y}
	}
}

func (p *parser) parseUnary() Expr {
	switch p.tok {
	case NOT, SUB, ADD, TILD:
		defer p.leave()
		if !p.enter("expression") {
			return p.bad(p.off)
		}
		op, off := p.tok, p.off
		p.next()
		x := p.parseUnary()
		if op == ADD {
			return x
		}
		return &Unary{OpPos: p.pos(off), Op: op, X: x}
	case INC, DEC:
		off := p.off
		p.error("%s inside an expression: write it as a statement of its own", p.tok)
		for p.tok == INC || p.tok == DEC {
			p.next()
		}
		p.parseUnary()
		return p.bad(off)
	case IDENT:
		if p.lit == "typeof" && startsExpr(p.peek()) {
			defer p.leave()
			if !p.enter("expression") {
				return p.bad(p.off)
			}
			off := p.off
			p.next()
			return &TypeOf{OpPos: p.pos(off), X: p.parseUnary()}
		}
	}
	off := p.off
	return p.parsePostfix(off, p.parsePrimary())
}

func (p *parser) parsePrimary() Expr {
	off := p.off
	switch p.tok {
	case INT:
		v, err := strconv.ParseInt(p.lit, 10, 64)
		if err != nil {
			p.error("integer literal %s out of range: the largest is %d", p.lit, int64(math.MaxInt64))
		}
		p.next()
		return &IntLit{ValuePos: p.pos(off), Value: v}
	case DECIMAL:
		v, exact, err := parseDecimal(p.lit)
		if err != nil {
			p.error("%v", err)
			v, exact = new(big.Rat), true
		}
		lit := p.lit
		p.next()
		return &DecLit{ValuePos: p.pos(off), Value: v, Text: lit, Rounded: !exact}
	case TRUE, FALSE:
		v := p.tok == TRUE
		p.next()
		return &BoolLit{ValuePos: p.pos(off), Value: v}
	case STRING:
		v := p.lit
		p.next()
		return &StrLit{ValuePos: p.pos(off), Value: v}
	case IDENT:
		return p.parseOperand()
	case LPAREN:
		p.next()
		x := p.parseValue()
		p.closeParen()
		return x
	}
	switch p.tok {
	case LBRACK:
		return p.parseArrayLit()
	case LBRACE:
		return p.parseObjectLit()
	}
	p.errorExpected("expression")
	return p.bad(off)
}

// parseArrayLit parses [e, ...]; a trailing comma is allowed.
func (p *parser) parseArrayLit() Expr {
	defer p.leave()
	if !p.enter("expression") {
		return p.bad(p.off)
	}
	x := &ArrayLit{Lbrack: p.pos(p.off)}
	p.next()
	for p.tok != RBRACK && p.tok != EOF {
		if p.tok == COMMA {
			p.error("hole in array literal: write undefined for a missing element")
			p.skipGroup(1, false)
			return x
		}
		x.Elems = append(x.Elems, p.parseValue())
		if p.tok != COMMA {
			break
		}
		p.next()
	}
	if p.tok != RBRACK {
		p.errorExpected("',' or ']'")
		p.skipGroup(1, false)
		return x
	}
	p.next()
	return x
}

// parseObjectLit parses {name: e, ...}; a name is an identifier, a keyword
// or a string literal (any key: {"take.1": e}); a trailing comma is allowed.
func (p *parser) parseObjectLit() Expr {
	defer p.leave()
	if !p.enter("expression") {
		return p.bad(p.off)
	}
	x := &ObjectLit{Lbrace: p.pos(p.off)}
	p.next()
	seen := make(map[string]bool)
	for p.tok != RBRACE && p.tok != EOF {
		if !p.isName() && p.tok != STRING {
			p.errorExpected("field name")
			p.skipBraces(1)
			return x
		}
		f := &FieldInit{NamePos: p.pos(p.off), Name: p.lit}
		if seen[f.Name] {
			p.error("duplicate field %s in object literal: give each field once", f.Name)
		}
		seen[f.Name] = true
		p.next()
		if p.tok != COLON {
			p.errorExpected("':'")
			p.skipBraces(1)
			return x
		}
		p.next()
		f.Value = p.parseValue()
		x.Fields = append(x.Fields, f)
		if p.tok != COMMA {
			break
		}
		p.next()
	}
	if p.tok != RBRACE {
		p.errorExpected("',' or '}'")
		p.skipBraces(1)
		return x
	}
	p.next()
	return x
}

// parseOperand parses what starts with an identifier: a variable,
// undefined or null, a system variable, _event.data.NAME, an _event field
// or In('state'), and reports calls and index expressions outside those.
func (p *parser) parseOperand() Expr {
	off, name := p.off, p.lit
	p.next()
	if name == "new" && p.tok == IDENT && (p.lit == "Array" || p.lit == "Object") {
		return p.parseNew(off)
	}
	if name == "new" && p.tok == IDENT && p.lit == "Date" {
		p.next()
		if p.tok == LPAREN {
			return p.parseCall(off, "new Date") // a host call, see hostValues
		}
		return &Call{FunPos: p.pos(off), Fun: "new Date"}
	}
	if hint, ok := unsupportedPrefixes[name]; ok && !p.nl && startsOperand(p.tok) {
		// Reported at the operand, where "name operand" stops parsing.
		p.refuse("unsupported operator %s: %s", name, hint)
		p.parseUnary()
		return p.bad(off)
	}
	switch name {
	case "undefined", "null":
		return &Absent{ValuePos: p.pos(off), Null: name == "null"}
	case "_sessionid", "_name":
		return &SysVar{NamePos: p.pos(off), Name: name}
	case "_event":
		return p.parseEvent(off)
	case "_ioprocessors":
		return p.parseProcessors(off)
	}
	if systemVariables[name] {
		p.refuseAt(off, systemVariableMsg(name))
		p.dotted(name)
		if p.tok == LPAREN || p.tok == LBRACK {
			p.skipGroup(0, false)
		}
		return p.bad(off)
	}
	switch p.tok {
	case LPAREN:
		if name == "In" {
			return p.parseIn(off)
		}
		if name == "Number" {
			p.next()
			x := p.parseValue()
			mark := len(p.errs)
			p.closeParen()
			if len(p.errs) > mark {
				return p.bad(off)
			}
			return &ToDecimal{Start: p.pos(off), X: x}
		}
		if name == "function" {
			p.refuseAt(off, callMsg(name))
			p.skipGroup(0, false)
			if p.tok == LBRACE {
				p.skipBraces(0)
			}
			return p.bad(off)
		}
		return p.parseCall(off, name)
	}
	return &Ident{NamePos: p.pos(off), Name: name}
}

// parseCallArgs parses a call's arguments from its '(' up to, not including,
// its ')'.
func (p *parser) parseCallArgs() []Expr {
	p.next()
	var args []Expr
	for p.tok != RPAREN && p.tok != EOF {
		args = append(args, p.parseValue())
		if p.tok != COMMA {
			break
		}
		p.next()
	}
	return args
}

// parseCall parses the arguments of a call of fun from the '('; off is
// the offset of the function's name. Which functions exist is the
// checker's and the inliner's business.
func (p *parser) parseCall(off int, fun string) Expr {
	args := p.parseCallArgs()
	mark := len(p.errs)
	p.closeParen()
	if len(p.errs) > mark {
		return p.bad(off)
	}
	return &Call{FunPos: p.pos(off), Fun: fun, Args: args}
}

// dotted extends name with the .NAME segments that follow, for messages.
func (p *parser) dotted(name string) string {
	for p.tok == PERIOD {
		p.next()
		if !p.isName() {
			break
		}
		name += "." + p.lit
		p.next()
	}
	return name
}

// parseEvent parses what follows _event: .data.NAME or .FIELD; off is the
// offset of _event.
func (p *parser) parseEvent(off int) Expr {
	switch p.tok {
	case LBRACK:
		p.errorAt(off, indexMsg("_event"))
		p.skipGroup(0, false)
		return p.bad(off)
	case PERIOD:
	default:
		return &EventField{Start: p.pos(off)}
	}
	p.next()
	if !p.isName() {
		p.errorExpected("name after '.'")
		return p.bad(off)
	}
	field := p.lit
	p.next()
	switch {
	case field == "data" && p.tok != PERIOD && p.tok != LBRACK:
		return &EventParam{Start: p.pos(off), Name: DataParam}
	case field == "data" && p.tok == PERIOD:
		p.next()
		if !p.isName() {
			p.errorExpected("name after '.'")
			return p.bad(off)
		}
		param := p.lit
		p.next()
		return &EventParam{Start: p.pos(off), Name: param}
	case EventFields[field]:
		return &EventField{Start: p.pos(off), Field: field}
	case field == "data" && p.tok == LBRACK:
		// _event.data['name'] is _event.data.name.
		p.next()
		if p.tok != STRING || p.peek() != RBRACK {
			p.errorAt(off, indexMsg("_event.data"))
			p.skipGroup(1, false)
			return p.bad(off)
		}
		param := p.lit
		p.next()
		p.next()
		return &EventParam{Start: p.pos(off), Name: param}
	case p.tok == LBRACK:
		p.errorAt(off, indexMsg("_event."+field))
		p.skipGroup(0, false)
		return p.bad(off)
	}
	p.errorAt(off, memberMsg("_event."+field))
	return p.bad(off)
}

// parseProcessors parses what follows _ioprocessors: nothing (the object
// as a whole), or the location of the SCXML event processor,
// _ioprocessors['KEY'].location or _ioprocessors.scxml.location, where KEY
// is its type or its short name; off is the offset of _ioprocessors.
func (p *parser) parseProcessors(off int) Expr {
	key := ""
	switch p.tok {
	case LBRACK:
		p.next()
		if p.tok != STRING {
			p.refuseAt(off, systemVariableMsg("_ioprocessors"))
			p.skipGroup(1, false)
			return p.bad(off)
		}
		key = p.lit
		p.next()
		p.expect(RBRACK)
	case PERIOD:
		p.next()
		if !p.isName() {
			p.errorExpected("name after '.'")
			return p.bad(off)
		}
		key = p.lit
		p.next()
	default:
		return &SysVar{NamePos: p.pos(off), Name: "_ioprocessors"} // the whole object
	}
	if !IsSCXMLProcessor(key) {
		p.errorAt(off, "_ioprocessors["+quote(key, '\'')+"]: setbot has only the SCXML event processor; read _ioprocessors['scxml'].location")
		p.dotted("")
		return p.bad(off)
	}
	if p.tok != PERIOD {
		p.refuseAt(off, systemVariableMsg("_ioprocessors"))
		return p.bad(off)
	}
	p.next()
	if !p.isName() || p.lit != "location" {
		p.refuseAt(off, systemVariableMsg("_ioprocessors"))
		if p.isName() {
			p.next()
			p.dotted("")
		}
		return p.bad(off)
	}
	p.next()
	return &SysVar{NamePos: p.pos(off), Name: "_ioprocessors", Processor: key}
}

// SCXMLProcessor is the type of the SCXML event I/O processor, the only one
// setbot has.
const SCXMLProcessor = "http://www.w3.org/TR/scxml/#SCXMLEventProcessor"

// IsSCXMLProcessor reports whether key names the SCXML event I/O processor
// in _ioprocessors and in a <send>'s type: its type or its short name.
func IsSCXMLProcessor(key string) bool { return key == SCXMLProcessor || key == "scxml" }

// parsePostfix parses the member accesses, index expressions and string
// methods applied to x, which starts at off: x.f, x[i], x.length,
// x.indexOf(y), ...; any other call is reported at off.
func (p *parser) parsePostfix(off int, x Expr) Expr {
	for p.tok == PERIOD || p.tok == LBRACK {
		if p.tok == LBRACK {
			lb := p.off
			p.next()
			i := p.parseValue()
			if p.tok != RBRACK {
				p.errorExpected("']'")
				p.skipGroup(1, false)
				return p.bad(lb)
			}
			p.next()
			x = &Index{X: x, Lbrack: p.pos(lb), Index: i}
			continue
		}
		dot := p.off
		p.next()
		if !p.isName() {
			p.errorExpected("name after '.'")
			return p.bad(dot)
		}
		name := p.lit
		p.next()
		switch {
		case name == "length" && p.tok != LPAREN:
			x = &Method{X: x, DotPos: p.pos(dot), Name: name}
		case (StringMethods[name] > 0 || name == "concat") && p.tok == LPAREN:
			args := p.parseCallArgs()
			p.closeParen()
			x = &Method{X: x, DotPos: p.pos(dot), Name: name, Call: true, Args: args}
		case p.tok == LPAREN:
			if id, ok := x.(*Ident); ok && (id.Name == "Math" || hostObjects[id.Name]) {
				x = p.parseCall(off, id.Name+"."+name)
				continue
			}
			if obj, ok := hostPath(x); ok && hostFunction(obj+"."+name) {
				x = p.parseCall(off, obj+"."+name) // a host object's, see hostValues
				continue
			}
			p.refuseAt(off, callMsg(ExprString(x)+"."+name))
			p.skipGroup(0, false)
			return p.bad(dot)
		default:
			x = &Member{X: x, DotPos: p.pos(dot), Name: name}
		}
	}
	return x
}

// parseIn parses In('state') from the '('; off is the offset of In.
func (p *parser) parseIn(off int) Expr {
	p.next()
	if p.tok != STRING {
		p.errorExpected("string literal in In()")
		p.skipGroup(1, false)
		return p.bad(off)
	}
	state := p.lit
	p.next()
	mark := len(p.errs)
	p.closeParen()
	if len(p.errs) > mark {
		return p.bad(off)
	}
	return &InState{Start: p.pos(off), State: state}
}

func isAssignOp(t Token) bool { return ASSIGN <= t && t <= REM_ASSIGN }

// startsOperand reports whether t starts an operand that cannot follow
// another one.
func startsOperand(t Token) bool {
	switch t {
	case IDENT, INT, DECIMAL, STRING, TRUE, FALSE:
		return true
	}
	return false
}

func startsExpr(t Token) bool {
	switch t {
	case IDENT, INT, DECIMAL, STRING, TRUE, FALSE, LPAREN, NOT, SUB, ADD:
		return true
	}
	return false
}
