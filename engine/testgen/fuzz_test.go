package testgen_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/testgen"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/vocab"
)

// FuzzDecodeSuite checks that DecodeSuite never panics or hangs, given the
// encoding of a suite of one of a few trees (which picks the tree), damaged
// anyhow. A suite it accepts names nodes of the tree, encodes to bytes that
// decode to the same suite, and can be compared with the tree's machine as
// a cached base suite is.
func FuzzDecodeSuite(f *testing.F) {
	var sets []*engine.SET
	for i, path := range []string{
		"../../examples/triangle.scxml",
		"../../examples/crossing.scxml",
		"../../model/mlm/testdata/features/send.scxml",
		"../../model/mlm/testdata/features/decimals.scxml",
		"../../model/mlm/testdata/features/strings.scxml",
	} {
		m, err := load.File(context.Background(), path, load.Options{})
		if err != nil {
			f.Fatal(err)
		}
		set, err := engine.Explore(m, engine.Options{MaxDepth: 3}, newZ3)
		if err != nil {
			f.Fatal(err)
		}
		sets = append(sets, set)
		for _, coverage := range []vocab.Coverage{vocab.CoveragePath, vocab.CoverageState} {
			tests, err := testgen.Suite(set, coverage, newZ3)
			if err != nil {
				f.Fatal(err)
			}
			enc, err := testgen.EncodeSuite(context.Background(), tests)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), enc)
		}
	}
	for _, s := range []string{`[]`, `null`, `[null]`, `[{"leaf":0}]`, `[{"leaf":-1}]`,
		`[{"id":"t","steps":[{"event":"e","args":{"x":1.5e3,"y":-7,"z":"s","b":true}}],"leaf":0}]`,
		`[{"id":"t","steps":[{"event":"e","outputs":[{"event":"o","args":{"n":0.1}}]}],"leaf":0}]`} {
		f.Add(uint8(0), []byte(s))
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		set := sets[int(which)%len(sets)]
		got, err := testgen.DecodeSuite(context.Background(), set, data)
		if err != nil {
			return
		}
		for _, tc := range got {
			if tc.Leaf == nil || tc.Leaf != set.Nodes[tc.Leaf.ID] {
				t.Fatalf("test %s names no node of the tree", tc.ID)
			}
		}
		enc, err := testgen.EncodeSuite(context.Background(), got)
		if err != nil {
			t.Fatalf("encoding a decoded suite: %v", err)
		}
		again, err := testgen.DecodeSuite(context.Background(), set, enc)
		if err != nil {
			t.Fatalf("decoding a decoded suite's encoding: %v\n%s", err, enc)
		}
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("the suite changed when encoded again:\n%s", enc)
		}
		_, _ = testgen.Compare(context.Background(), got, nil, set)
	})
}
