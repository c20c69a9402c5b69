package lang_test

import (
	"reflect"
	"testing"

	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/parser"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/langtest"
)

func TestCheckExpr(t *testing.T) {
	noParams := langtest.Env()
	noParams.Param = nil
	anyState := langtest.Env()
	anyState.State = nil
	tests := []struct {
		env  *lang.Env
		src  string
		want ast.Kind
		errs string
	}{
		{nil, "a + 1 * r - a / 2 % 3", ast.Int, ""},
		{nil, "a < 1 && b || !b", ast.Bool, ""},
		{nil, "a == r && b != true", ast.Bool, ""},
		{nil, "b ? a : r", ast.Int, ""},
		{nil, "-a", ast.Invalid, ""},
		{nil, "_event.data.x > 0 && _event.data.y", ast.Bool, ""},
		{nil, "In('S1') || In('S2')", ast.Bool, ""},
		{anyState, "In('anything')", ast.Bool, ""},
		{nil, "c", ast.Invalid, "t.scxml:1:1: undeclared name c"},
		{nil, "c + 1 > 0 && !c", ast.Bool, "t.scxml:1:1: undeclared name c\nt.scxml:1:15: undeclared name c"},
		{nil, "_event.data.z", ast.Invalid, "t.scxml:1:1: event parameter z is not declared: declare it with a <setbot:param> of the event, or pass it in every send"},
		{noParams, "_event.data.x", ast.Invalid, "t.scxml:1:1: no event parameters in scope"},
		{nil, "In('S3')", ast.Bool, "t.scxml:1:1: unknown state 'S3' in In()"},
		{nil, "a + b", ast.Int, "t.scxml:1:3: operator + needs int operands, found int and bool"},
		{nil, "b * 2", ast.Int, "t.scxml:1:3: operator * needs int operands, found bool and int"},
		{nil, "b < 1", ast.Bool, "t.scxml:1:3: operator < needs int operands, found bool and int"},
		{nil, "a && b", ast.Bool, ""},              // ECMAScript truthiness: a is a condition
		{nil, "a + 'x' + b + 1.5", ast.String, ""}, // one string operand: + joins strings
		{nil, "a - 'x'", ast.Invalid, "t.scxml:1:3: operator - needs int operands, found int and string"},
		{nil, "'x' + 'y' == 'xy'", ast.Bool, ""},
		{nil, "'x' < 'y' && 'ab'.length == 2 && 'ab'.indexOf('b') == 1", ast.Bool, ""},
		{nil, "'ab'.substring(1) == 'b' && 'ab'.charAt(0) == 'a' && 'ab'.startsWith('a')", ast.Bool, ""},
		{nil, "'ab'.substring(true)", ast.Invalid, "t.scxml:1:16: true is bool: an argument of .substring needs an int"},
		{nil, "'ab'.includes()", ast.Invalid, "t.scxml:1:5: .includes takes 1 argument(s), found 0"},
		{nil, "a.length", ast.Invalid, "t.scxml:1:1: a is int: .length needs a string"},
		{nil, "(a & 3 | 4 ^ ~a) << 2 >> 1 >>> 0", ast.Int, ""},
		{nil, "b & 1", ast.Invalid, "t.scxml:1:3: operator & needs int operands, found bool and int"},
		{nil, "undefined == null && a != undefined && typeof a == 'number'", ast.Bool, ""},
		{nil, "(b ? undefined : 1) + 1", ast.Invalid, "t.scxml:1:2: b ? undefined : 1 may be undefined or null, and operator + needs a value: setbot's types do not narrow after a test, so compare it (=== undefined, == 'x') rather than compute with it"},
		{nil, "b ? 'x' : 1", ast.Mixed, ""},
		{nil, "(b ? 'x' : 1) + 1", ast.Mixed, ""},
		{nil, "(b ? 'x' : 1) < 2 && (b ? 'x' : 1) == 'x' && typeof (b ? 'x' : 1) == 'string'", ast.Bool, ""},
		{nil, "(b ? 'x' : 1) - 1", ast.Invalid, "t.scxml:1:15: operator - on b ? 'x' : 1 (an int or a string) and 1 (an int) is not modelled: " +
			"of the operators on a value of several kinds, + joins strings and adds numbers, and < > <= >= compare; convert the value first"},
		{nil, "(b ? true : 1) + 1", ast.Invalid, "t.scxml:1:16: operator + on b ? true : 1 (an int or a bool) and 1 (an int) is not modelled where the one is a bool and the other an int: " +
			"+ joins strings and adds numbers, and < > <= >= compare numbers and strings; convert the value first"},
		{nil, "(b ? 'x' : 1).length", ast.Invalid, "t.scxml:1:2: b ? 'x' : 1 holds an int or a string, and .length of it is not modelled: setbot's types do not narrow after a test (typeof), so convert it first (String(b ? 'x' : 1)), or keep one variable per kind"},
		{nil, "String(b ? 'x' : 1).length", ast.Int, ""},
		{nil, "true ? 'x' : undefined", ast.String, ""},
		{nil, "[b ? 'x' : 1]", ast.Invalid, "t.scxml:1:2: an element or field that holds int|string (in an array literal) is not modelled: a variable may hold values of several kinds, an array's elements and an object's fields one kind each; convert them to one kind (String(x), or a number)"},
		{nil, "_event.name == 'go' && _sessionid != _name", ast.Bool, ""},
		{nil, "b || 1", ast.Bool, ""},
		{nil, "a == b", ast.Bool, "t.scxml:1:3: mismatched types int and bool for ==: compare values of one type"},
		{nil, "b != 0", ast.Bool, "t.scxml:1:3: mismatched types bool and int for !=: compare values of one type"},
		{nil, "!a", ast.Bool, ""},
		{nil, "-b", ast.Int, "t.scxml:1:1: operator - needs an int operand, found bool"},
		{nil, "a ? 1 : 2", ast.Int, ""},
		{nil, "b ? 1 : true", ast.Mixed, ""},
		{nil, "b ? [1] : 1", ast.Invalid, "t.scxml:1:3: mismatched types array and int in ?: branches"},
		{nil, "a + 1", ast.Bool, "t.scxml:1:1: expression must be bool, found int"},
		{nil, "b", ast.Int, "t.scxml:1:1: expression must be int, found bool"},
		{nil, "c", ast.Bool, "t.scxml:1:1: undeclared name c"},
		{nil, "_sessionid", ast.String, ""},
		{nil, "_name", ast.String, ""},
		{nil, "return", ast.Invalid, "t.scxml:1:1: return is a statement, not a value: write an expression"},
		{nil, "a == undefined", ast.Bool, ""},
		// _event's fields (SCXML §5.10.1).
		{nil, "_event.type == 'internal' && _event.name != 'x'", ast.Bool, ""},
		{nil, "_event.sendid == undefined || _event.origin === null || typeof _event.origintype === 'undefined'", ast.Bool, ""},
		{nil, "typeof _event.invokeid === 'undefined' && _event.invokeid == undefined", ast.Bool, ""},
		{nil, "_event.sendid + 'x'", ast.String, ""}, // "undefinedx" where it has none
		{nil, "_event.sendid - 1", ast.Invalid, "t.scxml:1:1: _event.sendid may be undefined or null, and operator - needs a value: setbot's types do not narrow after a test, so compare it (=== undefined, == 'x') rather than compute with it"},
		{nil, "_event.origin.length", ast.Invalid, "t.scxml:1:1: _event.origin may be undefined or null, and .length needs a value: setbot's types do not narrow after a test, so compare it (=== undefined, == 'x') rather than compute with it"},
		{nil, "'abc'.substr(1, 1) + 'abc'.substr(-1) + 'abc'.replace('b', '[$&$$]')", ast.String, ""},
		{nil, "'abc'.replace('b', '$1')", ast.Invalid, "t.scxml:1:20: $1 in a replacement names a capture, and a string pattern has none (ECMAScript leaves it to the implementation): write $$ for a dollar sign"},
		{nil, "'abc'.replace('b', _name)", ast.Invalid, "t.scxml:1:20: a replacement computed at run time is not modelled (its $ patterns would be read when it runs): write it as a string literal"},
		{nil, "'abc'.replace(1, 'x')", ast.Invalid, "t.scxml:1:15: 1 is int: an argument of .replace needs a string"},
		{nil, "'abc'.indexOf('a', 2)", ast.Invalid, "t.scxml:1:6: .indexOf with a position is not supported: search a substring instead, e.g. s.substring(p).indexOf(t)"},
		{nil, "'a.b'.lastIndexOf('.') + 'a.b'.lastIndexOf('.', 1)", ast.Int, ""},
		{nil, "'abc'.lastIndexOf('a', 'b')", ast.Invalid, "t.scxml:1:24: 'b' is string: an argument of .lastIndexOf needs an int"},
		{nil, "'abc'.lastIndexOf(1)", ast.Invalid, "t.scxml:1:19: 1 is int: an argument of .lastIndexOf needs a string"},
		{nil, "'abc'.lastIndexOf('a', 1, 2)", ast.Invalid, "t.scxml:1:6: .lastIndexOf takes 2 argument(s), found 3"},
		{nil, "_event.invokeid == 'x'", ast.Bool, ""},
		{nil, "_event", ast.EventRef, ""},
		{nil, "_event == undefined", ast.Bool, ""},
		{nil, "!_event || _event && b", ast.Bool, ""},
		{nil, "_ioprocessors['scxml'].location + _sessionid", ast.String, ""},
	}
	for _, tt := range tests {
		env := tt.env
		if env == nil {
			env = langtest.Env()
		}
		_, _, errs := langtest.CheckExpr(t, env, tt.src, tt.want)
		if errs != tt.errs {
			t.Errorf("CheckExpr(%q) errors:\n%s\nwant:\n%s", tt.src, errs, tt.errs)
		}
	}

	// A nil Env has no names.
	if _, _, errs := langtest.CheckExpr(t, nil, "a", ast.Invalid); errs != "t.scxml:1:1: undeclared name a" {
		t.Errorf("nil env: %s", errs)
	}
}

