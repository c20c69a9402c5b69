package scxml

import (
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/source"
)

// The jexl data model (Apache Commons SCXML) is read as a dialect of the
// action language (package lang/jexl): its snippets are translated before
// they are parsed, and what the checker typed is vetted for the
// constructs whose JEXL meaning differs. Other models parse as they are.

func (b *builder) translate(s lang.Snippet) (lang.Snippet, source.ErrorList) {
	if b.jexl == nil {
		return s, nil
	}
	return b.jexl.Translate(s)
}

func (b *builder) parseExpr(s lang.Snippet) (lang.Expr, source.ErrorList) {
	s, errs := b.translate(s)
	if len(errs) > 0 {
		return nil, errs
	}
	return lang.ParseExpr(s)
}

func (b *builder) parseLocation(s lang.Snippet) (*lang.Ident, []*lang.Sel, source.ErrorList) {
	s, errs := b.translate(s)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	return lang.ParseLocation(s)
}

func (b *builder) parseStmts(s lang.Snippet) (*lang.Block, source.ErrorList) {
	s, errs := b.translate(s)
	if len(errs) > 0 {
		return nil, errs
	}
	return lang.ParseStmts(s)
}

// vet refuses, in the checked n, what JEXL means otherwise (jexl.Vet);
// cond says that n is a transition's condition.
func (b *builder) vet(n lang.Node, info *lang.Info, cond bool) {
	if b.jexl != nil && n != nil {
		b.errs = append(b.errs, b.jexl.Vet(b.fset, n, info, cond)...)
	}
}
