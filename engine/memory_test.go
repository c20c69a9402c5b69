package engine_test

import (
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/internal/hostile"
	"github.com/setbot/setbot/model/load"
	"github.com/setbot/setbot/model/mlm"
	"github.com/setbot/setbot/vocab"
)

// counter is hostile.Counter's machine: a tree as large as its bounds.
func counter(t *testing.T) *mlm.Machine {
	t.Helper()
	m, err := load.Bytes(t.Context(), "counter.scxml", hostile.Counter(), load.Options{})
	if err != nil {
		t.Fatalf("loading the counter: %v", err)
	}
	return m
}

// meter is a heap that reads under the budget the first under times it is
// read and over it after: the tree it cuts does not depend on the machine
// the test runs on.
func meter(budget int64, under int) (heap func() int64, reads *int) {
	reads = new(int)
	return func() int64 {
		*reads++
		if *reads <= under {
			return budget / 2
		}
		return budget + 1
	}, reads
}

// TestMemoryBudgetCutsTheTree: a heap beyond the budget stops the
// exploration where the states bound would, the unexpanded rest of the
// tree cut by the memory bound and reported with the budget as its limit.
func TestMemoryBudgetCutsTheTree(t *testing.T) {
	const budget = 64 << 20
	m := counter(t)
	heap, reads := meter(budget, 2)
	set := explore(t, m, engine.Options{MaxDepth: 40, MaxStates: 1 << 30, MaxMemory: budget, Heap: heap})
	if *reads != 3 {
		t.Errorf("the heap was read %d times, want 3 (every %d states until it is over)", *reads, engine.MemoryCheckEvery)
	}
	const wantExpanded = 3*engine.MemoryCheckEvery - 1 // the third reading stops the 3072nd expansion
	if len(set.Bounds) != 1 || set.Bounds[0].Bound != vocab.BoundMemory || set.Bounds[0].Limit != budget {
		t.Fatalf("bounds %+v, want only the memory bound with limit %d", set.Bounds, budget)
	}
	cut, expanded := 0, 0
	for _, n := range set.Nodes {
		switch {
		case n.Cut == vocab.BoundMemory:
			cut++
			if len(n.Children) > 0 {
				t.Errorf("node %d has children and is cut by memory", n.ID)
			}
		case n.Cut != "":
			t.Errorf("node %d cut by %s, want memory or nothing", n.ID, n.Cut)
		case len(n.Children) > 0:
			expanded++
		}
	}
	if expanded != wantExpanded || cut != set.Bounds[0].Count || cut == 0 {
		t.Errorf("%d states expanded, %d cut (bound counts %d); want %d expanded and the rest cut",
			expanded, cut, set.Bounds[0].Count, wantExpanded)
	}

	// Under the budget, the budget changes nothing.
	whole := explore(t, m, engine.Options{MaxDepth: 8})
	heap, _ = meter(budget, 1<<30)
	within := explore(t, m, engine.Options{MaxDepth: 8, MaxMemory: budget, Heap: heap})
	if whole.Dump() != within.Dump() || len(within.Bounds) != len(whole.Bounds) {
		t.Errorf("a budget never reached changed the tree: %d states with it, %d without", within.Stats.States, whole.Stats.States)
	}
}

// TestMemoryBudgetReadsTheHeap: without a meter the process's heap is
// read, and a budget below what the process holds already stops the
// exploration at the first reading; a tree too small to read it is whole.
func TestMemoryBudgetReadsTheHeap(t *testing.T) {
	if engine.HeapInUse() <= 0 {
		t.Fatal("the process's heap reads 0 bytes")
	}
	set := explore(t, counter(t), engine.Options{MaxDepth: 40, MaxStates: 1 << 30, MaxMemory: 1})
	if len(set.Bounds) != 1 || set.Bounds[0].Bound != vocab.BoundMemory || set.Stats.States <= engine.MemoryCheckEvery {
		t.Errorf("%d states, bounds %+v; want the memory bound to cut the tree at the first reading", set.Stats.States, set.Bounds)
	}
	small := explore(t, counter(t), engine.Options{MaxDepth: 6, MaxMemory: 1})
	if len(small.Bounds) != 1 || small.Bounds[0].Bound != vocab.BoundDepth {
		t.Errorf("a tree of %d states was cut by %+v, want the depth bound alone", small.Stats.States, small.Bounds)
	}
}