func TestCheckBlock(t *testing.T) {
	assume := langtest.Env()
	assume.AllowAssume = true
	tests := []struct {
		env  *lang.Env
		src  string
		errs string
	}{
		{nil, "a = 1; b = true; r = a; a += r; a++; r--; a = _event.data.x", ""},
		{nil, "var x = a + 1; let y = !b; int z; bool w; z = x; w = y; x *= 2", ""},
		{nil, "if (b) { int t = 1; a = t } else if (a > 0) { int t = 2 } else { a = 0 }", ""},
		{nil, "for (int i = 0; i < 3; i++) { a += i }; for (int i = 0; ;) { int i = 1 }", ""},
		{nil, "while (a > 0) a--", ""},
		{nil, "{ int x = 1 } { int x = 2 }", ""},
		{nil, "int x = 1; { bool x = true; b = x } x++", ""},
		{nil, "raise e(p: 1, q: b); send e(q: true) to \"o\"; raise other(z: 1, w: true); raise e()", ""},
		{assume, "assume(b && a > 0)", ""},
		{nil, "c = 1", "t.scxml:1:1: undeclared name c"},
		{nil, "a = true", "t.scxml:1:5: cannot use bool value as int in assignment to a"},
		{nil, "b = 1", "t.scxml:1:5: cannot use int value as bool in assignment to b"},
		{nil, "b += 1", "t.scxml:1:3: operator += needs int operands, found bool and int"},
		{nil, "a -= true", "t.scxml:1:3: operator -= needs int operands, found int and bool"},
		{nil, "b++", "t.scxml:1:2: operator ++ needs an int variable, found bool"},
		{nil, "--b", "t.scxml:1:1: operator -- needs an int variable, found bool"},
		{nil, "int x = true", "t.scxml:1:9: cannot use bool value as int in declaration of x"},
		{nil, "bool x = 1", "t.scxml:1:10: cannot use int value as bool in declaration of x"},
		{nil, "var x = 1; var x = 2", "t.scxml:1:16: x redeclared in this block"},
		{nil, "var a = 1", "t.scxml:1:5: local a shadows the machine variable a: drop the declaration to assign the variable, or rename the local"},
		{nil, "int x; bool x", "t.scxml:1:13: x redeclared in this block"},
		{nil, "for (int i = 0; ;) { } i = 1", "t.scxml:1:24: undeclared name i"},
		{nil, "{ int x = 1 } x = 2", "t.scxml:1:15: undeclared name x"},
		{nil, "if (b) { int t = 1 } else t = 2", "t.scxml:1:27: undeclared name t"},
		{nil, "var x = x", "t.scxml:1:9: undeclared name x"},
		{nil, "if (a) {}", ""}, // truthiness, as in ECMAScript
		{nil, "if (b) {} else if (1) {}", ""},
		{nil, "for (; a;) {}", ""},
		{nil, "a = undefined", "t.scxml:1:5: a is int and cannot hold undefined: give a the type int|undefined (a <data> without expr has it)"},
		{nil, "var u = b ? undefined : 1; u = 2; u = null", ""},
		{nil, "var s = 'a'; s += 'b'; s = s + 1; s += 2", ""},
		{nil, "var s = 'a'; a += s", "t.scxml:1:16: operator += needs int operands, found int and string"},
		{nil, "assume(b)", "t.scxml:1:1: assume is not allowed in models: remove it"},
		{assume, "assume(a)", ""},
		{nil, "bound array 2 (b)", "t.scxml:1:1: bound is not allowed in models: remove it"},
		{assume, "bound array 2 (a < 2)", ""},
		{nil, "raise e(r: 1)", "t.scxml:1:9: event e has no parameter r"},
		{nil, "raise e(p: true)", "t.scxml:1:12: cannot use bool value as int in argument p of event e"},
		{nil, "send e(q: 1) to 'o'", "t.scxml:1:11: cannot use int value as bool in argument q of event e"},
		{nil, "raise e(p: 1, p: 2)", "t.scxml:1:15: duplicate argument p: pass each parameter once"},
		{nil, "raise other(z: 1, z: 2)", "t.scxml:1:19: duplicate argument z: pass each parameter once"},
		{nil, "send other(z: c)", "t.scxml:1:15: undeclared name c"},
		{nil, "var x = c; x = 1; a = x; x++", "t.scxml:1:9: undeclared name c"},
		{nil, "x = y", "t.scxml:1:1: undeclared name x\nt.scxml:1:5: undeclared name y"},
		{nil, "if (_event) a = 1; while (!_event) {}", ""},
	}
	for _, tt := range tests {
		env := tt.env
		if env == nil {
			env = langtest.Env()
		}
		_, _, errs := langtest.CheckStmts(t, env, tt.src)
		if errs != tt.errs {
			t.Errorf("CheckBlock(%q) errors:\n%s\nwant:\n%s", tt.src, errs, tt.errs)
		}
	}
}

