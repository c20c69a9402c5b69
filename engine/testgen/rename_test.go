package testgen_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/setbot/setbot/diffmap"
	"github.com/setbot/setbot/engine/testgen"
)

// TestCompareRenamed renames the four children of the triangle's S1: the
// base tests, named as the head names them, keep their identity and are
// all retained, with the head's keys and configurations; none is new.
// Compared as the base names them, every test through a renamed state
// would be obsolete and new.
func TestCompareRenamed(t *testing.T) {
	src, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	renames := map[string]string{"S1_S0": "Positive", "S1_S1": "Triangle", "S1_S2": "Kind", "S1_S3": "Done"}
	head := string(src)
	for from, to := range renames {
		head = strings.ReplaceAll(head, `"`+from+`"`, `"`+to+`"`)
	}
	bm, _, bt := suiteOf(t, "base.scxml", src, 6)
	hm, hset, ht := suiteOf(t, "head.scxml", []byte(head), 6)
	d := diffmap.Compute(bm.Source, hm.Source, bm, hm)
	if len(d.Changes) != 4 || len(d.Updated) != 0 || d.RootUpdated {
		t.Fatalf("the rename is %+v, updated %v: want four state_renamed and nothing updated", d.Changes, d.Updated)
	}

	plain, err := testgen.Compare(bt, ht, hset)
	if err != nil {
		t.Fatal(err)
	}
	rekeyed := func(b *testgen.Test) bool { // through a renamed state
		return slices.ContainsFunc(b.Steps, func(st testgen.Step) bool {
			return slices.ContainsFunc(st.Fired, func(f testgen.Fired) bool { return d.Key(f.Key) != f.Key })
		})
	}
	through := 0
	for _, b := range bt {
		if rekeyed(b) {
			through++
		}
	}
	if through == 0 || len(plain.Obsolete) != through {
		t.Errorf("compared as the base names them: %d obsolete, want the %d tests through renamed states", len(plain.Obsolete), through)
	}

	renamed := testgen.Renamed(bt, d.Key, d.State)
	delta, err := testgen.Compare(renamed, ht, hset)
	if err != nil {
		t.Fatal(err)
	}
	checkDelta(t, renamed, ht, delta, hm)
	if len(delta.Retained) != len(bt) || len(delta.New) != 0 {
		t.Errorf("%d of %d tests retained, %d changed, %d obsolete, %d new: want all retained", len(delta.Retained), len(bt),
			len(delta.Changed), len(delta.Obsolete), len(delta.New))
	}
	for i, r := range delta.Retained {
		for _, st := range r.Steps {
			for _, id := range st.Config {
				if renames[id] != "" {
					t.Errorf("retained test %s names %s, which the head renamed", r.ID, id)
				}
			}
		}
		if bt[i].ID == r.ID && rekeyed(bt[i]) {
			t.Errorf("test %s through a renamed state kept the base's ID", r.ID)
		}
	}
}
