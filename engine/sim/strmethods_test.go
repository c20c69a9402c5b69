package sim_test

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/engine/sim"
	"github.com/setbot/setbot/model/lang"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/lower"
	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/source"
)

// lowered parses, checks and lowers text over the strings s and p and the
// ints i and j.
func lowered(t *testing.T, text string) ast.Expr {
	t.Helper()
	fset := source.NewFileSet()
	file := fset.AddFile("expr", []byte(text))
	e, errs := parser.ParseExpr(parser.NewSnippet(file, text))
	if len(errs) > 0 {
		t.Fatalf("%s: %v", text, errs[0].Msg)
	}
	vars := map[string]ast.Type{"s": ast.StringType, "p": ast.StringType, "i": ast.IntType, "j": ast.IntType}
	info, errs := lang.CheckExpr(&lang.Env{Vars: vars}, fset, e, ast.String)
	if len(errs) > 0 {
		t.Fatalf("%s: %v", text, errs[0].Msg)
	}
	return lower.Expr(e, info, false)
}

// substr is String.prototype.substr as ECMAScript's Annex B defines it.
func substr(s string, start int, length *int) string {
	size := len(s)
	if start < 0 {
		start = max(size+start, 0)
	}
	n := size - start
	if length != nil {
		n = min(max(*length, 0), size-start)
	}
	if n <= 0 {
		return ""
	}
	return s[start : start+n]
}

// replace is String.prototype.replace of a string pattern, with
// GetSubstitution's $$, $&, $` and $'.
func replace(s, p, r string) string {
	at := strings.Index(s, p)
	if at < 0 {
		return s
	}
	var b strings.Builder
	for k := 0; k < len(r); k++ {
		if r[k] != '$' || k+1 == len(r) {
			b.WriteByte(r[k])
			continue
		}
		switch r[k+1] {
		case '$':
			b.WriteByte('$')
		case '&':
			b.WriteString(p)
		case '`':
			b.WriteString(s[:at])
		case '\'':
			b.WriteString(s[at+len(p):])
		default:
			b.WriteByte('$')
			continue
		}
		k++
	}
	return s[:at] + b.String() + s[at+len(p):]
}

// TestSubstrAndReplace runs the lowering of substr and replace in the
// simulator over every small start, length and pattern, against the
// ECMAScript definitions above.
func TestSubstrAndReplace(t *testing.T) {
	const text = "abcab"
	run := func(e ast.Expr, vars map[string]sim.Value) string {
		x := &sim.Executor{Vars: vars}
		v, err := x.Eval(e)
		if err != nil {
			t.Fatal(err)
		}
		return v.Str
	}
	two, one := lowered(t, "s.substr(i, j)"), lowered(t, "s.substr(i)")
	for i := -7; i <= 7; i++ {
		for j := -2; j <= 7; j++ {
			vars := map[string]sim.Value{"s": sim.StringValue(text), "i": sim.IntValue(int64(i)), "j": sim.IntValue(int64(j))}
			if got, want := run(two, vars), substr(text, i, &j); got != want {
				t.Errorf("'%s'.substr(%d, %d) = %q, want %q", text, i, j, got, want)
			}
			if got, want := run(one, vars), substr(text, i, nil); got != want {
				t.Errorf("'%s'.substr(%d) = %q, want %q", text, i, got, want)
			}
		}
	}
	for _, r := range []string{"X", "", "[$&|$`|$'|$$|$x|$]", "$$&", "$"} {
		e := lowered(t, "s.replace(p, \""+r+"\")")
		for _, p := range []string{"", "a", "b", "ab", "ca", "z", "abcab", "abcabc"} {
			vars := map[string]sim.Value{"s": sim.StringValue(text), "p": sim.StringValue(p)}
			if got, want := run(e, vars), replace(text, p, r); got != want {
				t.Errorf("'%s'.replace('%s', '%s') = %q, want %q", text, p, r, got, want)
			}
		}
	}
}
