package lower

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/langtest"
	"github.com/setbot/setbot/model/lang/printer"
)

// TestLowerDict: an object used as a dictionary is its size, keys and
// values; a read is a chain over the entries, undefined where none has
// the key; a write replaces the entry with the key or adds one at the
// size, and meets the keys bound where the dictionary is full; a number
// key is its digits, as ECMAScript makes every key a string.
func TestLowerDict(t *testing.T) {
	env := langtest.LowerEnv()
	env.Vars["d"] = ast.DictType(ast.IntType)
	tests := []struct {
		src  string
		want []string
	}{
		{"u = d[s]", []string{"u = 0 < d.size && d.keys[0] == s ? d.values[0] : 1 < d.size && d.keys[1] == s ? d.values[1] :",
			"_absent_u = 0 < d.size && d.keys[0] == s ? 0 :", ": 7 < d.size && d.keys[7] == s ? 0 : 1;"}},
		{"d[s] = a", []string{"string _key_1 = s; int _val_1 = a; if (0 < d.size && d.keys[0] == _key_1) { d.values[0] = _val_1; }",
			"else if (d.size == 0) { d.keys[0] = _key_1; d.values[0] = _val_1; d.size = 1; }",
			"else if (d.size == 7) { d.keys[7] = _key_1; d.values[7] = _val_1; d.size = 8; } else bound keys 8 (false); }"}},
		{"d[s] += 2", []string{"if (0 < d.size && d.keys[0] == _key_1) { d.values[0] += _val_1; }", "d.values[0] = parseInt('undefined');"}},
		{"d = {}", []string{"d.size = 0; d.keys[0] = ''; d.values[0] = 0;"}},
		{"d = {x: 4}", []string{"d.size = 1; d.keys[0] = 'x'; d.values[0] = 4; d.keys[1] = '';"}},
		{"b = d[a] == undefined", []string{"d.keys[0] == (a >= 0 ? String(a) : '-' + String(-a))"}},
	}
	for _, tt := range tests {
		b, info, errs := langtest.CheckStmts(t, env, tt.src)
		if errs != "" {
			t.Errorf("CheckBlock(%q): %s", tt.src, errs)
			continue
		}
		got := printer.BlockString(Block(b, info))
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("Block(%q) =\n%s\nwant it to hold\n%s", tt.src, got, w)
			}
		}
	}
	refused := []struct{ src, want string }{
		{"d[s]++", "++ on a value of a dictionary"},
		{"a = d.f", "d is an object used as a dictionary"},
		{"d[1.5] = 2", "1.5 as a key of d is not modelled"},
	}
	for _, tt := range refused {
		if _, _, errs := langtest.CheckStmts(t, env, tt.src); !strings.Contains(errs, tt.want) {
			t.Errorf("CheckBlock(%q) = %q, want %q", tt.src, errs, tt.want)
		}
	}
}
