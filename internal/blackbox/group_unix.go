//go:build unix

package blackbox

import (
	"os/exec"
	"syscall"
)

// killGroup has the command run in a session of its own, and so in a
// process group of its own, which a timeout or a cancelled run kills
// whole: a script's children go with it. The session also leaves it no
// controlling terminal of setbot's.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
