// Package langtest holds what the tests of the action language's packages
// share (lang, lang/lower, lang/simplify): environments of test variables,
// a snippet parsed and checked as the file t.scxml, errors one per line
// as the command line prints them, a tree printed in prefix form, and
// small tree constructors. Only tests import it, as only tests import
// golang.org/x/tools' internal/testenv.
package langtest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang"
)

// Env has machine variables a (int), b (bool), r (int[0..5]); event
// parameters x (int), y (bool); states S1, S2; an event e with parameters
// p (int), q (bool).
func Env() *lang.Env {
	return &lang.Env{
		Vars: map[string]ast.Type{"a": ast.IntType, "b": ast.BoolType, "r": ast.RangeType(0, 5)},
		Param: func(name string) (ast.Type, bool) {
			t, ok := map[string]ast.Type{"x": ast.IntType, "y": ast.BoolType}[name]
			return t, ok
		},
		State: func(id string) bool { return id == "S1" || id == "S2" },
		Event: func(name string) (map[string]ast.Type, bool) {
			if name == "e" {
				return map[string]ast.Type{"p": ast.IntType, "q": ast.BoolType}, true
			}
			return nil, false
		},
	}
}

// CheckExpr parses src as file t.scxml and checks it.
func CheckExpr(t *testing.T, env *lang.Env, src string, want ast.Kind) (ast.Expr, *lang.Info, string) {
	t.Helper()
	fs := source.NewFileSet()
	f := fs.AddFile("t.scxml", []byte(src))
	e, errs := parser.ParseExpr(parser.NewSnippet(f, src))
	if len(errs) > 0 {
		t.Fatalf("ParseExpr(%q): %v", src, errs)
	}
	info, errs := lang.CheckExpr(env, fs, e, want)
	return e, info, ErrText(errs)
}

// CheckStmts parses src as file t.scxml and checks it.
func CheckStmts(t *testing.T, env *lang.Env, src string) (*ast.Block, *lang.Info, string) {
	t.Helper()
	fs := source.NewFileSet()
	f := fs.AddFile("t.scxml", []byte(src))
	b, errs := parser.ParseStmts(parser.NewSnippet(f, src))
	if len(errs) > 0 {
		t.Fatalf("ParseStmts(%q): %v", src, errs)
	}
	info, errs := lang.CheckBlock(env, fs, b)
	return b, info, ErrText(errs)
}

// ParseExpr parses src as the whole content of a file t.scxml.
func ParseExpr(src string) (ast.Expr, source.ErrorList) {
	f := source.NewFileSet().AddFile("t.scxml", []byte(src))
	return parser.ParseExpr(parser.NewSnippet(f, src))
}

// ParseStmts parses src as the whole content of a file t.scxml.
func ParseStmts(src string) (*ast.Block, source.ErrorList) {
	f := source.NewFileSet().AddFile("t.scxml", []byte(src))
	return parser.ParseStmts(parser.NewSnippet(f, src))
}

// Sexpr prints an expression fully parenthesised in prefix form, so that
// tests see the tree and not the printer's choice of parentheses.
func Sexpr(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.IntLit:
		return strconv.FormatInt(x.Value, 10)
	case *ast.BoolLit:
		return strconv.FormatBool(x.Value)
	case *ast.Ident:
		return x.Name
	case *ast.EventParam:
		return "_event.data." + x.Name
	case *ast.InState:
		return "In[" + x.State + "]"
	case *ast.Unary:
		return "(" + x.Op.String() + " " + Sexpr(x.X) + ")"
	case *ast.Binary:
		return "(" + x.Op.String() + " " + Sexpr(x.X) + " " + Sexpr(x.Y) + ")"
	case *ast.Cond:
		return "(? " + Sexpr(x.Cond) + " " + Sexpr(x.Then) + " " + Sexpr(x.Else) + ")"
	case *ast.Index:
		return "([] " + Sexpr(x.X) + " " + Sexpr(x.Index) + ")"
	case *ast.Member:
		return "(. " + Sexpr(x.X) + " " + x.Name + ")"
	case *ast.ArrayLit:
		s := "(array"
		for _, e := range x.Elems {
			s += " " + Sexpr(e)
		}
		return s + ")"
	case *ast.ObjectLit:
		s := "(object"
		for _, f := range x.Fields {
			s += " " + f.Name + ":" + Sexpr(f.Value)
		}
		return s + ")"
	case *ast.StrLit, *ast.Absent, *ast.EventField, *ast.SysVar, *ast.TypeOf, *ast.Method:
		return printer.ExprString(x)
	}
	return "?"
}

