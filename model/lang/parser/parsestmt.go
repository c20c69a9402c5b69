package parser

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model/source"
	"github.com/setbot/setbot/vocab"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"
)

// Statement parsing; see parser.go for the parser and expressions.

// parseStmtList parses statements up to a '}' or the end of the input.
func (p *parser) parseStmtList() []ast.Stmt {
	var list []ast.Stmt
	var bare *ast.Decl // the last statement, var x; without a value
	for p.tok != ast.RBRACE && p.tok != ast.EOF {
		before := p.off
		s := p.parseStmt()
		if s != nil {
			list = append(list, s)
		}
		if s != nil && bare != nil {
			p.valueLater(bare, s)
			bare = nil
		}
		if d, ok := s.(*ast.Decl); ok && p.bare[d] != "" {
			bare = d
		}
		if p.off == before {
			p.next() // an error at a token that starts no statement
		}
	}
	if bare != nil {
		p.valueLater(bare, nil)
	}
	return list
}

// parseStmt parses one statement; it returns nil for an empty statement
// and for one that could not be built. Past MaxStmts statements (blocks
// aside) it reports the one that exceeds it and stops.
func (p *parser) parseStmt() ast.Stmt {
	start := p.off
	s := p.parseStmt1()
	p.strayCallbacks()
	if _, ok := s.(*ast.Block); s == nil || ok {
		return s
	}
	if p.stmts++; p.stmts > ast.MaxStmts {
		p.errorAt(start, fmt.Sprintf("more than %d statements in one script: split it between transitions or states", ast.MaxStmts))
		p.stop()
	}
	return s
}

func (p *parser) parseStmt1() ast.Stmt {
	defer p.leave()
	if !p.enter("statements") {
		return nil
	}
	mark := len(p.errs)
	var s ast.Stmt
	switch p.tok {
	case ast.SEMICOLON:
		p.next()
		return nil
	case ast.LBRACE:
		return p.parseBlock()
	case ast.IF:
		return p.parseIf()
	case ast.WHILE:
		return p.parseWhile()
	case ast.FOR:
		return p.parseFor()
	case ast.RAISE:
		s = p.parseRaise()
	case ast.SEND:
		s = p.parseSend()
	case ast.ASSUME:
		s = p.parseAssume()
	default:
		if p.tok == ast.IDENT && p.lit == "cancel" && p.peek() == ast.STRING {
			s = p.parseCancel()
		} else if p.tok == ast.IDENT && p.lit == "bound" && p.peek() == ast.IDENT {
			s = p.parseBound()
		} else if p.tok == ast.IDENT && p.lit == "function" && p.peek() == ast.IDENT {
			return p.parseFuncDecl()
		} else if p.tok == ast.IDENT && p.lit == "return" {
			s = p.parseReturn()
		} else if p.tok == ast.IDENT && p.lit == "throw" {
			s = p.parseThrow()
		} else if hint, ok := UnsupportedStatements[p.lit]; p.tok == ast.IDENT && ok {
			p.refuse("unsupported statement %s: %s", p.lit, hint)
			p.skipUnsupported()
		} else {
			s = p.parseSimple()
		}
	}
	p.endStmt(mark)
	return s
}

// skipUnsupported skips a refused statement from its keyword: the rest of
// its line, with the whole of any braces that open on it (a function's
// body, try's blocks), so that they cause no further errors.
func (p *parser) skipUnsupported() {
	p.next()
	for p.tok != ast.EOF && p.tok != ast.SEMICOLON && p.tok != ast.RBRACE && !p.nl {
		if p.tok == ast.LBRACE {
			p.skipBraces(0)
			continue
		}
		p.next()
	}
}

// skipBraces skips tokens up to and including the '}' that closes the
// open braces already passed (0 when at a '{', 1 inside a block).
func (p *parser) skipBraces(open int) {
	depth := open
	for p.tok != ast.EOF {
		switch p.tok {
		case ast.LBRACE:
			depth++
		case ast.RBRACE:
			depth--
		}
		p.next()
		if depth == 0 {
			return
		}
	}
}

