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

// String returns "file:line:column", "file:line" when the column is not known, or just the file
// when the line is not known either (an error about a file as a whole).
func (p Position) String() string {
	if p.Line == 0 {
		return p.Filename
	}
	if p.Column == 0 {
		return fmt.Sprintf("%s:%d", p.Filename, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// An Error is one problem in a configuration file, or in the environment that completes the
// server's configuration.
type Error struct {
	Pos Position // zero for a setting of the environment, or one missing everywhere
	// Path is the key path, such as "gate.bound_hit" or "models_config[1].match" ("" at the top),
	// or the environment variable.
	Path string
	Msg  string
}

// Error returns "file:line:col: path: message", leaving out the parts that are not known.
func (e *Error) Error() string {
	msg := e.Msg
	if e.Path != "" {
		msg = e.Path + ": " + msg
	}
	if pos := e.Pos.String(); pos != "" {
		msg = pos + ": " + msg
	}
	return msg
}

// An ErrorList is every problem Parse (or LoadServer) found, in file order. Parse returns one (as
// an error) when it found any; use errors.As to get at the positions.
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
