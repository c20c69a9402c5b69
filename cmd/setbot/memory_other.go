//go:build !linux

package main

// physicalMemory is the machine's memory in bytes; 0 where setbot does not read it.
func physicalMemory() int64 { return 0 }