// endStmt ends a simple statement: it consumes a ';' or accepts an
// implicit end, and otherwise reports the error (unless the statement had
// one already) and skips to the next statement.
func (p *parser) endStmt(mark int) {
	switch {
	case p.tok == ast.SEMICOLON:
		p.next()
	case p.tok == ast.RBRACE || p.tok == ast.EOF || p.nl:
	default:
		if len(p.errs) == mark {
			p.errorExpected("';'")
		}
		p.sync()
	}
}

// sync skips tokens to the probable start of the next statement: past a
// ';', or up to a '}', a statement keyword or a token on a later line.
func (p *parser) sync() {
	for {
		switch p.tok {
		case ast.EOF, ast.RBRACE:
			return
		case ast.SEMICOLON:
			p.next()
			return
		case ast.IF, ast.WHILE, ast.FOR, ast.RAISE, ast.SEND, ast.ASSUME, ast.VAR, ast.LET, ast.INTKW, ast.BOOLKW:
			return
		}
		p.next()
		if p.nl {
			return
		}
	}
}

func (p *parser) parseBlock() *ast.Block {
	off := p.expect(ast.LBRACE)
	list := p.parseStmtList()
	p.expect(ast.RBRACE)
	return &ast.Block{Lbrace: p.pos(off), Stmts: list}
}

// parseBody parses the body of if, else, while or for; a single statement
// is wrapped in a block.
func (p *parser) parseBody() *ast.Block {
	if p.tok == ast.LBRACE {
		return p.parseBlock()
	}
	b := &ast.Block{Lbrace: p.pos(p.off)}
	if s := p.parseStmt(); s != nil {
		b.Stmts = []ast.Stmt{s}
	}
	return b
}

// parseCond parses a parenthesised condition. Without the '(' it expects
// no ')' either, to report one error only.
func (p *parser) parseCond() ast.Expr {
	if p.tok != ast.LPAREN {
		p.errorExpected("'('")
		return p.parseValue()
	}
	p.next()
	x := p.parseValue()
	p.closeParen()
	return x
}

func (p *parser) parseIf() *ast.If {
	s := &ast.If{IfPos: p.pos(p.off)}
	p.next()
	s.Cond = p.parseCond()
	s.Then = p.parseBody()
	if p.tok != ast.ELSE {
		return s
	}
	p.next()
	if p.tok == ast.IF {
		s.Else = p.parseStmt()
		return s
	}
	s.Else = p.parseBody()
	return s
}

func (p *parser) parseWhile() *ast.While {
	s := &ast.While{WhilePos: p.pos(p.off)}
	p.next()
	s.Cond = p.parseCond()
	s.Body = p.parseBody()
	return s
}

func (p *parser) parseFor() ast.Stmt {
	s := &ast.For{ForPos: p.pos(p.off)}
	p.next()
	p.expect(ast.LPAREN)
	if p.tok == ast.IDENT && (p.peek() == ast.COMMA || p.peekLit() == "of") {
		return p.parseForEach(s.ForPos, false)
	}
	if p.tok == ast.LET {
		// for (let item, index of array): the loop's own locals; for (let
		// i = 0; ...) otherwise, read again from the let.
		sc, lx := p.sc, p.lexeme
		p.next()
		if p.tok == ast.IDENT && (p.peek() == ast.COMMA || p.peekLit() == "of") {
			return p.parseForEach(s.ForPos, true)
		}
		p.sc, p.lexeme = sc, lx
	}
	mark := len(p.errs)
	s.Init, s.Cond, s.Post = p.parseForHeader()
	if len(p.errs) > mark {
		p.skipGroup(1, true)
	} else {
		p.expect(ast.RPAREN)
	}
	s.Body = p.parseBody()
	return s
}

