package scxml

import (
	"regexp"
	"slices"
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/jexl"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/source"
)

// The jexl data model (Apache Commons SCXML) is read as a dialect of the
// action language (package lang/jexl): its snippets are translated before
// they are parsed, and what the checker typed is vetted for the
// constructs whose JEXL meaning differs. Other models parse as they are.

func (b *builder) translate(s parser.Snippet) (parser.Snippet, source.ErrorList) {
	if b.jexl == nil {
		return s, nil
	}
	return b.jexl.Translate(s)
}

func (b *builder) parseExpr(s parser.Snippet) (ast.Expr, source.ErrorList) {
	s, errs := b.translate(s)
	if len(errs) > 0 {
		return nil, errs
	}
	return parser.ParseExpr(s)
}

func (b *builder) parseLocation(s parser.Snippet) (*ast.Ident, []*ast.Sel, source.ErrorList) {
	s, errs := b.translate(s)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	return parser.ParseLocation(s)
}

func (b *builder) parseStmts(s parser.Snippet) (*ast.Block, source.ErrorList) {
	s, errs := b.translate(s)
	if len(errs) > 0 {
		return nil, errs
	}
	return parser.ParseStmts(s)
}

// vet refuses, in the checked n, what JEXL means otherwise (jexl.Vet),
// in a model of the dialect dl (nil for none); cond says that n is a
// transition's condition.
func vet(d *diag, dl *jexl.Dialect, n ast.Node, info *lang.Info, cond bool) {
	if dl != nil && n != nil {
		d.errs = append(d.errs, dl.Vet(d.fset, n, info, cond)...)
	}
}

// CommonsNamespaces are the namespaces of Apache Commons SCXML's own
// actions (the older one, and the one of Commons SCXML 2).
var CommonsNamespaces = []string{"https://commons.apache.org/scxml", "http://commons.apache.org/scxml"}

// commonsVar reads Commons SCXML's <var name="x" expr="e"/> in a jexl
// model: x = e (null without expr), x a variable of the data model
// (declareCommonsVars). Commons SCXML keeps x in the context of the
// state whose content declares it; setbot keeps it in the whole data
// model, which is the same where only that state and its descendants
// read it, as a warning says. Other foreign elements are ignored, as
// everywhere (nil).
func (b *builder) commonsVar(c *element) ast.Stmt {
	if b.jexl == nil || !slices.Contains(CommonsNamespaces, c.Name.Space) || c.Name.Local != "var" {
		return nil
	}
	b.checkAttrs(c, "name", "expr")
	a, ok := c.attr("name")
	name := strings.TrimSpace(a.Value)
	if !ok || !isIdent(name) {
		b.errorf(c.Start, "Commons SCXML's <var> needs a name that is an identifier")
		return nil
	}
	id := &ast.Ident{NamePos: b.pos(a.Offsets0()), Name: name}
	var v ast.Expr = &ast.Absent{ValuePos: b.pos(c.Start), Null: true}
	if ex, ok := c.attr("expr"); ok {
		if v = b.expr(ex); v == nil {
			return nil
		}
	}
	if !slices.ContainsFunc(b.commonsVars, func(x *ast.Ident) bool { return x.Name == name }) {
		b.warnf(c.Start, "Commons SCXML's <var name=%q> is read as a variable of the whole data model: Commons SCXML keeps it in the context of the state that declares it, which only that state and its descendants read", name)
	}
	b.commonsVars = append(b.commonsVars, id)
	return &ast.Assign{Target: id, OpPos: id.NamePos, Op: ast.ASSIGN, Value: v}
}

// declareCommonsVars declares the variables of Commons SCXML's <var>
// actions that no <data> declares, without a value until the action runs.
func (dc *declarer) declareCommonsVars() {
	for _, id := range dc.commonsVars {
		if dc.m.Var(id.Name) == nil {
			dc.m.Vars = append(dc.m.Vars, &model.Var{Name: id.Name, Pos: id.NamePos, Type: ast.UndefType, Init: &ast.Absent{ValuePos: id.NamePos}})
		}
	}
}

// dataContent reads the text of a <data> (or the file its src names). In
// a jexl model it is read as Commons SCXML reads it, by SCXML's rule for
// content (§B.2.1): JSON where it begins with { or [, and otherwise the
// string of its text, its white space normalised; it is no JEXL. Other
// models read it as an expression.
func (b *builder) dataContent(s parser.Snippet) (ast.Expr, source.ErrorList) {
	if b.jexl == nil {
		return b.parseExpr(s)
	}
	text := strings.TrimSpace(s.Text)
	if text != "" && (text[0] == '{' || text[0] == '[') {
		return parser.ParseExpr(s)
	}
	words := strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' })
	return &ast.StrLit{ValuePos: s.Pos(strings.Index(s.Text, text)), Value: strings.Join(words, " ")}, nil
}

// jexlComparison finds a comparison written with one of JEXL's word
// operators (a lt 3), outside string literals: no ECMAScript expression.
var jexlComparison = regexp.MustCompile(`[\w)\]]\s+(lt|le|gt|ge|eq|ne)\s+[\w('"-]`)

// quoted matches the string literals of an expression.
var quoted = regexp.MustCompile(`'[^']*'|"[^"]*"`)

// defaultJEXL reads a document that names no data model as the jexl one
// where one of its conditions or expressions compares with a JEXL word
// operator (count lt 3), which no ECMAScript expression does: SCXML leaves
// the default data model to the platform, and Apache Commons SCXML, whose
// default is JEXL, is the engine such a document was written for. It
// warns, naming the expression.
func (b *builder) defaultJEXL(root *element) {
	var walk func(el *element) bool
	walk = func(el *element) bool {
		if isSCXML(el.Name.Space) {
			for _, a := range el.Attrs {
				if a.Name.Space != "" || a.Name.Local != "cond" && a.Name.Local != "expr" {
					continue
				}
				if m := jexlComparison.FindStringSubmatchIndex(quoted.ReplaceAllStringFunc(a.Value, blank)); m != nil {
					op := a.Value[m[2]:m[3]]
					b.warnf(a.Offsets[m[2]], "%s is JEXL's comparison, in a document that names no data model: read as datamodel=\"jexl\", "+
						"the default of Apache Commons SCXML, which such documents were written for; write datamodel=\"jexl\"", op)
					return true
				}
			}
		}
		for _, c := range el.Children {
			if walk(c) {
				return true
			}
		}
		return false
	}
	if walk(root) {
		b.jexl = jexl.New()
	}
}

// blank replaces a string literal by spaces of its length.
func blank(s string) string { return strings.Repeat(" ", len(s)) }
