package lang_test

import (
	"testing"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/langtest"
	"github.com/setbot/setbot/model/lang/lower"
)

func TestCheckComposite(t *testing.T) {
	tests := []struct{ src, want string }{
		{"[1, 2, 3]", "int[3]"},
		{"[]", "undefined[0]"},
		{"[1, undefined]", "(int|undefined)[2]"},
		{"[[1], [2, 3]]", "int[2][2]"},
		{"{a: 1, b: 'x'}", "{a: int, b: string}"},
		{"[{a: 1}, {a: 2}]", "{a: int}[2]"},
		{"xs[0]", "int"},
		{"xs[3]", "int|undefined"},
		{"xs[a]", "int|undefined"},
		{"ys[0]", "int|undefined"},
		{"xs.length", "int[3..3]"},
		{"ys.length", "int[0..4]"},
		{"o.f", "int"},
		{"o['s']", "string"},
		{"m[1][a]", "int|undefined"},
		{"os[0].v", "bool"},
		{"_event.data.l[1]", "int|undefined"},
		{"_event.data.c.n", "int"},
		{"b ? xs : ys", "int[4]"},
		{"[[2], []]", "int[1][2]"},
		{"b ? [] : [1]", "int[1]"},
		{"typeof o", "string"},
		{"xs.indexOf(a)", "int[-1..2]"},
		{"us.includes(undefined)", "bool"},
		{"xs.concat(ys)", "int[7]"},
		{"xs.concat(ys).length", "int[3..7]"},
		{"[].concat(xs, [4]).length", "int[4..4]"},
		{"ys.concat(5, undefined)", "(int|undefined)[6]"},
		{"m.concat([[1, 2]])", "int[2][3]"},
		{"[].concat([])", "undefined[0]"},
	}
	for _, tt := range tests {
		e, info, errs := langtest.CheckExpr(t, langtest.CompEnv(), tt.src, ast.Invalid)
		if errs != "" {
			t.Errorf("CheckExpr(%q): %s", tt.src, errs)
			continue
		}
		if got := info.Types[e].String(); got != tt.want {
			t.Errorf("type of %s = %s, want %s", tt.src, got, tt.want)
		}
	}
}

func TestCheckCompositeErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"var z = [1, 'a']", "t.scxml:1:13: array elements of mixed types int and string: an array holds values of one type (and undefined); use one array per type"},
		{"a = a[0]", "t.scxml:1:6: a is an int, not an array: index an array, declared with an array literal such as [1, 2] as its initial value"},
		{"a = s[0]", "t.scxml:1:6: index into string s: write s.charAt(...)"},
		{"a = xs['1']", "t.scxml:1:8: '1' is string: an index needs an int"},
		{"a = o.g", "t.scxml:1:5: o has no field g: its fields are f, s; give every field in the object's initial value"},
		{"a = a.f", "t.scxml:1:5: a is an int, not an object: read .f of an object, declared with an object literal such as {f: ...} as its initial value"},
		{"a = m[a][0]", "t.scxml:1:6: m[a] may lie past the end of m, and an array or object that may be undefined is not modelled: index with a constant below its length (2 for certain), or read into the element (a part of it, or its length) where the statement always reads it, outside ?:, && and ||, at the top of a script or of an if's branch there"},
		{"b = xs == ys", "t.scxml:1:8: == between arrays or objects compares identities, which are not modelled: compare their elements or fields"},
		{"xs = [1, 2]", "t.scxml:1:6: cannot assign [1, 2] to xs: it has 3 elements for certain and the value may have 2; declare its type, e.g. setbot:type=\"int[3]\", which allows fewer"},
		{"ys = [1, 2, 3, 4, 5]", "t.scxml:1:6: cannot assign [1, 2, 3, 4, 5] to ys: it holds at most 4 elements and the value has at least 5; declare a larger bound, e.g. setbot:type=\"int[5]\""},
		{"ys = xs.concat(xs)", "t.scxml:1:6: cannot assign xs.concat(xs) to ys: it holds at most 4 elements and the value has at least 6; declare a larger bound, e.g. setbot:type=\"int[6]\""},
		{"xs = xs.concat(['a'])", "t.scxml:1:16: ['a'] adds elements of type string to an array of int: an array holds values of one type (and undefined); use one array per type"},
		{"xs = xs.concat([xs])", "t.scxml:1:16: [xs] adds elements of type int[3] to an array of int: an array holds values of one type (and undefined); use one array per type"},
		{"var z = m.concat([1])", "t.scxml:1:18: [1] adds elements of type int to an array of int[2]: an array holds values of one type (and undefined); use one array per type"},
		{"s = s.concat('a')", "t.scxml:1:6: concat on the string s: write s + ..."},
		{"a = a.concat(1)", "t.scxml:1:5: a is an int, not an array: .concat needs an array"},
		{"ys = us", "t.scxml:1:6: cannot assign us to ys: elements: the value may be undefined, and int cannot be"},
		{"o = {f: 1}", "t.scxml:1:5: cannot assign {f: 1} to o: the fields differ ({f: int, s: string} and {f: int}): an object keeps the fields of its type; setbot:type=\"{f: int, s?: string|undefined}\" holds both"},
		{"o.g = 1", "t.scxml:1:2: o has no field g: an object keeps the fields of its initial value; declare g there"},
		{"o[s] = 'a'", "t.scxml:1:2: assignment to o[s] with a computed key: the fields of o hold values of different types: index with a key written as a string, or give every field one type"},
		{"os[0][s] = 1", "t.scxml:1:12: cannot use int value as bool in assignment to os[0][s]"},
		{"os[0][s] += true", "t.scxml:1:10: += on a field selected by a key computed when it runs is not modelled: read and assign it, o[k] = o[k] ... (where k names no field, o[k] is undefined)"},
		{"o[a] = 1", "t.scxml:1:3: a is int: a key needs a string"},
		{"ys[a] += 1", "t.scxml:1:3: assignment to an element of ys that may lie past its end (it has 0 elements for certain): index with a constant below that, or assign the whole array"},
		{"m[a][0] = 1", "t.scxml:1:2: assignment to an element of m that may lie past its end (it has 2 elements for certain): index with a constant below that, or assign the whole array"},
		{"xs[0] = 'a'", "t.scxml:1:9: cannot use string value as int in assignment to xs[0]"},
		{"us[0] += 1", "t.scxml:1:3: assignment to an element of us that may lie past its end (it has 0 elements for certain): index with a constant below that, or assign the whole array"},
		{"a = xs[a] + 1", "t.scxml:1:5: xs[a] may be undefined or null, and operator + needs a value: setbot's types do not narrow after a test, so compare it (=== undefined, == 'x') rather than compute with it"},
		{"for (a of o) {}", "t.scxml:1:11: foreach over o, which is an object: foreach needs an array"},
		{"for (b of xs) {}", "t.scxml:1:6: foreach item b cannot hold the elements of xs: cannot use int value as bool"},
		{"for (u, b of xs) {}", "t.scxml:1:9: foreach index b is bool: the index is an int"},
		{"var z = b ? xs : undefined", "t.scxml:1:11: an array or object that may be undefined is not modelled (in ?: branches): give it a value in every case, e.g. []"},
		{"raise e(p: [1, 2, 3, 4])", "t.scxml:1:12: cannot pass [1, 2, 3, 4] as parameter p of event e: it holds at most 3 elements and the value up to 4; declare a larger bound, e.g. setbot:type=\"int[4]\""},
		{"a = xs.length + o.f + m[0][1] + os[0].v", "t.scxml:1:31: operator + needs int operands, found int and bool"},
		{"b = xs.includes('a')", "t.scxml:1:7: .includes looks for a string value among the elements of xs, which are int: it never finds one; look for an int value"},
		{"b = m.includes(xs)", "t.scxml:1:6: .includes over int[2][2] compares arrays or objects by identity, which is not modelled: compare a field or an element with ==="},
		{"a = xs.indexOf(1, 2)", "t.scxml:1:7: .indexOf on an array takes 1 argument, found 2: a start index is not supported; compare the elements you need with ==="},
		// push is a statement: its value, the new length, is refused.
		{"a = ys.push(1)", "t.scxml:1:7: the value of ys.push(...), the array's new length, is not modelled: call push as a statement of its own, then read ys.length"},
		{"ys.push('a')", "t.scxml:1:3: ['a'] adds elements of type string to an array of int: an array holds values of one type (and undefined); use one array per type"},
		{"xs.push(1)", "t.scxml:1:1: cannot assign xs.concat([1]) to xs: it holds at most 3 elements and the value has at least 4; declare a larger bound, e.g. setbot:type=\"int[4]\""},
		{"b = xs.startsWith(1)", "t.scxml:1:7: .startsWith is not an array method setbot models: of the array methods, indexOf, includes and concat are; write what it computes with a <foreach>"},
	}
	for _, tt := range tests {
		_, _, errs := langtest.CheckStmts(t, langtest.CompEnv(), tt.src)
		if errs != tt.want {
			t.Errorf("CheckBlock(%q) errors:\n%s\nwant:\n%s", tt.src, errs, tt.want)
		}
	}
}

