package main

import "syscall"

// loadAverage is the machine's load average over the last minute (the
// runnable and waiting processes), and whether it could be read.
func loadAverage() (float64, bool) {
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return 0, false
	}
	return float64(si.Loads[0]) / (1 << 16), true // fixed point, SI_LOAD_SHIFT bits
}
