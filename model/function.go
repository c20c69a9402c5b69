package model

import (
	"errors"
	"math/big"
	"strconv"
	"strings"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"
)

// Function is a black-box function: one the model calls but whose code it
// does not hold (a sensor read, a library routine), declared in setbot's
// namespace with its signature:
//
//	<setbot:function name="rise" params="int,int" returns="bool"
//	    table="tables/rise.csv" command="./bin/rise"/>
//
// Its table lists known input/output rows; the symbolic executor reads a
// call through the table's summary, the disjunction of its rows (Boudhiba,
// Gaston, Le Gall and Prevosto, "Symbolic execution of transition systems
// with function summaries", TAP 2017), and the concrete executors answer a
// call from a row. Its command computes it on new inputs, which makes the
// table grow. Without a table a call is a fresh, unconstrained value.
type Function struct {
	Name    string
	Pos     source.Pos
	Params  []ast.Type // ints, decimals, bools or strings
	Result  ast.Type
	Table   string // the table's file, relative to the model; "" for none
	Command string // the command, relative to the repository; "" for none
	Rows    []*Row
	// Host marks a function of the host that the model calls for its
	// value without declaring it (lower.HostFunction): every call is a
	// fresh unknown, not a function of its arguments.
	Host bool
}

// Row is one known input/output tuple of a black-box function: literals
// (IntLit, DecLit, BoolLit or StrLit).
type Row struct {
	In  []ast.Expr
	Out ast.Expr
	// Pos is where the row is in its table (NoPos for a row computed by
	// the command during this analysis, which Grown marks).
	Pos   source.Pos
	Grown bool
}

// Summarised reports whether calls of f are read through a table.
func (f *Function) Summarised() bool { return f.Table != "" }

// Function returns the black-box function named name, or nil.
func (m *Model) Function(name string) *Function {
	for _, f := range m.Functions {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// ParseValue reads one value of a black-box function, of type t, as a
// literal: a field of its table, or its command's output.
func ParseValue(s string, t ast.Type) (ast.Expr, error) {
	switch t.Kind {
	case ast.Int:
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, errors.New("want an integer")
		}
		if !t.Contains(v) {
			return nil, errors.New("outside the type " + t.String())
		}
		return &ast.IntLit{Value: v}, nil
	case ast.Decimal:
		// The value as written, exactly: a table is data, not ECMAScript
		// source, so 0.7 is seven tenths.
		v, ok := new(big.Rat).SetString(s)
		if !ok || strings.ContainsAny(s, "/eE") {
			return nil, errors.New("want a decimal number such as 0.97")
		}
		return &ast.DecLit{Value: v, Text: s}, nil
	case ast.Bool:
		switch s {
		case "true":
			return &ast.BoolLit{Value: true}, nil
		case "false":
			return &ast.BoolLit{}, nil
		}
		return nil, errors.New("want true or false")
	}
	return &ast.StrLit{Value: s}, nil
}

// FormatValue writes a value of a table, as ParseValue reads it.
func FormatValue(e ast.Expr) string {
	if s, ok := e.(*ast.StrLit); ok {
		return s.Value
	}
	return printer.ExprString(e)
}
