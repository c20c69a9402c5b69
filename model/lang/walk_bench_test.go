package lang_test

// Benchmarks of the walker's users on one block of about 1,500 nodes;
// compare them as ratios of one run (go test -run X -bench Walk).

import (
	"strings"
	"testing"

	"github.com/setbot/setbot/model/lang/ast"

	"github.com/setbot/setbot/model/lang/printer"

	"github.com/setbot/setbot/model/lang/langtest"
)

func benchBlock(b *testing.B) *ast.Block {
	src := strings.Repeat("if (a > 0 && b < c) { x = x + 1; raise e(p: a * 2, q: 'z') } else { for (int i = 0; i < 3; i++) { y += i } } send f(v: [1, 2, a]) after '1s'; ", 50)
	blk, errs := langtest.ParseStmts(src)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	return blk
}

func BenchmarkWalkEqual(b *testing.B) {
	x, y := benchBlock(b), benchBlock(b)
	for b.Loop() {
		if !ast.Equal(x, y) {
			b.Fatal("unequal")
		}
	}
}

func BenchmarkWalkInspect(b *testing.B) {
	x := benchBlock(b)
	for b.Loop() {
		n := 0
		ast.Inspect(x, func(ast.Node) bool { n++; return true })
	}
}

func BenchmarkWalkRewrite(b *testing.B) {
	x := benchBlock(b)
	for b.Loop() {
		ast.RewriteBlock(x, func(e ast.Expr) ast.Expr { return e })
	}
}

func BenchmarkWalkPrint(b *testing.B) {
	x := benchBlock(b)
	for b.Loop() {
		printer.BlockString(x)
	}
}

func BenchmarkWalkKey(b *testing.B) {
	x := benchBlock(b)
	for b.Loop() {
		ast.Key(x)
	}
}
