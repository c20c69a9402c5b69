//go:build !linux

package main

// loadAverage is the machine's load average over the last minute; false
// where setbot does not read it.
func loadAverage() (float64, bool) { return 0, false }
