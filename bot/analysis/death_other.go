//go:build unix && !linux

package analysis

import "syscall"

// dieWithParent does nothing where the kernel has no parent-death signal:
// a child whose server died runs to its end, its result unread.
func dieWithParent(*syscall.SysProcAttr) {}
