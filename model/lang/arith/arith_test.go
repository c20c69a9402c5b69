package arith

import (
	"math"
	"math/big"
	"math/rand"
	"testing"
)

// TestAgainstBigInt: every operation is the exact result whenever that
// fits int64, and says so exactly then; division and remainder truncate
// as C does, with x / 0 = 0 and x % 0 = x.
func TestAgainstBigInt(t *testing.T) {
	edges := []int64{0, 1, -1, 2, -2, 7, -7, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 32, -(1 << 32)}
	rnd := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		a, b := edges[rnd.Intn(len(edges))], edges[rnd.Intn(len(edges))]
		if i%2 == 1 {
			a, b = rnd.Int63()-rnd.Int63(), rnd.Int63n(1000)-500
		}
		x, y := big.NewInt(a), big.NewInt(b)
		check := func(name string, got int64, ok bool, want *big.Int) {
			t.Helper()
			if ok != want.IsInt64() || ok && got != want.Int64() {
				t.Fatalf("%s(%d, %d) = %d, %v; want %s", name, a, b, got, ok, want)
			}
		}
		s, ok := Add(a, b)
		check("Add", s, ok, new(big.Int).Add(x, y))
		d, ok := Sub(a, b)
		check("Sub", d, ok, new(big.Int).Sub(x, y))
		p, ok := Mul(a, b)
		check("Mul", p, ok, new(big.Int).Mul(x, y))
		q, ok := Quo(a, b)
		r, rok := Rem(a, b)
		if b == 0 {
			if q != 0 || !ok || r != a || !rok {
				t.Fatalf("%d / 0 = %d, %v and %% 0 = %d, %v; want 0 and %d", a, q, ok, r, rok, a)
			}
			continue
		}
		check("Quo", q, ok, new(big.Int).Quo(x, y))
		check("Rem", r, rok, new(big.Int).Rem(x, y))
		n, ok := Neg(a)
		check("Neg", n, ok, new(big.Int).Neg(x))
	}
}
