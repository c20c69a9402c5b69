//go:build unix

package analysis

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup has the child run in a process group of its own: a Ctrl-C at
// the server's terminal, which makes the server drain, does not reach it.
func ownGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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
