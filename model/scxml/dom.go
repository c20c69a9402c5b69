package scxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model/source"
)

// element is one XML element with the positions setbot reports errors at.
type element struct {
	Name     xml.Name
	Start    int // file offset of '<'
	Attrs    []attribute
	Children []*element
	Text     []text // character data directly inside the element
}

// attribute is an attribute value decoded together with the file offset of
// every decoded byte, so that expressions inside it report exact columns.
type attribute struct {
	Name    xml.Name
	NameOff int
	Value   string
	Offsets []int
}

// text is one run of character data (plain or CDATA).
type text struct {
	Value   string
	Offsets []int
}

// attr returns the attribute with the given local name in no namespace.
func (e *element) attr(local string) (attribute, bool) {
	for _, a := range e.Attrs {
		if a.Name.Space == "" && a.Name.Local == local {
			return a, true
		}
	}
	return attribute{}, false
}

// content joins the element's character data.
func (e *element) content() text {
	var t text
	for _, c := range e.Text {
		t.Value += c.Value
		t.Offsets = append(t.Offsets, c.Offsets...)
	}
	return t
}

// parseDOM reads src into an element tree. It refuses DTDs (so no entity
// is ever expanded) and nesting deeper than maxNesting.
func parseDOM(file *source.File, src []byte, maxNesting int) (*element, *source.Error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	d.Strict = true
	// addDocument has decoded the document to UTF-8 already, whatever
	// its declaration says.
	d.CharsetReader = func(_ string, input io.Reader) (io.Reader, error) { return input, nil }
	fail := func(off int, format string, args ...any) *source.Error {
		return &source.Error{Pos: file.Position(file.Pos(off)), Msg: fmt.Sprintf(format, args...)}
	}
	var root *element
	var stack []*element
	for {
		start := int(d.InputOffset())
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			msg := err.Error()
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				msg = se.Msg
			}
			if msg == "invalid UTF-8" {
				msg += ": save the document as UTF-8"
			}
			return nil, fail(int(d.InputOffset()), "malformed XML: %s", msg)
		}
		end := int(d.InputOffset())
		raw := src[start:end]
		switch tok := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxNesting {
				return nil, fail(start, "elements nested deeper than %d levels", maxNesting)
			}
			el := &element{Name: tok.Name, Start: start}
			raws := scanRawAttrs(raw)
			if len(raws) != len(tok.Attr) {
				return nil, fail(start, "malformed XML: cannot read the attributes of <%s>", tok.Name.Local)
			}
			for i, a := range tok.Attr {
				val, offs := decodeEntities(src[start+raws[i].valueOff:start+raws[i].valueEnd], start+raws[i].valueOff)
				el.Attrs = append(el.Attrs, attribute{Name: a.Name, NameOff: start + raws[i].nameOff, Value: val, Offsets: offs})
			}
			if len(stack) > 0 {
				parent := stack[len(stack)-1]
				parent.Children = append(parent.Children, el)
			} else if root != nil {
				return nil, fail(start, "malformed XML: more than one root element")
			} else {
				root = el
			}
			stack = append(stack, el)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			var t text
			if bytes.HasPrefix(raw, []byte("<![CDATA[")) {
				body := raw[len("<![CDATA[") : len(raw)-len("]]>")]
				t.Value = string(body)
				for i := range body {
					t.Offsets = append(t.Offsets, start+len("<![CDATA[")+i)
				}
			} else {
				t.Value, t.Offsets = decodeEntities(raw, start)
			}
			el := stack[len(stack)-1]
			el.Text = append(el.Text, t)
		case xml.Directive:
			return nil, fail(start, "a DOCTYPE or other <!...> declaration is not allowed: remove it (setbot expands no entities)")
		}
	}
	if root == nil {
		return nil, fail(0, "no root element")
	}
	return root, nil
}

type rawAttr struct{ nameOff, valueOff, valueEnd int }

// scanRawAttrs finds the attributes of a raw start tag, in order, as
// offsets relative to the tag. encoding/xml has already checked the syntax.
func scanRawAttrs(tag []byte) []rawAttr {
	i := skipWhile(tag, 1, func(c byte) bool { return !isXMLSpace(c) && c != '>' && c != '/' })
	var out []rawAttr
	for {
		i = skipWhile(tag, i, isXMLSpace)
		if i >= len(tag) || tag[i] == '>' || tag[i] == '/' {
			break
		}
		a := rawAttr{nameOff: i}
		i = skipWhile(tag, i, func(c byte) bool { return c != '=' && !isXMLSpace(c) })
		i = skipWhile(tag, i, func(c byte) bool { return isXMLSpace(c) || c == '=' })
		if i >= len(tag) {
			break
		}
		q := tag[i]
		a.valueOff = i + 1
		i = skipWhile(tag, i+1, func(c byte) bool { return c != q })
		a.valueEnd = i
		i++
		out = append(out, a)
	}
	return out
}

// skipWhile returns the offset of the first byte of tag from i on that
// in does not hold of, or len(tag).
func skipWhile(tag []byte, i int, in func(byte) bool) int {
	for i < len(tag) && in(tag[i]) {
		i++
	}
	return i
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// decodeEntities decodes XML character references and the predefined
// entities in raw (which starts at file offset base), returning the text and
// the file offset of each decoded byte. Line ends are normalised to \n as
// XML requires.
func decodeEntities(raw []byte, base int) (string, []int) {
	var b strings.Builder
	offs := make([]int, 0, len(raw))
	emit := func(s string, off int) {
		b.WriteString(s)
		for range len(s) {
			offs = append(offs, off)
		}
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\r':
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
			emit("\n", base+i)
		case c == '&':
			j := bytes.IndexByte(raw[i:], ';')
			if j < 0 {
				emit("&", base+i)
				continue
			}
			name := string(raw[i+1 : i+j])
			s, ok := entity(name)
			if !ok {
				emit("&", base+i)
				continue
			}
			emit(s, base+i)
			i += j
		default:
			b.WriteByte(c)
			offs = append(offs, base+i)
		}
	}
	return b.String(), offs
}

func entity(name string) (string, bool) {
	switch name {
	case "lt":
		return "<", true
	case "gt":
		return ">", true
	case "amp":
		return "&", true
	case "apos":
		return "'", true
	case "quot":
		return `"`, true
	}
	if strings.HasPrefix(name, "#") {
		base, digits := 10, name[1:]
		if strings.HasPrefix(digits, "x") || strings.HasPrefix(digits, "X") {
			base, digits = 16, digits[1:]
		}
		n, err := strconv.ParseUint(digits, base, 32)
		if err != nil {
			return "", false
		}
		return string(rune(n)), true
	}
	return "", false
}
