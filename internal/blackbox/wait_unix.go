//go:build unix && !linux

package blackbox

import (
	"os/exec"
	"syscall"
)

// wait waits for the command and kills, best effort, what is left of its
// process group: a child it put in the background would otherwise outlive
// the analysis. The group's id stays reserved while a member lives.
func wait(cmd *exec.Cmd) error {
	err := cmd.Wait()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	return err
}