func TestCheckInfo(t *testing.T) {
	e, info, errs := langtest.CheckExpr(t, langtest.Env(), "r + 1 > a ? In('S1') : _event.data.y", ast.Bool)
	if errs != "" {
		t.Fatal(errs)
	}
	var n int
	ast.Inspect(e, func(n2 ast.Node) bool {
		if x, ok := n2.(ast.Expr); ok {
			n++
			if _, ok := info.Types[x]; !ok {
				t.Errorf("no type for %s", printer.ExprString(x))
			}
		}
		return true
	})
	if n != len(info.Types) {
		t.Errorf("%d types recorded for %d expressions", len(info.Types), n)
	}
	c := e.(*ast.Cond)
	gt := c.Cond.(*ast.Binary)
	add := gt.X.(*ast.Binary)
	for _, tt := range []struct {
		e    ast.Expr
		want ast.Type
	}{
		{add.X, ast.RangeType(0, 5)},
		{add, ast.IntType},
		{gt, ast.BoolType},
		{c.Else, ast.BoolType},
		{c, ast.BoolType},
	} {
		if got := info.Types[tt.e]; got != tt.want {
			t.Errorf("type of %s = %s, want %s", printer.ExprString(tt.e), got, tt.want)
		}
	}

	b, info, errs := langtest.CheckStmts(t, langtest.Env(), "var x = b; a = x ? 1 : 2")
	if errs != "" {
		t.Fatal(errs)
	}
	x := b.Stmts[1].(*ast.Assign).Value.(*ast.Cond).Cond
	if got := info.Types[x]; got != ast.BoolType {
		t.Errorf("type of local x = %s, want bool", got)
	}
}

