package engine_test

import (
	"errors"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/model/mlm"
)

// fuzzModels are the models whose trees seed the decoders' fuzz targets:
// inputs and parameters, timers, a closed system, outputs, decimals and
// strings in the term table.
var fuzzModels = []string{
	"../examples/triangle.scxml",
	"../examples/crossing.scxml",
	"testdata/twoticks.scxml",
	"../model/mlm/testdata/features/send.scxml",
	"../model/mlm/testdata/features/decimals.scxml",
	"../model/mlm/testdata/features/strings.scxml",
}

// FuzzDecodeSET checks that DecodeSET never panics or hangs and that every
// error wraps ErrEncoding, given the encoding of a tree of the machine it
// is decoded for (which picks one of fuzzModels), damaged anyhow. A tree
// it accepts is a tree: it dumps, and encodes to bytes that decode to the
// same tree.
func FuzzDecodeSET(f *testing.F) {
	var machines []*mlm.Machine
	for i, path := range fuzzModels {
		m := machine(f, path)
		machines = append(machines, m)
		for _, depth := range []int{1, 3} {
			enc, err := explore(f, m, engine.Options{MaxDepth: depth}).MarshalBinary()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), enc)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		m := machines[int(which)%len(machines)]
		set, err := engine.DecodeSET(m, data)
		if err != nil {
			if !errors.Is(err, engine.ErrEncoding) {
				t.Fatalf("error %q does not wrap ErrEncoding", err)
			}
			return
		}
		dump := set.Dump()
		set.Reachability()
		enc, err := set.MarshalBinary()
		if err != nil {
			t.Fatalf("encoding a decoded tree: %v", err)
		}
		again, err := engine.DecodeSET(m, enc)
		if err != nil {
			t.Fatalf("decoding a decoded tree's encoding: %v", err)
		}
		if again.Dump() != dump {
			t.Fatalf("the tree changed when encoded again:\n%s\nwant\n%s", again.Dump(), dump)
		}
	})
}