// ErrText joins errors one per line, as the command line prints them.
func ErrText(errs source.ErrorList) string {
	var lines []string
	for _, e := range errs {
		lines = append(lines, e.Error())
	}
	return strings.Join(lines, "\n")
}

// MustParseStmts parses src as ParseStmts does and fails the test on an
// error.
func MustParseStmts(t *testing.T, src string) *ast.Block {
	t.Helper()
	b, errs := ParseStmts(src)
	if len(errs) > 0 {
		t.Fatalf("ParseStmts(%q): %v", src, errs)
	}
	return b
}

// MustParseExpr parses src as ParseExpr does and fails the test on an
// error.
func MustParseExpr(t *testing.T, src string) ast.Expr {
	t.Helper()
	e, errs := ParseExpr(src)
	if len(errs) > 0 {
		t.Fatalf("ParseExpr(%q): %v", src, errs)
	}
	return e
}

// IntLit, Unary and Binary build trees without positions, for tests that
// need a tree the parser does not return (a negative literal).
func IntLit(v int64) *ast.IntLit { return &ast.IntLit{Value: v} }

// Unary is op x.
func Unary(op ast.Token, x ast.Expr) *ast.Unary { return &ast.Unary{Op: op, X: x} }

// Binary is x op y.
func Binary(x ast.Expr, op ast.Token, y ast.Expr) *ast.Binary {
	return &ast.Binary{X: x, Op: op, Y: y}
}

// LowerEnv adds to Env u (int|undefined), n (undefined alone) and s
// (string), and their tags.
func LowerEnv() *lang.Env {
	env := Env()
	env.Vars["u"] = ast.IntType.OrAbsent()
	env.Vars["n"] = ast.UndefType
	env.Vars["s"] = ast.StringType
	return env
}

// CompEnv adds to LowerEnv w (int|undefined) and arrays and objects: xs (int[3], 3 elements for
// certain), ys (int[4], possibly empty), us ((int|undefined)[2]), o
// ({f: int, s: string}), m (int[2][2], 2 rows for certain) and os
// ({v: bool}[2], 1 for certain); and event parameters l (int[2]) and
// c ({n: int}).
func CompEnv() *lang.Env {
	env := LowerEnv()
	env.Vars["w"] = ast.IntType.OrAbsent()
	env.Vars["xs"] = ast.ArrayType(ast.IntType, 3, 3)
	env.Vars["ys"] = ast.ArrayType(ast.IntType, 0, 4)
	env.Vars["us"] = ast.ArrayType(ast.IntType.OrAbsent(), 0, 2)
	env.Vars["o"] = ast.ObjectType([]ast.Field{{Name: "s", Type: ast.StringType}, {Name: "f", Type: ast.IntType}})
	env.Vars["m"] = ast.ArrayType(ast.ArrayType(ast.IntType, 2, 2), 2, 2)
	env.Vars["os"] = ast.ArrayType(ast.ObjectType([]ast.Field{{Name: "v", Type: ast.BoolType}}), 1, 2)
	params := map[string]ast.Type{"x": ast.IntType, "y": ast.BoolType, "l": ast.ArrayType(ast.IntType, 0, 2), "c": ast.ObjectType([]ast.Field{{Name: "n", Type: ast.IntType}})}
	env.Param = func(name string) (ast.Type, bool) { t, ok := params[name]; return t, ok }
	env.Event = func(name string) (map[string]ast.Type, bool) {
		if name == "e" {
			return map[string]ast.Type{"p": ast.ArrayType(ast.IntType, 0, 3)}, true
		}
		return nil, false
	}
	return env
}

// DecimalEnv adds to LowerEnv d (decimal), du (decimal|undefined) and an
// event f with a decimal parameter v.
func DecimalEnv() *lang.Env {
	env := LowerEnv()
	env.Vars["d"] = ast.DecimalType
	env.Vars["du"] = ast.DecimalType.OrAbsent()
	env.Event = func(name string) (map[string]ast.Type, bool) {
		switch name {
		case "e":
			return map[string]ast.Type{"p": ast.IntType, "q": ast.BoolType}, true
		case "f":
			return map[string]ast.Type{"v": ast.DecimalType}, true
		}
		return nil, false
	}
	return env
}

// RefEnv adds to Env ev and ev2 (stored _event objects), io (a stored
// _ioprocessors) and o, an object {f: int}.
func RefEnv() *lang.Env {
	env := Env()
	env.Vars["ev"] = ast.EventType
	env.Vars["ev2"] = ast.EventType
	env.Vars["io"] = ast.IOProcessorsType
	env.Vars["o"] = ast.ObjectType([]ast.Field{{Name: "f", Type: ast.IntType}})
	return env
}