// parseForEach parses the rest of for (item, index of array) body, the
// language's form of SCXML's <foreach>, from the item; local is for a
// for (let item, index of array), whose item and index are the body's.
func (p *parser) parseForEach(pos source.Pos, local bool) ast.Stmt {
	s := &ast.ForEach{ForPos: pos, Item: &ast.Ident{NamePos: p.pos(p.off), Name: p.lit}, Local: local}
	p.next()
	if p.tok == ast.COMMA {
		p.next()
		if p.tok != ast.IDENT {
			p.errorExpected("index variable")
			p.skipGroup(1, true)
			p.parseBody()
			return nil
		}
		s.Index = &ast.Ident{NamePos: p.pos(p.off), Name: p.lit}
		p.next()
	}
	if p.tok != ast.IDENT || p.lit != "of" {
		p.errorExpected("'of'")
		p.skipGroup(1, true)
		p.parseBody()
		return nil
	}
	p.next()
	s.Array = p.parseValue()
	if p.tok == ast.SEMICOLON {
		p.next()
		s.Cond = p.parseValue()
	}
	p.closeParen()
	s.Body = p.parseBody()
	return s
}

// parseForHeader parses "init; cond; post" and stops at the first error.
func (p *parser) parseForHeader() (init ast.Stmt, cond ast.Expr, post ast.Stmt) {
	if p.tok != ast.SEMICOLON {
		init = p.parseSimple()
	}
	if p.tok != ast.SEMICOLON {
		p.errorExpected("';'")
		return
	}
	p.next()
	if p.tok != ast.SEMICOLON {
		cond = p.parseValue()
	}
	if p.tok != ast.SEMICOLON {
		p.errorExpected("';'")
		return
	}
	p.next()
	if p.tok == ast.RPAREN {
		return
	}
	off := p.off
	switch s := p.parseSimple().(type) {
	case *ast.Decl:
		p.errorAt(off, "unexpected declaration in for post statement")
	case nil:
	default:
		post = s
	}
	return
}

// parseSimple parses an assignment, an increment or decrement, or a local
// declaration, without its terminator. It returns nil after an error that
// leaves nothing to build.
func (p *parser) parseSimple() ast.Stmt {
	switch p.tok {
	case ast.VAR, ast.LET, ast.INTKW, ast.BOOLKW:
		return p.parseDecl()
	case ast.INC, ast.DEC:
		op, off := p.tok, p.off
		p.next()
		start, mark := p.off, len(p.errs)
		if t, path := p.target(p.parseUnary(), start, mark); t != nil {
			return &ast.IncDec{Target: t, Path: path, OpPos: p.pos(off), Op: op}
		}
		return nil
	}
	if !startsExpr(p.tok) {
		if p.tok == ast.EOF {
			p.errorExpected("statement")
		} else {
			p.error("unexpected token %s", p.found())
		}
		return nil
	}
	start, mark := p.off, len(p.errs)
	x := p.parseExpr()
	switch {
	case isAssignOp(p.tok):
		// Check the target before the scanner reads on and may report
		// an error in the value.
		t, path := p.target(x, start, mark)
		op, off := p.tok, p.off
		p.next()
		if p.isFuncExpr() && op == ast.ASSIGN && t != nil && path == nil {
			return p.parseFuncExpr(t)
		}
		v := p.parseValue()
		if t != nil {
			return &ast.Assign{Target: t, Path: path, OpPos: p.pos(off), Op: op, Value: v}
		}
	case (p.tok == ast.INC || p.tok == ast.DEC) && !p.nl:
		t, path := p.target(x, start, mark)
		op, off := p.tok, p.off
		p.next()
		if t != nil {
			return &ast.IncDec{Target: t, Path: path, OpPos: p.pos(off), Op: op}
		}
	default:
		if m, ok := x.(*ast.Method); ok && m.Name == "push" && m.Call && len(p.errs) == mark {
			return p.push(m, start, mark)
		}
		if m, ok := x.(*ast.Method); ok && p.callbacks[m].fn != nil && len(p.errs) == mark {
			return p.forEachStmt(m, start)
		}
		if c, ok := x.(*ast.Call); ok && len(p.errs) == mark {
			if hostObjects[hostObject(c.Fun)] {
				return p.hostCall(c)
			}
			return callStmt(c, p.src.Offset(start))
		}
		if len(p.errs) == mark {
			// Valid ECMAScript (an expression statement), outside the language.
			p.refuseAt(start, "expected assignment, found expression "+printer.ExprString(x))
		}
	}
	return nil
}

