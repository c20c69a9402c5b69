package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// points lists the integer points of z within [0, max]^timers.
func points(z *zone, max int64) [][]int64 {
	var out [][]int64
	k := z.n - 1
	p := make([]int64, k)
	var walk func(i int)
	walk = func(i int) {
		if i == k {
			if z.contains(p) {
				out = append(out, slices.Clone(p))
			}
			return
		}
		for v := int64(0); v <= max; v++ {
			p[i] = v
			walk(i + 1)
		}
	}
	walk(0)
	return out
}

// contains reports whether p (the dues) satisfies every bound of z.
func (z *zone) contains(p []int64) bool {
	x := func(i int) int64 {
		if i == 0 {
			return 0
		}
		return p[i-1]
	}
	for i := range z.n {
		for j := range z.n {
			if b := z.bound(i, j); b != unbounded && x(i)-x(j) > b {
				return false
			}
		}
	}
	return true
}

func key(p []int64) string { return fmt.Sprint(p) }

func set(ps [][]int64) map[string]bool {
	out := make(map[string]bool, len(ps))
	for _, p := range ps {
		out[key(p)] = true
	}
	return out
}

// randomZone is a closed zone of k dues within [0, max], from a few random
// bounds and differences.
func randomZone(r *rand.Rand, k int, max int64) *zone {
	for {
		z := newZone(k)
		for i := 1; i <= k; i++ {
			z.tighten(i, 0, max)
			z.tighten(0, i, 0)
		}
		for range r.IntN(4) {
			i, j := r.IntN(k+1), r.IntN(k+1)
			if i != j {
				z.tighten(i, j, r.Int64N(2*max+1)-max)
			}
		}
		if z.close() {
			return z
		}
	}
}

// TestZoneOperations checks each operation of zones against its
// definition on every integer point of small zones: elapse is x - t for
// 0 ≤ t ≤ min x; first keeps the points where timer k is due first (ties
// in setting order); fire is x - x_k without timer k.
func TestZoneOperations(t *testing.T) {
	const max = 5
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		k := 1 + r.IntN(3)
		z := randomZone(r, k, max)
		in := points(z, max)

		want := map[string]bool{}
		for _, p := range in {
			for dt := int64(0); dt <= slices.Min(p); dt++ {
				q := slices.Clone(p)
				for i := range q {
					q[i] -= dt
				}
				want[key(q)] = true
			}
		}
		e := &zone{n: z.n, m: slices.Clone(z.m)}
		e.elapse()
		if got := set(points(e, max)); !mapsEqual(got, want) {
			t.Fatalf("elapse of %v: %d points, want %d", z.m, len(got), len(want))
		}

		for slot := range k {
			want := map[string]bool{}
			wantFired := map[string]bool{}
			for _, p := range in {
				first := true
				for j, v := range p {
					if j < slot && !(p[slot] < v) || j > slot && !(p[slot] <= v) {
						first = false
					}
				}
				if !first {
					continue
				}
				want[key(p)] = true
				var q []int64
				for j, v := range p {
					if j != slot {
						q = append(q, v-p[slot])
					}
				}
				wantFired[key(q)] = true
			}
			f := &zone{n: z.n, m: slices.Clone(z.m)}
			nonEmpty := f.first(slot)
			if nonEmpty != (len(want) > 0) {
				t.Fatalf("first(%d) of %v: non-empty %v, want %v", slot, z.m, nonEmpty, len(want) > 0)
			}
			if !nonEmpty {
				continue
			}
			if got := set(points(f, max)); !mapsEqual(got, want) {
				t.Fatalf("first(%d) of %v: %d points, want %d", slot, z.m, len(got), len(want))
			}
			if k == 1 {
				continue
			}
			if got := set(points(f.fire(slot), max)); !mapsEqual(got, wantFired) {
				t.Fatalf("fire(%d) of %v: %d points, want %d", slot, z.m, len(got), len(wantFired))
			}
		}
	}
}

func mapsEqual(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
