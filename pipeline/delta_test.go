package pipeline

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// TestHeadTreeStoredAsDelta checks the cache's deltas: a tree MSE built
// from a tree stored whole is stored as a delta against it, and read back
// as the tree, which is then stored whole in its place (so that a tree MSE
// builds from it is a delta against a whole tree, never a chain); and a
// delta whose base is gone is a miss.
func TestHeadTreeStoredAsDelta(t *testing.T) {
	ctx := context.Background()
	open := func() *cache.Store {
		store, err := cache.Open(filepath.Join(t.TempDir(), "c.db"), cache.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		return store
	}
	machine := func(path string) *mlm.Machine {
		m, err := load.File(ctx, path, load.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	eopts := engine.Options{MaxDepth: 6}.WithDefaults()
	mse := func(base *engine.SET, m *mlm.Machine) *engine.SET {
		d := diffmap.Compute(base.Machine.Source, m.Source, base.Machine, m)
		set, err := incremental.Build(vocab.StrategyMSE, m, base, d, nil, incremental.Request{Engine: eopts, Solver: newZ3})
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	store := open()
	run := func() *cacheTrees {
		return &cacheTrees{r: &runner{ctx: ctx, opts: Options{Cache: store}}, eopts: eopts}
	}
	old, cur := machine("../testdata/bench/aqs.scxml"), machine("../testdata/versions/aqs/k_guard_changed.scxml")
	base, err := engine.Explore(old, eopts, newZ3)
	if err != nil {
		t.Fatal(err)
	}
	trees := run()
	trees.KeepTree(old, base, nil)
	head := mse(base, cur)
	trees.KeepTree(cur, head, nil)
	stored, ok, err := store.Get(ctx, kindSET, trees.key(cur))
	if err != nil || !ok {
		t.Fatalf("the head tree was not stored (%v)", err)
	}
	if key, ok := engine.DeltaOf(stored); !ok || key != trees.key(old) {
		t.Fatalf("the head tree is not stored as a delta against the base's key (%q, %v)", key, ok)
	}
	want, err := head.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// A later run reads it back as the tree, stored whole since; a tree
	// MSE builds from it is a delta against it.
	later := run()
	got, _ := later.Tree(cur)
	if got == nil {
		t.Fatal("the delta was not read back")
	}
	if enc, err := got.MarshalBinary(); err != nil || !bytes.Equal(enc, want) {
		t.Fatalf("the tree read from the delta differs (%v)", err)
	}
	if data, _, _ := store.Get(ctx, kindSET, trees.key(cur)); !bytes.Equal(data, want) {
		t.Error("the tree read from a delta was not stored whole in its place")
	}
	back := mse(got, old)
	later.KeepTree(old, back, nil)
	if data, _, _ := store.Get(ctx, kindSET, later.key(old)); data == nil {
		t.Fatal("the tree built from it was not stored")
	} else if key, ok := engine.DeltaOf(data); !ok || key != trees.key(cur) {
		t.Errorf("the tree built from it is not a delta against it (%q, %v)", key, ok)
	} else if set, _ := run().Tree(old); set == nil {
		t.Error("the delta against the tree stored whole was not read back")
	} else if enc, _ := set.MarshalBinary(); !bytes.Equal(enc, mustMarshal(t, back)) {
		t.Error("the tree read from the second delta differs")
	}
	// Without its base, the delta is a miss.
	store = open()
	if err := store.Put(ctx, kindSET, trees.key(cur), stored); err != nil {
		t.Fatal(err)
	}
	if set, _ := run().Tree(cur); set != nil {
		t.Error("a delta without its base was read")
	}
}

func mustMarshal(t *testing.T, set *engine.SET) []byte {
	t.Helper()
	data, err := set.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return data
}
