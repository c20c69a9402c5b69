package lower

import (
	"testing"

	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/langtest"
)

// A call statement of a script function evaluates it; one of a function
// the model does not define is an output to the host, whose parameters
// are the arguments.
func TestInlineCallStatements(t *testing.T) {
	b, errs := langtest.ParseStmts("function f(a) { return a + 1; } f(2); onLightOff(x, 'on'); Math.abs(x); String(x)")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	in := &Inliner{Funcs: map[string]*ast.FuncDecl{"f": b.Stmts[0].(*ast.FuncDecl)}}
	got := printer.BlockString(in.Block(&ast.Block{Stmts: b.Stmts[1:]}))
	want := `var _call32 = 2 + 1; send onLightOff(arg0: x, arg1: 'on') to "#_host"; var _call59 = x < 0 ? -x : x; var _call72 = String(x);`
	if got != want || len(in.Errs) > 0 {
		t.Errorf("inlined: %s %v\nwant %s", got, in.Errs, want)
	}
}
