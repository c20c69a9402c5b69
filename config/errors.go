package config

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// A Position is a place in a configuration file. Line and Column count from 1; Column counts
// characters, as YAML does. A zero Column means the column is not known.
type Position struct {
	Filename     string
	Line, Column int
}

// String returns "file:line:column", or "file:line" when the column is not known.
func (p Position) String() string {
	if p.Column == 0 {
		return fmt.Sprintf("%s:%d", p.Filename, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// An Error is one problem in a configuration file.
type Error struct {
	Pos  Position
	Path string // the key path, such as "gate.bound_hit" or "models_config[1].match"; "" at the top
	Msg  string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Pos.String() + ": " + e.Path + ": " + e.Msg
}

// An ErrorList is every problem Parse found, in file order. Parse returns one (as an error) when
// it found any; use errors.As to get at the positions.
type ErrorList []*Error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

func (l ErrorList) sort() {
	slices.SortStableFunc(l, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column))
	})
}
