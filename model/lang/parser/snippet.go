package parser

import "github.com/setbot/setbot/model/source"

// Snippet is source text embedded in a file: Text[i] sits at file byte
// offset Offsets[i] (or Start+i when Offsets is nil).
//
// Expressions and scripts come from XML attribute values and text content,
// where a decoded character may stand for several bytes of the file (an
// entity such as &amp;). Offsets keeps positions pointing at the raw text.
type Snippet struct {
	File    *source.File
	Text    string
	Start   int   // file offset of Text[0] when Offsets is nil
	Offsets []int // optional, len(Offsets) == len(Text)
}

// NewSnippet returns the snippet for text starting at offset 0 of f: a
// whole file or standalone text.
func NewSnippet(f *source.File, text string) Snippet {
	return Snippet{File: f, Text: text}
}

// Pos returns the position of Text[i]. i may equal len(Text): the end
// position, one past the offset of the last character.
func (s Snippet) Pos(i int) source.Pos {
	if s.File == nil {
		return source.NoPos
	}
	return s.File.Pos(s.Offset(i))
}

// position resolves the position of Text[i]. Without a File only the
// offset is known.
func (s Snippet) position(i int) source.Position {
	if s.File == nil {
		return source.Position{Offset: s.Offset(i)}
	}
	return s.File.Position(s.Pos(i))
}

// positionOf resolves pos, a position in s. Without a File only the
// offset of the snippet is known.
func (s Snippet) positionOf(pos source.Pos) source.Position {
	if s.File == nil {
		return source.Position{Offset: s.Offset(0)}
	}
	return s.File.Position(pos)
}

// Offset returns the file offset of Text[i], tolerating an Offsets slice
// shorter than Text.
func (s Snippet) Offset(i int) int {
	if i < 0 {
		i = 0
	}
	n := len(s.Offsets)
	switch {
	case s.Offsets == nil:
		return s.Start + i
	case i < n:
		return s.Offsets[i]
	case n == 0:
		return s.Start
	}
	return s.Offsets[n-1] + 1 + i - n
}
