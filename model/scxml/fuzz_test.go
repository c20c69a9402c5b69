package scxml_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/lang/ast"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/model/scxml"
	"github.com/setbot/setbot/model/source"
)

// FuzzRead: no input makes the reader or the flattener panic or hang, and
// every error has a position in the document.
func FuzzRead(f *testing.F) {
	// The W3C conformance tests, where present, seed the ECMAScript data
	// model's constructs (they are read from ../shared, never copied here).
	for _, pattern := range []string{"../../examples/*.scxml", "../mlm/testdata/features/*.scxml", "../../../shared/conformance/w3c-ecma/*.scxml"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, errs := scxml.Read(source.NewFileSet(), "fuzz.scxml", src, scxml.Options{MaxBytes: 1 << 16})
		for _, e := range errs {
			if e.Pos.Filename != "fuzz.scxml" {
				t.Fatalf("error without the file name: %v", e)
			}
		}
		if m == nil {
			if len(errs) == 0 {
				t.Fatal("no model and no error")
			}
			return
		}
		mach, err := mlm.Flatten(context.Background(), m, mlm.Options{MaxStates: 200, MaxTransitions: 2000, MaxCombinations: 256})
		if mach == nil && err == nil {
			t.Fatal("no machine and no error")
		}
	})
}

// FuzzReadHostile: inputs deep and wide around the limits of package lang
// (hostile's shapes just within and just past them, and their mutations)
// are read and checked without a crash, each error positioned.
func FuzzReadHostile(f *testing.F) {
	for _, d := range []int{-2, 1} {
		f.Add(hostile.Sum(ast.MaxNesting + d))
		f.Add(hostile.Parens(ast.MaxNesting + d))
		f.Add(hostile.Script(ast.MaxStmts + d))
	}
	f.Add(hostile.Alternatives(12 * ast.MaxNesting))
	f.Add(hostile.Alternatives(1 << 14))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, errs := scxml.Read(source.NewFileSet(), "fuzz.scxml", src, scxml.Options{})
		for _, e := range errs {
			if e.Pos.Filename != "fuzz.scxml" || e.Pos.Line < 1 || e.Pos.Column < 1 {
				t.Fatalf("error without a position: %v", e)
			}
		}
		if m == nil && len(errs) == 0 {
			t.Fatal("no model and no error")
		}
	})
}
