package testgen_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/setbot/setbot/engine/testgen"
)

// endsAfter is a context that ends after its Err has been asked n times.
type endsAfter struct {
	context.Context
	n int
}

func (c *endsAfter) Err() error {
	if c.n--; c.n < 0 {
		return context.Canceled
	}
	return nil
}

// TestCompareStops: a delta stops with the context's error once the
// context ends, between two tests, instead of replaying the rest (Ctrl-C
// during analyze).
func TestCompareStops(t *testing.T) {
	src, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	_, set, tests := suiteOf(t, "m.scxml", src, 6)
	if len(tests) < 4 {
		t.Fatalf("%d tests", len(tests))
	}
	d, err := testgen.Compare(context.Background(), tests, tests, set)
	if err != nil || len(d.Retained) != len(tests) {
		t.Fatalf("unstopped: %v, %+v", err, d)
	}
	for _, after := range []int{0, 2} {
		d, err := testgen.Compare(&endsAfter{Context: context.Background(), n: after}, tests, tests, set)
		if !errors.Is(err, context.Canceled) || d != nil {
			t.Errorf("ended after %d tests: %v, %+v; want the context's error and no delta", after, err, d)
		}
	}
}

// TestSuiteCodingStops: encoding and decoding a suite for the cache stop
// between two tests once the context ends.
func TestSuiteCodingStops(t *testing.T) {
	src, err := os.ReadFile("../../examples/triangle.scxml")
	if err != nil {
		t.Fatal(err)
	}
	_, set, tests := suiteOf(t, "m.scxml", src, 6)
	data, err := testgen.EncodeSuite(context.Background(), tests)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := testgen.DecodeSuite(context.Background(), set, data); err != nil || len(got) != len(tests) {
		t.Fatalf("unstopped: %d tests, %v", len(got), err)
	}
	if _, err := testgen.EncodeSuite(&endsAfter{Context: context.Background(), n: 2}, tests); !errors.Is(err, context.Canceled) {
		t.Errorf("encoding: %v, want the context's error", err)
	}
	if _, err := testgen.DecodeSuite(&endsAfter{Context: context.Background(), n: 2}, set, data); !errors.Is(err, context.Canceled) {
		t.Errorf("decoding: %v, want the context's error", err)
	}
}
