//go:build unix

package analysis

import (
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// ownGroup has the child run in a process group of its own: a Ctrl-C at
// the server's terminal, which makes the server drain, does not reach it.
func ownGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalOf names the signal that killed a process ("" if none did).
func signalOf(st *os.ProcessState) string {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		if name := unix.SignalName(ws.Signal()); name != "" {
			return name
		}
		return ws.Signal().String()
	}
	return ""
}
