package engine_test

import (
	"bytes"
	"context"
	"errors"
	"math/rand"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/internal/modelgen"
	"github.com/setbot/setbot/model/load"
)

// TestEncodeRoundTrip checks that a decoded tree is the tree: the same
// dump, the same statistics and bounds, and the same encoding again; and
// that MSE over a decoded base tree builds the same head tree as over the
// original.
func TestEncodeRoundTrip(t *testing.T) {
	paths, _ := filepath.Glob("../examples/*.scxml")
	more, _ := filepath.Glob("testdata/*.scxml")
	paths = append(paths, more...)
	paths = append(paths, "../testdata/bench/lgs.scxml")
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			m := machine(t, path)
			set := explore(t, m, engine.Options{MaxDepth: 6})
			roundTrip(t, set)
		})
	}
	for seed := int64(1); seed <= 20; seed++ {
		src := modelgen.Generate(seed, modelgen.Options{})
		m, err := load.Bytes(context.Background(), "gen.scxml", src, load.Options{})
		if err != nil {
			t.Fatalf("generated model %d: %v", seed, err)
		}
		roundTrip(t, explore(t, m, engine.Options{MaxDepth: 4}))
	}
}

func roundTrip(t *testing.T, set *engine.SET) {
	t.Helper()
	enc, err := set.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	got, err := engine.DecodeSET(set.Machine, enc)
	if err != nil {
		t.Fatal(err)
	}
	if got.Dump() != set.Dump() {
		t.Fatalf("decoded tree differs:\n%s\nwant\n%s", got.Dump(), set.Dump())
	}
	if got.Stats != set.Stats || !reflect.DeepEqual(got.Options, set.Options) || len(got.Bounds) != len(set.Bounds) {
		t.Fatalf("decoded stats %+v options %+v bounds %v, want %+v %+v %v", got.Stats, got.Options, got.Bounds, set.Stats, set.Options, set.Bounds)
	}
	again, err := got.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, enc) {
		t.Fatal("re-encoding the decoded tree differs")
	}
}

func TestDecodeMSEBase(t *testing.T) {
	base := machine(t, "../examples/triangle.scxml")
	head := machine(t, "incremental/testdata/triangle_t2_action.scxml")
	set := explore(t, base, engine.Options{})
	enc, err := set.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := engine.DecodeSET(base, enc)
	if err != nil {
		t.Fatal(err)
	}
	updated := map[string]bool{}
	for _, tr := range head.Transitions {
		if tr.Event == "checkPositiveSides" {
			updated[tr.Key] = true
		}
	}
	want, err := engine.ExploreMSE(head, set, updated, engine.Renames{}, engine.Options{}, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	got, err := engine.ExploreMSE(head, decoded, updated, engine.Renames{}, engine.Options{}, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	if got.Dump() != want.Dump() || got.Stats.Reused != want.Stats.Reused {
		t.Fatalf("MSE over the decoded base differs (reused %d, want %d)", got.Stats.Reused, want.Stats.Reused)
	}
}

func TestDecodeRejects(t *testing.T) {
	tri := machine(t, "../examples/triangle.scxml")
	other := machine(t, "../examples/radio.scxml")
	enc, err := explore(t, tri, engine.Options{}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engine.DecodeSET(other, enc); !errors.Is(err, engine.ErrEncoding) {
		t.Errorf("tree of another machine: err = %v, want ErrEncoding", err)
	}
	// A tree of an earlier format (format 7 wrote every string out) is
	// refused, not misread: the cache's keys do not even look it up.
	older := append([]byte("SET7"), enc[len(engine.EncodingVersion):]...)
	if _, err := engine.DecodeSET(tri, older); !errors.Is(err, engine.ErrEncoding) {
		t.Errorf("tree of format 7: err = %v, want ErrEncoding", err)
	}
	for cut := 0; cut < len(enc); cut += 7 {
		if _, err := engine.DecodeSET(tri, enc[:cut]); !errors.Is(err, engine.ErrEncoding) {
			t.Fatalf("truncated to %d bytes: err = %v", cut, err)
		}
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		bad := append([]byte(nil), enc...)
		bad[rng.Intn(len(bad))] ^= byte(1 + rng.Intn(255))
		_, _ = engine.DecodeSET(tri, bad) // may decode to another tree; must not panic
	}
}

// TestDecodeRefusesIncompleteTrees: the encoding can say that a tree has
// no start edge, no root, or a node without the edge from its parent; no
// tree the engine builds is so, and decoding one made its readers
// dereference nil (found by FuzzDecodeSET).
func TestDecodeRefusesIncompleteTrees(t *testing.T) {
	m := machine(t, "../examples/triangle.scxml")
	for _, tc := range []struct {
		name   string
		damage func(*engine.SET)
	}{
		{"no start edge", func(s *engine.SET) { s.Start = nil }},
		{"no nodes", func(s *engine.SET) { s.Nodes = nil }},
		{"no edge into a node", func(s *engine.SET) { s.Nodes[3].In = nil }},
	} {
		set := explore(t, m, engine.Options{MaxDepth: 2})
		tc.damage(set)
		enc, err := set.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.DecodeSET(m, enc); !errors.Is(err, engine.ErrEncoding) {
			t.Errorf("%s: err = %v, want ErrEncoding", tc.name, err)
		}
	}
}

func TestCancel(t *testing.T) {
	m := machine(t, "../testdata/bench/lgs.scxml")
	done := make(chan struct{})
	close(done)
	if _, err := engine.Explore(m, engine.Options{Cancel: done}, newZ3); !errors.Is(err, engine.ErrCanceled) {
		t.Errorf("Explore with a closed Cancel: err = %v, want ErrCanceled", err)
	}
	base := explore(t, m, engine.Options{MaxDepth: 3})
	if _, err := engine.ExploreMSE(m, base, map[string]bool{}, engine.Renames{}, engine.Options{MaxDepth: 3, Timeout: time.Hour, Cancel: done}, newZ3); !errors.Is(err, engine.ErrCanceled) {
		t.Errorf("ExploreMSE with a closed Cancel: err = %v, want ErrCanceled", err)
	}
}
