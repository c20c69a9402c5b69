//go:build unix

package analysis

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup has the child run in a process group of its own, which a
// cancelled job kills whole and at once (SIGKILL: an analysis holds nothing
// that needs a clean stop; what it stored is stored).
func ownGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error { return syscall.Kill(-c.Process.Pid, syscall.SIGKILL) }
}

// signalOf names the signal that killed a process ("" if none did).
func signalOf(st *os.ProcessState) string {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return signalName(ws.Signal())
	}
	return ""
}

// signalName is "SIGKILL" for syscall.SIGKILL, and so on.
func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGABRT:
		return "SIGABRT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGBUS:
		return "SIGBUS"
	}
	return s.String()
}