// TestCheckValued checks that a variable that may be undefined holds a
// value where straight-line code assigned it one, and only there.
func TestCheckValued(t *testing.T) {
	tests := []struct{ src, errs string }{
		{"u = 1; a = u + 1", ""},
		{"for (u of xs) { a = a + u }", ""},
		{"for (u, w of xs) { a = a + w }", ""},
		{"if (b) { u = 1 } else { u = 2 } a = u + 1", ""},
		{"if (b) { u = 1 } a = u + 1", "t.scxml:1:22: u may be undefined or null, and operator + needs a value: give it one first (e.g. an expr on its <data>)"},
		{"u = 1; u = undefined; a = u + 1", "t.scxml:1:27: u may be undefined or null, and operator + needs a value: give it one first (e.g. an expr on its <data>)"},
		{"u = 1; while (b) { a = u; u = undefined }", "t.scxml:1:24: u may be undefined or null, and a cannot be: give a the type int|undefined (a <data> without expr has it)"},
		{"for (u of xs) {} a = u + 1", "t.scxml:1:22: u may be undefined or null, and operator + needs a value: give it one first (e.g. an expr on its <data>)"},
		{"for (u of us) { a = u }", "t.scxml:1:21: u may be undefined or null, and a cannot be: give a the type int|undefined (a <data> without expr has it)"},
		{"for (u of xs; a < u) {}", "t.scxml:1:19: u may be undefined or null, and operator < needs a value: give it one first (e.g. an expr on its <data>)"},
		{"for (let x, i of xs) { a = a + x * i }", ""},
		{"for (let x of xs) {} a = x", "t.scxml:1:26: undeclared name x"},
	}
	for _, tt := range tests {
		_, _, errs := langtest.CheckStmts(t, langtest.CompEnv(), tt.src)
		if errs != tt.errs {
			t.Errorf("CheckBlock(%q) errors:\n%s\nwant:\n%s", tt.src, errs, tt.errs)
		}
	}
}

func TestParseCompositeType(t *testing.T) {
	tests := []struct{ src, want string }{
		{"int[4]", "int[4]"},
		{"int[0..9][4]", "int[0..9][4]"},
		{"int [ 3 ] [2]", "int[3][2]"},
		{"{x: int, ok: bool}[8]", "{ok: bool, x: int}[8]"},
		{"{a: {b: string}}", "{a: {b: string}}"},
		{"(int|undefined)[2]", "(int|undefined)[2]"},
		{"(int)[2..3]", "int[3]"},
		{"int[0..9][3..3]", "int[0..9][3]"},
		{"(int)[3..2]", `malformed array bound in type "(int)[3..2]" (want int, int[lo..hi], decimal, bool, string, an array T[N] or an object {name: T, ...}, optionally with |undefined)`},
		{"int[x]", `malformed array bound in type "int[x]" (want int, int[lo..hi], decimal, bool, string, an array T[N] or an object {name: T, ...}, optionally with |undefined)`},
		{"int[1000]", `array bound 1000 above the largest, 256 in type "int[1000]" (want int, int[lo..hi], decimal, bool, string, an array T[N] or an object {name: T, ...}, optionally with |undefined)`},
		{"{a: int, a: bool}", `field a declared twice in type "{a: int, a: bool}" (want int, int[lo..hi], decimal, bool, string, an array T[N] or an object {name: T, ...}, optionally with |undefined)`},
		{"int[3] x", `unexpected "x" after the type in "int[3] x"`},
		{"int|string", "int|string"},
		{"string | bool|undefined", "bool|string|undefined"},
		{"int|decimal", "decimal"},
		{"(int|string)[2]", `an array's elements hold one kind, not int|string in type "(int|string)[2]" (want int, int[lo..hi], decimal, bool, string, an array T[N] or an object {name: T, ...}, optionally with |undefined)`},
		{"{a: int|string}", `field a holds int|string: an object's fields hold one kind each in type "{a: int|string}" (want int, int[lo..hi], decimal, bool, string, an array T[N] or an object {name: T, ...}, optionally with |undefined)`},
		{"int[0..3]|string", `only int, decimal, bool and string, without ranges, hold values of several kinds in type "int[0..3]|string" (want int, int[lo..hi], decimal, bool, string, an array T[N] or an object {name: T, ...}, optionally with |undefined)`},
	}
	for _, tt := range tests {
		typ, err := ast.ParseType(tt.src)
		got := typ.String()
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("ParseType(%q) = %s, want %s", tt.src, got, tt.want)
		}
	}
}

