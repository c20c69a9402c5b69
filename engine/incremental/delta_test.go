package incremental_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/vocab"
)

// TestDeltaRoundTrip checks that a tree MSE built, stored as a delta
// against its base tree's encoding, decodes to the tree: the same dump and
// the same whole encoding, byte for byte, on every version of the
// benchmark models; and that the delta is smaller.
func TestDeltaRoundTrip(t *testing.T) {
	versions, _ := filepath.Glob("../../testdata/versions/*/*.scxml")
	deltas := 0
	for _, path := range versions {
		model := filepath.Base(filepath.Dir(path))
		t.Run(model+"/"+filepath.Base(path), func(t *testing.T) {
			o := loadFile(t, "../../testdata/bench/"+model+".scxml")
			n := loadFile(t, path)
			opts := engine.Options{MaxDepth: 6}
			base, err := engine.Explore(o, opts, newZ3)
			if err != nil {
				t.Fatal(err)
			}
			d := diffmap.Compute(o.Source, n.Source, o, n)
			head, err := incremental.Build(vocab.StrategyMSE, n, base, d, nil, incremental.Request{Engine: opts, Solver: newZ3})
			if err != nil {
				t.Fatal(err)
			}
			whole, err := head.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if head.DeltaBase() == nil {
				if _, err := head.MarshalDelta("base"); err == nil {
					t.Fatal("a delta of a tree with no delta base")
				}
				return
			}
			deltas++
			baseEnc, err := base.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			delta, err := head.MarshalDelta("the base's key")
			if err != nil {
				t.Fatal(err)
			}
			if key, ok := engine.DeltaOf(delta); !ok || key != "the base's key" {
				t.Fatalf("DeltaOf = %q, %v", key, ok)
			}
			if _, ok := engine.DeltaOf(whole); ok {
				t.Fatal("a whole tree read as a delta")
			}
			// A copy takes a few bytes where the node whole takes tens:
			// a delta of a tree MSE copied nearly all of is at most half.
			if 2*len(delta) >= len(whole) && 10*head.Stats.Reused > 9*head.Stats.States {
				t.Errorf("the delta takes %d bytes, the whole tree %d, with %d of %d states copied", len(delta), len(whole), head.Stats.Reused, head.Stats.States)
			}
			if len(delta) >= len(whole) {
				t.Errorf("the delta takes %d bytes, the whole tree %d", len(delta), len(whole))
			}
			got, err := engine.DecodeDelta(n, delta, baseEnc)
			if err != nil {
				t.Fatal(err)
			}
			again, err := got.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(again, whole) || got.Dump() != head.Dump() {
				t.Fatal("the tree decoded from the delta differs from the tree")
			}
			// Neither encoding is the other's kind, and the delta needs
			// its base whole.
			if _, err := engine.DecodeSET(n, delta); !errors.Is(err, engine.ErrEncoding) {
				t.Fatalf("DecodeSET of a delta: %v", err)
			}
			if _, err := engine.DecodeDelta(n, whole, baseEnc); !errors.Is(err, engine.ErrEncoding) {
				t.Fatalf("DecodeDelta of a whole tree: %v", err)
			}
			if _, err := engine.DecodeDelta(n, delta, delta); !errors.Is(err, engine.ErrEncoding) {
				t.Fatalf("DecodeDelta against a delta: %v", err)
			}
			if _, err := engine.DecodeDelta(n, delta, whole); o.Hash != n.Hash && !errors.Is(err, engine.ErrEncoding) {
				t.Fatalf("DecodeDelta against another tree: %v", err)
			}
			for _, cut := range []int{len(delta) / 3, len(delta) - 1} {
				if _, err := engine.DecodeDelta(n, delta[:cut], baseEnc); !errors.Is(err, engine.ErrEncoding) {
					t.Fatalf("DecodeDelta of a delta cut at %d: %v", cut, err)
				}
			}
		})
	}
	if deltas < len(versions)/2 {
		t.Errorf("%d of %d versions' trees stored as deltas", deltas, len(versions))
	}
}
