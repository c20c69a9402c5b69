// Package parser reads the action language's text into trees (package
// lang/ast), as go/scanner and go/parser do Go's: the scanner, the parser
// of expressions, statements and setbot:type annotations, the snippets that
// keep every node's position in the model file, the reading of decimal
// literals as ECMAScript reads them, and the host calls a model's code
// makes (console.log, SCXML.raise and SCXML.send, calls of functions the
// model does not define) as the statements they stand for. What it refuses
// it refuses with a positioned message that says what to write instead
// (hints.go).
package parser

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"
)

// MaxErrors stops parsing after this many errors.
const MaxErrors = 50

// ParseExpr parses src as exactly one expression.
//
// The result is never nil. When errors are returned it is incomplete:
// erroneous sub-expressions are replaced by the identifier _.
func ParseExpr(src Snippet) (ast.Expr, source.ErrorList) {
	p := newParser(src)
	x := p.parseValue()
	if p.tok != ast.EOF {
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
func ParseFuncExpr(src Snippet, name *ast.Ident) (*ast.FuncDecl, source.ErrorList) {
	p := newParser(src)
	var f *ast.FuncDecl
	if !p.isFuncExpr() {
		p.errorExpected("function expression")
	} else if s, ok := p.parseFuncExpr(name).(*ast.FuncDecl); ok {
		f = s
	}
	if p.tok != ast.EOF && len(p.errs) == 0 {
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
func ParseLocation(src Snippet) (*ast.Ident, []*ast.Sel, source.ErrorList) {
	p := newParser(src)
	mark := len(p.errs)
	x := p.parseValue()
	if p.tok != ast.EOF {
		p.errorExpected("end of location")
	}
	var target *ast.Ident
	var path []*ast.Sel
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
func ParseStmts(src Snippet) (*ast.Block, source.ErrorList) {
	p := newParser(src)
	var list []ast.Stmt
	for p.tok != ast.EOF {
		list = append(list, p.parseStmtList()...)
		if p.tok == ast.RBRACE {
			p.error("unexpected token '}'")
			p.next()
		}
	}
	b := &ast.Block{Stmts: list}
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
	stmts   int                  // statements parsed (MaxStmts)
	stopped bool                 // too many errors or too deep: the rest reads as EOF
	bare    map[*ast.Decl]string // var x; without a value, to its keyword (parseStmtList)

	// callbacks are the function expressions given to forEach, by the
	// call, until the statement the call is becomes a loop (forEachStmt).
	callbacks map[*ast.Method]callback
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
func (p *parser) peek() ast.Token {
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
	p.lexeme = lexeme{off: len(p.src.Text), tok: ast.EOF}
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
	if len(p.errs) >= MaxErrors {
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
	case ast.EOF:
		return "end of input"
	case ast.STRING:
		return "string literal"
	case ast.IDENT, ast.INT, ast.DECIMAL, ast.ILLEGAL:
		return "'" + p.lit + "'"
	}
	return "'" + p.tok.String() + "'"
}

// expect consumes the current token if it is tok and reports an error
// otherwise. It returns the offset of the current token.
func (p *parser) expect(tok ast.Token) int {
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
	if p.depth > ast.MaxNesting {
		p.error("%s nested more than %d deep", what, ast.MaxNesting)
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
func (p *parser) withinLimits(n ast.Node) bool {
	e := ast.OverLimit(n, ast.MaxNodes)
	if e == nil {
		return true
	}
	if !p.stopped && len(p.errs) < MaxErrors {
		p.errs = append(p.errs, &source.Error{Pos: p.src.positionOf(e.At.Pos()), Msg: e.String()})
	}
	return false
}

// isName reports whether the current token can be a name after a '.', an
// event name segment or an argument name: an identifier or a keyword.
func (p *parser) isName() bool {
	return p.tok == ast.IDENT || ast.KeywordBeg < p.tok && p.tok < ast.KeywordEnd
}

// bad is the placeholder for an erroneous expression.
func (p *parser) bad(off int) ast.Expr { return &ast.Ident{NamePos: p.pos(off), Name: "_"} }

// skipGroup skips tokens up to and including the bracket that closes
// depth open parentheses or brackets; the current token may open one more.
// It stops early at what cannot occur inside such a group: a brace, the
// end of the input, and a ';' unless semis is set (in a for header).
func (p *parser) skipGroup(depth int, semis bool) {
	for {
		switch p.tok {
		case ast.EOF, ast.LBRACE, ast.RBRACE:
			return
		case ast.SEMICOLON:
			if !semis {
				return
			}
		case ast.LPAREN, ast.LBRACK:
			depth++
		case ast.RPAREN, ast.RBRACK:
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
	if p.tok == ast.RPAREN {
		p.next()
		return
	}
	p.errorExpected("')'")
	p.skipGroup(1, false)
}

// Expressions.

// parseValue parses an expression and rejects an assignment or increment
// written inside it, skipping over it.
func (p *parser) parseValue() ast.Expr {
	x := p.parseExpr()
	for {
		switch {
		case isAssignOp(p.tok):
			p.error("assignment inside an expression: compare with ==, or assign in a statement of its own")
			p.next()
			p.parseExpr()
		case (p.tok == ast.INC || p.tok == ast.DEC) && !p.nl:
			p.error("%s inside an expression: write it as a statement of its own", p.tok)
			p.next()
		default:
			return x
		}
	}
}

func (p *parser) parseExpr() ast.Expr {
	defer p.leave()
	if !p.enter("expression") {
		return p.bad(p.off)
	}
	x := p.parseBinary(1)
	if p.tok != ast.QUESTION {
		return x
	}
	q := p.off
	p.next()
	then := p.parseExpr()
	p.expect(ast.COLON)
	els := p.parseExpr()
	return &ast.Cond{Cond: x, Question: p.pos(q), Then: then, Else: els}
}

// parseBinary parses a chain of binary operations whose operators have at
// least precedence prec1, left-associatively.
func (p *parser) parseBinary(prec1 int) ast.Expr {
	x := p.parseUnary()
	for {
		op := p.tok
		if op == ast.IDENT && p.lit == "in" {
			op = ast.IN // ECMAScript reserves in: it is no name
		}
		prec := op.Precedence()
		if prec < prec1 {
			return x
		}
		off := p.off
		p.next()
		y := p.parseBinary(prec + 1)
		x = &ast.Binary{X: x, OpPos: p.pos(off), Op: op, Y: y}
	}
}

func (p *parser) parseUnary() ast.Expr {
	switch p.tok {
	case ast.NOT, ast.SUB, ast.ADD, ast.TILD:
		defer p.leave()
		if !p.enter("expression") {
			return p.bad(p.off)
		}
		op, off := p.tok, p.off
		p.next()
		x := p.parseUnary()
		if op == ast.ADD {
			return x
		}
		return &ast.Unary{OpPos: p.pos(off), Op: op, X: x}
	case ast.INC, ast.DEC:
		off := p.off
		p.error("%s inside an expression: write it as a statement of its own", p.tok)
		for p.tok == ast.INC || p.tok == ast.DEC {
			p.next()
		}
		p.parseUnary()
		return p.bad(off)
	case ast.IDENT:
		if p.lit == "typeof" && startsExpr(p.peek()) {
			defer p.leave()
			if !p.enter("expression") {
				return p.bad(p.off)
			}
			off := p.off
			p.next()
			return &ast.TypeOf{OpPos: p.pos(off), X: p.parseUnary()}
		}
	}
	off := p.off
	return p.parsePostfix(off, p.parsePrimary())
}

func (p *parser) parsePrimary() ast.Expr {
	off := p.off
	switch p.tok {
	case ast.INT:
		v, err := strconv.ParseInt(p.lit, 10, 64)
		if err != nil {
			p.error("integer literal %s out of range: the largest is %d", p.lit, int64(math.MaxInt64))
		}
		p.next()
		return &ast.IntLit{ValuePos: p.pos(off), Value: v}
	case ast.DECIMAL:
		v, exact, err := parseDecimal(p.lit)
		if err != nil {
			p.error("%v", err)
			v, exact = new(big.Rat), true
		}
		lit := p.lit
		p.next()
		return &ast.DecLit{ValuePos: p.pos(off), Value: v, Text: lit, Rounded: !exact}
	case ast.TRUE, ast.FALSE:
		v := p.tok == ast.TRUE
		p.next()
		return &ast.BoolLit{ValuePos: p.pos(off), Value: v}
	case ast.STRING:
		v := p.lit
		p.next()
		return &ast.StrLit{ValuePos: p.pos(off), Value: v}
	case ast.IDENT:
		return p.parseOperand()
	case ast.LPAREN:
		p.next()
		x := p.parseValue()
		p.closeParen()
		return x
	}
	switch p.tok {
	case ast.LBRACK:
		return p.parseArrayLit()
	case ast.LBRACE:
		return p.parseObjectLit()
	}
	p.errorExpected("expression")
	return p.bad(off)
}

// parseArrayLit parses [e, ...]; a trailing comma is allowed.
func (p *parser) parseArrayLit() ast.Expr {
	defer p.leave()
	if !p.enter("expression") {
		return p.bad(p.off)
	}
	x := &ast.ArrayLit{Lbrack: p.pos(p.off)}
	p.next()
	for p.tok != ast.RBRACK && p.tok != ast.EOF {
		if p.tok == ast.COMMA {
			p.error("hole in array literal: write undefined for a missing element")
			p.skipGroup(1, false)
			return x
		}
		x.Elems = append(x.Elems, p.parseValue())
		if p.tok != ast.COMMA {
			break
		}
		p.next()
	}
	if p.tok != ast.RBRACK {
		p.errorExpected("',' or ']'")
		p.skipGroup(1, false)
		return x
	}
	p.next()
	return x
}

// parseObjectLit parses {name: e, ...}; a name is an identifier, a keyword
// or a string literal (any key: {"take.1": e}); a trailing comma is allowed.
func (p *parser) parseObjectLit() ast.Expr {
	defer p.leave()
	if !p.enter("expression") {
		return p.bad(p.off)
	}
	x := &ast.ObjectLit{Lbrace: p.pos(p.off)}
	p.next()
	seen := make(map[string]bool)
	for p.tok != ast.RBRACE && p.tok != ast.EOF {
		if !p.isName() && p.tok != ast.STRING {
			p.errorExpected("field name")
			p.skipBraces(1)
			return x
		}
		f := &ast.FieldInit{NamePos: p.pos(p.off), Name: p.lit}
		if seen[f.Name] {
			p.error("duplicate field %s in object literal: give each field once", f.Name)
		}
		seen[f.Name] = true
		p.next()
		if p.tok != ast.COLON {
			p.errorExpected("':'")
			p.skipBraces(1)
			return x
		}
		p.next()
		f.Value = p.parseValue()
		x.Fields = append(x.Fields, f)
		if p.tok != ast.COMMA {
			break
		}
		p.next()
	}
	if p.tok != ast.RBRACE {
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
func (p *parser) parseOperand() ast.Expr {
	off, name := p.off, p.lit
	p.next()
	if name == "new" && p.tok == ast.IDENT && (p.lit == "Array" || p.lit == "Object") {
		return p.parseNew(off)
	}
	if name == "new" && p.tok == ast.IDENT && p.lit == "Date" {
		p.next()
		if p.tok == ast.LPAREN {
			return p.parseCall(off, "new Date") // a host call, see hostValues
		}
		return &ast.Call{FunPos: p.pos(off), Fun: "new Date"}
	}
	if hint, ok := unsupportedPrefixes[name]; ok && !p.nl && startsOperand(p.tok) {
		// Reported at the operand, where "name operand" stops parsing.
		p.refuse("unsupported operator %s: %s", name, hint)
		p.parseUnary()
		return p.bad(off)
	}
	switch name {
	case "undefined", "null":
		return &ast.Absent{ValuePos: p.pos(off), Null: name == "null"}
	case "_sessionid", "_name":
		return &ast.SysVar{NamePos: p.pos(off), Name: name}
	case "_event":
		return p.parseEvent(off)
	case "_ioprocessors":
		return p.parseProcessors(off)
	}
	if systemVariables[name] {
		p.refuseAt(off, systemVariableMsg(name))
		p.dotted(name)
		if p.tok == ast.LPAREN || p.tok == ast.LBRACK {
			p.skipGroup(0, false)
		}
		return p.bad(off)
	}
	switch p.tok {
	case ast.LPAREN:
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
			return &ast.ToDecimal{Start: p.pos(off), X: x}
		}
		if name == "function" {
			p.refuseAt(off, CallMsg(name))
			p.skipGroup(0, false)
			if p.tok == ast.LBRACE {
				p.skipBraces(0)
			}
			return p.bad(off)
		}
		return p.parseCall(off, name)
	}
	return &ast.Ident{NamePos: p.pos(off), Name: name}
}

// parseCallArgs parses a call's arguments from its '(' up to, not including,
// its ')'.
func (p *parser) parseCallArgs() []ast.Expr {
	p.next()
	var args []ast.Expr
	for p.tok != ast.RPAREN && p.tok != ast.EOF {
		args = append(args, p.parseValue())
		if p.tok != ast.COMMA {
			break
		}
		p.next()
	}
	return args
}

// parseCall parses the arguments of a call of fun from the '('; off is
// the offset of the function's name. Which functions exist is the
// checker's and the inliner's business.
func (p *parser) parseCall(off int, fun string) ast.Expr {
	args := p.parseCallArgs()
	mark := len(p.errs)
	p.closeParen()
	if len(p.errs) > mark {
		return p.bad(off)
	}
	return &ast.Call{FunPos: p.pos(off), Fun: fun, Args: args}
}

// dotted extends name with the .NAME segments that follow, for messages.
func (p *parser) dotted(name string) string {
	for p.tok == ast.PERIOD {
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
func (p *parser) parseEvent(off int) ast.Expr {
	switch p.tok {
	case ast.LBRACK:
		p.errorAt(off, indexMsg("_event"))
		p.skipGroup(0, false)
		return p.bad(off)
	case ast.PERIOD:
	default:
		return &ast.EventField{Start: p.pos(off)}
	}
	p.next()
	if !p.isName() {
		p.errorExpected("name after '.'")
		return p.bad(off)
	}
	field := p.lit
	p.next()
	switch {
	case field == "data" && p.tok != ast.PERIOD && p.tok != ast.LBRACK:
		return &ast.EventParam{Start: p.pos(off), Name: ast.DataParam}
	case field == "data" && p.tok == ast.PERIOD:
		p.next()
		if !p.isName() {
			p.errorExpected("name after '.'")
			return p.bad(off)
		}
		param := p.lit
		p.next()
		return &ast.EventParam{Start: p.pos(off), Name: param}
	case ast.EventFields[field]:
		return &ast.EventField{Start: p.pos(off), Field: field}
	case field == "data" && p.tok == ast.LBRACK:
		// _event.data['name'] is _event.data.name.
		p.next()
		if p.tok != ast.STRING || p.peek() != ast.RBRACK {
			p.errorAt(off, indexMsg("_event.data"))
			p.skipGroup(1, false)
			return p.bad(off)
		}
		param := p.lit
		p.next()
		p.next()
		return &ast.EventParam{Start: p.pos(off), Name: param}
	case p.tok == ast.LBRACK:
		p.errorAt(off, indexMsg("_event."+field))
		p.skipGroup(0, false)
		return p.bad(off)
	}
	p.errorAt(off, MemberMsg("_event."+field))
	return p.bad(off)
}

// parseProcessors parses what follows _ioprocessors: nothing (the object
// as a whole), or the location of the SCXML event processor,
// _ioprocessors['KEY'].location or _ioprocessors.scxml.location, where KEY
// is its type or its short name; off is the offset of _ioprocessors.
func (p *parser) parseProcessors(off int) ast.Expr {
	key := ""
	switch p.tok {
	case ast.LBRACK:
		p.next()
		if p.tok != ast.STRING {
			p.refuseAt(off, systemVariableMsg("_ioprocessors"))
			p.skipGroup(1, false)
			return p.bad(off)
		}
		key = p.lit
		p.next()
		p.expect(ast.RBRACK)
	case ast.PERIOD:
		p.next()
		if !p.isName() {
			p.errorExpected("name after '.'")
			return p.bad(off)
		}
		key = p.lit
		p.next()
	default:
		return &ast.SysVar{NamePos: p.pos(off), Name: "_ioprocessors"} // the whole object
	}
	if !IsSCXMLProcessor(key) {
		p.errorAt(off, "_ioprocessors["+ast.Quote(key, '\'')+"]: setbot has only the SCXML event processor; read _ioprocessors['scxml'].location")
		p.dotted("")
		return p.bad(off)
	}
	if p.tok != ast.PERIOD {
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
	return &ast.SysVar{NamePos: p.pos(off), Name: "_ioprocessors", Processor: key}
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
func (p *parser) parsePostfix(off int, x ast.Expr) ast.Expr {
	for p.tok == ast.PERIOD || p.tok == ast.LBRACK {
		if p.tok == ast.LBRACK {
			lb := p.off
			p.next()
			i := p.parseValue()
			if p.tok != ast.RBRACK {
				p.errorExpected("']'")
				p.skipGroup(1, false)
				return p.bad(lb)
			}
			p.next()
			x = &ast.Index{X: x, Lbrack: p.pos(lb), Index: i}
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
		case name == "length" && p.tok != ast.LPAREN:
			x = &ast.Method{X: x, DotPos: p.pos(dot), Name: name}
		case name == "replace" && p.tok == ast.LPAREN && p.peek() == ast.QUO:
			p.refuseAt(off, "unsupported call "+printer.ExprString(x)+".replace(/.../): a regular expression is not modelled; "+
				"pass the text to find as a string, x.replace('text', 'new'), which replaces its first occurrence")
			p.skipGroup(0, false)
			return p.bad(dot)
		case (ast.StringMethods[name] > 0 || name == "concat" || name == "push") && p.tok == ast.LPAREN:
			args := p.parseCallArgs()
			p.closeParen()
			x = &ast.Method{X: x, DotPos: p.pos(dot), Name: name, Call: true, Args: args}
		case p.tok == ast.LPAREN && name == "forEach" && p.peekLit() == "function":
			x = p.parseForEachCall(x, dot)
			if x == nil {
				return p.bad(dot)
			}
		case p.tok == ast.LPAREN:
			if id, ok := x.(*ast.Ident); ok && (id.Name == "Math" || hostObjects[id.Name]) {
				x = p.parseCall(off, id.Name+"."+name)
				continue
			}
			if obj, ok := hostPath(x); ok && IsHostFunction(obj+"."+name) {
				x = p.parseCall(off, obj+"."+name) // a host object's, see hostValues
				continue
			}
			p.refuseAt(off, CallMsg(printer.ExprString(x)+"."+name))
			p.skipGroup(0, false)
			return p.bad(dot)
		default:
			x = &ast.Member{X: x, DotPos: p.pos(dot), Name: name}
		}
	}
	return x
}

// parseIn parses In('state') from the '('; off is the offset of In.
func (p *parser) parseIn(off int) ast.Expr {
	p.next()
	if p.tok != ast.STRING {
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
	return &ast.InState{Start: p.pos(off), State: state}
}

func isAssignOp(t ast.Token) bool { return ast.ASSIGN <= t && t <= ast.REM_ASSIGN }

// startsOperand reports whether t starts an operand that cannot follow
// another one.
func startsOperand(t ast.Token) bool {
	switch t {
	case ast.IDENT, ast.INT, ast.DECIMAL, ast.STRING, ast.TRUE, ast.FALSE:
		return true
	}
	return false
}

func startsExpr(t ast.Token) bool {
	switch t {
	case ast.IDENT, ast.INT, ast.DECIMAL, ast.STRING, ast.TRUE, ast.FALSE, ast.LPAREN, ast.NOT, ast.SUB, ast.ADD:
		return true
	}
	return false
}
