package parser

import "strings"
import "github.com/setbot/setbot/model/lang/ast"

// statementOnly are the ECMAScript reserved words that begin statements
// only: no ECMAScript expression starts with one.
var statementOnly = map[string]bool{
	"return": true, "break": true, "continue": true, "throw": true, "do": true, "switch": true, "case": true,
	"default": true, "const": true, "try": true, "catch": true, "finally": true, "if": true, "else": true,
	"while": true, "for": true, "var": true,
}

// IllegalExpr reports whether text is no ECMAScript expression at all,
// whatever the data model holds: it begins with a reserved word that only
// begins statements (return, if, ...), and returns that word. An SCXML
// processor raises error.execution where it evaluates such an expression
// (the W3C tests write "return" for one). Text that setbot's language does
// not parse for other reasons may still be ECMAScript (setbot's grammar is
// a subset), so it is not illegal in this sense.
func IllegalExpr(text string) (string, bool) {
	sc := scanner{text: strings.TrimSpace(text), errh: func(int, string) {}}
	t := sc.scan()
	if t.lit != "" && statementOnly[t.lit] && (t.tok == ast.IDENT || ast.IsKeyword(t.lit)) {
		return t.lit, true
	}
	return "", false
}
