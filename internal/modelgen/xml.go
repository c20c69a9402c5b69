package modelgen

import "strings"

// elem is an XML element of the generated document, kept as a tree until
// it is written out with indentation.
type elem struct {
	name  string
	attrs []string // name, value, name, value, ...
	kids  []*elem
	lines []string // text content, one line each (a <script> body)
}

// newElem returns an element with attributes given as name, value pairs.
func newElem(name string, attrs ...string) *elem {
	return &elem{name: name, attrs: attrs}
}

// set adds an attribute.
func (e *elem) set(name, value string) *elem {
	e.attrs = append(e.attrs, name, value)
	return e
}

// add appends child elements.
func (e *elem) add(kids ...*elem) *elem {
	e.kids = append(e.kids, kids...)
	return e
}

// write prints e at the given indentation depth (two spaces a level).
func (e *elem) write(b *strings.Builder, depth int) {
	pad := strings.Repeat("  ", depth)
	b.WriteString(pad)
	b.WriteString("<" + e.name)
	for i := 0; i+1 < len(e.attrs); i += 2 {
		b.WriteString(" " + e.attrs[i] + `="` + escapeAttr(e.attrs[i+1]) + `"`)
	}
	if len(e.kids) == 0 && len(e.lines) == 0 {
		b.WriteString("/>\n")
		return
	}
	b.WriteString(">\n")
	for _, k := range e.kids {
		k.write(b, depth+1)
	}
	for _, l := range e.lines {
		b.WriteString(pad + "  " + escapeText(l) + "\n")
	}
	b.WriteString(pad + "</" + e.name + ">\n")
}

var (
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
)

// escapeAttr escapes an attribute value; escapeText, character data.
func escapeAttr(s string) string { return attrEscaper.Replace(s) }
func escapeText(s string) string { return textEscaper.Replace(s) }
