package cache

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

// TestPackStops: compressing, decompressing and hashing a blob stop once
// the context ends, and a blob read while it ends is not taken for a
// damaged one.
func TestPackStops(t *testing.T) {
	data := bytes.Repeat([]byte("a suite of many tests "), 3*chunk/10)
	frame, sum, err := pack(context.Background(), "suite", "k", data)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := unpack(context.Background(), "suite", "k", frame, int64(len(data)), sum); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("round trip: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := pack(ctx, "suite", "k", data); !errors.Is(err, context.Canceled) {
		t.Errorf("pack: %v, want the context's error", err)
	}
	if _, err := unpack(ctx, "suite", "k", frame, int64(len(data)), sum); !errors.Is(err, context.Canceled) {
		t.Errorf("unpack: %v, want the context's error", err)
	}
	s, err := Open(t.TempDir()+"/c.db", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Put(context.Background(), "suite", "k", data); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := s.Get(ctx, "suite", "k"); ok || err == nil {
		t.Errorf("read after the end: %v, %v", ok, err)
	}
	if got, ok, err := s.Get(context.Background(), "suite", "k"); !ok || err != nil || !bytes.Equal(got, data) {
		t.Errorf("the blob did not survive a stopped read: %v, %v", ok, err)
	}
}
