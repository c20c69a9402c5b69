package lower

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/parser"
	"github.com/setbot/setbot/model/lang/printer"
)

// effectFuncs are functions with effects on globals: set assigns g on
// one branch, with an early return; tune assigns parts of s; both calls
// another such function.
const effectFuncs = `
function set(a) { if (a > 0) { g = a; return true; } return false; }
function tune(f, i) { var old = s.x; s.x = f; s.ys[1].z = i; return old; }
function both(a) { var r = set(a); tune(a, 2); return r; }
`

// inlineBlock inlines the calls of the statements src with in, and
// returns the result printed.
func inlineBlock(t *testing.T, in *Inliner, src string) string {
	t.Helper()
	b, errs := parser.ParseStmts(parser.NewSnippet(in.Fset.AddFile("b.js", []byte(src)), src))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return printer.BlockString(in.Block(b))
}

// TestInlineEffects: a call of a function with effects, as a statement or
// in an expression, becomes the function's body, its parameters and
// locals renamed, each return followed by the statement that uses the
// value (held in a fresh local); the rest of the body runs only where no
// return came first.
func TestInlineEffects(t *testing.T) {
	in := inliner(t, effectFuncs)
	for _, tc := range []struct{ src, want []string }{
		{[]string{"set(x);"}, []string{"var a$1 = x;", "if (a$1 > 0) {", "g = a$1;", "var _call0 = true;", "} else {", "var _call0 = false;"}},
		{[]string{"if (set(x)) { n = 1; }"}, []string{"var set$1 = true;", "if (set$1) {", "var set$1 = false;"}},
		{[]string{"n = tune(3, n) + 1;"}, []string{"var f$1 = 3;", "var i$1 = n;", "var old$1 = s.x;", "s.x = f$1;", "s.ys[1].z = i$1;", "var tune$1 = old$1;", "n = tune$1 + 1;"}},
		{[]string{"var v = both(x); n = v;"}, []string{"if (a$3 > 0) {", "var set$3 = true;", "var r$1 = set$3;", "s.x = f$5;", "var _call-2 = old$5;", "var both$1 = r$1;", "var v = both$1;", "n = v;", "} else {", "var set$3 = false;", "var _call-2 = old$4;", "var v = both$1;", "n = v;"}},
	} {
		in.Errs, in.fresh = nil, 0
		got := inlineBlock(t, in, strings.Join(tc.src, " "))
		if len(in.Errs) > 0 {
			t.Fatalf("%s: %v", tc.src, in.Errs)
		}
		at := 0
		for _, w := range tc.want {
			i := strings.Index(got[at:], w)
			if i < 0 {
				t.Errorf("%s: no %q after offset %d in\n%s", tc.src, w, at, got)
				break
			}
			at += i + len(w)
		}
	}
}

// TestInlineEffectsRefused: where a call with effects cannot run before
// the code that uses its value, or would run in an order ECMAScript does
// not, or recurses, the inliner refuses it at the call.
func TestInlineEffectsRefused(t *testing.T) {
	in := inliner(t, effectFuncs+`
function rec(a) { g = a; if (a > 0) { rec(a - 1); } }
function inLoop(a) { while (a > 0) { g = a; return 1; } return 0; }
function poke(o) { o.x = 2; g = 1; }
`)
	for src, want := range map[string]string{
		"n = x > 0 && set(x);":      "b.js:1:14: call of set, which assigns g (at s.js:2:32), where setbot cannot run it",
		"n = x > 0 ? set(x) : 1;":   "b.js:1:13: call of set, which assigns g (at s.js:2:32), where setbot cannot run it",
		"while (set(x)) { n = 1; }": "b.js:1:8: call of set, which assigns g (at s.js:2:32), where setbot cannot run it",
		"n = g + set(x);":           "b.js:1:9: g is read before the call of set, which assigns it",
		"s.x = tune(1, 2);":         "b.js:1:7: s is read before the call of tune, which assigns it",
		"rec(3);":                   "b.js:1:1: function rec calls itself and assigns g",
		"inLoop(3);":                "s.js:7:22: a return inside a loop of function inLoop, which assigns g",
		"poke(s);":                  "s.js:8:20: function poke writes o.x, a part of its parameter o",
	} {
		in.Errs = nil
		inlineBlock(t, in, src)
		if len(in.Errs) == 0 || !strings.HasPrefix(in.Errs[0].Error(), want) {
			t.Errorf("%s: errors %v, want %s...", src, in.Errs, want)
		}
	}
}

// TestInlineEffectsBounded: declarations of calls in a row, each of a
// function with two returns, copy the rest of the block at each return:
// the inliner stops with an error rather than grow without end.
func TestInlineEffectsBounded(t *testing.T) {
	in := inliner(t, effectFuncs)
	src := strings.Repeat("var v = set(x); ", 40) + "n = v;"
	in.Errs = nil
	inlineBlock(t, in, src)
	if len(in.Errs) != 1 || !strings.Contains(in.Errs[0].Msg, "expand to more than") {
		t.Errorf("errors %v", in.Errs)
	}
}
