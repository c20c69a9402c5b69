package modelgen

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
)

// The namespaces of SCXML and of setbot's annotations.
const (
	scxmlNS  = "http://www.w3.org/2005/07/scxml"
	setbotNS = "https://setbot.dev/scxml"
)

// nodeKind is the kind of a node of a parsed document.
type nodeKind int

const (
	elementNode nodeKind = iota
	textNode             // character data, CDATA included
	otherNode            // a comment, processing instruction or directive
)

// node is one node of a parsed XML document. Names keep the prefix as
// written (xml.Name.Space holds the prefix, not the namespace), and
// attributes keep their order. Each node keeps its source text, written
// back unchanged unless the node was edited, so that a change to a model
// changes only the lines it has to.
type node struct {
	kind   nodeKind
	name   xml.Name
	attrs  []xml.Attr
	kids   []*node
	parent *node
	scope  map[string]string // prefix -> namespace in scope at an element ("" is the default)
	text   string            // the decoded character data of a text node

	raw         string // source of the token: an element's start tag, or the whole node
	rawEnd      string // source of an element's end tag ("" when self-closing)
	selfClosing bool   // the element was written <x/>
	dirty       bool   // edited: written from the fields, not from raw
}

// document is a parsed XML document: the nodes before, around and after the
// root element.
type document struct {
	nodes []*node
	root  *node
}

// parseDocument reads src into a tree with encoding/xml's RawToken, which
// leaves prefixes unresolved; namespaces are resolved here from the xmlns
// attributes in scope.
func parseDocument(src []byte) (*document, error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	d.Strict = true
	doc := &document{}
	var stack []*node
	add := func(n *node) {
		if len(stack) == 0 {
			doc.nodes = append(doc.nodes, n)
			return
		}
		p := stack[len(stack)-1]
		n.parent = p
		p.kids = append(p.kids, n)
	}
	prev := 0
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		off := int(d.InputOffset())
		raw := string(src[prev:off])
		prev = off
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{kind: elementNode, name: t.Name, attrs: append([]xml.Attr(nil), t.Attr...), raw: raw}
			parentScope := map[string]string{}
			if len(stack) > 0 {
				parentScope = stack[len(stack)-1].scope
			} else if doc.root != nil {
				return nil, errors.New("more than one root element")
			}
			n.scope = parentScope
			own := false
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns" {
					if !own {
						n.scope, own = maps.Clone(parentScope), true
					}
					prefix := a.Name.Local
					if a.Name.Space == "" {
						prefix = ""
					}
					n.scope[prefix] = a.Value
				}
			}
			add(n)
			if len(stack) == 0 {
				doc.root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, fmt.Errorf("unexpected end tag </%s>", qname(t.Name))
			}
			n := stack[len(stack)-1]
			if n.name != t.Name {
				return nil, fmt.Errorf("end tag </%s> closes <%s>", qname(t.Name), qname(n.name))
			}
			stack = stack[:len(stack)-1]
			n.rawEnd = raw
			n.selfClosing = raw == ""
		case xml.CharData:
			add(&node{kind: textNode, text: string(t), raw: raw})
		default:
			add(&node{kind: otherNode, raw: raw})
		}
	}
	if len(stack) > 0 || doc.root == nil {
		return nil, errors.New("unexpected end of document")
	}
	return doc, nil
}

// bytes writes the document back.
func (d *document) bytes() []byte {
	var b strings.Builder
	for _, n := range d.nodes {
		n.write(&b)
	}
	return []byte(b.String())
}

// write prints n: from its source text when it was not edited.
func (n *node) write(b *strings.Builder) {
	switch n.kind {
	case textNode:
		if n.dirty {
			b.WriteString(escapeText(n.text))
		} else {
			b.WriteString(n.raw)
		}
		return
	case otherNode:
		b.WriteString(n.raw)
		return
	}
	if !n.dirty {
		b.WriteString(n.raw)
		if n.selfClosing {
			return
		}
	} else {
		b.WriteString("<" + qname(n.name))
		for _, a := range n.attrs {
			b.WriteString(" " + qname(a.Name) + `="` + attrValueEscaper.Replace(a.Value) + `"`)
		}
		if len(n.kids) == 0 {
			b.WriteString("/>")
			return
		}
		b.WriteString(">")
	}
	for _, k := range n.kids {
		k.write(b)
	}
	if n.rawEnd != "" {
		b.WriteString(n.rawEnd)
	} else {
		b.WriteString("</" + qname(n.name) + ">")
	}
}

// attrValueEscaper escapes an attribute value, white space included, so
// that it reads back unchanged.
var attrValueEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;",
	"\n", "&#xA;", "\r", "&#xD;", "\t", "&#x9;")

// qname spells a name as written, with its prefix.
func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// ns returns the namespace of the element.
func (n *node) ns() string { return n.scope[n.name.Space] }

// is reports whether n is the SCXML element with the given local name (an
// element in no namespace counts as SCXML, as the reader takes it).
func (n *node) is(local string) bool {
	if n.kind != elementNode || n.name.Local != local {
		return false
	}
	ns := n.ns()
	return ns == scxmlNS || ns == ""
}

