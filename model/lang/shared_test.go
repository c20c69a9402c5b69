package lang_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/source"

	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/langtest"
)

// TestCheckShared: an object or array given to a second place is refused
// where a part of it is written through either place (or one shared with
// them), since ECMAScript shows the write through both and setbot copies;
// whole assignments, new values and writes beside the shared value pass.
func TestCheckShared(t *testing.T) {
	env := langtest.CompEnv()
	env.Vars["p"] = ast.ObjectType([]ast.Field{{Name: "s", Type: ast.StringType}, {Name: "f", Type: ast.IntType}})
	env.Vars["q"] = ast.ObjectType([]ast.Field{{Name: "in", Type: env.Vars["o"]}, {Name: "n", Type: ast.IntType}})
	env.Vars["zs"] = ast.ArrayType(ast.IntType, 3, 3)
	env.Vars["ws"] = ast.ArrayType(ast.IntType, 0, 4)
	env.Vars["it"] = ast.ObjectType([]ast.Field{{Name: "v", Type: ast.BoolType}})
	tests := []struct {
		src  string
		want string // "" for none
	}{
		{"p = o; o.f = 2", "t.scxml:1:3: p = o makes them one object or array"},
		{"p = o; p.s = 'a'", "t.scxml:1:3: p = o makes them one object or array"},
		{"var v = o; v.f = 1", "t.scxml:1:1: v = o makes them one object or array"},
		{"ws = ys; ys.push(1)", "t.scxml:1:4: ws = ys makes them one object or array"},
		{"zs = xs; xs[0] = 5", "t.scxml:1:4: zs = xs makes them one object or array"},
		{"q.in = o; q.in.f++", "t.scxml:1:6: q.in = o makes them one object or array"},
		{"p = o; q.in = p; q.in.f += 1", "t.scxml:1:3: p = o makes them one object or array"},
		{"for (it of os) { it.v = true }", "t.scxml:1:6: it = os[] makes them one object or array"},
		{"for (let e of os) { e.v = true }", "t.scxml:1:10: e = os[] makes them one object or array"},
		{"for (it of os) { it = {v: true} }", ""},
		{"p = o; o = {s: 'b', f: 1}", ""}, // a new value: nothing shared is written
		{"p = o; q.n = 1", ""},
		{"q.in = o; q.n = 3", ""},
		{"zs = xs.concat([]); xs[0] = 5", ""},
		{"p = {s: o.s, f: o.f}; o.f = 2", ""},
	}
	for _, tt := range tests {
		_, info, errs := langtest.CheckStmts(t, env, tt.src)
		if errs != "" {
			t.Errorf("CheckBlock(%q): %s", tt.src, errs)
			continue
		}
		fs := source.NewFileSet()
		fs.AddFile("t.scxml", []byte(tt.src))
		got := lang.CheckShared(fs, []*lang.Info{info}).Error()
		if tt.want == "" && len(lang.CheckShared(fs, []*lang.Info{info})) != 0 || tt.want != "" && !strings.HasPrefix(got, tt.want) {
			t.Errorf("CheckShared(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}
