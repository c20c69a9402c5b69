// Package source maps compact positions back to file, line and column, and
// collects positioned errors. It plays the role go/token plays for Go: every
// front-end package (the action language, the SCXML reader, the flattener)
// carries a Pos, and only the edges turn it into text.
package source

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Pos is a compact position: an offset into a FileSet. The zero value NoPos
// means "no position".
type Pos int

// NoPos is the zero Pos.
const NoPos Pos = 0

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p != NoPos }

// Position is a Pos resolved to file, line and column (both 1-based; column
// counts bytes, as Go's tools do).
type Position struct {
	Filename string
	Offset   int
	Line     int
	Column   int
}

// IsValid reports whether the position names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

func (p Position) String() string {
	name := p.Filename
	if name == "" {
		name = "-"
	}
	if !p.IsValid() {
		return name
	}
	return fmt.Sprintf("%s:%d:%d", name, p.Line, p.Column)
}

// File is one source file registered in a FileSet.
type File struct {
	name  string
	base  int
	size  int
	lines []int // offsets of line starts
	// text is kept for a file decoded from another encoding, whose
	// columns count characters: a byte column of the UTF-8 text would
	// match neither the file's bytes nor what an editor shows.
	text []byte
}

// Name returns the file name as given to AddFile.
func (f *File) Name() string { return f.name }

// Size returns the file size in bytes.
func (f *File) Size() int { return f.size }

// Pos returns the Pos of byte offset off in f. Offsets past the end are
// clamped to the end of the file.
func (f *File) Pos(off int) Pos {
	if off < 0 {
		off = 0
	}
	if off > f.size {
		off = f.size
	}
	return Pos(f.base + off)
}

// Offset returns the byte offset of p in f.
func (f *File) Offset(p Pos) int { return int(p) - f.base }

// Position resolves p, which must belong to f.
func (f *File) Position(p Pos) Position {
	off := f.Offset(p)
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	col := off - f.lines[i] + 1
	if f.text != nil {
		col = utf8.RuneCount(f.text[f.lines[i]:off]) + 1
	}
	return Position{Filename: f.name, Offset: off, Line: i + 1, Column: col}
}

// FileSet holds files; each occupies a disjoint range of Pos values.
type FileSet struct {
	files []*File
	next  int
}

// NewFileSet returns an empty FileSet.
func NewFileSet() *FileSet { return &FileSet{next: 1} }

// AddFile registers the content of a file and returns it.
func (s *FileSet) AddFile(name string, content []byte) *File {
	f := &File{name: name, base: s.next, size: len(content), lines: []int{0}}
	for i, c := range content {
		if c == '\n' {
			f.lines = append(f.lines, i+1)
		}
	}
	s.next += len(content) + 1
	s.files = append(s.files, f)
	return f
}

// AddDecodedFile registers the UTF-8 text of a file that was decoded
// from another encoding; its columns count characters, not bytes.
func (s *FileSet) AddDecodedFile(name string, text []byte) *File {
	f := s.AddFile(name, text)
	f.text = text
	return f
}

// File returns the file that contains p, or nil.
func (s *FileSet) File(p Pos) *File {
	if s == nil || !p.IsValid() {
		return nil
	}
	i := sort.Search(len(s.files), func(i int) bool { return s.files[i].base > int(p) }) - 1
	if i < 0 {
		return nil
	}
	f := s.files[i]
	if int(p) > f.base+f.size {
		return nil
	}
	return f
}

// Position resolves p; an unknown p gives the zero Position.
func (s *FileSet) Position(p Pos) Position {
	if f := s.File(p); f != nil {
		return f.Position(p)
	}
	return Position{}
}

// Error is one positioned message.
type Error struct {
	Pos Position
	Msg string
	// Refused marks an error about a construct setbot does not support
	// (another data model, a feature outside the action language), set
	// where the construct is refused: the model may be valid for another
	// tool, and it is not broken for being refused.
	Refused bool
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is a list of errors, printed one per line.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Position, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Refuse appends an error at pos about a construct setbot does not
// support (Error.Refused).
func (l *ErrorList) Refuse(pos Position, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Refused: true})
}

// Sort orders the list by file, line and column, keeping the order of
// errors at the same place, and drops exact duplicates.
func (l *ErrorList) Sort() {
	list := *l
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i].Pos, list[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	out := list[:0]
	for i, e := range list {
		if i > 0 && e.Pos == list[i-1].Pos && e.Msg == list[i-1].Msg {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}
