// Package z3mem is test support: it reads how much memory Z3 has
// allocated, for solver/z3's leak tests. It is a package of its own
// because a test file cannot use cgo, and nothing setbot runs reports Z3's
// memory.
package z3mem

/*
#cgo LDFLAGS: -lz3
#include <stdint.h>

// Exported by libz3 but missing from the 4.8 headers.
extern uint64_t Z3_get_estimated_alloc_size(void);
*/
import "C"

// Allocated returns Z3's estimate of the memory it has allocated, in bytes,
// over every context of the process.
func Allocated() uint64 { return uint64(C.Z3_get_estimated_alloc_size()) }