// push reads the statement a.push(x, ...), parsed from offset start with
// mark errors before it, as a = a.concat([x, ...]): the same elements
// appended, the same length after (concat spreads its array argument one
// level, so an x that is itself an array stays one element), and where a
// is a variable the array the model holds grows as concat's does, up to
// its bound (docs/architecture.md, The action language). push's own
// value, the new length, is not read by a statement.
func (p *parser) push(m *ast.Method, start, mark int) ast.Stmt {
	t, path := p.target(m.X, start, mark)
	if t == nil {
		return nil
	}
	grown := &ast.Method{X: m.X, DotPos: m.DotPos, Name: "concat", Call: true,
		Args: []ast.Expr{&ast.ArrayLit{Lbrack: m.DotPos, Elems: m.Args}}}
	return &ast.Assign{Target: t, Path: path, OpPos: m.DotPos, Op: ast.ASSIGN, Value: grown}
}

// target checks that x, parsed from offset start with mark errors before
// it, can be assigned to: a variable, or a field or element of one (a.f,
// a[i], a[i].f, ...). It returns the variable and the path below it.
func (p *parser) target(x ast.Expr, start, mark int) (*ast.Ident, []*ast.Sel) {
	if len(p.errs) > mark {
		return nil, nil
	}
	var path []*ast.Sel
	loc := x
	for {
		switch y := x.(type) {
		case *ast.Ident:
			slices.Reverse(path)
			return y, path
		case *ast.Member:
			path = append(path, &ast.Sel{Pos: y.DotPos, Name: y.Name})
			x = y.X
			continue
		case *ast.Index:
			path = append(path, &ast.Sel{Pos: y.Lbrack, Index: y.Index})
			x = y.X
			continue
		case *ast.SysVar, *ast.EventField, *ast.EventParam:
			p.errorAt(start, readOnlyMsg(printer.ExprString(loc)))
			return nil, nil
		case *ast.Method:
			if !y.Call {
				p.errorAt(start, fmt.Sprintf("cannot assign to %s: the length of an array changes with its elements; assign a whole array instead", printer.ExprString(loc)))
				return nil, nil
			}
		}
		p.errorAt(start, fmt.Sprintf("cannot assign to %s: only variables, and their fields and elements, can be assigned", printer.ExprString(loc)))
		return nil, nil
	}
}

func (p *parser) parseDecl() ast.Stmt {
	kw, off := p.tok, p.off
	p.next()
	if p.tok != ast.IDENT {
		p.errorExpected("variable name")
		return nil
	}
	d := &ast.Decl{DeclPos: p.pos(off), Name: &ast.Ident{NamePos: p.pos(p.off), Name: p.lit}}
	p.next()
	switch kw {
	case ast.INTKW:
		d.Type = ast.IntType
	case ast.BOOLKW:
		d.Type = ast.BoolType
	}
	if p.tok == ast.ASSIGN {
		p.next()
		if p.isFuncExpr() && kw != ast.INTKW && kw != ast.BOOLKW {
			return p.parseFuncExpr(d.Name)
		}
		d.Value = p.parseValue()
		return d
	}
	if d.Type.Kind == ast.Invalid {
		// Undefined, until the statement after it assigns it (valueLater).
		if p.bare == nil {
			p.bare = make(map[*ast.Decl]string)
		}
		p.bare[d] = kw.String()
	}
	return d
}

