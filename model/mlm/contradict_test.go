package mlm

import (
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
)

// TestFacts: a way contradicts itself where it requires a condition and
// its negation (!=, !== and ! read as negations of ==, === and the
// condition) or one expression equal to two constants, of values nothing
// assigned in between; never where an assignment came between, where a
// black box is called (it answers each call afresh), or for conditions
// that merely differ.
func TestFacts(t *testing.T) {
	tests := []struct {
		conds  []string
		forget []string // assigned after the first condition
		want   bool
	}{
		{[]string{"x == 0", "x != 0"}, nil, true},
		{[]string{"x === 0", "x !== 0"}, nil, true},
		{[]string{"x == 0", "!(x == 0)"}, nil, true},
		{[]string{"!(x != 0)", "x != 0"}, nil, true},
		{[]string{"a > 1 && x == 0", "x != 0 && b"}, nil, true},
		{[]string{"x == 1", "x == 2"}, nil, true},
		{[]string{"s == 'a'", "'b' == s"}, nil, true},
		{[]string{"x == 1", "x == 1", "!(x == 2)"}, nil, false},
		{[]string{"x == 0", "x != 0"}, []string{"x"}, false},
		{[]string{"x == 1", "x == 2"}, []string{"x"}, false},
		{[]string{"x == 0", "x != 0"}, []string{"y"}, true},
		{[]string{"f(x) == 0", "f(x) != 0"}, nil, false},
		{[]string{"x == 0 || y", "!(x == 0)"}, nil, false},
		{[]string{"x < 1", "x >= 1"}, nil, false}, // other comparisons are not read as negations
	}
	for _, tt := range tests {
		fs := &facts{}
		got := false
		for i, c := range tt.conds {
			e, errs := parser.ParseExpr(parser.Snippet{Text: c})
			if len(errs) > 0 {
				t.Fatalf("%s: %v", c, errs)
			}
			if i == 1 {
				fs.forget(tt.forget)
			}
			if fs.add(external(e)) {
				got = true
			}
		}
		if got != tt.want {
			t.Errorf("%q, assigning %v after the first: contradictory %v, want %v", tt.conds, tt.forget, got, tt.want)
		}
	}
}

// external makes the calls of e calls of black boxes, as the checker does.
func external(e ast.Expr) ast.Expr {
	return ast.RewriteExpr(e, func(x ast.Expr) ast.Expr {
		if c, ok := x.(*ast.Call); ok {
			return &ast.External{FunPos: c.FunPos, Fun: c.Fun, Args: c.Args}
		}
		return x
	})
}