// isSetbot reports whether n is the setbot element with the local name.
func (n *node) isSetbot(local string) bool {
	return n.kind == elementNode && n.name.Local == local && n.ns() == setbotNS
}

// elems returns the child elements.
func (n *node) elems() []*node {
	var out []*node
	for _, k := range n.kids {
		if k.kind == elementNode {
			out = append(out, k)
		}
	}
	return out
}

// attr returns the value of the attribute with the local name and no
// prefix.
func (n *node) attr(local string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// setbotAttr returns the value of the setbot attribute with the local name.
func (n *node) setbotAttr(local string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Space != "" && a.Name.Local == local && n.scope[a.Name.Space] == setbotNS {
			return a.Value, true
		}
	}
	return "", false
}

// setAttr sets the attribute with the local name and no prefix, adding it
// last when it is absent.
func (n *node) setAttr(local, value string) {
	n.dirty = true
	for i, a := range n.attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			n.attrs[i].Value = value
			return
		}
	}
	n.attrs = append(n.attrs, xml.Attr{Name: xml.Name{Local: local}, Value: value})
}

// newChild returns a new element in the namespace and with the prefix of
// like, with attributes given as name, value pairs (no prefixes). It is
// not in the tree yet.
func newChild(like *node, local string, attrs ...string) *node {
	n := &node{kind: elementNode, name: xml.Name{Space: like.name.Space, Local: local}, scope: like.scope, dirty: true}
	for i := 0; i+1 < len(attrs); i += 2 {
		n.attrs = append(n.attrs, xml.Attr{Name: xml.Name{Local: attrs[i]}, Value: attrs[i+1]})
	}
	return n
}

// clone returns a deep copy of n, not in the tree.
func (n *node) clone() *node {
	c := *n
	c.parent = nil
	c.attrs = append([]xml.Attr(nil), n.attrs...)
	c.kids = nil
	for _, k := range n.kids {
		kc := k.clone()
		kc.parent = &c
		c.kids = append(c.kids, kc)
	}
	return &c
}

// index returns the position of k among n's children, or -1.
func (n *node) index(k *node) int {
	for i, x := range n.kids {
		if x == k {
			return i
		}
	}
	return -1
}

// indent returns the white space that starts the line of an element: the
// part after the last newline of the text just before it.
func (n *node) indent() string {
	if n.parent == nil {
		return ""
	}
	i := n.parent.index(n)
	if i > 0 && n.parent.kids[i-1].kind == textNode {
		t := n.parent.kids[i-1].text
		if j := strings.LastIndexByte(t, '\n'); j >= 0 && strings.TrimSpace(t[j:]) == "" {
			return t[j+1:]
		}
	}
	return ""
}

// childIndent returns the indentation of n's child elements: that of the
// first one, or n's own plus two spaces.
func (n *node) childIndent() string {
	for _, k := range n.kids {
		if k.kind == elementNode {
			return k.indent()
		}
	}
	return n.indent() + "  "
}

// space returns a text node of white space.
func space(s string) *node { return &node{kind: textNode, text: s, raw: s} }

// insert puts c among n's children at index i, on a line of its own.
func (n *node) insert(i int, c *node) {
	c.parent = n
	ind := n.childIndent()
	if len(n.kids) == 0 {
		n.dirty = true
		n.kids = []*node{space("\n" + ind), c, space("\n" + n.indent())}
		return
	}
	if n.selfClosing {
		n.dirty = true
	}
	n.kids = append(n.kids[:i], append([]*node{space("\n" + ind), c}, n.kids[i:]...)...)
}

// insertBefore puts c just before the child ref, on a line of its own.
func (n *node) insertBefore(ref, c *node) {
	i := n.index(ref)
	c.parent = n
	n.kids = append(n.kids[:i], append([]*node{c, space("\n" + ref.indent())}, n.kids[i:]...)...)
}

// insertAfter puts c just after the child ref.
func (n *node) insertAfter(ref, c *node) { n.insert(n.index(ref)+1, c) }

// appendChild puts c after n's last child element.
func (n *node) appendChild(c *node) {
	var last *node
	for _, k := range n.kids {
		if k.kind == elementNode {
			last = k
		}
	}
	if last == nil {
		n.insert(0, c)
		return
	}
	n.insertAfter(last, c)
}

// remove takes n out of the tree, with the white space before it when that
// is all its line holds.
func (n *node) remove() {
	p := n.parent
	i := p.index(n)
	j := i
	if i > 0 && p.kids[i-1].kind == textNode && strings.TrimSpace(p.kids[i-1].text) == "" {
		prev := p.kids[i-1]
		if k := strings.LastIndexByte(prev.text, '\n'); k >= 0 {
			// Keep what ends the previous line; drop this line's indentation.
			prev.text = prev.text[:k]
			prev.raw = prev.text
		}
		if prev.text == "" {
			j = i - 1
		}
	}
	p.kids = append(p.kids[:j], p.kids[i+1:]...)
	n.parent = nil
}

// setText replaces the character data of a text node.
func (n *node) setText(s string) {
	n.text = s
	n.dirty = true
}

// walk calls f on n and every node below it, in document order.
func (n *node) walk(f func(*node)) {
	f(n)
	for _, k := range n.kids {
		k.walk(f)
	}
}
