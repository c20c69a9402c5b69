package engine_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/setbot/setbot/engine"
	"github.com/setbot/setbot/engine/depend"
	"github.com/setbot/setbot/model/mlm"
)

// The triangle's transitions by the names of Fig. 3 of
// Khalil and Dingel, Incremental symbolic execution, 2015.
const (
	t1  = "S0 setTriangleSides [S0:setTriangleSides>S1] S1_S0"
	t2  = "S1_S0 checkPositiveSides [S1_S0:checkPositiveSides>S1_S1] S1_S1"
	t3  = "S1_S0 checkPositiveSides [S1_S0:checkPositiveSides>S1_S3] S1_S3"
	t5  = "S1_S1 checkIsTriangle [S1_S1:checkIsTriangle>S1_S2] S1_S2"
	t8  = "S1_S2 checkTriangleType [S1_S2:checkTriangleType>S1_S3] S1_S3"
	t10 = "S1_S3 reset [S1:reset>S0] S0"
)

// TestDSEInterest checks that DSE explores fully, with the updated and
// impacted transitions, what they depend on, transitively: on the
// triangle, T5 decides T8, T2 decides T5, and T1 defines what they read.
func TestDSEInterest(t *testing.T) {
	m := machine(t, "../examples/triangle.scxml")
	a := depend.Analyze(m, depend.Options{})
	byKey := make(map[string]*mlm.Transition)
	for _, x := range m.Transitions {
		byKey[x.Key] = x
	}
	for _, tc := range []struct {
		name     string
		updated  []string
		impacted []string
		want     []string
	}{
		{"T8 updated, T1 impacted", []string{t8}, []string{t1}, []string{t1, t2, t5, t8}},
		{"T8 updated", []string{t8}, nil, []string{t1, t2, t5, t8}},
		{"T10 updated", []string{t10}, nil, []string{t10}},
		{"T1 impacted", nil, []string{t1}, []string{t1}},
	} {
		updated := make(map[string]bool)
		for _, k := range tc.updated {
			updated[k] = true
		}
		var impacted []*mlm.Transition
		for _, k := range tc.impacted {
			impacted = append(impacted, byKey[k])
		}
		got := slices.Sorted(maps.Keys(engine.DSEInterest(a, updated, impacted)))
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: DSEInterest = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestDSERepresentatives checks Alg. 3's two modes on T3, which gives three
// symbolic states in the full tree (Example 3 of Khalil and Dingel,
// Incremental symbolic execution, 2015): explored fully when it is of
// interest, by one representative path otherwise.
func TestDSERepresentatives(t *testing.T) {
	m := machine(t, "../examples/triangle.scxml")
	count := func(set *engine.SET) int {
		n := 0
		for _, x := range set.Nodes {
			if x.In != nil && len(x.In.Fired) > 0 && x.In.Fired[0].T.Key == t3 {
				n++
			}
		}
		return n
	}
	if n := count(explore(t, m, engine.Options{})); n != 3 {
		t.Fatalf("the full tree has %d steps through T3, want 3", n)
	}
	for _, tc := range []struct {
		interest map[string]bool
		want     int
	}{
		{map[string]bool{t3: true}, 3},
		{map[string]bool{}, 1},
	} {
		set, err := engine.ExploreDSE(m, tc.interest, engine.Options{}, newZ3)
		if err != nil {
			t.Fatal(err)
		}
		if n := count(set); n != tc.want {
			t.Errorf("interest %v: %d steps through T3, want %d", tc.interest, n, tc.want)
		}
	}
}
