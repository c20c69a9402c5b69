package sim_test

import (
	"os"
	"testing"

	"github.com/setbot/setbot/engine/sim"
)

// TestFunctions runs the inlined functions and built-ins of the feature
// model concretely: the values are ECMAScript's, and a recursion deeper
// than the inliner unfolds stops with the call bound.
func TestFunctions(t *testing.T) {
	src, err := os.ReadFile("../../model/mlm/testdata/features/functions.scxml")
	if err != nil {
		t.Fatal(err)
	}
	m := loadString(t, "functions.scxml", string(src))
	replay(t, m, sim.Options{}, []want{
		{state: "Idle", vars: "level=0 area=0 f=0"},
		// triangle(7) = 28, fact(7) = 5040; 28 % 2 is 0, so Boolean() is false.
		{ev: "set(v=7)", state: "Small", vars: "area=28 f=5040"},
		{ev: "set(v=1)", state: "Small", discarded: "every guard is false"},
	})
	replay(t, m, sim.Options{}, []want{
		{state: "Idle"},
		// Math.abs(-15) >= 10; max(clamp(-15, -12, 12), min(0, 3)) = 0;
		// pow(sign(-15), 2) + floor(0) = 1.
		{ev: "set(v=-15)", state: "Big", vars: "level=0 area=1"},
		{ev: "set(v=10)", state: "Idle", vars: "f=3628800"},
		{ev: "set(v=15)", state: "Big", vars: "level=12 area=13"},
		{ev: "set(v=11)", err: "call"},
	})
	// String of an int, a bool and a string.
	replay(t, m, sim.Options{}, []want{
		{state: "Idle"},
		{ev: "label(n=-15)", vars: "name='n-15!'"},
		{ev: "label(n=15)", discarded: "every guard is false"},
		{ev: "label(n=-1)", discarded: "every guard is false"},
	})
	// Rounding decimals: floor, ceil, round (halves up) and trunc.
	replay(t, m, sim.Options{}, []want{
		{state: "Idle"},
		{ev: "scale(d=1.5)", vars: "rounded=1221"},
		{ev: "scale(d=-2.75)", vars: "rounded=-3232"},
		// round(-2.5) is -2, as trunc: the guard is false.
		{ev: "scale(d=-2.5)", discarded: "every guard is false"},
	})
}

// TestConversions runs parseInt, Number of a string and String of a
// decimal concretely: ECMAScript's values, and the number bound where
// ECMAScript's value is NaN (or beyond the exact range).
func TestConversions(t *testing.T) {
	src, err := os.ReadFile("../../model/mlm/testdata/features/conversions.scxml")
	if err != nil {
		t.Fatal(err)
	}
	m := loadString(t, "conversions.scxml", string(src))
	// n = -12 + 7 + 7 + 3; x = 1.5 + 0 - 0.5 + 2.25.
	start := want{state: "Idle", vars: "n=5 x=3.25 label='2.5/3/-0.5/1.125' t=0"}
	replay(t, m, sim.Options{}, []want{start, {ev: "text(s='  +45.9x')", state: "Parsed"}})
	replay(t, m, sim.Options{}, []want{start, {ev: "text(s='0045')", state: "Parsed"}})
	replay(t, m, sim.Options{}, []want{start, {ev: "text(s='-45')", state: "Idle", vars: "t=1"}})
	replay(t, m, sim.Options{}, []want{start, {ev: "text(s='abc')", err: "parseInt of 'abc' is NaN or beyond the range setbot computes exactly (the number bound)"}})
	replay(t, m, sim.Options{}, []want{start, {ev: "text(s='')", err: "number bound"}})
	replay(t, m, sim.Options{}, []want{start, {ev: "text(s='1234567890123456')", err: "number bound"}})
	replay(t, m, sim.Options{}, []want{start,
		{ev: "amount(d=-1.75)", state: "Minus", vars: "label='-1.75'"},
		{ev: "amount(d=0)", err: "conversions.scxml:27:34: parseInt of 'abc' is NaN"},
	})
	replay(t, m, sim.Options{}, []want{start, {ev: "amount(d=-0.5)", state: "Idle", discarded: "every guard is false"}})

}
