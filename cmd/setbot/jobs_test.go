package main

import "testing"

// TestIdleCPUs: the default --jobs is one worker per CPU that the load
// leaves idle, never fewer than one nor more than the CPUs, and one where
// the load is unknown.
func TestIdleCPUs(t *testing.T) {
	for _, tc := range []struct {
		cpus  int
		load  float64
		known bool
		want  int
	}{
		{2, 0, true, 2},
		{2, 0.3, true, 2},
		{2, 0.9, true, 1},
		{2, 7.5, true, 1},
		{8, 2.2, true, 6},
		{8, -1, true, 8}, // a nonsensical load does not exceed the CPUs
		{8, 0, false, 1},
		{1, 0, true, 1},
	} {
		if got := idleCPUs(tc.cpus, tc.load, tc.known); got != tc.want {
			t.Errorf("idleCPUs(%d, %g, %v) = %d, want %d", tc.cpus, tc.load, tc.known, got, tc.want)
		}
	}
	if n, ok := loadAverage(); ok && n < 0 {
		t.Errorf("load average %g", n)
	}
}