// TestCheckDoesNotMutate checks a tree with errors and compares it with a
// copy taken before.
func TestCheckDoesNotMutate(t *testing.T) {
	fs := source.NewFileSet()
	src := "var x = c; if (a) { x = true } raise e(p: b, p: 1); for (int i = 0; i < a; i++) a += i"
	f := fs.AddFile("t.scxml", []byte(src))
	b, errs := parser.ParseStmts(parser.NewSnippet(f, src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	before := ast.RewriteBlock(b, func(e ast.Expr) ast.Expr { return e })
	if _, errs := lang.CheckBlock(langtest.Env(), fs, b); len(errs) == 0 {
		t.Fatal("no errors")
	}
	if !reflect.DeepEqual(before, b) {
		t.Error("CheckBlock modified the tree")
	}
}

// TestTestedFirst: a guard says an object is defined by its truth or its
// comparison with undefined, also as an operand of a guard that holds only
// where its operands do (k && o.a with want true, k || o.a == undefined
// with want false); not as an operand of one that may hold without it.
func TestTestedFirst(t *testing.T) {
	parse := func(src string) ast.Expr {
		e, errs := langtest.ParseExpr(src)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		return e
	}
	for _, tt := range []struct {
		guard string
		want  bool
		says  bool
	}{
		{"o.a", true, true},
		{"k && o.a", true, true},
		{"k && (j && o.a != null)", true, true},
		{"k || o.a == undefined", false, true},
		{"k || o.a", true, false},
		{"k && o.a", false, false},
		{"k && o.b", true, false},
	} {
		f := lang.FailingRead{Obj: parse("o.a"), Guards: []lang.Guard{{X: parse(tt.guard), Want: tt.want}}}
		if got := lang.TestedFirst(f); got != tt.says {
			t.Errorf("TestedFirst(o.a under %s = %v) = %v, want %v", tt.guard, tt.want, got, tt.says)
		}
	}
}
