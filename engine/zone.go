package engine

import (
	"math"
	"slices"
)

// A zone is the set of values the pending timers' dues can take together,
// as timed automata represent clock values: a difference-bound matrix.
// Index 0 is the constant 0 and index i ≥ 1 the due of the (i-1)-th
// pending timer; bound(i, j) is an upper bound of x_i - x_j (so bound(i, 0)
// bounds x_i from above and -bound(0, i) from below), unbounded as
// math.MaxInt64. Every operation keeps the zone closed (each bound as tight
// as the others imply), so two zones are equal when their matrices are.
//
// Dues are whole milliseconds; strict bounds become non-strict ones by 1.
type zone struct {
	n int     // timers + 1
	m []int64 // n×n, row-major
}

const unbounded = math.MaxInt64

// elapsedPrefix starts the names of the variables of elapsed times: dt@N
// for the step into depth N.
const elapsedPrefix = "dt@"

func newZone(timers int) *zone {
	z := &zone{}
	z.init(timers)
	return z
}

// init makes z the zone of timers dues that nothing bounds, in the memory
// z had.
func (z *zone) init(timers int) {
	n := timers + 1
	z.n = n
	z.m = slices.Grow(z.m[:0], n*n)[:n*n]
	for i := range z.m {
		z.m[i] = unbounded
		if i%(n+1) == 0 { // on the diagonal
			z.m[i] = 0
		}
	}
}

func (z *zone) bound(i, j int) int64 { return z.m[i*z.n+j] }

// tighten adds x_i - x_j ≤ c.
func (z *zone) tighten(i, j int, c int64) {
	if c < z.m[i*z.n+j] {
		z.m[i*z.n+j] = c
	}
}

// close makes every bound as tight as the others imply (Floyd-Warshall)
// and reports whether the zone is non-empty.
func (z *zone) close() bool {
	n := z.n
	for k := range n {
		for i := range n {
			ik := z.m[i*n+k]
			if ik == unbounded {
				continue
			}
			for j := range n {
				kj := z.m[k*n+j]
				if kj != unbounded && ik+kj < z.m[i*n+j] {
					z.m[i*n+j] = ik + kj
				}
			}
		}
	}
	for i := range n {
		if z.m[i*n+i] < 0 {
			return false
		}
	}
	return true
}

// elapse lets time pass, by any amount up to the earliest due: every due
// decreases by it. The differences and the upper bounds stay; the lower
// bounds fall to 0. (x' = x - t with 0 ≤ t ≤ min x is exactly a point
// with x' ≥ 0 within those bounds, for a closed zone.)
func (z *zone) elapse() {
	for i := 1; i < z.n; i++ {
		z.m[i] = 0 // row 0: 0 - x_i ≤ 0
	}
	z.close()
}

// first keeps the values where timer k (0-based) fires first: due strictly
// before the timers set before it, no later than those set after it. It
// reports whether any are left.
func (z *zone) first(k int) bool {
	for j := 1; j < z.n; j++ {
		switch {
		case j-1 < k:
			z.tighten(k+1, j, -1)
		case j-1 > k:
			z.tighten(k+1, j, 0)
		}
	}
	return z.close()
}

// fire returns the zone after timer k (0-based) fired, at its due: the
// other dues, less that one, without timer k.
func (z *zone) fire(k int) *zone {
	r := newZone(z.n - 2)
	idx := func(i int) int { // index in z of r's index i
		switch {
		case i == 0:
			return k + 1 // the reference is now x_k
		case i <= k:
			return i
		}
		return i + 1
	}
	for i := range r.n {
		for j := range r.n {
			if i != j {
				r.m[i*r.n+j] = z.bound(idx(i), idx(j))
			}
		}
	}
	return r
}

// exact returns the value of due i (0-based) when the zone leaves it one.
func (z *zone) exact(i int) (int64, bool) {
	hi, lo := z.bound(i+1, 0), z.bound(0, i+1)
	return hi, hi != unbounded && lo != unbounded && hi == -lo
}
