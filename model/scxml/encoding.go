package scxml

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"

	"github.com/setbot/setbot/model/source"
)

// declaredEncoding finds the encoding of an XML declaration that starts
// the document: the label and the offset of its first byte.
var declaredEncoding = regexp.MustCompile(`\A(?:\xef\xbb\xbf)?<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["']`)

// addDocument registers a document of any encoding encoding/xml and
// golang.org/x/text decode together (XML 1.0, section 4.3.3 and appendix
// F): a UTF-16 document by its byte order mark or its first characters,
// any other by the encoding its XML declaration names. The file set holds
// the UTF-8 text, whose columns count characters when it was decoded; a
// label neither index knows is an error at the label.
func addDocument(fset *source.FileSet, name string, src []byte) (*source.File, []byte, *source.Error) {
	enc, label, at := documentEncoding(src)
	if enc == nil && label != "" {
		file := fset.AddFile(name, src)
		return file, src, &source.Error{Pos: file.Position(file.Pos(at)),
			Msg: fmt.Sprintf("encoding %q is not supported: save the document as UTF-8, or name an encoding such as ISO-8859-1, windows-1252 or UTF-16", label)}
	}
	if enc == nil {
		return fset.AddFile(name, src), src, nil
	}
	text, err := enc.NewDecoder().Bytes(src)
	if err != nil {
		file := fset.AddFile(name, src)
		return file, src, &source.Error{Pos: file.Position(file.Pos(at)), Msg: fmt.Sprintf("the document cannot be read as %s: %v", label, err)}
	}
	return fset.AddDecodedFile(name, text), text, nil
}

// documentEncoding returns the encoding src must be decoded from, nil for
// UTF-8 (with the label and its offset when the label is unknown).
func documentEncoding(src []byte) (enc encoding.Encoding, label string, at int) {
	switch {
	case bytes.HasPrefix(src, []byte{0xfe, 0xff}), bytes.HasPrefix(src, []byte{0xff, 0xfe}):
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), "UTF-16", 0
	case bytes.HasPrefix(src, []byte{0, '<', 0, '?'}):
		return unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), "UTF-16BE", 0
	case bytes.HasPrefix(src, []byte{'<', 0, '?', 0}):
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "UTF-16LE", 0
	}
	m := declaredEncoding.FindSubmatchIndex(src)
	if m == nil {
		return nil, "", 0
	}
	label, at = string(src[m[2]:m[3]]), m[2]
	switch strings.ToLower(label) {
	case "utf-8", "utf8":
		return nil, "", 0
	case "utf-16", "utf-16le", "utf-16be", "ucs-2":
		// The declaration was read byte by byte, so the document is not
		// UTF-16 whatever it says: read it as UTF-8.
		if utf8.Valid(src) {
			return nil, "", 0
		}
	}
	e, err := ianaindex.IANA.Encoding(label)
	if err != nil || e == nil {
		e, err = htmlindex.Get(label)
	}
	switch {
	case err != nil || e == nil:
		return nil, label, at
	case e == unicode.UTF8 || e == encoding.Nop:
		return nil, "", 0
	}
	return e, label, at
}

// DataModel reads, from the start of a document, whether its root element
// is <scxml> and the data model its datamodel attribute names ("" when it
// has none), without reading the rest: a survey of a tree of models sorts
// them by it before loading them.
func DataModel(src []byte) (datamodel string, isSCXML bool) {
	if enc, _, _ := documentEncoding(src); enc != nil {
		text, err := enc.NewDecoder().Bytes(src)
		if err != nil {
			return "", false
		}
		src = text
	}
	d := xml.NewDecoder(bytes.NewReader(src))
	d.CharsetReader = func(_ string, input io.Reader) (io.Reader, error) { return input, nil }
	for {
		tok, err := d.RawToken()
		if err != nil {
			return "", false
		}
		if start, ok := tok.(xml.StartElement); ok {
			if start.Name.Local != "scxml" {
				return "", false
			}
			for _, a := range start.Attr {
				if a.Name.Space == "" && a.Name.Local == "datamodel" {
					return strings.TrimSpace(a.Value), true
				}
			}
			return "", true
		}
	}
}