// valueLater gives var x; (d, without a value: ECMAScript's x is
// undefined) the constant that next, the statement after it, assigns x
// before anything reads it (x = 0, or for (x = 0; ...)), which is then the
// same as var x = 0; and reports any other such declaration, whose
// undefined value setbot's typed locals have no place for.
func (p *parser) valueLater(d *ast.Decl, next ast.Stmt) {
	kw := p.bare[d]
	delete(p.bare, d)
	a, ok := next.(*ast.Assign)
	if f, isFor := next.(*ast.For); isFor {
		a, ok = f.Init.(*ast.Assign)
	}
	if ok && a.Target.Name == d.Name.Name && len(a.Path) == 0 && a.Op == ast.ASSIGN && isConstant(a.Value) {
		d.Value = a.Value
		return
	}
	p.errs = append(p.errs, &source.Error{Pos: p.src.positionOf(d.DeclPos), Msg: fmt.Sprintf("missing initial value in %s declaration of %s, "+
		"which the statement after it does not assign a constant: write %s %s = 0, or = false", kw, d.Name.Name, kw, d.Name.Name)})
}

// isConstant reports whether e is a literal number, string or boolean.
func isConstant(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.IntLit, *ast.BoolLit, *ast.StrLit, *ast.DecLit:
		return true
	case *ast.Unary:
		return x.Op == ast.SUB && isConstant(x.X)
	}
	return false
}

func (p *parser) parseRaise() ast.Stmt {
	s := &ast.Raise{RaisePos: p.pos(p.off)}
	p.next()
	s.Event = p.parseEventName()
	s.Args = p.parseArgs()
	if p.tok == ast.IDENT && p.lit == "id" && !p.nl {
		p.next()
		s.ID = p.parseString()
	}
	return s
}

func (p *parser) parseSend() ast.Stmt {
	s := &ast.Send{SendPos: p.pos(p.off)}
	p.next()
	s.Event = p.parseEventName()
	s.Args = p.parseArgs()
	if p.tok == ast.TO {
		p.next()
		s.Target = p.parseString()
	}
	if p.tok == ast.AFTER {
		p.next()
		s.Delay = p.parseExpr()
	}
	if p.tok == ast.IDENT && p.lit == "id" && !p.nl {
		p.next()
		s.ID = p.parseString()
	}
	return s
}

// parseCancel parses cancel "id". cancel and id are not keywords, so that
// variables may keep those names: the string after them decides.
func (p *parser) parseCancel() ast.Stmt {
	s := &ast.Cancel{CancelPos: p.pos(p.off)}
	p.next()
	s.SendID = p.parseString()
	return s
}

// parseFuncDecl parses function NAME(PARAMS...) { BODY }.
func (p *parser) parseFuncDecl() ast.Stmt {
	s := &ast.FuncDecl{FuncPos: p.pos(p.off)}
	p.next()
	s.Name = &ast.Ident{NamePos: p.pos(p.off), Name: p.lit}
	p.next()
	return p.parseFuncRest(s)
}

// isFuncExpr reports whether a function expression starts at the current
// token: function (...) or function NAME(...).
func (p *parser) isFuncExpr() bool {
	return p.tok == ast.IDENT && p.lit == "function" && (p.peek() == ast.LPAREN || p.peek() == ast.IDENT)
}

// parseFuncExpr parses a function expression bound to name, function
// [NAME](PARAMS...) { BODY }, as the declaration of a function called name
// (the name a function expression may have for itself is dropped).
func (p *parser) parseFuncExpr(name *ast.Ident) ast.Stmt {
	s := &ast.FuncDecl{FuncPos: p.pos(p.off), Name: name}
	p.next()
	if p.tok == ast.IDENT {
		p.next()
	}
	return p.parseFuncRest(s)
}

// parseFuncRest parses a function's parameters and body, from the '('.
func (p *parser) parseFuncRest(s *ast.FuncDecl) ast.Stmt {
	p.expect(ast.LPAREN)
	for p.tok != ast.RPAREN && p.tok != ast.EOF {
		if p.tok != ast.IDENT {
			p.errorExpected("parameter name")
			p.skipGroup(1, false)
			return nil
		}
		s.Params = append(s.Params, &ast.Ident{NamePos: p.pos(p.off), Name: p.lit})
		p.next()
		if p.tok != ast.COMMA {
			break
		}
		p.next()
	}
	p.expect(ast.RPAREN)
	if p.tok != ast.LBRACE {
		p.errorExpected("'{'")
		return nil
	}
	s.Body = p.parseBlock()
	return s
}

