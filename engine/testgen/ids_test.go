package testgen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/setbot/setbot/engine/testgen"
)

// TestIDsAreUnique: no two tests of a path-coverage suite share an id, on
// every model with timers the engine's tests use, two_ticks_base.scxml
// among them (two pending ticks, either of which may fire next: the two
// paths fire the same transitions and differ only in the timer). A shared
// id made the delta call a new test retained.
func TestIDsAreUnique(t *testing.T) {
	var models []string
	for _, pattern := range []string{"../testdata/*.scxml", "../testdata/*/*.scxml"} {
		found, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range found {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(src), "delay=") {
				models = append(models, path)
			}
		}
	}
	if len(models) < 3 {
		t.Fatalf("only %d models with timers found: %v", len(models), models)
	}
	twoTicks := false
	for _, path := range models {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := flatten(path, src); err != nil {
			continue // a model of the engine's error tests
		}
		_, _, tests := suiteOf(t, path, src, 6)
		byID := make(map[string]*testgen.Test)
		for _, tc := range tests {
			if other := byID[tc.ID]; other != nil {
				t.Errorf("%s: tests %s share an id:\n%q\n%q", path, tc.ID, other.Identity, tc.Identity)
			}
			byID[tc.ID] = tc
		}
		if filepath.Base(path) == "two_ticks_base.scxml" {
			twoTicks = len(tests) == 3
		}
	}
	if !twoTicks {
		t.Error("two_ticks_base.scxml: not the three tests it has (one per timer that may fire next, and one that fires none)")
	}
}

// TestDeltaKeysOnTimerSlots: against a base suite that lacks one of the
// head's tests, the delta calls exactly that test new, for each test of
// the two-ticks model in turn. Before test ids named the timer, the two
// paths that differ only in which tick fired shared an id, and the delta
// took either for the other: dropped from the base, it was still retained.
func TestDeltaKeysOnTimerSlots(t *testing.T) {
	src, err := os.ReadFile("../testdata/mse/two_ticks_base.scxml")
	if err != nil {
		t.Fatal(err)
	}
	_, set, tests := suiteOf(t, "two_ticks.scxml", src, 6)
	for i, missing := range tests {
		base := append(append([]*testgen.Test{}, tests[:i]...), tests[i+1:]...)
		d, err := testgen.Compare(base, tests, set)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.New) != 1 || d.New[0] != missing || len(d.Retained) != len(base) {
			t.Errorf("base without %q: %d retained, %d new; want %d retained and it new", missing.Identity, len(d.Retained), len(d.New), len(base))
		}
	}
}
