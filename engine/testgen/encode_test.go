package testgen_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/solver"
	"github.com/setbot/setbot/solver/z3"
	"github.com/setbot/setbot/vocab"
)

func TestSuiteRoundTrip(t *testing.T) {
	newZ3 := func(tab *solver.Table) (solver.Solver, error) { return z3.New(tab) }
	for _, path := range []string{"../../examples/triangle.scxml", "../../examples/radio.scxml", "../../examples/crossing.scxml", "../../model/mlm/testdata/features/decimals.scxml"} {
		m, err := load.File(context.Background(), path, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		set, err := engine.Explore(m, engine.Options{MaxDepth: 5}, newZ3)
		if err != nil {
			t.Fatal(err)
		}
		tests, err := testgen.Suite(set, vocab.CoveragePath, newZ3)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := testgen.EncodeSuite(context.Background(), tests)
		if err != nil {
			t.Fatal(err)
		}
		blob, err := set.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		decodedSet, err := engine.DecodeSET(m, blob)
		if err != nil {
			t.Fatal(err)
		}
		got, err := testgen.DecodeSuite(context.Background(), decodedSet, enc)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(tests) {
			t.Fatalf("%s: %d tests decoded, want %d", path, len(got), len(tests))
		}
		for i := range got {
			if got[i].Leaf.ID != tests[i].Leaf.ID {
				t.Fatalf("%s: test %s leaf %d, want %d", path, got[i].ID, got[i].Leaf.ID, tests[i].Leaf.ID)
			}
			g, w := *got[i], *tests[i]
			g.Leaf, w.Leaf = nil, nil
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: test %s differs after decoding:\n%+v\nwant\n%+v", path, w.ID, g, w)
			}
		}
		// The delta of a suite against itself, one side decoded, keeps every test.
		d, err := testgen.Compare(context.Background(), got, tests, set)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Retained) != len(tests) {
			t.Errorf("%s: %d of %d tests retained against their decoded selves", path, len(d.Retained), len(tests))
		}
	}
	if _, err := testgen.DecodeSuite(context.Background(), &engine.SET{}, []byte(`[{"id":"x","leaf":3}]`)); err == nil {
		t.Error("a test naming no node was accepted")
	}
	if _, err := testgen.DecodeSuite(context.Background(), &engine.SET{}, []byte(`{`)); err == nil {
		t.Error("broken JSON was accepted")
	}
}