// parseReturn parses return [value]. As in ECMAScript, a value starts on
// the line of the return.
func (p *parser) parseReturn() ast.Stmt {
	s := &ast.Return{ReturnPos: p.pos(p.off)}
	p.next()
	if !p.nl && startsExpr(p.tok) {
		s.Value = p.parseValue()
	}
	return s
}

// errorExecution is SCXML's error.execution (model.ErrorExecution, which
// this package cannot import).
const errorExecution = "error.execution"

// parseThrow parses throw VALUE. A script that throws makes SCXML raise
// error.execution (§B.2): the statement is that raise, raised by the
// platform; the reader skips the rest of the block after it. What is
// thrown is not read (new Error('...') most often): no handler of
// error.execution sees it, and an error in it would raise the same event.
func (p *parser) parseThrow() ast.Stmt {
	s := &ast.Raise{RaisePos: p.pos(p.off), Event: errorExecution, Platform: true}
	p.next()
	if p.nl || !startsExpr(p.tok) {
		p.errorExpected("the value thrown")
		return nil
	}
	for p.tok != ast.EOF && p.tok != ast.SEMICOLON && p.tok != ast.RBRACE && !p.nl {
		if p.tok == ast.LBRACE {
			p.skipBraces(0)
			continue
		}
		p.next()
	}
	return s
}

func (p *parser) parseAssume() ast.Stmt {
	s := &ast.Assume{AssumePos: p.pos(p.off)}
	p.next()
	s.Cond = p.parseCond()
	return s
}

// parseBound parses bound NAME LIMIT (cond). bound is not a keyword: a
// name after it decides, which no other statement has.
func (p *parser) parseBound() ast.Stmt {
	off := p.off
	s := &ast.Bound{BoundPos: p.pos(off)}
	p.next()
	s.Name = vocab.Bound(p.lit)
	p.next()
	n, err := strconv.ParseInt(p.lit, 10, 64)
	if p.tok != ast.INT || err != nil {
		p.errorExpected("the bound's limit")
		s.Cond = p.bad(off)
		return s
	}
	s.Limit = n
	p.next()
	s.Cond = p.parseCond()
	return s
}

func (p *parser) parseString() string {
	if p.tok != ast.STRING {
		p.errorExpected("string literal")
		return ""
	}
	s := p.lit
	p.next()
	return s
}

// parseEventName parses a dotted name a.b.c or a string literal.
func (p *parser) parseEventName() string {
	if p.tok == ast.STRING {
		name := p.lit
		if name == "" || strings.ContainsAny(name, " \t\n") {
			p.error("invalid event name %q", name)
		}
		p.next()
		return name
	}
	if !p.isName() {
		p.errorExpected("event name")
		return ""
	}
	name := p.lit
	p.next()
	for p.tok == ast.PERIOD {
		p.next()
		if !p.isName() {
			p.errorExpected("name after '.'")
			return name
		}
		name += "." + p.lit
		p.next()
	}
	return name
}

// parseArgs parses the argument list (name: value, ...) of raise or send.
func (p *parser) parseArgs() []*ast.Arg {
	if p.tok != ast.LPAREN {
		p.errorExpected("'('")
		return nil
	}
	p.next()
	var args []*ast.Arg
	for p.tok != ast.RPAREN && p.tok != ast.EOF {
		if !p.isName() {
			p.errorExpected("argument name")
			p.skipGroup(1, false)
			return args
		}
		a := &ast.Arg{NamePos: p.pos(p.off), Name: p.lit}
		p.next()
		if p.tok != ast.COLON {
			p.errorExpected("':'")
			p.skipGroup(1, false)
			return args
		}
		p.next()
		a.Value = p.parseValue()
		args = append(args, a)
		if p.tok != ast.COMMA {
			break
		}
		p.next()
	}
	p.closeParen()
	return args
}
