package analysis

import "syscall"

// dieWithParent has the kernel kill the child when the server dies, so
// that a server killed without draining leaves no analysis running.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
