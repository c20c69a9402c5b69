package sim

import (
	"strings"

	"github.com/setbot/setbot/model"
	"github.com/setbot/setbot/model/lang/ast"
)

// call answers a call of a black-box function from the function's table:
// the row whose inputs are the arguments. A call no row answers is an
// error that names the inputs (the symbolic executor only takes paths a
// row fits; a replay that needs another row needs a larger table).
func (x *Executor) call(n *ast.External) (Value, error) {
	args := make([]Value, len(n.Args))
	for i, a := range n.Args {
		v, err := x.Eval(a)
		if err != nil {
			return Value{}, err
		}
		args[i] = v
	}
	var f *model.Function
	if x.Source != nil {
		f = x.Source.Function(n.Fun)
	}
	if f == nil {
		return Value{}, x.errorf(n, "unknown function %s", n.Fun)
	}
	if v, ok := Lookup(f, args); ok {
		return v, nil
	}
	what := "no table"
	if f.Summarised() {
		what = "no row of its table " + f.Table
	}
	return Value{}, x.errorf(n, "%s(%s) has %s: the black box's result is not known for these inputs", n.Fun, formatValues(args), what)
}

// Lookup returns the result of f's row for the inputs args.
func Lookup(f *model.Function, args []Value) (Value, bool) {
	for _, row := range f.Rows {
		if RowMatches(row, args) {
			v, _ := (&Executor{}).Eval(row.Out)
			return v, true
		}
	}
	return Value{}, false
}

// RowMatches reports whether the inputs of row are args.
func RowMatches(row *model.Row, args []Value) bool {
	for i, in := range row.In {
		v, err := (&Executor{}).Eval(in)
		if err != nil || !v.Equal(args[i]) {
			return false
		}
	}
	return true
}

func formatValues(vs []Value) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	return strings.Join(s, ", ")
}