// TestWidenObjects: an object part given objects of other fields holds
// every field of both, those one lacks optional and undefined there;
// reading one is undefined, and 'f' in o, which cannot tell a missing
// field from one set to undefined, is refused.
func TestWidenObjects(t *testing.T) {
	old := ast.ObjectType([]ast.Field{{Name: "kind", Type: ast.StringType}, {Name: "n", Type: ast.IntType}})
	got := ast.ObjectType([]ast.Field{{Name: "start", Type: ast.StringType}, {Name: "n", Type: ast.DecimalType}})
	w, _, ok := ast.WidenObjects(old, got)
	const want = "{kind?: string|undefined, n: decimal, start?: string|undefined}"
	if !ok || w.String() != want {
		t.Fatalf("WidenObjects = %s, %v; want %s", w, ok, want)
	}
	if p, err := ast.ParseType(want); err != nil || p.String() != want {
		t.Errorf("ParseType(%q) = %s, %v: want it back", want, p, err)
	}
	if _, err := ast.ParseType("{f?: int}"); err == nil {
		t.Errorf("ParseType({f?: int}): want an error, a field some values lack may be undefined")
	}
	for _, vt := range []ast.Type{old, got} {
		if msg := lang.Assignable(w, vt); msg != "" {
			t.Errorf("Assignable(%s, %s) = %q, want assignable", w, vt, msg)
		}
	}
	if msg := lang.Assignable(old, w); msg == "" {
		t.Errorf("Assignable(%s, %s): want the fields differ", old, w)
	}
	nested := ast.ObjectType([]ast.Field{{Name: "a", Type: old}})
	const wantNested = "{a?: {kind: string, n: int}|undefined, kind?: string|undefined, n?: int|undefined}"
	if w, _, ok := ast.WidenObjects(old, nested); !ok || w.String() != wantNested {
		t.Errorf("WidenObjects(%s, %s) = %s, %v; want %s", old, nested, w, ok, wantNested)
	}
	if p, err := ast.ParseType(wantNested); err != nil || p.String() != wantNested {
		t.Errorf("ParseType(%q) = %s, %v: want it back", wantNested, p, err)
	}
	other := ast.ObjectType([]ast.Field{{Name: "n", Type: ast.StringType}})
	if _, field, ok := ast.WidenObjects(old, other); ok || field != "n" {
		t.Errorf("WidenObjects(%s, %s) = %q, %v: want field n refused (a field holds one kind)", old, other, field, ok)
	}
	env := langtest.CompEnv()
	env.Vars["v"] = w
	env.Vars["str"] = ast.StringType.OrAbsent()
	if _, _, errs := langtest.CheckStmts(t, env, "str = v.start; b = v.kind === undefined"); errs != "" {
		t.Errorf("reading optional fields: %s", errs)
	}
	const refusal = "t.scxml:1:12: 'kind' in v: v is given objects with and without field kind, and setbot holds a missing field as undefined, so it cannot tell them apart; compare the field with undefined instead"
	if _, _, errs := langtest.CheckStmts(t, env, "b = 'kind' in v"); errs != refusal {
		t.Errorf("'kind' in v: errors\n%s\nwant\n%s", errs, refusal)
	}
}

// TestInRange: a read of an array element at an index that may lie past
// the end is refused and listed in Info.PastEnd, unless the code guards
// it (Env.InRange): then it is of the element's type and lowers to a
// chain over the bound's indexes.
func TestInRange(t *testing.T) {
	const src = "a = m[a][1]"
	_, info, errs := langtest.CheckStmts(t, langtest.CompEnv(), src)
	if errs == "" || len(info.PastEnd) != 1 || printer.ExprString(info.PastEnd[0]) != "m[a]" {
		t.Fatalf("CheckBlock(%q) unguarded: errors %q, PastEnd %v; want the read refused and listed", src, errs, info.PastEnd)
	}
	env := langtest.CompEnv()
	env.InRange = func(x *ast.Index) bool { return printer.ExprString(x) == "m[a]" }
	b, info, errs := langtest.CheckStmts(t, env, src)
	if errs != "" || len(info.PastEnd) != 0 {
		t.Fatalf("CheckBlock(%q) guarded: errors %q, PastEnd %v", src, errs, info.PastEnd)
	}
	if got, want := printer.BlockString(lower.Block(b, info)), "a = a == 0 ? m[0][1] : m[1][1];"; got != want {
		t.Errorf("LowerBlock(%q) = %s, want %s", src, got, want)
	}
}
