package lower

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/langtest"
)

func TestLowerComposite(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a = xs[1]", "a = xs[1];"},
		{"u = xs[a]", "u = a == 0 ? xs[0] : a == 1 ? xs[1] : a == 2 ? xs[2] : 0; _absent_u = a == 0 ? 0 < xs.length ? 0 : 1 : a == 1 ? 1 < xs.length ? 0 : 1 : a == 2 ? 2 < xs.length ? 0 : 1 : 1;"},
		{"u = xs[7]", "u = 0; _absent_u = 1;"},
		{"u = us[1]", "u = us[1]; _absent_u = 1 < us.length ? _absent_us[1] : 1;"},
		{"a = xs.length + o.f", "a = xs.length + o.f;"},
		{"a = m[1][0]", "a = m[1][0];"},
		{"b = os[0].v && _event.data.c.n > 0", "b = os[0].v && _event.data.c.n > 0;"},
		{"u = _event.data.l[0]", "u = _event.data.l[0]; _absent_u = 0 < _event.data.l.length ? 0 : 1;"},
		{"xs = [4, 5, 6]", "xs.length = 3; xs[0] = 4; xs[1] = 5; xs[2] = 6;"},
		{"ys = xs", "ys.length = xs.length; ys[0] = xs[0]; ys[1] = xs[1]; ys[2] = xs[2]; ys[3] = 0;"},
		{"ys = []", "ys.length = 0; ys[0] = 0; ys[1] = 0; ys[2] = 0; ys[3] = 0;"},
		{"us = [1]", "us.length = 1; us[0] = 1; _absent_us[0] = 0; us[1] = 0; _absent_us[1] = 1;"},
		{"xs = [xs[2], xs[1], xs[0]]", "{ int _new_xs.length = 3; int _new_xs[0] = xs[2]; int _new_xs[1] = xs[1]; int _new_xs[2] = xs[0]; xs.length = _new_xs.length; xs[0] = _new_xs[0]; xs[1] = _new_xs[1]; xs[2] = _new_xs[2]; }"},
		{"o = {s: 'x', f: a}", "o.f = a; o.s = 'x';"},
		{"o.f = 2; o['s'] += 'y'; xs[2]++; m[0][1] = 3", "o.f = 2; o.s += 'y'; xs[2]++; m[0][1] = 3;"},
		{"var z = [a, 2]; a = z[1]", "int z.length = 2; int z[0] = a; int z[1] = 2; a = z[1];"},
		{"o = b ? {f: 1, s: ''} : o", "o.f = b ? 1 : o.f; o.s = b ? '' : o.s;"},
		{"raise e(p: [1])", "raise e(p.length: 1, p[0]: 1, p[1]: 0, p[2]: 0);"},
		{"if (xs) { a = 1 }", "if (true) { a = 1; }"},
		{"a = xs.indexOf(a + 1)", "a = 0 < xs.length && xs[0] == a + 1 ? 0 : 1 < xs.length && xs[1] == a + 1 ? 1 : 2 < xs.length && xs[2] == a + 1 ? 2 : -1;"},
		{"b = us.includes(w)", "b = 0 < us.length && (_absent_us[0] == _absent_w && (!(_absent_us[0] == 0) || us[0] == w)) || 1 < us.length && (_absent_us[1] == _absent_w && (!(_absent_us[1] == 0) || us[1] == w));"},
		{"b = us.includes(undefined)", "b = 0 < us.length && (_absent_us[0] == 1 && !(_absent_us[0] == 0)) || 1 < us.length && (_absent_us[1] == 1 && !(_absent_us[1] == 0));"},
		{"for (u, a of xs) { raise e(p: xs) }", "{ int _foreach_index_1 = 0; while (_foreach_index_1 < xs.length) { u = _foreach_index_1 == 0 ? xs[0] : _foreach_index_1 == 1 ? xs[1] : xs[2]; _absent_u = 0; a = _foreach_index_1; " +
			"raise e(p.length: xs.length, p[0]: xs[0], p[1]: xs[1], p[2]: xs[2]); _foreach_index_1 = _foreach_index_1 + 1; } }"},
		{"for (a of xs) { xs = [1, 2, 3] }", "{ int _foreach_array_1.length = xs.length; int _foreach_array_1[0] = xs[0]; int _foreach_array_1[1] = xs[1]; int _foreach_array_1[2] = xs[2]; int _foreach_index_1 = 0; " +
			"while (_foreach_index_1 < _foreach_array_1.length) { a = _foreach_index_1 == 0 ? _foreach_array_1[0] : _foreach_index_1 == 1 ? _foreach_array_1[1] : _foreach_array_1[2]; xs.length = 3; xs[0] = 1; xs[1] = 2; xs[2] = 3; _foreach_index_1 = _foreach_index_1 + 1; } }"},
		// The loop's own item and index: locals declared each time round.
		{"for (let x, i of xs) { a = x * i }", "{ int _foreach_index_1 = 0; while (_foreach_index_1 < xs.length) { int x = _foreach_index_1 == 0 ? xs[0] : _foreach_index_1 == 1 ? xs[1] : xs[2]; int i = _foreach_index_1; " +
			"a = x * i; _foreach_index_1 = _foreach_index_1 + 1; } }"},
		// concat: the lengths summed, each element from the piece that holds it.
		{"ys = xs.concat([a])", "ys.length = xs.length + 1; ys[0] = xs[0]; ys[1] = xs[1]; ys[2] = xs[2]; ys[3] = a;"},
		// A value that may outgrow ys's bound: the array bound is checked first.
		{"ys = ys.concat([a])", "bound array 4 (ys.length + 1 <= 4); { int _new_ys.length = ys.length + 1; " +
			"int _new_ys[0] = ys.length <= 0 ? a : ys[0]; int _new_ys[1] = ys.length <= 1 ? a : ys[1]; int _new_ys[2] = ys.length <= 2 ? a : ys[2]; int _new_ys[3] = ys.length <= 3 ? a : ys[3]; " +
			"ys.length = _new_ys.length; ys[0] = _new_ys[0]; ys[1] = _new_ys[1]; ys[2] = _new_ys[2]; ys[3] = _new_ys[3]; }"},
		// An element at an index that may lie past the end: written within
		// the array, appended at its end, and cut by a bound elsewhere.
		{"ys[a] = 2", "bound index 4 (0 <= a && a <= ys.length); bound array 4 (a < 4); ys.length = a == ys.length ? ys.length + 1 : ys.length; " +
			"ys[0] = a == 0 ? 2 : ys[0]; ys[1] = a == 1 ? 2 : ys[1]; ys[2] = a == 2 ? 2 : ys[2]; ys[3] = a == 3 ? 2 : ys[3];"},
		{"us[1] = w", "bound index 2 (1 <= us.length); bound array 2 (true); us.length = 1 == us.length ? us.length + 1 : us.length; " +
			"us[0] = us[0]; _absent_us[0] = _absent_us[0]; us[1] = w; _absent_us[1] = _absent_w;"},
		// The index reads the length: the parts are computed before any is written.
		{"ys[ys.length] = ys.length", "bound index 4 (0 <= ys.length && ys.length <= ys.length); bound array 4 (ys.length < 4); { int _new_ys.length = ys.length == ys.length ? ys.length + 1 : ys.length; " +
			"int _new_ys[0] = ys.length == 0 ? ys.length : ys[0]; int _new_ys[1] = ys.length == 1 ? ys.length : ys[1]; int _new_ys[2] = ys.length == 2 ? ys.length : ys[2]; int _new_ys[3] = ys.length == 3 ? ys.length : ys[3]; " +
			"ys.length = _new_ys.length; ys[0] = _new_ys[0]; ys[1] = _new_ys[1]; ys[2] = _new_ys[2]; ys[3] = _new_ys[3]; }"},
		// push is read as concat: the same lowering, the same bound.
		{"ys.push(a, 2)", "bound array 4 (ys.length + 2 <= 4); { int _new_ys.length = ys.length + 2; " +
			"int _new_ys[0] = ys.length <= 0 ? 0 - ys.length == 0 ? a : 2 : ys[0]; int _new_ys[1] = ys.length <= 1 ? 1 - ys.length == 0 ? a : 2 : ys[1]; " +
			"int _new_ys[2] = ys.length <= 2 ? 2 - ys.length == 0 ? a : 2 : ys[2]; int _new_ys[3] = ys.length <= 3 ? 3 - ys.length == 0 ? a : 2 : ys[3]; " +
			"ys.length = _new_ys.length; ys[0] = _new_ys[0]; ys[1] = _new_ys[1]; ys[2] = _new_ys[2]; ys[3] = _new_ys[3]; }"},
		{"us = [].concat(us, 1)", "bound array 2 (us.length + 1 <= 2); { int _new_us.length = us.length + 1; " +
			"int _new_us[0] = us.length <= 0 ? 1 : us[0]; int _new__absent_us[0] = us.length <= 0 ? 0 : _absent_us[0]; " +
			"int _new_us[1] = us.length <= 1 ? 1 : us[1]; int _new__absent_us[1] = us.length <= 1 ? 0 : _absent_us[1]; " +
			"us.length = _new_us.length; us[0] = _new_us[0]; _absent_us[0] = _new__absent_us[0]; us[1] = _new_us[1]; _absent_us[1] = _new__absent_us[1]; }"},
		{"for (a of xs; !b) { b = a > 1 }", "{ int _foreach_index_1 = 0; while (_foreach_index_1 < xs.length && !b) { a = _foreach_index_1 == 0 ? xs[0] : _foreach_index_1 == 1 ? xs[1] : xs[2]; b = a > 1; _foreach_index_1 = _foreach_index_1 + 1; } }"},
	}
	for _, tt := range tests {
		b, info, errs := langtest.CheckStmts(t, langtest.CompEnv(), tt.src)
		if errs != "" {
			t.Errorf("CheckBlock(%q): %s", tt.src, errs)
			continue
		}
		if got := printer.BlockString(Block(b, info)); got != tt.want {
			t.Errorf("Block(%q) =\n%s\nwant\n%s", tt.src, got, tt.want)
		}
	}
}

func TestLeaves(t *testing.T) {
	typ, err := ast.ParseType("{a: int[2], b: (bool|undefined)}")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range Leaves(typ) {
		names = append(names, f.Name("v")+":"+f.Type.String())
	}
	if got, want := strings.Join(names, " "), "v.a.length:int[0..2] v.a[0]:int v.a[1]:int v.b:bool _absent_v.b:int[0..2]"; got != want {
		t.Errorf("leaves = %s, want %s", got, want)
	}
}
