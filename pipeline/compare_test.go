package pipeline

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/setbot/setbot/cache"
	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/incremental"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

func loadFile(t *testing.T, path string) *mlm.Machine {
	t.Helper()
	m, err := load.File(context.Background(), path, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCompareCoverageAndCache: Compare's tests are transition coverage's
// unless asked otherwise, as Analyze's; with a cache, a second comparison
// of the same versions builds no tree and gives the same tests and
// findings, and a fresh one builds them again.
func TestCompareCoverageAndCache(t *testing.T) {
	base := loadFile(t, "../examples/triangle.scxml")
	head := loadFile(t, "../engine/incremental/testdata/triangle_t2_action.scxml")
	opts := CompareOptions{Engine: engine.Options{MaxDepth: 6}, Solver: newZ3, Analyses: incremental.CheckOutputs}
	compare := func(o CompareOptions) *incremental.Result {
		t.Helper()
		r, err := Compare(context.Background(), base, head, o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	byDefault := compare(opts)
	paths := opts
	paths.Coverage = vocab.CoveragePath
	if d, p := len(byDefault.HeadTests), len(compare(paths).HeadTests); d >= p {
		t.Errorf("%d head tests by default, %d with path coverage: want transition coverage's fewer", d, p)
	}

	store, err := cache.Open(filepath.Join(t.TempDir(), "c.db"), cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cached := opts
	cached.Cache = store
	first, second := compare(cached), compare(cached)
	if first.BaseCached || first.HeadCached || !second.BaseCached || !second.HeadCached || second.Strategy != vocab.StrategyCached {
		t.Errorf("cached: base %v then %v, head %v then %v, strategy %s then %s",
			first.BaseCached, second.BaseCached, first.HeadCached, second.HeadCached, first.Strategy, second.Strategy)
	}
	if first.Tests != byDefault.Tests || second.Tests != first.Tests || !reflect.DeepEqual(second.Impact, first.Impact) ||
		!reflect.DeepEqual(second.NewlyUnreachable, first.NewlyUnreachable) {
		t.Errorf("tests %+v, %+v from the cache, %+v without; impact %+v, %+v", first.Tests, second.Tests, byDefault.Tests, first.Impact, second.Impact)
	}
	cached.Fresh = true
	if fresh := compare(cached); fresh.BaseCached || fresh.HeadCached || fresh.Strategy != first.Strategy {
		t.Errorf("fresh: base cached %v, head cached %v, strategy %s", fresh.BaseCached, fresh.HeadCached, fresh.Strategy)
	}
}
