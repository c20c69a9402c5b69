package scxml_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// maxAllocRatio is what reading a model may allocate, in all, per byte of
// its file: reading stays proportional to what a pull request sends.
const maxAllocRatio = 50

// readAlloc reads src as h.scxml and returns its errors and the bytes the
// reading allocated.
func readAlloc(src []byte) (source.ErrorList, uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, errs := scxml.Read(source.NewFileSet(), "h.scxml", src, scxml.Options{})
	runtime.ReadMemStats(&after)
	return errs, after.TotalAlloc - before.TotalAlloc
}

// The hostile shapes at the size that crashed or exhausted the reader:
// each is refused with a positioned error, within the allocation bound.
func TestHostileRefused(t *testing.T) {
	deep := fmt.Sprintf("expression nested more than %d deep", ast.MaxNesting)
	tests := []struct {
		name string
		src  []byte
		want string
	}{
		// The condition starts at column 33 of line 5; an operator chain
		// is reported at its start, parentheses where they open too many.
		{"sum of 1.2 MB", hostile.Sum(300000), "h.scxml:5:33: " + deep},
		{"expression of 0.8 MB", hostile.Sum(200000), "h.scxml:5:33: " + deep},
		{"alternatives of 1 MB", hostile.Alternatives(1 << 20), "h.scxml:5:33: " + deep},
		{"parentheses 300,000 deep", hostile.Parens(300000), fmt.Sprintf("h.scxml:5:%d: %s", 33+ast.MaxNesting, deep)},
		// The script's first statement is on line 6.
		{"script of 20,000 statements", hostile.Script(20000),
			fmt.Sprintf("h.scxml:%d:1: more than %d statements in one script: split it between transitions or states", 6+ast.MaxStmts, ast.MaxStmts)},
	}
	for _, tt := range tests {
		errs, alloc := readAlloc(tt.src)
		if len(errs) != 1 || errs[0].Error() != tt.want {
			t.Errorf("%s: errors %v, want %s", tt.name, errs, tt.want)
		}
		if alloc > maxAllocRatio*uint64(len(tt.src)) {
			t.Errorf("%s: reading %d bytes allocated %d, more than %d times as much", tt.name, len(tt.src), alloc, maxAllocRatio)
		}
		t.Logf("%s: %d bytes, %d allocated (%.1fx)", tt.name, len(tt.src), alloc, float64(alloc)/float64(len(tt.src)))
	}
}

// largestAccepted returns the largest n in [lo, hi) for which gen(n)
// reads without error, where gen(lo) does and gen(hi) does not.
func largestAccepted(t *testing.T, gen func(int) []byte, lo, hi int) int {
	t.Helper()
	ok := func(n int) bool {
		_, errs := scxml.Read(source.NewFileSet(), "h.scxml", gen(n), scxml.Options{})
		return len(errs) == 0
	}
	if !ok(lo) || ok(hi) {
		t.Fatalf("want %d accepted and %d refused", lo, hi)
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// The hostile shapes at the largest size the limits accept read without
// error, and what reading them allocates grows in proportion to their
// size: at most maxGrowth times as much for twice the size.
func TestHostileLargestAccepted(t *testing.T) {
	const maxGrowth = 2.5
	tests := []struct {
		name    string
		gen     func(int) []byte
		lo, hi  int
		largest int // what the limits make the largest, where it is exact
	}{
		{"sum", hostile.Sum, 1, 300000, ast.MaxNesting - 2},
		{"parentheses", hostile.Parens, 1, 300000, ast.MaxNesting - 1},
		{"alternatives", hostile.Alternatives, 10, 1 << 20, 0},
		{"script", hostile.Script, 1, 20000, ast.MaxStmts},
	}
	for _, tt := range tests {
		n := largestAccepted(t, tt.gen, tt.lo, tt.hi)
		if tt.largest != 0 && n != tt.largest {
			t.Errorf("%s: largest accepted %d, want %d", tt.name, n, tt.largest)
		}
		var allocs [2]uint64
		for i, size := range []int{n / 2, n} {
			src := tt.gen(size)
			errs, alloc := readAlloc(src)
			if len(errs) > 0 {
				t.Fatalf("%s(%d): %v", tt.name, size, errs)
			}
			allocs[i] = alloc
			t.Logf("%s(%d): %d bytes, %d allocated (%.1fx)", tt.name, size, len(src), alloc, float64(alloc)/float64(len(src)))
		}
		if g := float64(allocs[1]) / float64(allocs[0]); g > maxGrowth {
			t.Errorf("%s: reading %d allocates %.1f times as much as reading %d", tt.name, n, g, n/2)
		}
	}
}
